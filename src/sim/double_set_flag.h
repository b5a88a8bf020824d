// SetFlag on an event id whose earlier SetFlag has not been waited. CANN's SetFlag/WaitFlag page calls it undefined
// behaviour and shows the one way it fails: a PipeBarrier<PIPE_ALL> while both are pending hangs. Otherwise the flag
// counts (NPUKernelBench's AddRmsNorm answer, correct on the chip, sets one id twice and waits it twice), so kgen
// counts it, reports the launch's first such site as a warning, and makes that barrier error[deadlock].
#pragma once
#include <string>

#include "sim/site_count.h"

namespace kgen::sim {
void note_double_set(const char* api, const rt::Loc& loc);
void reset_double_sets();
// The warning line for the launch of `kernel` ("" when no id was set twice).
std::string double_set_warning(const char* kernel);
}  // namespace kgen::sim
