// `kgen serve [--host H] [--port N] [--workers N] [--queue N] [--store FILE] [--suite DIR] [--reward KIND] ...`:
// the evaluator as an HTTP service for RL trainers (src/serve/server.h, docs/rl.md).
#include "cli/serve_cmd.h"

#include <filesystem>
#include <fmt/core.h>
#include <iostream>
#include <thread>

#include "cli/sandbox_flags.h"
#include "cli/task_arg.h"
#include "perf/profile.h"
#include "sandbox/paths.h"
#include "serve/server.h"

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct ServeCli {
  serve::ServerConfig s;
  std::string reward = "speedup", reward_config;
  double max_body_mb = 8;
};

int run_serve(ServeCli& c) {
  auto& s = c.s;
  auto& o = s.jobs.eval;
  try {
    o.soc = perf::load_profile(o.soc).name;
  } catch (const std::exception& e) {
    std::cerr << "kgen serve: --soc " << o.soc << ": " << e.what() << "\n";
    return 2;
  }
  if (s.jobs.suite.empty()) s.jobs.suite = default_suite();
  if (!fs::is_directory(s.jobs.suite)) {
    std::cerr << "kgen serve: --suite " << s.jobs.suite << " is not a folder of tasks (<category>/<name>.py)\n";
    return 2;
  }
  s.jobs.suite = fs::absolute(s.jobs.suite).string();
  if (s.workers < 1 || s.queue < 1 || s.max_batch < 1) {
    std::cerr << "kgen serve: --workers, --queue and --max-batch must be at least 1\n";
    return 2;
  }
  if (o.trials < 1 || o.trials > s.jobs.max_trials) {
    std::cerr << fmt::format("kgen serve: --trials must be in [1, {}]\n", s.jobs.max_trials);
    return 2;
  }
  if (s.request_timeout_s <= 0 || c.max_body_mb <= 0) {
    std::cerr << "kgen serve: --request-timeout and --max-body-mb must be positive\n";
    return 2;
  }
  s.max_body = static_cast<size_t>(c.max_body_mb * 1024 * 1024);
  nlohmann::json overrides;
  if (!c.reward_config.empty()) {
    try {
      overrides = nlohmann::json::parse(c.reward_config);
    } catch (const std::exception& e) {
      std::cerr << "kgen serve: --reward-config is not JSON: " << e.what() << "\n";
      return 2;
    }
  }
  std::string err;
  if (!serve::reward_config(c.reward, overrides, s.reward, err)) {
    std::cerr << "kgen serve: --reward: " << err << "\n";
    return 2;
  }
  if (int rc = require_sandbox("kgen serve")) return rc;
  const std::string cache = eval::cache_dir(o);
  if (s.jobs.work.empty()) s.jobs.work = cache + "/serve";
  if (s.store.empty()) s.store = s.jobs.work + "/results.db";
  std::error_code ec;
  fs::create_directories(s.jobs.work, ec);
  if (ec) {
    std::cerr << "kgen serve: cannot make " << s.jobs.work << ": " << ec.message() << "\n";
    return 2;
  }
  s.jobs.work = fs::absolute(s.jobs.work).string();
  int rc = serve::serve(s, err);
  if (rc) std::cerr << "kgen serve: " << err << "\n";
  return rc;
}
}  // namespace

CLI::App* add_serve_command(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<ServeCli>();
  auto& s = c->s;
  s.workers = std::max(1u, std::thread::hardware_concurrency());
  auto* v = app.add_subcommand("serve", "Serve evaluations and rewards over HTTP for RL trainers (KernelGym /evaluate, "
                                        "OpenRLHF /get_reward, /health, /metrics; docs/rl.md)");
  v->add_option("--host", s.host, "Address to listen on (loopback by default: the service runs code it is sent)")
      ->capture_default_str();
  v->add_option("--port", s.port, "Port (0: any free one, see --port-file)")->capture_default_str();
  v->add_option("--port-file", s.port_file, "Write the port here once listening");
  v->add_option("--workers", s.workers, "Evaluations at once (default: the CPU count)")->capture_default_str();
  v->add_option("--queue", s.queue, "Evaluations waiting for a worker; beyond, requests get 429 with Retry-After")
      ->capture_default_str();
  v->add_option("--max-batch", s.max_batch, "Tasks per /evaluate/batch or samples per /get_reward call")
      ->capture_default_str();
  v->add_option("--max-body-mb", c->max_body_mb, "Largest request body, MiB; beyond: 413")->capture_default_str();
  v->add_option("--request-timeout", s.request_timeout_s,
                "Seconds a request waits for its evaluations; beyond: 504, the work goes on into the store")
      ->capture_default_str();
  v->add_option("--drain-timeout", s.drain_timeout_s,
                "After SIGTERM: seconds to finish queued and running evaluations while /health says 503 draining and "
                "new work gets 503 (0: stop at once; a second signal stops at once)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  v->add_option("--store", s.store, "Results store: a SQLite file (default WORK/results.db) or a postgresql:// "
                                    "URL shared by several kgen serve instances; repeated requests answered from it, "
                                    "across restarts and instances");
  v->add_option("--work", s.jobs.work, "Where tasks and candidates from requests are written (default "
                                       "<cache>/serve)");
  v->add_option("--suite", s.jobs.suite, "Task suite for task_id lookups (default ./tasks, else kgen's tasks/)");
  v->add_option("--target", s.jobs.default_target, "Target of requests that name none: ascendc, mkb or tile")
      ->check(CLI::IsMember({"ascendc", "mkb", "tile"}))
      ->capture_default_str();
  v->add_option("--soc", s.jobs.eval.soc, "SoC profile for the runs and the modeled times")->capture_default_str();
  v->add_option("--trials", s.jobs.eval.trials, "Trials per case of requests that give none")->capture_default_str();
  v->add_option("--timeout", s.jobs.eval.timeout_s, "Seconds one case and trial may take without progress")
      ->capture_default_str();
  v->add_option("--reward", c->reward, "Reward: speedup (0.5 correct + 0.5 min(speedup, 3)), weighted or tiered")
      ->check(CLI::IsMember({"speedup", "weighted", "tiered"}))
      ->capture_default_str();
  v->add_option("--reward-config", c->reward_config,
                "JSON overrides of the reward's constants: correct_weight, speedup_weight, speedup_cap, "
                "speedup_floor, speedup_eps, hack_penalty");
  add_sandbox_flags(v, &s.jobs.eval);
  v->callback([c, &exit_code] { exit_code = run_serve(*c); });
  return v;
}
}  // namespace kgen::cli
