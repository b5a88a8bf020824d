// The whole dataset, split by task, with its card (build.h).
#include "data/build.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/core.h>
#include <fmt/ranges.h>
#include <fstream>
#include <iostream>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/parallel.h"
#include "data/export.h"
#include "data/jsonl.h"
#include "data/mutate.h"
#include "data/parquet.h"
#include "eval/bench.h"
#include "eval/evaluate.h"
#include "eval/explain_run.h"
#include "eval/store.h"
#include "gen/compact_reference.h"
#include "gen/prompt.h"
#include "gen/reply.h"
#include "op/project.h"
#include "sandbox/digest.h"
#include "sandbox/paths.h"
#include "tile/compile.h"

namespace kgen::data {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const char* const kSplits[] = {"train", "validation", "test"};
const std::set<std::string> kBenchmarks = {"kernelbench", "multikernelbench", "npukernelbench"};

std::vector<json> read_jsonl(const std::string& path) {
  std::vector<json> rows;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (!line.empty()) rows.push_back(json::parse(line, nullptr, false));
  return rows;
}

// Whether a task file cites a benchmark (its perf shape's source, its origin): the hold-out by benchmark name.
bool cites(const std::string& text, const std::string& bench) {
  static const std::regex kb(R"((?:^|[^A-Za-z])KernelBench)");
  if (bench == "kernelbench") return std::regex_search(text, kb);
  if (bench == "multikernelbench") return text.find("MultiKernelBench") != std::string::npos;
  return text.find("NPUKernelBench") != std::string::npos;
}

std::string task_of(const json& row) {
  if (row.contains("provenance") && row["provenance"].is_object()) return row["provenance"].value("task_id", "");
  if (row.contains("extra_info") && row["extra_info"].is_object()) return row["extra_info"].value("task_id", "");
  return row.value("task_id", "");
}

// The kernel text with each `#include "kgen_*.h"` of a helper header in the project replaced by the header's text,
// once each (later includes of it dropped), helpers included by helpers too.
std::string inline_helpers(const std::string& text, const std::map<std::string, std::string>& files,
                           std::set<std::string>& done) {
  static const std::regex inc(R"re(#include "(kgen_\w+\.h)"[^\n]*\n)re");
  std::string out;
  std::smatch m;
  auto it = text.cbegin();
  for (; std::regex_search(it, text.cend(), m, inc); it = m[0].second) {
    out.append(it, m[0].first);
    const auto f = files.find("op_kernel/" + m[1].str());
    if (f == files.end()) {
      out += m[0].str();
    } else if (done.insert(m[1].str()).second) {
      const std::string body = std::regex_replace(f->second, std::regex(R"(#pragma once[^\n]*\n)"), "");
      out += "// ---- " + m[1].str() + " (kgen's tile helpers, inlined) ----\n" + inline_helpers(body, files, done) +
             "// ---- end of " + m[1].str() + " ----\n";
    }
  }
  out.append(it, text.cend());
  return out;
}

// An op project as one AscendC reply (prompts/format_ascendc.md): the tiling header, the host file and the kernel
// file, the kernel's helper headers (kgen_tile.h, ...) written into it where it includes them.
std::string ascendc_reply(const std::map<std::string, std::string>& files) {
  std::string tiling, host, kernel, tiling_path, host_path, kernel_path;
  for (const auto& [path, text] : files) {
    if (path.rfind("op_host/", 0) == 0 && path.size() > 2 && path.compare(path.size() - 2, 2, ".h") == 0)
      tiling_path = path, tiling = text;
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

json verl_schema_row(const std::vector<gen::ChatMessage>& msgs, const std::string& target, const eval::BenchTask& t,
                     const std::string& split, int index, const std::string& soc, const std::string& suite_name) {
  json prompt = json::array();
  for (const auto& m : msgs) prompt.push_back({{"role", m.role}, {"content", m.content}});
  return {{"data_source", "kgen/" + suite_name},
          {"prompt", prompt},
          {"ability", target == "tile" ? "tile-kernel" : "ascendc-kernel"},
          {"reward_model", {{"style", "rule"}, {"ground_truth", target + ":" + t.id}}},
          {"extra_info", {{"split", split}, {"index", index}, {"task_id", t.id}, {"category", t.category},
                          {"level", t.level}, {"target", target}, {"soc", soc},
                          {"task_hash", eval::task_hash_of(t.path)}, {"kgen_version", KGEN_VERSION}}}};
}

std::vector<ParquetField> verl_schema() {
  using F = ParquetField;
  auto str = [](const char* n) { return F{F::String, n, {}}; };
  auto i64 = [](const char* n) { return F{F::Int64, n, {}}; };
  return {str("data_source"),
          F{F::List, "prompt", {F{F::Struct, "element", {str("role"), str("content")}}}},
          str("ability"),
          F{F::Struct, "reward_model", {str("style"), str("ground_truth")}},
          F{F::Struct, "extra_info",
            {str("split"), i64("index"), str("task_id"), str("category"), i64("level"), str("target"), str("soc"),
             str("task_hash"), str("kgen_version")}}};
}

// The text a model reads or writes in a row (every string but the provenance), for its token length.
size_t text_chars(const json& j) {
  if (j.is_string()) return j.get_ref<const std::string&>().size();
  size_t n = 0;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "provenance" && it.key() != "extra_info") n += text_chars(it.value());
  } else if (j.is_array()) {
    for (const auto& x : j) n += text_chars(x);
  }
  return n;
}

const char* bucket(size_t tokens) {
  static const std::pair<size_t, const char*> b[] = {{512, "<512"},     {1024, "512-1k"},  {2048, "1k-2k"},
                                                     {4096, "2k-4k"},   {8192, "4k-8k"},   {16384, "8k-16k"},
                                                     {32768, "16k-32k"}};
  for (const auto& [lim, name] : b)
    if (tokens < lim) return name;
  return ">=32k";
}
}  // namespace

int build_dataset(const BuildOptions& o, BuildSummary& s, std::string& err) {
  const auto t0 = std::chrono::steady_clock::now();
  if (o.out.empty()) {
    err = "--out DIR is required (the dataset folder)";
    return 2;
  }
  if (!(o.validation >= 0 && o.validation < 1)) {
    err = fmt::format("--validation {}: give a fraction in [0, 1)", o.validation);
    return 2;
  }
  const std::string src = sandbox::paths().source_dir;
  const std::string suite = o.suite.empty() ? src + "/tasks" : o.suite;
  std::vector<eval::BenchTask> tasks;
  if (!eval::list_suite(suite, o.filter, "/usr/bin/python3", tasks, err)) return 2;
  if (tasks.empty()) {
    err = fmt::format("no task in {}{}", suite, o.filter.empty() ? "" : " matches --filter " + o.filter);
    return 2;
  }
  std::map<std::string, const eval::BenchTask*> by_id;
  for (const auto& t : tasks) by_id[t.id] = &t;

  // --- splits, by task ---
  std::map<std::string, std::string> split;   // task id -> split
  std::vector<const eval::BenchTask*> rest;
  for (const auto& h : o.hold_out)
    if (h.empty()) {
      err = "--hold-out needs a benchmark name (kernelbench, multikernelbench, npukernelbench) or a task id prefix";
      return 2;
    }
  std::map<std::string, int> held_by;   // each --hold-out: tasks it held out
  for (const auto& t : tasks) {
    const std::string text = op::read_text(t.path);
    bool held = false;
    for (const auto& h : o.hold_out) {
      std::string lower = h;
      std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
      const bool hit = kBenchmarks.count(lower) ? cites(text, lower) : t.id.rfind(h, 0) == 0;
      if (hit) ++held_by[h];
      held = held || hit;
    }
    if (held) split[t.id] = "test";
    else rest.push_back(&t);
  }
  for (const auto& h : o.hold_out)
    if (!held_by.count(h) && !kBenchmarks.count(h))
      std::cerr << "kgen data build: note: --hold-out " << h << " matches no task\n";
  std::vector<std::pair<std::string, const eval::BenchTask*>> order;
  for (const auto* t : rest) {
    Digest d;
    d.add(std::to_string(o.seed)).add(t->id);
    order.push_back({d.hex(), t});
  }
  std::sort(order.begin(), order.end());
  const size_t n_val = static_cast<size_t>(std::llround(o.validation * static_cast<double>(order.size())));
  for (size_t i = 0; i < order.size(); ++i) split[order[i].second->id] = i < n_val ? "validation" : "train";
  std::set<std::string> hidden;   // no prompt shows these tasks' solutions
  for (const auto& [id, sp] : split)
    if (sp != "train") hidden.insert(id);
  for (const auto& [id, sp] : split) ++s.tasks[sp];

  const fs::path out(o.out), work = fs::path(o.out) / "work";
  std::error_code ec;
  fs::create_directories(work, ec);
  if (ec) {
    err = fmt::format("--out {}: cannot create it: {}", o.out, ec.message());
    return 1;
  }
  std::map<std::string, std::vector<json>> rows;   // kind -> rows (any split)
  auto skip = [&](const std::string& why, int n = 1) { s.skipped[why] += n; };

  // --- results stores: the expert library's bench unless given ---
  std::vector<std::string> stores = o.stores;
  if (stores.empty()) {
    eval::BenchOptions b;
    b.suite = suite;
    b.generator = "expert";
    b.filter = o.filter;
    b.out = (work / "expert").string();
    b.jobs = o.jobs;
    b.eval.soc = o.soc;
    b.eval.trials = 1;
    std::mutex m;
    b.progress = [&](const eval::BenchProgress& p) {
      std::lock_guard<std::mutex> lock(m);
      if (p.finished && (p.done % 10 == 0 || p.done == p.total))
        std::cerr << fmt::format("kgen data build: expert library {}/{} evaluated\n", p.done, p.total);
    };
    eval::BenchRun run;
    std::cerr << "kgen data build: evaluating the expert library (" << b.out << ")\n";
    if (!eval::run_bench(b, run, err)) return 1;
    stores.push_back(run.store_path);
  }
  for (size_t i = 0; i < stores.size(); ++i) {
    for (const char* format : {"chat", "dpo"}) {
      ExportOptions e;
      e.store = stores[i];
      e.format = format;
      e.suite = suite;
      e.hidden_examples = hidden;
      e.out = (work / fmt::format("export-{}-{}.jsonl", i, format)).string();
      ExportSummary es;
      if (int rc = export_rows(e, es, err)) return rc;
      for (const auto& [why, n] : es.skipped) skip("export: " + why, n);
      for (auto& r : read_jsonl(e.out)) {
        if (!by_id.count(task_of(r))) continue;   // --filter
        const std::string kind = r.value("kind", "");
        rows[kind].push_back(std::move(r));
      }
    }
  }

  // --- correct expert tile programs: their op project as an AscendC reply, re-evaluated; the compiler's reasoning ---
  std::vector<eval::EvalResult> tile_results;
  for (const auto& path : stores) {
    auto store = eval::Store::open(path, err);
    if (!store) return 1;
    for (auto& r : store->all(nullptr))
      if (r.verdict == eval::Verdict::Correct && r.candidate_kind == "tile" && by_id.count(r.task_id))
        tile_results.push_back(r);
  }
  std::sort(tile_results.begin(), tile_results.end(),
            [](const auto& a, const auto& b) { return std::tie(a.task_id, a.sample) < std::tie(b.task_id, b.sample); });
  tile_results.erase(std::unique(tile_results.begin(), tile_results.end(),
                                 [](const auto& a, const auto& b) { return a.task_id == b.task_id; }),
                     tile_results.end());   // one program per task
  std::mutex mu;
  std::vector<std::pair<json, json>> compiled(tile_results.size());   // (sft row, reasoning row)
  kgen::parallel_for(tile_results.size(), o.jobs, [&](size_t i) {
    const eval::EvalResult& r = tile_results[i];
    auto fail = [&](const std::string& why) {
      std::lock_guard<std::mutex> lock(mu);
      skip(why);
    };
    if (!fs::exists(r.candidate) || eval::candidate_hash_of(r.candidate) != r.candidate_hash.substr(0, r.candidate_hash.find('@')))
      return fail("compiled: program changed since it was evaluated");
    const eval::BenchTask& t = *by_id.at(r.task_id);
    eval::Explained ex;
    std::string e;
    bool reasoned = false;
    if (r.perf.timed()) {
      const auto shapes = eval::perf_input_shapes(r.candidate, r.perf.inputs, e);
      reasoned = !shapes.empty() && eval::explain_program(r.candidate, o.soc, shapes, ex, e);
      if (!reasoned) fail("reasoning: " + e.substr(0, 100));
    } else {
      fail("reasoning: the task has no perf shape");
    }
    if (!reasoned) {   // the op project alone
      const std::string text = op::read_text(r.candidate);
      tile::Diags d(r.candidate, &text);
      tile::CompileOptions co;
      co.soc = o.soc;
      tile::CompileResult c = tile::compile_program(r.candidate, text, co, d);
      if (!c.ok) return fail("compiled: the program no longer compiles");
      ex.files = c.files;
    }
    const std::string reply = ascendc_reply(ex.files);
    const std::string op = t.id.substr(t.id.rfind('/') + 1);
    gen::ParsedReply pr = gen::parse_reply(reply, gen::Target::AscendC, op);
    std::string cand;
    const std::string dir = (work / "compiled" / t.id).string();
    fs::remove_all(dir, ec);
    if (!pr.ok || !gen::write_candidate(pr, gen::Target::AscendC, dir, cand, e))
      return fail("compiled: the AscendC reply does not parse: " + (pr.ok ? e : pr.error).substr(0, 80));
    eval::EvalOptions eo;
    eo.task = t.path;
    eo.candidate = cand;
    eo.soc = o.soc;
    eo.trials = 1;
    eo.perf_shape = false;
    const eval::EvalResult v = eval::evaluate(eo);
    if (v.verdict != eval::Verdict::Correct)
      return fail(std::string("compiled: the AscendC reply is not correct as a candidate (") +
                  eval::verdict_name(v.verdict) + ")");
    gen::PromptOptions po;
    po.target = gen::Target::AscendC;
    po.soc = o.soc;
    po.hidden_examples = hidden;
    std::vector<gen::ChatMessage> msgs;
    if (!gen::initial_messages({t.id, t.category, t.path}, po, msgs, e)) return fail("compiled: no prompt");
    json prompt = json::array();
    for (const auto& m : msgs) prompt.push_back({{"role", m.role}, {"content", m.content}});
    json prov = {{"task_id", t.id},
                 {"task_hash", r.task_hash},
                 {"candidate_hash", eval::candidate_hash_of(cand)},
                 {"program_hash", r.candidate_hash.substr(0, r.candidate_hash.find('@'))},
                 {"soc", o.soc},
                 {"kgen_version", KGEN_VERSION},
                 {"verdict", "correct"},
                 {"speedup", r.speedup},
                 {"speedup_shape", r.perf.timed() ? "perf " + r.perf.shape : "check"},
                 {"source", "compiled"},
                 {"candidate_kind", "tile-compiled"}};
    json sft = {{"messages", prompt}, {"kind", "sft"}, {"provenance", prov}};
    sft["messages"].push_back({{"role", "assistant"}, {"content", reply}});
    json reasoning;
    if (reasoned) {
      prov["source"] = "compiler-reasoning";
      prov["reasoning_shape"] = ex.shape;
      reasoning = {{"messages", prompt}, {"reasoning", ex.reasoning}, {"kind", "reasoning"}, {"provenance", prov}};
      reasoning["messages"].push_back(
          {{"role", "assistant"}, {"content", "<think>\n" + ex.reasoning + "</think>\n\n" + reply}});
    }
    compiled[i] = {sft, reasoning};
  });
  for (auto& [sft, reasoning] : compiled) {
    if (!sft.is_null()) rows["sft"].push_back(std::move(sft));
    if (!reasoning.is_null()) rows["reasoning"].push_back(std::move(reasoning));
  }

  // --- error-fix rows ---
  if (!o.no_mutate) {
    std::vector<std::string> dirs = o.mutate;
    if (dirs.empty()) dirs = {src + "/candidates", src + "/kernels"};
    for (size_t i = 0; i < dirs.size(); ++i) {
      MutateOptions m;
      m.candidates = dirs[i];
      m.suite = suite;
      m.filter = o.filter;
      m.jobs = o.jobs;
      m.soc = o.soc;
      m.out = (work / fmt::format("mutate-{}.jsonl", i)).string();
      MutateSummary ms;
      std::cerr << "kgen data build: mutating " << dirs[i] << "\n";
      if (int rc = mutate_rows(m, ms, err)) return rc;
      for (const auto& [f, c] : ms.by_fault)
        if (c.unflagged) skip("error-fix: mutant kgen did not flag (" + f + ")", c.unflagged);
      for (auto& r : read_jsonl(m.out))
        if (by_id.count(task_of(r))) rows["error-fix"].push_back(std::move(r));
    }
  }

  // --- RL prompt rows, per task and target ---
  std::map<std::string, std::vector<json>> verl, trl;   // by split
  const std::string suite_name = fs::path(suite).filename().string();
  for (const auto& t : tasks) {
    const std::string& sp = split[t.id];
    for (const auto& [target, gt] : {std::pair{std::string("tile"), gen::Target::Tile},
                                     std::pair{std::string("ascendc"), gen::Target::AscendC}}) {
      gen::PromptOptions po;
      po.target = gt;
      po.soc = o.soc;
      po.hidden_examples = hidden;
      std::vector<gen::ChatMessage> msgs;
      std::string e;
      if (!gen::initial_messages({t.id, t.category, t.path}, po, msgs, e)) {
        skip("rl: no prompt for " + target);
        continue;
      }
      json v = verl_schema_row(msgs, target, t, sp, static_cast<int>(verl[sp].size()), o.soc, suite_name);
      verl[sp].push_back(v);
      trl[sp].push_back({{"prompt", v["prompt"]}, {"label", target + ":" + t.id}, {"target", target},
                         {"task_id", t.id}, {"kind", "rl"}, {"provenance", v["extra_info"]}});
    }
  }

  // --- write, by split; the card ---
  json card = {{"kgen_version", KGEN_VERSION}, {"suite", suite}, {"soc", o.soc}, {"seed", o.seed},
               {"validation", o.validation}, {"hold_out", o.hold_out}, {"stores", stores}};
  json by_split = json::object(), tasks_json = json::object();
  std::map<std::string, std::map<std::string, std::map<std::string, int>>> facet;   // facet -> kind -> value -> n
  std::map<std::string, std::map<std::string, int>> hist;                            // kind -> bucket -> n
  for (const char* sp : kSplits) {
    fs::remove_all(out / sp, ec);
    fs::create_directories(out / sp, ec);
    std::vector<std::string> ids;
    for (const auto& [id, x] : split)
      if (x == sp) ids.push_back(id);
    tasks_json[sp] = ids;
  }
  std::map<std::string, std::string> file_of = {{"sft", "sft.jsonl"}, {"repair", "repair.jsonl"}, {"dpo", "dpo.jsonl"},
                                                {"reasoning", "reasoning.jsonl"}, {"error-fix", "error_fix.jsonl"}};
  for (auto& [kind, list] : rows) {
    std::map<std::string, std::vector<json>> parts;
    for (auto& r : list) {
      const std::string id = task_of(r);
      const auto it = split.find(id);
      if (it == split.end()) { skip("row of a task not in the suite"); continue; }
      const eval::BenchTask& t = *by_id.at(id);
      const json& p = r.contains("provenance") ? r["provenance"] : json::object();
      ++facet["category"][kind][t.category];
      ++facet["level"][kind][std::to_string(t.level)];
      ++facet["source"][kind][p.value("source", kind == "error-fix" ? "mutation" : "?")];
      if (kind == "error-fix") {
        ++facet["error class"][kind][p.value("fault", "?")];
        ++facet["verdict"][kind][p.value("verdict", "?") + (p.value("error_category", "").empty() ? "" : "/" + p.value("error_category", ""))];
      }
      ++hist[kind][bucket(gen::estimate_tokens(std::string(text_chars(r), ' ')))];
      parts[it->second].push_back(std::move(r));
    }
    const std::string name = file_of.count(kind) ? file_of[kind] : kind + ".jsonl";
    for (const char* sp : kSplits) {
      s.rows[sp][kind] = static_cast<int>(parts[sp].size());
      if (!write_jsonl((out / sp / name).string(), parts[sp], err)) return 1;
    }
  }
  for (const char* sp : kSplits) {
    for (const auto& r : verl[sp]) ++hist["rl"][bucket(gen::estimate_tokens(std::string(text_chars(r), ' ')))];
    s.rows[sp]["rl"] = static_cast<int>(verl[sp].size());
    if (!write_jsonl((out / sp / "rl.jsonl").string(), verl[sp], err)) return 1;
    if (!write_jsonl((out / sp / "trl_prompts.jsonl").string(), trl[sp], err)) return 1;
    if (!verl[sp].empty() && !write_parquet((out / sp / "rl.parquet").string(), verl_schema(), verl[sp], err)) return 1;
    by_split[sp] = s.rows[sp];
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  card["tasks"] = tasks_json;
  card["rows"] = by_split;
  card["facets"] = facet;
  card["token_histogram"] = hist;
  card["skipped"] = s.skipped;
  card["seconds"] = s.seconds;

  // README.md: the card as a human reads it.
  std::string md = fmt::format(
      "# kgen dataset\n\nBuilt by `kgen data build` (kgen {}) from {} on {}: every row backed by a verdict kgen "
      "computed itself (docs/data.md). Speedups are modeled ({}), not measured.\n\n## Splits (by task)\n\n"
      "| split | tasks |", KGEN_VERSION, suite, o.soc, o.soc);
  std::set<std::string> kinds;
  for (const auto& [sp, m] : s.rows)
    for (const auto& [k, n] : m) kinds.insert(k);
  for (const auto& k : kinds) md += " " + k + " |";
  md += "\n|---|---|";
  for (size_t i = 0; i < kinds.size(); ++i) md += "---|";
  md += "\n";
  for (const char* sp : kSplits) {
    md += fmt::format("| {} | {} |", sp, s.tasks[sp]);
    for (const auto& k : kinds) md += fmt::format(" {} |", s.rows[sp][k]);
    md += "\n";
  }
  md += fmt::format("\nHeld out (test): {}. Validation: {:g} % of the other tasks, chosen by a hash of the task id and "
                    "seed {}. No prompt in any split shows a validation or test task's solution as an example.\n",
                    o.hold_out.empty() ? std::string("none") : fmt::format("{}", fmt::join(o.hold_out, ", ")),
                    100 * o.validation, o.seed);
  for (const auto& [name, per_kind] : facet) {
    md += "\n## Rows by " + name + "\n\n";
    for (const auto& [kind, vals] : per_kind) {
      md += "- " + kind + ":";
      for (const auto& [v, n] : vals) md += fmt::format(" {} {};", v, n);
      md += "\n";
    }
  }
  md += "\n## Token lengths (estimated: 1 token per 3.5 characters of the row's text, provenance left out)\n\n";
  for (const auto& [kind, b] : hist) {
    md += "- " + kind + ":";
    for (const char* name : {"<512", "512-1k", "1k-2k", "2k-4k", "4k-8k", "8k-16k", "16k-32k", ">=32k"})
      if (b.count(name)) md += fmt::format(" {} {};", name, b.at(name));
    md += "\n";
  }
  if (!s.skipped.empty()) {
    md += "\n## Not exported\n\n";
    for (const auto& [why, n] : s.skipped) md += fmt::format("- {}: {}\n", why, n);
  }
  md += "\n## Files (per split folder)\n\n"
        "sft.jsonl, repair.jsonl, reasoning.jsonl (chat messages), dpo.jsonl (TRL preference pairs), error_fix.jsonl "
        "(error_code / error_message / fixed_code / explanation), rl.parquet and rl.jsonl (verl: data_source, prompt, "
        "ability, reward_model, extra_info), trl_prompts.jsonl (TRL: prompt, label).\n";
  if (!write_whole((out / "card.json").string(), card.dump(2) + "\n", err)) return 1;
  if (!write_whole((out / "README.md").string(), md, err)) return 1;
  return 0;
}

std::string build_summary_text(const BuildOptions& o, const BuildSummary& s) {
  std::string t = fmt::format("kgen data build: {} in {:.0f} s\n", o.out, s.seconds);
  for (const char* sp : kSplits) {
    auto it = s.rows.find(sp);
    std::string kinds;
    if (it != s.rows.end())
      for (const auto& [k, n] : it->second) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, k);
    const auto tk = s.tasks.find(sp);
    t += fmt::format("  {}: {} task(s); {}\n", sp, tk == s.tasks.end() ? 0 : tk->second, kinds.empty() ? "no rows" : kinds);
  }
  for (const auto& [why, n] : s.skipped) t += fmt::format("  not exported {}: {}\n", n, why);
  return t;
}
}  // namespace kgen::data
