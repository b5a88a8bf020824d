// Qualifiers and macros of the AscendC dialect, as the CPU build sees them (CANN's CPU debug mode).
#pragma once
#include <cstdint>

#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

#define __global__
#define __aicore__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __inline__ inline
#define GM_ADDR __gm__ uint8_t*
// Branch hints of CANN's kernel_utils_macros.h, which kernels use unincluded (cann-ops reduce_common.h).
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef __forceinline__
#define __forceinline__ inline
#endif
