// Untrusted runs under bubblewrap (see sandbox.h for what a run sees and may do).
#include "sandbox/sandbox.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include "sandbox/cgroup.h"
#include "sandbox/paths.h"
#include "sandbox/seccomp.h"

namespace kgen::sandbox {
namespace {
namespace fs = std::filesystem;

std::atomic<Mode> g_mode{Mode::Isolated};

std::string bwrap_path() {
  static const std::string p = [] {
    std::string f = find_program("bwrap");
    return f.empty() && access("/usr/bin/bwrap", X_OK) == 0 ? std::string("/usr/bin/bwrap") : f;
  }();
  return p;
}

bool has_env(const std::vector<std::string>& env, const char* name) {
  std::string pre = std::string(name) + "=";
  for (auto& e : env)
    if (e.compare(0, pre.size(), pre) == 0) return true;
  return false;
}

// The top-level entries of the host's / that are links into /usr (merged /usr) or directories of their own.
void base_system(std::vector<std::string>& a) {
  a.insert(a.end(), {"--ro-bind", "/usr", "/usr"});
  for (const char* d : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    std::error_code ec;
    auto st = fs::symlink_status(d, ec);
    if (ec || !fs::exists(st)) continue;
    if (fs::is_symlink(st)) {
      a.insert(a.end(), {"--symlink", fs::read_symlink(d, ec).string(), d});
    } else if (fs::is_directory(st)) {
      a.insert(a.end(), {"--ro-bind", d, d});
    }
  }
  // The loader's cache (libraries in /usr/lib/<triplet>) and the alternatives links (cc, c++, python...).
  for (const char* f : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"})
    a.insert(a.end(), {"--ro-bind-try", f, f});
}

std::vector<std::string> bwrap_args(const Child& c, const Policy& p, int seccomp_fd, int status_fd) {
  std::vector<std::string> a = {bwrap_path(), "--unshare-all", "--unshare-user", "--disable-userns"};
  if (p.network) a.push_back("--share-net");
  a.insert(a.end(), {"--uid", "65534", "--gid", "65534", "--cap-drop", "ALL", "--die-with-parent", "--new-session",
                     "--hostname", "kgen-sandbox"});
  if (p.host_root) {
    // The user's own program (a generator): the host as the user sees it, but kgen's own files read-only (a
    // generator must not replace the evaluator) and what decides verdicts hidden (Policy::hide, below).
    a.insert(a.end(), {"--bind", "/", "/"});
    for (const std::string& f : kgen_files()) a.insert(a.end(), {"--ro-bind", f, f});
  } else {
    base_system(a);
  }
  // No /proc: /proc/self/mem would let code write its own memory past page protections (the GM guard), and a
  // candidate needs none of it; only the CPU description PyTorch reads at import. A whole-host view (generators)
  // gets a fresh /proc of its own PID namespace instead of the host's.
  if (p.host_root) {
    a.insert(a.end(), {"--proc", "/proc", "--dev", "/dev"});
  } else {
    a.insert(a.end(), {"--ro-bind-try", "/proc/cpuinfo", "/proc/cpuinfo", "--dev", "/dev", "--size",
                       std::to_string(p.tmp_bytes), "--tmpfs", "/tmp"});
  }
  for (const std::string& h : p.hide) {
    std::error_code ec;
    if (fs::is_directory(h, ec)) a.insert(a.end(), {"--tmpfs", h});
    else if (fs::exists(h, ec)) a.insert(a.end(), {"--ro-bind", "/dev/null", h});
  }
  for (const Bind& b : p.binds) a.insert(a.end(), {b.writable ? "--bind" : "--ro-bind", b.path, b.path});
  if (!p.hidden.empty()) {
    a.insert(a.end(), {"--perms", "0111", "--dir", "/kgen/in"});   // traversable, not listable
    for (const auto& [host, inside] : p.hidden) a.insert(a.end(), {"--ro-bind", host, inside});
  }
  if (!p.host_root) a.insert(a.end(), {"--remount-ro", "/"});
  if (c.clear_env) a.push_back("--clearenv");
  auto set = [&](const std::string& kv) {
    size_t e = kv.find('=');
    if (e != std::string::npos) a.insert(a.end(), {"--setenv", kv.substr(0, e), kv.substr(e + 1)});
  };
  if (c.clear_env) {
    if (!has_env(c.env, "PATH")) set("PATH=/usr/bin:/bin");
    if (!has_env(c.env, "HOME")) set("HOME=/tmp");
    if (!has_env(c.env, "LANG")) set("LANG=C.UTF-8");
  }
  if (!has_env(c.env, "TMPDIR") && !p.host_root) set("TMPDIR=/tmp");
  for (auto& kv : paths_env()) set(kv);
  for (auto& kv : c.env) set(kv);
  a.insert(a.end(), {"--chdir", p.cwd.empty() ? "/tmp" : p.cwd});
  if (seccomp_fd >= 0) a.insert(a.end(), {"--seccomp", std::to_string(seccomp_fd)});
  if (status_fd >= 0) a.insert(a.end(), {"--json-status-fd", std::to_string(status_fd)});
  a.push_back("--");
  a.insert(a.end(), c.argv.begin(), c.argv.end());
  return a;
}

// A descriptor moved to >= 10 (so that the child's 0..3 never collide with it), close-on-exec.
int high_fd(int fd) {
  if (fd < 0) return fd;
  int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  return h;
}

std::string read_nonblocking(int fd) {
  std::string s;
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  char b[4096];
  for (ssize_t n; (n = read(fd, b, sizeof b)) > 0;) s.append(b, static_cast<size_t>(n));
  return s;
}

Result run_unsafe(const Child& c0, const Limits& l, const Policy& p) {
  Child c = c0;
  char tmpl[] = "/tmp/kgen-unsafe-XXXXXX";
  std::string tmp = mkdtemp(tmpl) ? tmpl : "/tmp";
  if (c.clear_env) {
    if (!has_env(c.env, "PATH")) c.env.push_back("PATH=/usr/bin:/bin");
    if (!has_env(c.env, "LANG")) c.env.push_back("LANG=C.UTF-8");
  }
  if (!has_env(c.env, "HOME")) c.env.push_back("HOME=" + tmp);
  if (!has_env(c.env, "TMPDIR")) c.env.push_back("TMPDIR=" + tmp);
  c.cwd = p.cwd.empty() || p.cwd == "/tmp" ? tmp : p.cwd;
  Result r = run(c, l);
  std::error_code ec;
  if (tmp != "/tmp") fs::remove_all(tmp, ec);
  return r;
}
}  // namespace

std::string hide_file(Policy& p, const std::string& host_path, Mode m) {
  if (m == Mode::Unsafe) return host_path;
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char name[40];
  std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng()));
  std::string inside = std::string("/kgen/in/") + name + "/" + fs::path(host_path).filename().string();
  p.hidden.emplace_back(host_path, inside);
  return inside;
}

Mode default_mode() { return g_mode.load(); }
void set_default_mode(Mode m) { g_mode.store(m); }

bool available(std::string* why) {
  static std::once_flag once;
  static bool ok = false;
  static std::string reason;
  std::call_once(once, [] {
    if (bwrap_path().empty()) {
      reason = "bubblewrap (bwrap) is not installed";
      return;
    }
    Child c;
    c.argv = {"/usr/bin/true"};
    c.clear_env = true;
    Limits l;
    l.wall_s = 30;
    Result r = run(c, l, Policy{}, Mode::Isolated);
    ok = r.status == 0;
    if (!ok) reason = "bubblewrap cannot create the sandbox here: " + (r.start_error.empty() ? r.out : r.start_error);
  });
  if (why) *why = reason;
  return ok;
}

std::string unavailable_message() {
  std::string why;
  available(&why);
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  return "error[sandbox] kgen refuses to run untrusted code without its sandbox: " + why +
         " — install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces "
         "(sysctl kernel.unprivileged_userns_clone=1; on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0), "
         "see docs/sandbox.md; --unsafe-no-sandbox runs it unprotected, for debugging trusted code only";
}

Result run(const Child& c, const Limits& l, const Policy& p, Mode m) {
  if (m == Mode::Unsafe) return run_unsafe(c, l, p);
  Result r;
  if (bwrap_path().empty()) {
    r.start_error = "bubblewrap (bwrap) is not installed";
    return r;
  }
  std::string err;
  int sfd = high_fd(seccomp_filter_fd(err));
  if (sfd < 0) {
    r.start_error = "the seccomp filter cannot be built: " + err;
    return r;
  }
  int st[2];
  if (pipe2(st, O_CLOEXEC) != 0) {
    close(sfd);
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  int status_w = high_fd(st[1]);
  PidsCgroup cg(p.processes > 0 ? p.processes + 2 : 0);   // + bwrap and its PID 1
  Child b = c;
  b.argv = bwrap_args(c, p, sfd, status_w);
  b.env.clear();
  b.clear_env = false;   // bwrap's own environment: the parent's (bwrap --clearenv / --setenv shape the child's)
  b.cwd.clear();
  b.keep_fds.insert(b.keep_fds.end(), {sfd, status_w});
  b.cgroup_procs = cg.procs_file();
  r = run(b, l);
  close(sfd);
  close(status_w);
  std::string status = read_nonblocking(st[0]);
  close(st[0]);
  // bwrap reports {"child-pid": N} once the command runs; without it, the sandbox itself failed to start.
  if (r.status >= 0 && !r.timed_out && status.find("\"child-pid\"") == std::string::npos) {
    r.start_error = "bubblewrap could not set up the sandbox: " + r.out;
    r.status = -1;
  }
  return r;
}
}  // namespace kgen::sandbox
