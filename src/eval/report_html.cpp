// The benchmark's self-contained HTML report (report_html.h). Charts are inline SVG built here; the only script is
// a few lines that sort the task table on a header click. Every string from the data goes through esc().
#include "eval/report_html.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "eval/html.h"
#include "eval/metrics.h"
#include "eval/result.h"
#include "eval/result_json.h"

namespace kgen::eval {
namespace {
using nlohmann::json;
using html::badge;
using html::esc;
using html::gnum;
using html::pct;
using html::svgn;
using html::times;
using html::verdict_colour;

// A top-level string field; numbers and other values are shown in their JSON form; absent -> def.
std::string jstr(const json& j, const char* key, const std::string& def = "") {
  if (!j.is_object()) return def;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

// A number field; also accepts "nan", "inf", "-inf" (result_json.h); absent or unreadable -> NaN.
double jnum(const json& j, const std::string& key) {
  if (!j.is_object()) return NAN;
  auto it = j.find(key);
  if (it == j.end()) return NAN;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {
    const std::string s = it->get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
  }
  return NAN;
}

// An LLM generator's attempts at one task (results.json "attempts": sample, round, verdict, speedup, feedback), so
// the repair rounds are visible: what each round got and what it was told.
std::string attempts_table(const json& attempts, const std::string& id);
struct AttemptTotals {
  int rounds = 0;
  double prompt_tokens = 0, completion_tokens = 0, cost_usd = 0;
};
AttemptTotals attempt_totals(const json& list) {
  AttemptTotals t;
  if (!list.is_array()) return t;
  for (const json& a : list) {
    if (!a.is_object()) continue;
    ++t.rounds;
    auto num = [&](const char* k) { return a.contains(k) && a[k].is_number() ? a[k].get<double>() : 0.0; };
    t.prompt_tokens += num("prompt_tokens");
    t.completion_tokens += num("completion_tokens");
    t.cost_usd += num("cost_usd");
  }
  return t;
}

// Stable, unique, attribute-safe anchors for task ids.
struct Anchors {
  std::map<std::string, std::string> by_id;
  std::set<std::string> used;
  const std::string& of(const std::string& id) {
    auto it = by_id.find(id);
    if (it != by_id.end()) return it->second;
    std::string a = "t-";
    for (char c : id) a += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '-';
    std::string u = a;
    for (int n = 2; used.count(u); ++n) u = a + "-" + std::to_string(n);
    used.insert(u);
    return by_id[id] = u;
  }
};

// The metric columns of a group: per k compile@k, pass@k, then fast_p@k for every p (the keys of to_json(Metrics)).
std::vector<std::string> metric_keys(const json& metrics) {
  std::vector<std::string> keys;
  std::vector<int> ks;
  std::vector<double> ps;
  if (metrics.contains("ks") && metrics["ks"].is_array())
    for (const auto& k : metrics["ks"]) if (k.is_number_integer()) ks.push_back(k.get<int>());
  if (metrics.contains("ps") && metrics["ps"].is_array())
    for (const auto& p : metrics["ps"]) if (p.is_number()) ps.push_back(p.get<double>());
  for (int k : ks) {
    keys.push_back(fmt::format("compile@{}", k));
    keys.push_back(fmt::format("pass@{}", k));
    for (double p : ps) keys.push_back(fmt::format("fast_{}@{}", p, k));
  }
  return keys;
}

std::string group_table(const std::string& first, const std::vector<const json*>& groups,
                        const std::vector<std::string>& keys) {
  std::string o = "<table class=\"metrics\"><thead><tr><th>" + esc(first) +
                  "</th><th>tasks</th><th>samples</th><th>correct</th>";
  for (const auto& k : keys) o += "<th>" + esc(k) + "</th>";
  o += "<th title=\"cases passed per task, averaged (NPUKernelBench's task score)\">case score</th>"
       "<th>geomean speedup (modeled)</th></tr></thead><tbody>\n";
  for (const json* g : groups) {
    o += "<tr><td>" + esc(jstr(*g, "name")) + "</td><td>" + esc(jstr(*g, "tasks", "-")) + "</td><td>" +
         esc(jstr(*g, "samples", "-")) + "</td><td>" + esc(jstr(*g, "correct_samples", "-")) + "</td>";
    for (const auto& k : keys) o += "<td>" + pct(jnum(*g, k)) + "</td>";
    o += "<td>" + (g->contains("case_score") ? pct(jnum(*g, "case_score")) : std::string("-")) + "</td>";
    const double cs = jnum(*g, "correct_samples");
    o += "<td>" + (cs > 0 ? times(jnum(*g, "geomean_speedup")) : std::string("-")) + "</td></tr>\n";
  }
  return o + "</tbody></table>\n";
}

// Pass by repair round: one line per key (fractions 0..1) over rounds 0..R (LLM generators' metrics_by_round).
std::string rounds_chart(const std::vector<const json*>& rounds, const std::vector<std::string>& keys) {
  static const char* colours[] = {"#90a4ae", "#2e7d32", "#1565c0", "#f9a825"};
  if (rounds.size() < 2) return "";
  const double left = 50, plot_w = 420, plot_h = 180, top = 30, w = left + plot_w + 40, h = top + plot_h + 44;
  std::string o = fmt::format("<svg class=\"chart rounds\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "role=\"img\"><title>metrics by repair round</title>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h));
  double lx = left;
  for (size_t i = 0; i < keys.size(); ++i) {
    o += fmt::format("<rect x=\"{}\" y=\"8\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"17\" "
                     "class=\"small\">{}</text>\n",
                     svgn(lx), colours[i % 4], svgn(lx + 14), esc(keys[i]));
    lx += 24 + 7 * keys[i].size();
  }
  const size_t n = rounds.size();
  auto x_of = [&](size_t r) { return left + plot_w * r / (n - 1); };
  auto y_of = [&](double v) { return top + plot_h * (1 - std::clamp(v, 0.0, 1.0)); };
  for (int t = 0; t <= 4; ++t)
    o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"grid\"/><text x=\"{3}\" y=\"{4}\" "
                     "class=\"small\" text-anchor=\"end\">{5}%</text>\n",
                     svgn(left), svgn(y_of(t / 4.0)), svgn(left + plot_w), svgn(left - 4), svgn(y_of(t / 4.0) + 4),
                     25 * t);
  for (size_t r = 0; r < n; ++r)
    o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"middle\">{}</text>\n", svgn(x_of(r)),
                     svgn(top + plot_h + 14), r);
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"middle\">repair round (0: the first reply "
                   "alone)</text>\n", svgn(left + plot_w / 2), svgn(top + plot_h + 32));
  for (size_t i = 0; i < keys.size(); ++i) {
    std::string pts;
    for (size_t r = 0; r < n; ++r) pts += fmt::format("{},{} ", svgn(x_of(r)), svgn(y_of(jnum(*rounds[r], keys[i]))));
    o += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", pts, colours[i % 4]);
    for (size_t r = 0; r < n; ++r)
      o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"><title>{} after round {}: {}</title></circle>\n",
                       svgn(x_of(r)), svgn(y_of(jnum(*rounds[r], keys[i]))), colours[i % 4], esc(keys[i]), r,
                       pct(jnum(*rounds[r], keys[i])));
  }
  return o + "</svg>\n";
}

// Horizontal grouped bars: one row per group, one bar per key (fractions 0..1).
std::string bar_chart(const std::vector<const json*>& groups, const std::vector<std::string>& keys,
                      const std::string& title) {
  static const char* colours[] = {"#90a4ae", "#2e7d32", "#1565c0", "#f9a825"};
  const double label_w = 150, plot_w = 420, bar_h = 10, gap = 8, top = 30;
  const double row_h = keys.size() * bar_h + gap;
  const double h = top + groups.size() * row_h + 30;
  const double w = label_w + plot_w + 60;
  std::string o = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "role=\"img\"><title>{}</title>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h), esc(title));
  // legend
  double lx = label_w;
  for (size_t i = 0; i < keys.size(); ++i) {
    o += fmt::format("<rect x=\"{}\" y=\"8\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"17\" "
                     "class=\"small\">{}</text>\n",
                     svgn(lx), colours[i % 4], svgn(lx + 14), esc(keys[i]));
    lx += 24 + 7 * keys[i].size();
  }
  const double y_end = top + groups.size() * row_h;
  for (int t = 0; t <= 4; ++t) {
    const double x = label_w + plot_w * t / 4;
    o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"grid\"/><text x=\"{0}\" y=\"{3}\" "
                     "class=\"small\" text-anchor=\"middle\">{4}%</text>\n",
                     svgn(x), svgn(top - 2), svgn(y_end), svgn(y_end + 14), 25 * t);
  }
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const json& g = *groups[gi];
    const double y0 = top + gi * row_h;
    o += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"lbl\">{}</text>\n", svgn(label_w - 6),
                     svgn(y0 + keys.size() * bar_h / 2 + 4), esc(jstr(g, "name")));
    for (size_t ki = 0; ki < keys.size(); ++ki) {
      double v = jnum(g, keys[ki]);
      if (!std::isfinite(v)) v = 0;
      v = std::clamp(v, 0.0, 1.0);
      o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} {}: {}</title>"
                       "</rect>\n",
                       svgn(label_w), svgn(y0 + ki * bar_h), svgn(plot_w * v), svgn(bar_h - 1), colours[ki % 4],
                       esc(jstr(g, "name")), esc(keys[ki]), pct(v));
    }
  }
  return o + "</svg>\n";
}

// Histogram of log2(speedup) of correct results, bins [2^b, 2^(b+1)), b clamped to [-6, 5].
std::string speedup_histogram(const std::vector<double>& speedups) {
  const int lo_clamp = -6, hi_clamp = 5;
  int lo = -1, hi = 0;
  std::map<int, int> count;
  for (double s : speedups) {
    int b = std::clamp(int(std::floor(std::log2(s))), lo_clamp, hi_clamp);
    ++count[b];
    lo = std::min(lo, b);
    hi = std::max(hi, b);
  }
  int maxc = 1;
  for (auto& [b, c] : count) maxc = std::max(maxc, c);
  const int nb = hi - lo + 1;
  const double left = 40, top = 20, plot_h = 180, bin_w = std::max(64.0, 480.0 / nb);
  const double w = left + nb * bin_w + 20, h = top + plot_h + 50;
  std::string o = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "role=\"img\"><title>speedup histogram</title>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h));
  const double base = top + plot_h;
  o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"axis\"/>\n", svgn(left), svgn(base),
                   svgn(left + nb * bin_w));
  o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"axis\"/><text x=\"{3}\" y=\"{4}\" "
                   "class=\"small\" text-anchor=\"end\">{5}</text><text x=\"{3}\" y=\"{2}\" class=\"small\" "
                   "text-anchor=\"end\">0</text><text x=\"12\" y=\"{6}\" class=\"small\" text-anchor=\"middle\" "
                   "transform=\"rotate(-90 12 {6})\">results</text>\n",
                   svgn(left), svgn(top), svgn(base), svgn(left - 4), svgn(top + 4), maxc, svgn(top + plot_h / 2));
  for (int b = lo; b <= hi; ++b) {
    const int c = count.count(b) ? count[b] : 0;
    const double x = left + (b - lo) * bin_w;
    const double bh = plot_h * c / maxc;
    auto pw = [](int e) { return e >= 0 ? fmt::format("{}", 1L << e) : fmt::format("1/{}", 1L << -e); };
    std::string label;
    if (b == lo_clamp) label = "<" + pw(b + 1) + "x";
    else if (b == hi_clamp) label = ">=" + pw(b) + "x";
    else label = pw(b) + "-" + pw(b + 1) + "x";
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} correct result(s)"
                     "</title></rect>\n",
                     svgn(x + 2), svgn(base - bh), svgn(bin_w - 4), svgn(bh), b < 0 ? "#ef9a9a" : "#81c784",
                     esc(label), c);
    if (c > 0)
      o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"middle\">{}</text>\n",
                       svgn(x + bin_w / 2), svgn(base - bh - 3), c);
    o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"middle\">{}</text>\n", svgn(x + bin_w / 2),
                     svgn(base + 14), esc(label));
  }
  const double x1 = left + (0 - lo) * bin_w;   // boundary of the 1x bin
  o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"ref\"/><text x=\"{0}\" y=\"{3}\" "
                   "class=\"small\" text-anchor=\"middle\">1x (eager)</text>\n",
                   svgn(x1), svgn(top - 6), svgn(base + 20), svgn(base + 34));
  return o + "</svg>\n";
}

struct Point {
  double x, y;                 // modeled candidate us, modeled eager us
  std::string verdict, label;
};

// Log-log scatter, same decades on both axes, with the y = x line.
std::string time_scatter(const std::vector<Point>& pts) {
  double mn = INFINITY, mx = 0;
  for (const auto& p : pts) {
    mn = std::min({mn, p.x, p.y});
    mx = std::max({mx, p.x, p.y});
  }
  int d0 = int(std::floor(std::log10(mn))), d1 = int(std::ceil(std::log10(mx)));
  if (d1 <= d0) d1 = d0 + 1;
  const double left = 60, top = 15, side = 420;
  const double w = left + side + 20, h = top + side + 45;
  auto px = [&](double v) { return left + side * (std::log10(v) - d0) / (d1 - d0); };
  auto py = [&](double v) { return top + side - side * (std::log10(v) - d0) / (d1 - d0); };
  std::string o = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "role=\"img\"><title>modeled kernel time vs "
                              "modeled eager time</title>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h));
  o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>\n", svgn(left), svgn(top),
                   svgn(side), svgn(side));
  for (int d = d0; d <= d1; ++d) {
    const double v = std::pow(10.0, d);
    o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"grid\"/><text x=\"{0}\" y=\"{3}\" "
                     "class=\"small\" text-anchor=\"middle\">{4:g}</text>\n",
                     svgn(px(v)), svgn(top), svgn(top + side), svgn(top + side + 14), v);
    o += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" class=\"grid\"/><text x=\"{3}\" y=\"{4}\" "
                     "class=\"small\" text-anchor=\"end\">{5:g}</text>\n",
                     svgn(py(v)), svgn(left), svgn(left + side), svgn(left - 4), svgn(py(v) + 4), v);
  }
  o += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"ref\"/>\n", svgn(left), svgn(top + side),
                   svgn(left + side), svgn(top));
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"middle\">candidate kernel time, modeled "
                   "(us)</text>\n",
                   svgn(left + side / 2), svgn(top + side + 32));
  o += fmt::format("<text x=\"14\" y=\"{0}\" class=\"small\" text-anchor=\"middle\" transform=\"rotate(-90 14 {0})\">"
                   "eager PyTorch time, modeled (us)</text>\n",
                   svgn(top + side / 2));
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"end\">y = x</text>\n",
                   svgn(left + side - 6), svgn(top + 34));
  // The legend: what a point is, and which side is faster.
  o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" class=\"small\">a case of a "
                   "correct result</text><text x=\"{}\" y=\"{}\" class=\"small\">above the line: the candidate is "
                   "faster</text>\n",
                   svgn(left + 12), svgn(top + 14), verdict_colour("correct"), svgn(left + 20), svgn(top + 18),
                   svgn(left + 8), svgn(top + 32));
  for (const auto& p : pts)
    o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\" fill-opacity=\"0.75\"><title>{}</title>"
                     "</circle>\n",
                     svgn(px(p.x)), svgn(py(p.y)), verdict_colour(p.verdict), esc(p.label));
  return o + "</svg>\n";
}

struct RoofPoint {
  double intensity, gflops;    // FLOP per GM byte, achieved GFLOP/s (modeled)
  std::string verdict, label;
};

// Log-log roofline: the HBM slope and the compute ceilings of the SoC, one point per case.
std::string roofline_chart(const std::vector<RoofPoint>& pts, const json& roof) {
  const double hbm = jnum(roof, "hbm_gbps");
  struct Ceil { const char* key; const char* label; };
  std::vector<std::pair<double, std::string>> ceilings;
  for (Ceil c : {Ceil{"vector_fp32_gflops", "vector fp32"}, Ceil{"vector_fp16_gflops", "vector fp16"},
                 Ceil{"cube_fp16_gflops", "cube fp16"}})
    if (std::isfinite(jnum(roof, c.key)) && jnum(roof, c.key) > 0) ceilings.emplace_back(jnum(roof, c.key), c.label);
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
  for (const auto& p : pts) {
    xmin = std::min(xmin, p.intensity), xmax = std::max(xmax, p.intensity);
    ymin = std::min(ymin, p.gflops), ymax = std::max(ymax, p.gflops);
  }
  for (const auto& c : ceilings) {
    ymax = std::max(ymax, c.first);
    if (hbm > 0) xmax = std::max(xmax, c.first / hbm);   // the ridge points
  }
  int x0 = int(std::floor(std::log10(xmin))), x1 = int(std::ceil(std::log10(xmax)));
  int y0 = int(std::floor(std::log10(ymin))), y1 = int(std::ceil(std::log10(ymax)));
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) y1 = y0 + 1;
  const double left = 70, top = 15, pw = 520, ph = 340;
  const double w = left + pw + 215, h = top + ph + 45;   // room for the ceilings' labels
  auto px = [&](double v) { return left + pw * (std::log10(v) - x0) / (x1 - x0); };
  auto py = [&](double v) { return top + ph - ph * (std::log10(v) - y0) / (y1 - y0); };
  std::string o = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
                              "<title>roofline (modeled)</title>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h));
  o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>\n", svgn(left), svgn(top),
                   svgn(pw), svgn(ph));
  for (int d = x0; d <= x1; ++d)
    o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"grid\"/><text x=\"{0}\" y=\"{3}\" "
                     "class=\"small\" text-anchor=\"middle\">{4:g}</text>\n",
                     svgn(px(std::pow(10.0, d))), svgn(top), svgn(top + ph), svgn(top + ph + 14), std::pow(10.0, d));
  for (int d = y0; d <= y1; ++d)
    o += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" class=\"grid\"/><text x=\"{3}\" y=\"{4}\" "
                     "class=\"small\" text-anchor=\"end\">{5:g}</text>\n",
                     svgn(py(std::pow(10.0, d))), svgn(left), svgn(left + pw), svgn(left - 4),
                     svgn(py(std::pow(10.0, d)) + 4), std::pow(10.0, d));
  const double xa = std::pow(10.0, x0), xb = std::pow(10.0, x1);
  for (const auto& [peak, label] : ceilings) {
    // min(hbm * x, peak), clipped to the plot
    const double ridge = hbm > 0 ? peak / hbm : xa;
    std::string pts_s;
    auto add = [&](double x, double y) {
      y = std::clamp(y, std::pow(10.0, y0), std::pow(10.0, y1));
      pts_s += fmt::format("{},{} ", svgn(px(x)), svgn(py(y)));
    };
    if (hbm > 0 && ridge > xa) {
      add(xa, hbm * xa);
      add(std::min(ridge, xb), hbm * std::min(ridge, xb));
    } else {
      add(xa, peak);
    }
    if (ridge < xb) add(xb, peak);
    o += fmt::format("<polyline points=\"{}\" class=\"ceil\"/><text x=\"{}\" y=\"{}\" class=\"small\">{} {:.0f} "
                     "GFLOP/s</text>\n",
                     pts_s, svgn(left + pw + 4), svgn(py(peak) + 4), esc(label), peak);
  }
  if (hbm > 0)
    o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" transform=\"rotate(-35 {} {})\">HBM {:.0f} GB/s</text>\n",
                     svgn(px(xa) + 8), svgn(py(std::max(hbm * xa, std::pow(10.0, y0))) - 6), svgn(px(xa) + 8),
                     svgn(py(std::max(hbm * xa, std::pow(10.0, y0))) - 6), hbm);
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"middle\">arithmetic intensity, FLOP per GM "
                   "byte (modeled)</text>\n",
                   svgn(left + pw / 2), svgn(top + ph + 32));
  o += fmt::format("<text x=\"14\" y=\"{0}\" class=\"small\" text-anchor=\"middle\" transform=\"rotate(-90 14 {0})\">"
                   "GFLOP/s (modeled)</text>\n",
                   svgn(top + ph / 2));
  for (const auto& p : pts)
    o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\" fill-opacity=\"0.75\"><title>{}</title>"
                     "</circle>\n",
                     svgn(px(p.intensity)), svgn(py(p.gflops)), verdict_colour(p.verdict), esc(p.label));
  return o + "</svg>\n";
}

const char* pipe_colour(const std::string& pipe) {
  if (pipe == "MTE2") return "#1e88e5";
  if (pipe == "MTE3") return "#8e24aa";
  if (pipe == "V") return "#43a047";
  if (pipe == "M") return "#e53935";
  if (pipe == "MTE1") return "#00acc1";
  if (pipe == "FIX") return "#fb8c00";
  return "#9e9e9e";   // S
}

// The time axis of the timeline charts: five gridlines over [label_w, label_w + plot_w] from y = top to base, labelled
// in us of the kernel body below base.
std::string time_grid(double label_w, double plot_w, double top, double base, double body_us) {
  std::string o;
  for (int k = 0; k <= 4; ++k) {
    const double x = label_w + plot_w * k / 4;
    o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"grid\"/><text x=\"{0}\" y=\"{3}\" "
                     "class=\"small\" text-anchor=\"middle\">{4} us</text>\n",
                     svgn(x), svgn(top), svgn(base), svgn(base + 13), gnum(body_us * k / 4));
  }
  return o;
}

// The modeled timeline of one launch: a row per (core, pipe), busy spans as bars over the kernel body.
std::string timeline_chart(const Timeline& t_in) {
  // Rows of pipes that did nothing (the scalar pipe of most kernels) are left out: an empty row says nothing.
  Timeline t = t_in;
  t.lanes.clear();
  std::vector<std::string> pipes;   // those drawn, for the legend, in first-seen order
  for (const TimelineLane& l : t_in.lanes)
    if (l.busy_us > 0 && l.spans.size() >= 2) {
      t.lanes.push_back(l);
      if (std::find(pipes.begin(), pipes.end(), l.pipe) == pipes.end()) pipes.push_back(l.pipe);
    }
  if (t.lanes.empty() || !(t.body_us > 0)) return "";
  const double label_w = 190, plot_w = 560, row_h = 13, top = 8;
  const double w = label_w + plot_w + 40, h = top + t.lanes.size() * row_h + 46;
  std::string o = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
                              "<title>modeled timeline of {}</title>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h), esc(t.kernel));
  const double base = top + t.lanes.size() * row_h;
  o += time_grid(label_w, plot_w, top, base, t.body_us);
  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const TimelineLane& l = t.lanes[i];
    const double y = top + i * row_h;
    o += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"small\">{} {}</text>\n", svgn(label_w - 6),
                     svgn(y + row_h - 3), esc(l.core), esc(l.pipe));
    std::string bars;
    for (size_t s = 0; s + 1 < l.spans.size(); s += 2) {
      const double a = std::clamp(l.spans[s] / t.body_us, 0.0, 1.0), b = std::clamp(l.spans[s + 1] / t.body_us, 0.0, 1.0);
      bars += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", svgn(label_w + plot_w * a),
                          svgn(y + 1), fmt::format("{:.2f}", std::max(plot_w * (b - a), 0.6)), svgn(row_h - 3));
    }
    o += fmt::format("<g fill=\"{}\"><title>{} {}: busy {} us of {} us (modeled)</title>{}</g>\n", pipe_colour(l.pipe),
                     esc(l.core), esc(l.pipe), gnum(l.busy_us), gnum(t.body_us), bars);
  }
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">kernel body, launch overhead excluded; pipes with "
                   "no modeled work not drawn</text>\n",
                   svgn(label_w), svgn(base + 26));
  double lx = label_w;   // the legend: one swatch per pipe drawn
  for (const std::string& p : pipes) {
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" "
                     "class=\"small\">{}</text>\n",
                     svgn(lx), svgn(base + 33), pipe_colour(p), svgn(lx + 14), svgn(base + 42), esc(p));
    lx += 24 + 8 * p.size();
  }
  return o + "</svg>\n";
}

// Every core of the launch on one thin row each: its span in the body, coloured by its busiest pipe. Shows what the
// detailed lanes cannot: load imbalance and idle cores over all 24/48 of them.
std::string cores_overview_chart(const Timeline& t) {
  if (t.all_cores.size() < 2 || !(t.body_us > 0)) return "";
  const double label_w = 190, plot_w = 560, row_h = 5, top = 8;
  const size_t n = t.all_cores.size();
  const double w = label_w + plot_w + 40, h = top + n * row_h + 34;
  std::string o = fmt::format("<svg class=\"chart cores\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "role=\"img\"><title>all {} cores of {} (modeled)</title>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h), n, esc(t.kernel));
  const double base = top + n * row_h;
  o += time_grid(label_w, plot_w, top, base, t.body_us);
  std::vector<std::string> pipes;
  for (size_t i = 0; i < n; ++i) {
    const TimelineCore& c = t.all_cores[i];
    const double y = top + i * row_h;
    if (i % 8 == 0 || i + 1 == n)
      o += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"small\">{}</text>\n", svgn(label_w - 6),
                       svgn(y + row_h), esc(c.core));
    const double a = std::clamp(c.start_us / t.body_us, 0.0, 1.0), b = std::clamp(c.end_us / t.body_us, 0.0, 1.0);
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} to {} us, busiest "
                     "pipe {} ({} us busy, modeled)</title></rect>\n",
                     svgn(label_w + plot_w * a), svgn(y + 0.5), fmt::format("{:.2f}", std::max(plot_w * (b - a), 0.6)),
                     svgn(row_h - 1), pipe_colour(c.pipe), esc(c.core), gnum(c.start_us), gnum(c.end_us), esc(c.pipe),
                     gnum(c.busy_us));
    if (std::find(pipes.begin(), pipes.end(), c.pipe) == pipes.end()) pipes.push_back(c.pipe);
  }
  double lx = label_w;
  o += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">busiest pipe:</text>\n", svgn(lx), svgn(base + 28));
  lx += 80;
  for (const std::string& p : pipes) {
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" "
                     "class=\"small\">{}</text>\n",
                     svgn(lx), svgn(base + 19), pipe_colour(p), svgn(lx + 14), svgn(base + 28), esc(p));
    lx += 24 + 8 * p.size();
  }
  return o + "</svg>\n";
}

// Per-case modeled times of one result: candidate bar over eager bar, on a common linear scale.
std::string case_times_chart(const EvalResult& r) {
  double mx = 0;
  int n = 0;
  for (const auto& c : r.cases) {
    if (std::isfinite(c.modeled_us)) mx = std::max(mx, c.modeled_us);
    if (std::isfinite(c.eager_modeled_us)) mx = std::max(mx, c.eager_modeled_us);
    ++n;
  }
  if (mx <= 0 || n == 0) return "";
  const double label_w = 180, plot_w = 380, bar_h = 9, row_h = 2 * bar_h + 8, top = 24;
  const double w = label_w + plot_w + 90, h = top + n * row_h + 6;
  std::string o = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "role=\"img\"><title>modeled time per case</title>\n"
                              "<rect x=\"{}\" y=\"4\" width=\"10\" height=\"10\" fill=\"#1565c0\"/><text x=\"{}\" "
                              "y=\"13\" class=\"small\">candidate (modeled)</text><rect x=\"{}\" y=\"4\" width=\"10\" "
                              "height=\"10\" fill=\"#90a4ae\"/><text x=\"{}\" y=\"13\" class=\"small\">eager PyTorch "
                              "(modeled)</text>\n",
                              svgn(w), svgn(h), svgn(w), svgn(h), svgn(label_w), svgn(label_w + 14),
                              svgn(label_w + 150), svgn(label_w + 164));
  int i = 0;
  for (const auto& c : r.cases) {
    const double y0 = top + i++ * row_h;
    o += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"small\">{}</text>\n", svgn(label_w - 6),
                     svgn(y0 + bar_h + 3), esc(c.name.size() > 28 ? c.name.substr(0, 27) + "~" : c.name));
    const double vals[2] = {c.modeled_us, c.eager_modeled_us};
    const char* cols[2] = {"#1565c0", "#90a4ae"};
    for (int k = 0; k < 2; ++k) {
      const double v = std::isfinite(vals[k]) && vals[k] > 0 ? vals[k] : 0;
      o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" "
                       "class=\"small\">{} us</text>\n",
                       svgn(label_w), svgn(y0 + k * bar_h), svgn(plot_w * v / mx), svgn(bar_h - 1), cols[k],
                       svgn(label_w + plot_w * v / mx + 4), svgn(y0 + k * bar_h + 8), gnum(vals[k]));
    }
  }
  return o + "</svg>\n";
}

std::string format_created(const json& j) {
  if (!j.contains("created_at")) return "";
  const json& c = j["created_at"];
  if (c.is_number()) {
    std::time_t t = static_cast<std::time_t>(c.get<double>());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
  }
  return jstr(j, "created_at");
}





// Sort key for a number cell: non-finite and absent values sort below everything.
std::string dv(double v) { return std::isfinite(v) ? fmt::format("{:.9g}", v) : "-1e300"; }

}  // namespace

std::string render_report_html(const json& in) {
  const json root = in.is_object() ? in : json::object();
  std::vector<std::string> notes;

  // Results.
  std::vector<EvalResult> results;
  if (root.contains("results") && root["results"].is_array()) {
    size_t i = 0;
    for (const auto& rj : root["results"]) {
      EvalResult r;
      std::string err;
      if (from_json(rj, r, err)) results.push_back(std::move(r));
      else notes.push_back(fmt::format("result #{} left out: {}", i, err));
      ++i;
    }
  }
  json metrics;
  if (root.contains("metrics") && root["metrics"].is_object()) {
    metrics = root["metrics"];
  } else {
    const MetricsOptions mo = metrics_options_for(results);
    metrics = to_json(compute_metrics(results, mo));
    notes.push_back(fmt::format("results.json has no metrics; computed here with k = {}",
                                mo.ks.size() > 1 ? fmt::format("1 and {}", mo.ks[1]) : "1"));
  }
  std::vector<std::string> missing;
  if (root.contains("missing") && root["missing"].is_array())
    for (const auto& m : root["missing"]) missing.push_back(m.is_string() ? m.get<std::string>() : m.dump());
  const json sources = root.contains("sources") && root["sources"].is_object() ? root["sources"] : json::object();
  const json attempts = root.contains("attempts") && root["attempts"].is_object() ? root["attempts"] : json::object();

  const std::string soc = jstr(root, "soc", results.empty() ? "" : results.front().soc);
  const std::string version = jstr(root, "kgen_version", results.empty() ? "" : results.front().kgen_version);
  const std::vector<std::string> keys = metric_keys(metrics);
  const json overall = metrics.contains("overall") && metrics["overall"].is_object() ? metrics["overall"]
                                                                                    : json::object();
  auto groups_of = [&](const char* name) {
    std::vector<const json*> g;
    if (metrics.contains(name) && metrics[name].is_array())
      for (const auto& x : metrics[name]) if (x.is_object()) g.push_back(&x);
    return g;
  };
  const std::vector<const json*> levels = groups_of("levels"), cats = groups_of("categories");
  int first_k = 1;
  if (metrics.contains("ks") && metrics["ks"].is_array() && !metrics["ks"].empty() &&
      metrics["ks"][0].is_number_integer())
    first_k = metrics["ks"][0].get<int>();

  std::string o;
  o.reserve(1 << 16);
  o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  o += "<title>kgen benchmark report" + (soc.empty() ? "" : " - " + esc(soc)) + "</title>\n<style>" + html::style() +
       "</style>\n</head>\n<body>\n";

  // Header.
  o += "<h1>kgen benchmark report</h1>\n<p class=\"meta\">";
  auto meta = [&](const char* k, const std::string& v) {
    if (!v.empty()) o += "<b>" + std::string(k) + "</b> " + esc(v) + " &nbsp; ";
  };
  meta("kgen", version);
  meta("SoC", soc);
  meta("suite", jstr(root, "suite"));
  meta("candidates", jstr(root, "candidates"));
  meta("created", format_created(root));
  o += "</p>\n<p class=\"note\">All times are modeled on " + esc(soc.empty() ? "the chosen SoC" : soc) +
       " by kgen's performance model (candidate kernels on the emulator's traces, eager PyTorch from its aten op "
       "trace); they are not measurements. Speedup = modeled eager time / modeled candidate time.</p>\n";
  o += "<p><a href=\"#overall\">overall</a> &middot; <a href=\"#levels\">levels</a> &middot; <a href=\"#categories\">"
       "categories</a> &middot; <a href=\"#charts\">charts</a> &middot; <a href=\"#tasks\">tasks</a></p>\n";

  // Overall.
  o += "<h2 id=\"overall\">Overall</h2>\n<div class=\"cards\">\n";
  auto card = [&](const std::string& k, const std::string& v) {
    o += "<div class=\"card\"><div class=\"v\">" + v + "</div><div class=\"k\">" + esc(k) + "</div></div>\n";
  };
  card("tasks evaluated", esc(jstr(overall, "tasks", std::to_string(results.size()))));
  card("samples", esc(jstr(overall, "samples", "-")));
  card("missing tasks", std::to_string(missing.size()));
  for (const char* pre : {"compile@", "pass@"}) {
    const std::string k = pre + std::to_string(first_k);
    card(k, pct(jnum(overall, k)));
  }
  {
    const std::string k = fmt::format("fast_1@{}", first_k);
    if (overall.contains(k)) card(k + " (modeled)", pct(jnum(overall, k)));
  }
  card("geomean speedup of correct (modeled)",
       jnum(overall, "correct_samples") > 0 ? times(jnum(overall, "geomean_speedup")) : "-");
  if (metrics.contains("npukb_score") && metrics["npukb_score"].is_object())   // older results.json lack it
    card("NPUKernelBench score (cases, levels weighted 0.2/0.3/0.5)",
         fmt::format("{:.1f}", 100 * jnum(metrics["npukb_score"], "score")));
  if (!attempts.empty()) {   // an LLM generator: what the run cost
    AttemptTotals all;
    for (auto it = attempts.begin(); it != attempts.end(); ++it) {
      const AttemptTotals t = attempt_totals(it.value());
      all.rounds += t.rounds;
      all.prompt_tokens += t.prompt_tokens;
      all.completion_tokens += t.completion_tokens;
      all.cost_usd += t.cost_usd;
    }
    card("model rounds", std::to_string(all.rounds));
    card("tokens in / out", fmt::format("{:.0f} / {:.0f}", all.prompt_tokens, all.completion_tokens));
    if (all.cost_usd > 0) card("cost", fmt::format("${:.4f}", all.cost_usd));
  }
  o += "</div>\n";
  std::vector<const json*> ov{&overall};
  o += group_table("group", ov, keys);
  // An LLM generator's repair rounds: the figures above are after them; the model's first reply alone, and each round.
  if (root.contains("metrics_by_round") && root["metrics_by_round"].is_array() && !root["metrics_by_round"].empty()) {
    std::vector<json> rows;
    for (const json& r : root["metrics_by_round"]) {
      if (!r.is_object() || !r.contains("metrics") || !r["metrics"].contains("overall")) continue;
      json g = r["metrics"]["overall"];
      const int k = r.value("round", 0);
      g["name"] = k == 0 ? std::string("round 0 (first reply)") : fmt::format("after round {}", k);
      rows.push_back(std::move(g));
    }
    std::vector<const json*> rp;
    for (const json& g : rows) rp.push_back(&g);
    o += "<h3 id=\"rounds\">By repair round</h3>\n<p class=\"note\">The figures above count each sample's best round "
         "after the repair loop; here the same metrics as of each round (round 0: the model's first reply alone).</p>\n" +
         group_table("repair round", rp, keys);
    std::vector<std::string> round_keys{fmt::format("compile@{}", first_k), fmt::format("pass@{}", first_k)};
    if (std::find(keys.begin(), keys.end(), fmt::format("fast_1@{}", first_k)) != keys.end())
      round_keys.push_back(fmt::format("fast_1@{}", first_k));
    o += rounds_chart(rp, round_keys);
  }
  o += "<p class=\"note\">compile@k, pass@k and fast_p@k use the unbiased estimator (KernelBench, MultiKernelBench); "
       "fast_p counts correct samples with modeled speedup strictly above p. Missing tasks are not in these "
       "figures.</p>\n";
  if (metrics.contains("notes") && metrics["notes"].is_array())
    for (const auto& n : metrics["notes"]) o += "<p class=\"note\">note: " + esc(n.is_string() ? n.get<std::string>() : n.dump()) + "</p>\n";
  for (const auto& n : notes) o += "<p class=\"note\">note: " + esc(n) + "</p>\n";

  // Levels and categories.
  o += "<h2 id=\"levels\">Per level</h2>\n" + group_table("level", levels, keys);
  o += "<h2 id=\"categories\">Per category</h2>\n" + group_table("category", cats, keys);

  // Charts.
  o += "<h2 id=\"charts\">Charts</h2>\n";
  std::vector<std::string> bar_keys{fmt::format("compile@{}", first_k), fmt::format("pass@{}", first_k)};
  if (std::find(keys.begin(), keys.end(), fmt::format("fast_1@{}", first_k)) != keys.end())
    bar_keys.push_back(fmt::format("fast_1@{}", first_k));
  if (!cats.empty()) {
    o += "<h3>Pass rate per category</h3>\n" + bar_chart(cats, bar_keys, "pass rate per category");
  }
  if (!levels.empty()) {
    o += "<h3>Pass rate per level</h3>\n" + bar_chart(levels, bar_keys, "pass rate per level");
  }
  std::vector<double> speedups;
  for (const auto& r : results)
    if (r.verdict == Verdict::Correct && std::isfinite(r.speedup) && r.speedup > 0) speedups.push_back(r.speedup);
  o += "<h3>Speedup distribution (modeled)</h3>\n";
  if (speedups.empty()) {
    o += "<p class=\"note\">No correct result with a modeled speedup.</p>\n";
  } else {
    o += speedup_histogram(speedups);
    o += fmt::format("<p class=\"note\">{} correct result(s), binned by log2 of the modeled speedup over eager "
                     "PyTorch; right of the dashed line the candidate is faster.</p>\n",
                     speedups.size());
  }
  // Modeled times mean something only for a correct kernel: wrong ones did other (or less) work.
  std::vector<Point> pts;
  for (const auto& r : results) {
    if (r.verdict != Verdict::Correct) continue;
    const std::string v = verdict_name(r.verdict);
    bool any = false;
    for (const auto& c : r.cases)
      if (std::isfinite(c.modeled_us) && c.modeled_us > 0 && std::isfinite(c.eager_modeled_us) &&
          c.eager_modeled_us > 0) {
        pts.push_back({c.modeled_us, c.eager_modeled_us, v,
                       fmt::format("{} [{}] ({}): candidate {} us, eager {} us, {:.2f}x", r.task_id, c.name, v,
                                   gnum(c.modeled_us), gnum(c.eager_modeled_us), c.eager_modeled_us / c.modeled_us)});
        any = true;
      }
    if (!any && std::isfinite(r.modeled_us) && r.modeled_us > 0 && std::isfinite(r.eager_modeled_us) &&
        r.eager_modeled_us > 0)
      pts.push_back({r.modeled_us, r.eager_modeled_us, v,
                     fmt::format("{} ({}): candidate {} us, eager {} us", r.task_id, v, gnum(r.modeled_us),
                                 gnum(r.eager_modeled_us))});
  }
  std::vector<RoofPoint> roof_pts;
  for (const auto& r : results)
    for (const auto& c : r.cases)
      if (r.verdict == Verdict::Correct && c.flops > 0 && c.gm_bytes > 0 && c.modeled_us > 0)
        roof_pts.push_back({c.flops / c.gm_bytes, c.flops / c.modeled_us / 1e3, verdict_name(r.verdict),
                            fmt::format("{} [{}] ({}): {:.3g} FLOP/B, {:.4g} GFLOP/s, {} us, {}-bound", r.task_id,
                                        c.name, verdict_name(r.verdict), c.flops / c.gm_bytes,
                                        c.flops / c.modeled_us / 1e3, gnum(c.modeled_us), c.bound)});
  const json roof = root.contains("roofline") && root["roofline"].is_object() ? root["roofline"] : json::object();
  o += "<h3>Roofline (modeled)</h3>\n";
  if (roof_pts.empty()) {
    o += "<p class=\"note\">No result with modeled bytes and flops.</p>\n";
  } else {
    o += roofline_chart(roof_pts, roof);
    o += "<p class=\"note\">One point per case of each correct result: the candidate's operations (vector element operations + 2mnk "
         "cube) per byte it moved between GM and the cores, against the operations per modeled second. The "
         "ceilings are " + esc(soc) + "'s HBM bandwidth and vector/cube peaks from its profile (docs/perf-model.md). "
         "Launch overhead is in the time, so small kernels sit well below the roof; the hover text names each "
         "case's modeled bound.</p>\n";
  }
  o += "<h3>Modeled kernel time vs modeled eager time</h3>\n";
  if (pts.empty()) {
    o += "<p class=\"note\">No result with both modeled times.</p>\n";
  } else {
    o += time_scatter(pts);
    o += "<p class=\"note\">One point per case of each correct result (log-log, microseconds, modeled on " +
         esc(soc) + "; the hover text names it). Above the dashed y = x line the candidate is faster than eager "
         "PyTorch. Results that are not correct are left out: their modeled times are not the task's work.</p>\n";
  }

  // Task table.
  Anchors anchors;
  // Filters: verdict, error category and task category (values from the results; the script hides other rows).
  std::set<std::string> f_verdicts, f_errors, f_cats;
  for (const auto& r : results) {
    f_verdicts.insert(verdict_name(r.verdict));
    if (!r.error_category.empty()) f_errors.insert(r.error_category);
    f_cats.insert(r.category);
  }
  o += "<h2 id=\"tasks\">Tasks</h2>\n<p class=\"note\">Click a header to sort; click a task for its page.</p>\n"
       "<p class=\"filters\">" + html::filter_select("tasktable", "verdict", "verdict", f_verdicts) +
       html::filter_select("tasktable", "error", "error category", f_errors) +
       html::filter_select("tasktable", "category", "task category", f_cats) +
       html::filter_text("tasktable", results.size()) + "</p>\n"
       "<table class=\"sortable\" id=\"tasktable\"><thead><tr><th>task</th><th>sample</th><th>level</th><th>category</th>"
       "<th>verdict</th><th>max abs err</th><th title=\"max |got - want| / (atol + rtol |want|): at most 1 when "
       "correct\">err / tol</th><th>modeled us</th><th>eager modeled us</th>"
       "<th>speedup (modeled)</th><th title=\"the shape of the headline speedup: the task's perf shape (timed "
       "timing-only at the benchmark's size) or, when it has none, its check shapes\">at</th>"
       "<th title=\"share of the modeled time that is host dispatch and launch heads, not the kernels' work, kernel / "
       "eager, at the headline shape\">host+launch % kernel / eager</th><th>check-shape speedup</th><th title=\"the "
       "headline speedup with host dispatch and launch heads taken out of both sides\">launch-excluded speedup</th>"
       "</tr></thead><tbody>\n";
  for (const auto& r : results) {
    const std::string v = verdict_name(r.verdict);
    const bool errs = r.verdict == Verdict::Correct || r.verdict == Verdict::WrongAnswer;
    o += fmt::format("<tr data-verdict=\"{}\" data-error=\"{}\" data-category=\"{}\"><td><a href=\"#{}\">{}</a></td>"
                     "<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td>",
                     esc(v), esc(r.error_category), esc(r.category), anchors.of(r.task_id), esc(r.task_id), r.sample, r.sample, r.level, r.level, esc(r.category),
                     badge(v) + (r.error_category.empty() ? "" : " " + esc(r.error_category)));
    o += fmt::format("<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td>", dv(errs ? r.max_abs_err : NAN),
                     errs ? fmt::format("{:.3g}", r.max_abs_err) : "-", dv(errs ? r.tol_err : NAN),
                     errs ? fmt::format("{:.3g}", r.tol_err) : "-");
    auto us = [&](double x) {
      return fmt::format("<td data-v=\"{}\">{}</td>", dv(x > 0 ? x : NAN), x > 0 ? gnum(x) : "-");
    };
    const bool timed = r.verdict == Verdict::Correct;   // a wrong kernel's modeled time is not the task's
    const bool at_perf = r.perf.timed();
    const double k_us = at_perf ? r.perf.modeled_us : r.modeled_us, e_us = at_perf ? r.perf.eager_modeled_us : r.eager_modeled_us;
    const double k_launch = at_perf ? r.perf.launch_us : r.launch_us, e_launch = at_perf ? r.perf.eager_launch_us : r.eager_launch_us;
    o += us(timed ? k_us : 0) + us(e_us);
    o += fmt::format("<td data-v=\"{}\">{}</td>", dv(timed && r.speedup > 0 ? r.speedup : NAN),
                     timed ? times(r.speedup) : std::string("-"));
    o += fmt::format("<td class=\"l\" title=\"{}\">{}</td>", esc(at_perf ? r.perf.inputs : r.perf.skipped),
                     !timed ? "-" : at_perf ? "perf " + esc(r.perf.shape) : "check");
    o += timed && k_us > 0 && e_us > 0
             ? fmt::format("<td data-v=\"{}\">{:.0f} / {:.0f}</td>", dv(100 * k_launch / k_us), 100 * k_launch / k_us,
                           100 * e_launch / e_us)
             : std::string("<td data-v=\"nan\">-</td>");
    const double body = at_perf ? r.perf.body_speedup
                        : r.modeled_us > r.launch_us && r.eager_modeled_us > r.eager_launch_us
                            ? (r.eager_modeled_us - r.eager_launch_us) / (r.modeled_us - r.launch_us) : 0;
    o += fmt::format("<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td></tr>\n",
                     dv(timed && r.check_speedup > 0 ? r.check_speedup : NAN),
                     timed ? times(r.check_speedup) : std::string("-"), dv(timed && body > 0 ? body : NAN),
                     timed && body > 0 ? times(body) : std::string("-"));
  }
  o += "</tbody></table>\n";
  if (!missing.empty()) {   // one line, not a row each: they were not evaluated
    o += fmt::format("<p class=\"note missing\">{} {} without a candidate (not evaluated, not in the metrics): ",
                     missing.size(), missing.size() == 1 ? "task" : "tasks");
    for (size_t i = 0; i < missing.size(); ++i)
      o += fmt::format("{}<a href=\"#{}\">{}</a>", i ? ", " : "", anchors.of(missing[i]), esc(missing[i]));
    o += "</p>\n";
  }

  // One section per task (its samples in order), then the missing ones.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const EvalResult*>> by_task;
  for (const auto& r : results) {
    if (!by_task.count(r.task_id)) order.push_back(r.task_id);
    by_task[r.task_id].push_back(&r);
  }
  auto source_blocks = [&](const std::string& id) {
    std::string s;
    if (!sources.contains(id) || !sources[id].is_object()) return s;
    const json& src = sources[id];
    if (src.contains("task") && src["task"].is_string())
      s += "<details><summary>task source (PyTorch reference)</summary><pre>" + esc(src["task"].get<std::string>()) +
           "</pre></details>\n";
    if (src.contains("candidate") && src["candidate"].is_object())
      for (auto it = src["candidate"].begin(); it != src["candidate"].end(); ++it)
        s += "<details><summary>candidate: " + esc(it.key()) + "</summary><pre>" +
             esc(it.value().is_string() ? it.value().get<std::string>() : it.value().dump()) + "</pre></details>\n";
    return s;
  };
  o += "<h2>Task pages</h2>\n";
  for (const auto& id : order) {
    const auto& rs = by_task[id];
    const EvalResult& f = *rs.front();
    o += fmt::format("<section class=\"task\" id=\"{}\">\n<h3>{}</h3>\n<p class=\"meta\">category {} &middot; level "
                     "{} &middot; <a href=\"#tasks\">back to the table</a></p>\n",
                     anchors.of(id), esc(id), esc(f.category), f.level);
    for (const EvalResult* rp : rs) {
      const EvalResult& r = *rp;
      const std::string v = verdict_name(r.verdict);
      o += "<p>" + badge(v) + (r.error_category.empty() ? "" : " <b>" + esc(r.error_category) + "</b>") +
           fmt::format(" &nbsp; sample {} &middot; candidate <code>{}</code> ({}) &middot; {} trial(s) &middot; "
                       "evaluated in {:.2f} s",
                       r.sample, esc(r.candidate), esc(r.candidate_kind), r.trials, r.seconds);
      if (r.verdict == Verdict::Correct && r.perf.timed())
        o += fmt::format(" &middot; at the perf shape {} ({}), timing-only: modeled {} us ({:.0f} % host and launch, "
                         "{}-bound) vs eager {} us ({:.0f} % host and launch): <b>{}</b>, launch excluded {}; at the "
                         "check shapes {} us "
                         "vs {} us: {}",
                         esc(r.perf.shape), esc(r.perf.inputs), gnum(r.perf.modeled_us),
                         100 * r.perf.launch_us / r.perf.modeled_us, esc(r.perf.bound), gnum(r.perf.eager_modeled_us),
                         r.perf.eager_modeled_us > 0 ? 100 * r.perf.eager_launch_us / r.perf.eager_modeled_us : 0.0,
                         times(r.perf.speedup), times(r.perf.body_speedup), gnum(r.modeled_us),
                         gnum(r.eager_modeled_us), times(r.check_speedup));
      else if (r.verdict == Verdict::Correct)
        o += fmt::format(" &middot; modeled {} us vs eager {} us at the check shapes: <b>{}</b>{}", gnum(r.modeled_us),
                         gnum(r.eager_modeled_us), times(r.speedup),
                         r.perf.skipped.empty() ? "" : " (perf shape not timed: " + esc(r.perf.skipped) + ")");
      o += "</p>\n";
      if (!r.diagnostics.empty()) {
        o += "<pre class=\"diag\">";
        for (const auto& d : r.diagnostics) o += esc(d) + "\n";
        o += "</pre>\n";
      }
      if (!r.cases.empty()) {
        o += "<table><thead><tr><th>case</th><th>correct</th><th>max abs err</th><th>max rel err</th>"
             "<th>err / tol</th><th>modeled us</th><th>eager modeled us</th><th>speedup (modeled)</th><th>first mismatch</th></tr>"
             "</thead><tbody>\n";
        for (const auto& c : r.cases) {
          const double sp = c.modeled_us > 0 ? c.eager_modeled_us / c.modeled_us : NAN;
          o += fmt::format("<tr><td>{}</td><td>{}</td><td>{:.3g}</td><td>{:.3g}</td><td>{:.3g}</td><td>{}</td><td>{}</td>"
                           "<td>{}</td><td class=\"l\">{}</td></tr>\n",
                           esc(c.name), c.correct ? "yes" : "<b>no</b>", c.max_abs_err, c.max_rel_err, c.tol_err,
                           c.modeled_us > 0 ? gnum(c.modeled_us) : "-",
                           c.eager_modeled_us > 0 ? gnum(c.eager_modeled_us) : "-", times(sp),
                           esc(c.first_mismatch));
        }
        o += "</tbody></table>\n";
        o += case_times_chart(r);
        if (!r.timeline.lanes.empty()) {
          o += fmt::format("<p class=\"note\">Modeled timeline of <code>{}</code> (case {}, {} core(s), {}-bound; "
                           "the critical core, the first and at most four in all):</p>\n",
                           esc(r.timeline.kernel), esc(r.timeline.case_name), r.timeline.cores, esc(r.timeline.bound));
          o += timeline_chart(r.timeline);
          if (r.timeline.all_cores.size() > 1) {
            o += fmt::format("<p class=\"note\">All {} cores of the same launch, one row each (span within the body, "
                             "coloured by the core's busiest pipe):</p>\n",
                             r.timeline.all_cores.size());
            o += cores_overview_chart(r.timeline);
          }
        }
      }
      if (r.seconds > 0)
        o += fmt::format("<p class=\"note\">evaluation time: PyTorch reference {:.2f} s, compiling {:.2f} s, runs "
                         "{:.2f} s of {:.2f} s</p>\n",
                         r.reference_s, r.build_s, r.run_s, r.seconds);
      o += fmt::format("<p class=\"note\">hashes: task {} &middot; candidate {} &middot; kgen {} &middot; SoC {}</p>\n",
                       esc(r.task_hash.substr(0, 12)), esc(r.candidate_hash.substr(0, 12)), esc(r.kgen_version),
                       esc(r.soc));
    }
    o += attempts_table(attempts, id);
    o += source_blocks(id);
    o += "</section>\n";
  }
  for (const auto& id : missing) {
    o += fmt::format("<section class=\"task\" id=\"{}\">\n<h3>{}</h3>\n<p>{} not evaluated (no candidate, or the run "
                     "did not reach it) &middot; <a href=\"#tasks\">back to the table</a></p>\n",
                     anchors.of(id), esc(id), badge("missing"));
    o += source_blocks(id);
    o += "</section>\n";
  }

  o += "<p class=\"note\">Generated by kgen " + esc(version) + ". Times modeled, not measured.</p>\n";
  o += std::string("<script>") + html::script() + "</script>\n</body>\n</html>\n";
  return o;
}

namespace {
std::string attempts_table(const json& attempts, const std::string& id) {
  if (!attempts.contains(id) || !attempts[id].is_array() || attempts[id].empty()) return "";
  const AttemptTotals tot = attempt_totals(attempts[id]);
  std::string o = fmt::format("<p class=\"note\">Generation attempts (each round's reply evaluated; the feedback is "
                              "what the next round was told): {} round(s), {:.0f} prompt + {:.0f} completion tokens{}"
                              "</p>\n<table class=\"attempts\"><thead><tr><th>sample</th><th>round</th><th>verdict</th>"
                              "<th>speedup (modeled)</th><th>tokens in / out</th><th>cost</th><th>reply</th>"
                              "<th>feedback</th></tr></thead><tbody>\n",
                              tot.rounds, tot.prompt_tokens, tot.completion_tokens,
                              tot.cost_usd > 0 ? fmt::format(", ${:.4f}", tot.cost_usd) : std::string());
  for (const json& a : attempts[id]) {
    auto num = [&](const char* k) { return a.contains(k) && a[k].is_number() ? a[k].get<double>() : 0.0; };
    auto str = [&](const char* k) { return a.contains(k) && a[k].is_string() ? a[k].get<std::string>() : ""; };
    std::string fb = str("feedback"), reply = str("reply");
    o += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"l\">{}{}</td><td>{}</td><td>{:.0f} / {:.0f}</td>"
                     "<td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>\n",
                     num("sample"), num("round"), badge(str("verdict")), a.value("cached", false) ? " (cached)" : "",
                     times(num("speedup")), num("prompt_tokens"), num("completion_tokens"),
                     num("cost_usd") > 0 ? fmt::format("${:.4f}", num("cost_usd")) : "-",
                     reply.empty() ? "-" : fmt::format("<details class=\"reply\"><summary>{} characters</summary><pre>{}"
                                                       "</pre></details>", reply.size(), esc(reply)),
                     fb.empty() ? "" : "<details><summary>" + esc(fb.substr(0, 80)) + "</summary><pre>" + esc(fb) +
                                           "</pre></details>");
  }
  return o + "</tbody></table>\n";
}
}  // namespace

bool render_report_html_file(const std::string& in_path, const std::string& out_path, std::string& err) {
  std::ifstream in(in_path, std::ios::binary);
  if (!in) {
    err = "cannot read " + in_path;
    return false;
  }
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    err = in_path + ": not valid JSON";
    return false;
  }
  const std::string html = render_report_html(j);
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out || !(out << html) || !out.flush()) {
    err = "cannot write " + out_path;
    return false;
  }
  return true;
}

}  // namespace kgen::eval
