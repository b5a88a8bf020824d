// Pids cgroups for sandboxed runs (cgroup.h). The parent cgroup is found once from /proc/self/cgroup and
// /proc/self/mountinfo; each run makes kgen-<pid>-<n> in it and removes it afterwards.
#include "sandbox/cgroup.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace kgen::sandbox {
namespace {
std::string read_all(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
bool write_all(const std::string& p, const std::string& s) {
  std::ofstream out(p);
  out << s;
  out.flush();
  return static_cast<bool>(out);
}

// Mount point of the cgroup hierarchy: v1 with the `pids` controller, or v2 (fstype cgroup2).
std::string mount_of(bool v2) {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string l; std::getline(in, l);) {
    size_t dash = l.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream pre(l.substr(0, dash)), post(l.substr(dash + 3));
    std::string id, parent, dev, root, mnt, fstype, src, opts;
    pre >> id >> parent >> dev >> root >> mnt;
    post >> fstype >> src >> opts;
    if (v2 && fstype == "cgroup2") return mnt;
    if (!v2 && fstype == "cgroup" && ("," + opts + ",").find(",pids,") != std::string::npos) return mnt;
  }
  return "";
}

// The directory new cgroups go in, tested by making and removing one; "" when none works.
const std::string& parent_dir() {
  static const std::string dir = [] {
    std::string own_v1, own_v2;
    std::ifstream in("/proc/self/cgroup");
    for (std::string l; std::getline(in, l);) {
      size_t a = l.find(':'), b = l.find(':', a + 1);
      if (a == std::string::npos || b == std::string::npos) continue;
      std::string ctrl = l.substr(a + 1, b - a - 1), path = l.substr(b + 1);
      if (("," + ctrl + ",").find(",pids,") != std::string::npos) own_v1 = path;
      if (l.compare(0, 3, "0::") == 0) own_v2 = path;
    }
    std::vector<std::string> cands;
    if (!own_v1.empty()) {
      std::string m = mount_of(false);
      if (!m.empty()) cands.push_back(m + (own_v1 == "/" ? "" : own_v1));
    }
    if (!own_v2.empty()) {
      std::string m = mount_of(true);
      if (!m.empty()) {
        std::string d = m + (own_v2 == "/" ? "" : own_v2);
        if (read_all(d + "/cgroup.subtree_control").find("pids") != std::string::npos) cands.push_back(d);
      }
    }
    for (const std::string& d : cands) {
      std::string probe = d + "/kgen-probe-" + std::to_string(getpid());
      if (mkdir(probe.c_str(), 0755) != 0) continue;
      bool ok = write_all(probe + "/pids.max", "16");
      rmdir(probe.c_str());
      if (ok) return d;
    }
    return std::string();
  }();
  return dir;
}
}  // namespace

bool pids_cgroup_available(std::string* where) {
  if (where) *where = parent_dir();
  return !parent_dir().empty();
}

PidsCgroup::PidsCgroup(int max_pids) {
  if (max_pids <= 0 || parent_dir().empty()) return;
  static std::atomic<int> n{0};
  std::string d = parent_dir() + "/kgen-" + std::to_string(getpid()) + "-" + std::to_string(n++);
  if (mkdir(d.c_str(), 0755) != 0) return;
  if (!write_all(d + "/pids.max", std::to_string(max_pids))) {
    rmdir(d.c_str());
    return;
  }
  dir_ = d;
  procs_ = d + "/cgroup.procs";
}

PidsCgroup::~PidsCgroup() {
  if (dir_.empty()) return;
  // The PID namespace is gone once the run has ended; a process can linger a moment while it exits.
  for (int i = 0; i < 200; ++i) {
    std::istringstream procs(read_all(procs_));
    for (long pid; procs >> pid;) kill(static_cast<pid_t>(pid), SIGKILL);
    if (rmdir(dir_.c_str()) == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}
}  // namespace kgen::sandbox
