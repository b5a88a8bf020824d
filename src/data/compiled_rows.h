// The expert library's programs as AscendC training rows (`kgen data build`, build.h): each correct tile program
// compiled to its op project and written as one AscendC reply (tiling header, host, kernel with kgen's helper
// headers inlined), the reply parsed and evaluated again as an AscendC candidate, and kept only when correct:
//   sft        the AscendC generation prompt -> that reply
//   reasoning  the same prompt -> "<think>" the compiler's reasoning at the task's perf shape "</think>" the reply
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/bench.h"
#include "eval/result.h"

namespace kgen::data {
struct CompiledRows {
  std::vector<nlohmann::json> sft, reasoning;   // chat layout, with "kind" and "provenance"
  std::map<std::string, int> skipped;           // reason -> programs (or reasoning texts) not exported
};
// results: correct tile results, one per task (the first sample); tasks: the suite by id; hidden: task ids no prompt
// may show as an example; work: a folder for the candidates written from the replies.
CompiledRows compiled_rows(const std::vector<eval::EvalResult>& results,
                           const std::map<std::string, const eval::BenchTask*>& tasks,
                           const std::set<std::string>& hidden, const std::string& soc, int jobs,
                           const std::string& work);
// An op project's files (relative path -> text) as one AscendC reply in the format prompts/format_ascendc.md asks
// for, each `#include "kgen_*.h"` of a helper header of the project replaced by its text, once.
std::string ascendc_reply(const std::map<std::string, std::string>& files);
}  // namespace kgen::data
