// `kgen data export --store S --format F --out FILE`: training rows from the results store (data/export.h).
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_data_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
