#include "cli/sandbox_flags.h"

#include <iostream>

#include "sandbox/sandbox.h"

namespace kgen::cli {
void add_sandbox_flags(CLI::App* cmd, eval::EvalOptions* o) {
  cmd->add_flag_callback(
      "--unsafe-no-sandbox",
      [] {
        sandbox::set_default_mode(sandbox::Mode::Unsafe);
        std::cerr << "kgen: warning: --unsafe-no-sandbox: candidates run as you, with your files and network, and "
                     "can forge their verdicts; use it only to debug code you trust (docs/sandbox.md)\n";
      },
      "Run candidates without the sandbox (debugging trusted code only; docs/sandbox.md)");
  if (o) {
    cmd->add_option("--secret-trials", o->secret_trials,
                    "Trials per case from a seed drawn for this run, besides --trials (0: none)")
        ->capture_default_str();
    cmd->add_option("--max-records", o->max_records,
                    "Pipe instructions per core before a runaway kernel is stopped as a timeout (default 30 million)");
    cmd->add_flag("--timing-check", o->timing_check,
                  "Also run each op project's first case timing-only and compare its trace with the full run's "
                  "(results.json timing_check: \"equal\" or the first difference)");
    cmd->add_flag_callback(
        "--no-perf-shape", [o] { o->perf_shape = false; },
        "Skip the timing-only run at each task's PERF shape: the speedup is then the check shapes' (launch-heavy)");
  }
}

int require_sandbox(const char* who) {
  if (sandbox::default_mode() == sandbox::Mode::Unsafe || sandbox::available()) return 0;
  std::cerr << who << ": " << sandbox::unavailable_message() << "\n";
  return 2;
}
}  // namespace kgen::cli
