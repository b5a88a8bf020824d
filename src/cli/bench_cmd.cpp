// `kgen bench [--suite DIR] [--candidates DIR | --generator NAME [--samples K] [LLM options]] [--filter S] [--jobs N] [--soc S] [--trials N] [--out DIR]
//             [--store FILE] [--rerun] [--json]`.
#include "cli/bench_cmd.h"

#include "cli/sandbox_flags.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <iostream>
#include <map>

#include "cli/llm_options.h"
#include "gen/config.h"
#include "cli/task_arg.h"
#include "sandbox/paths.h"
#include "eval/bench.h"
#include "eval/metrics.h"
#include "eval/round_metrics.h"
#include "perf/profile.h"
#if __has_include("eval/report_html.h")
#include "eval/report_html.h"
#define KGEN_BENCH_HTML 1
#endif

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct BenchCli {
  eval::BenchOptions o;
  bool json = false;
  LlmCli llm;
};

std::string dur(double s) {
  if (s < 0) return "--";
  long t = std::lround(s);
  return t >= 60 ? fmt::format("{}m{:02}s", t / 60, t % 60) : fmt::format("{}s", t);
}

int run_bench_cli(BenchCli& c) {
  auto& o = c.o;
  if (int rc = require_sandbox("kgen bench")) return rc;
  if (o.jobs < 1) {
    std::cerr << "kgen bench: --jobs must be at least 1\n";
    return 2;
  }
  if (o.eval.trials < 1) {
    std::cerr << "kgen bench: --trials must be at least 1\n";
    return 2;
  }
  try {
    o.eval.soc = perf::load_profile(o.eval.soc).name;
  } catch (const std::exception& e) {
    std::cerr << "kgen bench: --soc " << o.eval.soc << ": " << e.what() << "\n";
    return 2;
  }
  if (o.generator == "auto") {   // the configured LLM (kgen.toml's default model), else the expert library
    const std::string path = gen::find_config_file(c.llm.config);
    gen::GenConfig cfg;
    std::string err;
    if (!path.empty() && !gen::load_config(path, cfg, err)) {
      std::cerr << "kgen bench: " << err << "\n";
      return 2;
    }
    o.generator = !cfg.default_model.empty() ? "llm:" + cfg.default_model : "expert";
    std::cerr << "kgen bench: --generator auto is " << o.generator
              << (cfg.default_model.empty() ? " (no default model in kgen.toml; docs/generation.md sets one up)"
                                            : " (the default model of " + path + ")")
              << "\n";
  }
  if (o.generator.rfind("llm:", 0) == 0) {
    gen::LlmSettings s;
    std::string err;
    if (!llm_settings(c.llm, eval::cache_dir(o.eval), s, err)) {
      std::cerr << "kgen bench: " << err << "\n";
      return 2;
    }
    gen::register_llm_generator(s);
    o.gen.settings = llm_fingerprint(c.llm);
  }
  const bool tty = isatty(2);
  bool drawn = false;
  o.progress = [&](const eval::BenchProgress& p) {
    if (tty) {
      const bool gen = std::string(p.phase) == "generate";
      std::string line = gen ? fmt::format("generating [{}/{}]  elapsed {}  ETA {}  {}", p.done, p.total,
                                           dur(p.elapsed_s), dur(p.eta_s), p.current)
                             : fmt::format("[{}/{}] pass {}{}  elapsed {}  ETA {}  {}", p.done, p.total, p.passed,
                                           p.reused ? fmt::format(" ({} reused)", p.reused) : "", dur(p.elapsed_s),
                                           dur(p.eta_s), p.current.empty() ? "" : "evaluating " + p.current);
      if (line.size() > 150) line.resize(150);
      std::cerr << "\r\033[K" << line << std::flush;
      drawn = true;
    } else if (p.finished) {
      const auto& r = *p.finished;
      std::cerr << fmt::format("[{}/{}] {:<13} {}{} ({}, {:.1f} s)\n", p.done, p.total,
                               eval::verdict_name(r.verdict), r.task_id,
                               r.sample ? fmt::format(" #{}", r.sample) : "", r.candidate_kind, r.seconds);
    }
  };
  eval::BenchRun run;
  std::string err;
  bool ok = eval::run_bench(o, run, err);
  if (drawn) std::cerr << "\r\033[K" << std::flush;
  if (!ok) {
    std::cerr << "kgen bench: " << err << "\n";
    return 1;
  }
  for (const auto& n : run.notes) std::cerr << "note: " << n << "\n";
  fs::path json_path = fs::path(o.out) / "results.json";
  std::string html_path;
#ifdef KGEN_BENCH_HTML
  {
    fs::path hp = fs::path(o.out) / "report.html";
    try {
      std::string html = eval::render_report_html(run.doc);
      std::ofstream out(hp, std::ios::binary | std::ios::trunc);
      out << html;
      if (!out.flush()) throw std::runtime_error("cannot write " + hp.string());
      html_path = hp.string();
    } catch (const std::exception& e) {
      std::cerr << "kgen bench: report.html: " << e.what() << "\n";
    }
  }
#endif
  std::map<std::string, int> verdicts;
  for (const char* v : {"correct", "wrong-answer", "runtime-error", "timeout", "compile-error", "cheating", "no-code"})
    verdicts[v] = 0;
  for (const auto& r : run.results) ++verdicts[eval::verdict_name(r.verdict)];
  if (c.json) {
    nlohmann::json j;
    j["results_json"] = json_path.string();
    j["results_csv"] = (fs::path(o.out) / "results.csv").string();
    j["report_html"] = html_path;
    j["store"] = run.store_path;
    j["evaluated"] = run.evaluated;
    j["reused"] = run.reused;
    j["tasks"] = run.tasks.size();
    j["verdicts"] = verdicts;
    j["missing"] = run.missing;
    j["notes"] = run.notes;
    j["metrics"] = run.doc["metrics"];
    if (run.doc.contains("metrics_by_round")) j["metrics_by_round"] = run.doc["metrics_by_round"];
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  fmt::print("kgen bench: {} task(s) in {}{}, {} with candidates ({} sample(s)), {} missing a candidate\n",
             run.tasks.size(), o.suite, o.filter.empty() ? "" : " matching '" + o.filter + "'",
             run.tasks.size() - run.missing.size(), run.results.size(), run.missing.size());
  // An LLM generator evaluates every round itself and stores it: the bench then finds its final candidates there.
  const bool llm = o.generator.rfind("llm:", 0) == 0;
  fmt::print("evaluated {}, reused {} from the store {}{}\n", run.evaluated, run.reused, run.store_path,
             llm && run.reused > 0       ? " (the repair loop's own evaluations of its final candidates, and earlier runs')"
             : run.evaluated == 0 && run.reused > 0 ? " (nothing changed: nothing re-evaluated; --rerun forces it)"
                                                    : "");
  std::string vc;
  for (const char* v : {"correct", "wrong-answer", "runtime-error", "timeout", "compile-error", "cheating", "no-code"})
    vc += fmt::format("{}{} {}", vc.empty() ? "" : ", ", v, verdicts[v]);
  fmt::print("verdicts: {}\n", vc);
  for (const auto& r : run.results)
    if (r.verdict != eval::Verdict::Correct)
      fmt::print("  {:<13} {}{}{}\n", eval::verdict_name(r.verdict), r.task_id,
                 r.sample ? fmt::format(" #{}", r.sample) : "",
                 r.diagnostics.empty() ? "" : ": " + r.diagnostics.front().substr(0, 160));
  if (!run.missing.empty()) {
    std::string m;
    size_t shown = std::min<size_t>(run.missing.size(), 12);
    for (size_t i = 0; i < shown; ++i) m += (i ? ", " : "") + run.missing[i];
    if (shown < run.missing.size()) m += fmt::format(", ... ({} more)", run.missing.size() - shown);
    fmt::print("missing (no candidate, not evaluated, not in the metrics): {}\n", m);
  }
  if (!run.by_round.empty())
    fmt::print("\nmetrics after the repair rounds (each sample's best round; by round below):\n");
  fmt::print("\n{}", eval::metrics_table(run.metrics));
  if (!run.by_round.empty())
    fmt::print("\nby repair round (round 0 is the model's first reply alone):\n{}", eval::rounds_table(run.by_round));
  if (o.generator.rfind("llm:", 0) == 0) {
    const gen::Usage u = gen::llm_generator_usage();
    fmt::print("{}\n", gen::usage_line(u));
  }
  fmt::print("\nresults: {} (and results.csv beside it){}\n", json_path.string(),
             html_path.empty() ? "" : "\nreport:  " + html_path);
  if (!o.eval.profile_dir.empty()) {
    size_t files = 0;
    for (const auto& r : run.results) files += r.profile.size();
    fmt::print("profile: {} file(s) under {}/<category>/<task>/s<sample>/ (report, lanes, Perfetto timeline of each "
               "modeled launch)\n", files, o.eval.profile_dir);
  }
  return 0;
}
}  // namespace

CLI::App* add_bench_command(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<BenchCli>();
  auto& o = c->o;
  o.suite = default_suite();   // the source tree's, as `kgen tasks list` has it, wherever kgen is run from
  o.candidates = sandbox::paths().source_dir + "/candidates";
  auto* b = app.add_subcommand("bench", "Evaluate a folder of candidates on a task suite (in parallel, resumable): "
                                        "results.json, report.html, metrics");
  b->add_option("--suite", o.suite, "Task suite folder (kgen, KernelBench, MultiKernelBench or NPUKernelBench layout)")
      ->capture_default_str();
  b->add_option("--candidates", o.candidates,
                "Candidates folder: <category>/<task>/ (op project), <category>/<task>.py (submission); samples "
                "<task>/<k>/ or <task>.<k>.py")
      ->capture_default_str();
  b->add_option("--generator", o.generator,
                "Generate the candidates instead, into OUT/generated: llm:MODEL (an LLM with repair rounds, options "
                "below), expert (the tile library), answer (an NPUKernelBench task's own answer/<k>/), exec:PROGRAM [ARGS] (runs PROGRAM ARGS TASK.py DIR SAMPLE), auto "
                "(kgen.toml's default model when one is set, else expert)")
      ->excludes(b->get_option("--candidates"));
  b->add_option("--samples", o.samples, "Samples per task from the generator")->capture_default_str();
  b->add_option("--generator-timeout", o.gen.timeout_s, "Wall-clock limit of one generation, seconds")
      ->capture_default_str();
  b->add_option("--filter", o.filter, "Only tasks whose id contains this string");
  b->add_option("--jobs", o.jobs, "Evaluations run at once")->capture_default_str();
  b->add_option("--soc", o.eval.soc, "SoC profile for the runs and the modeled times")->capture_default_str();
  b->add_option("--trials", o.eval.trials, "Fresh random inputs per case")->capture_default_str();
  b->add_option("--timeout", o.eval.timeout_s, "Wall-clock limit of one candidate run, seconds")->capture_default_str();
  b->add_option("--out", o.out, "Output folder (results.json, report.html, results.db)")->capture_default_str();
  b->add_option("--store", o.store, "Results store: a SQLite file (default OUT/results.db) or a postgresql:// URL "
                                    "shared by benches on several hosts (each candidate evaluated once)");
  b->add_option("--cluster", o.cluster, "Evaluate on the workers of this Dask scheduler (tcp://HOST:8786; default "
                                        "$KGEN_CLUSTER), docs/scale-out.md");
  b->add_flag("--rerun", o.rerun, "Re-evaluate even what the store already holds");
  b->add_option("--profile", o.eval.profile_dir,
                "Write each evaluated launch's modeled profile (report, lanes, Perfetto timeline) under "
                "DIR/<category>/<task>/s<sample>/ (implies --rerun: a stored result has no profile)");
  b->add_flag("--json", c->json, "Print a JSON summary on stdout instead of the tables");
  add_llm_options(b, c->llm);
  add_sandbox_flags(b, &o.eval);
  b->callback([c, &exit_code] { exit_code = run_bench_cli(*c); });
  return b;
}
}  // namespace kgen::cli
