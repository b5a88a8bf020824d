// `kgen cluster check` and `kgen cluster worker-eval` (cluster_cmd.cpp).
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
void add_cluster_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
