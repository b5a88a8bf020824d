// Counting accesses past a tensor's buffer (buffer_overrun.h).
#include "sim/buffer_overrun.h"

namespace kgen::sim {
namespace {
SiteCount g_overruns;
std::string g_first_what;
}  // namespace
void note_buffer_overrun(const char* api, const rt::Loc& loc, const std::string& what) {
  if (g_overruns.count == 0) g_first_what = what;
  g_overruns.note(api, loc);
}
void reset_buffer_overruns() {
  g_overruns = SiteCount{};
  g_first_what.clear();
}
std::string buffer_overrun_warning(const char* kernel) {
  if (g_overruns.count == 0) return "";
  return "warning[buffer-overrun] kernel " + std::string(kernel) + ": " + std::to_string(g_overruns.count) +
         " access(es) ran past the end of their tensor's buffer (first: " + g_overruns.first + " " + g_first_what +
         "); the chip checks no buffer bounds, so they touched the bytes that follow, another buffer's included, as "
         "here: size the buffer (InitBuffer, TBuf::Get) for the count";
}
}  // namespace kgen::sim
