// The timing-only switch and its record of scalar data reads (timing.h).
#include "sim/timing.h"

#include <cstring>

namespace kgen::sim {
namespace {
bool g_timing_only = false;
ValueReads g_reads;
}  // namespace

void set_timing_only(bool on) { g_timing_only = on; }
bool timing_only() { return g_timing_only; }

void note_value_read(const char* api, const rt::Loc& loc) {
  if (!g_timing_only) return;
  if (g_reads.count++ == 0) {
    const char* f = loc.file_name();
    const char* base = f ? std::strrchr(f, '/') : nullptr;
    g_reads.first = std::string(base ? base + 1 : f ? f : "?") + ":" + std::to_string(loc.line()) + " " + api;
  }
}
ValueReads value_reads() { return g_reads; }
void reset_value_reads() { g_reads = ValueReads{}; }
}  // namespace kgen::sim
