// A pids cgroup per sandboxed run: the process cap (fork bombs), where this process may create cgroups.
#pragma once
#include <string>

namespace kgen::sandbox {
// A fresh cgroup with pids.max = max_pids under this process's own pids cgroup (cgroup v1 `pids` hierarchy, or v2
// when `pids` is in its subtree_control). Empty path when none can be made (not root, no delegation).
class PidsCgroup {
 public:
  explicit PidsCgroup(int max_pids);
  ~PidsCgroup();   // kills what is left in it and removes it
  PidsCgroup(const PidsCgroup&) = delete;
  PidsCgroup& operator=(const PidsCgroup&) = delete;
  const std::string& procs_file() const { return procs_; }   // "" when no cgroup

 private:
  std::string dir_, procs_;
};
// Whether run() can cap processes here, and where (for `kgen sandbox check`).
bool pids_cgroup_available(std::string* where = nullptr);
}  // namespace kgen::sandbox
