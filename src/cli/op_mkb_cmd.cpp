// `kgen op run-mkb SUBMISSION.py --task REFERENCE.py`: a MultiKernelBench AscendC submission (six strings) against
// its reference task, as MultiKernelBench's own check runs it (torch.manual_seed(seed) before Model and ModelNew,
// `trials` calls of get_inputs(), torch.allclose at atol/rtol), through kgen's evaluator (eval/evaluate.h): the
// reference in its own process, the submission (python/kgen_mkb/run_mkb.py: extraction, custom_ops_lib, ModelNew)
// in the sandbox, the comparison here. Prints PASS / FAIL with the first mismatch, or --json.
#include <cstdio>
#include <filesystem>
#include <fmt/core.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/op_cmd.h"
#include "cli/sandbox_flags.h"
#include "eval/evaluate.h"
#include "eval/result_json.h"

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct MkbOpts {
  std::string submission, task, soc = "Ascend910B2", python = "/usr/bin/python3";
  int seed = 1024, trials = 5, secret_trials = 1;
  double atol = 1e-4, rtol = 1e-4, timeout = 900;
  bool json = false;
};

int run_mkb(const MkbOpts& o) {
  std::error_code ec;
  if (!fs::is_regular_file(o.submission, ec)) {
    std::fprintf(stderr, "error: %s: no such submission file\n", o.submission.c_str());
    return 2;
  }
  if (!fs::is_regular_file(o.task, ec)) {
    std::fprintf(stderr, "error: %s: no such task file (a KernelBench-format reference: class Model, get_inputs(), "
                 "get_init_inputs())\n", o.task.c_str());
    return 2;
  }
  if (int rc = require_sandbox("kgen op run-mkb")) return rc;
  eval::EvalOptions e;
  e.task = o.task;
  e.candidate = o.submission;
  e.soc = o.soc;
  e.python = o.python;
  e.seed = o.seed;
  e.trials = o.trials;
  e.secret_trials = o.secret_trials;
  e.fp32 = e.fp16 = e.bf16 = {o.atol, o.rtol};
  e.timeout_s = o.timeout;
  eval::EvalResult r = eval::evaluate(e);
  const bool pass = r.verdict == eval::Verdict::Correct;
  const char* verdict = pass ? "pass" : r.verdict == eval::Verdict::WrongAnswer ? "fail" : "error";
  if (o.json) {
    nlohmann::json j = eval::to_json(r);
    j["submission"] = o.submission;
    j["task"] = o.task;
    j["kgen_verdict"] = eval::verdict_name(r.verdict);
    j["verdict"] = verdict;
    j["seed"] = o.seed;
    j["atol"] = o.atol;
    j["rtol"] = o.rtol;
    std::cout << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return pass ? 0 : r.verdict == eval::Verdict::RuntimeError && r.error_category == "task" ? 2 : 3;
  }
  for (const auto& d : r.diagnostics) std::cerr << d << "\n";
  std::cout << fmt::format("{}: {} trial(s) (+{} secret) on {}, seed {}, atol {:g}, rtol {:g}\n", o.submission,
                           o.trials, o.secret_trials, r.soc, o.seed, o.atol, o.rtol);
  std::cout << fmt::format("max abs err {:.3e}, max rel err {:.3e}\n", r.max_abs_err, r.max_rel_err);
  if (pass)
    std::cout << fmt::format("modeled {:.2f} us, eager PyTorch {:.2f} us ({}): speedup {:.2f}x\n", r.modeled_us,
                             r.eager_modeled_us, r.soc, r.speedup);
  std::cout << (pass ? "PASS" : "FAIL") << "\n";
  return pass ? 0 : r.verdict == eval::Verdict::RuntimeError && r.error_category == "task" ? 2 : 3;
}
}  // namespace

void add_op_mkb_cmd(CLI::App* op, int& exit_code) {
  auto o = std::make_shared<MkbOpts>();
  auto* c = op->add_subcommand(
      "run-mkb", "Run a MultiKernelBench AscendC submission (six strings) against its reference task on the emulator");
  c->add_option("submission", o->submission, "the submission .py (project_json_src, host_tiling_src, "
                "host_operator_src, kernel_src, python_bind_src, model_src)")->required();
  c->add_option("--task", o->task, "the reference task .py (KernelBench format: Model, get_inputs, get_init_inputs)")
      ->required();
  c->add_option("--soc", o->soc, "SoC profile (default Ascend910B2)");
  c->add_option("--seed", o->seed, "torch.manual_seed before Model(*init) and ModelNew(*init) (default 1024, as "
                "MultiKernelBench)");
  c->add_option("--trials", o->trials, "calls of get_inputs() compared (default 5)");
  c->add_option("--atol", o->atol, "absolute tolerance of torch.allclose (default 1e-4, MultiKernelBench's)");
  c->add_option("--rtol", o->rtol, "relative tolerance (default 1e-4)");
  c->add_option("--timeout", o->timeout, "seconds before the run is stopped (default 900)");
  c->add_option("--python", o->python, "the python with PyTorch (default /usr/bin/python3)");
  c->add_flag("--json", o->json, "print a JSON report");
  c->add_option("--secret-trials", o->secret_trials, "trials from a seed drawn for this run, besides --trials")
      ->capture_default_str();
  add_sandbox_flags(c);
  c->callback([o, &exit_code] { exit_code = run_mkb(*o); });
}
}  // namespace kgen::cli
