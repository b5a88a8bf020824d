#include "cli/subprocess.h"

#include <sched.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

namespace kgen::cli {
ProcResult run_process(const std::vector<std::string>& argv, double timeout_s) {
  return run_process(argv, timeout_s, ProcLimits{});
}

bool network_isolated() {
  static const bool isolated = [] {
    pid_t pid = fork();
    if (pid == 0) _exit(unshare(CLONE_NEWNET) == 0 || unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0 ? 0 : 1);
    int st = 0;
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
  }();
  return isolated;
}

ProcResult run_process(const std::vector<std::string>& argv, double timeout_s, const ProcLimits& limits) {
  ProcResult r;
  int fds[2];
  // O_CLOEXEC: with several threads launching children at once (kgen bench --jobs), another thread's child must not
  // inherit this pipe's write end (the read below would wait for that unrelated child to exit). dup2 clears the flag
  // on the child's own stdout/stderr.
  if (pipe2(fds, O_CLOEXEC) != 0) return r;
  std::vector<char*> a;  // built before fork: no allocation in the child of a multithreaded process
  for (auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    auto limit = [](int what, double v) {
      if (v <= 0) return;
      rlimit rl{static_cast<rlim_t>(v), static_cast<rlim_t>(v)};
      setrlimit(what, &rl);
    };
    limit(RLIMIT_CPU, limits.cpu_s);
    limit(RLIMIT_AS, static_cast<double>(limits.memory_bytes));
    limit(RLIMIT_FSIZE, static_cast<double>(limits.file_bytes));
    if (limits.no_network && unshare(CLONE_NEWNET) != 0) unshare(CLONE_NEWUSER | CLONE_NEWNET);
    execvp(a[0], a.data());
    _exit(127);
  }
  close(fds[1]);
  char buf[4096];
  while (true) {
    double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (left <= 0) {
      kill(-pid, SIGKILL);
      r.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (n <= 0) continue;
    ssize_t k = read(fds[0], buf, sizeof buf);
    if (k <= 0) break;
    if (r.out.size() < (1u << 20)) r.out.append(buf, static_cast<size_t>(k));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}
}  // namespace kgen::cli
