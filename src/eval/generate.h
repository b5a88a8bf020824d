// Candidate generators for `kgen bench --generator NAME`: something that, given a suite task, writes a candidate (an
// op project or a MultiKernelBench submission) for it. The bench generates every (task, sample) first, into
// OUT/generated/ in the candidates layout (bench.h), then evaluates that folder as it would --candidates.
//
// Generators (make_generator):
//   exec:PROGRAM [ARGS...]   runs PROGRAM ARGS... TASK.py DIR SAMPLE (no shell; words split on blanks) with
//                            KGEN_TASK_ID, KGEN_SOC, KGEN_SAMPLE in its environment; it writes an op project into
//                            the empty folder DIR, or a single .py submission or .tile program there. Exit status 0 =
//                            success. It runs sandboxed (sandbox.h): the host's files as the user sees them but
//                            kgen's own read-only, the network shared, kgen's cache and the bench's store and output
//                            hidden (DIR excepted); its processes die with it.
//   expert[:DIR]             the expert library (default kernels/ of the source tree): DIR/<category>/<name>.tile
//                            for task <category>/<name>; a task without one is not covered (missing, not a failure).
//   answer                   an NPUKernelBench task folder's own op project, TASK/answer/<sample>/ (the benchmark's
//                            answers: `kgen bench --suite NPUKERNELBENCH/tasks --generator answer`); a task without
//                            one is not covered.
//   PREFIX:ARG               a kind registered by register_generator_kind, e.g. llm:MODEL (src/gen/llm_generator.h,
//                            registered by the CLI): it may evaluate its own attempts (repair rounds) with the
//                            request's eval options and put them in the request's store.
// A generation that fails (non-zero status, timeout, nothing written) becomes a compile-error result with the
// generator's output as diagnostics: for pass@k it is a sample that did not compile, as in KernelBench.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "eval/evaluate.h"

namespace kgen::eval {
class Store;
struct GenRequest {
  std::string task_path, task_id;   // absolute .py, "activation/relu"
  int sample = 0;
  std::string out_dir;              // empty folder to fill
  std::string soc;
  const EvalOptions* eval = nullptr;    // the bench's evaluation options (task/candidate unset), for generators that
                                        // evaluate their own attempts
  Store* store = nullptr;               // the bench's results store (shared by threads), or null
};
struct GenOutcome {
  bool ok = false;
  bool not_covered = false;               // the generator has nothing for this task: the task is missing
  bool no_code = false;                   // failed because the model's reply had no usable code (verdict no-code)
  bool fatal = false;                     // the generator cannot work at all (an endpoint nothing listens at): the
                                          // bench stops instead of scoring every sample as failed
  std::vector<std::string> diagnostics;   // why it failed, or notes
  double seconds = 0;
};
using Generator = std::function<GenOutcome(const GenRequest&)>;

struct GeneratorOptions {
  double timeout_s = 600;           // per generation
  std::string settings;             // what else decides the generator's output (an LLM's target, rounds, sampling):
                                    // stamped with each sample, so that changing it generates the sample again
  std::vector<std::string> hide;    // paths an exec: generator must not see (the bench's store and output folder)
};
// Builds the generator named by spec. False with err (listing the known generators) when spec names none.
bool make_generator(const std::string& spec, const GeneratorOptions& o, Generator& g, std::string& err);

// Generator kinds defined outside the evaluator (which they may call): `PREFIX:ARG` specs go to factory(ARG, ...).
// usage is the one-line form shown in the unknown-generator error ("llm:MODEL (an OpenAI-compatible model ...)").
using GeneratorFactory =
    std::function<bool(const std::string& arg, const GeneratorOptions& o, Generator& g, std::string& err)>;
void register_generator_kind(const std::string& prefix, GeneratorFactory factory, const std::string& usage);
}  // namespace kgen::eval
