// Shared checks of the high-level (adv) APIs: temporary-buffer size, free UB for framework-allocated
// temporaries, and operand overlap.
#pragma once
#include <string>

#include "sim/elementwise.h"

namespace kgen::sim {
// Byte ranges [a.addr, a.addr+ab) and [b.addr, b.addr+bb) of the same memory intersect.
inline bool adv_overlap(const rt::LocalRef& a, uint64_t ab, const rt::LocalRef& b, uint64_t bb) {
  const Soc& soc = *cur().soc;
  if (mem_of(a.pos, soc) != mem_of(b.pos, soc) || ab == 0 || bb == 0) return false;
  return a.addr < b.addr + bb && b.addr < a.addr + ab;
}
inline void adv_no_overlap(const rt::LocalRef& a, uint64_t ab, const char* an, const rt::LocalRef& b, uint64_t bb,
                           const char* bn, const char* api, const Loc& loc) {
  if (adv_overlap(a, ab, b, bb))
    fail("param", api, loc, std::string(an) + " [" + std::to_string(a.addr) + ", " + std::to_string(a.addr + ab) +
                                ") overlaps " + bn + " [" + std::to_string(b.addr) + ", " + std::to_string(b.addr + bb) +
                                "); " + api + " does not allow it (use separate buffers)");
}
// The sharedTmpBuffer holds at least `need` bytes, or (tmp == nullptr) UB has `need` bytes left after the TPipe's
// buffers for the framework to take.
inline void adv_tmp(const rt::LocalRef* tmp, uint64_t need, const char* api, const Loc& loc, const std::string& why) {
  if (tmp) {
    if (tmp->len < need)
      fail("param", api, loc, "sharedTmpBuffer holds " + std::to_string(tmp->len) + " bytes but " + why +
                                  " needs at least " + std::to_string(need) + " bytes (CANN's minimum temporary size); enlarge it");
    return;
  }
  Core& c = cur();
  uint64_t cap = c.soc->mem_size[static_cast<int>(Mem::UB)];
  uint64_t used = c.pipe ? c.pipe->bump[static_cast<int>(Mem::UB)] : 0;
  if (used + need > cap)
    fail("ub-overflow", api, loc, std::string(api) + " allocates its " + std::to_string(need) +
                                      "-byte temporary buffer from free UB, but the TPipe's buffers leave only " +
                                      std::to_string(cap > used ? cap - used : 0) + " of " + std::to_string(cap) +
                                      " bytes; shrink the InitBuffer sizes or pass a sharedTmpBuffer");
}
}  // namespace kgen::sim
