// kgen's CPU implementation of the AscendC kernel API (namespace AscendC), source-compatible with CANN.
// Everything here forwards to the emulator library; see docs/emulator.md for coverage and checks.
#pragma once
#include "kgen/macros.h"
#ifndef KGEN_GE_TYPES_DECLARED   // no host header (graph/types.h) before: the kernel-side DT_ / FORMAT_ macros
#include "kgen/kernel_type_defs.h"
#endif
#include "kgen/types.h"
#include "kgen/enums.h"
#include "kgen/runtime.h"
#include "kgen/tensor.h"
#include "kgen/list_tensor.h"
#include "kgen/tpipe.h"
#include "kgen/data_copy.h"
#include "kgen/sync.h"
#include "kgen/sys.h"
#include "kgen/vec_binary.h"
#include "kgen/vec_unary.h"
#include "kgen/vec_scalar.h"
#include "kgen/vec_misc.h"
#include "kgen/vec_cast.h"
#include "kgen/scalar_convert.h"
#include "kgen/scalar_math.h"
#include "kgen/vec_compare.h"
#include "kgen/vec_reduce.h"
#include "kgen/vec_gather.h"
#include "kgen/adv_math.h"
#include "kgen/adv_norm.h"
#include "kgen/debug.h"
#include "kgen/adv_math2.h"
#include "kgen/adv_norm2.h"
#include "kgen/adv_reduce.h"
#include "kgen/adv_broadcast.h"
#include "kgen/adv_select.h"
#include "kgen/raw_impl.h"
#include "kgen/api_by_address.h"   // CANN's exact function types, for kernels that take an API's address
#include "kgen/cube.h"
#include "kgen/cube_co2.h"
#include "kgen/launch.h"   // a kernel file's host launch stub (kernel<<<...>>>), which kgen cc rewrites
