// The perf shape of a task (its PERF overrides, reference.py --perf): a correct op project timed timing-only at the
// benchmark's real size, its modeled time beside eager PyTorch's at the same shape (EvalResult::perf).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/evaluate.h"

namespace kgen::eval {
struct PerfRun {
  std::string project;                // the op project's folder
  std::vector<std::string> libs;      // its prebuilt libraries (op/prebuild.h), bound read-only
  std::string failed_builds;          // op::write_failed_builds' folder, "" when none
  std::vector<std::string> attrs;     // NAME=VALUE from the perf shape's init values
};
// Fills R.perf from the manifest's {"name", "dir"} entry: skipped (with why) when the shape has no reference; a
// failure there (fault, timeout, no trace, a trace below physics) is R's verdict, since the benchmark runs that size.
void time_perf_shape(const EvalOptions& o, const nlohmann::json& perf, const PerfRun& run, EvalResult& R);
}  // namespace kgen::eval
