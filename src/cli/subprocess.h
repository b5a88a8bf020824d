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
// address space bytes (RLIMIT_AS), bytes of any file it writes (RLIMIT_FSIZE). no_network: the child gets a network
// namespace of its own (unshare CLONE_NEWNET; as non-root through a user namespace), i.e. only a down loopback; where
// the kernel allows neither, the child runs with the host's network (network_isolated() says which).
struct ProcLimits {
  double cpu_s = 0;
  size_t memory_bytes = 0;
  size_t file_bytes = 0;
  bool no_network = false;
};
// Whether this machine lets run_process take a child off the network (tested once, in a throwaway child).
bool network_isolated();
ProcResult run_process(const std::vector<std::string>& argv, double timeout_s, const ProcLimits& limits);
}  // namespace kgen::cli
