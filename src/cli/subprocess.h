// Running a child process with a time limit and capturing its output.
#pragma once
#include <string>
#include <vector>

namespace kgen::cli {
struct ProcResult {
  int status = -1;        // exit status, or 128+signal
  bool timed_out = false;
  std::string out;        // stdout and stderr, interleaved
  double seconds = 0;
};
ProcResult run_process(const std::vector<std::string>& argv, double timeout_s);
}  // namespace kgen::cli
