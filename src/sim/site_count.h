// How often something happened during a launch, and where the first time: "file:line API" (the basename of the
// file). The timing-only run's value reads (timing.h) and the uses of released tensors (stale_tensor.h) keep one.
#pragma once
#include <cstdint>
#include <string>

#include "kgen/runtime.h"

namespace kgen::sim {
struct SiteCount {
  uint64_t count = 0;
  std::string first;
  void note(const char* api, const rt::Loc& loc);
};
}  // namespace kgen::sim
