// The candidate generators of `kgen bench --generator` (generate.h).
#include "eval/generate.h"

#include <filesystem>
#include <fmt/core.h>
#include <map>
#include <mutex>
#include <sstream>

#include "sandbox/sandbox.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> last_lines(const std::string& out, size_t n) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  if (lines.size() > n) lines.erase(lines.begin(), lines.end() - static_cast<long>(n));
  return lines;
}

GenOutcome run_exec(const std::vector<std::string>& words, const GeneratorOptions& o, const GenRequest& q) {
  GenOutcome g;
  // A generator is the user's program (it may call an LLM over the network and use the user's files), but what it
  // writes is evaluated as hostile, and it must not reach what decides verdicts: kgen's own files are read-only to
  // it, kgen's cache (reference outputs), the results store and the bench's output are hidden, except its own
  // output folder; it dies whole when it ends (no daemon outlives it).
  sandbox::Child c;
  c.argv = words;
  c.argv.insert(c.argv.end(), {q.task_path, q.out_dir, std::to_string(q.sample)});
  c.env = {"KGEN_TASK_ID=" + q.task_id, "KGEN_SOC=" + q.soc, "KGEN_SAMPLE=" + std::to_string(q.sample)};
  sandbox::Policy pol;
  pol.host_root = true;
  pol.network = true;
  pol.binds.push_back({q.out_dir, true});
  if (q.eval) pol.hide.push_back(cache_dir(*q.eval));
  for (const std::string& h : o.hide) pol.hide.push_back(h);
  std::error_code cwd_ec;
  pol.cwd = fs::current_path(cwd_ec).string();
  sandbox::Limits lim;
  lim.wall_s = o.timeout_s;
  lim.memory_bytes = 16ull << 30;
  lim.file_bytes = 1ull << 30;
  sandbox::Result r = sandbox::run(c, lim, pol, sandbox::default_mode());
  if (r.status == -1 && !r.start_error.empty()) r.out += r.start_error + "\n";
  if (r.status == -1 || (r.status == 127 && r.out.empty())) r.status = 127;
  g.seconds = r.seconds;
  std::string cmd = words[0];
  if (r.timed_out) {
    g.diagnostics = last_lines(r.out, 20);
    g.diagnostics.push_back(fmt::format("error[generator] {}: no candidate within {} s for {} sample {}", cmd,
                                        o.timeout_s, q.task_id, q.sample));
    return g;
  }
  if (r.status != 0) {
    g.diagnostics = last_lines(r.out, 40);
    g.diagnostics.push_back(fmt::format("error[generator] {} exited with status {} for {} sample {}{}", cmd, r.status,
                                        q.task_id, q.sample,
                                        r.status == 127 ? " — the program was not found or not executable" : ""));
    return g;
  }
  std::error_code ec;
  if (fs::is_empty(q.out_dir, ec)) {
    g.diagnostics = last_lines(r.out, 20);
    g.diagnostics.push_back(fmt::format("error[generator] {} succeeded but wrote nothing into {} for {} sample {} — "
                                        "it must write an op project or one .py submission there",
                                        cmd, q.out_dir, q.task_id, q.sample));
    return g;
  }
  g.ok = true;
  return g;
}

struct Kind {
  GeneratorFactory factory;
  std::string usage;
};
std::mutex kinds_mu;
std::map<std::string, Kind>& kinds() {
  static std::map<std::string, Kind> k;
  return k;
}

GenOutcome run_expert(const fs::path& dir, const GenRequest& q) {
  GenOutcome g;
  const fs::path prog = dir / (q.task_id + ".tile");
  std::error_code ec;
  if (!fs::is_regular_file(prog, ec)) {
    g.not_covered = true;
    return g;
  }
  fs::copy_file(prog, fs::path(q.out_dir) / prog.filename(), fs::copy_options::overwrite_existing, ec);
  if (ec) {
    g.diagnostics.push_back("error[generator] expert: cannot copy " + prog.string() + ": " + ec.message());
    return g;
  }
  g.ok = true;
  return g;
}
// An NPUKernelBench task folder's own answer: <task>/answer/<sample>/ copied whole (the benchmark's op project).
GenOutcome run_answer(const GenRequest& q) {
  GenOutcome g;
  const fs::path answer = fs::path(q.task_path) / "answer" / std::to_string(q.sample);
  std::error_code ec;
  if (!fs::is_directory(answer, ec)) {
    g.not_covered = true;
    return g;
  }
  fs::copy(answer, q.out_dir, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  if (ec) {
    g.diagnostics.push_back("error[generator] answer: cannot copy " + answer.string() + ": " + ec.message());
    return g;
  }
  g.ok = true;
  return g;
}
}  // namespace

void register_generator_kind(const std::string& prefix, GeneratorFactory factory, const std::string& usage) {
  std::lock_guard<std::mutex> lk(kinds_mu);
  kinds()[prefix] = {std::move(factory), usage};
}

bool make_generator(const std::string& spec, const GeneratorOptions& o, Generator& g, std::string& err) {
  if (spec == "expert" || spec.rfind("expert:", 0) == 0) {
    fs::path dir = spec == "expert" ? fs::path(KGEN_SOURCE_DIR) / "kernels" : fs::path(spec.substr(7));
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      err = "--generator " + spec + ": " + dir.string() + " is not a folder of tile programs";
      return false;
    }
    g = [dir](const GenRequest& q) { return run_expert(dir, q); };
    return true;
  }
  if (spec == "answer") {
    g = run_answer;
    return true;
  }
  if (spec.rfind("exec:", 0) == 0) {
    std::vector<std::string> words;
    std::istringstream in(spec.substr(5));
    for (std::string w; in >> w;) words.push_back(w);
    if (words.empty()) {
      err = "--generator exec: needs a program, e.g. --generator 'exec:python3 my_gen.py'";
      return false;
    }
    g = [words, o](const GenRequest& q) { return run_exec(words, o, q); };
    return true;
  }
  GeneratorFactory registered;
  if (const size_t colon = spec.find(':'); colon != std::string::npos) {
    std::lock_guard<std::mutex> lk(kinds_mu);
    if (auto it = kinds().find(spec.substr(0, colon)); it != kinds().end()) registered = it->second.factory;
  }
  if (registered) return registered(spec.substr(spec.find(':') + 1), o, g, err);
  err = "unknown generator '" + spec + "' — known: expert[:DIR] (the tile-language expert library, kernels/), "
        "answer (an NPUKernelBench task's own answer/<k>/), exec:PROGRAM [ARGS...] (runs PROGRAM ARGS... TASK.py DIR "
        "SAMPLE)";
  std::lock_guard<std::mutex> lk(kinds_mu);
  for (const auto& [prefix, k] : kinds()) err += ", " + k.usage;
  return false;
}
}  // namespace kgen::eval
