// The settings of one evaluation as JSON, for sending an evaluation to another machine (kgen bench --cluster, docs/
// scale-out.md): every EvalOptions field that can change a verdict or a modeled time. Paths that are the machine's own
// (task, candidate, python, kgen-oprun, cache, secret cache, profile folder) are not carried: the receiving side sets
// them.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "eval/evaluate.h"

namespace kgen::eval {
nlohmann::json options_to_json(const EvalOptions& o);
// Reads the fields options_to_json writes into o (fields absent keep o's values); false with err on a wrong type or
// an unknown field.
bool options_from_json(const nlohmann::json& j, EvalOptions& o, std::string& err);
}  // namespace kgen::eval
