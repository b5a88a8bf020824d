// The reward of one evaluation for RL training: deterministic, from the verdict and the modeled speedup, with its
// named components so a trainer can log them (docs/rl.md).
//
//   speedup   (default; Dr. Kernel's calculate_reward_speedup, hkust-nlp/KernelGYM drkernel/kernel/rewards/
//             reward_client.py): correct_weight * correct + speedup_weight * clip(speedup, floor, cap), speedup 0
//             below the floor; defaults 0.5, 0.5, floor 0, cap 3.
//   weighted  (calculate_reward_weighted): correct_weight * correct + speedup_weight * (speedup >= 1 + eps), eps 0.01.
//   tiered    (calculate_reward_like_kernel): not compiled -0.5, compiled but wrong -0.3, correct by speedup tier:
//             >= 3: 1.0, >= 2: 0.8, >= 1.5: 0.6, >= 1.2: 0.4, >= 1: 0.2, else -0.1.
// In every kind a detected hack (verdict cheating) scores hack_penalty (default -1), below a compile error; a reply
// with no code scores like a compile error.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "eval/result.h"

namespace kgen::serve {
struct RewardConfig {
  std::string kind = "speedup";
  double correct_weight = 0.5, speedup_weight = 0.5;
  double speedup_cap = 3.0, speedup_floor = 0.0, speedup_eps = 0.01;
  double hack_penalty = -1.0;
};
// From a kind name and an optional JSON object of overrides (the fields above); false with err on an unknown kind or
// field.
bool reward_config(const std::string& kind, const nlohmann::json& overrides, RewardConfig& c, std::string& err);
struct Reward {
  double total = 0;
  nlohmann::json components;   // {"correct": ..., "speedup": ..., "penalty": ...} (what made the total)
};
Reward reward_of(const eval::EvalResult& r, const RewardConfig& c);
nlohmann::json to_json(const RewardConfig& c);
}  // namespace kgen::serve
