// The run-comparison page (compare_html.h).
#include "eval/compare_html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "eval/html.h"

namespace kgen::eval {
namespace {
using html::badge;
using html::esc;
using html::pct;
using html::svgn;
using html::times;

double first(const std::vector<double>& v) { return v.empty() ? NAN : v[0]; }
double fast1(const Metrics& m, const GroupMetrics& g) {
  for (size_t p = 0; p < m.ps.size(); ++p)
    if (m.ps[p] == 1 && p < g.fast_at_k.size()) return first(g.fast_at_k[p]);
  return NAN;
}
std::string delta_pct(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return "-";
  return fmt::format("{:+.1f} pt", 100 * (b - a));
}
std::string ratio(double a, double b) { return a > 0 && b > 0 ? fmt::format("{:.2f}x", b / a) : "-"; }

const char* change_colour(const std::string& c) {
  if (c == "fixed") return "#2e7d32";
  if (c == "broken") return "#c62828";
  if (c == "faster") return "#1565c0";
  if (c == "slower") return "#ef6c00";
  if (c == "other verdict") return "#6a1b9a";
  return "#90a4ae";   // same
}

// Speedup in A (x) against B (y), log-log, for the tasks correct in both; above y = x B is faster.
std::string speedup_scatter(const RunComparison& c) {
  std::vector<const TaskDelta*> pts;
  for (const auto& d : c.tasks)
    if (d.speedup_a > 0 && d.speedup_b > 0) pts.push_back(&d);
  if (pts.empty()) return "<p class=\"note\">No task is correct in both runs: nothing to plot.</p>\n";
  double lo = 1, hi = 1;
  for (const auto* d : pts) {
    lo = std::min({lo, d->speedup_a, d->speedup_b});
    hi = std::max({hi, d->speedup_a, d->speedup_b});
  }
  const double l0 = std::floor(std::log2(lo)), l1 = std::ceil(std::log2(hi)) + (lo == hi ? 1 : 0);
  const double left = 60, top = 30, side = 360, w = left + side + 190, h = top + side + 50;
  auto pos = [&](double v) { return (std::log2(v) - l0) / (l1 - l0) * side; };
  std::string o = fmt::format("<svg class=\"chart scatter\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
                              "<title>modeled speedup, A against B</title>\n"
                              "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h), svgn(left), svgn(top), svgn(side), svgn(side));
  for (double e = l0; e <= l1; ++e) {
    const double x = left + pos(std::exp2(e)), y = top + side - pos(std::exp2(e));
    o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"grid\"/><text x=\"{0}\" y=\"{3}\" "
                     "class=\"small\" text-anchor=\"middle\">{4}x</text>\n",
                     svgn(x), svgn(top), svgn(top + side), svgn(top + side + 13), fmt::format("{:g}", std::exp2(e)));
    o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"grid\"/><text x=\"{3}\" y=\"{4}\" "
                     "class=\"small\" text-anchor=\"end\">{5}x</text>\n",
                     svgn(left), svgn(y), svgn(left + side), svgn(left - 4), svgn(y + 4),
                     fmt::format("{:g}", std::exp2(e)));
  }
  o += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"ref\"/>\n", svgn(left), svgn(top + side),
                   svgn(left + side), svgn(top));
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"middle\">run A speedup (modeled)</text>\n"
                   "<text x=\"14\" y=\"{}\" class=\"small\" text-anchor=\"middle\" transform=\"rotate(-90 14 {})\">run B "
                   "speedup (modeled)</text>\n",
                   svgn(left + side / 2), svgn(top + side + 32), svgn(top + side / 2), svgn(top + side / 2));
  std::set<std::string> seen;
  for (const auto* d : pts) {
    seen.insert(d->change);
    o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\" fill-opacity=\"0.8\"><title>{}: A {:.2f}x, B {:.2f}x "
                     "({})</title></circle>\n",
                     svgn(left + pos(d->speedup_a)), svgn(top + side - pos(d->speedup_b)), change_colour(d->change),
                     esc(d->task_id), d->speedup_a, d->speedup_b, esc(d->change));
  }
  double ly = top + 6;   // legend
  for (const char* k : {"faster", "slower", "same"}) {
    if (!seen.count(k)) continue;
    o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" class=\"small\">{}</text>\n",
                     svgn(left + side + 20), svgn(ly), change_colour(k), svgn(left + side + 30), svgn(ly + 4), k);
    ly += 16;
  }
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">above the dashed line:</text><text x=\"{}\" y=\"{}\" "
                   "class=\"small\">B is faster</text>\n",
                   svgn(left + side + 14), svgn(ly + 10), svgn(left + side + 14), svgn(ly + 24));
  return o + "</svg>\n";
}
}  // namespace

std::string comparison_html(const RunFile& a, const RunFile& b, const RunComparison& c) {
  std::string o;
  o.reserve(1 << 15);
  o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
       "content=\"width=device-width, initial-scale=1\">\n<title>kgen run comparison</title>\n<style>";
  o += html::style();
  o += "</style>\n</head>\n<body>\n<h1>kgen run comparison</h1>\n";
  o += fmt::format("<p class=\"meta\"><b>A</b> {} ({}) &nbsp; <b>B</b> {} ({}) &nbsp; <b>SoC</b> {}</p>\n", esc(a.path),
                   esc(a.label), esc(b.path), esc(b.label), a.soc == b.soc ? esc(a.soc) : esc(a.soc + " / " + b.soc));
  o += "<p class=\"note\">All times and speedups are modeled by kgen's performance model, not measured. Per task, each "
       "run's best sample is compared.</p>\n";
  for (const auto& n : c.notes) o += "<p class=\"note\">note: " + esc(n) + "</p>\n";

  const GroupMetrics &ga = a.metrics.overall, &gb = b.metrics.overall;
  struct Row { const char* name; double x, y; bool is_pct; };
  const Row rows[] = {{"compile@1", first(ga.compile_at_k), first(gb.compile_at_k), true},
                      {"pass@1", first(ga.pass_at_k), first(gb.pass_at_k), true},
                      {"fast_1@1 (modeled)", fast1(a.metrics, ga), fast1(b.metrics, gb), true},
                      {"geomean speedup of correct (modeled)", ga.geomean_speedup, gb.geomean_speedup, false}};
  o += "<h2 id=\"overall\">Overall</h2>\n<div class=\"cards\">\n";
  for (const Row& r : rows)
    o += fmt::format("<div class=\"card\"><div class=\"v\">{} &rarr; {}</div><div class=\"k\">{} ({})</div></div>\n",
                     r.is_pct ? pct(r.x) : times(r.x), r.is_pct ? pct(r.y) : times(r.y), esc(r.name),
                     r.is_pct ? delta_pct(r.x, r.y) : ratio(r.x, r.y));
  o += "</div>\n<table class=\"metrics\"><thead><tr><th>overall</th><th>A</th><th>B</th><th>B - A</th></tr></thead><tbody>\n";
  o += fmt::format("<tr><td>tasks</td><td>{}</td><td>{}</td><td>{:+d}</td></tr>\n", ga.tasks, gb.tasks, gb.tasks - ga.tasks);
  for (const Row& r : rows)
    o += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", esc(r.name),
                     r.is_pct ? pct(r.x) : times(r.x), r.is_pct ? pct(r.y) : times(r.y),
                     r.is_pct ? delta_pct(r.x, r.y) : ratio(r.x, r.y));
  o += "</tbody></table>\n";
  o += fmt::format("<p>{} task(s) in both runs: <b>{}</b> fixed, <b>{}</b> broken, <b>{}</b> faster, <b>{}</b> slower; "
                   "{} only in A, {} only in B.</p>\n",
                   c.tasks.size(), c.fixed, c.broken, c.faster, c.slower, c.only_a.size(), c.only_b.size());

  // Per category.
  std::map<std::string, std::pair<const GroupMetrics*, const GroupMetrics*>> cats;
  for (const auto& g : a.metrics.categories) cats[g.name].first = &g;
  for (const auto& g : b.metrics.categories) cats[g.name].second = &g;
  o += "<h2 id=\"categories\">Per category</h2>\n<table class=\"sortable metrics\"><thead><tr><th>category</th>"
       "<th>tasks A / B</th><th>pass@1 A</th><th>pass@1 B</th><th>B - A</th><th>geomean A</th><th>geomean B</th>"
       "</tr></thead><tbody>\n";
  for (const auto& [name, p] : cats) {
    const double pa = p.first ? first(p.first->pass_at_k) : NAN, pb = p.second ? first(p.second->pass_at_k) : NAN;
    const double sa = p.first ? p.first->geomean_speedup : 0, sb = p.second ? p.second->geomean_speedup : 0;
    o += fmt::format("<tr><td>{}</td><td>{} / {}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td>"
                     "<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td></tr>\n",
                     esc(name), p.first ? p.first->tasks : 0, p.second ? p.second->tasks : 0,
                     std::isfinite(pa) ? pa : -1, pct(pa), std::isfinite(pb) ? pb : -1, pct(pb),
                     std::isfinite(pa) && std::isfinite(pb) ? pb - pa : -9, delta_pct(pa, pb), sa, times(sa), sb,
                     times(sb));
  }
  o += "</tbody></table>\n";

  o += "<h2 id=\"scatter\">Speedup, A against B (modeled)</h2>\n" + speedup_scatter(c) +
       "<p class=\"note\">One point per task correct in both runs (log-log); the hover text names it.</p>\n";

  // Per task.
  std::set<std::string> changes, verdicts;
  for (const auto& d : c.tasks) {
    changes.insert(d.change);
    verdicts.insert(verdict_name(d.a));
    verdicts.insert(verdict_name(d.b));
  }
  o += "<h2 id=\"tasks\">Tasks in both runs</h2>\n<p class=\"filters\">" +
       html::filter_select("cmptable", "change", "change", changes) +
       html::filter_select("cmptable", "b", "verdict in B", verdicts) + html::filter_text("cmptable", c.tasks.size()) +
       "</p>\n<table class=\"sortable\" id=\"cmptable\"><thead><tr><th>task</th><th>A</th><th>B</th>"
       "<th>A speedup (modeled)</th><th>B speedup (modeled)</th><th>B / A</th><th>change</th></tr></thead><tbody>\n";
  for (const auto& d : c.tasks) {
    const std::string va = verdict_name(d.a), vb = verdict_name(d.b);
    o += fmt::format("<tr data-change=\"{}\" data-a=\"{}\" data-b=\"{}\"><td>{}</td><td class=\"l\">{}</td><td "
                     "class=\"l\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td>"
                     "<td class=\"l\"><span class=\"badge\" style=\"background:{}\">{}</span></td></tr>\n",
                     esc(d.change), esc(va), esc(vb), esc(d.task_id), badge(va), badge(vb), d.speedup_a,
                     times(d.speedup_a), d.speedup_b, times(d.speedup_b),
                     d.speedup_a > 0 && d.speedup_b > 0 ? d.speedup_b / d.speedup_a : 0, ratio(d.speedup_a, d.speedup_b),
                     change_colour(d.change), esc(d.change));
  }
  o += "</tbody></table>\n";
  auto only = [&](const char* which, const std::vector<std::string>& ids) {
    if (ids.empty()) return;
    o += fmt::format("<p class=\"note\">only in {} ({}): ", which, ids.size());
    for (size_t i = 0; i < ids.size(); ++i) o += (i ? ", " : "") + esc(ids[i]);
    o += "</p>\n";
  };
  only("A", c.only_a);
  only("B", c.only_b);
  o += std::string("<script>") + html::script() + "</script>\n</body>\n</html>\n";
  return o;
}
}  // namespace kgen::eval
