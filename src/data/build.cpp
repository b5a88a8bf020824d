// The whole dataset, split by task, with its card (build.h). One function, its steps in order; each step's rows are
// made by its own module (splits, export, compiled_rows, mutate, rl_rows, card).
#include "data/build.h"

#include <chrono>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <iostream>
#include <mutex>

#include "data/compiled_rows.h"
#include "data/export.h"
#include "data/jsonl.h"
#include "data/mutate.h"
#include "data/parquet.h"
#include "data/rl_rows.h"
#include "data/splits.h"
#include "eval/store.h"
#include "sandbox/paths.h"

namespace kgen::data {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> read_jsonl(const std::string& path) {
  std::vector<json> rows;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (!line.empty()) rows.push_back(json::parse(line, nullptr, false));
  return rows;
}

std::string task_of(const json& row) {
  if (row.contains("provenance") && row["provenance"].is_object()) return row["provenance"].value("task_id", "");
  return row.value("task_id", "");
}

// The expert library evaluated (kgen bench --generator expert, one trial, perf shapes timed) into DIR: its store.
bool expert_store(const BuildOptions& o, const std::string& suite, const std::string& dir, std::string& store,
                  std::string& err) {
  eval::BenchOptions b;
  b.suite = suite;
  b.generator = "expert";
  b.filter = o.filter;
  b.out = dir;
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
  std::cerr << "kgen data build: evaluating the expert library (" << dir << ")\n";
  if (!eval::run_bench(b, run, err)) return false;
  store = run.store_path;
  return true;
}

// Correct tile programs of the stores (judged by this kgen unless any_version), the first sample of each task.
bool correct_programs(const std::vector<std::string>& stores, const std::map<std::string, const eval::BenchTask*>& tasks,
                      bool any_version, std::vector<eval::EvalResult>& out, std::string& err) {
  std::map<std::string, eval::EvalResult> by_task;
  for (const auto& path : stores) {
    auto store = eval::Store::open(path, err);
    if (!store) return false;
    for (auto& r : store->all(nullptr))
      if (r.verdict == eval::Verdict::Correct && r.candidate_kind == "tile" && tasks.count(r.task_id) &&
          (any_version || r.kgen_version == KGEN_VERSION) &&
          (!by_task.count(r.task_id) || r.sample < by_task[r.task_id].sample))
        by_task[r.task_id] = r;
  }
  for (auto& [id, r] : by_task) out.push_back(std::move(r));
  return true;
}
}  // namespace

int build_dataset(const BuildOptions& o, BuildSummary& card, std::string& err) {
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
  Splits splits;
  if (!split_tasks(tasks, o.hold_out, o.validation, o.seed, splits, err)) return 2;
  for (const auto& n : splits.notes) std::cerr << "kgen data build: note: " << n << "\n";
  const fs::path out(o.out), work = out / "work";
  std::error_code ec;
  fs::create_directories(work, ec);
  if (ec) {
    err = fmt::format("--out {}: cannot create it: {}", o.out, ec.message());
    return 1;
  }
  std::map<std::string, std::vector<json>> rows;   // kind -> rows of any split
  auto skipped = [&](const std::map<std::string, int>& m, const std::string& prefix) {
    for (const auto& [why, n] : m) card.skipped[prefix + why] += n;
  };

  // 1. Results stores (the expert library's unless given): sft, repair and dpo rows as `kgen data export` makes them.
  std::vector<std::string> stores = o.stores;
  if (stores.empty()) {
    std::string store;
    if (!expert_store(o, suite, (work / "expert").string(), store, err)) return 1;
    stores.push_back(store);
  }
  for (size_t i = 0; i < stores.size(); ++i)
    for (const char* format : {"chat", "dpo"}) {
      ExportOptions e;
      e.store = stores[i];
      e.format = format;
      e.suite = suite;
      e.hidden_examples = splits.hidden;
      e.any_version = o.any_version;
      e.out = (work / fmt::format("export-{}-{}.jsonl", i, format)).string();
      ExportSummary es;
      if (int rc = export_rows(e, es, err)) return rc;
      skipped(es.skipped, "export: ");
      for (auto& r : read_jsonl(e.out))
        if (by_id.count(task_of(r))) rows[r.value("kind", "")].push_back(std::move(r));
    }

  // 2. The correct tile programs as AscendC: sft and reasoning rows, each reply evaluated again.
  std::vector<eval::EvalResult> programs;
  if (!correct_programs(stores, by_id, o.any_version, programs, err)) return 1;
  std::cerr << fmt::format("kgen data build: {} correct tile program(s) to AscendC\n", programs.size());
  CompiledRows compiled = compiled_rows(programs, by_id, splits.hidden, o.soc, o.jobs, (work / "compiled").string());
  skipped(compiled.skipped, "");
  for (auto& r : compiled.sft) rows["sft"].push_back(std::move(r));
  for (auto& r : compiled.reasoning) rows["reasoning"].push_back(std::move(r));

  // 3. Error-fix rows: kgen data mutate over the candidate folders.
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
      for (const auto& [f, c] : ms.by_fault) {
        if (c.unflagged) card.skipped["error-fix: mutant kgen did not flag (" + f + ")"] += c.unflagged;
        DatasetCard::Mutants& m = card.mutants[f];
        m.made += c.made, m.flagged += c.flagged, m.exported += c.exported, m.unflagged += c.unflagged;
      }
      for (auto& r : read_jsonl(m.out))
        if (by_id.count(task_of(r))) rows["error-fix"].push_back(std::move(r));
    }
  }

  // 4. RL prompt rows, per task and target.
  RlRows rl = rl_rows(tasks, splits, o.soc, fs::path(suite).filename().string());
  skipped(rl.skipped, "");

  // 5. Each kind's rows into its task's split; the card.
  for (const char* sp : kSplitNames) {
    fs::remove_all(out / sp, ec);
    fs::create_directories(out / sp, ec);
    card.task_ids[sp] = {};
  }
  for (const auto& [id, sp] : splits.of) card.task_ids[sp].push_back(id);
  const std::map<std::string, std::string> file_of = {{"sft", "sft.jsonl"},         {"repair", "repair.jsonl"},
                                                      {"dpo", "dpo.jsonl"},         {"reasoning", "reasoning.jsonl"},
                                                      {"error-fix", "error_fix.jsonl"}};
  for (auto& [kind, list] : rows) {
    std::map<std::string, std::vector<json>> parts;
    for (auto& r : list) {
      const eval::BenchTask& t = *by_id.at(task_of(r));
      card.count(kind, r, t.category, t.level);
      parts[splits.of.at(t.id)].push_back(std::move(r));
    }
    const auto f = file_of.find(kind);
    for (const char* sp : kSplitNames) {
      card.rows[sp][kind] = static_cast<int>(parts[sp].size());
      if (!write_jsonl((out / sp / (f == file_of.end() ? kind + ".jsonl" : f->second)).string(), parts[sp], err))
        return 1;
    }
  }
  for (const char* sp : kSplitNames) {
    for (const auto& r : rl.verl[sp]) {
      const eval::BenchTask& t = *by_id.at(r["extra_info"]["task_id"].get<std::string>());
      card.count("rl", r, t.category, t.level);
    }
    card.rows[sp]["rl"] = static_cast<int>(rl.verl[sp].size());
    if (!write_jsonl((out / sp / "rl.jsonl").string(), rl.verl[sp], err) ||
        !write_jsonl((out / sp / "trl_prompts.jsonl").string(), rl.trl[sp], err) ||
        (!rl.verl[sp].empty() && !write_parquet((out / sp / "rl.parquet").string(), verl_schema(), rl.verl[sp], err)))
      return 1;
  }
  card.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  card.settings = {{"kgen_version", KGEN_VERSION}, {"suite", suite},       {"soc", o.soc},
                   {"seed", o.seed},               {"validation", o.validation}, {"hold_out", o.hold_out},
                   {"stores", stores}};
  if (!write_whole((out / "card.json").string(), card_json(card).dump(2) + "\n", err) ||
      !write_whole((out / "README.md").string(), card_markdown(card), err))
    return 1;
  return 0;
}

std::string build_summary_text(const BuildOptions& o, const BuildSummary& s) {
  std::string t = fmt::format("kgen data build: {} in {:.0f} s (card: {}/README.md)\n", o.out, s.seconds, o.out);
  for (const char* sp : kSplitNames) {
    std::string kinds;
    if (auto it = s.rows.find(sp); it != s.rows.end())
      for (const auto& [k, n] : it->second) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, k);
    const auto tk = s.task_ids.find(sp);
    t += fmt::format("  {}: {} task(s); {}\n", sp, tk == s.task_ids.end() ? 0 : tk->second.size(),
                     kinds.empty() ? "no rows" : kinds);
  }
  for (const auto& [why, n] : s.skipped) t += fmt::format("  not exported {}: {}\n", n, why);
  return t;
}
}  // namespace kgen::data
