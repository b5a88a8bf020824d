// kgen: generate and evaluate AscendC kernels without an NPU. This file only wires the subcommands.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <fmt/core.h>
#include <iostream>
#include <string>
#include <vector>

#include "cli/bench_cmd.h"
#include "cli/cc.h"
#include "cli/cluster_cmd.h"
#include "cli/compare_cmd.h"
#include "cli/data_cmd.h"
#include "cli/did_you_mean.h"
#include "cli/eval_cmd.h"
#include "cli/generate_cmd.h"
#include "cli/tile_cmd.h"
#include "cli/examples.h"
#include "cli/op_cmd.h"
#include "sandbox/paths.h"
#include "cli/perf_cmd.h"
#include "cli/perf_eager_cmd.h"
#include "cli/sandbox_flags.h"
#include "cli/tasks_cmd.h"
#include "cli/serve_cmd.h"

namespace {
const char* kCcHelp =
    "Usage: kgen cc [--soc SOC] [-v] G++-ARGS...\n"
    "Compile AscendC kernels and CANN CPU-debug host programs for the kgen emulator.\n"
    "Takes g++'s command line; adds the AscendC headers (kernel_operator.h, tikicpulib.h), -DASCENDC_CPU_DEBUG,\n"
    "__NPU_ARCH__ for the SoC, links the emulator library, and rewrites kernel<<<blockDim, l2ctrl, stream>>>(...)\n"
    "launches so kernel-launch style hosts run too.\n\n"
    "Options:\n"
    "  --soc SOC   Ascend910B2 (default), Ascend910B1, Ascend910B3, Ascend910B4, Ascend310P3\n"
    "  -v          print the g++ command\n\n"
    "Example:\n  kgen cc main.cpp add_custom.cpp -o add && ./add\n"
    "Run-time environment: KGEN_TRACE=FILE writes the per-core pipe trace as JSON; KGEN_PROFILE=DIR writes the\n"
    "modeled performance report and timeline of each launch into DIR (KGEN_PROFILE_SOC picks the profile).\n";

int cc_main(int argc, char** argv) {
  kgen::cli::CcOptions o;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") { std::cout << kCcHelp; return 0; }
    if (a == "--soc" && i + 1 < argc) { o.soc = argv[++i]; continue; }
    if (a.rfind("--soc=", 0) == 0) { o.soc = a.substr(6); continue; }
    if (a == "-v") { o.verbose = true; continue; }
    o.args.push_back(a);
  }
  if (o.args.empty()) {
    std::cerr << "kgen cc: no input files\n" << kCcHelp;
    return 2;
  }
  return kgen::cli::run_cc(o);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "cc") == 0) return cc_main(argc, argv);

  CLI::App app{"kgen: generate and evaluate Huawei Ascend (AscendC) kernels, with or without an NPU"};
  app.require_subcommand(1);

  app.set_version_flag("--version", std::string("kgen ") + KGEN_VERSION);
  app.add_subcommand("version", "Print kgen's version")->callback([] { fmt::print("kgen {}\n", KGEN_VERSION); });
  app.add_subcommand("cc", "Compile AscendC sources for the emulator (g++ command line plus --soc; see kgen cc --help)");

  auto* ex = app.add_subcommand("examples", "The bundled AscendC examples (examples/ascendc)");
  ex->require_subcommand(1);
  ex->add_subcommand("list", "List the examples")->callback([] {
    for (const auto& f : kgen::cli::list_examples(kgen::sandbox::paths().source_dir + "/examples/ascendc", true)) fmt::print("{}\n", f);
  });
  kgen::cli::ExamplesOptions eo;
  eo.dir = kgen::sandbox::paths().source_dir + "/examples/ascendc";
  eo.work_dir = kgen::sandbox::paths().lib_dir + "/examples-bin";
  bool no_errors = false;
  auto* run = ex->add_subcommand("run", "Compile each example with kgen cc, run it on the emulator, print a table");
  run->add_option("--soc", eo.soc, "SoC profile")->capture_default_str();
  run->add_option("--filter", eo.filter, "Only examples whose path contains this text");
  run->add_option("-j,--jobs", eo.jobs, "Parallel compiles")->capture_default_str();
  run->add_option("--dir", eo.dir, "Examples directory")->capture_default_str();
  run->add_flag("--no-errors", no_errors, "Skip the negative examples (errors/)");
  int exit_code = 0;
  run->callback([&] {
    eo.include_errors = !no_errors;
    auto results = kgen::cli::run_examples(eo);
    size_t pass = 0;
    fmt::print("{:<34} {:>9} {:>8}  {}\n", "example", "compile", "run", "result");
    for (const auto& r : results) {
      fmt::print("{:<34} {:>8.2f}s {:>7.2f}s  {}{}{}\n", r.name, r.compile_s, r.run_s,
                 r.ok ? (r.negative ? "caught" : "PASS") : "FAIL", r.detail.empty() ? "" : "  ", r.detail);
      pass += r.ok;
    }
    fmt::print("\n{} passed, {} failed (SoC {})\n", pass, results.size() - pass, eo.soc);
    exit_code = pass == results.size() ? 0 : 1;
  });

  CLI::App* perf = kgen::cli::add_perf_command(app, exit_code);
  kgen::cli::add_perf_eager_cmd(perf, exit_code);
  kgen::cli::add_perf_calibrate_cmd(perf, exit_code);

  CLI::App* op = kgen::cli::add_op_command(app, exit_code);
  kgen::cli::add_op_mkb_cmd(op, exit_code);
  kgen::cli::add_op_new_cmd(op, exit_code);
  kgen::cli::add_tasks_command(app, exit_code);
  kgen::cli::add_eval_command(app, exit_code);
  kgen::cli::add_bench_command(app, exit_code);
  kgen::cli::add_compare_command(app, exit_code);
  kgen::cli::add_data_command(app, exit_code);
  kgen::cli::add_serve_command(app, exit_code);
  kgen::cli::add_generate_command(app, exit_code);
  kgen::cli::add_tile_command(app, exit_code);
  kgen::cli::add_sandbox_command(app, exit_code);
  kgen::cli::add_cluster_command(app, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print and succeed; every other command-line mistake is a usage error: exit status 2, as
    // documented, with a "did you mean" when a subcommand or option is misspelt.
    if (e.get_exit_code() == 0) return app.exit(e);
    if (std::string hint = kgen::cli::usage_hint(app, std::vector<std::string>(argv + 1, argv + argc)); !hint.empty()) {
      std::cerr << hint << "\n";
      return 2;
    }
    app.exit(e);
    return 2;
  }
  return exit_code;
}
