// A compact timeline of one modeled launch for reports: the busy spans of each pipe on a few cores (the critical
// core, the first core, and on MIX kernels the slowest AIC), merged so a lane has at most a few dozen spans.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "perf/report.h"

namespace kgen::perf {
namespace {
// Merges sorted [start, end) spans whose gap is below `gap`, doubling the gap until at most `max_spans` remain.
std::vector<std::pair<double, double>> merge_spans(std::vector<std::pair<double, double>> s, double gap,
                                                   size_t max_spans) {
  std::sort(s.begin(), s.end());
  for (;;) {
    std::vector<std::pair<double, double>> m;
    for (const auto& x : s) {
      if (!m.empty() && x.first - m.back().second <= gap) m.back().second = std::max(m.back().second, x.second);
      else m.push_back(x);
    }
    if (m.size() <= max_spans || gap <= 0) return m;
    gap *= 2;
  }
}
}  // namespace

std::string lanes_json(const Result& r, size_t max_cores, size_t max_spans) {
  nlohmann::json j;
  j["kernel"] = r.kernel;
  j["soc"] = r.soc;
  j["bound"] = r.bound;
  j["body_us"] = r.body_us;
  j["cores"] = r.cores.size();
  j["lanes"] = nlohmann::json::array();
  if (r.cores.empty()) return j.dump();
  // Which cores to show: the one that finishes last, core 0, the slowest AIC, then the next by index.
  std::vector<size_t> pick;
  auto add = [&](size_t c) {
    if (pick.size() < max_cores && std::find(pick.begin(), pick.end(), c) == pick.end()) pick.push_back(c);
  };
  size_t crit = 0, aic = r.cores.size();
  for (size_t c = 0; c < r.cores.size(); ++c) {
    if (r.cores[c].end_us > r.cores[crit].end_us) crit = c;
    if (r.cores[c].aic && (aic == r.cores.size() || r.cores[c].end_us > r.cores[aic].end_us)) aic = c;
  }
  add(crit);
  add(0);
  if (aic < r.cores.size()) add(aic);
  for (size_t c = 1; c < r.cores.size(); ++c) add(c);
  std::sort(pick.begin(), pick.end());
  std::vector<std::vector<std::pair<double, double>>> spans(r.cores.size() * kPipes);
  for (const Event& e : r.events)
    if (e.core < r.cores.size() && e.pipe < kPipes) spans[e.core * kPipes + e.pipe].emplace_back(e.start_us, e.end_us);
  const double gap = r.body_us / 500;
  for (size_t c : pick) {
    const CoreResult& core = r.cores[c];
    for (int q : {P_MTE2, P_MTE1, P_M, P_V, P_FIX, P_MTE3, P_S}) {
      if (core.busy_us[q] <= 0) continue;
      nlohmann::json lane;
      lane["core"] = std::string(core.aic ? "AIC " : "AIV ") + std::to_string(core.block) +
                     (core.aic ? "" : "." + std::to_string(core.sub_block)) + (c == crit ? " (critical)" : "");
      lane["pipe"] = pipe_label(q);
      lane["busy_us"] = core.busy_us[q];
      nlohmann::json flat = nlohmann::json::array();
      for (const auto& [a, b] : merge_spans(spans[c * kPipes + q], gap, max_spans)) {
        flat.push_back(std::round(a * 1000) / 1000);
        flat.push_back(std::round(b * 1000) / 1000);
      }
      lane["spans"] = flat;
      j["lanes"].push_back(lane);
    }
  }
  // Every core in one line each, for the overview of all of them: its span and its busiest pipe.
  j["all_cores"] = nlohmann::json::array();
  for (size_t c = 0; c < r.cores.size(); ++c) {
    const CoreResult& core = r.cores[c];
    int top = P_S;
    for (int q = 0; q < kPipes; ++q)
      if (core.busy_us[q] > core.busy_us[top]) top = q;
    j["all_cores"].push_back({{"core", std::string(core.aic ? "AIC " : "AIV ") + std::to_string(core.block) +
                                           (core.aic ? "" : "." + std::to_string(core.sub_block))},
                              {"start_us", std::round(core.start_us * 1000) / 1000},
                              {"end_us", std::round(core.end_us * 1000) / 1000},
                              {"pipe", pipe_label(top)},
                              {"busy_us", std::round(core.busy_us[top] * 1000) / 1000}});
  }
  return j.dump();
}
}  // namespace kgen::perf
