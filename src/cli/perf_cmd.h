// `kgen perf ...`: the performance model on the command line.
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
// Adds `kgen perf` with its `report` subcommand; returns the `perf` app so other files can add subcommands
// (e.g. calibrate). The callbacks store their exit status in exit_code.
CLI::App* add_perf_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
