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
// Resource limits applied in the child before exec (setrlimit; 0 = unlimited): CPU seconds (RLIMIT_CPU),
// address space bytes (RLIMIT_AS), bytes of any file it writes (RLIMIT_FSIZE).
struct ProcLimits {
  double cpu_s = 0;
  size_t memory_bytes = 0;
  size_t file_bytes = 0;
};
ProcResult run_process(const std::vector<std::string>& argv, double timeout_s, const ProcLimits& limits);
}  // namespace kgen::cli
