// Record-by-record comparison of two launch traces: a timing-only run is exact when its trace equals the full run's
// (kgen op run --timing-check; sim/timing.h).
#pragma once
#include <string>

#include "perf/model.h"

namespace kgen::perf {
// "" when every core has the same records with the same fields (API names compared by name), else the first
// difference: "core 3 (block 1 AIV), record 17: full DataCopy line 40 elems 2048 ..., timing-only ...".
std::string first_difference(const KTrace& full, const KTrace& timing);
// The same for two traces as bytes (perf/ktrace_io.h), decoded as hostile input; a trace that does not decode is
// itself the difference.
std::string first_difference(const std::string& full_bytes, const std::string& timing_bytes);
}  // namespace kgen::perf
