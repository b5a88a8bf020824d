// One evaluation request as the service receives it (KernelGym's EvaluationRequest fields, hkust-nlp/KernelGYM
// kernelgym/server/api/models.py, plus kgen's own), made into what the evaluator runs: a task file and a candidate on
// disk, content-addressed under the service's work folder, and the key that makes the same request get the same
// answer.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "eval/evaluate.h"

namespace kgen::serve {
struct ServeConfig {
  std::string suite;                 // where task ids are looked up: SUITE/<category>/<name>.py
  std::string work;                  // tasks/ and candidates/ written from requests (default <cache>/serve)
  std::string default_target = "ascendc";
  int max_trials = 20;
  double min_timeout_s = 10, max_timeout_s = 3600;
  eval::EvalOptions eval;            // soc, trials, secret trials, tolerances, limits, python, cache
};

struct Job {
  std::string task_id, target, uuid;
  eval::EvalOptions eval;            // task and candidate set
  bool force_refresh = false;
  bool no_code = false;              // the reply held no usable code: answered without running anything
  std::string no_code_reason;
  std::string key;                   // idempotence: task, candidate, kgen version, SoC, trials, seed policy
  std::string task_hash, store_candidate_hash;   // the store's key (the candidate hash qualified by the settings)
};

struct BadRequest {
  int status = 400;                  // 400 malformed, 404 unknown task, 413 too large, 422 invalid value
  std::string code = "VALIDATION_ERROR";
  std::string message;
};

// One request object -> a job. `kernel_code` is the candidate: for target "ascendc" a model's reply or the files of
// an op project in <file path="..."> tags or fenced blocks (gen/reply.h), for "tile" a program or a reply holding one,
// for "mkb" a MultiKernelBench submission's .py text (or a reply with it in a python block).
bool parse_job(const nlohmann::json& req, const ServeConfig& cfg, Job& job, BadRequest& err);
// A dataset label -> the request fields it stands for: "TASK_ID", "TARGET:TASK_ID" (target ascendc, mkb or tile),
// or a JSON object (or its text) of request fields ({"task_id", "target", "reference_code", ...}). A request's
// "label" field is read this way (its own fields win); OpenRLHF's labels are too.
bool request_of_label(const nlohmann::json& label, nlohmann::json& req, std::string& err);
// The response of KernelGym's EvaluationResponse fields plus kgen's (docs/rl.md).
nlohmann::json response_of(const Job& job, const eval::EvalResult& r, const nlohmann::json& reward, bool cached,
                           double queue_s, const std::string& submitted_at);
std::string now_utc();
}  // namespace kgen::serve
