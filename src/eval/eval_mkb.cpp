// A MultiKernelBench submission on a task: the reference (MultiKernelBench's seeding) computed by reference.py in
// its own process, the submission's Python and kernels in one sandboxed run of python/kgen_mkb/run_mkb.py, the
// comparison and the performance model here.
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "eval/compare.h"
#include "eval/eval_internal.h"
#include "eval/judge.h"
#include "eval/modeled.h"
#include "eval/reference.h"
#include "op/npy.h"
#include "sandbox/paths.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

struct Trial {
  std::string id;           // t<k> (seed) or s<k> (secret seed)
  int trial = 0;
  bool secret = false;
  fs::path dir;
  json meta;
};

// ModelNew's positional arguments of one trial: the tensor inputs (meta name "input<i>") and the non-tensor
// forward arguments at their indices.
json args_of(const Trial& t) {
  std::map<int, json> at;
  for (const auto& in : t.meta["inputs"]) {
    std::string n = in.value("name", "");
    int i = n.rfind("input", 0) == 0 ? std::atoi(n.c_str() + 5) : static_cast<int>(at.size());
    at[i] = {{"tensor", (t.dir / in["file"].get<std::string>()).string()}, {"dtype", in.value("dtype", "")}};
  }
  for (const auto& s : t.meta.value("forward_scalars", json::array())) at[s.value("index", 0)] = {{"value", s["value"]}};
  json a = json::array();
  for (auto& [i, v] : at) a.push_back(v);
  return a;
}
}  // namespace

void eval_mkb(const EvalOptions& o, EvalResult& R) {
  RefRequest q;
  q.cases = {"default"};   // MultiKernelBench runs the task as written
  q.mkb_seeding = true;
  json doc;
  if (!load_reference(o, q, R, doc)) return;
  if (doc["cases"].empty())
    return set_fail(R, {Verdict::RuntimeError, "task", {"error[task] " + o.task + ": no default case"}});
  const json& c0 = doc["cases"][0];
  CaseResult cr;
  cr.name = c0["name"].get<std::string>();

  std::vector<Trial> trials;
  json manifest = {{"groups", json::array()}};
  sandbox::Policy pol = candidate_policy(o);
  const std::string sub = fs::absolute(o.candidate).string(), task = fs::absolute(o.task).string();
  pol.binds.push_back({sub, false});
  pol.binds.push_back({task, false});
  for (const char* field : {"trials", "secret_trials"}) {
    json g = {{"seed", std::string(field) == "trials" ? o.seed : static_cast<int64_t>(o.secret_seed)},
              {"trials", json::array()}};
    int k = 0;
    for (const auto& d : c0.value(field, json::array())) {
      Trial t;
      t.trial = k++;
      t.secret = std::string(field) == "secret_trials";
      t.id = fmt::format("{}{}", t.secret ? "s" : "t", t.trial);
      t.dir = d.get<std::string>();
      t.meta = json::parse(read_text((t.dir / "meta.json").string()));
      json a = args_of(t);
      for (auto& x : a)
        if (x.contains("tensor"))
          x["tensor"] = sandbox::hide_file(pol, x["tensor"].get<std::string>(), sandbox::default_mode());
      g["trials"].push_back({{"id", t.id}, {"args", a}});
      trials.push_back(std::move(t));
    }
    if (!g["trials"].empty()) manifest["groups"].push_back(g);
  }
  TempDirGuard tmp("kgen-mkb-");
  const std::string mfile = tmp.path + "/manifest.json";
  std::ofstream(mfile) << manifest.dump();
  const std::string mfile_inside = sandbox::hide_file(pol, mfile, sandbox::default_mode());

  sandbox::Child c;
  c.argv = {o.python, "-B", sandbox::paths().source_dir + "/python/kgen_mkb/run_mkb.py", sub, "--task", task,
            "--oprun", oprun_path(o), "--work", "kgen-mkb-work", "--manifest", mfile_inside, "--channel", "3", "--soc",
            o.soc};
  c.clear_env = true;
  c.env = {"KGEN_CACHE=" + cache_dir(o), "KGEN_PRIVATE_BUILD=1", "PYTHONDONTWRITEBYTECODE=1"};
  if (o.max_records) c.env.push_back("KGEN_MAX_RECORDS=" + std::to_string(o.max_records));

  perf::Profile prof = perf::load_profile(o.soc);
  std::map<size_t, op::NpyArray> outs;
  std::vector<std::string> traces;
  size_t done = 0;
  Judgement J;
  const EagerTime eager = eager_us_of((trials[0].dir / "trace.json").string(), o);
  cr.eager_modeled_us = eager.us;
  cr.eager_launch_us = eager.launch_us;
  auto judge = [&](const sandbox::Frame& fr) -> bool {
    size_t dot = fr.name.find('.');
    std::string id = fr.name.substr(0, dot);
    if (done >= trials.size() || id != trials[done].id)
      return J.stop({Verdict::RuntimeError, "protocol",
                     {"error[protocol] " + o.candidate + ": a result for '" + fr.name + "' out of order on kgen's "
                      "result channel"}});
    const Trial& t = trials[done];
    if (fr.kind == "npy") return take_output(fr, outs, J, o.candidate);
    if (fr.kind == "trace") {
      traces.push_back(fr.data);
      return true;
    }
    if (fr.kind != "json") return true;
    const json got = summary_of(fr);
    const json& want = t.meta["outputs"];
    std::string mismatch;
    if (outs.size() != want.size())
      mismatch = fmt::format("ModelNew returned {} output(s), the reference {}", outs.size(), want.size());
    for (size_t k = 0; k < want.size() && mismatch.empty(); ++k) {
      auto g = outs.find(k);
      if (g == outs.end()) {
        mismatch = fmt::format("output {} was not returned", k);
        break;
      }
      op::NpyArray ref;
      std::string wdt = want[k]["dtype"].get<std::string>();
      if (std::string e = op::read_npy((t.dir / want[k]["file"].get<std::string>()).string(), ref); !e.empty())
        throw std::runtime_error("reference " + e);
      Compared cmp = compare_arrays(k, "output" + std::to_string(k), ref, wdt, g->second, tol_for(o, wdt), false);
      cr.max_abs_err = std::max(cr.max_abs_err, cmp.max_abs);
      cr.max_rel_err = std::max(cr.max_rel_err, cmp.max_rel);
      cr.tol_err = std::max(cr.tol_err, cmp.max_tol);
      mismatch = cmp.mismatch;
    }
    if (done == 0) {
      Modeled m;
      if (!o.profile_dir.empty()) m.profile_prefix = profile_prefix(o.profile_dir, cr.name);
      if (!model_launches(traces, prof, o.candidate, "ModelNew.forward", m, J)) return false;
      set_modeled(cr, m);
      R.profile.insert(R.profile.end(), m.profile_files.begin(), m.profile_files.end());
      R.timeline = timeline_of(m.lanes, cr.name);
      if (mismatch.empty() && !within_physics(m, tensor_bytes(want), prof, o.candidate, "", J)) return false;
    }
    if (got.contains("notes") && got["notes"].is_array())
      for (const auto& n : got["notes"])
        if (n.is_string() && R.diagnostics.size() < 20) R.diagnostics.push_back(sandbox::utf8_clean(n.get<std::string>()));
    outs.clear();
    traces.clear();
    ++done;
    if (!mismatch.empty()) {
      cr.first_mismatch = fmt::format("{}trial {}: {}", t.secret ? "secret " : "", t.trial, mismatch);
      return J.stop({Verdict::WrongAnswer, "",
                     {fmt::format("error[mismatch] {}: {}trial {}: {} — ModelNew's output differs from the reference "
                                  "Model's",
                                  o.candidate, t.secret ? "secret " : "", t.trial, mismatch)}});
    }
    return true;
  };
  c.on_frame = guarded(judge, J);
  auto t_run = std::chrono::steady_clock::now();
  sandbox::Result res =
      sandbox::run(c, candidate_limits(o, static_cast<int>(trials.size())), pol, sandbox::default_mode());
  R.run_s = since(t_run);
  R.cases.push_back(cr);
  if (J.failed) return set_fail(R, J.fail);
  if (done == trials.size() && res.status == 0 && !res.timed_out) {
    R.cases.back().correct = true;
    R.verdict = Verdict::Correct;
    return;
  }
  const Trial& pending = trials[std::min(done, trials.size() - 1)];
  set_fail(R, child_failure(o, res, "the MultiKernelBench run",
                            fmt::format("{}trial {}", pending.secret ? "secret " : "", pending.trial)));
}
}  // namespace kgen::eval
