// Rewards from verdicts (see reward.h for the definitions and their source).
#include "serve/reward.h"

#include <algorithm>

namespace kgen::serve {
using eval::Verdict;

bool reward_config(const std::string& kind, const nlohmann::json& o, RewardConfig& c, std::string& err) {
  c = RewardConfig{};
  c.kind = kind;
  if (kind != "speedup" && kind != "weighted" && kind != "tiered") {
    err = "unknown reward '" + kind + "' (known: speedup, weighted, tiered)";
    return false;
  }
  if (o.is_null()) return true;
  if (!o.is_object()) {
    err = "the reward settings must be a JSON object";
    return false;
  }
  for (auto& [k, v] : o.items()) {
    double* f = k == "correct_weight" ? &c.correct_weight : k == "speedup_weight" ? &c.speedup_weight
              : k == "speedup_cap" ? &c.speedup_cap : k == "speedup_floor" ? &c.speedup_floor
              : k == "speedup_eps" ? &c.speedup_eps : k == "hack_penalty" ? &c.hack_penalty : nullptr;
    if (k == "kind") continue;
    if (!f || !v.is_number()) {
      err = "reward setting '" + k + "' is " + (f ? "not a number" : "unknown") +
            " (known: correct_weight, speedup_weight, speedup_cap, speedup_floor, speedup_eps, hack_penalty)";
      return false;
    }
    *f = v.get<double>();
  }
  return true;
}

nlohmann::json to_json(const RewardConfig& c) {
  return {{"kind", c.kind},           {"correct_weight", c.correct_weight}, {"speedup_weight", c.speedup_weight},
          {"speedup_cap", c.speedup_cap}, {"speedup_floor", c.speedup_floor}, {"speedup_eps", c.speedup_eps},
          {"hack_penalty", c.hack_penalty}};
}

Reward reward_of(const eval::EvalResult& r, const RewardConfig& c) {
  Reward w;
  const bool correct = r.verdict == Verdict::Correct;
  const bool compiled = r.verdict != Verdict::CompileError && r.verdict != Verdict::NoCode;
  const double s = correct ? r.speedup : 0.0;
  if (r.verdict == Verdict::Cheating) {
    w.total = c.hack_penalty;
    w.components = {{"penalty", c.hack_penalty}, {"correct", 0.0}, {"speedup", 0.0}};
    return w;
  }
  if (c.kind == "tiered") {
    double v = !compiled ? -0.5 : !correct ? -0.3
             : s >= 3 ? 1.0 : s >= 2 ? 0.8 : s >= 1.5 ? 0.6 : s >= 1.2 ? 0.4 : s >= 1 ? 0.2 : -0.1;
    w.total = v;
    w.components = {{"tier", v}, {"speedup_value", s}};
    return w;
  }
  const double correct_part = c.correct_weight * (correct ? 1.0 : 0.0);
  double speed_part = 0;
  if (correct && c.kind == "speedup") {
    double clipped = s < c.speedup_floor ? 0.0 : std::min(s, c.speedup_cap);
    speed_part = c.speedup_weight * clipped;
  } else if (correct && c.kind == "weighted") {
    speed_part = c.speedup_weight * (s >= 1 + c.speedup_eps ? 1.0 : 0.0);
  }
  w.total = correct_part + speed_part;
  w.components = {{"correct", correct_part}, {"speedup", speed_part}, {"speedup_value", s}};
  return w;
}
}  // namespace kgen::serve
