// `kgen perf eager` and `kgen perf calibrate`: subcommands added under the `perf` subcommand.
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
// Adds `eager` to `perf`; sets exit_code when it runs.
void add_perf_eager_cmd(CLI::App* perf, int& exit_code);
// Adds `calibrate` to `perf` (calibrate_cmd.cpp).
void add_perf_calibrate_cmd(CLI::App* perf, int& exit_code);
}  // namespace kgen::cli
