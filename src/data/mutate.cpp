// Fault injection into correct op projects and the rows of the mutants kgen flags (mutate.h).
#include "data/mutate.h"

#include "data/jsonl.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/parallel.h"
#include "eval/bench.h"
#include "eval/evaluate.h"
#include "op/project.h"

namespace kgen::data {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// A fault's line edit: nullopt when the line is not a site; "" with erase when the line is deleted.
struct Edit {
  bool erase = false;
  std::string text;
};
using LineEdit = std::function<std::optional<Edit>(const std::string& line)>;

struct FaultDef {
  Fault f;
  LineEdit edit;
  // The explanation: what went wrong and why the original line is the fix ({B} the original line, {A} the mutant).
  std::string why;
};

std::optional<Edit> erase_if(const std::string& line, const std::regex& re) {
  if (!std::regex_search(line, re)) return std::nullopt;
  return Edit{true, ""};
}

// Replaces the first match of re in line by fmt(match), or nullopt.
std::optional<Edit> replace_first(const std::string& line, const std::regex& re,
                                  const std::function<std::optional<std::string>(const std::smatch&)>& fmt_match) {
  std::smatch m;
  if (!std::regex_search(line, m, re)) return std::nullopt;
  std::optional<std::string> r = fmt_match(m);
  if (!r) return std::nullopt;
  return Edit{false, m.prefix().str() + *r + m.suffix().str()};
}

// A plain argument (a name, a member, arithmetic of names) and not a parameter struct or a brace list.
bool plain_arg(const std::string& a) {
  return !a.empty() && a.find('{') == std::string::npos && a.find("Params") == std::string::npos &&
         a.find('"') == std::string::npos;
}

std::string misspell(const std::string& name) {   // DataCopy -> Datacopy, Exp -> Expp
  for (size_t i = 1; i < name.size(); ++i)
    if (std::isupper(static_cast<unsigned char>(name[i])))
      return name.substr(0, i) + char(std::tolower(static_cast<unsigned char>(name[i]))) + name.substr(i + 1);
  return name + name.back();
}

const std::vector<FaultDef>& fault_defs() {
  static const std::vector<FaultDef> defs = [] {
    std::vector<FaultDef> d;
    const std::regex enque(R"(\.EnQue\s*(<[^>]*>)?\s*\()"), free_t(R"(\.FreeTensor\s*\()"),
        wait(R"(\bWaitFlag\s*(<|\())"), copy(R"(\bDataCopy\s*\(([^;]*),\s*([^,;]+)\)\s*;)"),
        init3(R"(\bInitBuffer\s*\(([^,;]+),\s*([^,;]+),\s*([^;]+)\)\s*;)"), init2(R"(\bInitBuffer\s*\(([^,;]+),\s*([^,;]+)\)\s*;)"),
        api(R"(AscendC::([A-Z][A-Za-z0-9]*)\s*(<[^>]*>)?\s*\()"), ftensor(R"(LocalTensor<float>)"),
        loop(R"(for\s*\(([^;]*);\s*([\w.>-]+)\s*<\s*([^;]+);)"), block(R"(((AscendC::)?GetBlockIdx\s*\(\s*\)))"),
        dim(R"(SetBlockDim\s*\(([^;]+)\)\s*;)"), field(R"(\bset_(\w+)\s*\(([^;]+)\)\s*;)"),
        count(R"(AscendC::(Add|Sub|Mul|Div|Max|Min|Exp|Ln|Abs|Sqrt|Rsqrt|Reciprocal|Relu|LeakyRelu|Silu|Sigmoid|Tanh|Muls|Adds|Maxs|Mins|Duplicate|Cast|Gelu|FasterGelu|Sin|Cos|Axpy)\s*(<[^>]*>)?\s*\((.*),\s*([A-Za-z_][\w.>-]*)\)\s*;)");
    d.push_back({{"missing-enque", "kernel", "an EnQue dropped: a tile never handed from one pipeline stage to the next"},
                 [enque](const std::string& l) { return erase_if(l, enque); },
                 "The line `{B}` is missing. Without the EnQue the tile this stage wrote is never handed to the stage "
                 "that DeQues it: on the chip that DeQue waits for a buffer that never comes, or takes one nobody "
                 "wrote. Put the EnQue back right after the last instruction that writes the tile."});
    d.push_back({{"missing-free", "kernel", "a FreeTensor dropped: a queue buffer never returned"},
                 [free_t](const std::string& l) { return erase_if(l, free_t); },
                 "The line `{B}` is missing. Each AllocTensor takes one of the queue's buffers (InitBuffer's count) and "
                 "only FreeTensor gives it back; without it a later AllocTensor finds no free buffer. Free the tile "
                 "after its last reader."});
    d.push_back({{"missing-wait", "kernel", "a WaitFlag dropped: a pipe reads before the pipe that writes is done"},
                 [wait](const std::string& l) { return erase_if(l, wait); },
                 "The line `{B}` is missing. The pipes run concurrently: the SetFlag/WaitFlag pair orders the pipe "
                 "that writes a buffer before the pipe that reads it; without the WaitFlag the read can overtake the "
                 "write. Wait for the event before the dependent instruction."});
    d.push_back({{"unaligned-copy", "kernel", "a DataCopy length that is not a whole number of 32-byte blocks"},
                 [copy](const std::string& l) {
                   return replace_first(l, copy, [](const std::smatch& m) -> std::optional<std::string> {
                     const std::string n = m[2].str();
                     if (!plain_arg(n)) return std::nullopt;
                     return "DataCopy(" + m[1].str() + ", (" + n + ") + 1);";
                   });
                 },
                 "`{A}` copies one element more than the tile. DataCopy moves whole 32-byte blocks, so its count times "
                 "the element size must be a multiple of 32 bytes, and the extra element lies outside the tile. Copy "
                 "exactly the tile, `{B}`; a length that is not a whole number of blocks needs DataCopyPad."});
    d.push_back({{"ub-overflow", "kernel", "buffers larger than the Unified Buffer"},
                 [init3, init2](const std::string& l) {
                   auto big = [](const std::string& n) { return "(" + n + ") * 256"; };
                   if (auto e = replace_first(l, init3, [&](const std::smatch& m) -> std::optional<std::string> {
                         return "InitBuffer(" + m[1].str() + ", " + m[2].str() + ", " + big(m[3].str()) + ");";
                       }))
                     return e;
                   return replace_first(l, init2, [&](const std::smatch& m) -> std::optional<std::string> {
                     return "InitBuffer(" + m[1].str() + ", " + big(m[2].str()) + ");";
                   });
                 },
                 "`{A}` asks for 256 times the buffer the tile needs. InitBuffer reserves its bytes in the core's "
                 "Unified Buffer for the whole kernel (192 KB on the Ascend910B vector core, docs/perf-model.md), and "
                 "all buffers together must fit. Size the tile so they do: `{B}`."});
    d.push_back({{"misspelt-api", "kernel", "an AscendC API name misspelt"},
                 [api](const std::string& l) {
                   return replace_first(l, api, [](const std::smatch& m) -> std::optional<std::string> {
                     return "AscendC::" + misspell(m[1].str()) + m[2].str() + "(";
                   });
                 },
                 "`{A}` calls a function AscendC does not have (the names are case-sensitive). The call is `{B}`."});
    d.push_back({{"invented-api", "kernel", "a plausible AscendC API that does not exist"},
                 [](const std::string& l) -> std::optional<Edit> {
                   static const std::vector<std::pair<std::string, std::string>> table = {
                       {"LeakyRelu", "LeakyReLU"}, {"Relu", "ReLU"},     {"Silu", "SiLU"},
                       {"Muls", "MulScalar"},      {"Adds", "AddScalar"}, {"Exp", "Exponential"},
                       {"DataCopyPad", "DataCopyPadded"}, {"Cast", "Convert"}, {"ReduceSum", "Sum"},
                       {"Duplicate", "Fill"},       {"Div", "Divide"},    {"Sub", "Subtract"},
                       {"Mul", "Multiply"},         {"Add", "Plus"},      {"Sqrt", "SquareRoot"}};
                   for (const auto& [real, fake] : table) {
                     const std::regex re("AscendC::" + real + R"(\s*(<[^>]*>)?\s*\()");
                     if (auto e = replace_first(l, re, [&](const std::smatch& m) -> std::optional<std::string> {
                           return "AscendC::" + fake + m[1].str() + "(";
                         }))
                       return e;
                   }
                   return std::nullopt;
                 },
                 "`{A}` calls an API that sounds right but does not exist in AscendC. The operation is `{B}`."});
    d.push_back({{"wrong-dtype", "kernel", "a float64 tensor, which the AI core's vector unit does not have"},
                 [ftensor](const std::string& l) {
                   return replace_first(l, ftensor, [](const std::smatch&) -> std::optional<std::string> {
                     return "LocalTensor<double>";
                   });
                 },
                 "`{A}` uses a float64 local tensor: the AI core's vector unit computes float16, bfloat16, float32 and "
                 "integers, not float64, and AscendC's vector API is not instantiated for it. Use float: `{B}`."});
    d.push_back({{"missing-tail", "kernel", "the tile loop stops one iteration early: the tail is never computed"},
                 [loop](const std::string& l) {
                   return replace_first(l, loop, [](const std::smatch& m) -> std::optional<std::string> {
                     return "for (" + m[1].str() + "; " + m[2].str() + " < (" + m[3].str() + ") - 1;";
                   });
                 },
                 "`{A}` stops one iteration early, so the last tile (the tail of this core's share) is never "
                 "processed and its outputs are never written. Loop over every tile: `{B}`."});
    d.push_back({{"core-split-off-by-one", "kernel", "each core takes its neighbour's share of the data"},
                 [block](const std::string& l) {
                   return replace_first(l, block, [](const std::smatch& m) -> std::optional<std::string> {
                     return "(" + m[1].str() + " + 1)";
                   });
                 },
                 "`{A}` makes core i work on core i+1's share: the first share is never computed and the last core "
                 "reads and writes past the end of the tensors. Each core takes the share of its own index: `{B}`."});
    d.push_back({{"tiling-blockdim", "host", "the kernel launched on one core more than the tiling split the work for"},
                 [dim](const std::string& l) {
                   return replace_first(l, dim, [](const std::smatch& m) -> std::optional<std::string> {
                     return "SetBlockDim((" + m[1].str() + ") + 1);";
                   });
                 },
                 "`{A}` launches one core more than the TilingFunc divided the data among: the extra core's offset "
                 "lies past the end of the tensors. SetBlockDim must be the number of shares the tiling made: `{B}`."});
    d.push_back({{"tiling-field", "host", "a tiling field set to half its value in the TilingFunc"},
                 [field](const std::string& l) {
                   return replace_first(l, field, [](const std::smatch& m) -> std::optional<std::string> {
                     if (!plain_arg(m[2].str())) return std::nullopt;
                     return "set_" + m[1].str() + "((" + m[2].str() + ") / 2);";
                   });
                 },
                 "`{A}` hands the kernel half the value the TilingFunc computed, so the kernel's loop bounds or "
                 "offsets no longer match the data. Set the field to the computed value: `{B}`."});
    d.push_back({{"wrong-count", "kernel", "a vector instruction over half the tile (its count, or repeat and mask)"},
                 [count](const std::string& l) {
                   return replace_first(l, count, [](const std::smatch& m) -> std::optional<std::string> {
                     return "AscendC::" + m[1].str() + m[2].str() + "(" + m[3].str() + ", (" + m[4].str() + ") / 2);";
                   });
                 },
                 "`{A}` processes only half the tile (the element count; at level 0 the repeat times and the mask "
                 "say the same), so the other half of the result keeps whatever the buffer held. Give the whole "
                 "tile's count: `{B}`."});
    return d;
  }();
  return defs;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool is_comment(const std::string& line) {
  const std::string t = trim(line);
  return t.rfind("//", 0) == 0 || t.rfind("*", 0) == 0 || t.rfind("/*", 0) == 0;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

// The op project's sources of a role, sorted: op_kernel/*.cpp|.h or op_host/*.cpp (tiling headers left alone).
std::vector<std::string> sources_of(const fs::path& dir, const std::string& role) {
  std::vector<std::string> out;
  const fs::path sub = dir / (role == "kernel" ? "op_kernel" : "op_host");
  std::error_code ec;
  for (fs::directory_iterator it(sub, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string ext = it->path().extension().string();
    if (!it->is_regular_file()) continue;
    if (ext == ".cpp" || (role == "kernel" && ext == ".h"))
      out.push_back(fs::relative(it->path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool write_file(const fs::path& p, const std::string& text) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

std::string verdict_key(const eval::EvalResult& r) {
  std::string k = eval::verdict_name(r.verdict);
  if (!r.error_category.empty()) k += "/" + r.error_category;
  return k;
}
}  // namespace

const std::vector<Fault>& faults() {
  static const std::vector<Fault> out = [] {
    std::vector<Fault> f;
    for (const auto& d : fault_defs()) f.push_back(d.f);
    return f;
  }();
  return out;
}

std::vector<Mutant> make_mutants(const std::string& project_dir, const std::vector<std::string>& names,
                                 int max_per_fault) {
  std::vector<Mutant> out;
  for (const FaultDef& d : fault_defs()) {
    if (!names.empty() && std::find(names.begin(), names.end(), d.f.name) == names.end()) continue;
    int made = 0;
    for (const std::string& rel : sources_of(project_dir, d.f.file_role)) {
      const std::string text = op::read_text((fs::path(project_dir) / rel).string());
      const std::vector<std::string> lines = split_lines(text);
      for (size_t i = 0; i < lines.size() && made < max_per_fault; ++i) {
        if (is_comment(lines[i])) continue;
        std::optional<Edit> e = d.edit(lines[i]);
        if (!e || (!e->erase && e->text == lines[i])) continue;
        Mutant m;
        m.fault = d.f.name;
        m.file = rel;
        m.line = static_cast<int>(i + 1);
        m.before = lines[i];
        m.after = e->erase ? "" : e->text;
        m.original = text;
        for (size_t j = 0; j < lines.size(); ++j) {
          if (j == i && e->erase) continue;
          m.mutated += (j == i ? e->text : lines[j]) + "\n";
        }
        m.explanation = fmt::format("{}:{}: {}", rel, m.line,
                                    replace_all(replace_all(d.why, "{B}", trim(m.before)), "{A}", trim(m.after)));
        out.push_back(std::move(m));
        ++made;
      }
      if (made >= max_per_fault) break;
    }
  }
  return out;
}

int mutate_rows(const MutateOptions& o, MutateSummary& s, std::string& err) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> names;
  {
    std::stringstream ss(o.faults);
    std::set<std::string> known;
    for (const auto& f : faults()) known.insert(f.name);
    for (std::string n; std::getline(ss, n, ',');) {
      n = trim(n);
      if (n.empty()) continue;
      if (!known.count(n)) {
        std::string list;
        for (const auto& f : faults()) list += (list.empty() ? "" : ", ") + f.name;
        err = "--faults: unknown fault '" + n + "' (known: " + list + ")";
        return 2;
      }
      names.push_back(n);
    }
  }
  if (o.format != "error-fix" && o.format != "chat") {
    err = "--format " + o.format + ": not error-fix or chat";
    return 2;
  }
  if (o.max_per_fault < 1 || o.jobs < 1) {
    err = "--max-per-fault and --jobs must be at least 1";
    return 2;
  }
  const std::string suite = o.suite.empty() ? std::string(KGEN_SOURCE_DIR) + "/tasks" : o.suite;
  std::vector<eval::BenchTask> tasks;
  if (!eval::list_suite(suite, o.filter, "/usr/bin/python3", tasks, err)) return 2;
  std::vector<eval::BenchCandidate> cands;
  std::vector<std::string> notes;
  if (!eval::find_candidates(o.candidates, cands, notes, err)) return 2;
  std::map<std::string, const eval::BenchTask*> by_id;
  for (const auto& t : tasks) by_id[t.id] = &t;

  // A work folder: the sources (tile programs compiled) and every mutant's project copy.
  std::string tmpl = (fs::temp_directory_path() / "kgen-mutate-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    err = "cannot make a work folder under " + fs::temp_directory_path().string();
    return 1;
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{tmpl};
  const fs::path work = tmpl;

  struct Source {
    const eval::BenchTask* task;
    std::string project;   // an op project folder
    std::string origin;    // the candidate as found
  };
  std::vector<Source> sources;
  for (const auto& c : cands) {
    auto it = by_id.find(c.task_id);
    if (it == by_id.end()) continue;
    const std::string kind = eval::candidate_kind(c.path);
    if (kind == "op-project") {
      sources.push_back({it->second, c.path, c.path});
    } else if (kind == "tile") {
      eval::EvalOptions to;
      to.soc = o.soc;
      to.candidate = c.path;
      std::string project;
      std::vector<std::string> diags;
      if (!eval::compile_tile_project(to, project, diags)) {
        ++s.skipped["tile program does not compile"];
        continue;
      }
      sources.push_back({it->second, project, c.path});
    } else {
      ++s.skipped["not an op project or a tile program (MultiKernelBench .py)"];
    }
  }
  if (sources.empty()) {
    err = "no op project or tile program of the suite's tasks under " + o.candidates +
          (o.filter.empty() ? "" : " matching --filter '" + o.filter + "'");
    return 2;
  }

  eval::EvalOptions base;
  base.soc = o.soc;
  base.trials = 1;
  base.secret_trials = 0;
  base.perf_shape = false;
  base.timeout_s = o.timeout_s;
  std::vector<std::string> ref_tasks;
  for (const auto& src : sources) ref_tasks.push_back(src.task->path);
  std::string note;
  eval::prefetch_references(base, ref_tasks, o.jobs, note);

  // The sources must be correct: a row's fixed file is the original, and it must pass.
  std::vector<eval::EvalResult> as_is(sources.size());
  parallel_for(sources.size(), o.jobs, [&](size_t i) {
    eval::EvalOptions eo = base;
    eo.task = sources[i].task->path;
    eo.candidate = sources[i].project;
    as_is[i] = eval::evaluate(eo);
  });
  struct Job {
    size_t source;
    Mutant m;
    fs::path project;
    eval::EvalResult result;
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (as_is[i].verdict != eval::Verdict::Correct) {
      ++s.skipped["source not correct here (its fix would not pass)"];
      s.incorrect.push_back(fmt::format("{} ({}): {}", sources[i].task->id, verdict_key(as_is[i]),
                                        as_is[i].diagnostics.empty() ? "" : as_is[i].diagnostics.front().substr(0, 200)));
      continue;
    }
    ++s.sources;
    for (Mutant& m : make_mutants(sources[i].project, names, o.max_per_fault)) {
      const fs::path dir = work / "mutants" / std::to_string(jobs.size()) / fs::path(sources[i].project).filename();
      std::error_code ec;
      fs::create_directories(dir, ec);
      // The source's own folder (a bench candidate may be a link to it); its files copied, the mutated one rewritten.
      if (!ec) fs::copy(fs::canonical(sources[i].project, ec), dir, fs::copy_options::recursive, ec);
      if (ec || !write_file(dir / m.file, m.mutated)) {
        ++s.skipped["cannot copy a source to the work folder: " + (ec ? ec.message() : "cannot write " + m.file)];
        continue;
      }
      ++s.by_fault[m.fault].made;
      jobs.push_back({i, std::move(m), dir, {}});
    }
  }
  parallel_for(jobs.size(), o.jobs, [&](size_t k) {
    eval::EvalOptions eo = base;
    eo.task = sources[jobs[k].source].task->path;
    eo.candidate = jobs[k].project.string();
    jobs[k].result = eval::evaluate(eo);
  });

  std::vector<json> rows;
  for (const Job& j : jobs) {
    FaultCount& fc = s.by_fault[j.m.fault];
    const eval::EvalResult& r = j.result;
    const eval::BenchTask& t = *sources[j.source].task;
    if (r.verdict == eval::Verdict::Correct) {
      ++fc.unflagged;
      s.unflagged.push_back(fmt::format("{} {} {}:{}", t.id, j.m.fault, j.m.file, j.m.line));
      continue;
    }
    ++fc.flagged;
    ++fc.verdicts[verdict_key(r)];
    std::string diagnostic;
    for (const auto& d : r.diagnostics) diagnostic += (diagnostic.empty() ? "" : "\n") + d;
    if (diagnostic.empty()) diagnostic = verdict_key(r);
    // The work folder is this run's: paths inside the mutant read as the project's own (op_kernel/x.cpp:17).
    diagnostic = replace_all(diagnostic, j.project.string() + "/", "");
    diagnostic = replace_all(diagnostic, j.project.string(), j.project.filename().string());
    const json provenance = {{"task_id", t.id},
                             {"source", sources[j.source].origin},
                             {"fault", j.m.fault},
                             {"file", j.m.file},
                             {"line", j.m.line},
                             {"verdict", eval::verdict_name(r.verdict)},
                             {"error_category", r.error_category},
                             {"soc", o.soc},
                             {"kgen_version", r.kgen_version},
                             {"task_hash", r.task_hash},
                             {"candidate_hash", r.candidate_hash}};
    json row;
    if (o.format == "error-fix") {
      row = {{"kind", "error-fix"},     {"task_id", t.id},          {"file", j.m.file},
             {"error_code", j.m.mutated}, {"error_message", diagnostic}, {"fixed_code", j.m.original},
             {"explanation", j.m.explanation}, {"provenance", provenance}};
    } else {
      const std::string user = fmt::format(
          "This AscendC operator for the task {} fails kgen's evaluation on {}.\n\nkgen says:\n{}\n\n{}:\n```cpp\n{}```\n\n"
          "Fix the file.",
          t.id, o.soc, diagnostic, j.m.file, j.m.mutated);
      const std::string assistant =
          fmt::format("{}\n\n```cpp {}\n{}```", j.m.explanation, j.m.file, j.m.original);
      row = {{"kind", "error-fix"},
             {"messages", json::array({{{"role", "user"}, {"content", user}},
                                       {{"role", "assistant"}, {"content", assistant}}})},
             {"provenance", provenance}};
    }
    rows.push_back(std::move(row));
    ++fc.exported;
  }

  if (!write_jsonl(o.out, rows, err)) return 1;   // written whole, then moved into place
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return 0;
}

std::string mutate_summary_text(const MutateOptions& o, const MutateSummary& s) {
  std::string t = fmt::format("{:<24} {:>6} {:>8} {:>9} {:>10}  flagged as\n", "fault", "made", "flagged", "exported",
                              "unflagged");
  FaultCount all;
  for (const auto& f : faults()) {
    auto it = s.by_fault.find(f.name);
    if (it == s.by_fault.end()) continue;
    const FaultCount& c = it->second;
    std::string as;
    for (const auto& [v, n] : c.verdicts) as += (as.empty() ? "" : ", ") + fmt::format("{} {}", v, n);
    t += fmt::format("{:<24} {:>6} {:>8} {:>9} {:>10}  {}\n", f.name, c.made, c.flagged, c.exported, c.unflagged, as);
    all.made += c.made;
    all.flagged += c.flagged;
    all.exported += c.exported;
    all.unflagged += c.unflagged;
  }
  t += fmt::format("{:<24} {:>6} {:>8} {:>9} {:>10}\n", "all", all.made, all.flagged, all.exported, all.unflagged);
  for (const auto& [why, n] : s.skipped) t += fmt::format("skipped {} source(s): {}\n", n, why);
  for (const auto& u : s.incorrect) t += "source not correct: " + u + "\n";
  for (const auto& u : s.unflagged) t += "not flagged (an emulator gap or a harmless mutation): " + u + "\n";
  t += fmt::format("{} source(s), {} row(s) ({}) written to {} in {:.1f} s\n", s.sources, all.exported, o.format,
                   o.out, s.seconds);
  return t;
}

}  // namespace kgen::data
