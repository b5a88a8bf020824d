// Reference data through reference.py (see reference.h).
#include "eval/reference.h"

#include <fmt/core.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "eval/eval_internal.h"
#include "eval/evaluate.h"
#include "sandbox/digest.h"
#include "sandbox/process.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;

// Where the manifest of a reference request is kept once reference.py has printed it: named by everything the
// manifest follows from (the script's arguments, the task file's path and content, the scripts that read it), so an
// unchanged task is listed without starting Python and importing torch again (0.3-0.8 s an evaluation). A request
// with secret trials keeps it in the run's secret folder, which goes away with them.
std::string manifest_path(const EvalOptions& o, const std::vector<std::string>& argv, const std::string& script,
                          const RefRequest& q) {
  Digest h;
  h.add("ref-manifest-v1").add(KGEN_VERSION).add(read_text(o.task));
  const std::string src = KGEN_SOURCE_DIR;
  for (const std::string& f : {script, src + "/python/kgen_eval/tasks.py", src + "/scripts/aten_trace.py"})
    h.add(read_text(f));
  for (const std::string& a : argv) h.add(a);
  const std::string dir = q.secret_trials > 0 ? q.secret_cache : cache_dir(o) + "/ref-manifest";
  return dir + "/" + h.hex(32) + ".json";
}

// Every folder a manifest lists still holds its data (meta.json is written last, reference.py's _finish).
bool manifest_complete(const nlohmann::json& doc) {
  std::error_code ec;
  auto has = [&](const nlohmann::json& d) { return d.is_string() && fs::exists(d.get<std::string>() + "/meta.json", ec); };
  for (const auto& c : doc.value("cases", nlohmann::json::array())) {
    if (!c.is_object()) return false;
    for (const char* f : {"trials", "secret_trials"})
      for (const auto& d : c.value(f, nlohmann::json::array()))
        if (!has(d)) return false;
  }
  if (doc.contains("perf") && (!doc["perf"].is_object() || !has(doc["perf"].value("dir", nlohmann::json()))))
    return false;
  return doc.contains("task_id");
}

bool cached_manifest(const std::string& path, nlohmann::json& doc) {
  std::ifstream in(path);
  if (!in) return false;
  try {
    doc = nlohmann::json::parse(in);
  } catch (...) {
    return false;
  }
  return manifest_complete(doc);
}

void keep_manifest(const std::string& path, const nlohmann::json& doc) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  static std::atomic<uint64_t> seq{0};   // bench's jobs are threads of one process: a name of their own each
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(seq++);
  std::ofstream(tmp) << doc.dump();
  fs::rename(tmp, path, ec);   // atomic: a concurrent reader sees the whole manifest or none
  if (ec) fs::remove(tmp, ec);
}
}  // namespace

uint64_t draw_secret_seed() {
  std::random_device rd;
  uint64_t s = (static_cast<uint64_t>(rd()) << 31) ^ rd();
  return (s & ((1ull << 62) - 1)) | 1;   // positive, non-zero, fits torch.manual_seed
}

bool reference_data(const EvalOptions& o, const RefRequest& q, nlohmann::json& doc, std::vector<std::string>& diags) {
  std::string script = std::string(KGEN_SOURCE_DIR) + "/python/kgen_eval/reference.py";
  std::vector<std::string> argv = {o.python, "-B", script, o.task, "--cache", cache_dir(o), "--seed",
                                   std::to_string(o.seed), "--trials", std::to_string(q.trials), "--version",
                                   KGEN_VERSION};
  for (auto& c : q.cases) argv.insert(argv.end(), {"--case", c});
  if (q.mkb_seeding) argv.insert(argv.end(), {"--seeding", "mkb"});
  if (q.perf) argv.push_back("--perf");
  if (q.secret_trials > 0)
    argv.insert(argv.end(), {"--secret-seed", std::to_string(q.secret_seed), "--secret-trials",
                             std::to_string(q.secret_trials), "--secret-cache", q.secret_cache});
  const std::string kept = manifest_path(o, argv, script, q);
  if (cached_manifest(kept, doc)) return true;
  sandbox::Result r = sandbox::run(argv, 1200);
  size_t b = r.out.rfind("\n{\"task_id\"");
  b = b == std::string::npos ? r.out.find("{\"task_id\"") : b + 1;
  if (r.status == 0 && b != std::string::npos) {
    try {
      doc = nlohmann::json::parse(r.out.substr(b, r.out.find('\n', b) - b));
      keep_manifest(kept, doc);
      return true;
    } catch (...) {
    }
  }
  diags = lines_of(r.out);
  if (diags.empty() || diags[0].find("error[task]") == std::string::npos)
    diags.push_back(fmt::format("error[task] {}: computing the reference failed ({} {}, status {}{}) — needs "
                                "Debian's python3-torch and python3-numpy",
                                o.task, o.python, script, r.status, r.timed_out ? ", timed out" : ""));
  return false;
}

bool load_reference(const EvalOptions& o, RefRequest q, EvalResult& R, nlohmann::json& doc) {
  auto t0 = std::chrono::steady_clock::now();
  q.trials = o.trials;
  q.secret_trials = o.secret_trials;
  q.secret_seed = o.secret_seed;
  q.secret_cache = o.secret_cache;
  std::vector<std::string> diags;
  bool ok = reference_data(o, q, doc, diags);
  R.reference_s = since(t0);
  if (!ok) {
    set_fail(R, {Verdict::RuntimeError, "task", diags});
    return false;
  }
  R.task_id = doc.value("task_id", "");
  R.category = doc.value("category", "");
  R.level = doc.value("level", 1);
  // A KernelBench / MultiKernelBench file too large to check at its own sizes: what its check case scaled.
  for (const auto& c : doc.value("cases", nlohmann::json::array()))
    if (c.is_object() && c.contains("note") && c["note"].is_string())
      R.diagnostics.push_back("note: case " + c.value("name", "") + ": " + c["note"].get<std::string>());
  return true;
}
}  // namespace kgen::eval
