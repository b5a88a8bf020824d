// `kgen compare` (compare_cmd.h).
#include "cli/compare_cmd.h"

#include <fstream>
#include <iostream>
#include <memory>

#include "eval/compare_html.h"
#include "eval/compare_runs.h"

namespace kgen::cli {
namespace {
struct CompareCli {
  std::string a, b, csv, html;
  bool all = false, json = false;
  double ratio = 1.1;
};

int run_compare(const CompareCli& c) {
  if (c.ratio < 1) {
    std::cerr << "kgen compare: --ratio must be at least 1 (a speedup ratio beyond it counts as faster or slower)\n";
    return 2;
  }
  eval::RunFile a, b;
  std::string err;
  if (!eval::load_run(c.a, a, err) || !eval::load_run(c.b, b, err)) {
    std::cerr << "kgen compare: " << err << "\n";
    return 2;
  }
  const eval::RunComparison cmp = eval::compare_runs(a, b, c.ratio);
  if (!c.csv.empty()) {
    std::ofstream out(c.csv, std::ios::binary | std::ios::trunc);
    out << eval::comparison_csv(cmp);
    if (!out.flush()) {
      std::cerr << "kgen compare: --csv " << c.csv << ": cannot write it\n";
      return 1;
    }
  }
  if (!c.html.empty()) {
    std::ofstream out(c.html, std::ios::binary | std::ios::trunc);
    out << eval::comparison_html(a, b, cmp);
    if (!out.flush()) {
      std::cerr << "kgen compare: --html " << c.html << ": cannot write it\n";
      return 1;
    }
  }
  if (c.json) std::cout << eval::to_json(a, b, cmp).dump(1) << "\n";
  else std::cout << eval::comparison_text(a, b, cmp, c.all);
  return 0;
}
}  // namespace

CLI::App* add_compare_command(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<CompareCli>();
  auto* s = app.add_subcommand("compare", "Two bench runs side by side: their metrics, and per task what was fixed, "
                                          "broken, got faster or slower (modeled)");
  s->add_option("a", c->a, "Run A: a results.json, or the --out folder of kgen bench holding one")->required();
  s->add_option("b", c->b, "Run B")->required();
  s->add_flag("--all", c->all, "List every task in both runs, not only those that changed");
  s->add_flag("--json", c->json, "Print the comparison as one JSON object");
  s->add_option("--csv", c->csv, "Also write one row per task in both runs to this CSV file");
  s->add_option("--html", c->html, "Also write the comparison page to this HTML file (self-contained: metrics, "
                                   "per category, speedup scatter, per-task table with filters)");
  s->add_option("--ratio", c->ratio, "Speedup ratio B/A beyond which a correct task counts as faster (or below 1/R, "
                                     "slower)")
      ->capture_default_str();
  s->callback([c, &exit_code] { exit_code = run_compare(*c); });
  return s;
}
}  // namespace kgen::cli
