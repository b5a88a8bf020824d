// The expert library's programs as AscendC rows (compiled_rows.h).
#include "data/compiled_rows.h"

#include <filesystem>
#include <fmt/core.h>
#include <mutex>
#include <regex>

#include "base/parallel.h"
#include "eval/evaluate.h"
#include "eval/explain_run.h"
#include "gen/prompt.h"
#include "gen/reply.h"
#include "op/project.h"
#include "tile/compile.h"

namespace kgen::data {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// The kernel text with each `#include "kgen_*.h"` of a helper header in the project replaced by the header's text,
// once each (later includes of it dropped), helpers included by helpers too.
std::string inline_helpers(const std::string& text, const std::map<std::string, std::string>& files,
                           std::set<std::string>& done) {
  static const std::regex inc(R"re(#include "(kgen_\w+\.h)"[^\n]*\n)re");
  static const std::regex once(R"(#pragma once[^\n]*\n)");
  std::string out;
  std::smatch m;
  auto it = text.cbegin();
  for (; std::regex_search(it, text.cend(), m, inc); it = m[0].second) {
    out.append(it, m[0].first);
    const auto f = files.find("op_kernel/" + m[1].str());
    if (f == files.end()) {
      out += m[0].str();
    } else if (done.insert(m[1].str()).second) {
      out += "// ---- " + m[1].str() + " (kgen's tile helpers, inlined) ----\n" +
             inline_helpers(std::regex_replace(f->second, once, ""), files, done) + "// ---- end of " + m[1].str() +
             " ----\n";
    }
  }
  out.append(it, text.cend());
  return out;
}

std::string hash_part(const std::string& h) { return h.substr(0, h.find('@')); }

// One program's rows; "" skipped reason when kept. `reasoned` says whether the reasoning row was made.
std::string one(const eval::EvalResult& r, const eval::BenchTask& t, const std::set<std::string>& hidden,
                const std::string& soc, const std::string& work, json& sft, json& reasoning, std::string& no_reasoning) {
  if (!fs::exists(r.candidate) || eval::candidate_hash_of(r.candidate) != hash_part(r.candidate_hash))
    return "program changed since it was evaluated";
  eval::Explained ex;
  std::string e;
  bool reasoned = false;
  if (!r.perf.timed()) {
    no_reasoning = "the task has no perf shape";
  } else {
    const auto shapes = eval::perf_input_shapes(r.candidate, r.perf.inputs, e);
    reasoned = !shapes.empty() && eval::explain_program(r.candidate, soc, shapes, ex, e);
    if (!reasoned) no_reasoning = e.substr(0, 100);
  }
  if (!reasoned) {   // the op project alone
    const std::string text = op::read_text(r.candidate);
    tile::Diags d(r.candidate, &text);
    tile::CompileOptions co;
    co.soc = soc;
    tile::CompileResult c = tile::compile_program(r.candidate, text, co, d);
    if (!c.ok) return "the program no longer compiles";
    ex.files = c.files;
  }
  const std::string reply = ascendc_reply(ex.files);
  const gen::ParsedReply pr = gen::parse_reply(reply, gen::Target::AscendC, t.id.substr(t.id.rfind('/') + 1));
  std::string cand;
  const std::string dir = (fs::path(work) / t.id).string();
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (!pr.ok || !gen::write_candidate(pr, gen::Target::AscendC, dir, cand, e))
    return "the AscendC reply does not parse: " + (pr.ok ? e : pr.error).substr(0, 80);
  eval::EvalOptions eo;
  eo.task = t.path;
  eo.candidate = cand;
  eo.soc = soc;
  eo.trials = 1;
  eo.perf_shape = false;   // the program's speedup is the one stored; the reply is checked for correctness here
  const eval::EvalResult v = eval::evaluate(eo);
  if (v.verdict != eval::Verdict::Correct)
    return std::string("the AscendC reply is not correct as a candidate (") + eval::verdict_name(v.verdict) + ")";
  gen::PromptOptions po;
  po.target = gen::Target::AscendC;
  po.soc = soc;
  po.hidden_examples = hidden;
  std::vector<gen::ChatMessage> msgs;
  if (!gen::initial_messages({t.id, t.category, t.path}, po, msgs, e)) return "no prompt: " + e.substr(0, 80);
  const json prompt = gen::messages_json(msgs);
  json prov = {{"task_id", t.id},
               {"task_hash", r.task_hash},
               {"candidate_hash", eval::candidate_hash_of(cand)},
               {"program_hash", hash_part(r.candidate_hash)},
               {"soc", soc},
               {"kgen_version", v.kgen_version},
               {"verdict", "correct"},
               {"speedup", r.speedup},
               {"speedup_shape", r.perf.timed() ? "perf " + r.perf.shape : "check"},
               {"source", "compiled"},
               {"candidate_kind", "tile-compiled"}};
  sft = {{"messages", prompt}, {"kind", "sft"}, {"provenance", prov}};
  sft["messages"].push_back({{"role", "assistant"}, {"content", reply}});
  if (reasoned) {
    prov["source"] = "compiler-reasoning";
    prov["reasoning_shape"] = ex.shape;
    reasoning = {{"messages", prompt}, {"reasoning", ex.reasoning}, {"kind", "reasoning"}, {"provenance", prov}};
    reasoning["messages"].push_back(
        {{"role", "assistant"}, {"content", "<think>\n" + ex.reasoning + "</think>\n\n" + reply}});
  }
  return "";
}
}  // namespace

std::string ascendc_reply(const std::map<std::string, std::string>& files) {
  std::string tiling, host, kernel, tiling_path, host_path, kernel_path;
  for (const auto& [path, text] : files) {
    const bool header = path.size() > 2 && path.compare(path.size() - 2, 2, ".h") == 0;
    if (path.rfind("op_host/", 0) == 0 && header) tiling_path = path, tiling = text;
    else if (path.rfind("op_host/", 0) == 0) host_path = path, host = text;
    else if (path.rfind("op_kernel/", 0) == 0 && path.find("/kgen_") == std::string::npos) kernel_path = path, kernel = text;
  }
  std::set<std::string> done;
  kernel = inline_helpers(kernel, files, done);
  auto block = [](const std::string& path, std::string text) {
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return fmt::format("```cpp {}\n{}\n```", path, text);
  };
  return block(tiling_path, tiling) + "\n\n" + block(host_path, host) + "\n\n" + block(kernel_path, kernel);
}

CompiledRows compiled_rows(const std::vector<eval::EvalResult>& results,
                           const std::map<std::string, const eval::BenchTask*>& tasks,
                           const std::set<std::string>& hidden, const std::string& soc, int jobs,
                           const std::string& work) {
  CompiledRows out;
  std::vector<json> sft(results.size()), reasoning(results.size());
  std::mutex mu;
  kgen::parallel_for(results.size(), jobs, [&](size_t i) {
    std::string no_reasoning;
    const std::string why = one(results[i], *tasks.at(results[i].task_id), hidden, soc, work, sft[i], reasoning[i],
                                no_reasoning);
    std::lock_guard<std::mutex> lock(mu);
    if (!why.empty()) ++out.skipped["compiled: " + why];
    if (!no_reasoning.empty()) ++out.skipped["reasoning: " + no_reasoning];
  });
  for (size_t i = 0; i < results.size(); ++i) {
    if (!sft[i].is_null()) out.sft.push_back(std::move(sft[i]));
    if (!reasoning[i].is_null()) out.reasoning.push_back(std::move(reasoning[i]));
  }
  return out;
}
}  // namespace kgen::data
