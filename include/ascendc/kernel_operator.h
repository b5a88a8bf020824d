// kgen's CPU implementation of the AscendC kernel API (namespace AscendC), source-compatible with CANN.
// Everything here forwards to the emulator library; see docs/emulator.md for coverage and checks.
#pragma once
#include "kgen/macros.h"
#include "kgen/types.h"
#include "kgen/enums.h"
#include "kgen/runtime.h"
#include "kgen/tensor.h"
#include "kgen/tpipe.h"
#include "kgen/data_copy.h"
#include "kgen/sync.h"
#include "kgen/sys.h"
#include "kgen/vec_binary.h"
