// The NPUKernelBench trusted side (see npukb_reference.h): reference.py's runs, and its data kept in the cache.
#include "eval/npukb_reference.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>

#include "eval/eval_internal.h"
#include "sandbox/digest.h"
#include "sandbox/paths.h"
#include "sandbox/process.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string script() { return sandbox::paths().source_dir + "/python/kgen_npukb/reference.py"; }

// Every regular file under `dir` (links not followed), by relative path, into the digest.
void add_tree(Digest& h, const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec) && it->path().filename().string().find(".pyc") == std::string::npos)
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  h.add(std::to_string(files.size()));
  for (const fs::path& f : files) h.add(f.lexically_relative(dir).string()).add(read_text(f.string()));
}

// The cache name of a task's reference data: everything reference.py's `ref` reads or runs.
std::string reference_key(const EvalOptions& o, const std::string& task) {
  Digest h;
  h.add("npukb-ref-v1").add(KGEN_VERSION).add(task).add(std::to_string(o.seed)).add(o.python);
  add_tree(h, fs::path(task) / "validation");
  const fs::path src = sandbox::paths().source_dir;
  add_tree(h, src / "python" / "kgen_npukb");
  add_tree(h, src / "python" / "kgen_mkb" / "shims");   // torch_npu, as module.py imports it
  h.add(read_text((src / "scripts" / "aten_trace.py").string()));
  return h.hex(32);
}

uint64_t tree_bytes(const fs::path& dir) {
  uint64_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) n += it->file_size(ec);
  return n;
}

bool read_manifest(const fs::path& dir, json& doc) {
  std::ifstream in(dir / "manifest.json");
  if (!in) return false;
  try {
    doc = json::parse(in);
  } catch (...) {
    return false;
  }
  return doc.is_object() && doc.contains("cases") && doc["cases"].is_array();
}
}  // namespace

bool npukb_trusted(const EvalOptions& o, const std::vector<std::string>& args, EvalResult& R, json& out) {
  std::vector<std::string> argv = {o.python, "-B", script()};
  argv.insert(argv.end(), args.begin(), args.end());
  sandbox::Result r = sandbox::run(argv, o.timeout_s * 4 + 60);
  std::string text = r.out;
  size_t brace = text.rfind("\n{");
  std::string last = brace == std::string::npos ? text : text.substr(brace + 1);
  try {
    out = json::parse(last);
  } catch (...) {
    set_fail(R, {Verdict::RuntimeError, "task",
                 {"error[task] " + o.task + ": kgen's NPUKernelBench helper failed (status " +
                  std::to_string(r.status) + "):", text.substr(0, 4000)}});
    return false;
  }
  if (out.contains("error")) {
    set_fail(R, {Verdict::RuntimeError, "task", {"error[task] " + out["error"].get<std::string>()}});
    return false;
  }
  return true;
}

bool npukb_reference(const EvalOptions& o, const std::string& task, const std::string& scratch, EvalResult& R,
                     NpukbReference& out) {
  const fs::path root = fs::path(cache_dir(o)) / "npukb-ref";
  const fs::path kept = root / reference_key(o, task);
  if (read_manifest(kept, out.manifest)) {   // manifest.json is written last: its presence means the data are whole
    out.dir = kept.string();
    out.reused = true;
    return true;
  }
  // Made in a folder of this writer's own beside the kept name, then renamed into place (atomic: a concurrent
  // evaluation sees the whole folder or none; when two make it at once, the second keeps its own copy to itself).
  static std::atomic<uint64_t> seq{0};
  std::error_code ec;
  fs::create_directories(root, ec);
  const fs::path staging = ec ? fs::path(scratch) / "ref-data"
                              : root / (kept.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(seq++));
  fs::create_directories(staging, ec);
  if (!npukb_trusted(o, {"ref", task, "--cases", "all", "--seed", std::to_string(o.seed), "--out", staging.string()},
                     R, out.manifest)) {
    if (staging.parent_path() == root) fs::remove_all(staging, ec);
    return false;
  }
  if (staging.parent_path() == root) {
    if (tree_bytes(staging) <= kNpukbKeepBytes) {
      std::ofstream(staging / "manifest.json") << out.manifest.dump();
      fs::rename(staging, kept, ec);
      json other;
      if (ec && !read_manifest(kept, other)) {   // a damaged kept folder (no manifest): replaced
        ec.clear();
        fs::remove_all(kept, ec);
        fs::rename(staging, kept, ec);
      }
      if (!ec) {
        out.dir = kept.string();
        return true;
      }
    }
    // Too big to keep, or another evaluation kept the same data first: this one's copy lives in its scratch folder.
    const fs::path mine = fs::path(scratch) / "ref-data";
    fs::rename(staging, mine, ec);
    if (ec) {   // another file system: copy, then drop the staging folder
      ec.clear();
      fs::copy(staging, mine, fs::copy_options::recursive, ec);
      std::error_code ec2;
      fs::remove_all(staging, ec2);
    }
    if (ec) {
      set_fail(R, {Verdict::RuntimeError, "task",
                   {"error[task] " + o.task + ": cannot move the reference data to " + mine.string() + ": " +
                    ec.message()}});
      return false;
    }
    out.dir = mine.string();
    return true;
  }
  out.dir = staging.string();
  return true;
}
}  // namespace kgen::eval
