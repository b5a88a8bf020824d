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
//   case score (NPUKernelBench's task score, docs/BENCHMARK_EVALUATION.md of weich97/NPUKernelBench): per task the
//   fraction of its cases a sample passes (a sample that did not run passes none), averaged over its samples; per
//   group the mean over its tasks; the NPUKernelBench score 0.2 L1 + 0.3 L2 + 0.5 L3 of the levels' case scores, the
//   weights renormalised over the levels the run has (levels above 3 weigh nothing), said so in its note.
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
  double case_score = 0;                      // mean over samples of (cases passed / cases), 0..1
};

struct GroupMetrics {
  std::string name;                           // "overall", "level 1", "activation"
  int tasks = 0, samples = 0, correct_samples = 0;
  int clamped = 0;                            // tasks with n < max(k)
  std::vector<double> compile_at_k;           // per k
  std::vector<double> pass_at_k;              // per k
  std::vector<std::vector<double>> fast_at_k; // [p][k]
  double geomean_speedup = 0;                 // over correct samples; 0 when none
  double case_score = 0;                      // mean of the tasks' case scores, 0..1
};

struct WeightedScore {                        // NPUKernelBench's final score over the levels' case scores
  double score = 0;                           // 0..1
  std::vector<std::pair<int, double>> weights;// (level, weight as applied, renormalised) of the levels present
  std::string note;                           // how it was weighted
};

struct Metrics {
  std::vector<int> ks;
  std::vector<double> ps;
  std::vector<TaskCounts> tasks;              // by task_id
  GroupMetrics overall;
  std::vector<GroupMetrics> levels;           // by level
  std::vector<GroupMetrics> categories;       // by name
  WeightedScore npukb_score;
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
// fast_1@k (when 1 is among the ps), case score, then geomean speedup, and the NPUKernelBench score's line.
// Percentages with one decimal.
std::string metrics_table(const Metrics& m);
nlohmann::json to_json(const Metrics& m);

}  // namespace kgen::eval
