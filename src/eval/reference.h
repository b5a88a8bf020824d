// The reference data of a task: python/kgen_eval/reference.py (under /usr/bin/python3, trusted: the task file is
// the benchmark's, not the candidate's) writes, per case and trial, the inputs, the reference outputs and the eager
// aten trace into kgen's cache. Secret trials (a seed drawn per run) go to a folder of their own that the evaluator
// deletes after the run. Candidates never see these folders: only the input files are bound into their sandbox.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/result.h"

namespace kgen::eval {
struct EvalOptions;

struct RefRequest {
  std::vector<std::string> cases;   // empty: every case of the task
  int trials = 0;
  bool mkb_seeding = false;          // MultiKernelBench submissions (reference.py --seeding mkb)
  bool perf = false;                 // also the task's perf shape (reference.py --perf): manifest "perf"
  int secret_trials = 0;
  uint64_t secret_seed = 0;
  std::string secret_cache;
};
// The manifest reference.py prints ({"task_id", "category", "level", "cases": [{"name", "trials": [DIR...],
// "secret_trials": [DIR...]}], "perf": {"name", "dir"} with q.perf and a PERF in the task), or false with diagnostics (error[task] ... first).
bool reference_data(const EvalOptions& o, const RefRequest& q, nlohmann::json& doc, std::vector<std::string>& diags);
// The reference of an evaluation: `q` completed with the options' secret trials, the time in R.reference_s, the
// task's id, category and level in R; false with R failed (runtime-error, category "task") when the task fails.
bool load_reference(const EvalOptions& o, RefRequest q, EvalResult& R, nlohmann::json& doc);
// A seed no candidate can predict (std::random_device), for one run's secret trials.
uint64_t draw_secret_seed();
}  // namespace kgen::eval
