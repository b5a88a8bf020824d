// CANN impl/dav_c220/kernel_operator_reg_others_impl.h (asc-devkit impl/basic_api/dav_c220/): AscendC wrappers of
// the Atlas A2 core's special-register builtins. cann-ops kernels include it for the sub-block queries of a MIX
// kernel; kgen provides those, read from the emulated core (kgen/sys.h). The rest of the CANN header (AIPP, FFTS and
// debug registers, ld_dev/st_dev) is not modelled and does not compile here.
#pragma once
#include "kernel_operator.h"

namespace AscendC {
__aicore__ inline int64_t GetSubBlockDim() { return get_subblockdim(); }   // 1 on an AIC, the task ratio on an AIV
__aicore__ inline int64_t GetSubBlockId() { return get_subblockid(); }     // an AIV's index in its block
}  // namespace AscendC
