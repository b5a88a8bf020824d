// `kgen tile check F` and `kgen tile compile F -o DIR`: the tile-language compiler (src/tile, docs/tile-language.md).
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_tile_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
