// CANN runtime's runtime/rt_ffts.h, as far as bindings use it: rtGetC2cCtrlAddr, the FFTS control address that
// kernels synchronising cube and vector cores by hand receive as an argument and install (SetSyncBaseAddr). kgen's
// emulator orders cross-core flags itself, so the address is a fixed non-zero token no kernel needs to install.
#pragma once
#include <cstdint>

#ifndef KGEN_RT_ERROR_T
#define KGEN_RT_ERROR_T
typedef int32_t rtError_t;
#endif
#ifndef RT_ERROR_NONE
#define RT_ERROR_NONE 0
#endif

inline rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len)
{
    if (addr != nullptr) *addr = 0x10000;   // a token: not memory a kernel may touch
    if (len != nullptr) *len = 0;
    return RT_ERROR_NONE;
}
