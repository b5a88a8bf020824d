// RL prompt rows of `kgen data build` (build.h): for each task and target (tile, ascendc) the generation prompt as a
// model sees it, with the label kgen serve's reward takes ("TARGET:TASK_ID").
//   verl  {"data_source", "prompt": [messages], "ability", "reward_model": {"style": "rule", "ground_truth"},
//          "extra_info": {split, index, task_id, category, level, target, soc, task_hash, kgen_version}}
//   trl   {"prompt": [messages], "label", "target", "task_id", "kind": "rl", "provenance": the extra_info}
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/parquet.h"
#include "data/splits.h"
#include "eval/bench.h"

namespace kgen::data {
struct RlRows {
  std::map<std::string, std::vector<nlohmann::json>> verl, trl;   // by split
  std::map<std::string, int> skipped;
};
RlRows rl_rows(const std::vector<eval::BenchTask>& tasks, const Splits& splits, const std::string& soc,
               const std::string& suite_name);
// The verl rows' columns, for write_parquet.
std::vector<ParquetField> verl_schema();
}  // namespace kgen::data
