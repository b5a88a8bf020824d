// `kgen eval --task T --candidate C [--soc S] [--trials N] [--seed N] [--atol X --rtol X] [--timeout S] [--json]`.
#include "cli/eval_cmd.h"

#include <filesystem>
#include <fmt/core.h>
#include <iostream>

#include "eval/evaluate.h"
#include "cli/sandbox_flags.h"
#include "cli/task_arg.h"
#include "eval/result_json.h"
#include "perf/profile.h"

namespace kgen::cli {
namespace {
struct EvalCli {
  eval::EvalOptions o;
  std::string suite;   // for task ids
  double atol = -1, rtol = -1;
  bool json = false;
};

int run_eval(EvalCli& c) {
  namespace fs = std::filesystem;
  auto& o = c.o;
  std::string err;
  if (std::string task = resolve_task_arg(o.task, c.suite, err); !task.empty()) {
    o.task = task;
  } else {
    std::cerr << "kgen eval: " << err << "\n";
    return 2;
  }
  if (eval::candidate_kind(o.candidate).empty()) {
    std::cerr << "kgen eval: --candidate " << o.candidate
              << " is neither an op-project directory, a MultiKernelBench submission .py nor a tile program .tile\n";
    return 2;
  }
  if (o.trials < 1) {
    std::cerr << "kgen eval: --trials must be at least 1\n";
    return 2;
  }
  try {
    o.soc = perf::load_profile(o.soc).name;
  } catch (const std::exception& e) {
    std::cerr << "kgen eval: --soc " << o.soc << ": " << e.what() << "\n";
    return 2;
  }
  if (int rc = require_sandbox("kgen eval")) return rc;
  if (c.atol >= 0) o.fp32.atol = o.fp16.atol = o.bf16.atol = c.atol;
  if (c.rtol >= 0) o.fp32.rtol = o.fp16.rtol = o.bf16.rtol = c.rtol;
  eval::EvalResult r = eval::evaluate(o);
  int code = r.verdict == eval::Verdict::Correct ? 0 : 3;
  if (c.json) {
    std::cout << eval::to_json(r).dump(1) << "\n";
    return code;
  }
  const std::string label = "modeled, " + r.soc;
  fmt::print("{}: {} ({} on {}, {} trial(s) per case)\n", eval::verdict_name(r.verdict), r.candidate,
             r.candidate_kind, r.task_id.empty() ? o.task : r.task_id, r.trials);
  if (!r.error_category.empty()) fmt::print("  category: {}\n", r.error_category);
  for (const auto& d : r.diagnostics) fmt::print("  {}\n", d);
  for (const auto& cs : r.cases) {
    fmt::print("  case {:<28} {:<5} max abs {:.3e} rel {:.3e} err/tol {:.2g}  kernel {:.2f} us  eager {:.2f} us ({}){}\n",
               cs.name, cs.correct ? "ok" : "FAIL", cs.max_abs_err, cs.max_rel_err, cs.tol_err, cs.modeled_us,
               cs.eager_modeled_us, label,
               cs.bound.empty() ? "" : ", " + cs.bound + "-bound");
    if (!cs.first_mismatch.empty()) fmt::print("    first mismatch: {}\n", cs.first_mismatch);
  }
  if (r.verdict == eval::Verdict::Correct && r.eager_modeled_us <= 0)
    fmt::print("no eager PyTorch baseline for this task ({}: kernel {:.2f} us)\n", label, r.modeled_us);
  else if (r.verdict == eval::Verdict::Correct) {
    auto pct = [](double part, double all) { return all > 0 ? 100 * part / all : 0.0; };
    const eval::PerfResult& p = r.perf;
    if (p.timed())
      fmt::print("speedup {:.2f}x at the perf shape {} ({}, timing-only: kernel {:.2f} us, {:.0f} % host and launch, "
                 "{}-bound; eager {:.2f} us, {:.0f} % host and launch; launch excluded {:.2f}x; {} records in {:.1f} s, "
                 "{:.0f} MiB)\n",
                 p.speedup, p.inputs, label, p.modeled_us, pct(p.launch_us, p.modeled_us), p.bound,
                 p.eager_modeled_us, pct(p.eager_launch_us, p.eager_modeled_us), p.body_speedup, p.records, p.seconds,
                 p.peak_rss_mb);
    fmt::print("{} {:.2f}x at the check shapes ({}: kernel {:.2f} us, {:.0f} % host and launch; eager {:.2f} us, "
               "{:.0f} % host and launch; summed over cases)\n",
               p.timed() ? "  speedup" : "speedup", r.check_speedup, label, r.modeled_us, pct(r.launch_us, r.modeled_us),
               r.eager_modeled_us, pct(r.eager_launch_us, r.eager_modeled_us));
    if (!p.skipped.empty()) fmt::print("  perf shape {} not timed: {}\n", p.shape, p.skipped);
  }
  fmt::print("evaluated in {:.1f} s (PyTorch reference {:.1f} s, compiling {:.1f} s, runs {:.1f} s)\n", r.seconds,
             r.reference_s, r.build_s, r.run_s);
  if (!o.profile_dir.empty()) {
    size_t timelines = 0;
    for (const auto& f : r.profile) timelines += f.size() > 14 && f.compare(f.size() - 14, 14, ".timeline.json") == 0;
    if (r.profile.empty())
      fmt::print("profile: nothing written to {} (no launch was modeled: the candidate did not run)\n", o.profile_dir);
    else
      fmt::print("profile: {} file(s) in {} ({} Perfetto timeline(s)), e.g. {}\n",
                 r.profile.size(), o.profile_dir, timelines, r.profile.front());
  }
  return code;
}
}  // namespace

CLI::App* add_eval_command(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<EvalCli>();
  auto* e = app.add_subcommand("eval", "Evaluate one candidate (op project or MultiKernelBench submission) on one task: "
                                       "compile, correctness over trials, modeled speedup over eager PyTorch");
  e->add_option("--task", c->o.task, "Task .py (class Model, get_inputs, get_init_inputs), or a suite id such as "
                                     "activation/relu")
      ->required();
  e->add_option("--suite", c->suite, "Suite folder for task ids (default tasks/ of the source tree)");
  e->add_option("--candidate", c->o.candidate, "Op-project directory, MultiKernelBench submission .py or tile program .tile")->required();
  e->add_option("--soc", c->o.soc, "SoC profile for the run and the modeled times")->capture_default_str();
  e->add_option("--trials", c->o.trials, "Fresh random inputs per case")->capture_default_str();
  e->add_option("--seed", c->o.seed, "Seed of the Model's parameters; trial t's inputs use seed + t")->capture_default_str();
  e->add_option("--atol", c->atol, "Absolute tolerance for every floating dtype (default fp32 1e-4, fp16/bf16 1e-2)");
  e->add_option("--rtol", c->rtol, "Relative tolerance for every floating dtype (default fp32 1e-4, fp16/bf16 1e-2)");
  e->add_option("--timeout", c->o.timeout_s, "Seconds one case and trial (build, tiling, kernel) may take")
      ->capture_default_str();
  e->add_option("--memory-mb", c->o.memory_mb, "Address-space limit of the candidate's process")->capture_default_str();
  e->add_flag("--json", c->json, "Print the result as one JSON object");
  e->add_option("--profile", c->o.profile_dir,
                "Write each modeled launch's profile here: <case>_<n>_<kernel>.report.txt/.report.json/.lanes.json "
                "and .timeline.json (Perfetto: pipes, sync flows, launch span, busy-core counters); perf_<n>_* for "
                "the perf shape (no timeline)");
  add_sandbox_flags(e, &c->o);
  e->callback([c, &exit_code] { exit_code = run_eval(*c); });
  return e;
}
}  // namespace kgen::cli
