// The benchmark's HTML report: one self-contained file (inline CSS, inline SVG charts, a few lines of inline JS for
// sorting the task table; no network, no external scripts or fonts) rendered from the results JSON that
// `kgen bench` writes:
//   {"kgen_version", "soc", "suite", "candidates", "created_at",
//    "results": [EvalResult JSON (result_json.h)...], "metrics": Metrics JSON (metrics.h to_json),
//    "missing": [task ids not evaluated], "sources": {task_id: {"task": text, "candidate": {path: text}}}}
// Every key is optional except that without "results" the page is empty; "metrics" is computed from the results
// (default MetricsOptions) when absent. Every string from the data is HTML-escaped. All times are modeled.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace kgen::eval {
std::string render_report_html(const nlohmann::json& results_json);
// Reads results_json_path, renders, writes html_path. False with err on a read, parse or write failure.
bool render_report_html_file(const std::string& results_json_path, const std::string& html_path, std::string& err);
}  // namespace kgen::eval
