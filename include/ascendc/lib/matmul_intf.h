// CANN's kernel-side entry of the high-level Matmul API. Define ASCENDC_CUBE_ONLY before including it for a
// pure-cube kernel (the Matmul then runs on the AIC itself instead of being served to the AIV).
#pragma once
#include "kernel_operator.h"
#include "kgen/matmul.h"
