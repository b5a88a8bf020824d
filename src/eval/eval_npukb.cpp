// An op project against an NPUKernelBench task folder, as NPUKernelBench's harness checks it
// (framework/batch_precision_eval.py): every row of validation/test_cases.csv is a case; the trusted side
// (python/kgen_npukb/reference.py, outside the sandbox) makes each case's inputs and runs the task's Model; the
// candidate side (python/kgen_npukb/run_npukb.py, in the sandbox) runs the task's ModelNew through the task's
// pybind.cpp and the project on the emulator and sends its outputs back; the trusted side judges them with the task's
// custom_check_precision (or the harness's 1e-3 rule). Modeled time: the first case that ran, its launches against
// eager PyTorch's time for Model's aten ops on the same case (recorded by the trusted side). The reference data are
// made once per task and seed and kept in the cache (npukb_reference.h).
#include <cmath>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "eval/eval_internal.h"
#include "eval/judge.h"
#include "eval/modeled.h"
#include "eval/npukb_reference.h"
#include "op/bind_build.h"
#include "op/npy.h"
#include "op/predict.h"
#include "op/prebuild.h"
#include "op/project.h"
#include "sandbox/paths.h"
#include "sandbox/process.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// The size of the largest regular file directly in dir (0 when there is none).
size_t largest_file(const std::string& dir) {
  size_t most = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec)) most = std::max<size_t>(most, e.file_size(ec));
  return most;
}

}  // namespace

bool is_npukb_task(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) && fs::is_regular_file(fs::path(path) / "validation" / "module.py", ec) &&
         fs::is_regular_file(fs::path(path) / "validation" / "test_cases.csv", ec);
}

void eval_npukb(const EvalOptions& o, EvalResult& R) {
  TempDirGuard tmp("kgen-npukb-");
  const std::string task = fs::absolute(o.task).string(), project = fs::absolute(o.candidate).string();
  // The cases: every row of test_cases.csv (NPUKernelBench's static-shape mode runs one; kgen runs them all), as
  // the trusted side reads them; a case whose reference cannot run here comes back with its error and fails alone.
  NpukbReference data;
  auto t_ref = std::chrono::steady_clock::now();
  if (!npukb_reference(o, task, tmp.path, R, data)) return;
  R.reference_s = since(t_ref);
  const json& ref = data.manifest;
  const std::string refdir = data.dir;   // in/, ref/, trace/, bind/; the candidate's outputs go under tmp.path
  R.level = ref.value("level", 1);
  R.category = ref.value("category", R.category);
  R.task_id = R.category + "/" + fs::path(task).filename().string();   // as the suite lists it (kgen_npukb/suite.py)
  const json& rc = ref["cases"];
  std::vector<size_t> to_run;               // indexes into rc of the cases the candidate runs
  std::string cases;
  for (size_t i = 0; i < rc.size(); ++i)
    if (!rc[i].contains("error")) {
      to_run.push_back(i);
      cases += (cases.empty() ? "" : ",") + rc[i]["case"].dump();
    }

  sandbox::Policy pol = candidate_policy(o);
  sandbox::Limits lim = candidate_limits(o, static_cast<int>(to_run.size()));
  // A case's tensors pass through files in the sandbox's /tmp (an argument's .npy, an output's .npy, both at once):
  // the file and tmpfs limits grow with the largest case (a 1 GiB float16 tensor of StridesliceNegConcatV2) so that
  // the options bound the candidate's own files, not the task's sizes.
  const size_t largest = std::max(largest_file(refdir + "/in"), largest_file(refdir + "/ref"));
  lim.file_bytes = std::max<size_t>(lim.file_bytes, largest + (64ull << 20));
  pol.tmp_bytes = std::max<size_t>(pol.tmp_bytes, 3 * largest + (256ull << 20));
  pol.binds.push_back({project, false});
  pol.binds.push_back({task, false});
  pol.binds.push_back({refdir + "/in", false});
  // The project's libraries, built here (prebuild.h: sandboxed compiles, the shared cache, the precompiled headers)
  // for the kernel column of each row's dtype, and the task's binding (bind_build.h, the text reference.py wrote,
  // which run_npukb.py writes again in the sandbox) beside them; kgen-oprun in the sandbox takes them, and builds a
  // column only where the prediction missed (inputs of several dtypes). A binding that does not build here is left
  // to the run, which reports it.
  const auto t_build = std::chrono::steady_clock::now();
  const std::string bind_cpp = refdir + "/bind/op.cpp";
  std::future<op::BindBuild> bind;
  if (fs::is_regular_file(bind_cpp)) bind = std::async(std::launch::async, [&] { return op::build_bind(bind_cpp); });
  std::string failed_builds;
  if (op::Project p; op::find_project(project, p).empty()) {
    std::vector<std::vector<int>> dtypes;
    std::set<int> seen;
    for (size_t i : to_run) {
      const int d = npy_dtype_of(rc[i]["row"].value("dtype", std::string()));
      if (d < 0 || !seen.insert(d).second) continue;
      for (size_t n = 1; n <= 8; ++n)   // the OpDef's input count: the first that names a column of d's
        if (!op::predict_defines(p, std::vector<std::pair<std::string, int>>(n, {"", d})).empty()) {
          dtypes.push_back(std::vector<int>(n, d));
          break;
        }
    }
    op::Prebuilt pre = op::prebuild(p, o.soc, dtypes);
    if (!prebuild_ok(pre, R)) return;
    for (const std::string& l : pre.files) pol.binds.push_back({l, false});
    failed_builds = op::write_failed_builds(pre, tmp.path + "/failed-builds");
  }
  if (bind.valid())
    if (op::BindBuild b = bind.get(); b.ok) pol.binds.push_back({b.so, false});
  R.build_s = since(t_build);
  sandbox::Child c;
  c.argv = {o.python, "-B", sandbox::paths().source_dir + "/python/kgen_npukb/run_npukb.py", task, project,
            "--inputs", refdir + "/in", "--cases", cases, "--oprun", oprun_path(o), "--work", "kgen-npukb-work",
            "--channel", "3", "--soc", o.soc};
  c.clear_env = true;
  c.env = {"KGEN_CACHE=" + cache_dir(o), "KGEN_PRIVATE_BUILD=1", "PYTHONDONTWRITEBYTECODE=1"};
  if (!failed_builds.empty()) {
    pol.binds.push_back({failed_builds, false});
    c.env.push_back("KGEN_FAILED_BUILDS=" + failed_builds);
  }
  if (o.max_records) c.env.push_back("KGEN_MAX_RECORDS=" + std::to_string(o.max_records));

  perf::Profile prof = perf::load_profile(o.soc);
  std::map<size_t, op::NpyArray> outs;
  std::map<size_t, std::string> raw;
  std::vector<std::string> traces;
  size_t done = 0, first_case = 0;
  Judgement J;
  CaseResult first;                          // the modeled time of the first case that ran
  Modeled first_m;                           // its launches, for the physical floor once the case is judged
  double first_out_bytes = 0;                // the bytes of outputs it delivered
  std::map<size_t, std::string> failed_cases;   // index into rc -> the candidate run's diagnostic
  std::vector<std::string> ran;              // case ids that delivered outputs
  auto take = [&](const sandbox::Frame& fr) -> bool {
    const std::string want = done < to_run.size() ? "c" + rc[to_run[done]]["case"].dump() : "";
    std::string id = fr.name.substr(0, fr.name.find('.'));
    if (done >= to_run.size() || id != want)
      return J.stop({Verdict::RuntimeError, "protocol",
                     {"error[protocol] " + o.candidate + ": a result for '" + fr.name + "' out of order"}});
    if (fr.kind == "npy") {
      if (!take_output(fr, outs, J, o.candidate)) return false;
      raw[std::strtoul(fr.name.c_str() + fr.name.find('.') + 1, nullptr, 10)] = fr.data;
      return true;
    }
    if (fr.kind == "trace") {
      traces.push_back(fr.data);
      return true;
    }
    if (fr.kind != "json") return true;
    const json got = summary_of(fr);
    const std::string case_id = rc[to_run[done]]["case"].dump();
    if (got.contains("error")) {   // this case failed in the candidate's run; its text is only a diagnostic
      std::string e = got["error"].is_string() ? sandbox::utf8_clean(got["error"].get<std::string>()) : "failed";
      failed_cases[to_run[done]] = e.substr(0, e.find('\n'));
      outs.clear();
      raw.clear();
      traces.clear();
      ++done;
      return true;
    }
    ran.push_back(case_id);
    // The outputs go where only the trusted judge reads them, as checked .npy files.
    fs::path d = fs::path(tmp.path) / "cand" / ("case_" + case_id);
    fs::create_directories(d);
    for (auto& [k, bytes] : raw) std::ofstream(d / fmt::format("out_{}.npy", k), std::ios::binary) << bytes;
    std::ofstream(d / "count") << raw.size();
    if (ran.size() == 1) {   // the first case that ran: its launches are the modeled time
      Modeled m;
      if (!o.profile_dir.empty()) m.profile_prefix = profile_prefix(o.profile_dir, "case_" + case_id);
      if (!model_launches(traces, prof, o.candidate, "ModelNew", m, J)) return false;
      set_modeled(first, m);
      first_m = m;
      for (auto& [k, a] : outs) first_out_bytes += static_cast<double>(a.data.size());
      // Eager PyTorch on the same case: Model's aten ops as the trusted side recorded them.
      const fs::path trace = fs::path(refdir) / "trace" / ("case_" + case_id + ".json");
      if (fs::is_regular_file(trace)) {
        const EagerTime eager = eager_us_of(trace.string(), o);
        first.eager_modeled_us = eager.us;
        first.eager_launch_us = eager.launch_us;
      } else {
        R.diagnostics.push_back("note: no eager time for case " + case_id + " (Model's aten ops could not be recorded: " +
                                rc[to_run[done]].value("trace_error", std::string("no trace")) + "): no speedup");
      }
      R.profile.insert(R.profile.end(), m.profile_files.begin(), m.profile_files.end());
      R.timeline = timeline_of(m.lanes, "case " + case_id);
      first_case = to_run[done];
    }
    if (got.contains("notes") && got["notes"].is_array())
      for (const auto& n : got["notes"])
        if (n.is_string() && R.diagnostics.size() < 20) R.diagnostics.push_back(sandbox::utf8_clean(n.get<std::string>()));
    outs.clear();
    raw.clear();
    traces.clear();
    ++done;
    return true;
  };
  c.on_frame = guarded(take, J);
  for (size_t i = 0; i < rc.size(); ++i)
    if (rc[i].contains("error")) failed_cases[i] = "error[reference] " + rc[i]["error"].get<std::string>();
  if (!to_run.empty()) {
    auto t_run = std::chrono::steady_clock::now();
    sandbox::Result res = sandbox::run(c, lim, pol, sandbox::default_mode());
    R.run_s = since(t_run);
    if (J.failed) return set_fail(R, J.fail);
    if (done != to_run.size() || res.status != 0 || res.timed_out) {
      const std::string pending = done < to_run.size() ? "case " + rc[to_run[done]]["case"].dump() : "the end";
      return set_fail(R, child_failure(o, res, "the NPUKernelBench run", pending));
    }
  }
  std::map<std::string, json> judged;   // case id -> the judge's verdict
  if (!ran.empty()) {
    std::string list;
    for (const std::string& id : ran) list += (list.empty() ? "" : ",") + id;
    json verdicts;
    if (!npukb_trusted(o, {"judge", task, "--cases", list, "--ref", refdir, "--cand", tmp.path + "/cand"}, R,
                      verdicts))
      return;
    for (const json& v : verdicts["cases"]) judged[v["case"].dump()] = v;
    // The launch traces come from the candidate's process: a right answer whose trace models less time than writing
    // its outputs takes is a forged trace (the judge has checked the outputs' sizes against the reference's).
    if (judged[ran.front()].value("acc", false) &&
        !within_physics(first_m, first_out_bytes, prof, o.candidate, "case #" + ran.front() + ": ", J))
      return set_fail(R, J.fail);
  }
  size_t mismatches = 0, errors = 0;
  std::string first_error;
  for (size_t i = 0; i < rc.size(); ++i) {
    CaseResult cr = i == first_case && !ran.empty() ? first : CaseResult{};
    const json& row = rc[i]["row"];
    cr.name = "#" + rc[i]["case"].dump();
    for (auto it = row.begin(); it != row.end(); ++it)
      if (it.key() != "case_id") cr.name += fmt::format(" {}={}", it.key(), it.value().get<std::string>());
    if (auto f = failed_cases.find(i); f != failed_cases.end()) {
      cr.first_mismatch = f->second;
      if (!errors++) first_error = f->second;
      R.cases.push_back(cr);
      continue;
    }
    const json& v = judged[rc[i]["case"].dump()];
    cr.correct = v.value("acc", false);
    if (v.contains("notes") && v["notes"].is_array())
      for (const json& n : v["notes"])
        if (n.is_string() && R.diagnostics.size() < 20) R.diagnostics.push_back("note: " + cr.name + ": " + n.get<std::string>());
    // reference.py writes strict JSON: a non-finite difference (NaN or inf in the output) is null
    auto err = [&](const char* k) {
      return v.contains(k) && v[k].is_number() ? v[k].get<double>() : v.contains(k) ? HUGE_VAL : 0.0;
    };
    cr.max_abs_err = err("max_abs");
    cr.max_rel_err = err("max_rel");
    if (!cr.correct) {
      cr.first_mismatch = v.contains("message") ? v["message"].get<std::string>()
                                                : fmt::format("{} fails (max abs err {:.3g}, max rel err {:.3g})",
                                                              v.value("rule", "the precision check"), cr.max_abs_err,
                                                              cr.max_rel_err);
      if (!mismatches++)
        R.diagnostics.push_back(fmt::format("error[mismatch] {}: {}: {} — ModelNew's output differs from Model's",
                                            o.candidate, cr.name, cr.first_mismatch));
    }
    R.cases.push_back(cr);
  }
  if (errors) R.diagnostics.push_back(first_error + (errors > 1 ? fmt::format(" (and {} more case(s) failed)", errors - 1) : ""));
  R.trials = 1;   // NPUKernelBench runs each case once
  if (!mismatches && !errors) {
    R.verdict = Verdict::Correct;
  } else if (mismatches) {
    R.verdict = Verdict::WrongAnswer;
  } else {
    R.verdict = Verdict::RuntimeError;
    size_t e = first_error.find(']');
    R.error_category = first_error.rfind("error[", 0) == 0 && e != std::string::npos ? first_error.substr(6, e - 6) : "model";
  }
}
}  // namespace kgen::eval
