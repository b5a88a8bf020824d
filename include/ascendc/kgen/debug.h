// Kernel-side debugging: AscendC::printf/PRINTF, DumpTensor, assert, and the ccec intrinsics
// pipe_barrier/set_flag/wait_flag that older kernels call directly.
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
void kernel_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void kernel_assert_failed(const char* cond, Loc loc, const char* fmt, ...);
void dump_tensor(const LocalRef& t, DType dt, uint32_t desc, uint32_t count, Loc loc);
inline void kernel_assert_failed(const char* cond, Loc loc) { kernel_assert_failed(cond, loc, nullptr); }
}  // namespace kgen::rt

namespace AscendC {
template <class... Args> void printf(const char* fmt, Args... args) { kgen::rt::kernel_printf(fmt, args...); }
template <class... Args> void PRINTF(const char* fmt, Args... args) { kgen::rt::kernel_printf(fmt, args...); }
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::dump_tensor(kgen::TensorAccess::ref(tensor), kgen::dtype_of<T>(), desc, dumpSize, loc);
}
}  // namespace AscendC

// assert(cond) and assert(cond, fmt, args...) as in CANN's kernel debug API (do not include <assert.h>).
#undef assert
#define assert(cond, ...) \
  ((cond) ? (void)0 : ::kgen::rt::kernel_assert_failed(#cond, ::kgen::rt::Loc::current() __VA_OPT__(, ) __VA_ARGS__))
// ASSERT is CANN's CPU-debug-only check: the device build defines it empty (asc-devkit impl/basic_api/
// kernel_macros.h): the call is not even compiled on the chip (a missing ';' after it goes unnoticed), and kgen
// does the same.
#define ASSERT(cond)

inline void pipe_barrier(pipe_t pipe, kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::pipe_barrier(pipe, loc); }
void set_flag(pipe_t src, pipe_t dst, event_t id, kgen::rt::Loc loc = kgen::rt::Loc::current());
void wait_flag(pipe_t src, pipe_t dst, event_t id, kgen::rt::Loc loc = kgen::rt::Loc::current());
