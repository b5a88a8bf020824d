// CANN's per-API header of the high-level math library (lib/math/kernel_operator_exp_intf.h, which kernels of the
// CANN 7/8.0 op projects include by name); every kgen API is declared by kernel_operator.h.
#pragma once
#include "kernel_operator.h"
