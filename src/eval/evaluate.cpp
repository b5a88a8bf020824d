// One candidate on one task (see evaluate.h for the pipeline and the mapping rules): what comes before the run
// (files, static checks, tile compilation, the secret seed) and the helpers eval_op.cpp and eval_mkb.cpp share.
#include "eval/evaluate.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>

#include "eval/candidate_files.h"
#include "eval/eval_internal.h"
#include "eval/reference.h"
#include "eval/static_checks.h"
#include "op/build.h"
#include "op/npy.h"
#include "perf/eager.h"
#include "perf/profile.h"
#include "sandbox/digest.h"
#include "sandbox/paths.h"
#include "tile/compile.h"

namespace kgen::eval {
namespace fs = std::filesystem;
using nlohmann::json;

// ---- shared helpers (eval_internal.h) ----------------------------------------------------------------------------
std::string read_text(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Tolerance tol_for(const EvalOptions& o, const std::string& dtype) {
  if (dtype == "float32" || dtype == "float64") return {o.fp32.atol, o.fp32.rtol};
  if (dtype == "float16") return {o.fp16.atol, o.fp16.rtol};
  if (dtype == "bfloat16") return {o.bf16.atol, o.bf16.rtol};
  return {0, 0};
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> lines_of(const std::string& out, size_t max) {
  std::vector<std::string> v;
  std::istringstream in(out);
  std::string l;
  while (std::getline(in, l) && v.size() < max)
    if (!l.empty()) v.push_back(l);
  return v;
}

// The first `error[CAT]` line of a child's output (or a `cheating FILE:LINE:` line: CAT "cheating").
bool first_error(const std::string& out, std::string& cat, std::string& line) {
  static const std::regex re(R"((?:^|\n)(?:[^\n]*?)(?:error\[([\w-]+)\]|(cheating) [^\s:]+:)([^\n]*))");
  std::smatch m;
  if (!std::regex_search(out, m, re)) return false;
  if (m[2].matched) {
    cat = "cheating";
    size_t at = m.position(0) + (out[static_cast<size_t>(m.position(0))] == '\n' ? 1 : 0);
    line = out.substr(at, out.find('\n', at) - at);
    line = line.substr(line.find("cheating "));
    return true;
  }
  cat = m[1].str();
  line = "error[" + cat + "]" + m[3].str();
  return true;
}

bool prebuild_ok(const op::Prebuilt& pre, EvalResult& R) {
  if (pre.host.ok && pre.cheating.empty()) return true;
  const std::string& d = pre.host.ok ? pre.cheating : pre.host.diag;
  Fail f{Verdict::CompileError, "", lines_of(d, 80)};
  if (d.rfind("cheating", 0) == 0) f.v = Verdict::Cheating;
  else if (d.rfind("error[sandbox]", 0) == 0) f = {Verdict::RuntimeError, "sandbox", lines_of(d)};
  else if (d.rfind("error[compile]", 0) != 0) f = {Verdict::RuntimeError, "internal", lines_of(d)};
  set_fail(R, f);
  return false;
}

int npy_dtype_of(const std::string& name) {
  static const std::pair<const char*, int> m[] = {{"float32", 0}, {"float16", 1}, {"int8", 2},     {"int32", 3},
                                                  {"uint8", 4},   {"int16", 6},   {"uint16", 7},   {"uint32", 8},
                                                  {"int64", 9},   {"uint64", 10}, {"float64", 11}, {"bool", 12},
                                                  {"bfloat16", 7}};
  for (auto& [n, d] : m)
    if (name == n) return d;
  return -1;
}

double tensor_bytes(const json& tensors) {
  double b = 0;
  for (const auto& t : tensors) {
    double n = static_cast<double>(op::npy_dtype_size(npy_dtype_of(t.value("dtype", ""))));
    for (const auto& d : t["shape"]) n *= d.get<double>();
    b += n;
  }
  return b;
}

EagerTime eager_us_of(const std::string& trace, const EvalOptions& o) {
  auto ops = perf::parse_aten_json(read_text(trace));
  auto prof = perf::load_profile(o.soc);
  auto consts = perf::load_eager_consts();
  perf::EagerResult r = perf::model_eager(ops, prof, consts);
  return EagerTime{r.e2e_us, r.e2e_us - r.exec_us};
}

TempDirGuard::TempDirGuard(const std::string& prefix) {
  std::error_code ec;
  std::string t = (fs::temp_directory_path(ec) / (prefix + "XXXXXX")).string();
  std::vector<char> b(t.begin(), t.end());
  b.push_back(0);
  if (mkdtemp(b.data())) path = b.data();
}
TempDirGuard::~TempDirGuard() {
  std::error_code ec;
  if (!path.empty()) fs::remove_all(path, ec);
}

void set_fail(EvalResult& R, const Fail& f) {
  R.verdict = f.v;
  R.error_category = f.cat;
  R.diagnostics.insert(R.diagnostics.end(), f.diags.begin(), f.diags.end());
}

std::string oprun_path(const EvalOptions& o) {
  if (!o.oprun.empty()) return o.oprun;
  return sandbox::paths().lib_dir + "/kgen-oprun";
}

sandbox::Child oprun_batch_child(const EvalOptions& o, const std::string& project, const json& batch,
                                 const std::string& batch_file, const std::string& failed_builds,
                                 sandbox::Policy& pol) {
  std::ofstream(batch_file) << batch.dump();
  sandbox::Child c;
  c.argv = {oprun_path(o), "run", project, "--soc", o.soc, "--batch",
            sandbox::hide_file(pol, batch_file, sandbox::default_mode()), "--channel", "3"};
  c.clear_env = true;
  c.env = {"KGEN_CACHE=" + op::cache_dir(), "KGEN_PRIVATE_BUILD=1"};
  if (!failed_builds.empty()) {
    pol.binds.push_back({failed_builds, false});
    c.env.push_back("KGEN_FAILED_BUILDS=" + failed_builds);
  }
  if (o.max_records) c.env.push_back("KGEN_MAX_RECORDS=" + std::to_string(o.max_records));
  return c;
}

sandbox::Policy candidate_policy(const EvalOptions& o) {
  sandbox::Policy p;
  for (const std::string& f : sandbox::kgen_files()) p.binds.push_back({f, false});
  p.tmp_bytes = static_cast<size_t>(o.disk_mb * 1024 * 1024);
  p.processes = o.processes;
  return p;
}

sandbox::Limits candidate_limits(const EvalOptions& o, int runs) {
  sandbox::Limits l;
  const double per = o.timeout_s > 0 ? o.timeout_s : 1e7;
  l.progress_s = per;                                   // no result for this long: stopped
  l.wall_s = per * std::max(1, runs);                   // and never longer than every run at its limit
  l.cpu_s = l.wall_s + 5;
  l.memory_bytes = static_cast<size_t>(o.memory_mb * 1024 * 1024);
  l.file_bytes = static_cast<size_t>(o.file_mb * 1024 * 1024);
  l.channel_bytes = 4ull << 30;
  l.output_bytes = 1 << 20;
  return l;
}

Fail child_failure(const EvalOptions& o, const sandbox::Result& r, const std::string& what,
                   const std::string& pending) {
  std::vector<std::string> out = lines_of(r.out);
  auto with = [&](Fail f, const std::string& line) {
    f.diags.erase(std::remove(f.diags.begin(), f.diags.end(), line), f.diags.end());
    f.diags.insert(f.diags.begin(), line);
    return f;
  };
  if (r.status == -1)   // the sandbox itself did not start: kgen's problem, not the candidate's
    return {Verdict::RuntimeError, r.start_error.find("error[sandbox]") != std::string::npos ? "sandbox" : "internal",
            {r.start_error.rfind("error[", 0) == 0 ? r.start_error
                                                  : "error[internal] " + o.candidate + ": " + r.start_error}};
  if (r.channel_overflow)
    return {Verdict::RuntimeError, "output-limit",
            {fmt::format("error[output-limit] {}: {} sent more than the results of the task can need ({}) and was "
                         "stopped",
                         o.candidate, what, pending)}};
  if (!r.channel_error.empty() && !r.timed_out)
    return {Verdict::RuntimeError, "protocol",
            {fmt::format("error[protocol] {}: {} wrote junk on kgen's result channel ({}; at {}) — the candidate's "
                         "code wrote to a file descriptor that is not its own",
                         o.candidate, what, r.channel_error, pending)}};
  std::string cat, line;
  bool has_error = first_error(r.out, cat, line);
  if (has_error && (cat == "timeout" || cat == "instruction-limit"))
    return with({Verdict::Timeout, "", lines_of(r.out, 20)}, line);
  if (r.timed_out || r.status == 128 + SIGXCPU) {
    Fail f{Verdict::Timeout, "", lines_of(r.out, 20)};
    f.diags.push_back(fmt::format("error[timeout] {}: {} made no progress for {} s ({}: build, tiling and kernel) "
                                  "and was stopped — look for a loop that never ends",
                                  o.candidate, what, o.timeout_s, pending));
    return f;
  }
  if (has_error) {
    if (cat == "cheating") return with({Verdict::Cheating, "", {}}, line);
    if (cat == "submission" && line.find("PyTorch computation") != std::string::npos)
      return {Verdict::Cheating, "", {"cheating " + line.substr(line.find(']') + 2)}};
    if (cat == "compile" || cat == "kernel-name" || cat == "submission" || cat == "candidate")
      return with({Verdict::CompileError, "", out}, line);
    return with({Verdict::RuntimeError, cat, out}, line);
  }
  // The dynamic loader could not start kgen's own runner (only an executable's start prints this; a candidate's
  // library that fails to load is dlopen's error, reported by the runner): kgen's installation, not the candidate.
  if (const size_t at = r.out.find(": error while loading shared libraries: "); at != std::string::npos) {
    const size_t b = r.out.rfind('\n', at), e = r.out.find('\n', at);
    const size_t from = b == std::string::npos ? 0 : b + 1;
    return {Verdict::RuntimeError, "internal",
            {fmt::format("error[internal] {}: kgen's runner could not start ({}) — kgen's own files, not the "
                         "candidate: a build tree that was moved or copied looks for its libraries where it was "
                         "built, which the sandbox does not mount; run kgen from the tree it was built in",
                         o.candidate, r.out.substr(from, e == std::string::npos ? std::string::npos : e - from))}};
  }
  Fail f{Verdict::RuntimeError, r.status > 128 ? "crash" : "exit", out};
  if (r.status == 128 + SIGXFSZ) {
    f.cat = "file-size";
    f.diags.push_back(fmt::format("error[file-size] {}: wrote a file larger than {} MiB", o.candidate, o.file_mb));
  } else if (r.status > 128) {
    f.diags.push_back(fmt::format("error[crash] {}: {} died with signal {} ({}) at {}", o.candidate, what,
                                  r.status - 128, strsignal(r.status - 128), pending));
  } else {
    f.diags.push_back(fmt::format("error[exit] {}: {} exited with status {} before it returned the results of {} — "
                                  "an exit(), abort() or a failed allocation in the candidate's host or kernel code",
                                  o.candidate, what, r.status, pending));
  }
  return f;
}

// ---- the evaluation ----------------------------------------------------------------------------------------------
std::string cache_dir(const EvalOptions& o) {
  if (!o.cache.empty()) return o.cache;
  if (const char* c = std::getenv("KGEN_CACHE"); c && *c) return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kgen";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/tmp") + "/.cache/kgen";
}

bool prefetch_references(const EvalOptions& o, const std::vector<std::string>& tasks, int jobs, std::string& note) {
  if (tasks.empty()) return true;
  std::string script = std::string(KGEN_SOURCE_DIR) + "/python/kgen_eval/reference.py";
  std::vector<std::string> argv = {o.python, "-B", script, "--prefetch", "--cache", cache_dir(o), "--seed",
                                   std::to_string(o.seed), "--trials", std::to_string(o.trials), "--version",
                                   KGEN_VERSION, "--jobs", std::to_string(std::max(1, jobs))};
  if (o.secret_trials > 0 && o.secret_seed && !o.secret_cache.empty())
    argv.insert(argv.end(), {"--secret-seed", std::to_string(o.secret_seed), "--secret-trials",
                             std::to_string(o.secret_trials), "--secret-cache", o.secret_cache});
  if (o.perf_shape) argv.push_back("--perf");
  argv.insert(argv.end(), tasks.begin(), tasks.end());
  sandbox::Result r = sandbox::run(argv, 3600);
  std::vector<std::string> out = lines_of(r.out);
  if (r.status == 0 && !out.empty()) {
    note = out.back();
    return true;
  }
  note = fmt::format("the reference prefetch did not run ({} {}, status {}); each task computed its own", o.python,
                     script, r.status);
  return false;
}

std::string candidate_kind(const std::string& c) {
  std::error_code ec;
  if (fs::is_directory(c, ec)) return "op-project";
  if (fs::is_regular_file(c, ec) && fs::path(c).extension() == ".py") return "mkb";
  if (fs::is_regular_file(c, ec) && fs::path(c).extension() == ".tile") return "tile";
  return "";
}

// The op build cache keeps working because the folder is named by what it holds (evaluate.h).
bool compile_tile_project(const EvalOptions& o, std::string& project, std::vector<std::string>& diags) {
  const std::string src = read_text(o.candidate);
  std::error_code ec;
  tile::Diags d(o.candidate, &src);
  tile::CompileOptions co;
  co.soc = o.soc;
  tile::CompileResult r = tile::compile_program(o.candidate, src, co, d);
  if (!r.ok) {
    diags = lines_of(sandbox::utf8_clean(d.render(false)));
    if (diags.empty()) diags.push_back("error[compile] " + o.candidate + ": the tile program did not compile");
    return false;
  }
  Digest h;
  for (const auto& [rel, text] : r.files) h.add(rel).add(text);
  const fs::path dir = fs::path(cache_dir(o)) / "tile" / h.hex(32);
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
  std::ofstream(tmp / "done") << "compiled from a tile program\n";
  fs::create_directories(dir.parent_path(), ec);
  fs::rename(tmp, dir, ec);
  if (ec) fs::remove_all(tmp, ec);   // another process got there first: use its copy
  project = dir.string();
  return true;
}

std::string task_hash_of(const std::string& task) {
  Digest h;
  if (!is_npukb_task(task)) return h.add(read_text(task)).hex();
  for (const char* f : {"module.py", "prepare_inputs.py", "test_cases.csv", "pybind.cpp"})   // an NPUKernelBench
    h.add(read_text(task + "/validation/" + f));                                             // folder: what it reads
  return h.hex();
}
std::string candidate_hash_of(const std::string& candidate) { return candidate_hash(candidate); }

std::string stored_candidate_key(const std::string& candidate_hash, const EvalOptions& o) {
  const EvalOptions d;
  std::string k = fmt::format("{}@t{}s{}seed{}", candidate_hash, o.trials, o.secret_trials, o.seed);
  auto same = [](const Tolerance& a, const Tolerance& b) { return a.atol == b.atol && a.rtol == b.rtol; };
  if (!same(o.fp32, d.fp32) || !same(o.fp16, d.fp16) || !same(o.bf16, d.bf16))
    k += fmt::format("tol{:g},{:g},{:g},{:g},{:g},{:g}", o.fp32.atol, o.fp32.rtol, o.fp16.atol, o.fp16.rtol,
                     o.bf16.atol, o.bf16.rtol);
  if (o.timeout_s != d.timeout_s) k += fmt::format("to{:g}", o.timeout_s);
  if (o.timing_check) k += "tc";
  if (!o.perf_shape) k += "np";
  return k;
}

EvalResult evaluate(const EvalOptions& o_in) {
  auto t0 = std::chrono::steady_clock::now();
  EvalOptions o = o_in;
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
  // Candidates' libraries are compiled here, each compile in a sandbox of its own, into the shared cache.
  const double compile_s = o.timeout_s > 0 ? o.timeout_s : 600;
  if (op::build_env().cache != cache_dir(o) || !op::build_env().compile || op::build_env().timeout_s != compile_s) {
    op::BuildEnv be;
    be.cache = cache_dir(o);
    be.compile = op::sandboxed_compile;
    be.timeout_s = compile_s;
    op::set_build_env(be);
  }
  // The secret trials' seed and folder: the run's own, or one for this evaluation (removed at the end).
  std::unique_ptr<TempDirGuard> secret;
  if (o.secret_trials > 0) {
    if (!o.secret_seed) o.secret_seed = draw_secret_seed();
    if (o.secret_cache.empty()) {
      std::error_code ec;
      fs::create_directories(cache_dir(o), ec);
      secret = std::make_unique<TempDirGuard>(cache_dir(o) + "/secret-");
      o.secret_cache = secret->path;
    }
  }
  try {
    R.task_hash = task_hash_of(o.task);
    R.candidate_hash = candidate_hash_of(o.candidate);
    std::vector<std::string> refused = refuse_candidate(o.candidate);
    std::vector<std::string> found;
    if (!refused.empty()) {
      R.verdict = Verdict::CompileError;
      R.diagnostics = refused;
    } else if (R.candidate_kind.empty()) {
      R.verdict = Verdict::CompileError;
      R.diagnostics.push_back("error[candidate] " + o.candidate +
                              ": not a candidate (an op project folder, a MultiKernelBench submission .py or a "
                              ".tile program)");
    } else if (sandbox::default_mode() == sandbox::Mode::Isolated && !sandbox::available()) {
      R.verdict = Verdict::RuntimeError;
      R.error_category = "sandbox";
      R.diagnostics.push_back(sandbox::unavailable_message());
    } else {
      if (R.candidate_kind == "op-project") {
        found = check_op_project(o.candidate);
      } else if (R.candidate_kind == "mkb") {
        std::string err;
        found = check_mkb_submission(o.candidate, o.python, err);
        if (!err.empty()) R.diagnostics.push_back("note: " + err);
      }   // a tile program cannot call PyTorch or read files: nothing to check
      if (!found.empty()) {
        R.verdict = Verdict::Cheating;
        R.diagnostics.insert(R.diagnostics.end(), found.begin(), found.end());
      } else if (R.candidate_kind == "op-project") {
        if (is_npukb_task(o.task)) eval_npukb(o, R);
        else eval_op_project(o, R);
      } else if (R.candidate_kind == "tile") {
        std::string project;
        std::vector<std::string> diags;
        if (!compile_tile_project(o, project, diags)) {
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
    }
  } catch (const std::exception& e) {
    R.verdict = Verdict::RuntimeError;
    R.error_category = "internal";
    R.diagnostics.push_back(std::string("error[internal] kgen eval: ") + e.what());
  }
  for (auto& d : R.diagnostics) d = sandbox::utf8_clean(d);
  for (auto& c : R.cases) {
    c.first_mismatch = sandbox::utf8_clean(c.first_mismatch);
    R.max_abs_err = std::max(R.max_abs_err, c.max_abs_err);
    R.max_rel_err = std::max(R.max_rel_err, c.max_rel_err);
    R.tol_err = std::max(R.tol_err, c.tol_err);
    R.modeled_us += c.modeled_us;
    R.eager_modeled_us += c.eager_modeled_us;
    R.launch_us += c.launch_us;
    R.eager_launch_us += c.eager_launch_us;
  }
  const bool correct = R.verdict == Verdict::Correct;
  R.check_speedup = correct && R.modeled_us > 0 ? R.eager_modeled_us / R.modeled_us : 0;
  R.speedup = !correct ? 0 : R.perf.timed() ? R.perf.speedup : R.check_speedup;
  R.seconds = since(t0);
  return R;
}
}  // namespace kgen::eval
