// Evaluating one candidate on one task: `kgen eval` (src/cli/eval_cmd.cpp) and `kgen bench`.
//
// Pipeline: static checks (static_checks.h) -> reference data per case and trial (python/kgen_eval/reference.py
// under /usr/bin/python3, cached under $KGEN_CACHE/ref/) -> the candidate in a child process (an op project:
// kgen-oprun run, as `kgen op run` does, with wall/CPU/memory/file-size limits and a clean environment;
// KGEN_PROFILE=<tmp> makes the emulated launch write its modeled report) -> outputs compared with the reference
// (|got - want| <= atol + rtol * |want|; NaN/inf mismatch a finite reference; unwritten poison elements are
// mismatches) -> modeled kernel time (sum of the launches of one forward, each the report's steady_us: launched back
// to back) and modeled eager PyTorch time (src/perf/eager.h on the task's aten trace, device_us: also back to back;
// host dispatch excluded) on the same SoC -> speedup = eager / kernel.
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
//                             are passed as --attr: float %.9g, int, bool true/false, lists 1,2,3 (1,2;3,4).
// MultiKernelBench submissions run through python/kgen_mkb/run_mkb.py (its own seeding: torch.manual_seed(seed)
// before Model and ModelNew, `trials` calls of get_inputs()), with the tolerance of the reference output dtype.
// Verdicts: the first failing case (and trial) stops the evaluation.
#pragma once
#include <string>

#include "eval/result.h"

namespace kgen::eval {
struct Tolerance {
  double atol = 1e-4, rtol = 1e-4;
};
struct EvalOptions {
  std::string task;                 // task .py (kgen, KernelBench or MultiKernelBench format)
  std::string candidate;            // op-project directory or MultiKernelBench submission .py
  std::string soc = "Ascend910B2";
  int trials = 5;
  int seed = 42;
  Tolerance fp32{1e-4, 1e-4};       // float32 / float64 outputs (MultiKernelBench's current values)
  Tolerance fp16{1e-2, 1e-2};       // float16
  Tolerance bf16{1e-2, 1e-2};       // bfloat16; integer and bool outputs are compared exactly
  double timeout_s = 300;           // one candidate run (build + tiling + kernel), wall clock
  double memory_mb = 16384;         // address-space limit of the candidate's process
  double file_mb = 1024;            // largest file the candidate's process may write
  int jobs = 1;                     // reserved: cases run one after the other
  std::string python = "/usr/bin/python3";
  std::string oprun;                // kgen-oprun; default: next to the running executable
  std::string cache;                // default $KGEN_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/kgen
};
// "op-project" (a directory), "mkb" (a .py file), or "" (neither).
std::string candidate_kind(const std::string& candidate);
// The store's content hashes, as evaluate() computes them (EvalResult::task_hash / candidate_hash): FNV-1a 64 of the
// task file's text; of a candidate directory's files (relative path and content, sorted by path) or of the .py's text.
// `kgen bench` computes them up front to skip what the results store already holds.
std::string task_hash_of(const std::string& task);
std::string candidate_hash_of(const std::string& candidate);
// kgen's cache folder: o.cache, else $KGEN_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/kgen (reference data, compiled
// tile programs, LLM replies under llm/).
std::string cache_dir(const EvalOptions& o);
// Computes the reference data of many tasks at once (reference.py --prefetch: torch imported once, a forked child
// per task, `jobs` at a time) so that evaluate() finds it cached; `kgen bench` calls it before evaluating. Failures
// are left for evaluate() to report. False (and why in `note`) when the script itself did not run; else its summary.
bool prefetch_references(const EvalOptions& o, const std::vector<std::string>& tasks, int jobs, std::string& note);
// Never throws: internal problems become a runtime-error with error_category "internal" (or "task" when the
// reference task itself fails) and a diagnostic.
EvalResult evaluate(const EvalOptions& o);
}  // namespace kgen::eval
