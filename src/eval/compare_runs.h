// Two bench runs side by side (`kgen compare A B`): the metrics of each and per task the best sample's verdict and
// modeled speedup in both, with what changed — fixed, broken, faster, slower — the way KernelBench users compare two
// models or two versions of one. Tasks only one run has are counted, not compared.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/metrics.h"
#include "eval/result.h"

namespace kgen::eval {
struct RunFile {
  std::string path;                 // results.json
  std::string label;                // its generator or candidates folder, and when it was made
  std::string soc;
  int trials = 0;
  std::vector<EvalResult> results;
  Metrics metrics;
};
// Reads a bench's results.json (or the folder holding it). False with err naming the file and the problem.
bool load_run(const std::string& path, RunFile& run, std::string& err);

struct TaskDelta {
  std::string task_id;
  Verdict a = Verdict::NoCode, b = Verdict::NoCode;   // each run's best sample (eval::better)
  double speedup_a = 0, speedup_b = 0;                // modeled, 0 unless correct
  std::string change;   // "fixed", "broken", "faster", "slower", "same", "other verdict"
};
struct RunComparison {
  std::vector<TaskDelta> tasks;     // in both runs, by task id
  std::vector<std::string> only_a, only_b;
  int fixed = 0, broken = 0, faster = 0, slower = 0;
  std::vector<std::string> notes;   // e.g. different SoC profiles: speedups not comparable
};
// `ratio`: a correct task is faster (slower) when speedup_b / speedup_a is above ratio (below 1 / ratio).
RunComparison compare_runs(const RunFile& a, const RunFile& b, double ratio = 1.1);
// The text report: both runs' overall metrics and their difference, the counts, then one line per task that changed
// (every task with `all`).
std::string comparison_text(const RunFile& a, const RunFile& b, const RunComparison& c, bool all);
nlohmann::json to_json(const RunFile& a, const RunFile& b, const RunComparison& c);
std::string comparison_csv(const RunComparison& c);
}  // namespace kgen::eval
