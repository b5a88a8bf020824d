// `kgen serve`: the evaluator and the reward as an HTTP service for RL trainers (src/serve/server.h, docs/rl.md).
// Serves until SIGINT/SIGTERM (exit 0); exit 2 when it cannot start.
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_serve_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
