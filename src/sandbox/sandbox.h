// Running untrusted code: candidates' compiles, kgen-oprun with a candidate's host and kernel libraries, a
// MultiKernelBench submission's Python, generator programs. Built on bubblewrap (Debian `bubblewrap`), the
// namespace tool Flatpak uses; docs/sandbox.md has the threat model.
//
// Each run gets fresh user, mount, PID, IPC, UTS, cgroup and network namespaces (the network shared only when the
// policy says so), uid/gid 65534 with no capabilities, no further user namespaces, a new session (no terminal
// injection), a seccomp filter (seccomp.cpp: ptrace, process_vm_*, bpf, perf_event_open, keyctl, mount, setns,
// unshare, module and reboot calls fail), and a file system of:
//   /usr (the toolchain, Python, PyTorch) and the /bin /lib* /sbin links, read-only; /etc only the dynamic loader's
//   cache and the alternatives links; a fresh /proc of its own PID namespace and a minimal /dev;
//   /tmp: a size-limited tmpfs (Policy::tmp_bytes), the only writable place unless a Bind says otherwise;
//   the Policy's binds, each at the path it has on the host (so that paths in diagnostics and build-cache keys are
//   the same inside and out); everything else, the root included, read-only and empty.
// The sandbox dies whole when the run ends, times out or kgen dies (PID namespace, --die-with-parent); processes are
// capped by a pids cgroup where one is writable (else RLIMIT_NPROC when kgen does not run as root).
//
// Mode::Unsafe runs the same command line without any of this (for debugging trusted code: --unsafe-no-sandbox);
// Policy paths are then the host's own.
#pragma once
#include <string>
#include <vector>

#include "sandbox/process.h"

namespace kgen::sandbox {
enum class Mode { Isolated, Unsafe };

struct Bind {
  std::string path;         // host path, mounted at the same path inside
  bool writable = false;
};

struct Policy {
  std::vector<Bind> binds;
  // Files the child reads by a path it is given but cannot discover: bound read-only as /kgen/in/<random>/<name>
  // in a folder it may traverse but not list (and cannot chmod: the root is read-only). See hide_file().
  std::vector<std::pair<std::string, std::string>> hidden;   // host path -> path inside
  size_t tmp_bytes = 512ull << 20;   // the /tmp tmpfs
  int processes = 256;               // at most this many processes and threads at once (0: no cap)
  bool network = false;              // share the host's network (generator programs that call an LLM)
  bool host_root = false;            // the host's file system as the user sees it (generators: the user's own
                                     // programs), except kgen's files (read-only) and `hide`
  std::vector<std::string> hide;     // paths covered by an empty tmpfs (kgen's cache, the results store)
  std::string cwd = "/tmp";
};

// Adds `host_path` to p.hidden and returns the path the child must use for it (the host path itself in
// Mode::Unsafe, where nothing is remapped).
std::string hide_file(Policy& p, const std::string& host_path, Mode m);

// Whether Mode::Isolated works on this machine (probed once: bubblewrap present, namespaces allowed). `why` says
// what failed and how to fix it.
bool available(std::string* why = nullptr);
// Runs `c` under the policy. In Mode::Isolated when available() is false: status -1 with start_error set (nothing
// runs). Child::env is the child's whole environment (plus PATH, HOME=/tmp, TMPDIR=/tmp, LANG=C.UTF-8 when not
// given); Child::cwd is ignored (Policy::cwd).
Result run(const Child& c, const Limits& l, const Policy& p, Mode m);

// The default mode of this process: Isolated, or Unsafe after set_default_mode (the CLI's --unsafe-no-sandbox).
Mode default_mode();
void set_default_mode(Mode m);
// The refusal message when Isolated mode is unavailable (what, why, how to fix, the escape hatch).
std::string unavailable_message();
}  // namespace kgen::sandbox
