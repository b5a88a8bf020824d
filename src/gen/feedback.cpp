// What the evaluator found, as the text of the next repair round (feedback.h). The model gets the evaluator's own
// diagnostics, verbatim, with the offending source lines quoted from its candidate, and what to do about them.
#include "gen/feedback.h"
#include "gen/reply.h"

#include "eval/evaluate.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;

namespace kgen::gen {
namespace {

constexpr size_t kMaxChars = 6000;        // the whole feedback
constexpr size_t kMaxLineChars = 400;     // one diagnostic line (template instantiation chains run for pages)
constexpr int kMaxDiagnostics = 20;       // located error lines quoted

std::vector<std::string> read_lines(const fs::path& p) {
  std::vector<std::string> v;
  std::ifstream f(p, std::ios::binary);
  std::string l;
  while (std::getline(f, l)) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    v.push_back(l);
  }
  return v;
}

std::string clip(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n) + fmt::format(" ... ({} more characters)", s.size() - n);
}

// A location in a diagnostic: "path/x.cpp:94:5: error", "error[race] k.cpp:8 block 0", "relu.tile:6:21:".
struct Loc {
  std::string path;
  int line = 0;
};

bool find_loc(const std::string& diag, Loc& loc) {
  static const std::regex re(R"(([^\s:'"()\[\]]+\.(cpp|cc|cxx|h|hpp|tile|py)):(\d+)(?::\d+)?)");
  std::smatch m;
  if (!std::regex_search(diag, m, re)) return false;
  loc.path = m[1].str();
  loc.line = std::stoi(m[3].str());
  return loc.line > 0;
}

size_t line_count(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  size_t n = 0;
  for (std::string l; std::getline(f, l);) ++n;
  return n;
}

// How many trailing path components a and b share ("x/op_kernel/k.cpp" and "op_kernel/k.cpp": 2).
int common_suffix(const fs::path& a, const fs::path& b) {
  std::vector<std::string> pa, pb;
  for (const auto& c : a) pa.push_back(c.string());
  for (const auto& c : b) pb.push_back(c.string());
  int n = 0;
  while (n < static_cast<int>(std::min(pa.size(), pb.size())) && pa[pa.size() - 1 - n] == pb[pb.size() - 1 - n]) ++n;
  return n;
}

// The candidate's file a diagnostic names. Diagnostics may carry an absolute path into a build or cache copy of
// the candidate: then the file of the same name inside the candidate is the one meant. An op project has two files
// named <op>_custom.cpp (op_host/, op_kernel/): the one sharing more of the diagnostic's path wins, then one long
// enough to have the line, then the kernel (the emulator's errors are the kernel's).
fs::path resolve(const std::string& path, int line, const std::string& candidate) {
  std::error_code ec;
  fs::path cand(candidate);
  fs::path name = fs::path(path).filename();
  if (fs::is_regular_file(cand, ec)) return name == cand.filename() ? cand : fs::path();
  if (!fs::is_directory(cand, ec)) return {};
  fs::path best;
  std::tuple<int, bool, bool> best_key{-1, false, false};
  for (const auto& e : fs::recursive_directory_iterator(cand, fs::directory_options::follow_directory_symlink, ec)) {
    if (!e.is_regular_file(ec) || e.path().filename() != name) continue;
    fs::path rel = fs::relative(e.path(), cand, ec);
    std::tuple<int, bool, bool> key{common_suffix(fs::path(path), rel),
                                    line_count(e.path()) >= static_cast<size_t>(line),
                                    rel.begin()->string() == "op_kernel"};
    if (key > best_key || (key == best_key && e.path() < best)) {
      best_key = key;
      best = e.path();
    }
  }
  return best;
}

// Source lines around a diagnostic's line, as "  93 |     code" with the line itself marked ">".
std::string quote(const std::vector<std::string>& src, int line, int before) {
  std::string out;
  for (int l = std::max(1, line - before); l <= line && l <= static_cast<int>(src.size()); ++l)
    out += fmt::format("{} {:>4} | {}\n", l == line ? '>' : ' ', l, clip(src[l - 1], kMaxLineChars));
  return out;
}

// Does one of the next diagnostic lines already show the source (g++'s "   94 |     }", the tile compiler's copy
// of the line followed by a caret)?
bool already_quoted(const std::vector<std::string>& d, size_t i, const std::string& src_line) {
  static const std::regex gcc(R"(^\s*\d+\s*\|)");
  std::string want = trim_blanks(src_line);
  for (size_t j = i + 1; j < d.size() && j <= i + 2; ++j) {
    if (std::regex_search(d[j], gcc)) return true;
    if (!want.empty() && trim_blanks(d[j]) == want) return true;
  }
  return false;
}

// The diagnostics, each located one followed by its source line(s) from the candidate, within a character budget.
std::string diagnostics_text(const std::vector<std::string>& d, const std::string& candidate, int before,
                             size_t budget) {
  std::string out;
  std::map<std::string, std::vector<std::string>> sources;   // resolved path -> lines
  std::set<std::pair<std::string, int>> quoted;
  int located = 0;
  size_t shown = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    std::string piece = "  " + clip(d[i], kMaxLineChars) + "\n";
    Loc loc;
    if (find_loc(d[i], loc)) {
      if (d[i].find("error") != std::string::npos && ++located > kMaxDiagnostics) break;
      fs::path f = resolve(loc.path, loc.line, candidate);
      if (!f.empty() && !quoted.count({f.string(), loc.line})) {
        auto it = sources.find(f.string());
        if (it == sources.end()) it = sources.emplace(f.string(), read_lines(f)).first;
        const auto& src = it->second;
        if (loc.line <= static_cast<int>(src.size()) && !already_quoted(d, i, src[loc.line - 1])) {
          std::error_code ec;
          fs::path shown = fs::is_directory(candidate, ec) ? fs::relative(f, candidate, ec) : f.filename();
          piece += fmt::format("    in {}:\n", (shown.empty() ? f.filename() : shown).string());
          std::string q = quote(src, loc.line, before);
          for (size_t b = 0, e; b < q.size(); b = e + 1) {
            e = q.find('\n', b);
            piece += "    " + q.substr(b, e - b) + "\n";
          }
        }
        quoted.insert({f.string(), loc.line});
      }
    }
    if (out.size() + piece.size() > budget) break;
    out += piece;
    ++shown;
  }
  if (shown < d.size()) out += fmt::format("  ... ({} more diagnostic lines not shown)\n", d.size() - shown);
  return out;
}

bool is_tile(const std::string& candidate) { return fs::path(candidate).extension() == ".tile"; }

// What an emulator or op-runner error category means and what usually fixes it.
std::string category_hint(const std::string& c) {
  static const std::map<std::string, std::string> h = {
      {"ub-overflow", "the Unified Buffer allocations (InitBuffer sizes times buffer counts, TBuf, temporaries) "
                      "exceed the core's UB: size the tiles on the host from GetCoreMemSize(UB) and count every "
                      "buffer"},
      {"align", "a DataCopy length or a UB/GM address is not a multiple of 32 bytes: round tile lengths to whole "
                "32-byte blocks and move the tail with DataCopyPad"},
      {"gm-out-of-bounds", "a copy reads or writes global memory past a tensor's end: check each core's offset and "
                           "length, and move the last (partial) tile with DataCopyPad of its exact byte count"},
      {"queue", "a TQue was misused (DeQue of an empty queue, EnQue beyond its depth, AllocTensor without "
                "FreeTensor): every AllocTensor needs one EnQue/DeQue pair and one FreeTensor"},
      {"use-after-free", "a LocalTensor was used after FreeTensor: free it only after its last reader"},
      {"uninit-read", "a UB tensor was read before anything wrote it: check the lengths of copies and of the "
                      "vector operations (padding included)"},
      {"race", "two pipes touch the same memory without synchronisation: EnQue after a DataCopy into UB and DeQue "
               "before computing on it (and the same between compute and copy-out), or SetFlag/WaitFlag"},
      {"dtype", "an instruction does not support this data type on the SoC (the 910B has no bfloat16 vector "
                "arithmetic): Cast to float32, compute, and Cast back"},
      {"param", "an API call has invalid parameters (repeat counts over 255, masks, strides, lengths)"},
      {"deadlock", "the cores or pipes wait for each other forever: every WaitFlag needs its SetFlag, and SyncAll "
                   "must be reached by every core"},
      {"op-def", "the inputs, outputs or attrs do not match the OpDef: the OpDef inputs are the forward's tensor "
                 "inputs in order, then the Model's parameters; its DataType lists must hold the task's dtypes "
                 "(one column per combination)"},
      {"infer-shape", "InferShape failed or is not set: give every output its shape from the inputs"},
      {"tiling", "TilingFunc returned failure or wrote more tiling data than its buffer holds: check the "
                 "conditions under which it fails for the shapes of the failing case"},
      {"block-dim", "SetBlockDim was not called or got 0: set it to the number of cores used (at least 1)"},
      {"kernel-name", "the kernel's entry point does not match the op type: OpDef class FooCustom launches "
                      "extern \"C\" __global__ __aicore__ void foo_custom(...)"},
      {"internal", "kgen failed internally: this may not be your kernel's fault; try again, or simplify"},
      {"task", "the task's reference failed to run: this is not your kernel's fault"},
  };
  auto it = h.find(c);
  return it == h.end() ? "" : it->second;
}

std::string cap(std::string s) {
  if (s.size() <= kMaxChars) return s;
  s.resize(kMaxChars - 40);
  return s + "\n... (feedback shortened)\n";
}

std::string compile_error(const eval::EvalResult& r, const std::string& cand) {
  std::string out = "Verdict: compile-error. ";
  out += is_tile(cand) ? "The tile program does not pass the tile compiler's checks, or the AscendC it compiles to "
                         "does not build. The diagnostics:\n"
                       : "The op project does not build. The diagnostics (file:line, the compiler's messages):\n";
  out += diagnostics_text(r.diagnostics, cand, 1, kMaxChars - 800);
  out += is_tile(cand) ? "Fix every error above (each hint says how) and reply with the whole corrected program."
                       : "Fix every error above (an error reported at a line often comes from the line before it) "
                         "and reply with all three files, corrected.";
  return out;
}

std::string runtime_error(const eval::EvalResult& r, const std::string& cand) {
  std::string cat = r.error_category.empty() ? "unknown" : r.error_category;
  std::string out = fmt::format("Verdict: runtime-error [{}]. The candidate built, but ", cat);
  out += cat == "internal" || cat == "task" ? "the evaluation failed:\n"
                                            : "running it on kgen's AscendC emulator stopped with an error:\n";
  out += diagnostics_text(r.diagnostics, cand, 0, kMaxChars - 1000);
  std::string hint = category_hint(cat);
  if (!hint.empty()) out += fmt::format("What [{}] means: {}.\n", cat, hint);
  if (is_tile(cand))
    out += "The file:line above is in the AscendC code kgen generated from your tile program (it has a comment per "
           "program line); change the program so that the generated code avoids it.\n";
  out += "Fix the cause and reply with the complete corrected code.";
  return out;
}

std::string timeout(const eval::EvalResult& r, const std::string& cand) {
  std::string out = "Verdict: timeout. The candidate did not finish within the evaluator's time limit:\n";
  out += diagnostics_text(r.diagnostics, cand, 0, kMaxChars - 1000);
  out += "This usually means a loop that never ends (a tile count or step of 0, an unsigned counter that "
         "underflows, a loop bound read from the wrong tiling field), a WaitFlag or DeQue that no SetFlag or EnQue "
         "answers, or far too much work per core (a tile of a few elements over millions of loop iterations). "
         "Fix it and reply with the complete corrected code.";
  return out;
}

std::string wrong_answer(const eval::EvalResult& r, const std::string& cand) {
  std::string out = "Verdict: wrong-answer. The kernel ran, but its output differs from the PyTorch reference.\n";
  std::vector<std::string> passed;
  const eval::CaseResult* bad = nullptr;
  for (const auto& c : r.cases) {
    if (c.correct) passed.push_back(c.name);
    else if (!bad) bad = &c;
  }
  if (bad) {
    out += fmt::format("Failing case: {}\n", bad->name);
    if (!bad->first_mismatch.empty()) out += fmt::format("First mismatch: {}\n", clip(bad->first_mismatch, 600));
    out += fmt::format("Max abs error {:.6g}, max rel error {:.6g} in that case.\n", bad->max_abs_err,
                       bad->max_rel_err);
    std::string n = bad->name;
    if (n.find("float16") != std::string::npos || n.find("bfloat16") != std::string::npos)
      out += "This case runs in half precision: load or Cast to float32 for the arithmetic (and reductions), then "
             "Cast back to the output's dtype.\n";
    if (n.find("int") != std::string::npos)
      out += "This case has integer tensors: integers are compared exactly.\n";
  }
  if (!passed.empty()) {
    std::string list;
    for (const auto& p : passed) list += (list.empty() ? "" : ", ") + p;
    out += fmt::format("Cases that passed before it: {}.\n", list);
  }
  // the evaluator's other lines (warnings such as never-written elements); the mismatch line itself is above
  std::vector<std::string> rest;
  for (const auto& d : r.diagnostics)
    if (!bad || bad->first_mismatch.empty() || d.find(bad->first_mismatch) == std::string::npos) rest.push_back(d);
  if (!rest.empty()) out += "The evaluator's report:\n" + diagnostics_text(rest, cand, 0, 2500);
  out += "Correct means |got - want| <= atol + rtol * |want| for every element of every output, in every case of "
         "the task's CASES and trials (float32 1e-4/1e-4, float16 and bfloat16 1e-2/1e-2 by default; integers "
         "exactly). Check the formula, the attrs, the tail tile and each core's offset (a mismatch at the end of a "
         "row or of a core's range points at tails or offsets), then reply with the complete corrected code.";
  return out;
}

std::string cheating(const eval::EvalResult& r, const std::string& cand) {
  std::string out = "Verdict: cheating. The static checks rejected the candidate before running it:\n";
  out += diagnostics_text(r.diagnostics, cand, 0, kMaxChars - 800);
  out += "The kernel must compute the result itself on the vector (or cube) units: no PyTorch, ATen or aclnn "
         "calls, no file, process or environment access, no references to the test's files. Reply with a kernel "
         "that does the computation.";
  return out;
}

std::string pct(double part, double whole) { return whole > 0 ? fmt::format("{:.0f}%", 100 * part / whole) : "-"; }

std::string bound_hint(const std::string& b) {
  if (b == "launch")
    return "the kernel is launch-bound: its body is shorter than the launch overhead. Do the whole forward in one "
           "launch; for small inputs, fewer cores (each core used adds head overhead) can be faster.";
  if (b == "HBM")
    return "the kernel is HBM-bound: move fewer bytes — read each input once, keep reused rows resident in UB, "
           "avoid float32 round trips through GM, fuse passes over the same data.";
  if (b == "vector")
    return "the vector unit is the bottleneck: fewer instructions per element (scalar forms such as Muls/Adds "
           "instead of a broadcast tensor, fewer Casts, fused APIs), larger repeats per instruction.";
  if (b == "DMA")
    return "the per-core transfers are the bottleneck: use all cores, larger tiles (fewer, longer DMA bursts), "
           "32-byte aligned (ideally 512-byte aligned) GM addresses.";
  if (b == "scalar")
    return "the scalar unit is the bottleneck: avoid per-element GetValue/SetValue and tiny instructions in loops.";
  if (b == "sync/latency")
    return "pipes wait on each other: double buffering (queue depth 2) lets the copy of the next tile overlap the "
           "compute of this one; bigger tiles amortise the per-transfer latency.";
  if (b == "cube") return "the cube unit is the bottleneck: check the base block sizes and the K split.";
  return "";
}

std::string correct(const eval::EvalResult& r) {
  std::string soc = r.soc.empty() ? "the SoC" : r.soc;
  std::string out = fmt::format(
      "Verdict: correct on all {} case{}. Modeled on {} by kgen's performance model (not a measurement): the "
      "kernel takes {:.2f} us against {:.2f} us for eager PyTorch (torch_npu), a speedup of {:.2f}x (summed over "
      "one forward of each case).\n",
      r.cases.size(), r.cases.size() == 1 ? "" : "s", soc, r.modeled_us, r.eager_modeled_us, r.speedup);
  out += "Per case (modeled): kernel us / eager us, what bounds it, GM bytes moved:\n";
  for (const auto& c : r.cases) {
    out += fmt::format("  {}: {:.2f} / {:.2f} us, bound {}, {:.0f} KB", c.name, c.modeled_us, c.eager_modeled_us,
                       c.bound.empty() ? "-" : c.bound, c.gm_bytes / 1000);
    if (c.modeled_us > 0) out += fmt::format(" ({:.0f} GB/s)", c.gm_bytes / (c.modeled_us * 1000));
    out += "\n";
    if (out.size() > 2500) {
      out += "  ...\n";
      break;
    }
  }
  const auto& t = r.timeline;
  if (!t.lanes.empty()) {
    out += fmt::format("Longest launch ({}, case {}): body {:.3f} us on {} core{}, bound {}.\n",
                       t.kernel.empty() ? "kernel" : t.kernel, t.case_name, t.body_us, t.cores,
                       t.cores == 1 ? "" : "s", t.bound.empty() ? "-" : t.bound);
    // the critical core's pipes: how busy each is over the body
    std::string crit;
    for (const auto& l : t.lanes)
      if (l.core.find("critical") != std::string::npos) crit = l.core;
    if (crit.empty()) crit = t.lanes.front().core;
    out += fmt::format("Pipe busy share of the body on {}:", crit);
    int sep = 0;
    for (const auto& l : t.lanes)
      if (l.core == crit) out += fmt::format("{} {} {}", sep++ ? "," : "", l.pipe, pct(l.busy_us, t.body_us));
    out += "\n";
  }
  std::string b = t.bound.empty() && !r.cases.empty() ? r.cases.front().bound : t.bound;
  std::string hint = bound_hint(b);
  if (!hint.empty()) out += "To make it faster: " + hint + "\n";
  out += "Keep it correct on every case. Reply with the complete code of a faster version, or the same code if you "
         "see no improvement.";
  return out;
}

std::string verdict_feedback(const eval::EvalResult& r, const std::string& candidate) {
  switch (r.verdict) {
    case eval::Verdict::CompileError: return cap(compile_error(r, candidate));
    case eval::Verdict::RuntimeError: return cap(runtime_error(r, candidate));
    case eval::Verdict::Timeout: return cap(timeout(r, candidate));
    case eval::Verdict::WrongAnswer: return cap(wrong_answer(r, candidate));
    case eval::Verdict::Cheating: return cap(cheating(r, candidate));
    case eval::Verdict::Correct: return cap(correct(r));
    case eval::Verdict::NoCode:
      return cap(no_code_feedback(r.diagnostics.empty() ? "the reply had no usable code" : r.diagnostics.front()));
  }
  return "Verdict: unknown.";
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
}
}  // namespace

std::string feedback_text(const eval::EvalResult& r, const std::string& candidate) {
  std::string text = verdict_feedback(r, candidate);
  // Paths relative to the candidate ("relu.tile:6:21", "op_kernel/add.cpp:40"), and the cache as $KGEN_CACHE: the
  // model has no use for where kgen keeps its files, and the next prompt (hence the reply cache's key) must not
  // depend on the output folder or the machine.
  std::error_code ec;
  const fs::path folder = fs::is_directory(candidate, ec) ? fs::path(candidate) : fs::path(candidate).parent_path();
  if (!folder.empty()) {
    replace_all(text, fs::absolute(folder).lexically_normal().string() + "/", "");
    replace_all(text, folder.lexically_normal().string() + "/", "");
  }
  replace_all(text, eval::cache_dir(eval::EvalOptions{}) + "/", "$KGEN_CACHE/");
  return text;
}

std::string no_code_feedback(const std::string& parse_error) {
  return cap(fmt::format("Verdict: no-code. Your reply had no usable code: {}.\nReply again with the complete code, "
                         "in exactly the format asked for (repeated below); keep explanations short so that the code "
                         "fits in the reply.",
                         clip(parse_error, 1500)));
}
}  // namespace kgen::gen
