// SiteCount::note (site_count.h).
#include "sim/site_count.h"

#include <cstring>

namespace kgen::sim {
void SiteCount::note(const char* api, const rt::Loc& loc) {
  if (count++ != 0) return;
  const char* f = loc.file_name();
  const char* base = f ? std::strrchr(f, '/') : nullptr;
  first = std::string(base ? base + 1 : f ? f : "?") + ":" + std::to_string(loc.line()) + " " + api;
}
}  // namespace kgen::sim
