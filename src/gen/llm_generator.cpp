// The llm:MODEL bench generator (llm_generator.h).
#include "gen/llm_generator.h"

#include "eval/store.h"

#include <filesystem>
#include <fmt/core.h>
#include <mutex>

#include "eval/generate.h"
#include "gen/loop.h"

namespace kgen::gen {
namespace {
namespace fs = std::filesystem;

std::mutex clients_mu;
std::shared_ptr<ChatClient> last_client;

// Copies the best attempt into the bench's folder: the .tile / .py file, or the op project's files.
bool copy_candidate(const std::string& from, const std::string& to_dir, std::string& err) {
  std::error_code ec;
  if (fs::is_directory(from, ec))
    fs::copy(from, to_dir, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  else
    fs::copy_file(from, fs::path(to_dir) / fs::path(from).filename(), fs::copy_options::overwrite_existing, ec);
  if (ec) err = fmt::format("cannot copy {} to {}: {}", from, to_dir, ec.message());
  return !ec;
}

eval::GenOutcome generate_one(const LlmSettings& s, ChatClient& client, const eval::GenRequest& q) {
  eval::GenOutcome g;
  LoopOptions lo;
  lo.prompt = s.prompt;
  lo.prompt.soc = q.soc;
  lo.prompt.context_tokens = client.endpoint().context_tokens;
  lo.rounds = s.rounds;
  lo.improve_rounds = s.improve_rounds;
  if (q.eval) lo.eval = *q.eval;
  lo.eval.soc = q.soc;
  // Attempts live beside the samples in a '.'-folder, which the bench's candidate scan ignores.
  lo.work_dir = (fs::path(q.out_dir).parent_path().parent_path().parent_path() / ".attempts").string();
  TaskInfo task{q.task_id, q.task_id.substr(0, q.task_id.find('/')), q.task_path};
  lo.on_round = [&](const RoundRecord& rec) {   // the bench's progress, a line per round of each sample
    static std::mutex mu;
    std::lock_guard<std::mutex> lk(mu);
    fmt::print(stderr, "  {} {}\n", q.task_id, round_line(rec, q.soc));
  };
  // A store shared between hosts (PostgreSQL) holds the reply cache too, so a reply paid for anywhere is reused.
  if (q.store && eval::Store::is_url(q.store->path())) client.use_store_cache(q.store);
  SampleResult r = run_sample(task, q.sample, lo, client, q.store);
  for (const auto& rec : r.rounds) g.seconds += rec.seconds;
  if (!r.error.empty()) {
    g.diagnostics.push_back("error[generator] " + r.error);
    g.fatal = r.unreachable;
    return g;
  }
  if (r.best_round < 0) {
    g.no_code = r.best.verdict == eval::Verdict::NoCode;
    g.diagnostics = r.best.diagnostics;
    return g;
  }
  std::string err;
  if (!copy_candidate(r.rounds[r.best_round].candidate, q.out_dir, err)) {
    g.diagnostics.push_back("error[generator] " + err);
    return g;
  }
  g.ok = true;
  return g;
}
}  // namespace

void register_llm_generator(const LlmSettings& settings) {
  eval::register_generator_kind(
      "llm",
      [settings](const std::string& model, const eval::GeneratorOptions&, eval::Generator& g, std::string& err) {
        Endpoint ep;
        if (!resolve_endpoint(settings.config, model, settings.overrides, ep, err)) return false;
        auto client = std::make_shared<ChatClient>(ep, settings.cache_dir);
        {
          std::lock_guard<std::mutex> lk(clients_mu);
          last_client = client;
        }
        g = [settings, client](const eval::GenRequest& q) { return generate_one(settings, *client, q); };
        return true;
      },
      "llm:MODEL (an OpenAI-compatible model: a [model.NAME] of kgen.toml, or a served model with --base-url)");
}

Usage llm_generator_usage() {
  std::lock_guard<std::mutex> lk(clients_mu);
  return last_client ? last_client->usage() : Usage{};
}
}  // namespace kgen::gen
