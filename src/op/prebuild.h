// The libraries an op project needs, built before kgen-oprun runs it: the host library and the kernel library of
// each distinct set of input dtypes as predict_defines sees it (plus the generated tiling-names header). Done by
// the evaluator and `kgen op run` outside the candidate's sandbox, in sandboxed compiles, so the shared build cache
// only ever holds what a compiler made; the paths returned are what to bind read-only into kgen-oprun's sandbox.
// A predicted kernel that does not compile is not an error here: the host may pick another column. The failure is
// handed to kgen-oprun (write_failed_builds), which reports it when the host picks that column instead of compiling
// it a second time inside the candidate's sandbox and limits.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "op/build.h"
#include "op/project.h"

namespace kgen::op {
struct Prebuilt {
  BuildOut host;                    // !host.ok: the host file does not compile (host.diag)
  std::string cheating;             // a kernel built to a library with forbidden imports (imports.h): its diag
  std::vector<std::string> files;   // libraries and headers to bind
  std::vector<std::pair<std::string, std::string>> failed;   // kernel library name, its error[compile] diag
  double seconds = 0;
};
// `input_dtypes`: per run, the ge::DataType of each input in OpDef order.
Prebuilt prebuild(const Project& p, const std::string& soc, const std::vector<std::vector<int>>& input_dtypes);
// Writes DIR/<library name> holding the diag of each failed kernel compile; returns DIR, or "" when none failed.
// kgen-oprun reads them from the folder named by KGEN_FAILED_BUILDS (build.h: BuildEnv::failed_dir).
std::string write_failed_builds(const Prebuilt& b, const std::string& dir);
}  // namespace kgen::op
