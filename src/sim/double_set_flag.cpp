// Counting SetFlags on an id already set (double_set_flag.h).
#include "sim/double_set_flag.h"

namespace kgen::sim {
namespace {
SiteCount g_sets;
}
void note_double_set(const char* api, const rt::Loc& loc) { g_sets.note(api, loc); }
void reset_double_sets() { g_sets = SiteCount{}; }
std::string double_set_warning(const char* kernel) {
  if (g_sets.count == 0) return "";
  return "warning[double-set-flag] kernel " + std::string(kernel) + ": " + std::to_string(g_sets.count) +
         " SetFlag(s) on an event id whose earlier SetFlag was not yet waited (first: " + g_sets.first +
         "); CANN calls this undefined behaviour: the chip's flag counts (each WaitFlag takes one) but a "
         "PipeBarrier<PIPE_ALL> while two are pending hangs; take a distinct id (AllocEventID) or wait before setting "
         "again";
}
}  // namespace kgen::sim
