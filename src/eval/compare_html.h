// The run-comparison page (`kgen compare A B --html FILE`): one self-contained HTML file with both runs' metrics and
// their differences, per category, a speedup scatter of the tasks both runs got right, and the per-task table
// (sortable, filtered by change and verdict). Every time on it is modeled.
#pragma once
#include <string>

#include "eval/compare_runs.h"

namespace kgen::eval {
std::string comparison_html(const RunFile& a, const RunFile& b, const RunComparison& c);
}  // namespace kgen::eval
