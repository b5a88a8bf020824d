// One candidate on one task (see evaluate.h for the pipeline and the mapping rules).
#include "eval/evaluate.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/subprocess.h"
#include "eval/static_checks.h"
#include "op/npy.h"
#include "perf/eager.h"
#include "perf/profile.h"
#include "tile/compile.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint64_t fnv(uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}
std::string hex(uint64_t h) { return fmt::format("{:016x}", h); }

std::string hash_candidate(const std::string& c) {
  uint64_t h = 1469598103934665603ull;
  std::error_code ec;
  if (fs::is_directory(c, ec)) {
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(c, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->is_regular_file()) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (auto& f : files) h = fnv(fnv(h, fs::relative(f, c).string()), read_text(f));
  } else {
    h = fnv(h, read_text(c));
  }
  return hex(h);
}

}  // namespace

std::string cache_dir(const EvalOptions& o) {
  if (!o.cache.empty()) return o.cache;
  if (const char* c = std::getenv("KGEN_CACHE"); c && *c) return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kgen";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/tmp") + "/.cache/kgen";
}

namespace {

std::string oprun_path(const EvalOptions& o) {
  if (!o.oprun.empty()) return o.oprun;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ((ec ? fs::path(".") : exe.parent_path()) / "kgen-oprun").string();
}

struct TempDir {
  std::string path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "kgen-eval-XXXXXX").string();
    std::vector<char> b(t.begin(), t.end());
    b.push_back(0);
    if (mkdtemp(b.data())) path = b.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// A clean environment for the candidate's child: only what the compilers and kgen need, plus the run's own vars.
std::vector<std::string> clean_env(const EvalOptions& o, const std::string& prof) {
  const char* path = std::getenv("PATH");
  std::vector<std::string> a = {"/usr/bin/env", "-i",
                                std::string("PATH=") + (path ? path : "/usr/bin:/bin"),
                                "HOME=" + fs::temp_directory_path().string(), "LANG=C",
                                "TMPDIR=" + fs::temp_directory_path().string(), "KGEN_CACHE=" + cache_dir(o)};
  if (!prof.empty()) {
    a.push_back("KGEN_PROFILE=" + prof);
    a.push_back("KGEN_PROFILE_SOC=" + o.soc);
  }
  return a;
}

// First `error[CAT]` line of a child's output.
bool first_error(const std::string& out, std::string& cat, std::string& line) {
  static const std::regex re(R"((?:^|\n)(?:[^\n]*?)error\[([\w-]+)\]([^\n]*))");
  std::smatch m;
  if (!std::regex_search(out, m, re)) return false;
  cat = m[1].str();
  line = "error[" + cat + "]" + m[2].str();
  return true;
}

std::vector<std::string> lines_of(const std::string& out, size_t max = 60) {
  std::vector<std::string> v;
  std::istringstream in(out);
  std::string l;
  while (std::getline(in, l) && v.size() < max)
    if (!l.empty()) v.push_back(l);
  return v;
}

// ---- numbers ---------------------------------------------------------------------------------------------------
double half_to_double(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 0) v = std::ldexp(m, -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = std::ldexp(m + 1024, e - 25);
  return s ? -v : v;
}
double bf16_to_double(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::vector<double> to_doubles(const op::NpyArray& a, bool bf16_bits) {
  size_t n = a.elements();
  std::vector<double> v(n);
  const uint8_t* p = a.data.data();
  for (size_t i = 0; i < n; ++i) {
    switch (a.dtype) {
      case 0: { float f; std::memcpy(&f, p + 4 * i, 4); v[i] = f; break; }
      case 1: { uint16_t h; std::memcpy(&h, p + 2 * i, 2); v[i] = half_to_double(h); break; }
      case 2: v[i] = static_cast<int8_t>(p[i]); break;
      case 3: { int32_t x; std::memcpy(&x, p + 4 * i, 4); v[i] = x; break; }
      case 4: v[i] = p[i]; break;
      case 6: { int16_t x; std::memcpy(&x, p + 2 * i, 2); v[i] = x; break; }
      case 7:
      case op::kDtBf16: {
        uint16_t x;
        std::memcpy(&x, p + 2 * i, 2);
        v[i] = (bf16_bits || a.dtype == op::kDtBf16) ? bf16_to_double(x) : x;
        break;
      }
      case 8: { uint32_t x; std::memcpy(&x, p + 4 * i, 4); v[i] = x; break; }
      case 9: { int64_t x; std::memcpy(&x, p + 8 * i, 8); v[i] = static_cast<double>(x); break; }
      case 10: { uint64_t x; std::memcpy(&x, p + 8 * i, 8); v[i] = static_cast<double>(x); break; }
      case 11: std::memcpy(&v[i], p + 8 * i, 8); break;
      case 12: v[i] = p[i] ? 1 : 0; break;
      default: v[i] = NAN;
    }
  }
  return v;
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}
std::string index_str(size_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t n = std::max<int64_t>(shape[d], 1);
    idx[d] = static_cast<int64_t>(flat % n);
    flat /= n;
  }
  return shape_str(idx);
}

Tolerance tol_for(const EvalOptions& o, const std::string& dtype) {
  if (dtype == "float32" || dtype == "float64") return o.fp32;
  if (dtype == "float16") return o.fp16;
  if (dtype == "bfloat16") return o.bf16;
  return {0, 0};
}

// Compares one output; returns "" when it matches, else the mismatch line. Updates the max errors.
std::string compare_output(const EvalOptions& o, size_t k, const json& want_meta, const fs::path& want_path,
                           const json& got_meta, double& max_abs, double& max_rel) {
  std::string dt = want_meta["dtype"].get<std::string>();
  std::string name = got_meta.value("name", "output" + std::to_string(k));
  op::NpyArray want, got;
  if (std::string e = op::read_npy(want_path.string(), want); !e.empty())
    throw std::runtime_error("reference " + want_path.string() + ": " + e);
  std::string gp = got_meta.value("path", "");
  if (std::string e = op::read_npy(gp, got); !e.empty())
    return "output " + std::to_string(k) + " ('" + name + "'): cannot read " + gp + ": " + e;
  std::string gdt = got_meta.value("dtype", "");
  if (gdt != dt) return "output " + std::to_string(k) + " ('" + name + "') is " + gdt + ", the reference is " + dt;
  if (got.shape != want.shape)
    return "output " + std::to_string(k) + " ('" + name + "') has shape " + shape_str(got.shape) +
           ", the reference " + shape_str(want.shape);
  int64_t unwritten = got_meta.value("unwritten", int64_t{0});
  bool bf = dt == "bfloat16";
  auto w = to_doubles(want, bf), g = to_doubles(got, bf);
  Tolerance t = tol_for(o, dt);
  size_t first = SIZE_MAX, bad = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    double a = w[i], b = g[i];
    bool ok;
    if (std::isnan(a) || std::isnan(b)) ok = std::isnan(a) && std::isnan(b);
    else if (std::isinf(a) || std::isinf(b)) ok = a == b;
    else {
      double d = std::fabs(b - a);
      max_abs = std::max(max_abs, d);
      if (std::fabs(a) > 0) max_rel = std::max(max_rel, d / std::fabs(a));
      ok = d <= t.atol + t.rtol * std::fabs(a);
    }
    if (!ok) {
      if (first == SIZE_MAX) first = i;
      ++bad;
    }
  }
  if (bad == 0 && unwritten == 0) return "";
  if (first == SIZE_MAX)
    return fmt::format("output {} ('{}'): {} of {} elements were never written by the kernel", k, name, unwritten,
                       w.size());
  std::string r = fmt::format("output {} ('{}') index {}: got {:.9g}, want {:.9g} ({} of {} elements mismatch, "
                              "atol {:g}, rtol {:g})",
                              k, name, index_str(first, want.shape), g[first], w[first], bad, w.size(), t.atol, t.rtol);
  if (unwritten) r += fmt::format("; {} elements never written by the kernel", unwritten);
  return r;
}

// The modeled launches in a KGEN_PROFILE directory, summed: steady_us (back to back, launch_pipelined_us + body) is
// the same footing as the eager model's device_us (a sum of back-to-back op times); time_us when absent. The bound
// and the timeline are those of the longest launch.
struct Modeled {
  double us = 0, gm_bytes = 0, flops = 0, longest_us = -1;
  std::string bound;
  fs::path longest_lanes;   // its <n>_<kernel>.lanes.json
};
Modeled modeled_of(const std::string& dir) {
  Modeled m;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string n = it->path().filename().string();
    if (n.size() < 12 || n.substr(n.size() - 12) != ".report.json") continue;
    try {
      json j = json::parse(read_text(it->path()));
      const double us = j.contains("steady_us") ? j.value("steady_us", 0.0) : j.value("time_us", 0.0);
      m.us += us;
      m.gm_bytes += j.value("gm_bytes", 0.0);
      m.flops += j.value("flops", 0.0);
      if (us > m.longest_us) {
        m.longest_us = us;
        m.bound = j.value("bound", "");
        m.longest_lanes = it->path().parent_path() / (n.substr(0, n.size() - 12) + ".lanes.json");
      }
    } catch (...) {
    }
  }
  return m;
}

void set_modeled(CaseResult& c, const Modeled& m) {
  c.modeled_us = m.us;
  c.gm_bytes = m.gm_bytes;
  c.flops = m.flops;
  c.bound = m.bound;
}

// The timeline of the longest launch (perf/lanes.cpp's JSON); left empty when the file is missing or unreadable.
void read_timeline(const Modeled& m, const std::string& case_name, Timeline& t) {
  std::error_code ec;
  if (m.longest_lanes.empty() || !fs::exists(m.longest_lanes, ec)) return;
  try {
    json j = json::parse(read_text(m.longest_lanes));
    t.kernel = j.value("kernel", "");
    t.case_name = case_name;
    t.bound = j.value("bound", "");
    t.body_us = j.value("body_us", 0.0);
    t.cores = j.value("cores", 0);
    for (const auto& l : j["lanes"]) {
      TimelineLane lane;
      lane.core = l.value("core", "");
      lane.pipe = l.value("pipe", "");
      lane.busy_us = l.value("busy_us", 0.0);
      lane.spans = l["spans"].get<std::vector<double>>();
      t.lanes.push_back(std::move(lane));
    }
  } catch (...) {
    t = Timeline{};
  }
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double eager_us_of(const fs::path& trace, const EvalOptions& o) {
  auto ops = perf::parse_aten_json(read_text(trace));
  auto prof = perf::load_profile(o.soc);
  auto consts = perf::load_eager_consts();
  return perf::model_eager(ops, prof, consts).device_us;
}

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
    std::string t = read_text(f);
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

// get_init_inputs() values -> --attr NAME=VALUE (rules in evaluate.h).
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

struct Fail {
  Verdict v;
  std::string cat;
  std::vector<std::string> diags;
};

// Runs the candidate child; returns false and fills f when it did not produce outputs.
bool run_child(const EvalOptions& o, std::vector<std::string> argv, const std::string& prof, const std::string& what,
               cli::ProcResult& r, Fail& f) {
  auto env = clean_env(o, prof);
  argv.insert(argv.begin(), env.begin(), env.end());
  cli::ProcLimits lim;
  lim.cpu_s = o.timeout_s > 0 ? o.timeout_s + 5 : 0;
  lim.memory_bytes = static_cast<size_t>(o.memory_mb * 1024 * 1024);
  lim.file_bytes = static_cast<size_t>(o.file_mb * 1024 * 1024);
  lim.no_network = true;
  r = cli::run_process(argv, o.timeout_s > 0 ? o.timeout_s : 1e9, lim);
  if (r.timed_out || r.status == 128 + SIGXCPU) {
    f = {Verdict::Timeout, "", lines_of(r.out, 20)};
    f.diags.push_back(fmt::format("error[timeout] {}: {} exceeded the {} s limit (build, tiling and kernel together) "
                                  "and was stopped — look for a loop that never ends",
                                  o.candidate, what, o.timeout_s));
    return false;
  }
  if (r.status == 0) return true;
  std::string cat, line;
  if (first_error(r.out, cat, line)) {
    if (cat == "compile" || cat == "kernel-name") {
      f = {Verdict::CompileError, "", lines_of(r.out)};
    } else if (cat == "timeout") {
      f = {Verdict::Timeout, "", lines_of(r.out, 20)};
    } else {
      f = {Verdict::RuntimeError, cat, lines_of(r.out)};
      // the error line first
      f.diags.erase(std::remove(f.diags.begin(), f.diags.end(), line), f.diags.end());
      f.diags.insert(f.diags.begin(), line);
    }
    return false;
  }
  f = {Verdict::RuntimeError, r.status > 128 ? "crash" : "internal", lines_of(r.out)};
  if (r.status == 128 + SIGXFSZ)
    f.diags.push_back(fmt::format("error[file-size] {}: wrote a file larger than {} MiB", o.candidate, o.file_mb));
  else if (r.status > 128)
    f.diags.push_back(fmt::format("error[crash] {}: {} died with signal {} ({})", o.candidate, what, r.status - 128,
                                  strsignal(r.status - 128)));
  else
    f.diags.push_back(fmt::format("error[internal] {}: {} exited with status {}", o.candidate, what, r.status));
  return false;
}

void finish(EvalResult& R) {
  for (auto& c : R.cases) {
    R.max_abs_err = std::max(R.max_abs_err, c.max_abs_err);
    R.max_rel_err = std::max(R.max_rel_err, c.max_rel_err);
    R.modeled_us += c.modeled_us;
    R.eager_modeled_us += c.eager_modeled_us;
  }
  R.speedup = R.verdict == Verdict::Correct && R.modeled_us > 0 ? R.eager_modeled_us / R.modeled_us : 0;
}

void set_fail(EvalResult& R, const Fail& f) {
  R.verdict = f.v;
  R.error_category = f.cat;
  R.diagnostics.insert(R.diagnostics.end(), f.diags.begin(), f.diags.end());
}

// Reference data: the JSON manifest printed by reference.py, or a failure.
bool reference(const EvalOptions& o, int trials, const std::vector<std::string>& cases, json& doc, Fail& f) {
  std::string script = std::string(KGEN_SOURCE_DIR) + "/python/kgen_eval/reference.py";
  std::vector<std::string> argv = {o.python, "-B", script, o.task, "--cache", cache_dir(o), "--seed",
                                   std::to_string(o.seed), "--trials", std::to_string(trials), "--version",
                                   KGEN_VERSION};
  for (auto& c : cases) argv.insert(argv.end(), {"--case", c});
  cli::ProcResult r = cli::run_process(argv, 1200);
  size_t b = r.out.rfind("\n{\"task_id\"");
  b = b == std::string::npos ? r.out.find("{\"task_id\"") : b + 1;
  if (r.status == 0 && b != std::string::npos) {
    try {
      doc = json::parse(r.out.substr(b, r.out.find('\n', b) - b));
      return true;
    } catch (...) {
    }
  }
  f = {Verdict::RuntimeError, "task", lines_of(r.out)};
  if (f.diags.empty() || f.diags[0].find("error[task]") == std::string::npos)
    f.diags.push_back(fmt::format("error[task] {}: computing the reference failed ({} {}, status {}{}) — needs "
                                  "Debian's python3-torch and python3-numpy",
                                  o.task, o.python, script, r.status, r.timed_out ? ", timed out" : ""));
  return false;
}

}  // namespace

bool prefetch_references(const EvalOptions& o, const std::vector<std::string>& tasks, int jobs, std::string& note) {
  if (tasks.empty()) return true;
  std::string script = std::string(KGEN_SOURCE_DIR) + "/python/kgen_eval/reference.py";
  std::vector<std::string> argv = {o.python, "-B", script, "--prefetch", "--cache", cache_dir(o), "--seed",
                                   std::to_string(o.seed), "--trials", std::to_string(o.trials), "--version",
                                   KGEN_VERSION, "--jobs", std::to_string(std::max(1, jobs))};
  argv.insert(argv.end(), tasks.begin(), tasks.end());
  cli::ProcResult r = cli::run_process(argv, 3600);
  std::vector<std::string> out = lines_of(r.out);
  if (r.status == 0 && !out.empty()) {
    note = out.back();
    return true;
  }
  note = fmt::format("the reference prefetch did not run ({} {}, status {}); each task computed its own", o.python,
                     script, r.status);
  return false;
}

namespace {
void eval_op_project(const EvalOptions& o, EvalResult& R) {
  Fail f;
  json doc;
  auto t_ref = std::chrono::steady_clock::now();
  bool ref_ok = reference(o, o.trials, {}, doc, f);
  R.reference_s = since(t_ref);
  if (!ref_ok) return set_fail(R, f);
  R.task_id = doc.value("task_id", "");
  R.category = doc.value("category", "");
  R.level = doc.value("level", 1);
  std::string oprun = oprun_path(o);
  if (!fs::exists(oprun)) {
    return set_fail(R, {Verdict::RuntimeError, "internal",
                        {"error[internal] " + oprun + " is missing (build the kgen-oprun target)"}});
  }
  auto attrs = opdef_attrs(o.candidate);
  TempDir tmp;
  for (const auto& c : doc["cases"]) {
    CaseResult cr;
    cr.name = c["name"].get<std::string>();
    int t = 0;
    for (const auto& tdir_j : c["trials"]) {
      fs::path tdir = tdir_j.get<std::string>();
      json meta = json::parse(read_text(tdir / "meta.json"));
      json at = json::parse(read_text(tdir / "attrs.json"));
      std::string base = fmt::format("{}/c{}t{}", tmp.path, R.cases.size(), t);
      std::string out = base + "/out", prof = base + "/prof", jf = base + "/run.json";
      fs::create_directories(out);
      std::vector<std::string> argv = {oprun, "run", fs::absolute(o.candidate).string(), "--out", out, "--soc", o.soc,
                                       "--json-file", jf};
      for (auto& in : meta["inputs"]) argv.insert(argv.end(), {"--input", (tdir / in["file"].get<std::string>()).string()});
      for (auto& a : map_attrs(attrs, at)) argv.insert(argv.end(), {"--attr", a});
      cli::ProcResult r;
      auto t_run = std::chrono::steady_clock::now();
      bool ran = run_child(o, argv, t == 0 ? prof : "", "the op run", r, f);
      R.run_s += since(t_run);
      if (!ran) {
        set_fail(R, f);
        R.diagnostics.push_back(fmt::format("failed on case {}, trial {}", cr.name, t));
        R.cases.push_back(cr);
        return;
      }
      json got = json::parse(read_text(jf));
      const double build_s = got.value("build_s", 0.0);
      R.build_s += build_s;
      R.run_s -= build_s;
      const auto& want = meta["outputs"];
      std::string mismatch;
      if (got["outputs"].size() != want.size()) {
        mismatch = fmt::format("the op has {} output(s), the task's forward returns {}", got["outputs"].size(),
                               want.size());
      } else {
        for (size_t k = 0; k < want.size() && mismatch.empty(); ++k)
          mismatch = compare_output(o, k, want[k], tdir / want[k]["file"].get<std::string>(), got["outputs"][k],
                                    cr.max_abs_err, cr.max_rel_err);
      }
      if (t == 0) {
        Modeled m = modeled_of(prof);
        set_modeled(cr, m);
        if (R.cases.empty()) read_timeline(m, cr.name, R.timeline);
        cr.eager_modeled_us = eager_us_of(tdir / "trace.json", o);
      }
      if (!mismatch.empty()) {
        cr.first_mismatch = fmt::format("trial {}: {}", t, mismatch);
        R.cases.push_back(cr);
        R.verdict = Verdict::WrongAnswer;
        R.diagnostics.push_back(fmt::format("error[mismatch] {}: case {}, trial {}: {}", o.candidate, cr.name, t,
                                            mismatch));
        return;
      }
      ++t;
    }
    cr.correct = true;
    R.cases.push_back(cr);
  }
  R.verdict = Verdict::Correct;
}

void eval_mkb(const EvalOptions& o, EvalResult& R) {
  Fail f;
  json doc;
  // The default case only (run_mkb runs the task as written); one trial gives the trace and the output dtype.
  auto t_ref = std::chrono::steady_clock::now();
  bool ref_ok = reference(o, 1, {"default"}, doc, f);
  R.reference_s = since(t_ref);
  if (!ref_ok) return set_fail(R, f);
  R.task_id = doc.value("task_id", "");
  R.category = doc.value("category", "");
  R.level = doc.value("level", 1);
  fs::path tdir = doc["cases"][0]["trials"][0].get<std::string>();
  json meta = json::parse(read_text(tdir / "meta.json"));
  std::string dt = meta["outputs"].empty() ? "float32" : meta["outputs"][0]["dtype"].get<std::string>();
  Tolerance tol = tol_for(o, dt);
  TempDir tmp;
  std::string prof = tmp.path + "/prof", work = tmp.path + "/work";
  fs::create_directories(work);
  std::string driver = std::string(KGEN_SOURCE_DIR) + "/python/kgen_mkb/run_mkb.py";
  std::vector<std::string> argv = {o.python, "-B", driver, fs::absolute(o.candidate).string(), "--task",
                                   fs::absolute(o.task).string(), "--oprun", oprun_path(o), "--work", work, "--soc",
                                   o.soc, "--seed", std::to_string(o.seed), "--trials", std::to_string(o.trials),
                                   "--atol", fmt::format("{:g}", tol.atol), "--rtol", fmt::format("{:g}", tol.rtol),
                                   "--json"};
  CaseResult cr;
  cr.name = doc["cases"][0]["name"].get<std::string>();
  cr.eager_modeled_us = eager_us_of(tdir / "trace.json", o);
  cli::ProcResult r;
  auto t_run = std::chrono::steady_clock::now();
  bool ran = run_child(o, argv, prof, "the MultiKernelBench run", r, f);
  R.run_s = since(t_run);
  json rep;
  size_t b = r.out.find("{\n \"submission\"");
  if (b != std::string::npos) {
    int depth = 0;
    size_t e = b;
    for (; e < r.out.size(); ++e) {
      if (r.out[e] == '{') ++depth;
      if (r.out[e] == '}' && --depth == 0) break;
    }
    try {
      rep = json::parse(r.out.substr(b, e + 1 - b));
    } catch (...) {
    }
  }
  cr.max_abs_err = rep.value("max_abs_err", 0.0);
  cr.max_rel_err = rep.value("max_rel_err", 0.0);
  Modeled m = modeled_of(prof);
  set_modeled(cr, m);
  read_timeline(m, cr.name, R.timeline);
  std::string verdict = rep.value("verdict", "");
  if (ran && verdict == "pass") {
    cr.correct = true;
    R.cases.push_back(cr);
    R.verdict = Verdict::Correct;
    return;
  }
  if (verdict == "fail") {
    std::string cat, line;
    first_error(r.out, cat, line);
    cr.first_mismatch = rep.contains("mismatch") ? rep["mismatch"].value("reason", line) : line;
    R.cases.push_back(cr);
    R.verdict = Verdict::WrongAnswer;
    R.diagnostics.push_back(line.empty() ? "error[mismatch] " + o.candidate : line);
    return;
  }
  R.cases.push_back(cr);
  if (!ran && f.v == Verdict::Timeout) return set_fail(R, f);
  std::string cat, line;
  if (first_error(r.out, cat, line)) {
    auto diags = lines_of(r.out);
    diags.erase(std::remove_if(diags.begin(), diags.end(), [](const std::string& l) {
                  return !l.empty() && (l[0] == '{' || l[0] == '}' || l[0] == ' ');
                }),
                diags.end());
    if (cat == "submission" && line.find("PyTorch computation") != std::string::npos)
      return set_fail(R, {Verdict::Cheating, "", {"cheating " + line.substr(line.find(']') + 2)}});
    if (cat == "compile" || cat == "kernel-name" || cat == "submission") return set_fail(R, {Verdict::CompileError, "", diags});
    if (cat == "timeout") return set_fail(R, {Verdict::Timeout, "", diags});
    return set_fail(R, {Verdict::RuntimeError, cat, diags});
  }
  if (!ran) return set_fail(R, f);
  set_fail(R, {Verdict::RuntimeError, "internal", lines_of(r.out)});
}
}  // namespace

std::string candidate_kind(const std::string& c) {
  std::error_code ec;
  if (fs::is_directory(c, ec)) return "op-project";
  if (fs::is_regular_file(c, ec) && fs::path(c).extension() == ".py") return "mkb";
  if (fs::is_regular_file(c, ec) && fs::path(c).extension() == ".tile") return "tile";
  return "";
}

// A tile program compiled to its op project, written under $KGEN_CACHE/tile/<hash of the generated files>/ (the
// compile takes milliseconds; the folder is named by what it holds, so the op build cache keeps working). False with
// the compiler's diagnostics (clang style, one line each) when the program has errors.
static bool compile_tile(const EvalOptions& o, std::string& project, std::vector<std::string>& diags) {
  const std::string src = read_text(o.candidate);
  std::error_code ec;
  tile::Diags d(o.candidate, &src);
  tile::CompileOptions co;
  co.soc = o.soc;
  tile::CompileResult r = tile::compile_program(o.candidate, src, co, d);
  if (!r.ok) {
    diags = lines_of(d.render(false));
    if (diags.empty()) diags.push_back("error[compile] " + o.candidate + ": the tile program did not compile");
    return false;
  }
  uint64_t h = 1469598103934665603ull;
  for (const auto& [rel, text] : r.files) h = fnv(fnv(h, rel), text);
  const fs::path dir = fs::path(cache_dir(o)) / "tile" / hex(h);
  if (fs::exists(dir / "done", ec)) {
    project = dir.string();
    return true;
  }
  const fs::path tmp = dir.string() + ".tmp-" + std::to_string(getpid());
  fs::remove_all(tmp, ec);
  for (const auto& [rel, text] : r.files) {
    fs::create_directories((tmp / rel).parent_path(), ec);
    std::ofstream(tmp / rel, std::ios::binary) << text;
  }
  std::ofstream(tmp / "done") << "compiled from " << o.candidate << "\n";
  fs::create_directories(dir.parent_path(), ec);
  fs::rename(tmp, dir, ec);
  if (ec) fs::remove_all(tmp, ec);   // another process got there first: use its copy
  project = dir.string();
  return true;
}

std::string task_hash_of(const std::string& task) { return hex(fnv(1469598103934665603ull, read_text(task))); }
std::string candidate_hash_of(const std::string& candidate) { return hash_candidate(candidate); }

EvalResult evaluate(const EvalOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  EvalResult R;
  R.candidate = o.candidate;
  R.candidate_kind = candidate_kind(o.candidate);
  R.soc = o.soc;
  R.trials = o.trials;
  R.kgen_version = KGEN_VERSION;
  {
    fs::path tp = fs::absolute(o.task);
    R.category = tp.parent_path().filename().string();
    R.task_id = R.category + "/" + tp.stem().string();
  }
  try {
    R.task_hash = task_hash_of(o.task);
    R.candidate_hash = candidate_hash_of(o.candidate);
    std::vector<std::string> found;
    if (R.candidate_kind == "op-project") {
      found = check_op_project(o.candidate);
    } else if (R.candidate_kind == "tile") {
      // a tile program cannot call PyTorch or read files: nothing to check
    } else {
      std::string err;
      found = check_mkb_submission(o.candidate, o.python, err);
      if (!err.empty()) R.diagnostics.push_back("note: " + err);
    }
    if (!found.empty()) {
      R.verdict = Verdict::Cheating;
      R.diagnostics.insert(R.diagnostics.end(), found.begin(), found.end());
    } else if (R.candidate_kind == "op-project") {
      eval_op_project(o, R);
    } else if (R.candidate_kind == "tile") {
      std::string project;
      std::vector<std::string> diags;
      if (!compile_tile(o, project, diags)) {
        R.verdict = Verdict::CompileError;
        R.diagnostics = diags;
      } else {
        EvalOptions op = o;
        op.candidate = project;
        eval_op_project(op, R);
      }
    } else {
      eval_mkb(o, R);
    }
  } catch (const std::exception& e) {
    R.verdict = Verdict::RuntimeError;
    R.error_category = "internal";
    R.diagnostics.push_back(std::string("error[internal] kgen eval: ") + e.what());
  }
  finish(R);
  R.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return R;
}
}  // namespace kgen::eval
