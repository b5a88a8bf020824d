// Evaluating one candidate on one task: `kgen eval` (src/cli/eval_cmd.cpp) and `kgen bench`.
//
// The candidate is hostile (docs/sandbox.md): everything it makes runs in the sandbox (src/sandbox), and every
// judgement is made here, in the evaluator, from what the sandboxed run sent back on its result channel.
// Pipeline: the candidate's files (candidate_files.h: no links, no binary junk) -> static checks (static_checks.h)
// -> reference data per case and trial (reference.h: fixed-seed trials cached under $KGEN_CACHE/ref/, plus
// `secret_trials` per case from a seed drawn for the run) -> the candidate:
//   op project / tile program: its host and kernel libraries compiled in sandboxed compiles (op/build.h), then one
//   sandboxed kgen-oprun run for every case and trial (inputs bound read-only, outputs and the launch trace back on
//   the channel);
//   MultiKernelBench submission: python/kgen_mkb/run_mkb.py in one sandboxed run (extraction, its own builds,
//   ModelNew's forward); the reference Model never runs beside it;
// -> outputs compared here (compare.h: |got - want| <= atol + rtol * |want|; NaN/inf mismatch a finite reference;
// unwritten poison elements are mismatches, elements written outside the API are cheating) -> modeled kernel time
// from the trace, here (modeled.h: the sum of one forward's launches, each the model's steady_us; below the physical
// lower bound is cheating) and modeled eager PyTorch time (src/perf/eager.h on the task's aten trace, device_us) on
// the same SoC -> speedup = eager / kernel.
//
// Op-project mapping (the rule):
//   OpDef inputs, in order  = the forward's tensor inputs in order, then the Model's parameters and buffers in
//                             state_dict() order (reference.py writes them as input_000.npy, input_001.npy, ...);
//   OpDef outputs, in order = the forward's outputs (a tuple/list flattened in order);
//   OpDef attrs             = get_init_inputs() values: by name when an OpDef Attr("name") equals a parameter
//                             name of Model.__init__ (attrs without a matching name keep their OpDef default);
//                             otherwise by order, each attr taking the next unused init value of its OpDef type
//                             (Float: a Python float, Int: an int, Bool: a bool, String: a str, List*: a list), so
//                             that e.g. Model(hidden=1000, eps=1e-6) gives Attr("epsilon").Float the 1e-6; an attr
//                             with no value left keeps its OpDef default; extra init values are ignored. Values
//                             are passed as NAME=VALUE: float %.9g, int, bool true/false, lists 1,2,3 (1,2;3,4).
// MultiKernelBench submissions: reference.py --seeding mkb (torch.manual_seed(seed), Model(*init), then `trials`
// calls of get_inputs()), ModelNew built after torch.manual_seed(seed) in the sandbox, the tolerance of each
// output's reference dtype, ModelNew's results required to be what its custom_ops_lib calls returned.
// Verdicts: the first failing case (and trial) stops the evaluation.
#pragma once
#include <string>
#include <vector>

#include "eval/compare.h"
#include "eval/result.h"

namespace kgen::eval {
struct EvalOptions {
  std::string task;                 // task .py (kgen, KernelBench or MultiKernelBench format)
  std::string candidate;            // op-project directory or MultiKernelBench submission .py
  std::string soc = "Ascend910B2";
  int trials = 5;
  int seed = 42;
  Tolerance fp32{1e-4, 1e-4};       // float32 / float64 outputs (MultiKernelBench's current values)
  Tolerance fp16{1e-2, 1e-2};       // float16
  Tolerance bf16{1e-2, 1e-2};       // bfloat16; integer and bool outputs are compared exactly
  int secret_trials = 1;            // further trials per case from secret_seed (0: none)
  uint64_t secret_seed = 0;         // 0: drawn per evaluation (kgen bench draws one per run)
  std::string secret_cache;         // where secret references go; "": a folder of the evaluation, removed after it
  double timeout_s = 300;           // one case and trial (its build, tiling and kernel), wall clock without progress
  double memory_mb = 16384;         // address-space limit of each process of the candidate
  double file_mb = 1024;            // largest file the candidate's process may write
  double disk_mb = 2048;            // the candidate's writable /tmp (a tmpfs) in all
  int processes = 256;              // processes and threads at once (a pids cgroup, where one can be made)
  uint64_t max_records = 0;         // trace records per core before a runaway kernel is stopped (0: the
                                    // emulator's default, 30 million; sim/trace.cpp)
  bool timing_check = false;        // op projects: case 0's first trial runs again timing-only (sim/timing.h) and
                                    // its trace is compared with the full run's (EvalResult::timing_check)
  bool perf_shape = true;           // op projects and tile programs correct at the check shapes are also timed
                                    // timing-only at the task's PERF shape, the headline speedup (EvalResult::perf)
  std::string profile_dir;          // --profile: each modeled launch's report, lanes and Perfetto timeline go here:
                                    // DIR/<case>_<n>_<kernel>.* for the first trial of each check case,
                                    // DIR/perf_<n>_<kernel>.* (no timeline) for the perf shape (EvalResult::profile)
  int jobs = 1;                     // reserved: cases run one after the other
  std::string python = "/usr/bin/python3";
  std::string oprun;                // kgen-oprun; default: next to the running executable
  std::string cache;                // default $KGEN_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/kgen
};
// "op-project" (a directory), "mkb" (a .py file), "tile" (a .tile file), or "" (none of them).
std::string candidate_kind(const std::string& candidate);
// The store's content hashes, as evaluate() computes them (EvalResult::task_hash / candidate_hash): FNV-1a 64 of the
// task file's text; of a candidate directory's entries (relative path and content, sorted by path; links by their
// target, never followed) or of the file's text.
// `kgen bench` computes them up front to skip what the results store already holds.
std::string task_hash_of(const std::string& task);
// Whether a task path is an NPUKernelBench task folder (validation/module.py and validation/test_cases.csv), evaluated
// as that benchmark's harness does (eval_npukb.cpp) rather than as a task file.
bool is_npukb_task(const std::string& path);
std::string candidate_hash_of(const std::string& candidate);
// The results store's key for a candidate: its content hash qualified by every setting that can change its verdict
// (trials, secret trials, seed, tolerances, timeout), so a run with other settings evaluates again instead of
// reusing: "<hash>@t5s1seed42" plus "tol...", "to..." and "tc" when they differ from the defaults.
std::string stored_candidate_key(const std::string& candidate_hash, const EvalOptions& o);
// kgen's cache folder: o.cache, else $KGEN_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/kgen (reference data, compiled
// tile programs, LLM replies under llm/).
std::string cache_dir(const EvalOptions& o);
// Computes the reference data of many tasks at once (reference.py --prefetch: torch imported once, a forked child
// per task, `jobs` at a time) so that evaluate() finds it cached; `kgen bench` calls it before evaluating. Failures
// are left for evaluate() to report. False (and why in `note`) when the script itself did not run; else its summary.
// With o.secret_trials, the secret trials too (into o.secret_cache).
bool prefetch_references(const EvalOptions& o, const std::vector<std::string>& tasks, int jobs, std::string& note);
// A tile program (o.candidate, compiled for o.soc) as its op project, written under
// $KGEN_CACHE/tile/<hash of the generated files>/ (the compile takes milliseconds). False with the compiler's
// diagnostics (clang style, one line each) when the program has errors. evaluate() and kgen data mutate use it.
bool compile_tile_project(const EvalOptions& o, std::string& project, std::vector<std::string>& diags);
// Never throws: internal problems become a runtime-error with error_category "internal" (or "task" when the
// reference task itself fails, "sandbox" when the sandbox cannot be set up) and a diagnostic.
EvalResult evaluate(const EvalOptions& o);
}  // namespace kgen::eval
