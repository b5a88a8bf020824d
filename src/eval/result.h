// What one evaluation of one candidate on one task produces: plain data shared by the evaluator (evaluate.*), the
// results store (store.*), the metrics (metrics.*) and the reports. Times are modeled (performance model, named SoC).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kgen::eval {
// NoCode: a generated reply with no usable code in it (an LLM generator's own verdict; counts as not compiled).
enum class Verdict { CompileError, RuntimeError, Timeout, WrongAnswer, Cheating, Correct, NoCode };
const char* verdict_name(Verdict v);              // "compile-error", "runtime-error", "timeout", "wrong-answer", "cheating", "correct", "no-code"
bool parse_verdict(const std::string& s, Verdict& v);

struct CaseResult {                               // one case (shape/dtype) of the task, over all its trials
  std::string name;                               // "default", "dtype=float16,dim=777", ...
  bool correct = false;
  double max_abs_err = 0, max_rel_err = 0;
  std::string first_mismatch;                     // "output 0 index [3, 17]: got 1.5, want 1.25" when wrong
  double modeled_us = 0;                          // candidate kernel time(s) of one forward, modeled
  double eager_modeled_us = 0;                    // eager PyTorch (torch_npu) time of one forward, modeled
  double gm_bytes = 0;                            // bytes the candidate moved between GM and the cores, modeled
  double flops = 0;                               // its cube + vector operations (roofline: flops / gm_bytes)
  std::string bound;                              // what limits its longest launch: HBM, vector, cube, launch, ...
  double launch_us = 0, eager_launch_us = 0;      // of modeled_us / eager_modeled_us: what is not the kernels' own
                                                  // work (host dispatch on the way, launch heads: perf/host_path.h)
  double tol_err = 0;                             // max |got - want| / (atol + rtol |want|): <= 1 when correct; the
                                                  // error that means something where the reference is near 0
};

// The modeled timeline of one launch (the longest of the first case's first trial), for the report: per shown core
// and pipe, the busy spans merged to a few dozen (perf/lanes.cpp).
struct TimelineLane {
  std::string core;                               // "AIV 3.0 (critical)", "AIC 0"
  std::string pipe;                               // "MTE2", "V", "MTE3", "S", "M", "MTE1", "FIX"
  double busy_us = 0;
  std::vector<double> spans;                      // start0, end0, start1, end1, ... in us from the kernel start
};
struct TimelineCore {                             // one core of the launch in the overview of all of them
  std::string core;                               // "AIV 3.0", "AIC 0"
  double start_us = 0, end_us = 0;                // its span within the kernel body
  std::string pipe;                               // its busiest pipe
  double busy_us = 0;                             // of that pipe
};
struct Timeline {
  std::string kernel, case_name, bound;
  double body_us = 0;
  int cores = 0;                                  // cores the launch used (lanes show at most four)
  std::vector<TimelineLane> lanes;
  std::vector<TimelineCore> all_cores;            // every core, for the overview
};

// The perf shape (the task's PERF overrides of its default case): one timing-only run of the candidate at the
// benchmark's real size (sim/timing.h), values never computed nor checked, and the eager trace at the same shape.
struct PerfResult {
  std::string shape;                              // "batch_size=4096,dim=393216"; "" when the task has no PERF
  std::string inputs;                             // "float32[4096,393216]", ...
  std::string skipped;                            // why it was not timed ("" when it was)
  double modeled_us = 0, eager_modeled_us = 0;
  double launch_us = 0, eager_launch_us = 0;      // their launch shares (CaseResult)
  double speedup = 0;                             // eager_modeled_us / modeled_us
  double body_speedup = 0;                        // the same with the launch shares taken out of both
  std::string bound;                              // of the candidate's longest launch
  double gm_bytes = 0, flops = 0;
  uint64_t records = 0;                           // trace records of the timing-only run
  double seconds = 0, peak_rss_mb = 0;            // its wall time and peak resident memory, in the sandbox
  std::string note;                               // what makes the time approximate (scalar reads of values it
                                                  // did not compute), "" when nothing does
  bool timed() const { return skipped.empty() && modeled_us > 0; }
};

struct EvalResult {
  std::string task_id;                            // "activation/leaky_relu"
  std::string category;
  int level = 1;
  std::string candidate;                          // path or label as given
  std::string candidate_kind;                     // "op-project", "mkb", "tile"
  std::string task_hash, candidate_hash, kgen_version, soc;   // the store's key
  int sample = 0;                                 // index of the sample among a generator's k samples for this task
  Verdict verdict = Verdict::RuntimeError;
  std::string error_category;                     // runtime-error: the emulator's (ub-overflow, race, ...); else ""
  std::vector<std::string> diagnostics;           // error lines, compile messages, cheat findings (verbatim)
  std::vector<CaseResult> cases;
  int trials = 0;
  double max_abs_err = 0, max_rel_err = 0;        // over all cases and trials
  double tol_err = 0;                             // over all cases and trials (CaseResult::tol_err)
  double modeled_us = 0, eager_modeled_us = 0;    // sum over the cases (one forward each)
  double launch_us = 0, eager_launch_us = 0;      // sums of the cases' launch shares
  double check_speedup = 0;                       // at the check shapes: eager_modeled_us / modeled_us when correct
  double speedup = 0;                             // the headline, 0 unless correct: perf.speedup when the perf
                                                  // shape was timed, else check_speedup
  PerfResult perf;
  double seconds = 0;                             // wall time of the evaluation
  double reference_s = 0, build_s = 0, run_s = 0; // where it went: PyTorch reference, compiling the candidate, runs
  std::string timing_check;                       // EvalOptions::timing_check: "equal", else the first difference
  std::vector<std::string> profile;               // EvalOptions::profile_dir: the files written (perf::write_profile)
                                                  // of the timing-only trace from the full run's ("" not checked)
  Timeline timeline;
};
// Orders results by (correct, speedup), then a candidate that compiled and ran before one that did not: true when a
// is better than b. Picks a sample's best round (the repair loop) and the best of k samples.
bool better(const EvalResult& a, const EvalResult& b);
}  // namespace kgen::eval
