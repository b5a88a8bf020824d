// Verdict names and the JSON form of EvalResult (result.h, result_json.h).
#include <cmath>
#include <limits>

#include "eval/result.h"
#include "eval/result_json.h"

namespace kgen::eval {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::CompileError: return "compile-error";
    case Verdict::RuntimeError: return "runtime-error";
    case Verdict::Timeout: return "timeout";
    case Verdict::WrongAnswer: return "wrong-answer";
    case Verdict::Cheating: return "cheating";
    case Verdict::Correct: return "correct";
    case Verdict::NoCode: return "no-code";
  }
  return "unknown";
}

bool parse_verdict(const std::string& s, Verdict& v) {
  for (Verdict c : {Verdict::CompileError, Verdict::RuntimeError, Verdict::Timeout, Verdict::WrongAnswer,
                    Verdict::Cheating, Verdict::Correct, Verdict::NoCode})
    if (s == verdict_name(c)) { v = c; return true; }
  return false;
}

namespace {
using nlohmann::json;

json num(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return d;
}

const char* type_of(const json& j) { return j.type_name(); }

// Each getter: absent key -> keep default, true; wrong type -> false with err.
bool get(const json& j, const char* key, std::string& out, const std::string& where, std::string& err) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_string()) { err = where + "field '" + key + "': expected a string, got " + type_of(*it); return false; }
  out = it->get<std::string>();
  return true;
}
bool get(const json& j, const char* key, int& out, const std::string& where, std::string& err) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_number_integer()) {
    err = where + "field '" + key + "': expected an integer, got " + (it->is_number() ? "a non-integer number" : type_of(*it));
    return false;
  }
  out = it->get<int>();
  return true;
}
bool get(const json& j, const char* key, uint64_t& out, const std::string& where, std::string& err) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_number_unsigned()) {
    err = where + "field '" + key + "': expected a non-negative integer, got " + type_of(*it);
    return false;
  }
  out = it->get<uint64_t>();
  return true;
}
bool get(const json& j, const char* key, bool& out, const std::string& where, std::string& err) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_boolean()) { err = where + "field '" + key + "': expected a boolean, got " + type_of(*it); return false; }
  out = it->get<bool>();
  return true;
}
bool get(const json& j, const char* key, double& out, const std::string& where, std::string& err) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (it->is_number()) { out = it->get<double>(); return true; }
  if (it->is_string()) {
    const std::string s = it->get<std::string>();
    if (s == "nan") { out = std::numeric_limits<double>::quiet_NaN(); return true; }
    if (s == "inf") { out = std::numeric_limits<double>::infinity(); return true; }
    if (s == "-inf") { out = -std::numeric_limits<double>::infinity(); return true; }
  }
  err = where + "field '" + key + "': expected a number (or \"nan\", \"inf\", \"-inf\"), got " +
        (it->is_string() ? "\"" + it->get<std::string>() + "\"" : std::string(type_of(*it)));
  return false;
}
bool get(const json& j, const char* key, std::vector<std::string>& out, const std::string& where, std::string& err) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_array()) { err = where + "field '" + key + "': expected an array of strings, got " + type_of(*it); return false; }
  out.clear();
  for (size_t i = 0; i < it->size(); ++i) {
    const json& e = (*it)[i];
    if (!e.is_string()) {
      err = where + "field '" + key + "[" + std::to_string(i) + "]': expected a string, got " + type_of(e);
      return false;
    }
    out.push_back(e.get<std::string>());
  }
  return true;
}
}  // namespace

json to_json(const CaseResult& c) {
  return json{{"name", c.name},
              {"correct", c.correct},
              {"max_abs_err", num(c.max_abs_err)},
              {"max_rel_err", num(c.max_rel_err)},
              {"tol_err", num(c.tol_err)},
              {"first_mismatch", c.first_mismatch},
              {"modeled_us", num(c.modeled_us)},
              {"eager_modeled_us", num(c.eager_modeled_us)},
              {"gm_bytes", num(c.gm_bytes)},
              {"flops", num(c.flops)},
              {"bound", c.bound},
              {"launch_us", num(c.launch_us)},
              {"eager_launch_us", num(c.eager_launch_us)}};
}

json to_json(const PerfResult& p) {
  auto share = [](double part, double all) { return all > 0 ? num(part / all) : json(nullptr); };
  return json{{"shape", p.shape},
              {"inputs", p.inputs},
              {"skipped", p.skipped},
              {"modeled", true},
              {"modeled_us", num(p.modeled_us)},
              {"eager_modeled_us", num(p.eager_modeled_us)},
              {"launch_us", num(p.launch_us)},
              {"eager_launch_us", num(p.eager_launch_us)},
              {"launch_share", share(p.launch_us, p.modeled_us)},
              {"eager_launch_share", share(p.eager_launch_us, p.eager_modeled_us)},
              {"speedup", num(p.speedup)},
              {"body_speedup", num(p.body_speedup)},
              {"bound", p.bound},
              {"gm_bytes", num(p.gm_bytes)},
              {"flops", num(p.flops)},
              {"records", p.records},
              {"seconds", num(p.seconds)},
              {"peak_rss_mb", num(p.peak_rss_mb)},
              {"note", p.note}};
}

json to_json(const Timeline& t) {
  json lanes = json::array();
  for (const TimelineLane& l : t.lanes)
    lanes.push_back(json{{"core", l.core}, {"pipe", l.pipe}, {"busy_us", num(l.busy_us)}, {"spans", l.spans}});
  json all = json::array();
  for (const TimelineCore& c : t.all_cores)
    all.push_back(json{{"core", c.core}, {"start_us", num(c.start_us)}, {"end_us", num(c.end_us)}, {"pipe", c.pipe},
                       {"busy_us", num(c.busy_us)}});
  return json{{"kernel", t.kernel}, {"case_name", t.case_name}, {"bound", t.bound}, {"body_us", num(t.body_us)},
              {"cores", t.cores}, {"lanes", lanes}, {"all_cores", all}};
}

json to_json(const EvalResult& r) {
  json cases = json::array();
  for (const CaseResult& c : r.cases) cases.push_back(to_json(c));
  return json{{"task_id", r.task_id},
              {"category", r.category},
              {"level", r.level},
              {"candidate", r.candidate},
              {"candidate_kind", r.candidate_kind},
              {"task_hash", r.task_hash},
              {"candidate_hash", r.candidate_hash},
              {"kgen_version", r.kgen_version},
              {"soc", r.soc},
              {"sample", r.sample},
              {"verdict", verdict_name(r.verdict)},
              {"error_category", r.error_category},
              {"diagnostics", r.diagnostics},
              {"cases", cases},
              {"trials", r.trials},
              {"max_abs_err", num(r.max_abs_err)},
              {"max_rel_err", num(r.max_rel_err)},
              {"tol_err", num(r.tol_err)},
              {"modeled_us", num(r.modeled_us)},
              {"eager_modeled_us", num(r.eager_modeled_us)},
              {"launch_us", num(r.launch_us)},
              {"eager_launch_us", num(r.eager_launch_us)},
              {"check_speedup", num(r.check_speedup)},
              {"speedup", num(r.speedup)},
              {"speedup_shape", r.perf.timed() ? "perf" : "check"},
              {"perf", to_json(r.perf)},
              {"seconds", num(r.seconds)},
              {"reference_s", num(r.reference_s)},
              {"build_s", num(r.build_s)},
              {"run_s", num(r.run_s)},
              {"timing_check", r.timing_check},
              {"profile", r.profile},
              {"timeline", to_json(r.timeline)}};
}

namespace {
bool case_from_json(const json& j, CaseResult& c, const std::string& w, std::string& err) {
  if (!j.is_object()) { err = w + "expected an object, got " + type_of(j); return false; }
  return get(j, "name", c.name, w, err) && get(j, "correct", c.correct, w, err) &&
         get(j, "max_abs_err", c.max_abs_err, w, err) && get(j, "max_rel_err", c.max_rel_err, w, err) &&
         get(j, "tol_err", c.tol_err, w, err) &&
         get(j, "first_mismatch", c.first_mismatch, w, err) && get(j, "modeled_us", c.modeled_us, w, err) &&
         get(j, "eager_modeled_us", c.eager_modeled_us, w, err) && get(j, "gm_bytes", c.gm_bytes, w, err) &&
         get(j, "flops", c.flops, w, err) && get(j, "bound", c.bound, w, err) &&
         get(j, "launch_us", c.launch_us, w, err) && get(j, "eager_launch_us", c.eager_launch_us, w, err);
}

bool perf_from_json(const json& j, PerfResult& p, const std::string& w, std::string& err) {
  if (!j.is_object()) { err = w + "expected an object, got " + type_of(j); return false; }
  return get(j, "shape", p.shape, w, err) && get(j, "inputs", p.inputs, w, err) &&
         get(j, "skipped", p.skipped, w, err) && get(j, "modeled_us", p.modeled_us, w, err) &&
         get(j, "eager_modeled_us", p.eager_modeled_us, w, err) && get(j, "launch_us", p.launch_us, w, err) &&
         get(j, "eager_launch_us", p.eager_launch_us, w, err) && get(j, "speedup", p.speedup, w, err) &&
         get(j, "body_speedup", p.body_speedup, w, err) && get(j, "bound", p.bound, w, err) &&
         get(j, "gm_bytes", p.gm_bytes, w, err) && get(j, "flops", p.flops, w, err) &&
         get(j, "records", p.records, w, err) && get(j, "seconds", p.seconds, w, err) &&
         get(j, "peak_rss_mb", p.peak_rss_mb, w, err) && get(j, "note", p.note, w, err);
}

bool get(const json& j, const char* key, std::vector<double>& out, const std::string& where, std::string& err) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_array()) { err = where + "field '" + key + "': expected an array of numbers, got " + type_of(*it); return false; }
  out.clear();
  for (size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_number()) {
      err = where + "field '" + key + "[" + std::to_string(i) + "]': expected a number, got " + type_of((*it)[i]);
      return false;
    }
    out.push_back((*it)[i].get<double>());
  }
  return true;
}

bool timeline_from_json(const json& j, Timeline& t, const std::string& w, std::string& err) {
  if (!j.is_object()) { err = w + "expected an object, got " + type_of(j); return false; }
  if (!(get(j, "kernel", t.kernel, w, err) && get(j, "case_name", t.case_name, w, err) &&
        get(j, "bound", t.bound, w, err) && get(j, "body_us", t.body_us, w, err) && get(j, "cores", t.cores, w, err)))
    return false;
  auto it = j.find("lanes");
  if (it == j.end()) return true;
  if (!it->is_array()) { err = w + "field 'lanes': expected an array, got " + type_of(*it); return false; }
  t.lanes.clear();
  for (size_t i = 0; i < it->size(); ++i) {
    const json& l = (*it)[i];
    const std::string lw = w + "lanes[" + std::to_string(i) + "]: ";
    if (!l.is_object()) { err = lw + "expected an object, got " + type_of(l); return false; }
    TimelineLane lane;
    if (!(get(l, "core", lane.core, lw, err) && get(l, "pipe", lane.pipe, lw, err) &&
          get(l, "busy_us", lane.busy_us, lw, err) && get(l, "spans", lane.spans, lw, err)))
      return false;
    t.lanes.push_back(std::move(lane));
  }
  t.all_cores.clear();
  if (auto ac = j.find("all_cores"); ac != j.end() && ac->is_array())   // absent in results written before it
    for (size_t i = 0; i < ac->size(); ++i) {
      const json& c = (*ac)[i];
      const std::string cw = w + "all_cores[" + std::to_string(i) + "]: ";
      TimelineCore tc;
      if (!c.is_object() || !(get(c, "core", tc.core, cw, err) && get(c, "start_us", tc.start_us, cw, err) &&
                              get(c, "end_us", tc.end_us, cw, err) && get(c, "pipe", tc.pipe, cw, err) &&
                              get(c, "busy_us", tc.busy_us, cw, err))) {
        if (err.empty()) err = cw + "expected an object";
        return false;
      }
      t.all_cores.push_back(std::move(tc));
    }
  return true;
}
}  // namespace

bool from_json(const json& j, CaseResult& c, std::string& err) { return case_from_json(j, c, "case: ", err); }

bool from_json(const json& j, EvalResult& r, std::string& err) {
  const std::string w = "eval result: ";
  if (!j.is_object()) { err = w + "expected an object, got " + type_of(j); return false; }
  auto vit = j.find("verdict");
  if (vit == j.end()) { err = w + "field 'verdict' is missing"; return false; }
  if (!vit->is_string()) { err = w + "field 'verdict': expected a string, got " + type_of(*vit); return false; }
  if (!parse_verdict(vit->get<std::string>(), r.verdict)) {
    err = w + "field 'verdict': unknown verdict \"" + vit->get<std::string>() +
          "\" (expected compile-error, runtime-error, timeout, wrong-answer, cheating or correct)";
    return false;
  }
  if (!(get(j, "task_id", r.task_id, w, err) && get(j, "category", r.category, w, err) &&
        get(j, "level", r.level, w, err) && get(j, "candidate", r.candidate, w, err) &&
        get(j, "candidate_kind", r.candidate_kind, w, err) && get(j, "task_hash", r.task_hash, w, err) &&
        get(j, "candidate_hash", r.candidate_hash, w, err) && get(j, "kgen_version", r.kgen_version, w, err) &&
        get(j, "soc", r.soc, w, err) && get(j, "sample", r.sample, w, err) &&
        get(j, "error_category", r.error_category, w, err) && get(j, "diagnostics", r.diagnostics, w, err) &&
        get(j, "trials", r.trials, w, err) && get(j, "max_abs_err", r.max_abs_err, w, err) &&
        get(j, "max_rel_err", r.max_rel_err, w, err) && get(j, "tol_err", r.tol_err, w, err) && get(j, "modeled_us", r.modeled_us, w, err) &&
        get(j, "eager_modeled_us", r.eager_modeled_us, w, err) && get(j, "speedup", r.speedup, w, err) &&
        get(j, "seconds", r.seconds, w, err) && get(j, "reference_s", r.reference_s, w, err) &&
        get(j, "build_s", r.build_s, w, err) && get(j, "run_s", r.run_s, w, err)))
    return false;
  if (auto tit = j.find("timeline"); tit != j.end() && !timeline_from_json(*tit, r.timeline, w + "timeline: ", err))
    return false;
  if (j.contains("timing_check") && !get(j, "timing_check", r.timing_check, w, err)) return false;
  if (j.contains("profile") && !get(j, "profile", r.profile, w, err)) return false;
  if (!(get(j, "launch_us", r.launch_us, w, err) && get(j, "eager_launch_us", r.eager_launch_us, w, err) &&
        get(j, "check_speedup", r.check_speedup, w, err)))
    return false;
  if (auto pit = j.find("perf"); pit != j.end() && !perf_from_json(*pit, r.perf, w + "perf: ", err)) return false;
  auto cit = j.find("cases");
  if (cit != j.end()) {
    if (!cit->is_array()) { err = w + "field 'cases': expected an array, got " + type_of(*cit); return false; }
    r.cases.clear();
    for (size_t i = 0; i < cit->size(); ++i) {
      CaseResult c;
      if (!case_from_json((*cit)[i], c, w + "cases[" + std::to_string(i) + "]: ", err)) return false;
      r.cases.push_back(std::move(c));
    }
  }
  return true;
}

bool better(const EvalResult& a, const EvalResult& b) {
  const bool ca = a.verdict == Verdict::Correct, cb = b.verdict == Verdict::Correct;
  if (ca != cb) return ca;
  if (ca) return a.speedup > b.speedup;
  // Neither correct: a candidate that compiled and ran beats one that did not, so best-of-k shows the nearest miss.
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::WrongAnswer: return 4;
      case Verdict::Timeout: return 3;
      case Verdict::RuntimeError: return 2;
      case Verdict::CompileError:
      case Verdict::Cheating: return 1;
      default: return 0;
    }
  };
  return rank(a.verdict) > rank(b.verdict);
}
}  // namespace kgen::eval
