// An op project on a task: the reference data, the candidate's libraries built in sandboxed compiles, every case
// and trial in one sandboxed kgen-oprun run, and the judgement here (evaluate.h has the rules).
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "eval/compare.h"
#include "eval/eval_internal.h"
#include "eval/eval_perf.h"
#include "eval/judge.h"
#include "eval/modeled.h"
#include "eval/reference.h"
#include "op/build.h"
#include "op/npy.h"
#include "op/prebuild.h"
#include "op/project.h"
#include "perf/trace_diff.h"
#include "sandbox/paths.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string attr_value(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) return fmt::format("{:.9g}", v.get<double>());
  if (v.is_array()) {
    std::string r;
    bool nested = !v.empty() && v[0].is_array();
    for (size_t i = 0; i < v.size(); ++i) {
      std::string e = attr_value(v[i]);
      if (e.empty() && !v[i].is_array()) return "";
      r += (i ? (nested ? ";" : ",") : "") + e;
    }
    return r;
  }
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    return s.rfind("torch.", 0) == 0 ? "" : s;
  }
  return "";
}

// OpDef attrs (name, type: Float, Int, Bool, String, ListInt, ...; "" when not seen), in order of Attr("...") in
// the project's host sources.
std::vector<std::pair<std::string, std::string>> opdef_attrs(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> attrs;
  static const std::regex re(R"re(\bAttr\s*\(\s*"(\w+)"\s*\)([^;]*))re");
  static const std::regex ty(R"re(\.(Float|Int|Bool|String|ListInt|ListFloat|ListBool|ListListInt)\s*\()re");
  std::error_code ec;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".cpp") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (auto& f : files) {
    std::string t = read_text(f.string());
    if (t.find("op_def_registry.h") == std::string::npos) continue;
    for (auto i = std::sregex_iterator(t.begin(), t.end(), re); i != std::sregex_iterator(); ++i) {
      std::string name = (*i)[1].str(), rest = (*i)[2].str(), type;
      std::smatch m;
      if (std::regex_search(rest, m, ty)) type = m[1].str();
      bool seen = false;
      for (auto& a : attrs) seen |= a.first == name;
      if (!seen) attrs.push_back({name, type});
    }
  }
  return attrs;
}

bool fits(const std::string& type, const json& v) {
  if (type.empty()) return true;
  if (type == "Float") return v.is_number_float();
  if (type == "Int") return v.is_number_integer() && !v.is_boolean();
  if (type == "Bool") return v.is_boolean();
  if (type == "String") return v.is_string();
  return v.is_array();
}

// get_init_inputs() values -> NAME=VALUE attrs (rules in evaluate.h).
std::vector<std::string> map_attrs(const std::vector<std::pair<std::string, std::string>>& attrs, const json& a) {
  std::vector<std::string> out;
  json names = a.value("names", json::array()), values = a.value("values", json::array());
  bool by_name = false;
  for (auto& n : attrs)
    for (auto& m : names)
      if (m == n.first) by_name = true;
  size_t next = 0;
  for (size_t i = 0; i < attrs.size(); ++i) {
    long k = -1;
    if (by_name) {
      for (size_t j = 0; j < names.size() && j < values.size(); ++j)
        if (names[j] == attrs[i].first) k = static_cast<long>(j);
    } else {
      while (next < values.size() && !fits(attrs[i].second, values[next])) ++next;
      if (next < values.size()) k = static_cast<long>(next++);
    }
    if (k < 0) continue;
    std::string v = attr_value(values[k]);
    if (!v.empty()) out.push_back(attrs[i].first + "=" + v);
  }
  return out;
}

// One (case, trial) of the batch.
struct Run {
  std::string id;           // c<case>t<trial> or c<case>s<trial> (secret)
  size_t case_index = 0;
  int trial = 0;
  bool secret = false;
  fs::path dir;             // its reference folder
  json meta;
};
std::string run_label(const Run& r, const std::string& case_name) {
  return fmt::format("case {}, {}trial {}", case_name, r.secret ? "secret " : "", r.trial);
}
}  // namespace

void eval_op_project(const EvalOptions& o, EvalResult& R) {
  json doc;
  RefRequest q;
  q.perf = o.perf_shape;
  if (!load_reference(o, q, R, doc)) return;

  op::Project p;
  if (std::string e = op::find_project(o.candidate, p); !e.empty())
    return set_fail(R, {Verdict::CompileError, "",
                        {"error[compile] " + o.candidate + ": " + e +
                         " — an op project needs an op_host .cpp that includes register/op_def_registry.h and an "
                         "op_kernel .cpp that includes kernel_operator.h"}});

  std::vector<Run> runs;
  std::vector<CaseResult> cases;
  for (const auto& c : doc["cases"]) {
    CaseResult cr;
    cr.name = c["name"].get<std::string>();
    cases.push_back(cr);
    for (const char* field : {"trials", "secret_trials"}) {
      int t = 0;
      for (const auto& d : c.value(field, json::array())) {
        Run r;
        r.case_index = cases.size() - 1;
        r.trial = t++;
        r.secret = std::string(field) == "secret_trials";
        r.id = fmt::format("c{}{}{}", r.case_index, r.secret ? "s" : "t", r.trial);
        r.dir = d.get<std::string>();
        r.meta = json::parse(read_text((r.dir / "meta.json").string()));
        runs.push_back(std::move(r));
      }
    }
  }
  if (runs.empty()) return set_fail(R, {Verdict::RuntimeError, "task", {"error[task] " + o.task + ": no cases"}});

  // The libraries, built here in sandboxed compiles (prebuild.h): only the compiler runs there, so they may be shared.
  std::vector<std::vector<int>> dtypes;
  for (const Run& r : runs) {
    std::vector<int> d;
    for (const auto& in : r.meta["inputs"]) d.push_back(npy_dtype_of(in.value("dtype", "")));
    dtypes.push_back(d);
  }
  op::Prebuilt pre = op::prebuild(p, o.soc, dtypes);
  R.build_s = pre.seconds;
  if (!prebuild_ok(pre, R)) return;
  const std::vector<std::string>& libs = pre.files;

  // The batch: every (case, trial), inputs by path, attrs from the Model's init values.
  TempDirGuard tmp("kgen-eval-");
  auto attrs = opdef_attrs(o.candidate);
  json batch = {{"runs", json::array()}};
  sandbox::Policy pol = candidate_policy(o);
  pol.binds.push_back({p.dir, false});
  for (const std::string& l : libs) pol.binds.push_back({l, false});
  for (const Run& r : runs) {
    json jr = {{"id", r.id}, {"inputs", json::array()}, {"trace", !r.secret && r.trial == 0},
               {"timing_check", o.timing_check && r.case_index == 0 && !r.secret && r.trial == 0}};
    for (const auto& in : r.meta["inputs"]) {
      std::string f = (r.dir / in["file"].get<std::string>()).string();
      jr["inputs"].push_back(sandbox::hide_file(pol, f, sandbox::default_mode()));
    }
    json at = json::parse(read_text((r.dir / "attrs.json").string()));
    jr["attrs"] = map_attrs(attrs, at);
    batch["runs"].push_back(jr);
  }
  const std::string failed_builds = op::write_failed_builds(pre, tmp.path + "/failed-builds");
  sandbox::Child c = oprun_batch_child(o, p.dir, batch, tmp.path + "/runs.json", failed_builds, pol);

  // The judgement, run by run as the frames arrive: outputs against the reference, the trace through the model.
  perf::Profile prof = perf::load_profile(o.soc);
  std::map<std::string, size_t> by_id;
  for (size_t i = 0; i < runs.size(); ++i) by_id[runs[i].id] = i;
  std::map<size_t, op::NpyArray> outs;   // output index -> array, for the run in progress
  std::string trace_bytes, timing_bytes;   // a run's trace; with --timing-check, case 0's timing-only trace too
  size_t done = 0;
  Judgement J;
  auto judge = [&](const sandbox::Frame& fr) -> bool {
    size_t dot = fr.name.find('.');
    std::string id = fr.name.substr(0, dot);
    auto it = by_id.find(id);
    if (it == by_id.end() || it->second != done)
      return J.stop({Verdict::RuntimeError, "protocol",
                     {"error[protocol] " + o.candidate + ": the candidate's process sent a result for '" + fr.name +
                      "' out of order on kgen's result channel"}});
    const Run& r = runs[it->second];
    CaseResult& cr = cases[r.case_index];
    if (fr.kind == "npy") return take_output(fr, outs, J, o.candidate);
    if (fr.kind == "trace") {
      (fr.name.size() > 7 && fr.name.compare(fr.name.size() - 7, 7, ".timing") == 0 ? timing_bytes : trace_bytes) = fr.data;
      return true;
    }
    if (fr.kind != "json") return true;
    // The run's summary: the child's claims (names, unwritten counts, notes); values are checked here.
    const json got = summary_of(fr);
    const json& want = r.meta["outputs"];
    const json gouts = got.contains("outputs") && got["outputs"].is_array() ? got["outputs"] : json::array();
    std::string mismatch;
    if (outs.size() != want.size()) {
      mismatch = fmt::format("the op has {} output(s), the task's forward returns {}", outs.size(), want.size());
    } else {
      for (size_t k = 0; k < want.size() && mismatch.empty(); ++k) {
        std::string name = k < gouts.size() && gouts[k].contains("name") && gouts[k]["name"].is_string()
                               ? sandbox::utf8_clean(gouts[k]["name"].get<std::string>()).substr(0, 64)
                               : "output" + std::to_string(k);
        auto wo = outs.find(k);
        if (wo == outs.end()) {
          mismatch = fmt::format("output {} ('{}') was not returned", k, name);
          break;
        }
        op::NpyArray ref;
        std::string wdt = want[k]["dtype"].get<std::string>();
        if (std::string e = op::read_npy((r.dir / want[k]["file"].get<std::string>()).string(), ref); !e.empty())
          throw std::runtime_error("reference " + e);
        Compared cmp = compare_arrays(k, name, ref, wdt, wo->second, tol_for(o, wdt), true);
        cr.max_abs_err = std::max(cr.max_abs_err, cmp.max_abs);
        cr.max_rel_err = std::max(cr.max_rel_err, cmp.max_rel);
        cr.tol_err = std::max(cr.tol_err, cmp.max_tol);
        int64_t unwritten = k < gouts.size() ? gouts[k].value("unwritten", int64_t{0}) : 0;
        int64_t untraced = k < gouts.size() ? gouts[k].value("untraced", int64_t{0}) : 0;
        if (untraced > 0)
          return J.stop({Verdict::Cheating, "",
                         {fmt::format("cheating {}: {}: {} elements of output {} ('{}') were written outside the "
                                      "emulated AscendC API (no traced instruction wrote them) — a kernel computes "
                                      "through DataCopy and the vector/cube instructions",
                                      o.candidate, run_label(r, cr.name), untraced, k, name)}});
        if (!cmp.mismatch.empty()) {
          mismatch = cmp.mismatch;
          if (unwritten) mismatch += fmt::format("; {} elements never written by the kernel", unwritten);
        } else if (unwritten) {
          mismatch = fmt::format("output {} ('{}'): {} of {} elements were never written by the kernel", k, name,
                                 unwritten, ref.elements());
        }
      }
    }
    if (!r.secret && r.trial == 0) {
      Modeled m;
      if (!o.profile_dir.empty()) m.profile_prefix = profile_prefix(o.profile_dir, cr.name);
      std::string err;
      if (trace_bytes.empty() || !add_launch(trace_bytes, prof, r.case_index == 0, m, err))
        return J.stop({Verdict::RuntimeError, "protocol",
                       {"error[protocol] " + o.candidate + ": " + run_label(r, cr.name) +
                        ": no valid launch trace came back (" + (err.empty() ? "none sent" : err) + ")"}});
      set_modeled(cr, m);
      R.profile.insert(R.profile.end(), m.profile_files.begin(), m.profile_files.end());
      if (r.case_index == 0) R.timeline = timeline_of(m.lanes, cr.name);
      if (o.timing_check && r.case_index == 0) {   // the two traces compared here, not by the candidate's process
        const json tc = got.value("timing_check", json::object());
        std::string diff = tc.contains("failed") && tc["failed"].is_string()
                               ? "the timing-only run failed: " + sandbox::utf8_clean(tc["failed"].get<std::string>()).substr(0, 400)
                               : perf::first_difference(trace_bytes, timing_bytes);
        R.timing_check = diff.empty() ? "equal" : diff;
        if (!diff.empty())
          R.diagnostics.push_back("note: timing check, case " + cr.name + ": the timing-only trace differs from the full "
                                  "run's — " + diff);
      }
      const EagerTime eager = eager_us_of((r.dir / "trace.json").string(), o);
      cr.eager_modeled_us = eager.us;
      cr.eager_launch_us = eager.launch_us;
      // Every output byte must be written; inputs may be read in part.
      if (mismatch.empty() && !within_physics(m, tensor_bytes(want), prof, o.candidate, "case " + cr.name + ": ", J))
        return false;
    }
    R.build_s += got.value("build_s", 0.0) > 0 && got.value("build_s", 0.0) < 1e4 ? got.value("build_s", 0.0) : 0.0;
    outs.clear();
    trace_bytes.clear();
    timing_bytes.clear();
    ++done;
    if (!mismatch.empty()) {
      cr.first_mismatch = fmt::format("{}trial {}: {}", r.secret ? "secret " : "", r.trial, mismatch);
      Fail f{Verdict::WrongAnswer, "",
             {fmt::format("error[mismatch] {}: {}: {}", o.candidate, run_label(r, cr.name), mismatch)}};
      if (r.secret)
        f.diags.push_back("note: the secret trials draw inputs from a seed chosen for this run; an output right on "
                          "the fixed-seed trials and wrong here was not computed from its inputs");
      return J.stop(f);
    }
    // The last trial of a case: the case passed.
    if (it->second + 1 == runs.size() || runs[it->second + 1].case_index != r.case_index) cr.correct = true;
    return true;
  };
  c.on_frame = guarded(judge, J);
  auto t_run = std::chrono::steady_clock::now();
  sandbox::Result res = sandbox::run(c, candidate_limits(o, static_cast<int>(runs.size())), pol, sandbox::default_mode());
  R.run_s = since(t_run);
  const size_t last_case = done < runs.size() ? runs[done].case_index : cases.size() - 1;
  for (size_t i = 0; i <= last_case && i < cases.size(); ++i) R.cases.push_back(cases[i]);
  if (J.failed) return set_fail(R, J.fail);
  if (done == runs.size() && res.status == 0 && !res.timed_out) {
    R.verdict = Verdict::Correct;
    if (doc.contains("perf")) {   // correct at every check shape: now timed at the benchmark's size
      const json& pf = doc["perf"];
      PerfRun pr{p.dir, libs, failed_builds, {}};
      const fs::path attrs_file = fs::path(pf.value("dir", "")) / "attrs.json";
      if (fs::exists(attrs_file)) pr.attrs = map_attrs(attrs, json::parse(read_text(attrs_file.string())));
      auto t_perf = std::chrono::steady_clock::now();
      time_perf_shape(o, pf, pr, R);
      R.run_s += since(t_perf);
    }
    return;
  }
  const Run& pending = runs[std::min(done, runs.size() - 1)];
  Fail f = child_failure(o, res, "the op run", run_label(pending, cases[pending.case_index].name));
  set_fail(R, f);
}
}  // namespace kgen::eval
