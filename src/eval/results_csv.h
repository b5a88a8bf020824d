// results.csv: one row per result of a bench run (what pandas, a spreadsheet or a notebook reads without parsing
// results.json), beside results.json. Columns are fixed and named in the header row; numbers in plain decimal, times
// modeled (the soc column names the profile); fields quoted as RFC 4180 says when they hold a comma, quote or newline.
#pragma once
#include <string>
#include <vector>

#include "eval/result.h"

namespace kgen::eval {
std::string results_csv(const std::vector<EvalResult>& results);
}  // namespace kgen::eval
