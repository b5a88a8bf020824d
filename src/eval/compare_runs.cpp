// Two bench runs side by side (compare_runs.h).
#include "eval/compare_runs.h"

#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "eval/result_json.h"

namespace kgen::eval {
namespace fs = std::filesystem;
using json = nlohmann::json;

bool load_run(const std::string& path_in, RunFile& run, std::string& err) {
  std::error_code ec;
  std::string path = fs::is_directory(path_in, ec) ? (fs::path(path_in) / "results.json").string() : path_in;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = path + ": cannot read it (a kgen bench results.json, or the --out folder holding one)";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  json doc = json::parse(ss.str(), nullptr, false);
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array()) {
    err = path + ": not a kgen bench results.json (no \"results\" list)";
    return false;
  }
  run.path = path;
  run.soc = doc.value("soc", "");
  run.trials = doc.contains("trials") && doc["trials"].is_number_integer() ? doc["trials"].get<int>() : 0;
  const std::string who = doc.contains("generator") && doc["generator"].is_string()
                              ? doc["generator"].get<std::string>()
                              : doc.value("candidates", std::string("?"));
  run.label = who + (doc.contains("created_at") && doc["created_at"].is_string()
                         ? ", " + doc["created_at"].get<std::string>() : "");
  size_t i = 0;
  for (const json& rj : doc["results"]) {
    EvalResult r;
    std::string e;
    if (!from_json(rj, r, e)) {
      err = fmt::format("{}: result #{}: {}", path, i, e);
      return false;
    }
    run.results.push_back(std::move(r));
    ++i;
  }
  run.metrics = compute_metrics(run.results, metrics_options_for(run.results));
  return true;
}

namespace {
std::map<std::string, const EvalResult*> best_by_task(const RunFile& r) {
  std::map<std::string, const EvalResult*> m;
  for (const EvalResult& x : r.results) {
    auto [it, fresh] = m.try_emplace(x.task_id, &x);
    if (!fresh && better(x, *it->second)) it->second = &x;
  }
  return m;
}
}  // namespace

RunComparison compare_runs(const RunFile& a, const RunFile& b, double ratio) {
  RunComparison c;
  if (a.soc != b.soc)
    c.notes.push_back(fmt::format("the runs were modeled on different SoC profiles ({} and {}): their speedups are "
                                  "not comparable",
                                  a.soc.empty() ? "?" : a.soc, b.soc.empty() ? "?" : b.soc));
  if (a.trials != b.trials)
    c.notes.push_back(fmt::format("the runs used {} and {} trials per case", a.trials, b.trials));
  const auto ba = best_by_task(a), bb = best_by_task(b);
  for (const auto& [id, ra] : ba) {
    auto it = bb.find(id);
    if (it == bb.end()) {
      c.only_a.push_back(id);
      continue;
    }
    const EvalResult& rb = *it->second;
    TaskDelta d{id, ra->verdict, rb.verdict, ra->verdict == Verdict::Correct ? ra->speedup : 0,
                rb.verdict == Verdict::Correct ? rb.speedup : 0, "same"};
    const bool ca = d.a == Verdict::Correct, cb = d.b == Verdict::Correct;
    if (!ca && cb) d.change = "fixed", ++c.fixed;
    else if (ca && !cb) d.change = "broken", ++c.broken;
    else if (ca && cb && d.speedup_a > 0 && d.speedup_b / d.speedup_a > ratio) d.change = "faster", ++c.faster;
    else if (ca && cb && d.speedup_a > 0 && d.speedup_b / d.speedup_a < 1 / ratio) d.change = "slower", ++c.slower;
    else if (d.a != d.b) d.change = "other verdict";
    c.tasks.push_back(d);
  }
  for (const auto& [id, rb] : bb)
    if (!ba.count(id)) c.only_b.push_back(id);
  return c;
}

namespace {
double at1(const GroupMetrics& g, const std::vector<double>& v) { return g.tasks && !v.empty() ? v[0] : 0; }
double fast1(const Metrics& m) {
  for (size_t p = 0; p < m.ps.size(); ++p)
    if (m.ps[p] == 1 && !m.overall.fast_at_k[p].empty()) return m.overall.fast_at_k[p][0];
  return 0;
}
std::string sp(double s) { return s > 0 ? fmt::format("{:.2f}x", s) : "-"; }
}  // namespace

std::string comparison_text(const RunFile& a, const RunFile& b, const RunComparison& c, bool all) {
  std::string o = fmt::format("A: {} ({})\nB: {} ({})\n", a.path, a.label, b.path, b.label);
  for (const auto& n : c.notes) o += "note: " + n + "\n";
  const GroupMetrics &ga = a.metrics.overall, &gb = b.metrics.overall;
  o += fmt::format("\n{:<22} {:>10} {:>10} {:>10}\n", "overall (modeled)", "A", "B", "B - A");
  auto row = [&](const char* name, double x, double y, bool pct) {
    o += pct ? fmt::format("{:<22} {:>9.1f}% {:>9.1f}% {:>+9.1f}%\n", name, 100 * x, 100 * y, 100 * (y - x))
             : fmt::format("{:<22} {:>10} {:>10} {:>10}\n", name, sp(x), sp(y),
                           x > 0 && y > 0 ? fmt::format("{:.2f}x", y / x) : "-");
  };
  o += fmt::format("{:<22} {:>10} {:>10}\n", "tasks", ga.tasks, gb.tasks);
  row("compile@1", at1(ga, ga.compile_at_k), at1(gb, gb.compile_at_k), true);
  row("pass@1", at1(ga, ga.pass_at_k), at1(gb, gb.pass_at_k), true);
  row("fast_1@1", fast1(a.metrics), fast1(b.metrics), true);
  row("geomean speedup", ga.geomean_speedup, gb.geomean_speedup, false);
  o += fmt::format("\n{} task(s) in both: {} fixed, {} broken, {} faster, {} slower (modeled speedup ratio beyond "
                   "1.1); {} only in A, {} only in B\n",
                   c.tasks.size(), c.fixed, c.broken, c.faster, c.slower, c.only_a.size(), c.only_b.size());
  size_t w = 24;
  for (const auto& d : c.tasks) w = std::max(w, d.task_id.size());
  bool header = false;
  for (const auto& d : c.tasks) {
    if (!all && d.change == "same") continue;
    if (!header) {
      o += fmt::format("\n{:<{}} {:<14} {:<14} {:>9} {:>9}  {}\n", "task", w, "A", "B", "A speedup", "B speedup",
                       "change");
      header = true;
    }
    o += fmt::format("{:<{}} {:<14} {:<14} {:>9} {:>9}  {}\n", d.task_id, w, verdict_name(d.a), verdict_name(d.b),
                     sp(d.speedup_a), sp(d.speedup_b), d.change);
  }
  auto list = [&](const char* what, const std::vector<std::string>& v) {
    if (v.empty()) return;
    o += fmt::format("\nonly in {} ({}):", what, v.size());
    for (size_t i = 0; i < v.size() && i < 20; ++i) o += (i ? ", " : " ") + v[i];
    if (v.size() > 20) o += fmt::format(", ... ({} more)", v.size() - 20);
    o += "\n";
  };
  list("A", c.only_a);
  list("B", c.only_b);
  return o;
}

json to_json(const RunFile& a, const RunFile& b, const RunComparison& c) {
  json tasks = json::array();
  for (const auto& d : c.tasks)
    tasks.push_back({{"task_id", d.task_id}, {"a", verdict_name(d.a)}, {"b", verdict_name(d.b)},
                     {"speedup_a", d.speedup_a}, {"speedup_b", d.speedup_b}, {"change", d.change}});
  return {{"a", {{"path", a.path}, {"label", a.label}, {"soc", a.soc}, {"metrics", to_json(a.metrics)}}},
          {"b", {{"path", b.path}, {"label", b.label}, {"soc", b.soc}, {"metrics", to_json(b.metrics)}}},
          {"tasks", tasks}, {"only_a", c.only_a}, {"only_b", c.only_b},
          {"counts", {{"fixed", c.fixed}, {"broken", c.broken}, {"faster", c.faster}, {"slower", c.slower}}},
          {"notes", c.notes}};
}

std::string comparison_csv(const RunComparison& c) {
  std::string o = "task_id,verdict_a,verdict_b,speedup_a,speedup_b,change\n";
  for (const auto& d : c.tasks)
    o += fmt::format("{},{},{},{:.6g},{:.6g},{}\n", d.task_id, verdict_name(d.a), verdict_name(d.b), d.speedup_a,
                     d.speedup_b, d.change);
  return o;
}
}  // namespace kgen::eval
