// The options every command that runs candidates shares: the sandbox escape hatch and the secret trials.
#pragma once
#include <CLI/CLI.hpp>

#include "eval/evaluate.h"

namespace kgen::cli {
// --unsafe-no-sandbox (sets sandbox::default_mode() to Unsafe, with a warning on stderr) and, with `o`,
// --secret-trials N, --max-records N and --timing-check.
void add_sandbox_flags(CLI::App* cmd, eval::EvalOptions* o = nullptr);
// 0 when untrusted code may run here (the sandbox works, or --unsafe-no-sandbox); else prints why and how to fix it
// (prefixed by `who`) and returns 2.
int require_sandbox(const char* who);
// `kgen sandbox check` (sandbox_cmd.cpp).
void add_sandbox_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
