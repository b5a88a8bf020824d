// Candidate generators for `kgen bench --generator NAME`: something that, given a suite task, writes a candidate (an
// op project or a MultiKernelBench submission) for it. The bench generates every (task, sample) first, into
// OUT/generated/ in the candidates layout (bench.h), then evaluates that folder as it would --candidates.
//
// Generators (make_generator):
//   exec:PROGRAM [ARGS...]   runs PROGRAM ARGS... TASK.py DIR SAMPLE (no shell; words split on blanks) with
//                            KGEN_TASK_ID, KGEN_SOC, KGEN_SAMPLE in its environment; it writes an op project into
//                            the empty folder DIR, or a single .py submission or .tile program there. Exit status 0 =
//                            success.
//   expert[:DIR]             the expert library (default kernels/ of the source tree): DIR/<category>/<name>.tile
//                            for task <category>/<name>; a task without one is not covered (missing, not a failure).
// A generation that fails (non-zero status, timeout, nothing written) becomes a compile-error result with the
// generator's output as diagnostics: for pass@k it is a sample that did not compile, as in KernelBench.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace kgen::eval {
struct GenRequest {
  std::string task_path, task_id;   // absolute .py, "activation/relu"
  int sample = 0;
  std::string out_dir;              // empty folder to fill
  std::string soc;
};
struct GenOutcome {
  bool ok = false;
  bool not_covered = false;               // the generator has nothing for this task: the task is missing
  std::vector<std::string> diagnostics;   // why it failed, or notes
  double seconds = 0;
};
using Generator = std::function<GenOutcome(const GenRequest&)>;

struct GeneratorOptions {
  double timeout_s = 600;           // per generation
};
// Builds the generator named by spec. False with err (listing the known generators) when spec names none.
bool make_generator(const std::string& spec, const GeneratorOptions& o, Generator& g, std::string& err);
}  // namespace kgen::eval
