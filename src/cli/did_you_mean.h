// "Did you mean": a hint for a misspelt subcommand or option, found by walking the command line the way CLI11 would
// (subcommands by name, options of the current command and its parents) and comparing what it does not know with
// what it does (edit distance, tile/diag.h closest).
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace kgen::cli {
// "" when every subcommand and option of `args` (argv without the program name) is known; else one line such as
// "kgen eval: unknown option '--tsk' — did you mean '--task'? (kgen eval --help lists the options)".
std::string usage_hint(CLI::App& app, const std::vector<std::string>& args);
}  // namespace kgen::cli
