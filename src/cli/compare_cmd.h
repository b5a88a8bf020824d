// `kgen compare A B [--all] [--json] [--csv FILE] [--ratio R]`: two bench runs (results.json, or their --out folders)
// side by side: metrics, per-task changes (eval/compare_runs.h).
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_compare_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
