// EvalOptions as JSON (options_json.h).
#include "eval/options_json.h"


namespace kgen::eval {
using nlohmann::json;

json options_to_json(const EvalOptions& o) {
  return json{{"soc", o.soc},
              {"trials", o.trials},
              {"seed", o.seed},
              {"fp32", {o.fp32.atol, o.fp32.rtol}},
              {"fp16", {o.fp16.atol, o.fp16.rtol}},
              {"bf16", {o.bf16.atol, o.bf16.rtol}},
              {"secret_trials", o.secret_trials},
              {"secret_seed", o.secret_seed},
              {"timeout_s", o.timeout_s},
              {"memory_mb", o.memory_mb},
              {"file_mb", o.file_mb},
              {"disk_mb", o.disk_mb},
              {"processes", o.processes},
              {"max_records", o.max_records},
              {"timing_check", o.timing_check},
              {"perf_shape", o.perf_shape}};
}

bool options_from_json(const json& j, EvalOptions& o, std::string& err) {
  if (!j.is_object()) {
    err = "evaluation options: not a JSON object";
    return false;
  }
  const json known = options_to_json(EvalOptions{});   // the fields options_to_json writes
  for (const auto& [k, v] : j.items())
    if (!known.contains(k)) {
      err = "evaluation options: unknown field '" + k + "' (the sending kgen is newer than this one?)";
      return false;
    }
  try {
    auto get = [&](const char* k, auto& field) {
      if (j.contains(k)) field = j.at(k).get<std::decay_t<decltype(field)>>();
    };
    auto tol = [&](const char* k, Tolerance& t) {
      if (!j.contains(k)) return;
      const json& a = j.at(k);
      if (!a.is_array() || a.size() != 2) throw std::runtime_error(std::string(k) + " is not [atol, rtol]");
      t = {a[0].get<double>(), a[1].get<double>()};
    };
    get("soc", o.soc);
    get("trials", o.trials);
    get("seed", o.seed);
    tol("fp32", o.fp32);
    tol("fp16", o.fp16);
    tol("bf16", o.bf16);
    get("secret_trials", o.secret_trials);
    get("secret_seed", o.secret_seed);
    get("timeout_s", o.timeout_s);
    get("memory_mb", o.memory_mb);
    get("file_mb", o.file_mb);
    get("disk_mb", o.disk_mb);
    get("processes", o.processes);
    get("max_records", o.max_records);
    get("timing_check", o.timing_check);
    get("perf_shape", o.perf_shape);
  } catch (const std::exception& e) {
    err = std::string("evaluation options: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace kgen::eval
