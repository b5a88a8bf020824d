// `kgen eval --task T --candidate C`: one candidate (op project or MultiKernelBench submission) on one task, one
// verdict (src/eval/evaluate.h). Exit 0 correct, 3 any other verdict, 2 usage.
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_eval_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
