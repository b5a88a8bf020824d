// `kgen bench`'s logic (see bench.h): suite x candidates, parallel evaluation, resume through the store, results.json.
#include "eval/bench.h"
#include "eval/results_csv.h"
#include "eval/round_metrics.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "base/parallel.h"
#include "eval/candidate_files.h"
#include "eval/claims.h"
#include "eval/cluster.h"
#include "eval/eval_internal.h"
#include "eval/reference.h"
#include "sandbox/process.h"
#include "eval/metrics.h"
#include "eval/result_json.h"
#include "eval/store.h"
#include "perf/profile.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() < 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool ignored(const std::string& name) {
  return name.empty() || name[0] == '.' || name[0] == '_' || name.rfind("README", 0) == 0;
}

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

bool write_atomic(const fs::path& p, const std::string& text, std::string& err) {
  fs::path tmp = p;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      err = "cannot write " + tmp.string() + ": " + std::strerror(errno);
      return false;
    }
    out << text;
    if (!out.flush()) {
      err = "cannot write " + tmp.string() + ": " + std::strerror(errno);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) {
    err = "cannot rename " + tmp.string() + " to " + p.string() + ": " + ec.message();
    return false;
  }
  return true;
}
}  // namespace

bool list_suite(const std::string& suite, const std::string& filter, const std::string& python,
                std::vector<BenchTask>& tasks, std::string& err) {
  std::error_code ec;
  if (!fs::is_directory(suite, ec)) {
    err = "--suite " + suite + " is not a folder";
    return false;
  }
  char tmpl[] = "/tmp/kgen-bench-suite-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) {
    err = std::string("cannot create a temporary file: ") + std::strerror(errno);
    return false;
  }
  close(fd);
  std::string script = std::string(KGEN_SOURCE_DIR) + "/python/kgen_eval/tasks.py";
  sandbox::Result r = sandbox::run(
      {python, "-B", script, "list", "--suite", suite, "--filter", filter, "--json", "--out", tmpl}, 600);
  std::string text = read_text(tmpl);
  fs::remove(tmpl, ec);
  if (r.status != 0) {
    err = fmt::format("listing the suite {} failed ({} {} list, status {}): {}", suite, python, script, r.status, r.out);
    return false;
  }
  try {
    json j = json::parse(text);
    for (const auto& t : j) {
      BenchTask b;
      b.id = t.at("id").get<std::string>();
      b.category = t.value("category", "");
      b.level = t.value("level", 1);
      b.path = fs::absolute(t.at("path").get<std::string>()).lexically_normal().string();
      tasks.push_back(b);
    }
  } catch (const std::exception& e) {
    err = fmt::format("cannot read the suite listing of {} ({} list --json): {}", suite, script, e.what());
    return false;
  }
  std::sort(tasks.begin(), tasks.end(), [](const BenchTask& a, const BenchTask& b) { return a.id < b.id; });
  return true;
}

bool find_candidates(const std::string& dir, std::vector<BenchCandidate>& cands, std::vector<std::string>& notes,
                     std::string& err) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    err = "--candidates " + dir + " is not a folder";
    return false;
  }
  std::map<std::pair<std::string, int>, std::string> seen;  // (task, sample) -> rel
  auto add = [&](const std::string& task, int sample, const fs::path& p) {
    std::string rel = fs::relative(p, dir, ec).string();
    if (ec) rel = p.string();
    auto [it, fresh] = seen.emplace(std::make_pair(task, sample), rel);
    if (!fresh) {
      err = fmt::format("candidates {}: {} and {} are both sample {} of task {} — keep one", dir, it->second, rel,
                        sample, task);
      return false;
    }
    cands.push_back({task, sample, p.string(), rel});
    return true;
  };
  auto sorted_entries = [&](const fs::path& d) {
    std::vector<fs::path> v;
    for (auto it = fs::directory_iterator(d, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (!ignored(it->path().filename().string())) v.push_back(it->path());
    std::sort(v.begin(), v.end());
    return v;
  };
  for (const auto& cat : sorted_entries(dir)) {
    if (!fs::is_directory(cat, ec)) {
      notes.push_back(fmt::format("candidates: {} ignored (expected <category>/ folders)", cat.string()));
      continue;
    }
    const std::string category = cat.filename().string();
    for (const auto& e : sorted_entries(cat)) {
      const std::string name = e.filename().string();
      if (fs::is_directory(e, ec)) {
        // Numbered entries only (and at least one): samples; otherwise the folder is itself an op project.
        auto inner = sorted_entries(e);
        if (inner.empty()) continue;   // an empty folder (e.g. a task a generator does not cover)
        bool numbered = !inner.empty();
        for (const auto& s : inner) {
          std::string n = s.filename().string();
          bool num_dir = all_digits(n) && fs::is_directory(s, ec);
          bool num_py = (s.extension() == ".py" || s.extension() == ".tile") && all_digits(s.stem().string()) &&
                        fs::is_regular_file(s, ec);
          numbered &= num_dir || num_py;
        }
        if (numbered) {
          for (const auto& s : inner) {
            std::string n = fs::is_regular_file(s, ec) ? s.stem().string() : s.filename().string();
            if (!add(category + "/" + name, std::stoi(n), s)) return false;
          }
        } else if (!add(category + "/" + name, 0, e)) {
          return false;
        }
      } else if (e.extension() == ".py" || e.extension() == ".tile") {
        std::string stem = e.stem().string();
        size_t dot = stem.rfind('.');
        if (dot != std::string::npos && all_digits(stem.substr(dot + 1))) {
          if (!add(category + "/" + stem.substr(0, dot), std::stoi(stem.substr(dot + 1)), e)) return false;
        } else if (!add(category + "/" + stem, 0, e)) {
          return false;
        }
      } else {
        notes.push_back(fmt::format("candidates: {} ignored (not an op-project folder, a .py submission or a .tile "
                                    "program)",
                                    e.string()));
      }
    }
  }
  std::sort(cands.begin(), cands.end(), [](const BenchCandidate& a, const BenchCandidate& b) {
    return std::tie(a.task_id, a.sample) < std::tie(b.task_id, b.sample);
  });
  return true;
}

static std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
  return s;
}

// Generates sample 0..samples-1 of every task into dir (bench.h); failures become compile-error results.
bool generate_all(const BenchOptions& o, const std::vector<BenchTask>& tasks, const fs::path& dir, Store* store,
                  std::vector<EvalResult>& failed, std::string& err) {
  Generator gen;
  GeneratorOptions go = o.gen;
  go.hide.push_back(fs::absolute(o.out).string());   // results.db, results.json, the report, other samples
  if (!o.store.empty() && !Store::is_url(o.store)) go.hide.push_back(fs::absolute(o.store).string());
  if (!make_generator(o.generator, go, gen, err)) return false;
  if (o.samples < 1) {
    err = "--samples must be at least 1";
    return false;
  }
  struct Job {
    const BenchTask* task;
    int sample;
    fs::path folder, stamp;
    std::string stamp_text;
  };
  std::vector<Job> jobs;
  std::error_code ec;
  for (const auto& t : tasks) {
    fs::path folder = dir / t.id;
    fs::create_directories(folder, ec);
    if (ec) {
      err = fmt::format("cannot create {}: {}", folder.string(), ec.message());
      return false;
    }
    const std::string text = o.generator + "\n" + o.gen.settings + "\n" + task_hash_of(t.path) + "\n";
    for (int k = 0; k < o.samples; ++k) {
      fs::path stamp = folder / fmt::format(".{}.stamp", k);
      const bool have = fs::exists(folder / std::to_string(k), ec) || fs::exists(folder / fmt::format("{}.py", k), ec) ||
                        fs::exists(folder / fmt::format("{}.tile", k), ec);
      // Generated before by this generator for this task: reused. The answer generator copies a folder that the
      // task hash does not cover, so it copies again (the store still reuses an unchanged answer's verdict).
      if (have && read_text(stamp) == text && o.generator != "answer") continue;
      fs::remove_all(folder / std::to_string(k), ec);
      fs::remove(folder / fmt::format("{}.py", k), ec);
      fs::remove(folder / fmt::format("{}.tile", k), ec);
      fs::remove(stamp, ec);
      jobs.push_back({&t, k, folder, stamp, text});
    }
  }
  std::mutex mu;
  BenchProgress pr;
  pr.phase = "generate";
  pr.total = static_cast<int>(jobs.size());
  // A generator that cannot work (its program missing, its endpoint down) fails every sample the same way: after
  // kSameFailures identical failures and no success (or one fatal failure) the bench stops, instead of scoring the
  // whole suite as compile errors.
  constexpr int kSameFailures = 3;
  int succeeded = 0, failures = 0;
  bool failures_differ = false;
  std::string first_failure, stop_reason;
  std::atomic<bool> stop{false};
  auto t0 = std::chrono::steady_clock::now();
  auto generate = [&](size_t i) {
    const Job& j = jobs[i];
    fs::path out = j.folder / std::to_string(j.sample);
    std::error_code e2;
    fs::create_directories(out, e2);
    GenRequest q{fs::absolute(j.task->path).string(), j.task->id, j.sample, out.string(), o.eval.soc, &o.eval, store};
    GenOutcome g = gen(q);
    if (g.not_covered) {
      fs::remove_all(out, e2);
      std::lock_guard<std::mutex> lk(mu);
      ++pr.done;
      return;
    }
    if (g.ok) {
      // A folder holding one .py (a MultiKernelBench submission) or one .tile program and nothing else: <k>.py,
      // <k>.tile.
      std::vector<fs::path> files;
      for (auto it = fs::directory_iterator(out, e2); !e2 && it != fs::directory_iterator(); it.increment(e2))
        files.push_back(it->path());
      if (files.size() == 1 && (files[0].extension() == ".py" || files[0].extension() == ".tile") &&
          fs::is_regular_file(files[0], e2)) {
        fs::rename(files[0], j.folder / (std::to_string(j.sample) + files[0].extension().string()), e2);
        fs::remove(out, e2);
      }
      std::string werr;
      if (!write_atomic(j.stamp, j.stamp_text, werr)) g.diagnostics.push_back("note: " + werr);
    } else {
      fs::remove_all(out, e2);
    }
    std::lock_guard<std::mutex> lk(mu);
    ++pr.done;
    if (g.ok) {
      ++succeeded;
    } else if (!stop) {
      std::string why, same;   // the message, and the message with this task's names taken out
      for (const std::string& d : g.diagnostics) why += (why.empty() ? "" : "\n") + d;
      same = std::regex_replace(replace_all(replace_all(why, j.task->path, "TASK.py"), j.task->id, "TASK"),
                                std::regex(" sample [0-9]+"), " sample K");
      if (failures++ == 0) first_failure = same;
      else if (same != first_failure) failures_differ = true;   // failing in different ways: it can work
      if (g.fatal || (succeeded == 0 && !failures_differ && failures == kSameFailures)) {
        stop = true;
        stop_reason = fmt::format("the generator {} {}; stopped before the rest of the suite. Its message:\n{}",
                                  o.generator,
                                  g.fatal ? "cannot reach its model"
                                          : fmt::format("failed the same way on its first {} generations",
                                                        kSameFailures),
                                  why.empty() ? "(none)" : why);
      }
    }
    if (!g.ok) {
      EvalResult r;
      r.task_id = j.task->id;
      r.category = j.task->category;
      r.level = j.task->level;
      r.candidate = "(" + o.generator + ")";
      r.candidate_kind = "none";
      r.task_hash = task_hash_of(j.task->path);
      r.kgen_version = KGEN_VERSION;
      r.soc = o.eval.soc;
      r.sample = j.sample;
      r.verdict = g.no_code ? Verdict::NoCode : Verdict::CompileError;
      r.diagnostics = g.diagnostics;
      r.seconds = g.seconds;
      failed.push_back(std::move(r));
    }
    pr.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    pr.eta_s = pr.elapsed_s / pr.done * (pr.total - pr.done);
    pr.current = j.task->id;
    if (o.progress) o.progress(pr);
  };
  parallel_for(jobs.size(), o.jobs, generate, &stop);
  if (stop) {
    err = stop_reason;
    return false;
  }
  for (const auto& t : tasks) {   // tasks the generator did not cover leave no folder behind
    std::error_code e2;
    if (fs::is_empty(dir / t.id, e2)) fs::remove(dir / t.id, e2);
  }
  return true;
}

// The SoC's ceilings for the report's roofline (modeled): HBM bandwidth, vector and cube peaks (docs/perf-model.md).
json roofline_of(const std::string& soc) {
  try {
    perf::Profile p = perf::load_profile(soc);
    const double vec32 = p.aiv_cores * p.clock_ghz * 64 / p.vec_cost("binary", 4).per_repeat;    // GFLOP/s
    const double vec16 = p.aiv_cores * p.clock_ghz * 128 / p.vec_cost("binary", 2).per_repeat;
    const double cube16 = p.aic_cores * p.clock_ghz * 2 * 16 * 16 * p.cube_k0_b16 / p.cube_cyc_per_fractal_b16;
    return json{{"soc", p.name}, {"hbm_gbps", p.hbm_gbps()}, {"vector_fp32_gflops", vec32},
                {"vector_fp16_gflops", vec16}, {"cube_fp16_gflops", cube16}};
  } catch (const std::exception&) {
    return json::object();
  }
}

// Per task, the latest generation of each sample in the store's trajectories (an LLM generator's rounds): the
// verdict records after the sample's last round-0 record, each {"sample", "round", verdict record fields...,
// "reply": the model's reply of that round (what failed, for the rounds that did)}.
json generation_attempts(Store& store, const std::vector<EvalResult>& results) {
  json out = json::object();
  std::set<std::string> seen;
  for (const auto& r : results) {
    if (!seen.insert(r.task_id).second) continue;
    std::map<int, std::vector<json>> by_sample;
    std::vector<Trajectory> ts = store.trajectories_for(r.task_id);
    std::sort(ts.begin(), ts.end(), [](const Trajectory& a, const Trajectory& b) { return a.id < b.id; });
    std::map<std::pair<int, int>, std::string> reply;   // (sample, round) -> the latest reply text
    for (const Trajectory& t : ts) {   // in the order they were written
      if (t.kind == "response") reply[{t.sample, t.round}] = t.text;
      if (t.kind != "verdict") continue;
      json a = json::parse(t.text, nullptr, false);
      if (!a.is_object()) a = json{{"verdict", t.text}};
      a["sample"] = t.sample;
      a["round"] = t.round;
      if (auto it = reply.find({t.sample, t.round}); it != reply.end()) a["reply"] = it->second;
      auto& rounds = by_sample[t.sample];
      if (t.round == 0) rounds.clear();   // a later generation of this sample replaces the earlier one
      rounds.push_back(std::move(a));
    }
    json list = json::array();
    for (auto& [k, rounds] : by_sample)
      for (auto& a : rounds) list.push_back(std::move(a));
    if (!list.empty()) out[r.task_id] = std::move(list);
  }
  return out;
}

bool run_bench(const BenchOptions& o, BenchRun& run, std::string& err) {
  if (o.jobs < 1) {
    err = "--jobs must be at least 1";
    return false;
  }
  if (!list_suite(o.suite, o.filter, o.eval.python, run.tasks, err)) return false;
  if (run.tasks.empty()) {
    err = o.filter.empty() ? "no task in the suite " + o.suite + " (`kgen tasks list --suite " + o.suite + "` says why)"
                           : "no task of the suite " + o.suite + " matches --filter '" + o.filter +
                                 "' (ids are CATEGORY/NAME: `kgen tasks list --suite " + o.suite + "` shows them)";
    return false;
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) {
    err = "--out " + o.out + ": cannot create the folder: " + ec.message();
    return false;
  }
  const std::string store_where = o.store.empty() ? (fs::path(o.out) / "results.db").string() : o.store;
  if (!Store::is_url(store_where))
    if (auto parent = fs::path(store_where).parent_path(); !parent.empty()) fs::create_directories(parent, ec);
  std::unique_ptr<Store> store = Store::open(store_where, err);
  if (!store) return false;
  run.store_path = store->path();   // a URL without its password

  std::vector<EvalResult> gen_failed;
  const std::string cand_dir = o.generator.empty() ? o.candidates : (fs::path(o.out) / "generated").string();
  if (!o.generator.empty() && !generate_all(o, run.tasks, cand_dir, store.get(), gen_failed, err)) return false;
  std::vector<BenchCandidate> cands;
  if (!find_candidates(cand_dir, cands, run.notes, err)) return false;

  std::map<std::string, const BenchTask*> by_id;
  for (const auto& t : run.tasks) by_id[t.id] = &t;
  struct Item {
    const BenchTask* task;
    BenchCandidate cand;
    std::string task_hash, cand_hash;
  };
  std::vector<Item> items;
  std::set<std::string> with_cand;
  for (auto& c : cands) {
    auto it = by_id.find(c.task_id);
    if (it == by_id.end()) {
      if (c.task_id.find(o.filter) != std::string::npos)
        run.notes.push_back(fmt::format("candidate {} skipped: no task {} in the suite {}", c.rel, c.task_id, o.suite));
      continue;
    }
    if (candidate_kind(c.path).empty()) {
      run.notes.push_back(fmt::format("candidate {} skipped: not an op-project folder, a .py submission or a .tile "
                                      "program",
                                      c.rel));
      continue;
    }
    with_cand.insert(c.task_id);
    items.push_back({it->second, c, task_hash_of(it->second->path), candidate_hash_of(c.path)});
  }
  for (const auto& t : run.tasks)
    if (!with_cand.count(t.id) && std::none_of(gen_failed.begin(), gen_failed.end(), [&](const EvalResult& r) {
          return r.task_id == t.id;
        }))
      run.missing.push_back(t.id);

  // Look up the store; what is there (unless rerun) is reused.
  std::vector<std::optional<EvalResult>> results(items.size());
  std::vector<size_t> todo;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!o.rerun && o.eval.profile_dir.empty()) {   // a profile needs the run: --profile evaluates again
      std::string ferr;
      results[i] = store->find(items[i].task_hash, stored_candidate_key(items[i].cand_hash, o.eval), KGEN_VERSION,
                               o.eval.soc, items[i].cand.sample, &ferr);
      if (!ferr.empty()) run.notes.push_back(ferr);
    }
    if (results[i]) {
      results[i]->candidate = items[i].cand.path;
      results[i]->candidate_hash = items[i].cand_hash;
      ++run.reused;
    } else {
      todo.push_back(i);
    }
  }

  // Evaluate the rest with o.jobs worker threads (or, with --cluster, as many as the cluster's workers run at once);
  // each result is stored as soon as it is known.
  EvalOptions eval_opts = o.eval;
  std::unique_ptr<Cluster> cluster;
  int jobs = o.jobs;
  if (const std::string addr = cluster_address(o.cluster); !addr.empty() && !todo.empty()) {
    if (!o.eval.profile_dir.empty()) {
      err = "--profile writes each evaluation's profile on the machine that runs it: it cannot be used with --cluster "
            "(profile the tasks of interest with a local `kgen bench --profile DIR --filter ...`)";
      return false;
    }
    cluster = Cluster::connect(addr, o.eval.python, err);
    if (!cluster) return false;
    jobs = cluster->threads();
    std::string who;
    for (const auto& w : cluster->workers()) who += (who.empty() ? "" : ", ") + w.address;
    run.notes.push_back(fmt::format("evaluated on the Dask cluster {}: {} worker(s) ({}), {} at once", addr,
                                    cluster->workers().size(), who, jobs));
    for (const auto& w : cluster->refused())
      run.notes.push_back(fmt::format("cluster worker {} ({}) refused: {}", w.address, w.host, w.why));
  }
  // Claims on the store: of several processes sharing it (hosts on one PostgreSQL store), one evaluates each key and
  // the others take its result. --rerun and --profile evaluate whatever is stored.
  const bool use_claims = !o.rerun && o.eval.profile_dir.empty();
  const std::string owner = claim_owner();
  std::unique_ptr<ClaimKeeper> keeper;
  if (use_claims && !todo.empty()) keeper = std::make_unique<ClaimKeeper>(store.get(), owner);
  std::vector<size_t> deferred;             // positions in todo whose key another process holds
  std::vector<std::string> lost;            // evaluations that could not run on the cluster
  int from_others = 0;
  std::mutex mu;
  BenchProgress pr;
  pr.total = static_cast<int>(todo.size());
  pr.reused = run.reused;
  for (auto& r : results)
    if (r && r->verdict == Verdict::Correct) ++pr.passed;
  std::vector<std::string> inflight;
  auto t0 = std::chrono::steady_clock::now();
  auto notify = [&](const EvalResult* fin) {  // mu held
    pr.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    pr.eta_s = pr.done > 0 ? pr.elapsed_s / pr.done * (pr.total - pr.done) : -1;
    pr.current = inflight.empty() ? "" : inflight.back();
    pr.finished = fin;
    if (o.progress) o.progress(pr);
  };
  // One item: its turn (first pass: an item another process holds is put aside; last pass: wait for its result),
  // evaluate it here or on the cluster, store the result.
  auto evaluate_one = [&](size_t k, bool last_pass) {
    const Item& it = items[todo[k]];
    EvalOptions eo = eval_opts;
    eo.task = it.task->path;
    eo.candidate = it.cand.path;
    if (!eo.profile_dir.empty())   // --profile DIR: DIR/<category>/<task>/s<sample>/
      eo.profile_dir = fmt::format("{}/{}/s{}", eo.profile_dir, it.task->id, it.cand.sample);
    const StoreKey key{it.task_hash, stored_candidate_key(it.cand_hash, eo), KGEN_VERSION, eo.soc, it.cand.sample};
    if (use_claims) {
      std::optional<EvalResult> got;
      std::string cerr;
      const Turn turn = take_turn(*store, key, owner, last_pass, got, cerr);
      std::lock_guard<std::mutex> g(mu);
      if (!cerr.empty()) run.notes.push_back(cerr);
      if (turn == Turn::Later) {   // another process holds it: come back to it when the rest is done
        deferred.push_back(k);
        return;
      }
      if (turn == Turn::Stored) {
        got->candidate = it.cand.path;
        got->candidate_hash = it.cand_hash;
        ++from_others;
        ++pr.done;
        if (got->verdict == Verdict::Correct) ++pr.passed;
        results[todo[k]] = std::move(*got);
        notify(&*results[todo[k]]);
        return;
      }
    }
    {
      std::lock_guard<std::mutex> g(mu);
      inflight.push_back(it.cand.task_id);
      notify(nullptr);
    }
    EvalResult r;
    std::string cerr;
    if (cluster) {
      std::error_code rec;
      fs::path rel = fs::relative(fs::absolute(it.task->path), fs::absolute(o.suite), rec);
      if (rec || rel.empty() || *rel.begin() == "..") rel = fs::path(it.task->category) / fs::path(it.task->path).filename();
      if (!cluster->evaluate(eo, rel.string(), r, cerr)) {
        store->release(key, owner);
        std::lock_guard<std::mutex> g(mu);
        lost.push_back(fmt::format("{} sample {}: {}", it.cand.task_id, it.cand.sample, cerr));
        inflight.erase(std::find(inflight.begin(), inflight.end(), it.cand.task_id));
        ++pr.done;
        notify(nullptr);
        return;
      }
    } else {
      r = evaluate(eo);
    }
    r.sample = it.cand.sample;
    if (r.task_id.empty()) r.task_id = it.task->id;
    std::string perr;
    EvalResult keyed = r;   // stored under the settings-qualified key (evaluate.h)
    keyed.candidate_hash = stored_candidate_key(r.candidate_hash, eo);
    bool stored = store->put(keyed, perr);
    if (use_claims) store->release(key, owner);   // put() released it unless the result's key differs
    std::lock_guard<std::mutex> g(mu);
    if (!stored) run.notes.push_back(perr);
    inflight.erase(std::find(inflight.begin(), inflight.end(), it.cand.task_id));
    ++pr.done;
    if (r.verdict == Verdict::Correct) ++pr.passed;
    results[todo[k]] = std::move(r);
    notify(&*results[todo[k]]);
  };
  // One secret seed for the run's secret trials (the same for every candidate of a task, so their references are
  // computed once), their references in a folder of the run, removed when it ends.
  std::unique_ptr<TempDirGuard> secret;
  if (o.eval.secret_trials > 0 && !todo.empty()) {
    if (!o.eval.secret_seed) eval_opts.secret_seed = draw_secret_seed();
    if (o.eval.secret_cache.empty() && !cluster) {
      fs::create_directories(cache_dir(o.eval), ec);
      secret = std::make_unique<TempDirGuard>(cache_dir(o.eval) + "/secret-");
      eval_opts.secret_cache = secret->path;
    }
  }
  // The reference data of every task to evaluate, computed up front with torch imported once (not once per task);
  // on a cluster each worker computes (and caches) its own.
  std::vector<std::string> ref_tasks;
  for (size_t i : todo)
    if (std::find(ref_tasks.begin(), ref_tasks.end(), items[i].task->path) == ref_tasks.end())
      ref_tasks.push_back(items[i].task->path);
  if (std::string note; !cluster && !prefetch_references(eval_opts, ref_tasks, o.jobs, note)) run.notes.push_back(note);
  parallel_for(todo.size(), jobs, [&](size_t k) { evaluate_one(k, false); });
  std::sort(deferred.begin(), deferred.end());
  parallel_for(deferred.size(), jobs, [&](size_t k) { evaluate_one(deferred[k], true); });
  keeper.reset();
  cluster.reset();
  if (from_others > 0)
    run.notes.push_back(fmt::format("{} result(s) were evaluated by another process sharing the store {} and taken "
                                    "from it", from_others, store->path()));
  run.reused += from_others;
  if (!lost.empty()) {
    err = fmt::format("{} of {} evaluation(s) could not run on the cluster (what finished is stored: rerun the bench "
                      "to evaluate the rest); the first: {}", lost.size(), todo.size(), lost.front());
    return false;
  }
  run.evaluated = static_cast<int>(todo.size()) - from_others;
  for (auto& r : results) run.results.push_back(std::move(*r));
  for (auto& r : gen_failed) run.results.push_back(std::move(r));
  std::sort(run.results.begin(), run.results.end(), [](const EvalResult& a, const EvalResult& b) {
    return std::tie(a.task_id, a.sample) < std::tie(b.task_id, b.sample);
  });

  // The results document.
  json doc;
  doc["kgen_version"] = KGEN_VERSION;
  doc["soc"] = o.eval.soc;
  doc["suite"] = o.suite;
  doc["candidates"] = cand_dir;
  if (!o.generator.empty()) doc["generator"] = o.generator;
  doc["roofline"] = roofline_of(o.eval.soc);
  doc["created_at"] = now_utc();
  doc["trials"] = o.eval.trials;
  doc["filter"] = o.filter;
  json rs = json::array();
  for (const auto& r : run.results) rs.push_back(to_json(r));
  doc["results"] = rs;
  const MetricsOptions mo = metrics_options_for(run.results);
  run.metrics = compute_metrics(run.results, mo);
  doc["metrics"] = to_json(run.metrics);
  doc["missing"] = run.missing;
  doc["evaluated"] = run.evaluated;
  doc["reused"] = run.reused;
  doc["notes"] = run.notes;
  json src = json::object();
  for (const auto& it : items) {
    json& s = src[it.cand.task_id];
    if (!s.contains("task")) s["task"] = read_text(it.task->path);
    if (!s.contains("candidate")) s["candidate"] = json::object();
    // Sample 0 of an op project: paths inside it; other layouts: prefixed with the sample's own entry.
    std::string prefix;
    fs::path rel = fs::absolute(it.cand.path).lexically_normal().lexically_relative(
        fs::absolute(fs::path(cand_dir) / it.task->id).lexically_normal());  // symlinks not resolved
    if (!rel.empty() && rel != "." && rel.string().rfind("..", 0) != 0) prefix = rel.string() + "/";
    if (!fs::is_directory(it.cand.path, ec)) prefix = "";
    json files = candidate_sources(it.cand.path);
    for (auto& [k, v] : files.items()) s["candidate"][prefix + k] = v;
  }
  doc["sources"] = src;
  doc["attempts"] = generation_attempts(*store, run.results);
  run.by_round = metrics_by_round(doc["attempts"], run.results, mo);
  if (!run.by_round.empty()) doc["metrics_by_round"] = to_json(run.by_round);
  run.doc = std::move(doc);
  return write_atomic(fs::path(o.out) / "results.json", run.doc.dump(1, ' ', false, json::error_handler_t::replace), err) &&
         write_atomic(fs::path(o.out) / "results.csv", results_csv(run.results), err);
}

}  // namespace kgen::eval
