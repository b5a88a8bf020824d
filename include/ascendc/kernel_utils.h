// CANN kernel_utils.h (asc-devkit impl/basic_api/kernel_utils.h): the basic API's internal utilities, which cann-ops
// kernels include by this name. kgen's are part of kernel_operator.h (AscendCUtils: kgen/vec_misc.h).
#pragma once
#include "kernel_operator.h"
