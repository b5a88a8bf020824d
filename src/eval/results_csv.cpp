// results.csv (results_csv.h).
#include "eval/results_csv.h"

#include <fmt/core.h>

#include <cmath>

namespace kgen::eval {
namespace {
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string number(double x) { return std::isfinite(x) ? fmt::format("{:.6g}", x) : std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"; }
}  // namespace

std::string results_csv(const std::vector<EvalResult>& results) {
  std::string o =
      "task_id,sample,level,category,candidate_kind,verdict,error_category,correct,tol_err,max_abs_err,"
      "modeled_us,eager_modeled_us,speedup,soc,trials,cases,cases_correct,seconds,reference_s,build_s,run_s,"
      "first_diagnostic\n";
  for (const EvalResult& r : results) {
    size_t ok = 0;
    for (const CaseResult& c : r.cases) ok += c.correct;
    const bool correct = r.verdict == Verdict::Correct;
    o += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", field(r.task_id), r.sample,
                     r.level, field(r.category), field(r.candidate_kind), verdict_name(r.verdict),
                     field(r.error_category), correct ? 1 : 0, number(r.tol_err), number(r.max_abs_err),
                     correct ? number(r.modeled_us) : "", number(r.eager_modeled_us), correct ? number(r.speedup) : "",
                     field(r.soc), r.trials, r.cases.size(), ok, number(r.seconds), number(r.reference_s),
                     number(r.build_s), number(r.run_s), field(r.diagnostics.empty() ? "" : r.diagnostics.front()));
  }
  return o;
}
}  // namespace kgen::eval
