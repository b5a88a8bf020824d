// `kgen generate` (generate_cmd.h).
#include "cli/generate_cmd.h"
#include "cli/task_arg.h"

#include "cli/sandbox_flags.h"

#include <filesystem>
#include <fmt/core.h>
#include <iostream>
#include <mutex>

#include "base/parallel.h"
#include "cli/llm_options.h"
#include "sandbox/paths.h"
#include "eval/evaluate.h"
#include "eval/metrics.h"
#include "eval/result_json.h"
#include "eval/store.h"
#include "gen/loop.h"
#include "perf/profile.h"

namespace kgen::cli {
using sandbox::paths;
using sandbox::Paths;
namespace {
namespace fs = std::filesystem;

struct GenerateCli {
  std::string task, suite, model, out = "gen-out", store;
  int samples = 1, jobs = 2;
  bool json = false;
  LlmCli llm;
  eval::EvalOptions eval;
};

// A task given as a file, or as an id of the suite (task_arg.h).
bool resolve_task(const GenerateCli& c, gen::TaskInfo& t, std::string& err) {
  const fs::path p = resolve_task_arg(c.task, c.suite, err);
  if (p.empty()) return false;
  t.path = p.string();
  t.category = p.parent_path().filename().string();
  t.id = t.category + "/" + p.stem().string();
  return true;
}

void copy_best(const std::string& from, const fs::path& dest) {
  std::error_code ec;
  fs::remove_all(dest, ec);
  fs::create_directories(dest, ec);
  if (fs::is_directory(from, ec))
    fs::copy(from, dest, fs::copy_options::recursive, ec);
  else
    fs::copy_file(from, dest / fs::path(from).filename(), ec);
}

int run_generate(GenerateCli& c) {
  if (int rc = require_sandbox("kgen generate")) return rc;
  if (c.samples < 1 || c.jobs < 1) {
    std::cerr << "kgen generate: --samples and --jobs must be at least 1\n";
    return 2;
  }
  gen::TaskInfo task;
  std::string err;
  if (!resolve_task(c, task, err)) {
    std::cerr << "kgen generate: " << err << "\n";
    return 2;
  }
  try {
    c.eval.soc = perf::load_profile(c.eval.soc).name;
  } catch (const std::exception& e) {
    std::cerr << "kgen generate: --soc " << c.eval.soc << ": " << e.what() << "\n";
    return 2;
  }
  gen::LlmSettings s;
  if (!llm_settings(c.llm, eval::cache_dir(c.eval), s, err)) {
    std::cerr << "kgen generate: " << err << "\n";
    return 2;
  }
  gen::Endpoint ep;
  if (!gen::resolve_endpoint(s.config, c.model, s.overrides, ep, err)) {
    std::cerr << "kgen generate: " << err << "\n";
    return 2;
  }
  std::error_code ec;
  fs::create_directories(c.out, ec);
  const std::string store_path = c.store.empty() ? (fs::path(c.out) / "results.db").string() : c.store;
  auto store = eval::Store::open(store_path, err);
  if (!store) {
    std::cerr << "kgen generate: " << err << "\n";
    return 1;
  }
  gen::ChatClient client(ep, s.cache_dir);
  if (eval::Store::is_url(store_path)) client.use_store_cache(store.get());   // replies shared with the store's hosts
  gen::LoopOptions lo;
  lo.prompt = s.prompt;
  lo.prompt.soc = c.eval.soc;
  lo.prompt.context_tokens = ep.context_tokens;
  lo.rounds = s.rounds;
  lo.improve_rounds = s.improve_rounds;
  lo.eval = c.eval;
  lo.work_dir = (fs::path(c.out) / ".attempts").string();
  std::mutex mu;
  lo.on_round = [&](const gen::RoundRecord& r) {
    std::lock_guard<std::mutex> lk(mu);
    std::cerr << gen::round_line(r, c.eval.soc) << "\n";
  };
  fmt::print(stderr, "kgen generate: {} with {} at {} ({} target), {} sample(s) x up to {} round(s)\n", task.id,
             ep.model, ep.base_url, gen::target_name(s.prompt.target), c.samples, s.rounds);

  std::vector<gen::SampleResult> results(c.samples);
  parallel_for(static_cast<size_t>(c.samples), c.jobs, [&](size_t k) {
    results[k] = gen::run_sample(task, static_cast<int>(k), lo, client, store.get());
  });

  std::vector<eval::EvalResult> best_per_sample;
  int best = -1;
  for (int k = 0; k < c.samples; ++k) {
    if (!results[k].error.empty()) {
      std::cerr << "kgen generate: " << results[k].error << "\n";
      return 1;
    }
    best_per_sample.push_back(results[k].best);
    if (results[k].best_round >= 0 && (best < 0 || gen::better(results[k].best, results[best].best))) best = k;
  }
  eval::MetricsOptions mo;
  mo.ks = c.samples > 1 ? std::vector<int>{1, c.samples} : std::vector<int>{1};
  const eval::Metrics m = eval::compute_metrics(best_per_sample, mo);
  const gen::Usage u = client.usage();
  std::string best_path;
  if (best >= 0) {
    const fs::path dest = fs::path(c.out) / task.id;
    copy_best(results[best].rounds[results[best].best_round].candidate, dest);
    best_path = dest.string();
  }
  bool any_reply = false;
  for (const auto& r : results)
    for (const auto& rr : r.rounds) any_reply |= rr.verdict != "no-reply";
  const bool correct = best >= 0 && results[best].best.verdict == eval::Verdict::Correct;

  if (c.json) {
    nlohmann::json j;
    j["task_id"] = task.id;
    j["model"] = ep.model;
    j["target"] = gen::target_name(s.prompt.target);
    j["best_sample"] = best;
    j["best_candidate"] = best_path;
    j["best"] = best >= 0 ? eval::to_json(results[best].best) : nlohmann::json();
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& r : results) {
      nlohmann::json rounds = nlohmann::json::array();
      for (const auto& rr : r.rounds)
        rounds.push_back({{"round", rr.round}, {"verdict", rr.verdict}, {"speedup", rr.speedup},
                          {"candidate", rr.candidate}, {"cached", rr.cached}, {"feedback", rr.feedback},
                          {"prompt_tokens", rr.prompt_tokens}, {"completion_tokens", rr.completion_tokens},
                          {"seconds", rr.seconds}});
      samples.push_back({{"sample", r.sample}, {"best_round", r.best_round},
                         {"verdict", eval::verdict_name(r.best.verdict)}, {"rounds", rounds}});
    }
    j["samples"] = samples;
    j["metrics"] = eval::to_json(m);
    j["usage"] = {{"replies", u.replies}, {"requests", u.requests}, {"cached", u.cached}, {"retries", u.retries},
                  {"failures", u.failures}, {"prompt_tokens", u.prompt_tokens},
                  {"completion_tokens", u.completion_tokens}, {"cost_usd", u.cost_usd}};
    j["store"] = store->path();
    std::cout << j.dump(1) << "\n";
  } else {
    fmt::print("\n{}", eval::metrics_table(m));
    if (best >= 0) {
      const auto& b = results[best].best;
      fmt::print("best: sample {} round {}: {}", best, results[best].best_round, eval::verdict_name(b.verdict));
      if (correct) fmt::print(", {:.2f}x over eager PyTorch (modeled, {})", b.speedup, b.soc);
      fmt::print("\n  candidate: {}\n", best_path);
    } else {
      fmt::print("no sample produced a candidate\n");
    }
    fmt::print("{}\n", gen::usage_line(u));
    fmt::print("trajectories: {} (kind prompt/response/verdict per round)\n", store->path());
  }
  if (!any_reply) return 1;
  return correct ? 0 : 3;
}
}  // namespace

CLI::App* add_generate_command(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<GenerateCli>();
  auto* g = app.add_subcommand("generate", "An LLM writes a kernel for one task; kgen evaluates each attempt and feeds "
                                           "back what it found (repair rounds); the best candidate is kept");
  g->add_option("--task", c->task, "Task .py, or a suite id such as activation/relu")->required();
  g->add_option("--model", c->model, "A [model.NAME] of kgen.toml, or the served model's name (with --base-url)");
  g->add_option("--samples", c->samples, "Independent samples (best-of-k; pass@k over them)")->capture_default_str();
  g->add_option("--suite", c->suite, "Suite folder for task ids (default tasks/ of the source tree)");
  g->add_option("--out", c->out, "Output folder: OUT/<task>/ the best candidate, OUT/.attempts/ every round, "
                                 "OUT/results.db the trajectories")
      ->capture_default_str();
  g->add_option("--store", c->store, "Results store: a SQLite file (default OUT/results.db) or a postgresql:// URL");
  g->add_option("--jobs", c->jobs, "Samples worked on at once")->capture_default_str();
  g->add_option("--soc", c->eval.soc, "SoC profile for the runs and the modeled times")->capture_default_str();
  g->add_option("--trials", c->eval.trials, "Fresh random inputs per case")->capture_default_str();
  g->add_option("--timeout", c->eval.timeout_s, "Wall-clock limit of one candidate run, seconds")->capture_default_str();
  g->add_flag("--json", c->json, "Print the outcome as one JSON object");
  add_sandbox_flags(g, &c->eval);
  add_llm_options(g, c->llm);
  g->callback([c, &exit_code] { exit_code = run_generate(*c); });
  return g;
}
}  // namespace kgen::cli
