// `kgen sandbox check`: whether candidates can run isolated here, and what the sandbox will enforce.
#include <fmt/core.h>

#include "cli/sandbox_flags.h"
#include "sandbox/cgroup.h"
#include "sandbox/process.h"
#include "sandbox/sandbox.h"
#include "sandbox/seccomp.h"

namespace kgen::cli {
void add_sandbox_command(CLI::App& app, int& exit_code) {
  auto* s = app.add_subcommand("sandbox", "The sandbox candidates run in (docs/sandbox.md)");
  s->require_subcommand(1);
  s->add_subcommand("check", "Say whether candidates can run isolated here, and with which limits")->callback([&exit_code] {
    std::string why;
    const bool ok = sandbox::available(&why);
    const std::string bwrap = sandbox::find_program("bwrap");
    sandbox::Result v = bwrap.empty() ? sandbox::Result{} : sandbox::run({bwrap, "--version"}, 10);
    fmt::print("bubblewrap:      {}{}\n", bwrap.empty() ? "not installed (apt-get install bubblewrap)" : bwrap,
               v.out.empty() ? "" : " (" + v.out.substr(0, v.out.find('\n')) + ")");
    fmt::print("isolation:       {}\n", ok ? "works (user, mount, PID, IPC, UTS, cgroup and network namespaces)" : why);
    int n = 0;
    sandbox::seccomp_denied(n);
    fmt::print("seccomp:         {} system calls refused\n", n);
    std::string where;
    fmt::print("process cap:     {}\n", sandbox::pids_cgroup_available(&where)
                                            ? "a pids cgroup per run under " + where
                                            : std::string("none (no writable pids cgroup here; the wall clock and the "
                                                          "PID namespace still end a fork bomb)"));
    if (!ok) fmt::print("\n{}\n", sandbox::unavailable_message());
    exit_code = ok ? 0 : 2;
  });
}
}  // namespace kgen::cli
