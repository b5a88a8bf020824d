// `kgen op ...`: operator projects (CANN op_host + op_kernel) and MultiKernelBench submissions.
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
// Adds `kgen op` with `run` (op_cmd.cpp); returns the `op` subcommand for the others.
CLI::App* add_op_command(CLI::App& app, int& exit_code);
void add_op_mkb_cmd(CLI::App* op, int& exit_code);   // `kgen op run-mkb` (op_mkb_cmd.cpp)
void add_op_new_cmd(CLI::App* op, int& exit_code);   // `kgen op new` (op_new_cmd.cpp)
}  // namespace kgen::cli
