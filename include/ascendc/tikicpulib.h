// CANN's CPU-debug host interface: GM allocation and launching a kernel on blockDim emulated cores.
#pragma once
#include <cstddef>
#include <cstdint>
#include "kgen/macros.h"
#include "kgen/enums.h"
#include "kgen/runtime.h"
#include "kgen/launch.h"

namespace kgen::rt {
void set_tiling_key(uint64_t key);
void set_kernel_mode(AscendC::KernelMode mode);
}  // namespace kgen::rt

namespace AscendC {
void* GmAlloc(size_t size);
void GmFree(void* ptr);
inline void SetKernelMode(KernelMode mode) { kgen::rt::set_kernel_mode(mode); }
}  // namespace AscendC
using AscendC::KernelMode;

#define ICPU_RUN_KF(func, blockdim, ...) \
  ::kgen::rt::launch_fn(#func, (blockdim), [&]() { func(__VA_ARGS__); }, ::kgen::rt::Loc::current())
#define ICPU_SET_TILING_KEY(key) ::kgen::rt::set_tiling_key(key)
