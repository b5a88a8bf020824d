// Training rows from the results store and the trajectories (export.h).
#include "data/export.h"

#include "data/jsonl.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/candidate_files.h"
#include "eval/evaluate.h"
#include "eval/store.h"
#include "gen/prompt.h"
#include "op/project.h"
#include "sandbox/digest.h"
#include "sandbox/paths.h"
#include "sandbox/process.h"

namespace kgen::data {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

struct Row {
  std::string kind;                       // sft, repair
  std::vector<gen::ChatMessage> messages; // the prompt (system, user, ...), then the assistant's reply
  json provenance;
};
struct Pair {                             // dpo
  std::vector<gen::ChatMessage> prompt;
  std::string chosen, rejected;
  json provenance;
};

// The candidate as the reply format of its target asks (prompts/format_*.md): a tile program in one ```tile block;
// an op project's files each in a block whose info string is the language and the path.
bool reply_of(const eval::EvalResult& r, std::string& reply, gen::Target& target) {
  if (r.candidate_kind == "tile") {
    target = gen::Target::Tile;
    std::string prog = op::read_text(r.candidate);
    while (!prog.empty() && prog.back() == '\n') prog.pop_back();
    reply = "```tile\n" + prog + "\n```";
    return true;
  }
  if (r.candidate_kind != "op-project") return false;
  target = gen::Target::AscendC;
  std::vector<std::string> rels;
  for (const auto& f : eval::candidate_files(r.candidate))
    if (f.kind == eval::CandidateFile::Regular &&
        (f.rel.rfind("op_host/", 0) == 0 || f.rel.rfind("op_kernel/", 0) == 0))
      rels.push_back(f.rel);
  std::sort(rels.begin(), rels.end());
  if (rels.empty()) return false;
  for (const auto& rel : rels) {
    std::string text = op::read_text((fs::path(r.candidate) / rel).string());
    while (!text.empty() && text.back() == '\n') text.pop_back();
    reply += (reply.empty() ? "" : "\n\n") + fmt::format("```cpp {}\n{}\n```", rel, text);
  }
  return true;
}

json provenance_of(const eval::EvalResult& r, const std::string& source, int round) {
  return {{"task_id", r.task_id},        {"task_hash", r.task_hash},
          {"candidate_hash", r.candidate_hash.substr(0, r.candidate_hash.find('@'))},
          {"soc", r.soc},                {"kgen_version", r.kgen_version},
          {"verdict", eval::verdict_name(r.verdict)},
          {"speedup", r.speedup},        {"speedup_shape", r.perf.timed() ? "perf " + r.perf.shape : "check"},
          {"source", source},            {"sample", r.sample},
          {"round", round}};
}

std::vector<gen::ChatMessage> messages_of(const std::string& prompt_json, bool& ok) {
  std::vector<gen::ChatMessage> m;
  json j = json::parse(prompt_json, nullptr, false);
  ok = j.is_array();
  if (!ok) return m;
  for (const json& x : j) {
    if (!x.is_object() || !x.contains("role") || !x.contains("content") || !x["role"].is_string() ||
        !x["content"].is_string()) {
      ok = false;
      return {};
    }
    m.push_back({x["role"].get<std::string>(), x["content"].get<std::string>()});
  }
  return m;
}

// Whether a prompt as sent carries the expert example of one of `hidden` (gen/prompt.cpp renders each as
// "### Example: ID").
bool shows_hidden(const std::string& prompt_json, const std::set<std::string>& hidden) {
  for (const auto& id : hidden)
    if (prompt_json.find("### Example: " + id + "\\n") != std::string::npos) return true;
  return false;
}

// One row in the chosen layout.
json layout(const Row& r, const std::string& format) {
  json j;
  if (format == "chat") {
    j["messages"] = gen::messages_json(r.messages);
  } else if (format == "sharegpt") {
    json conv = json::array();
    for (const auto& m : r.messages) {
      if (m.role == "system") j["system"] = m.content;
      else conv.push_back({{"from", m.role == "assistant" ? "gpt" : "human"}, {"value", m.content}});
    }
    j["conversations"] = conv;
  } else {   // alpaca: the last user message is the instruction, earlier turns the history
    std::string system, instruction;
    json history = json::array();
    std::string pending_user;
    for (size_t i = 0; i + 1 < r.messages.size(); ++i) {
      const auto& m = r.messages[i];
      if (m.role == "system") system = m.content;
      else if (m.role == "user") pending_user = m.content;
      else if (m.role == "assistant") history.push_back({pending_user, m.content});
    }
    j["instruction"] = pending_user;
    j["input"] = "";
    j["output"] = r.messages.back().content;
    j["system"] = system;
    j["history"] = history;
  }
  j["kind"] = r.kind;
  j["provenance"] = r.provenance;
  return j;
}

}  // namespace

int export_rows(const ExportOptions& o, ExportSummary& s, std::string& err) {
  const std::set<std::string> formats{"chat", "sharegpt", "alpaca", "dpo"};
  if (!formats.count(o.format)) {
    err = fmt::format("--format {}: unknown (chat, sharegpt, alpaca for sft and repair rows; dpo for preference pairs)",
                      o.format);
    return 2;
  }
  std::set<std::string> kinds;
  for (std::stringstream ks(o.kinds); ks.good();) {
    std::string k;
    std::getline(ks, k, ',');
    if (k != "sft" && k != "repair") {
      err = fmt::format("--kinds {}: '{}' is not a kind (sft, repair; preference pairs are --format dpo)", o.kinds, k);
      return 2;
    }
    kinds.insert(k);
  }
  if (o.out.empty()) {
    err = "--out FILE is required (the JSON-lines file to write)";
    return 2;
  }
  std::error_code ec;
  if (!eval::Store::is_url(o.store) && !fs::is_regular_file(o.store, ec)) {
    err = fmt::format("--store {}: no such results store (kgen bench writes OUT/results.db)", o.store);
    return 2;
  }
  auto store = eval::Store::open(o.store, err);
  if (!store) return 2;
  std::string qerr;
  const std::vector<eval::EvalResult> results = store->all(&qerr);
  if (!qerr.empty()) {
    err = fmt::format("--store {}: {}", o.store, qerr);
    return 2;
  }
  const std::string suite = o.suite.empty() ? sandbox::paths().source_dir + "/tasks" : o.suite;

  std::vector<Row> rows;
  std::vector<Pair> pairs;
  std::set<std::string> seen;   // content digests of rows written: a rerun's duplicate records count once
  auto skip = [&](const std::string& why, int n = 1) { s.skipped[why] += n; };
  auto other_version = [](const std::string& v) {
    return fmt::format("judged by kgen {}, not this kgen {} (--any-version keeps them)", v, KGEN_VERSION);
  };
  auto too_big_or_bad = [&](const std::string& text) {   // counted as skipped when it is
    if (text.size() > o.max_reply_bytes) skip(fmt::format("reply over {} bytes", o.max_reply_bytes));
    else if (!sandbox::valid_utf8(text)) skip("reply not UTF-8");
    else return false;
    return true;
  };
  auto add = [&](Row r) {
    Digest d;
    for (const auto& m : r.messages) d.add(m.role).add(m.content);
    if (!seen.insert(r.kind + d.hex()).second) {
      skip("duplicate row");
      return;
    }
    ++s.rows[r.kind];
    rows.push_back(std::move(r));
  };

  std::set<std::string> task_ids;
  for (const auto& r : results) task_ids.insert(r.task_id);
  s.tasks = static_cast<int>(task_ids.size());

  // Correct results: the generation prompt -> the candidate that was judged correct, if it is still that candidate.
  if (o.format != "dpo" && kinds.count("sft"))
    for (const auto& r : results) {
      if (r.verdict != eval::Verdict::Correct) continue;
      if (!o.any_version && r.kgen_version != KGEN_VERSION) { skip(other_version(r.kgen_version)); continue; }
      gen::TaskInfo task{r.task_id, r.task_id.substr(0, r.task_id.find('/')), suite + "/" + r.task_id + ".py"};
      if (!fs::is_regular_file(task.path, ec)) { skip("task not in the suite"); continue; }
      if (eval::task_hash_of(task.path) != r.task_hash) { skip("task changed since it was evaluated"); continue; }
      if (!fs::exists(r.candidate, ec)) { skip("candidate no longer on disk"); continue; }
      if (eval::candidate_hash_of(r.candidate) != r.candidate_hash.substr(0, r.candidate_hash.find('@'))) {
        skip("candidate changed since it was evaluated");
        continue;
      }
      Row row;
      std::string reply;
      gen::Target target;
      if (!reply_of(r, reply, target)) { skip("candidate kind without a prompt target (" + r.candidate_kind + ")"); continue; }
      if (too_big_or_bad(reply)) continue;
      gen::PromptOptions po;
      po.target = target;
      po.soc = r.soc;
      po.hidden_examples = o.hidden_examples;
      std::string perr;
      if (!gen::initial_messages(task, po, row.messages, perr)) { skip("no prompt: " + perr.substr(0, 80)); continue; }
      row.messages.push_back({"assistant", reply});
      row.kind = "sft";
      row.provenance = provenance_of(r, "result", 0);
      row.provenance["candidate_kind"] = r.candidate_kind;
      add(std::move(row));
    }

  // Trajectories: each round's prompt, reply and verdict.
  for (const auto& id : task_ids) {
    std::vector<eval::Trajectory> ts = store->trajectories_for(id, &qerr);
    struct Round { std::string prompt, reply; json verdict; std::string hash; };
    std::map<std::pair<int, int>, Round> rounds;   // (sample, round): the latest records
    for (const auto& t : ts) {
      Round& rd = rounds[{t.sample, t.round}];
      if (t.kind == "prompt") rd.prompt = t.text;
      else if (t.kind == "response") rd.reply = t.text;
      else if (t.kind == "verdict") rd.verdict = json::parse(t.text, nullptr, false);
      if (!t.candidate_hash.empty()) rd.hash = t.candidate_hash;
    }
    const eval::EvalResult* any = nullptr;
    for (const auto& r : results)
      if (r.task_id == id) { any = &r; break; }
    if (any && !o.any_version && any->kgen_version != KGEN_VERSION) {
      skip(other_version(any->kgen_version) + " (trajectory rounds)", static_cast<int>(rounds.size()));
      continue;
    }
    struct Candidate { std::vector<gen::ChatMessage> prompt; std::string prompt_json, reply; bool correct; double speedup; int sample; };
    std::vector<Candidate> first_replies;
    for (const auto& [key, rd] : rounds) {
      const auto [sample, round] = key;
      if (rd.prompt.empty() || rd.reply.empty() || !rd.verdict.is_object()) { skip("trajectory round without prompt, reply or verdict"); continue; }
      if (too_big_or_bad(rd.reply)) continue;
      bool ok = false;
      std::vector<gen::ChatMessage> msgs = messages_of(rd.prompt, ok);
      if (!ok || msgs.empty()) { skip("trajectory prompt not a message list"); continue; }
      if (shows_hidden(rd.prompt, o.hidden_examples)) { skip("prompt shows a held-out task's solution"); continue; }
      const std::string verdict = rd.verdict.value("verdict", "");
      const double speedup = rd.verdict.value("speedup", 0.0);
      if (round == 0) first_replies.push_back({msgs, rd.prompt, rd.reply, verdict == "correct", speedup, sample});
      if (o.format == "dpo" || verdict != "correct") continue;
      const std::string kind = round == 0 ? "sft" : "repair";
      if (!kinds.count(kind)) continue;
      Row row;
      row.kind = kind;
      row.messages = msgs;
      row.messages.push_back({"assistant", rd.reply});
      row.provenance = {{"task_id", id}, {"task_hash", any ? any->task_hash : ""}, {"candidate_hash", rd.hash},
                        {"soc", any ? any->soc : ""}, {"kgen_version", any ? any->kgen_version : ""},
                        {"verdict", verdict}, {"speedup", speedup}, {"source", "trajectory"}, {"sample", sample},
                        {"round", round}};
      add(std::move(row));
    }
    // Preference pairs among round-0 replies to the same prompt: the fastest correct one against each wrong one and
    // each correct one slower by more than the margin.
    if (o.format == "dpo") {
      std::map<std::string, std::vector<const Candidate*>> by_prompt;
      for (const auto& c : first_replies) by_prompt[c.prompt_json].push_back(&c);
      for (const auto& [p, cs] : by_prompt) {
        const Candidate* best = nullptr;
        for (const Candidate* c : cs)
          if (c->correct && (!best || c->speedup > best->speedup)) best = c;
        if (!best) { skip("dpo: no correct reply to a prompt"); continue; }
        for (const Candidate* c : cs) {
          if (c == best || (c->correct && !(best->speedup > c->speedup * o.dpo_margin))) continue;
          if (c->reply == best->reply) continue;
          pairs.push_back({best->prompt, best->reply, c->reply,
                           {{"task_id", id}, {"soc", any ? any->soc : ""}, {"kgen_version", any ? any->kgen_version : ""},
                            {"chosen", {{"sample", best->sample}, {"speedup", best->speedup}}},
                            {"rejected", {{"sample", c->sample}, {"verdict", c->correct ? "correct" : "not correct"},
                                          {"speedup", c->speedup}}},
                            {"margin", o.dpo_margin}, {"source", "trajectory"}}});
          ++s.rows["dpo"];
        }
      }
    }
  }

  std::vector<json> lines;
  if (o.format == "dpo") {
    for (const Pair& p : pairs)
      lines.push_back({{"prompt", gen::messages_json(p.prompt)},
                       {"chosen", json::array({{{"role", "assistant"}, {"content", p.chosen}}})},
                       {"rejected", json::array({{{"role", "assistant"}, {"content", p.rejected}}})},
                       {"kind", "dpo"},
                       {"provenance", p.provenance}});
  } else {
    for (const Row& r : rows) lines.push_back(layout(r, o.format));
  }
  return write_jsonl(o.out, lines, err) ? 0 : 1;
}

std::string summary_text(const ExportOptions& o, const ExportSummary& s) {
  int total = 0;
  std::string kinds;
  for (const auto& [k, n] : s.rows) {
    total += n;
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, k);
  }
  std::string out = fmt::format("kgen data export: {} row(s) ({}) from {} task(s) of {} -> {} ({} layout)\n", total,
                                kinds.empty() ? "none" : kinds, s.tasks, o.store, o.out, o.format);
  for (const auto& [why, n] : s.skipped) out += fmt::format("  skipped {}: {}\n", n, why);
  return out;
}
}  // namespace kgen::data
