// `kgen cluster`: a Dask cluster's view from kgen (docs/scale-out.md).
//   kgen cluster check [--scheduler ADDR]   the workers that would take `kgen bench --cluster` work, and why others not
//   kgen cluster worker-eval                what a Dask worker runs for one evaluation (JSON request on stdin)
#include <fmt/core.h>

#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/cluster_cmd.h"
#include "eval/cluster.h"
#include "eval/options_json.h"
#include "eval/result_json.h"

namespace kgen::cli {
using nlohmann::json;

namespace {
// One evaluation as a worker: {"task": PATH, "candidate": PATH, "options": {...}} on stdin, the EvalResult on stdout.
int worker_eval() {
  const std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  json req = json::parse(in, nullptr, false);
  eval::EvalOptions o;
  std::string err;
  if (!req.is_object() || !req.contains("task") || !req["task"].is_string() || !req.contains("candidate") ||
      !req["candidate"].is_string()) {
    fmt::print(stderr, "kgen cluster worker-eval: the request on stdin is not {{\"task\": PATH, \"candidate\": PATH, "
                       "\"options\": {{...}}}}\n");
    return 2;
  }
  if (req.contains("options") && !eval::options_from_json(req["options"], o, err)) {
    fmt::print(stderr, "kgen cluster worker-eval: {}\n", err);
    return 2;
  }
  o.task = req["task"].get<std::string>();
  o.candidate = req["candidate"].get<std::string>();
  const eval::EvalResult r = eval::evaluate(o);
  fmt::print("{}\n", eval::to_json(r).dump());
  return 0;
}
}  // namespace

void add_cluster_command(CLI::App& app, int& exit_code) {
  auto* c = app.add_subcommand("cluster", "Evaluations on a Dask cluster (docs/scale-out.md)");
  c->require_subcommand(1);
  auto* check = c->add_subcommand("check", "List the workers of a Dask scheduler that would take kgen bench --cluster "
                                           "work (same kgen version, a working sandbox) and why the others would not");
  static std::string scheduler;
  static std::string python = "/usr/bin/python3";
  check->add_option("--scheduler", scheduler, "The Dask scheduler (default $KGEN_CLUSTER), e.g. tcp://HOST:8786");
  check->add_option("--python", python, "The Python with Dask's client (Debian python3-distributed)");
  check->callback([&exit_code] {
    const std::string addr = eval::cluster_address(scheduler);
    if (addr.empty()) {
      fmt::print(stderr, "kgen cluster check: no scheduler: give --scheduler tcp://HOST:8786 or set KGEN_CLUSTER\n");
      exit_code = 2;
      return;
    }
    std::string err;
    auto cl = eval::Cluster::connect(addr, python, err);
    if (!cl) {
      fmt::print(stderr, "kgen cluster check: {}\n", err);
      exit_code = 1;
      return;
    }
    fmt::print("scheduler {}: {} worker(s) take work, {} evaluation(s) at once\n", addr, cl->workers().size(),
               cl->threads());
    for (const auto& w : cl->workers()) fmt::print("  ok       {} ({}, {} thread(s))\n", w.address, w.host, w.nthreads);
    for (const auto& w : cl->refused()) fmt::print("  refused  {} ({}): {}\n", w.address, w.host, w.why);
    exit_code = 0;
  });
  c->add_subcommand("worker-eval", "Evaluate one candidate as a Dask worker does: a JSON request {\"task\", "
                                   "\"candidate\", \"options\"} on stdin, the result as JSON on stdout")
      ->callback([&exit_code] { exit_code = worker_eval(); });
}
}  // namespace kgen::cli
