// Benchmark metrics over a list of EvalResults (one per sample; several samples per task possible), as the peers
// define them (shared/reference/peer-benchmarks.md §3.1, §4):
//   per task: n samples, c_compile (verdict not compile-error, not no-code and not cheating: the static checks run before the
//   compile, so a cheating candidate is never compiled), c_correct (verdict correct), c_fast(p) (correct and
//   speedup > p, strictly, KernelBench's fastp);
//   compile@k, pass@k, fast_p@k: the unbiased estimator 1 - C(n-c, k)/C(n, k) of the Codex paper, computed as the
//   product 1 - prod_{i=n-c+1..n} (1 - k/i), averaged over the tasks of a group (overall, per level, per category).
//   A task with n < k samples is scored with k' = n (the estimator is undefined for k > n; using n keeps the task in
//   the denominator, like KernelBench's fast_p which divides by all problems, and is exact when n = k would be the
//   whole sample set); such tasks are counted in Group::clamped and named in Metrics::notes.
//   geomean speedup: geometric mean of `speedup` over the correct samples of the group (0 when none).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/result.h"

namespace kgen::eval {

struct MetricsOptions {
  std::vector<int> ks{1};
  std::vector<double> ps{0, 0.5, 0.8, 1, 1.5, 2};
};

struct TaskCounts {
  std::string task_id, category;
  int level = 1;
  int n = 0, c_compile = 0, c_correct = 0;
  std::vector<int> c_fast;                    // per p (MetricsOptions::ps order)
};

struct GroupMetrics {
  std::string name;                           // "overall", "level 1", "activation"
  int tasks = 0, samples = 0, correct_samples = 0;
  int clamped = 0;                            // tasks with n < max(k)
  std::vector<double> compile_at_k;           // per k
  std::vector<double> pass_at_k;              // per k
  std::vector<std::vector<double>> fast_at_k; // [p][k]
  double geomean_speedup = 0;                 // over correct samples; 0 when none
};

struct Metrics {
  std::vector<int> ks;
  std::vector<double> ps;
  std::vector<TaskCounts> tasks;              // by task_id
  GroupMetrics overall;
  std::vector<GroupMetrics> levels;           // by level
  std::vector<GroupMetrics> categories;       // by name
  std::vector<std::string> notes;             // e.g. tasks scored with k' = n < k
};

// Unbiased pass@k estimator for n samples of which c pass (k is clamped to n; 0 when n == 0).
double pass_at_k(int n, int c, int k);
// Groups by task_id (category and level from the task's first result). Ignores ks <= 0 with a note.
Metrics compute_metrics(const std::vector<EvalResult>& results, const MetricsOptions& opt = {});
// The ks a run's results support: 1, and the largest number of samples any task has when that is more than 1 (a
// bench of K samples per task reports pass@1 and pass@K, as `kgen generate --samples K` does).
MetricsOptions metrics_options_for(const std::vector<EvalResult>& results);
// Compact text table: rows overall, each level, each category; columns tasks, then per k compile@k, pass@k,
// fast_1@k (when 1 is among the ps), then geomean speedup. Percentages with one decimal.
std::string metrics_table(const Metrics& m);
nlohmann::json to_json(const Metrics& m);

}  // namespace kgen::eval
