// Prompts for kernel generation: templates from prompts/, filled with the task, the target's language reference,
// the SoC's facts and the nearest expert examples (prompt.h).
#include "gen/prompt.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "gen/compact_reference.h"
#include "eval/evaluate.h"
#include "gen/npukb_prompt.h"
#include "perf/profile.h"

namespace fs = std::filesystem;

namespace kgen::gen {
namespace {
// A context this large takes the whole tile-language reference (about 22k tokens) with room for examples and reply.
constexpr int kFullReferenceContext = 32768;

bool read_text(const fs::path& p, std::string& out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

std::string trim_newlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string dir_or_default(const std::string& given, const char* sub) {
  return given.empty() ? (fs::path(KGEN_SOURCE_DIR) / sub).string() : given;
}

std::vector<std::string> split_words(const std::string& name) {
  std::vector<std::string> w;
  std::string cur;
  for (char c : name) {
    if (c == '_') {
      if (!cur.empty()) w.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) w.push_back(cur);
  return w;
}

// "gelu_tanh" -> "GeluTanhCustom" (the op type of the project CANN would build; docs/op-projects.md naming).
std::string op_type_of(const std::string& op) {
  std::string t;
  for (auto w : split_words(op)) {
    w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
    t += w;
  }
  return t + "Custom";
}

// One candidate example: its id, its op name and where its solution lives.
struct Example {
  std::string id, category, name;
  fs::path solution;   // .tile file, or an op-project directory
};

// An op-project directory with a kernel and a host file: the directory itself, or sample 0 of a directory that
// holds only numbered samples (candidates/README.md).
bool op_project_dir(const fs::path& d, fs::path& out) {
  std::error_code ec;
  if (fs::is_directory(d / "op_kernel", ec) && fs::is_directory(d / "op_host", ec)) {
    out = d;
    return true;
  }
  if (fs::is_directory(d / "0", ec)) return op_project_dir(d / "0", out);
  return false;
}

std::vector<Example> all_examples(Target t, const PromptOptions& o) {
  std::vector<Example> ex;
  fs::path root = t == Target::Tile ? dir_or_default(o.kernels_dir, "kernels")
                                    : dir_or_default(o.candidates_dir, "candidates");
  fs::path suite = dir_or_default(o.suite_dir, "tasks");
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return ex;
  for (const auto& cat : fs::directory_iterator(root, ec)) {
    if (!cat.is_directory(ec)) continue;
    std::string category = cat.path().filename().string();
    if (category.empty() || category[0] == '.' || category[0] == '_') continue;
    for (const auto& e : fs::directory_iterator(cat.path(), ec)) {
      std::string file = e.path().filename().string();
      if (file.empty() || file[0] == '.' || file[0] == '_') continue;
      Example x;
      x.category = category;
      if (t == Target::Tile) {
        if (e.path().extension() != ".tile") continue;
        x.name = e.path().stem().string();
        x.solution = e.path();
      } else {
        if (!op_project_dir(e.path(), x.solution)) continue;
        x.name = file;
      }
      x.id = category + "/" + x.name;
      // an example shows its task's reference next to the solution: without the task, it is left out
      if (!fs::is_regular_file(suite / (x.id + ".py"), ec)) continue;
      ex.push_back(x);
    }
  }
  return ex;
}

int common_words(const std::string& a, const std::string& b) {
  auto wa = split_words(a), wb = split_words(b);
  std::set<std::string> sa(wa.begin(), wa.end()), sb(wb.begin(), wb.end());
  int n = 0;
  for (const auto& w : sa) n += sb.count(w) ? 1 : 0;
  return n;
}

std::vector<Example> nearest_examples(const TaskInfo& task, const PromptOptions& o) {
  std::string op = task.id.substr(task.id.rfind('/') + 1);
  std::vector<Example> ex = all_examples(o.target, o);
  ex.erase(std::remove_if(ex.begin(), ex.end(),
                          [&](const Example& e) { return e.id == task.id || o.hidden_examples.count(e.id); }),
           ex.end());
  // same category first, then most name words in common, then name order (id order breaks ties)
  auto key = [&](const Example& e) {
    return std::make_tuple(e.category == task.category ? 0 : 1, -common_words(op, e.name), e.name, e.id);
  };
  std::sort(ex.begin(), ex.end(), [&](const Example& a, const Example& b) { return key(a) < key(b); });
  if (static_cast<int>(ex.size()) > std::max(o.examples, 0)) ex.resize(std::max(o.examples, 0));
  return ex;
}

// The three files of an op project, found by what they contain (as kgen does), in the order the reply format asks
// for: tiling header, host, kernel. Paths are given as op_host/... and op_kernel/... whatever the layout on disk.
std::vector<std::pair<std::string, std::string>> project_files(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> tiling_f, host_f, kernel_f;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir, fs::directory_options::follow_directory_symlink, ec))
    if (e.is_regular_file(ec)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    std::string ext = p.extension().string(), text;
    if ((ext != ".cpp" && ext != ".h") || !read_text(p, text)) continue;
    std::string name = p.filename().string();
    if (text.find("kernel_operator.h") != std::string::npos && ext == ".cpp") {
      kernel_f.push_back({"op_kernel/" + name, text});
    } else if (text.find("op_def_registry.h") != std::string::npos && ext == ".cpp") {
      host_f.push_back({"op_host/" + name, text});
    } else if (text.find("BEGIN_TILING_DATA_DEF") != std::string::npos) {
      tiling_f.push_back({"op_host/" + name, text});
    }
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (auto* v : {&tiling_f, &host_f, &kernel_f}) out.insert(out.end(), v->begin(), v->end());
  return out;
}

std::string fenced(const std::string& info, const std::string& text) {
  return fmt::format("```{}\n{}\n```", info, trim_newlines(text));
}

bool render_examples(const TaskInfo& task, const PromptOptions& o, std::string& out, std::string& err) {
  fs::path suite = dir_or_default(o.suite_dir, "tasks");
  std::vector<std::string> parts;
  for (const auto& e : nearest_examples(task, o)) {
    std::string src, sol;
    if (!read_text(suite / (e.id + ".py"), src)) {
      err = fmt::format("cannot read the example task {}", (suite / (e.id + ".py")).string());
      return false;
    }
    std::string part = fmt::format("### Example: {}\nTask (PyTorch reference):\n{}\nSolution:\n", e.id,
                                   fenced("python", src));
    if (o.target == Target::Tile) {
      if (!read_text(e.solution, sol)) {
        err = fmt::format("cannot read the example program {}", e.solution.string());
        return false;
      }
      part += fenced("tile", sol);
    } else {
      auto files = project_files(e.solution);
      for (size_t i = 0; i < files.size(); ++i)
        part += (i ? "\n" : "") + fenced("cpp " + files[i].first, files[i].second);
    }
    parts.push_back(part);
  }
  out.clear();
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "\n\n" : "") + parts[i];
  if (parts.empty()) out = "(no example is available for this target)";
  return true;
}

std::string human_bytes(uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{} GiB", b >> 30);
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} bytes", b);
}

bool soc_facts(const std::string& soc, std::string& name, std::string& out, std::string& err) {
  perf::Profile p;
  try {
    p = perf::load_profile(soc);
  } catch (const std::exception& e) {
    err = fmt::format("SoC profile '{}': {}", soc, e.what());
    return false;
  }
  name = p.name;
  std::string cores =
      p.split ? fmt::format("{} AI cores (AIC, cube) and {} vector cores (AIV); vector kernels run on the AIV cores "
                            "(PlatformAscendC::GetCoreNumAiv() = {})",
                            p.aic_cores, p.aiv_cores, p.aiv_cores)
              : fmt::format("{} AI cores, each with its cube and vector unit (GetCoreNumAiv() = {})", p.aic_cores,
                            p.aiv_cores);
  out = fmt::format(
      "- SoC: {} (numbers from kgen's modeled profile, hardware/{}.json)\n"
      "- Cores: {}\n"
      "- Unified Buffer (UB) per vector core: {} ({} bytes); every DMA and vector operand is whole 32-byte blocks\n"
      "- L1 {}, L0A {}, L0B {}, L0C {} per AI core\n"
      "- HBM: {:.0f} GB/s peak, about {:.0f} GB/s achievable (modeled); AI core clock {:.2f} GHz\n"
      "- Kernel launch: about {:.1f} us per launch back to back (modeled)",
      p.name, p.name, cores, human_bytes(p.ub_bytes), p.ub_bytes, human_bytes(p.l1_bytes), human_bytes(p.l0a_bytes),
      human_bytes(p.l0b_bytes), human_bytes(p.l0c_bytes), p.hbm_peak_gbps, p.hbm_gbps(), p.clock_ghz,
      p.launch_pipelined_us);
  return true;
}

bool read_template(const PromptOptions& o, const std::string& file, std::string& text, std::string& path,
                   std::string& err) {
  path = (fs::path(dir_or_default(o.prompts_dir, "prompts")) / file).string();
  if (!read_text(path, text)) {
    err = fmt::format("{}: cannot read the prompt template (prompts_dir: {}) — restore it from the kgen sources or "
                      "point the prompts directory at a folder that has it",
                      path, dir_or_default(o.prompts_dir, "prompts"));
    return false;
  }
  return true;
}

// The target's language reference: prompts_dir/tile-language.md when present (a custom prompts folder may bring
// its own), else docs/tile-language.md; ascendc: prompts_dir/ascendc_api.md.
bool language_text(const PromptOptions& o, std::string& out, std::string& err) {
  fs::path pd = dir_or_default(o.prompts_dir, "prompts");
  if (o.target == Target::AscendC) {
    std::string path;
    return read_template(o, "ascendc_api.md", out, path, err);
  }
  for (const fs::path& p : {pd / "tile-language.md", pd.parent_path() / "docs" / "tile-language.md",
                            fs::path(KGEN_SOURCE_DIR) / "docs" / "tile-language.md"})
    if (read_text(p, out)) {
      if (o.context_tokens > 0 && o.context_tokens < kFullReferenceContext)   // a small context: the summary
        out = compact_tile_reference(out, static_cast<size_t>(0.40 * o.context_tokens * 3.5));
      return true;
    }
  err = fmt::format("cannot read docs/tile-language.md (looked in {} and {}/docs)", pd.string(), KGEN_SOURCE_DIR);
  return false;
}

// Every variable of the first round (prompt.h), the reply format already filled.
bool base_vars(const TaskInfo& task, const PromptOptions& o, std::map<std::string, std::string>& v,
               std::string& err) {
  std::string op = task.id.substr(task.id.rfind('/') + 1);
  v["task_id"] = task.id;
  v["category"] = task.category;
  v["op_name"] = op;
  v["op_type"] = op_type_of(op);
  v["kernel_name"] = op + "_custom";
  v["target"] = target_name(o.target);
  if (eval::is_npukb_task(task.path)) {   // an NPUKernelBench task: its description, binding, cases and skeleton
    if (o.target != Target::AscendC) {
      err = fmt::format("{}: an NPUKernelBench task is an op project called through its validation/pybind.cpp: "
                        "generate it with --target ascendc (the tile compiler's projects take kgen's calling "
                        "convention)", task.path);
      return false;
    }
    if (!npukb_task_vars(task.path, v, err)) return false;
  } else if (!read_text(task.path, v["task_source"])) {
    err = fmt::format("{}: cannot read the task's reference source", task.path);
    return false;
  }
  v["task_source"] = trim_newlines(v["task_source"]);
  if (!soc_facts(o.soc, v["soc"], v["soc_facts"], err)) return false;
  if (!language_text(o, v["language"], err)) return false;
  v["language"] = trim_newlines(v["language"]);
  if (!render_examples(task, o, v["examples"], err)) return false;
  // A small context: fewer examples while the prompt would take more than 70 % of it (the reply needs the rest).
  for (PromptOptions fewer = o; o.context_tokens > 0 && fewer.examples > 1 &&
                                estimate_tokens(v["language"] + v["examples"] + v["task_source"]) >
                                    static_cast<size_t>(0.70 * o.context_tokens);) {
    --fewer.examples;
    if (!render_examples(task, fewer, v["examples"], err)) return false;
  }
  std::string fmt_text, fmt_path;
  if (!read_template(o, fmt::format("format_{}.md", target_name(o.target)), fmt_text, fmt_path, err)) return false;
  if (!fill_template(fmt_text, fmt_path, v, v["reply_format"], err)) return false;
  v["reply_format"] = trim_newlines(v["reply_format"]);
  return true;
}

bool fill_file(const PromptOptions& o, const std::string& file, const std::map<std::string, std::string>& v,
               std::string& out, std::string& err) {
  std::string text, path;
  return read_template(o, file, text, path, err) && fill_template(text, path, v, out, err);
}

// The first round's system + user messages; v keeps the variables for a repair round.
bool first_round(const TaskInfo& task, const PromptOptions& o, std::map<std::string, std::string>& v,
                 std::vector<ChatMessage>& msgs, std::string& err) {
  msgs.clear();
  if (!base_vars(task, o, v, err)) return false;
  std::string sys, user;
  std::string t = target_name(o.target);
  if (!fill_file(o, fmt::format("system_{}.md", t), v, sys, err)) return false;
  const std::string task_file = eval::is_npukb_task(task.path) ? "task_ascendc_npukb.md" : fmt::format("task_{}.md", t);
  if (!fill_file(o, task_file, v, user, err)) return false;
  msgs.push_back({"system", trim_newlines(sys)});
  msgs.push_back({"user", trim_newlines(user)});
  return true;
}

// Reasoning models send their thinking inside <think>...</think>: it is not carried into the next round (the
// context stays bounded; the code and the feedback are what matter).
std::string without_thinking(const std::string& reply) {
  std::string s = reply;
  size_t close = s.find("</think>");
  size_t open = s.find("<think>");
  if (close != std::string::npos && (open == std::string::npos || open > close)) s.erase(0, close + 8);
  while ((open = s.find("<think>")) != std::string::npos) {
    close = s.find("</think>", open);
    s.erase(open, close == std::string::npos ? std::string::npos : close + 8 - open);
  }
  size_t b = s.find_first_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b);
}
}  // namespace

const char* target_name(Target t) { return t == Target::Tile ? "tile" : "ascendc"; }

bool parse_target(const std::string& s, Target& t) {
  if (s == "tile") {
    t = Target::Tile;
    return true;
  }
  if (s == "ascendc") {
    t = Target::AscendC;
    return true;
  }
  return false;
}

bool fill_template(const std::string& text, const std::string& file, const std::map<std::string, std::string>& vars,
                   std::string& out, std::string& err) {
  out.clear();
  int line = 1;
  size_t line_start = 0;
  auto where = [&](size_t pos) { return fmt::format("{}:{}:{}", file, line, pos - line_start + 1); };
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "{{") != 0) {
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
      out += text[i++];
      continue;
    }
    size_t close = text.find("}}", i + 2);
    size_t nl = text.find('\n', i);
    if (close == std::string::npos || (nl != std::string::npos && nl < close)) {
      err = fmt::format("{}: unclosed \"{{{{\" (a placeholder is {{{{name}}}} on one line)", where(i));
      return false;
    }
    std::string name = text.substr(i + 2, close - i - 2);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    auto it = vars.find(name);
    if (it == vars.end()) {
      std::string known;
      for (const auto& [k, _] : vars) known += (known.empty() ? "" : ", ") + k;
      err = fmt::format("{}: unknown placeholder {{{{{}}}}} (known: {})", where(i), name, known);
      return false;
    }
    out += it->second;   // values are inserted as they are: code in them may hold "{{" without being re-read
    i = close + 2;
  }
  return true;
}

std::vector<std::string> choose_examples(const TaskInfo& task, const PromptOptions& o) {
  std::vector<std::string> ids;
  for (const auto& e : nearest_examples(task, o)) ids.push_back(e.id);
  return ids;
}

bool initial_messages(const TaskInfo& task, const PromptOptions& o, std::vector<ChatMessage>& msgs,
                      std::string& err) {
  std::map<std::string, std::string> v;
  return first_round(task, o, v, msgs, err);
}

bool repair_messages(const TaskInfo& task, const PromptOptions& o, const std::string& previous_reply,
                     const std::string& previous_code, const std::string& feedback, std::vector<ChatMessage>& msgs,
                     std::string& err) {
  std::map<std::string, std::string> v;
  if (!first_round(task, o, v, msgs, err)) return false;
  v["feedback"] = trim_newlines(feedback);
  v["previous"] = previous_code.empty() ? "(the previous reply had no usable code)" : trim_newlines(previous_code);
  std::string repair;
  if (!fill_file(o, "repair.md", v, repair, err)) return false;
  std::string prev = without_thinking(previous_reply);
  if (!prev.empty()) msgs.push_back({"assistant", prev});
  msgs.push_back({"user", trim_newlines(repair)});
  return true;
}
}  // namespace kgen::gen
