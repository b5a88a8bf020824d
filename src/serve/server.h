// `kgen serve`: the evaluator as an HTTP service for RL trainers (docs/rl.md). Endpoints:
//   POST /evaluate         one KernelGym EvaluationRequest -> EvaluationResponse (+ kgen's verdict, reward, timings)
//   POST /evaluate/batch   {"batch_id", "tasks": [...]} -> {"batch_id", "results": [...], ...}, evaluated in parallel
//   POST /get_reward       OpenRLHF's remote reward: {"query", "prompts", "labels"} -> {"rewards", "scores",
//   POST /reward             "extra_logs"}
//   GET  /health, /metrics  load, counters and latency (JSON; Prometheus text)
// Every candidate runs in the sandboxed evaluator (eval/evaluate.h); answers are idempotent by content hash and come
// from the results store when computed before.
#pragma once
#include <string>

#include "serve/job.h"
#include "serve/reward.h"

namespace kgen::serve {
struct ServerConfig {
  std::string host = "127.0.0.1";
  int port = 8000;                   // 0: any free port (written to port_file)
  std::string port_file;             // where the bound port is written once the service listens
  int workers = 2;                   // evaluations at once
  size_t queue = 1024;               // evaluations waiting; beyond: 429 with Retry-After
  std::string store;                 // the results store (SQLite)
  size_t max_batch = 1000;           // tasks per /evaluate/batch or /get_reward call
  size_t max_body = 8u << 20;        // bytes per request body; beyond: 413
  double request_timeout_s = 900;    // how long a request waits for its evaluations; beyond: 504 (the work goes on)
  double drain_timeout_s = 300;       // after the first SIGTERM/SIGINT: finish queued and running work this long (0: stop)
  ServeConfig jobs;
  RewardConfig reward;
};
// Serves until SIGINT or SIGTERM; then stops taking work, answers the queued requests with an error, lets the
// running evaluations finish into the store, and returns 0. Nonzero with err when it cannot start.
int serve(const ServerConfig& cfg, std::string& err);
}  // namespace kgen::serve
