// `kgen tasks list|check`: the benchmark's task suite (tasks/, or a KernelBench / MultiKernelBench folder), read by
// python/kgen_eval/tasks.py through Debian's /usr/bin/python3 (with python3-torch).
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_tasks_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
