// `kgen bench`: every task of a suite against a folder of candidates (layout: src/eval/bench.h), in parallel, resumable
// through the SQLite results store; writes OUT/results.json and OUT/report.html, prints the metrics table.
// Exit 0 when the run completed (whatever the verdicts), 1 when it could not run (suite, candidates, store, output),
// 2 on a usage error.
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_bench_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
