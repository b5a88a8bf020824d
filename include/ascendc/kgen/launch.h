// Launching a kernel on emulated cores: what ICPU_RUN_KF (tikicpulib.h) and the kernel<<<...>>>(...) launches
// that `kgen cc` rewrites (acl/acl.h hosts) expand to.
#pragma once
#include <cstdint>
#include <source_location>
#include <type_traits>

#ifndef KGEN_SOC
#define KGEN_SOC "Ascend910B2"
#endif

namespace kgen::rt {
using Loc = std::source_location;
void launch(const char* kernel, uint32_t block_dim, const char* soc, void (*thunk)(void*), void* ctx, Loc loc);
template <class F> void launch_fn(const char* kernel, uint32_t block_dim, F&& f, Loc loc) {
  launch(kernel, block_dim, KGEN_SOC, [](void* p) { (*static_cast<std::remove_reference_t<F>*>(p))(); }, &f, loc);
}
}  // namespace kgen::rt

namespace kgen::rt {
// The form `kgen cc` rewrites kernel<<<blockDim, l2ctrl, stream>>>(args) into: the location comes first so that
// it is the launch's first line even when the arguments span several lines.
template <class F> void launch_at(const char* kernel, Loc loc, uint32_t block_dim, F&& f) {
  launch_fn(kernel, block_dim, static_cast<F&&>(f), loc);
}
}  // namespace kgen::rt
