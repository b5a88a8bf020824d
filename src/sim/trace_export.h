// The last launch's trace for a process outside the emulator (kgen-oprun sends it to the evaluator).
#pragma once
#include <string>

namespace kgen::sim {
// The trace of the last finished launch in perf/ktrace_io.h's binary form; "" before any launch.
std::string last_trace_encoded();
}  // namespace kgen::sim
