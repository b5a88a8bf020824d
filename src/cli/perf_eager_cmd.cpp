// `kgen perf eager TASK.py [--soc S] [--json] [--perf | --case NAME]`: records the aten ops of the task's forward
// with scripts/aten_trace.py (Debian's /usr/bin/python3 with python3-torch) and prints the modeled eager torch_npu
// time, at the sizes as written, at the task's perf shape or at one of its cases.
#include "cli/perf_eager_cmd.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/python_hint.h"
#include "sandbox/paths.h"
#include "sandbox/process.h"
#include "perf/eager.h"

namespace kgen::cli {
using sandbox::paths;
using sandbox::Paths;
namespace {
struct EagerOpts {
  std::string task, soc = "Ascend910B2", python = "/usr/bin/python3", case_name;
  bool json = false, perf = false;
  double timeout_s = 300;
};

int run_eager(const EagerOpts& o) {
  namespace fs = std::filesystem;
  if (!fs::exists(o.task)) {
    std::cerr << "kgen perf eager: no task file " << o.task << "\n";
    return 2;
  }
  perf::Profile prof;
  perf::EagerConsts consts;
  try {
    prof = perf::load_profile(o.soc);
    consts = perf::load_eager_consts();
  } catch (const std::exception& e) {
    std::cerr << "kgen perf eager: " << e.what() << "\n";
    return 2;
  }
  std::string script = paths().source_dir + "/scripts/aten_trace.py";
  fs::path out = fs::temp_directory_path() / fmt::format("kgen-aten-{}.json", getpid());
  std::vector<std::string> argv = {o.python, script, o.task, "--out", out.string()};
  if (o.perf) argv.push_back("--perf");
  if (!o.case_name.empty()) argv.insert(argv.end(), {"--case", o.case_name});
  sandbox::Result pr = sandbox::run(argv, o.timeout_s);
  std::string text;
  {
    std::ifstream in(out);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  std::error_code ec;
  fs::remove(out, ec);
  if (pr.status != 0 && pr.out.rfind("aten_trace: ", 0) == 0) {   // the script's own word on the task or the shape
    std::cerr << "kgen perf eager: " << pr.out.substr(12);
    return 2;
  }
  if (pr.status != 0 || text.empty()) {
    std::cerr << "kgen perf eager: recording the aten ops failed (" << o.python << " " << script << " " << o.task
              << (pr.timed_out ? ", timed out" : "") << ", status " << pr.status << "):\n"
              << pr.out << python_failure_hint(pr.out);
    return 1;
  }
  std::vector<perf::AtenOp> ops;
  std::string shape = "the sizes as written";
  try {
    ops = perf::parse_aten_json(text);
    shape = nlohmann::json::parse(text).value("shape", shape);
  } catch (const std::exception& e) {
    std::cerr << "kgen perf eager: " << e.what() << "\n";
    return 1;
  }
  perf::EagerResult r = perf::model_eager(ops, prof, consts);
  const std::string label = "modeled, " + prof.name;
  if (o.json) {
    nlohmann::json j;
    j["task"] = o.task;
    j["shape"] = shape;
    j["soc"] = prof.name;
    j["label"] = label;
    j["model"] = "eager torch_npu baseline (docs/perf-model.md, Eager PyTorch baseline)";
    j["device_us"] = r.device_us;
    j["host_us"] = r.host_us;
    j["e2e_us"] = r.e2e_us;
    j["ops"] = nlohmann::json::array();
    for (size_t i = 0; i < r.ops.size(); ++i) {
      const auto& t = r.ops[i];
      nlohmann::json oj;
      oj["name"] = t.name;
      oj["cls"] = t.cls;
      nlohmann::json ins = nlohmann::json::array(), outs = nlohmann::json::array();
      for (const auto& d : ops[i].inputs) ins.push_back({{"shape", d.shape}, {"dtype", d.dtype}});
      for (const auto& d : ops[i].outputs) outs.push_back({{"shape", d.shape}, {"dtype", d.dtype}});
      oj["inputs"] = ins;
      oj["outputs"] = outs;
      oj["flops"] = t.flops;
      oj["bytes"] = t.bytes;
      oj["host_us"] = t.host_us;
      oj["head_us"] = t.head_us;
      oj["exec_us"] = t.exec_us;
      oj["device_us"] = t.device_us;
      oj["start_us"] = t.start_us;
      oj["end_us"] = t.end_us;
      oj["bound"] = t.bound;
      j["ops"].push_back(oj);
    }
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  fmt::print("Eager PyTorch (torch_npu) baseline of {} at {} ({})\n", o.task, shape, label);
  fmt::print("{:<4} {:<22} {:<12} {:>12} {:>12} {:>9} {:>9} {:>9} {:>10}  {}\n", "#", "op", "class", "GFLOP", "MB",
             "host us", "head us", "exec us", "device us", "bound");
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const auto& t = r.ops[i];
    fmt::print("{:<4} {:<22} {:<12} {:>12.4f} {:>12.4f} {:>9.2f} {:>9.2f} {:>9.2f} {:>10.2f}  {}\n", i, t.name, t.cls,
               t.flops / 1e9, t.bytes / 1e6, t.host_us, t.head_us, t.exec_us, t.device_us, t.bound);
  }
  fmt::print("\ntotal ({}): device {:.2f} us (sum of op times, back-to-back), host dispatch {:.2f} us,\n"
             "end-to-end {:.2f} us (host and device pipelined; what an event pair around model(*inputs) measures)\n",
             label, r.device_us, r.host_us, r.e2e_us);
  return 0;
}
}  // namespace

void add_perf_eager_cmd(CLI::App* perf, int& exit_code) {
  auto o = std::make_shared<EagerOpts>();
  auto* c = perf->add_subcommand("eager",
                                 "Modeled eager PyTorch (torch_npu) time of a KernelBench-format task (class Model, "
                                 "get_inputs, get_init_inputs): records its aten ops with scripts/aten_trace.py");
  c->add_option("task", o->task, "Task file (.py)")->required();
  c->add_option("--soc", o->soc, "SoC profile (hardware/<SoC>.json)")->capture_default_str();
  c->add_flag("--json", o->json, "JSON output");
  auto* perf_flag = c->add_flag("--perf", o->perf,
                                "At the task's perf shape (its PERF overrides: the benchmark's real size that kgen eval "
                                "times), not the sizes as written");
  c->add_option("--case", o->case_name, "At one of the task's cases, named as `kgen tasks list` names them "
                                        "(default, or its overrides such as dtype=float16)")
      ->excludes(perf_flag);
  c->add_option("--python", o->python, "Python with torch (Debian's python3-torch)")->capture_default_str();
  c->callback([o, &exit_code] { exit_code = run_eager(*o); });
}
}  // namespace kgen::cli
