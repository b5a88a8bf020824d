// The one fork/exec of kgen (see process.h).
#include "sandbox/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace kgen::sandbox {
namespace {
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Async-signal-safe helpers for the child between fork and exec (the parent may be multithreaded).
void put_limit(int what, double v) {
  if (v <= 0) return;
  rlimit rl{static_cast<rlim_t>(v), static_cast<rlim_t>(v)};
  setrlimit(what, &rl);
}
void write_pid(int fd) {
  char b[24];
  int n = 0;
  long p = getpid();
  char t[24];
  do t[n++] = static_cast<char>('0' + p % 10), p /= 10; while (p);
  for (int i = 0; i < n; ++i) b[i] = t[n - 1 - i];
  b[n] = '\n';
  (void)!::write(fd, b, static_cast<size_t>(n + 1));
}
// Closes every descriptor >= 3 except those in `keep` (sorted).
void close_others(const int* keep, int nkeep) {
  int from = 3;
  for (int i = 0; i <= nkeep; ++i) {
    int to = i < nkeep ? keep[i] - 1 : ~0U >> 1;
    if (to >= from) {
#ifdef SYS_close_range
      if (syscall(SYS_close_range, from, to, 0) != 0)
#endif
        for (int fd = from; fd <= std::min(to, 65535); ++fd) close(fd);
    }
    if (i < nkeep) from = keep[i] + 1;
  }
}

bool valid_utf8_at(const unsigned char* s, size_t n, size_t i, size_t& len) {
  unsigned char c = s[i];
  if (c < 0x80) { len = 1; return true; }
  uint32_t cp;
  if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
  else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
  else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
  else return false;
  if (i + len > n) return false;
  for (size_t k = 1; k < len; ++k) {
    if ((s[i + k] & 0xC0) != 0x80) return false;
    cp = (cp << 6) | (s[i + k] & 0x3F);
  }
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return false;   // overlong
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
  return true;
}
}  // namespace

std::string utf8_clean(const std::string& in) {
  const auto* s = reinterpret_cast<const unsigned char*>(in.data());
  const size_t n = in.size();
  std::string out;
  out.reserve(n);
  static const char* hex = "0123456789abcdef";
  for (size_t i = 0; i < n;) {
    size_t len = 1;
    unsigned char c = s[i];
    bool control = c < 0x20 && c != '\n' && c != '\t' && c != '\r';
    if (!control && c != 0x7f && valid_utf8_at(s, n, i, len)) {
      out.append(in, i, len);
      i += len;
      continue;
    }
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
    ++i;
  }
  return out;
}

bool valid_utf8(const std::string& in) {
  const auto* s = reinterpret_cast<const unsigned char*>(in.data());
  for (size_t i = 0, len = 1; i < in.size(); i += len)
    if (s[i] == 0 || !valid_utf8_at(s, in.size(), i, len)) return false;
  return true;
}

std::string find_program(const std::string& name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::string p = path && *path ? path : "/usr/bin:/bin";
  size_t s = 0;
  while (s <= p.size()) {
    size_t e = p.find(':', s);
    if (e == std::string::npos) e = p.size();
    std::string dir = p.substr(s, e - s);
    if (dir.empty()) dir = ".";
    std::string cand = dir + "/" + name;
    struct stat st{};
    if (::stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(cand.c_str(), X_OK) == 0) return cand;
    s = e + 1;
  }
  return "";
}

Result run(const std::vector<std::string>& argv, double wall_s) {
  Child c;
  c.argv = argv;
  Limits l;
  l.wall_s = wall_s;
  return run(c, l);
}

Result run(const Child& c, const Limits& l) {
  Result r;
  auto t0 = Clock::now();
  if (c.argv.empty()) {
    r.start_error = "no program";
    return r;
  }
  const std::string exe = find_program(c.argv[0]);
  if (exe.empty()) {
    r.start_error = c.argv[0] + ": no such program (not found in PATH or not executable)";
    r.status = 127;
    return r;
  }
  // Everything the child needs is built before fork: no allocation between fork and exec.
  std::vector<char*> argv;
  for (auto& s : c.argv) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_store;
  if (!c.clear_env)
    for (char** e = environ; e && *e; ++e) {
      std::string kv = *e;
      std::string name = kv.substr(0, kv.find('='));
      bool replaced = false;
      for (auto& x : c.env) replaced |= x.compare(0, name.size() + 1, name + "=") == 0;
      if (!replaced) env_store.push_back(kv);
    }
  env_store.insert(env_store.end(), c.env.begin(), c.env.end());
  std::vector<char*> envp;
  for (auto& s : env_store) envp.push_back(const_cast<char*>(s.c_str()));
  envp.push_back(nullptr);
  std::vector<int> keep = c.keep_fds;
  const bool channel = l.channel_bytes > 0;
  if (channel) keep.push_back(c.channel_fd);
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());

  int out[2] = {-1, -1}, ch[2] = {-1, -1};
  // O_CLOEXEC: with several threads starting children at once (kgen bench --jobs), another thread's child must not
  // inherit these pipes (the read below would wait for that unrelated child).
  if (!c.inherit_stdio && pipe2(out, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (channel && pipe2(ch, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    if (out[0] >= 0) close(out[0]), close(out[1]);
    return r;
  }
  // A 1 MiB pipe (the unprivileged maximum by default): a timing-only run streams hundreds of MB of trace, and with
  // the default 64 KiB the two processes take turns on the pipe's lock every few records.
  if (channel) fcntl(ch[0], F_SETPIPE_SZ, 1 << 20);   // best effort: the default size works, only slower
  const char* cwd = c.cwd.empty() ? nullptr : c.cwd.c_str();
  const char* cg = c.cgroup_procs.empty() ? nullptr : c.cgroup_procs.c_str();
  pid_t pid = fork();
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {out[0], out[1], ch[0], ch[1]})
      if (fd >= 0) close(fd);
    return r;
  }
  if (pid == 0) {
    if (!c.inherit_stdio) setpgid(0, 0);
    if (cg) {
      int fd = open(cg, O_WRONLY | O_CLOEXEC);
      if (fd < 0) _exit(126);
      write_pid(fd);
      close(fd);
    }
    if (!c.inherit_stdio) {
      dup2(out[1], 1);
      dup2(out[1], 2);
      int null = open("/dev/null", O_RDONLY);
      if (null >= 0 && null != 0) dup2(null, 0), close(null);
    }
    if (channel) {
      if (ch[1] == c.channel_fd) fcntl(ch[1], F_SETFD, 0);
      else dup2(ch[1], c.channel_fd);
    }
    for (int fd : c.keep_fds) fcntl(fd, F_SETFD, 0);
    close_others(keep.data(), static_cast<int>(keep.size()));
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;   // a parent that takes its signals in one thread (kgen serve) has them blocked here: unblock
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    put_limit(RLIMIT_CPU, l.cpu_s);
    put_limit(RLIMIT_AS, static_cast<double>(l.memory_bytes));
    put_limit(RLIMIT_DATA, static_cast<double>(l.data_bytes));
    put_limit(RLIMIT_FSIZE, static_cast<double>(l.file_bytes));
    if (cwd && chdir(cwd) != 0) _exit(126);
    execve(exe.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  if (!c.inherit_stdio) setpgid(pid, pid);   // also here: no window in which a kill(-pid) misses the child
  if (out[1] >= 0) close(out[1]);
  if (ch[1] >= 0) close(ch[1]);
  FrameParser parser(l.channel_bytes);
  std::string raw;
  size_t got_channel = 0;
  bool killed = false;
  auto kill_all = [&] {
    if (!killed) kill(-pid, SIGKILL);
    killed = true;
  };
  int status = 0;
  bool exited = false;
  Clock::time_point last_frame = t0;
  std::vector<Frame> fresh;
  Clock::time_point exit_time{};
  std::vector<char> buf_store(1 << 20);   // as large as the channel pipe: one read empties it
  char* buf = buf_store.data();
  while (out[0] >= 0 || ch[0] >= 0) {
    if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      exit_time = Clock::now();
    }
    // A descendant that outlives the child (outside a sandbox) may hold the pipes: stop reading a second later.
    if (exited && since(exit_time) > 1.0) break;
    double left = l.wall_s > 0 ? l.wall_s - since(t0) : 1e9;
    if (l.progress_s > 0) {
      double stall_left = l.progress_s - since(last_frame);
      if (stall_left <= 0 && !killed) {
        r.stalled = true;
        r.timed_out = true;
        kill_all();
      }
      left = std::min(left, stall_left);
    }
    if (left <= 0 && !killed) {
      r.timed_out = true;
      kill_all();
    }
    pollfd p[2];
    int np = 0;
    if (out[0] >= 0) p[np++] = {out[0], POLLIN, 0};
    if (ch[0] >= 0) p[np++] = {ch[0], POLLIN, 0};
    int wait_ms = static_cast<int>(std::min(100.0, std::max(left, 0.0) * 1000 + 1));
    int k = poll(p, static_cast<nfds_t>(np), wait_ms);
    if (k < 0 && errno != EINTR) break;
    if (k <= 0) continue;
    for (int i = 0; i < np; ++i) {
      if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(p[i].fd, buf, buf_store.size());
      if (n < 0 && errno == EINTR) continue;
      bool is_out = p[i].fd == out[0];
      if (n <= 0) {
        close(p[i].fd);
        (is_out ? out[0] : ch[0]) = -1;
        continue;
      }
      if (is_out) {
        size_t room = l.output_bytes > raw.size() ? l.output_bytes - raw.size() : 0;
        raw.append(buf, std::min(room, static_cast<size_t>(n)));
        r.out_dropped += static_cast<size_t>(n) - std::min(room, static_cast<size_t>(n));
        continue;
      }
      got_channel += static_cast<size_t>(n);
      if (killed) continue;
      if (got_channel > l.channel_bytes) {
        r.channel_overflow = true;
        kill_all();
        continue;
      }
      fresh.clear();
      bool ok = parser.feed(buf, static_cast<size_t>(n), fresh);
      if (!fresh.empty()) last_frame = Clock::now();
      for (Frame& f : fresh) {
        if (killed) break;
        if (!c.on_frame) r.frames.push_back(std::move(f));
        else if (!c.on_frame(f)) {
          r.stopped = true;
          kill_all();
        }
      }
      if (!ok && !killed) {
        r.channel_error = parser.error();
        kill_all();
      }
    }
  }
  for (int fd : {out[0], ch[0]})
    if (fd >= 0) close(fd);
  if (!exited) {
    if (killed || r.timed_out) kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  kill(-pid, SIGKILL);   // anything left in the group (no-op when empty)
  if (!killed && !parser.clean_end() && r.channel_error.empty())
    r.channel_error = "the channel ended inside a frame";
  r.out = utf8_clean(raw);
  r.seconds = since(t0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}
}  // namespace kgen::sandbox
