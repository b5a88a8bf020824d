// JSON form of an EvalResult (kept out of result.h so that users of the plain data need no json header).
// Field names are the struct's member names; `verdict` is verdict_name(); non-finite doubles are written as the
// strings "nan", "inf", "-inf" (JSON has no such numbers) and read back exactly.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "eval/result.h"

namespace kgen::eval {
nlohmann::json to_json(const CaseResult& c);
nlohmann::json to_json(const EvalResult& r);
nlohmann::json to_json(const Timeline& t);
nlohmann::json to_json(const PerfResult& p);
// Fills r from j. Missing fields keep their defaults (forward/backward compatibility), except "verdict", which is
// required. A field of the wrong type or an unknown verdict is an error: returns false with err naming the field.
bool from_json(const nlohmann::json& j, CaseResult& c, std::string& err);
bool from_json(const nlohmann::json& j, EvalResult& r, std::string& err);
}  // namespace kgen::eval
