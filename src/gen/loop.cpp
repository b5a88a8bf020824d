// The generation loop of one sample (loop.h): prompt, reply, candidate, evaluation, feedback, repair.
#include "gen/loop.h"

#include <chrono>
#include <filesystem>
#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <optional>

#include "eval/store.h"
#include "gen/feedback.h"
#include "gen/reply.h"

namespace kgen::gen {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string messages_text(const std::vector<ChatMessage>& msgs) {
  return messages_json(msgs).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string op_name_of(const std::string& task_id) {
  const size_t slash = task_id.rfind('/');
  return slash == std::string::npos ? task_id : task_id.substr(slash + 1);
}

// An EvalResult standing for a round that produced no candidate.
eval::EvalResult no_candidate(const TaskInfo& task, int sample, const std::string& why) {
  eval::EvalResult r;
  r.task_id = task.id;
  r.category = task.category;
  r.sample = sample;
  r.verdict = eval::Verdict::NoCode;
  r.diagnostics = {why};
  return r;
}

// Trajectory writes are best effort: a failing store must not lose the generation itself.
void record(eval::Store* store, const TaskInfo& task, const std::string& cand_hash, int sample, int round,
            const char* kind, const std::string& text) {
  if (!store) return;
  std::string err;
  store->add_trajectory(task.id, cand_hash, sample, round, kind, text, err);
}
std::string summary_of(const RoundRecord& rec, const eval::EvalResult& r) {
  if (rec.verdict == "no-reply") return rec.feedback;
  if (rec.verdict == "correct") return "";
  for (const auto& c : r.cases)
    if (!c.correct && !c.first_mismatch.empty()) return "case " + c.name + ": " + c.first_mismatch;
  for (const auto& d : r.diagnostics)
    if (d.find("error") != std::string::npos) return d;
  return r.diagnostics.empty() ? "" : r.diagnostics.front();
}
}  // namespace

SampleResult run_sample(const TaskInfo& task, int sample, const LoopOptions& o, ChatClient& client,
                        eval::Store* store) {
  SampleResult s;
  s.sample = sample;
  s.best = no_candidate(task, sample, "no round produced a candidate");
  std::vector<ChatMessage> msgs;
  if (!initial_messages(task, o.prompt, msgs, s.error)) return s;
  const std::string op_name = op_name_of(task.id);
  const long long seed = client.endpoint().seed >= 0 ? client.endpoint().seed + sample : -1;

  for (int round = 0; round < std::max(1, o.rounds); ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    RoundRecord rec;
    rec.sample = sample;
    rec.round = round;
    ChatRequest q;
    q.messages = msgs;
    q.salt = fmt::format("sample {} round {}", sample, round);
    q.seed = seed;
    ChatReply reply = client.chat(q);
    rec.cached = reply.cached;
    rec.prompt_tokens = reply.prompt_tokens;
    rec.completion_tokens = reply.completion_tokens;
    rec.cost_usd = reply.cost_usd;

    std::string cand_hash, content, code;
    eval::EvalResult r;
    bool stop = false;
    if (reply.unreachable) {   // not the sample's failure: the endpoint is not there (client.h)
      s.error = reply.error;
      s.unreachable = true;
      return s;
    }
    if (!reply.ok || reply.choices.empty()) {
      rec.verdict = "no-reply";
      rec.feedback = reply.error.empty() ? "the server returned no choices" : reply.error;
      stop = true;   // the client already retried; a dead endpoint will not answer the next round either
      if (s.best_round < 0 && s.rounds.empty()) {   // nothing at all came back: a failed generation, as in the bench
        s.best.verdict = eval::Verdict::CompileError;
        s.best.diagnostics = {"error[generator] no reply from the model: " + rec.feedback};
      }
    } else {
      content = reply.choices.front();
      ParsedReply p = parse_reply(content, o.prompt.target, op_name);
      if (!p.ok) {
        if (reply.finish_reason == "length" && p.error.find("cut off") == std::string::npos)
          p.error += " (the reply stopped at max_tokens: raise max_tokens or ask for less prose)";
        rec.verdict = "no-code";
        rec.feedback = no_code_feedback(p.error);
        r = no_candidate(task, sample, p.error);
      } else {
        code = files_text(p);
        const fs::path dir = fs::path(o.work_dir) / task.id / fmt::format("s{}", sample) / fmt::format("r{}", round);
        std::error_code ec;
        fs::remove_all(dir, ec);
        std::string cand, werr;
        if (!write_candidate(p, o.prompt.target, dir.string(), cand, werr)) {
          rec.verdict = "no-code";
          rec.feedback = no_code_feedback(werr);
          r = no_candidate(task, sample, werr);
        } else {
          eval::EvalOptions eo = o.eval;
          eo.task = task.path;
          eo.candidate = cand;
          // A candidate evaluated before (a rerun served from the reply cache) is not run again.
          std::optional<eval::EvalResult> known;
          const std::string content_hash = eval::candidate_hash_of(cand);
          if (store)
            known = store->find(eval::task_hash_of(task.path), eval::stored_candidate_key(content_hash, eo),
                                KGEN_VERSION, eo.soc, sample);
          r = known ? *known : eval::evaluate(eo);
          r.candidate_hash = content_hash;
          r.candidate = cand;
          r.sample = sample;
          if (r.task_id.empty()) r.task_id = task.id;
          cand_hash = r.candidate_hash;
          rec.candidate = cand;
          rec.verdict = eval::verdict_name(r.verdict);
          rec.speedup = r.speedup;
          rec.feedback = feedback_text(r, cand);
          if (store && !known) {
            std::string perr;
            eval::EvalResult keyed = r;   // under the bench's key for these settings (evaluate.h)
            keyed.candidate_hash = eval::stored_candidate_key(content_hash, eo);
            store->put(keyed, perr);   // so that `kgen bench` reuses this evaluation of the same candidate
          }
        }
      }
    }
    rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rec.summary = summary_of(rec, r);

    record(store, task, cand_hash, sample, round, "prompt", messages_text(msgs));
    if (reply.ok && !reply.choices.empty()) record(store, task, cand_hash, sample, round, "response", content);
    json v = {{"verdict", rec.verdict},
              {"speedup", rec.speedup},
              {"error_category", r.error_category},
              {"feedback", rec.feedback},
              {"cached", rec.cached},
              {"prompt_tokens", rec.prompt_tokens},
              {"completion_tokens", rec.completion_tokens},
              {"cost_usd", rec.cost_usd},
              {"seconds", rec.seconds}};
    record(store, task, cand_hash, sample, round, "verdict", v.dump(-1, ' ', false, json::error_handler_t::replace));

    if (!rec.candidate.empty() && (s.best_round < 0 || better(r, s.best))) {
      s.best = r;
      s.best_round = round;
    } else if (s.best_round < 0 && rec.verdict == "no-code") {
      s.best = r;
    }
    const bool correct = rec.verdict == "correct";
    s.rounds.push_back(rec);
    if (o.on_round) o.on_round(s.rounds.back());
    if (stop || (correct && !o.improve_rounds)) break;
    if (round + 1 < o.rounds) {
      std::string err;
      std::vector<ChatMessage> next;
      if (!repair_messages(task, o.prompt, content, code, rec.feedback, next, err)) {
        s.error = err;
        break;
      }
      msgs = std::move(next);
    }
  }
  return s;
}
std::string round_line(const RoundRecord& r, const std::string& soc) {
  std::string what = r.verdict;
  if (r.verdict == "correct") what += fmt::format(", {:.2f}x (modeled, {})", r.speedup, soc);
  if (!r.summary.empty()) what += ": " + r.summary.substr(0, 160);
  return fmt::format("sample {} round {}: {}{} ({:.1f} s)", r.sample, r.round, what, r.cached ? " [cached reply]" : "",
                     r.seconds);
}
}  // namespace kgen::gen
