// RL prompt rows (rl_rows.h).
#include "data/rl_rows.h"

#include "eval/evaluate.h"
#include "gen/prompt.h"

namespace kgen::data {
using nlohmann::json;

std::vector<ParquetField> verl_schema() {
  using F = ParquetField;
  auto str = [](const char* n) { return F{F::String, n, {}}; };
  auto i64 = [](const char* n) { return F{F::Int64, n, {}}; };
  return {str("data_source"),
          F{F::List, "prompt", {F{F::Struct, "element", {str("role"), str("content")}}}},
          str("ability"),
          F{F::Struct, "reward_model", {str("style"), str("ground_truth")}},
          F{F::Struct, "extra_info",
            {str("split"), i64("index"), str("task_id"), str("category"), i64("level"), str("target"), str("soc"),
             str("task_hash"), str("kgen_version")}}};
}

RlRows rl_rows(const std::vector<eval::BenchTask>& tasks, const Splits& splits, const std::string& soc,
               const std::string& suite_name) {
  RlRows out;
  for (const auto& t : tasks) {
    const std::string& sp = splits.of.at(t.id);
    const std::string task_hash = eval::task_hash_of(t.path);
    for (const auto& [target, gt] : {std::pair{std::string("tile"), gen::Target::Tile},
                                     std::pair{std::string("ascendc"), gen::Target::AscendC}}) {
      gen::PromptOptions po;
      po.target = gt;
      po.soc = soc;
      po.hidden_examples = splits.hidden;
      std::vector<gen::ChatMessage> msgs;
      std::string e;
      if (!gen::initial_messages({t.id, t.category, t.path}, po, msgs, e)) {
        ++out.skipped["rl: no " + target + " prompt: " + e.substr(0, 80)];
        continue;
      }
      const json prompt = gen::messages_json(msgs);
      const std::string label = target + ":" + t.id;
      json extra = {{"split", sp},         {"index", static_cast<int64_t>(out.verl[sp].size())},
                    {"task_id", t.id},     {"category", t.category},
                    {"level", t.level},    {"target", target},
                    {"soc", soc},          {"task_hash", task_hash},
                    {"kgen_version", KGEN_VERSION}};
      out.verl[sp].push_back({{"data_source", "kgen/" + suite_name},
                              {"prompt", prompt},
                              {"ability", target == "tile" ? "tile-kernel" : "ascendc-kernel"},
                              {"reward_model", {{"style", "rule"}, {"ground_truth", label}}},
                              {"extra_info", extra}});
      out.trl[sp].push_back({{"prompt", prompt}, {"label", label}, {"target", target}, {"task_id", t.id},
                             {"kind", "rl"}, {"provenance", extra}});
    }
  }
  return out;
}
}  // namespace kgen::data
