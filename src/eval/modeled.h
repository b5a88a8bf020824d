// Modeled time of a candidate, computed by the evaluator from the launch traces its sandboxed run sent (the
// performance model, src/perf, on the named SoC profile): the candidate's process never computes its own time.
// Because the trace comes from a process that ran candidate code, it is checked against physics: a launch cannot
// take less than the launch cost plus the time to write the task's outputs (every element must be written; inputs
// may legitimately be read in part, as by a gather) at the chip's fastest rate (its L2 bandwidth when they fit in L2,
// else peak HBM: lower_bound_us); a trace that claims less did not come from the kernel's work.
#pragma once
#include <string>
#include <vector>

#include "eval/result.h"
#include "perf/host_path.h"
#include "perf/profile.h"

namespace kgen::eval {
// Each launch is one op call from PyTorch (the custom op through aclnn) on the host path an eager aten op takes too
// (perf/host_path.h): host_call_us() on the host, then the launch's steady_us (the back-to-back head of its kind +
// body) on the device.
struct Modeled {
  perf::HostPath path;
  double body_us = 0;         // the launches' bodies
  double device_us = 0;       // the launches back to back on the device (heads + bodies): what the physics floor checks
  double us = 0;              // end to end over the calls (path.e2e_us(): what MultiKernelBench's event pair sees)
  double launch_us = 0;       // of us: what is not a body (host dispatch on the way, launch heads)
  double gm_bytes = 0, flops = 0;
  double longest_us = -1;
  std::string bound;          // of the longest launch
  std::string lanes;          // perf/lanes.cpp JSON of the longest launch (when asked for)
  int launches = 0;
  // --profile: when set, each launch's profile goes to PREFIX_<n>_<kernel>.* (perf::write_profile), its Perfetto
  // timeline too unless profile_timeline is false (a timing-only run's millions of records); the paths written.
  std::string profile_prefix;
  bool profile_timeline = true;
  std::vector<std::string> profile_files;
};
// The host cost of one op call, eager or custom: hardware/eager/torch_npu.json's host_dispatch_us (read once).
double host_call_us();
// Adds one launch's binary trace (perf/ktrace_io.h) to `m`. False with `err` when the bytes are not a valid trace.
bool add_launch(const std::string& trace_bytes, const perf::Profile& p, bool lanes, Modeled& m, std::string& err);
void set_modeled(CaseResult& c, const Modeled& m);
// DIR/<what>, with what made a file name (a case name such as "dtype=float16,batch=4" keeps letters, digits, '=',
// '.', '-', '_'; the rest become '_').
std::string profile_prefix(const std::string& dir, const std::string& what);
void set_modeled(PerfResult& p, const Modeled& m);
// The lightest a forward can be: launches x launch_pipelined_us + bytes / bound_gbps, in us.
double lower_bound_us(double bytes, int launches, const perf::Profile& p);
double bound_gbps(double bytes, const perf::Profile& p);
// The report's timeline from lanes JSON (empty Timeline when unreadable).
Timeline timeline_of(const std::string& lanes_json, const std::string& case_name);
}  // namespace kgen::eval
