// `kgen bench`: a suite of tasks against a folder of candidates, evaluated in parallel, resumable through the results
// store (store.h), summarized as results.json (the document report_html.h renders).
//
// Candidates layout (DIR, default candidates/), mirroring the suite's tasks/<category>/<name>.py:
//   DIR/<category>/<name>/            an op project (sample 0)
//   DIR/<category>/<name>.py          a MultiKernelBench submission (sample 0)
//   DIR/<category>/<name>/<k>/        sample k (k a non-negative integer): an op project...
//   DIR/<category>/<name>/<k>.py      ...or a submission, when <name>/ holds only numbered entries
//   DIR/<category>/<name>.<k>.py      sample k as a submission
// With a generator (generate.h) the bench first fills OUT/generated/ in this layout, sample k of each task as
// <name>/<k>/ or <name>/<k>.py, with a stamp .<k>.stamp (generator spec, its settings, task hash): a later run with
// the same generator and settings and an unchanged task reuses the candidate instead of generating it again. Failed
// generations are compile-error (or no-code) results, not stored: they are retried next time.
// Symlinks are followed. Files and folders starting with '.' or '_' and README* are ignored. Two candidates for one
// (task, sample) are an error; a candidate for a task not in the suite is reported and skipped; a suite task without
// any candidate is `missing` (not evaluated, not in the metrics).
//
// Resume: each (task, sample) is looked up in the store by (task_hash, candidate_hash, kgen_version, soc, sample)
// (evaluate.h: task_hash_of / candidate_hash_of) and reused unless `rerun`; each fresh result is put in the store as
// soon as it finishes (a kill -9 loses at most the evaluations in flight).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/evaluate.h"
#include "eval/generate.h"
#include "eval/metrics.h"
#include "eval/result.h"

namespace kgen::eval {

struct BenchTask {
  std::string id, category, path;   // "activation/leaky_relu", "activation", absolute .py path
  int level = 1;
};

struct BenchCandidate {
  std::string task_id;              // "activation/leaky_relu"
  int sample = 0;
  std::string path;                 // as found (under the candidates folder; symlinks not resolved)
  std::string rel;                  // relative to the candidates folder
};

struct BenchProgress {
  const char* phase = "evaluate";   // "generate" (a --generator writing candidates) or "evaluate"
  int done = 0, total = 0;          // evaluations finished / to do (fresh ones; reused results are not counted)
  int reused = 0;                   // taken from the store
  int passed = 0;                   // correct so far, reused included
  double elapsed_s = 0, eta_s = -1; // eta_s < 0: unknown yet
  std::string current;              // a task being evaluated ("" when none)
  const EvalResult* finished = nullptr;  // the result that just finished (nullptr for a start notice)
};

struct BenchOptions {
  std::string suite = "tasks";
  std::string candidates = "candidates";
  std::string generator;            // when set: candidates come from this generator (generate.h) into OUT/generated
  int samples = 1;                  // samples per task from the generator (pass@k needs k <= samples)
  GeneratorOptions gen;
  std::string filter;               // substring of the task id (as `kgen tasks list --filter`)
  std::string out = "bench-out";
  std::string store;                // default OUT/results.db; a postgresql:// URL: a store shared between hosts
  std::string cluster;              // a Dask scheduler (tcp://HOST:8786) to evaluate on; "" : $KGEN_CLUSTER, else here
  int jobs = 2;
  bool rerun = false;
  EvalOptions eval;                 // soc, trials, tolerances, limits (task and candidate are set per item)
  std::function<void(const BenchProgress&)> progress;  // called from worker threads, serialized
};

struct BenchRun {
  std::vector<BenchTask> tasks;     // the suite after --filter
  std::vector<EvalResult> results;  // one per (task, sample) with a candidate, by task id then sample
  std::vector<std::string> missing; // suite task ids without a candidate
  std::vector<std::string> notes;   // candidates for tasks not in the suite, ...
  int evaluated = 0, reused = 0;
  std::string store_path;
  Metrics metrics;                  // over `results`, @1 and @K for K samples per task (metrics_options_for)
  std::vector<Metrics> by_round;    // an LLM generator's metrics as of each repair round (round_metrics.h)
  nlohmann::json doc;               // the results.json document
};

// Suite tasks via python/kgen_eval/tasks.py list --json. False with err (precise) when the suite cannot be listed.
bool list_suite(const std::string& suite, const std::string& filter, const std::string& python,
                std::vector<BenchTask>& tasks, std::string& err);
// Candidates under dir (layout above). False with err when dir is not a folder or two candidates claim one sample.
bool find_candidates(const std::string& dir, std::vector<BenchCandidate>& cands, std::vector<std::string>& notes,
                     std::string& err);
// The whole run: list, match, look up / evaluate / store, build the results document. False with err on a problem
// that stops the run (suite, candidates folder, store); evaluation failures are verdicts, not errors.
bool run_bench(const BenchOptions& o, BenchRun& run, std::string& err);
// The text files of a candidate (relative path -> content; large or binary files replaced by a note).
nlohmann::json candidate_sources(const std::string& path);

}  // namespace kgen::eval
