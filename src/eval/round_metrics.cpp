// Metrics as of each repair round (round_metrics.h).
#include "eval/round_metrics.h"

#include <fmt/core.h>

#include <map>

namespace kgen::eval {
std::vector<Metrics> metrics_by_round(const nlohmann::json& attempts, const std::vector<EvalResult>& results,
                                      const MetricsOptions& opt) {
  std::map<std::string, const EvalResult*> task_of;
  for (const EvalResult& r : results) task_of.emplace(r.task_id, &r);
  // (task, sample) -> the result of each round, in round order.
  std::map<std::pair<std::string, int>, std::vector<EvalResult>> rounds;
  int last = -1;
  if (!attempts.is_object()) return {};
  for (auto& [task, list] : attempts.items()) {
    auto t = task_of.find(task);
    if (t == task_of.end() || !list.is_array()) continue;
    for (const auto& a : list) {
      if (!a.is_object()) continue;
      EvalResult r;
      r.task_id = task;
      r.category = t->second->category;
      r.level = t->second->level;
      // A round with no reply or no code counts as no code; anything unreadable as well.
      if (!a.contains("verdict") || !a["verdict"].is_string() || !parse_verdict(a["verdict"].get<std::string>(), r.verdict))
        r.verdict = Verdict::NoCode;
      r.speedup = a.contains("speedup") && a["speedup"].is_number() ? a["speedup"].get<double>() : 0;
      const int sample = a.value("sample", 0), round = a.value("round", 0);
      auto& v = rounds[{task, sample}];
      if (round != static_cast<int>(v.size())) continue;   // rounds are recorded in order from 0
      v.push_back(r);
      last = std::max(last, round);
    }
  }
  std::vector<Metrics> out;
  for (int k = 0; k <= last; ++k) {
    std::vector<EvalResult> as_of;
    for (auto& [key, v] : rounds) {
      EvalResult best = v.front();
      for (int r = 1; r <= k && r < static_cast<int>(v.size()); ++r)
        if (better(v[r], best)) best = v[r];
      as_of.push_back(best);
    }
    out.push_back(compute_metrics(as_of, opt));
  }
  return out;
}

nlohmann::json to_json(const std::vector<Metrics>& by_round) {
  nlohmann::json a = nlohmann::json::array();
  for (size_t r = 0; r < by_round.size(); ++r) a.push_back({{"round", r}, {"metrics", to_json(by_round[r])}});
  return a;
}

std::string rounds_table(const std::vector<Metrics>& by_round) {
  std::string o;
  for (size_t r = 0; r < by_round.size(); ++r) {
    const GroupMetrics& g = by_round[r].overall;
    if (g.compile_at_k.empty()) continue;
    o += fmt::format("  {:<28} compile@1 {:5.1f}%  pass@1 {:5.1f}%  ({} samples)\n",
                     r == 0 ? "round 0 (first reply)" : fmt::format("after round {}", r), 100 * g.compile_at_k[0],
                     100 * g.pass_at_k[0], g.samples);
  }
  return o;
}
}  // namespace kgen::eval
