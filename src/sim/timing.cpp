// The timing-only switch and its record of scalar data reads (timing.h).
#include "sim/timing.h"

namespace kgen::sim {
namespace {
bool g_timing_only = false;
ValueReads g_reads;
}  // namespace

void set_timing_only(bool on) { g_timing_only = on; }
bool timing_only() { return g_timing_only; }

void note_value_read(const char* api, const rt::Loc& loc) {
  if (g_timing_only) g_reads.note(api, loc);
}
ValueReads value_reads() { return g_reads; }
void reset_value_reads() { g_reads = ValueReads{}; }
}  // namespace kgen::sim
