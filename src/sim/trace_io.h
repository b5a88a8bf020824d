// The trace of one launch, kept after its cores finish, and its JSON form.
#pragma once
#include <string>
#include <vector>

#include "sim/core.h"

namespace kgen::sim {
struct CoreTrace {
  int32_t block;
  const char* core_type;   // "AIV" or "AIC"
  int32_t sub_block = 0;   // GetSubBlockIdx() of an AIV (0 or 1 in a MIX 1:2 kernel)
  std::vector<TraceRec> recs;
};
struct LaunchTrace {
  std::string kernel, soc;
  uint32_t block_dim = 0;
  std::vector<CoreTrace> cores;
};
bool write_trace_json(const std::string& path, const LaunchTrace& t);
const LaunchTrace& last_launch_trace();
// The trace in the performance model's binary form (perf/ktrace_io.h), GM addresses as (allocation, offset).
std::string encode_trace(const LaunchTrace& t);
}  // namespace kgen::sim
