// Starting a child process with limits, capturing its output, and reading its channel: the one fork/exec of kgen.
// Trusted tools (the compilers' driver, reference.py, the task lister) run through run() directly; untrusted code
// runs through sandbox.h, which wraps the same call in bubblewrap.
//
// A child's output is binary-safe here and valid UTF-8 afterwards: bytes that are not UTF-8 become "\xNN" (text
// kgen prints or stores may come from a hostile candidate). The channel is a pipe the child finds at fd `channel_fd`
// (3 by default) and writes frames to (channel.h); the parent reads it while the child runs, so a frame can stop the
// child early.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sandbox/channel.h"

namespace kgen::sandbox {
// Resource limits set in the child before exec (setrlimit, inherited by everything it starts). 0 = no limit.
struct Limits {
  double wall_s = 0;            // wall clock, measured by the parent; the child's process group is killed after it
  double cpu_s = 0;             // RLIMIT_CPU of each process
  size_t memory_bytes = 0;      // RLIMIT_AS of each process
  size_t data_bytes = 0;        // RLIMIT_DATA: private writable memory (heap, anonymous maps). A timing-only op run
                                // is bounded by it: its GM is address space (shared, never touched), not memory
  size_t file_bytes = 0;        // RLIMIT_FSIZE: the largest file any process may write
  size_t output_bytes = 1 << 20;  // stdout+stderr kept (the rest is counted and dropped)
  size_t channel_bytes = 0;     // channel bytes accepted; beyond it the child is killed (0: no channel)
  double progress_s = 0;        // killed (timed_out) when no channel frame completes for this long (0: no limit)
};

struct Child {
  std::vector<std::string> argv;     // argv[0]: a path, or a name looked up in PATH before the fork
  bool clear_env = false;            // true: the child gets exactly `env`
  std::vector<std::string> env;      // NAME=VALUE, added to (or, with clear_env, the whole of) the environment
  std::string cwd;                   // "" : the parent's
  bool inherit_stdio = false;        // true: the child writes to the parent's stdout/stderr (nothing captured)
  int channel_fd = 3;                // where the channel's write end is in the child (with Limits::channel_bytes)
  std::vector<int> keep_fds;         // parent fds the child inherits at the same number (bwrap's --seccomp FD)
  std::string cgroup_procs;          // a cgroup.procs file the child joins before exec ("" : none)
  // Called for each complete channel frame as it arrives (the frame is then not kept in Result::frames); false
  // stops the child (Result::stopped).
  std::function<bool(Frame&)> on_frame;   // may move the frame's data out (a trace of hundreds of MB)
};

struct Result {
  int status = -1;              // exit status, or 128+signal; -1 when the child could not be started
  bool timed_out = false;       // killed after Limits::wall_s
  bool stopped = false;         // killed because on_frame returned false
  bool channel_overflow = false;   // killed for writing more than Limits::channel_bytes
  std::string channel_error;    // the channel's bytes were not frames (killed)
  std::string out;              // stdout and stderr interleaved, valid UTF-8
  size_t out_dropped = 0;       // bytes beyond Limits::output_bytes
  std::vector<Frame> frames;    // channel frames, in order (when there is no on_frame)
  bool stalled = false;         // timed out for Limits::progress_s (timed_out is set too)
  double seconds = 0;
  std::string start_error;      // why the child did not start (status -1)
};

Result run(const Child& c, const Limits& l);
// Shorthand for a trusted tool: output captured, wall-clock limit only.
Result run(const std::vector<std::string>& argv, double wall_s);

// The text with every byte sequence that is not UTF-8 (and every NUL) replaced by "\xNN".
std::string utf8_clean(const std::string& s);
// Whether `s` is valid UTF-8 (control characters allowed, NUL not).
bool valid_utf8(const std::string& s);
// The absolute path of a program, looked up in PATH when it has no '/'; "" when not found.
std::string find_program(const std::string& name);
}  // namespace kgen::sandbox
