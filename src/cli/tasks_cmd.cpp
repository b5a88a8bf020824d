// `kgen tasks list [--suite DIR] [--json] [--filter S]` and `kgen tasks check [--suite DIR] [--filter S] [--json]`.
// Discovery, loading and the per-case checks live in python/kgen_eval/tasks.py (run as a script with
// /usr/bin/python3); this file runs it, then prints the table and the category x level counts.
#include "cli/tasks_cmd.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <fmt/core.h>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli/python_hint.h"
#include "sandbox/paths.h"
#include "sandbox/process.h"

namespace kgen::cli {
using sandbox::paths;
using sandbox::Paths;
namespace {
struct TasksOpts {
  std::string suite, filter, python = "/usr/bin/python3";
  bool json = false;
  double timeout_s = 600;
  double max_forward_s = 1.0;
};

std::string script_path() { return paths().source_dir + "/python/kgen_eval/tasks.py"; }

// Runs tasks.py; returns false (after printing why) when it could not produce JSON.
bool run_script(const TasksOpts& o, const std::string& cmd, nlohmann::json& out, int& status) {
  if (!std::filesystem::is_directory(o.suite)) {
    std::cerr << "kgen tasks: no suite folder " << o.suite << "\n";
    status = 2;
    return false;
  }
  namespace fs = std::filesystem;
  fs::path tmp = fs::temp_directory_path() / fmt::format("kgen-tasks-{}.json", getpid());
  std::vector<std::string> argv = {o.python, script_path(), cmd, "--suite", o.suite, "--json", "--out", tmp.string()};
  if (!o.filter.empty()) { argv.push_back("--filter"); argv.push_back(o.filter); }
  if (cmd == "check") { argv.push_back("--max-forward-s"); argv.push_back(fmt::format("{}", o.max_forward_s)); }
  sandbox::Result pr = sandbox::run(argv, o.timeout_s);
  status = pr.status;
  std::string text;
  {
    std::ifstream in(tmp);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  std::error_code ec;
  fs::remove(tmp, ec);
  if (pr.timed_out || text.empty()) {
    std::cerr << "kgen tasks: " << o.python << " " << script_path() << " " << cmd << " failed"
              << (pr.timed_out ? " (timed out)" : "") << ", status " << pr.status << ":\n" << pr.out
              << python_failure_hint(pr.out);
    status = 2;
    return false;
  }
  try {
    out = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    std::cerr << "kgen tasks: cannot read the output of tasks.py: " << e.what() << "\n" << pr.out;
    status = 2;
    return false;
  }
  return true;
}

std::string join(const nlohmann::json& a, const char* sep) {
  std::string s;
  for (const auto& v : a) s += (s.empty() ? "" : sep) + v.get<std::string>();
  return s;
}

void print_counts(const nlohmann::json& tasks) {
  std::map<std::string, std::map<int, int>> counts;
  std::set<int> levels;
  std::map<int, int> per_level;
  for (const auto& t : tasks) {
    int lv = t["level"].get<int>();
    counts[t["category"].get<std::string>()][lv]++;
    levels.insert(lv);
    per_level[lv]++;
  }
  fmt::print("\n{:<16}", "category");
  for (int lv : levels) fmt::print(" {:>6}", fmt::format("L{}", lv));
  fmt::print(" {:>6}\n", "total");
  for (const auto& [cat, m] : counts) {
    int tot = 0;
    fmt::print("{:<16}", cat);
    for (int lv : levels) {
      auto it = m.find(lv);
      int n = it == m.end() ? 0 : it->second;
      tot += n;
      fmt::print(" {:>6}", n ? std::to_string(n) : "-");
    }
    fmt::print(" {:>6}\n", tot);
  }
  fmt::print("{:<16}", "total");
  for (int lv : levels) fmt::print(" {:>6}", per_level[lv]);
  fmt::print(" {:>6}\n", tasks.size());
}

// No task at all is an error, not an empty table: a wrong --suite or a --filter that matches nothing.
bool none_found(const TasksOpts& o, const nlohmann::json& tasks) {
  if (!tasks.empty()) return false;
  std::cerr << "kgen tasks: no task in " << o.suite
            << (o.filter.empty() ? " — is it a kgen tasks/ folder, a KernelBench checkout (KernelBench/levelN), a "
                                   "MultiKernelBench reference/ tree or an NPUKernelBench checkout (tasks/levelN/"
                                   "<Category>/<Op>/validation)?"
                                 : " matches --filter '" + o.filter + "' (ids are CATEGORY/NAME; without --filter "
                                   "`kgen tasks list` shows them)")
            << "\n";
  return true;
}

int do_list(const TasksOpts& o) {
  nlohmann::json tasks;
  int status = 0;
  if (!run_script(o, "list", tasks, status)) return status ? status : 2;
  if (o.json) {
    std::cout << tasks.dump(1) << "\n";
    return none_found(o, tasks) ? 1 : 0;
  }
  if (none_found(o, tasks)) return 1;
  size_t w = 20;
  for (const auto& t : tasks) w = std::max(w, t["id"].get<std::string>().size());
  fmt::print("{:<{}} {:>5} {:>5}  {:<16} {:<24} {}\n", "id", w, "level", "cases", "source", "dtypes", "perf shape");
  size_t problems = 0, with_perf = 0, folders = 0;
  for (const auto& t : tasks) {
    const bool perf = t.contains("perf") && t["perf"].is_object();
    with_perf += perf;
    folders += std::filesystem::is_directory(t["path"].get<std::string>());   // NPUKernelBench task folders
    fmt::print("{:<{}} {:>5} {:>5}  {:<16} {:<24} {}\n", t["id"].get<std::string>(), w, t["level"].get<int>(),
               t["cases"].size(), t["source"].get<std::string>(), join(t["dtypes"], ","),
               perf ? t["perf"]["name"].get<std::string>() : "-");
    problems += t["problems"].size();
  }
  print_counts(tasks);
  if (folders < tasks.size())
    fmt::print("\n{} of {} tasks have a perf shape (PERF: timed timing-only at the benchmark's size; the others' "
               "speedups are taken at their check shapes)\n", with_perf, tasks.size() - folders);
  if (folders)
    fmt::print("\n{} NPUKernelBench task folders: every row of validation/test_cases.csv is a case, the first one "
               "timed (the benchmark's own sizes)\n", folders);
  if (problems) fmt::print("\n{} problem(s) found while reading the files: run `kgen tasks check`\n", problems);
  return 0;
}

int do_check(const TasksOpts& o) {
  nlohmann::json results;
  int status = 0;
  if (!run_script(o, "check", results, status)) return status ? status : 2;
  if (none_found(o, results)) {
    if (o.json) std::cout << results.dump(1) << "\n";
    return 1;
  }
  if (o.json) {
    std::cout << results.dump(1) << "\n";
    return status == 0 ? 0 : 1;
  }
  size_t bad = 0, cases = 0, upcast = 0, perf = 0;
  double slowest = 0;
  std::string slowest_id;
  for (const auto& r : results) {
    for (const auto& c : r["cases"]) {
      ++cases;
      upcast += c.value("upcast", false) ? 1 : 0;
      if (c["forward_s"].is_number() && c["forward_s"].get<double>() > slowest) {
        slowest = c["forward_s"].get<double>();
        slowest_id = r["id"].get<std::string>() + " [" + c["name"].get<std::string>() + "]";
      }
    }
    perf += r.contains("perf") && r["perf"].is_object();
    if (r["problems"].empty()) continue;
    ++bad;
    fmt::print("{}:\n", r["id"].get<std::string>());
    for (const auto& p : r["problems"]) fmt::print("  {}\n", p.get<std::string>());
  }
  fmt::print("{} tasks, {} cases checked ({} low-precision cases computed in fp32 and rounded), {} perf shapes run "
             "on FakeTensors; {} with problems\n",
             results.size(), cases, upcast, perf, bad);
  if (!slowest_id.empty()) fmt::print("slowest forward: {:.1f} ms ({})\n", slowest * 1e3, slowest_id);
  return bad ? 1 : 0;
}
}  // namespace

CLI::App* add_tasks_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<TasksOpts>();
  o->suite = paths().source_dir + "/tasks";
  auto* t = app.add_subcommand("tasks", "The benchmark task suite (tasks/, KernelBench, MultiKernelBench or NPUKernelBench folders)");
  t->require_subcommand(1);
  auto* list = t->add_subcommand("list", "List the tasks: id, level, cases, dtypes, then counts per category x level");
  list->add_option("--suite", o->suite, "Suite folder: kgen tasks/, a KernelBench or NPUKernelBench checkout, or an MKB reference/ tree")
      ->capture_default_str();
  list->add_option("--filter", o->filter, "Only tasks whose id contains this text");
  list->add_flag("--json", o->json, "Print the tasks as JSON (id, category, level, path, source, cases, dtypes)");
  list->callback([o, &exit_code] { exit_code = do_list(*o); });
  auto* check = t->add_subcommand("check", "Run every case of every task on the CPU: loads, finite, deterministic, fast");
  check->add_option("--suite", o->suite, "Suite folder")->capture_default_str();
  check->add_option("--filter", o->filter, "Only tasks whose id contains this text");
  check->add_option("--max-forward-s", o->max_forward_s, "Longest CPU forward allowed per case, seconds")
      ->capture_default_str();
  check->add_flag("--json", o->json, "Print the per-case results as JSON");
  check->callback([o, &exit_code] { exit_code = do_check(*o); });
  return t;
}
}  // namespace kgen::cli
