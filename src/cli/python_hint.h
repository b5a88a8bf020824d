// What to tell the user after one of kgen's Python helpers failed: a missing module is an installation problem
// (scripts/setup.sh), anything else is a bug of kgen's with the traceback above it.
#pragma once
#include <string>

namespace kgen::cli {
// A line ending in '\n', chosen from the helper's output.
std::string python_failure_hint(const std::string& output);
}  // namespace kgen::cli
