// What evaluate.cpp, eval_op.cpp and eval_mkb.cpp share: verdicts from a sandboxed child that did not finish, the
// sandbox policy of a candidate run, small text helpers.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/compare.h"
#include "eval/evaluate.h"
#include "op/prebuild.h"
#include "sandbox/sandbox.h"

namespace kgen::eval {
struct Fail {
  Verdict v = Verdict::RuntimeError;
  std::string cat;
  std::vector<std::string> diags;
};
void set_fail(EvalResult& R, const Fail& f);

// The verdict of a candidate run that stopped without delivering what was asked (`pending`: "case default, trial
// 2"): timeout (wall clock, stalled, CPU time, the emulator's instruction limit), compile-error (error[compile] /
// error[kernel-name]), runtime-error with the emulator's category, or with `exit` / `crash` / `output-limit` /
// `protocol` when the process ended, died, wrote too much or wrote junk on the result channel.
// `internal` when kgen's own runner could not start (the dynamic loader's message: a moved or copied build).
Fail child_failure(const EvalOptions& o, const sandbox::Result& r, const std::string& what, const std::string& pending);

// The sandbox every candidate run gets: kgen's files read-only, the limits of the options; callers add their binds.
sandbox::Policy candidate_policy(const EvalOptions& o);
sandbox::Limits candidate_limits(const EvalOptions& o, int runs);
std::string oprun_path(const EvalOptions& o);
// The sandboxed `kgen-oprun run PROJECT --batch FILE --channel 3` of an op project's runs: the batch file written
// here and bound read-only, the failed-builds folder (op::write_failed_builds, "" when none) bound and named in the
// environment, the options' record limit. The caller binds the project and its libraries.
sandbox::Child oprun_batch_child(const EvalOptions& o, const std::string& project, const nlohmann::json& batch,
                                 const std::string& batch_file, const std::string& failed_builds,
                                 sandbox::Policy& pol);

// The verdict of a prebuild (op/prebuild.h) into `R`: false with compile-error (the host does not compile), cheating
// (a library with forbidden imports) or a sandbox/internal failure; true when the project may run.
bool prebuild_ok(const op::Prebuilt& pre, EvalResult& R);

std::vector<std::string> lines_of(const std::string& out, size_t max = 60);
bool first_error(const std::string& out, std::string& cat, std::string& line);
std::string read_text(const std::string& path);
// The options' tolerance for an output of this dtype (0, 0: integers and bools compare exactly).
Tolerance tol_for(const EvalOptions& o, const std::string& dtype);
double since(std::chrono::steady_clock::time_point t0);
// Eager PyTorch's modeled time of one forward from its aten trace (perf/eager.h), end to end on the host path a
// custom op takes too (perf/host_path.h), and what of it is not the ops' own work (host dispatch, launch heads).
struct EagerTime {
  double us = 0, launch_us = 0;
};
EagerTime eager_us_of(const std::string& trace_json, const EvalOptions& o);
// ge::DataType of a reference meta dtype name ("bfloat16" travels as uint16), -1 when unknown.
int npy_dtype_of(const std::string& name);
// Bytes of a meta.json tensor list ({"shape", "dtype"} each).
double tensor_bytes(const nlohmann::json& tensors);

// A temporary folder (TMPDIR, mode 0700) removed with everything in it when the guard goes.
struct TempDirGuard {
  std::string path;
  explicit TempDirGuard(const std::string& prefix);
  ~TempDirGuard();
  TempDirGuard(const TempDirGuard&) = delete;
  TempDirGuard& operator=(const TempDirGuard&) = delete;
};

void eval_op_project(const EvalOptions& o, EvalResult& R);
void eval_mkb(const EvalOptions& o, EvalResult& R);
// An op project against an NPUKernelBench task folder (is_npukb_task, evaluate.h), as its harness checks it.
void eval_npukb(const EvalOptions& o, EvalResult& R);
}  // namespace kgen::eval
