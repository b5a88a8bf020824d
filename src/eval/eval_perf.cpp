// The perf shape of an op project that passed its check shapes: one timing-only kgen-oprun run (sim/timing.h) at the
// task's PERF size in a sandbox of its own, modeled here from the trace it sends, beside eager PyTorch's trace there.
#include <fmt/core.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "eval/eval_internal.h"
#include "eval/eval_perf.h"
#include "eval/judge.h"
#include "eval/modeled.h"
#include "perf/profile.h"
#include "sandbox/paths.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// "float32:4096,393216" (kgen-oprun's shape spec) and "float32[4096,393216]" (for people) of a meta.json tensor.
std::string shape_spec(const json& t, bool readable) {
  std::string dims;
  for (const auto& d : t.value("shape", json::array())) dims += (dims.empty() ? "" : ",") + std::to_string(d.get<int64_t>());
  const std::string dt = t.value("dtype", "");
  return readable ? dt + "[" + dims + "]" : dt + ":" + dims;
}
}  // namespace

void time_perf_shape(const EvalOptions& o, const json& perf, const PerfRun& run, EvalResult& R) {
  PerfResult& P = R.perf;
  P.shape = perf.value("name", "");
  const fs::path dir = perf.value("dir", "");
  const json meta = json::parse(read_text((dir / "meta.json").string()));
  if (meta.contains("skipped")) {
    P.skipped = meta["skipped"].get<std::string>();
    return;
  }
  sandbox::Policy pol = candidate_policy(o);
  pol.binds.push_back({run.project, false});
  for (const std::string& l : run.libs) pol.binds.push_back({l, false});
  // Floating-point inputs by shape (reserved, never backed); integer ones with their values (they decide addresses).
  json jr = {{"id", "perf"}, {"timing_only", true}, {"trace", true}, {"inputs", json::array()}, {"attrs", run.attrs}};
  for (const auto& in : meta["inputs"]) {
    P.inputs += (P.inputs.empty() ? "" : ", ") + shape_spec(in, true);
    if (in.contains("file"))
      jr["inputs"].push_back(sandbox::hide_file(pol, (dir / in["file"].get<std::string>()).string(),
                                                sandbox::default_mode()));
    else
      jr["inputs"].push_back({{"shape", shape_spec(in, false)}});
  }
  TempDirGuard tmp("kgen-perf-");
  sandbox::Child c = oprun_batch_child(o, run.project, json{{"runs", json::array({jr})}}, tmp.path + "/perf.json",
                                       run.failed_builds, pol);

  // GM at the real size is reserved address space, never touched: the process's private memory is bounded by the
  // options' limit (RLIMIT_DATA), its address space by that plus twice the tensors (outputs, workspace, slack).
  const double tensors = tensor_bytes(meta["inputs"]) + tensor_bytes(meta["outputs"]);
  sandbox::Limits lim = candidate_limits(o, 1);
  lim.data_bytes = lim.memory_bytes;
  lim.memory_bytes += static_cast<size_t>(2 * tensors);

  const perf::Profile prof = perf::load_profile(o.soc);
  std::string trace;
  json summary;
  Judgement J;
  auto judge = [&](const sandbox::Frame& fr) -> bool {
    if (fr.name != "perf")
      return J.stop({Verdict::RuntimeError, "protocol",
                     {"error[protocol] " + o.candidate + ": the perf-shape run sent '" + fr.name +
                      "' on kgen's result channel (expected 'perf')"}});
    if (fr.kind == "trace") trace = fr.data;
    if (fr.kind == "json") summary = summary_of(fr);
    return true;
  };
  c.on_frame = guarded(judge, J);
  auto t0 = std::chrono::steady_clock::now();
  sandbox::Result res = sandbox::run(c, lim, pol, sandbox::default_mode());
  P.seconds = since(t0);
  const std::string where = "the perf shape " + P.shape + " (timing-only)";
  if (J.failed) return set_fail(R, J.fail);
  if (res.status != 0 || res.timed_out || summary.is_null()) {
    // A kernel that faults at the benchmark's size fails there, whatever it did at the check shapes.
    Fail f = child_failure(o, res, "the op run", where);
    f.diags.push_back("note: the kernel passed every check shape; it failed at " + where + " — tiling, offsets "
                      "and buffer sizes at the real size (int32 byte offsets overflow past 2 GiB)");
    return set_fail(R, f);
  }
  Modeled m;
  if (!o.profile_dir.empty()) {   // the report, not the timeline: a timing-only run has millions of instructions
    m.profile_prefix = profile_prefix(o.profile_dir, "perf");
    m.profile_timeline = false;
  }
  std::string err;
  if (trace.empty() || !add_launch(trace, prof, false, m, err))
    return set_fail(R, {Verdict::RuntimeError, "protocol",
                        {"error[protocol] " + o.candidate + ": " + where + ": no valid launch trace came back (" +
                         (err.empty() ? "none sent" : err) + ")"}});
  if (!within_physics(m, tensor_bytes(meta["outputs"]), prof, o.candidate, where + ": ", J))
    return set_fail(R, J.fail);
  set_modeled(P, m);
  R.profile.insert(R.profile.end(), m.profile_files.begin(), m.profile_files.end());
  const EagerTime e = eager_us_of((dir / "trace.json").string(), o);
  P.eager_modeled_us = e.us;
  P.eager_launch_us = e.launch_us;
  P.speedup = P.modeled_us > 0 ? P.eager_modeled_us / P.modeled_us : 0;
  const double body = P.modeled_us - P.launch_us, eager_body = P.eager_modeled_us - P.eager_launch_us;
  P.body_speedup = body > 0 && eager_body > 0 ? eager_body / body : 0;
  // The child's own counts, for the report only (no verdict rests on them).
  if (summary.value("records", json()).is_number_unsigned()) P.records = summary["records"].get<uint64_t>();
  if (summary.value("peak_rss_mb", json()).is_number()) P.peak_rss_mb = summary["peak_rss_mb"].get<double>();
  if (summary.value("value_reads", json()).is_number_unsigned() && summary["value_reads"].get<uint64_t>() > 0) {
    std::string first = summary.value("first_value_read", json()).is_string()
                            ? sandbox::utf8_clean(summary["first_value_read"].get<std::string>()).substr(0, 200)
                            : "";
    P.note = fmt::format("approximate: the kernel's scalar code read {} values the timing-only run did not compute "
                         "(first: {}); control flow that depends on them may differ from a full run",
                         summary["value_reads"].get<uint64_t>(), first);
    R.diagnostics.push_back("note: " + where + ": " + P.note);
  }
}
}  // namespace kgen::eval
