// Kernel printf, DumpTensor, assert, and the set_flag/wait_flag intrinsics (mapped onto HardEvent flags).
#include <cstdarg>
#include <cstdio>
#include <string>

#include "kgen/debug.h"
#include "sim/core.h"
#include "sim/elementwise.h"

namespace kgen::rt {
using namespace kgen::sim;

void kernel_printf(const char* fmt, ...) {
  std::va_list ap;
  va_start(ap, fmt);
  std::vprintf(fmt, ap);
  va_end(ap);
}

void kernel_assert_failed(const char* cond, Loc loc, const char* fmt, ...) {
  std::string msg = std::string("assertion '") + cond + "' failed";
  if (fmt) {
    char buf[1024];
    std::va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    msg += ": ";
    msg += buf;
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
  }
  sim::fail("assert", "assert", loc, msg);
}

void dump_tensor(const LocalRef& t, DType dt, uint32_t desc, uint32_t count, Loc loc) {
  const uint8_t* p = touch(t, 0, static_cast<uint64_t>(count) * dtype_size(dt), false, kS, "DumpTensor", loc);
  std::printf("DumpTensor: desc=%u, addr=%u, dtype=%s, count=%u\n", desc, t.addr, dtype_name(dt), count);
  dispatch(dt, "DumpTensor", loc, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (uint32_t i = 0; i < count; ++i) {
      if constexpr (std::is_floating_point_v<Calc<T>>)
        std::printf("%g%s", static_cast<double>(static_cast<Calc<T>>(load<T>(p + i * sizeof(T)))), i + 1 < count ? ", " : "\n");
      else
        std::printf("%lld%s", static_cast<long long>(load<T>(p + i * sizeof(T))), i + 1 < count ? ", " : "\n");
    }
  });
}
}  // namespace kgen::rt

namespace {
// The HardEvent whose source and destination pipes are (src, dst), or MAX if none.
AscendC::HardEvent event_of(pipe_t src, pipe_t dst) {
  kgen::sim::Pipe s = kgen::sim::pipe_from(src), d = kgen::sim::pipe_from(dst);
  for (int e = 0; e < static_cast<int>(AscendC::HardEvent::MAX); ++e) {
    kgen::sim::Pipe a, b;
    kgen::sim::event_pipes(static_cast<AscendC::HardEvent>(e), a, b);
    if (a == s && b == d) return static_cast<AscendC::HardEvent>(e);
  }
  return AscendC::HardEvent::MAX;
}
}  // namespace

void set_flag(pipe_t src, pipe_t dst, event_t id, kgen::rt::Loc loc) { kgen::rt::set_flag(event_of(src, dst), id, loc); }
void wait_flag(pipe_t src, pipe_t dst, event_t id, kgen::rt::Loc loc) { kgen::rt::wait_flag(event_of(src, dst), id, loc); }
