// The metrics of an LLM bench as of each repair round: round 0 is the model's first reply alone, round r the best of
// rounds 0..r of each sample (a sample that stopped earlier keeps its result). The bench's own metrics are those after
// every round; these say how much of them the repair loop earned.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "eval/metrics.h"
#include "eval/result.h"

namespace kgen::eval {
// `attempts`: results.json's {"TASK": [{"sample", "round", "verdict", "speedup", ...}]}; `results` give each task's
// category and level. One Metrics per round (empty when there are no attempts), with `opt`'s ks.
std::vector<Metrics> metrics_by_round(const nlohmann::json& attempts, const std::vector<EvalResult>& results,
                                      const MetricsOptions& opt);
// JSON for results.json "metrics_by_round": [{"round": r, "metrics": {...}}].
nlohmann::json to_json(const std::vector<Metrics>& by_round);
// One line per round: "round 0 (first reply)  compile@1 40.0%  pass@1 10.0%" ... for the bench's summary.
std::string rounds_table(const std::vector<Metrics>& by_round);
}  // namespace kgen::eval
