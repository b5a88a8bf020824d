// A bounded, seeded mutation fuzz of the whole tile compiler (parse, check, every lowering pass, emit) over the expert
// library: every kernels/**/*.tile, mutated at the token level (delete a token, duplicate one, swap two, replace a
// name by another name of the same program, replace a number, replace a function, operator or dtype by a kindred one,
// change a line's indentation, truncate). Whatever the input, compile_program() must not crash, must either succeed
// with no error and the op project's files or fail with at least one error and no files, must keep every diagnostic
// inside the source, and its diagnostics must render.
// Deterministic: the seed is fixed and the programs are taken in sorted order, so a failure reproduces.
// tests/tile_fuzz.sh takes mutants that compile further: their emitted AscendC must build.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tile/compile.h"
#include "tile/diag.h"

namespace kgen::tile {
namespace {
namespace fs = std::filesystem;

constexpr int kMutantsPerProgram = 300;   // 40 programs: about 12000 compiles, ~1 s (~6 s under ASan)

fs::path source_dir() {
#ifdef KGEN_SOURCE_DIR
  return fs::path(KGEN_SOURCE_DIR);
#else
  return fs::path(__FILE__).parent_path().parent_path().parent_path();   // tests/unit/x.cpp -> the source tree
#endif
}

struct Sample {
  std::string name;   // relative to the source tree, e.g. kernels/activation/relu.tile
  std::string text;
};

// The expert library (kernels/) and the operators outside the suite (tests/data/tile_ops/programs: range loops,
// outputs of K values per position, reductions and scans over a slab's positions).
std::vector<Sample> expert_programs() {
  std::vector<fs::path> paths;
  for (const char* top : {"kernels", "tests/data/tile_ops/programs"}) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(source_dir() / top, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".tile") paths.push_back(it->path());
  }
  std::sort(paths.begin(), paths.end());   // directory order is not deterministic
  std::vector<Sample> out;
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({fs::relative(p, source_dir()).string(), ss.str()});
  }
  return out;
}

// splitmix64: the same sequence on every platform (std distributions are not).
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
};

// A token of the program: its byte range and what it is. Comments and docstrings are tokens too (they are never
// mutated: a change there reaches no pass); spaces between tokens are not.
enum class Kind { Name, Number, Punct, Newline, Indent, Comment, String };
struct Tok {
  size_t begin, end;
  Kind kind;
};

std::vector<Tok> tokenize(const std::string& s) {
  std::vector<Tok> out;
  size_t i = 0, n = s.size();
  bool line_start = true;
  auto isname = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < n) {
    const char c = s[i];
    if (line_start && (c == ' ' || c == '\t')) {
      size_t j = i;
      while (j < n && (s[j] == ' ' || s[j] == '\t')) ++j;
      out.push_back({i, j, Kind::Indent});
      i = j;
      line_start = false;
      continue;
    }
    line_start = false;
    if (c == '\n') {
      out.push_back({i, i + 1, Kind::Newline});
      ++i;
      line_start = true;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '#') {
      size_t j = s.find('\n', i);
      j = j == std::string::npos ? n : j;
      out.push_back({i, j, Kind::Comment});
      i = j;
    } else if (c == '"' || c == '\'') {
      const bool triple = s.compare(i, 3, std::string(3, c)) == 0;
      const std::string close = triple ? std::string(3, c) : std::string(1, c);
      size_t j = s.find(close, i + close.size());
      j = j == std::string::npos ? n : j + close.size();
      out.push_back({i, j, Kind::String});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t j = i;
      while (j < n && (isname(s[j]) || s[j] == '.' ||
                       ((s[j] == '-' || s[j] == '+') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
        ++j;
      out.push_back({i, j, Kind::Number});
      i = j;
    } else if (isname(c)) {
      size_t j = i;
      while (j < n && isname(s[j])) ++j;
      out.push_back({i, j, Kind::Name});
      i = j;
    } else {
      static const char* const two[] = {"->", "**", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/="};
      size_t len = 1;
      for (const char* t : two)
        if (s.compare(i, 2, t) == 0) len = 2;
      out.push_back({i, i + len, Kind::Punct});
      i += len;
    }
  }
  return out;
}

bool mutable_tok(const Tok& t) { return t.kind != Kind::Comment && t.kind != Kind::String; }

// Words that can stand for each other: another function, operator or dtype keeps more mutants valid and reaches
// other paths of the checks and the emitter than renames and numbers do.
const std::vector<std::vector<std::string>> kKindred = {
    {"exp", "log", "sqrt", "rsqrt", "relu", "sigmoid", "tanh", "erf", "gelu", "gelu_tanh", "silu", "softplus", "abs",
     "reciprocal"},
    {"min", "max", "sum", "mean"},
    {"leaky_relu", "elu", "pow"},
    {"+", "-", "*", "/"},
    {"<", "<=", ">", ">=", "==", "!="},
    {"f32", "f16", "bf16", "i32", "i8", "u8", "bool"},
};

const char* const kNumbers[] = {"0", "1", "2", "3", "0.5", "-1", "1e-5", "9", "1000000", "1e30", "0.0", "2.5",
                                "65536", "4294967296", "1e400", "00", "1.", ".5"};

// What was done, for the failure message.
std::string mutate(const std::string& base, Rng& rng, std::string& how) {
  std::string s = base;
  const int rounds = 1 + static_cast<int>(rng.below(2));
  for (int r = 0; r < rounds; ++r) {
    const std::vector<Tok> all = tokenize(s);
    std::vector<Tok> toks, names, numbers, indents;
    for (const Tok& t : all) {
      if (!mutable_tok(t)) continue;
      toks.push_back(t);
      if (t.kind == Kind::Name) names.push_back(t);
      if (t.kind == Kind::Number) numbers.push_back(t);
      if (t.kind == Kind::Indent) indents.push_back(t);
    }
    if (toks.size() < 2) break;
    auto text = [&](const Tok& t) { return s.substr(t.begin, t.end - t.begin); };
    switch (rng.below(9)) {
      case 0: {  // delete a token
        const Tok t = toks[rng.below(toks.size())];
        how += " delete '" + text(t) + "'@" + std::to_string(t.begin) + ";";
        s.erase(t.begin, t.end - t.begin);
        break;
      }
      case 1: {  // duplicate a token (in place, or somewhere else)
        const Tok t = toks[rng.below(toks.size())];
        const size_t at = rng.below(2) ? t.end : toks[rng.below(toks.size())].begin;
        how += " duplicate '" + text(t) + "' to @" + std::to_string(at) + ";";
        s.insert(at, text(t) + (t.kind == Kind::Name || t.kind == Kind::Number ? " " : ""));
        break;
      }
      case 2: {  // swap two tokens
        size_t i = rng.below(toks.size()), j = rng.below(toks.size());
        if (i == j) break;
        if (i > j) std::swap(i, j);
        const Tok a = toks[i], b = toks[j];
        const std::string ta = text(a), tb = text(b);
        how += " swap '" + ta + "'@" + std::to_string(a.begin) + " '" + tb + "'@" + std::to_string(b.begin) + ";";
        s = s.substr(0, a.begin) + tb + s.substr(a.end, b.begin - a.end) + ta + s.substr(b.end);
        break;
      }
      case 3:
      case 4: {  // replace a name by another name of the program (twice as likely: it keeps more programs valid)
        if (names.size() < 2) break;
        const Tok a = names[rng.below(names.size())], b = names[rng.below(names.size())];
        const std::string tb = text(b);
        how += " rename '" + text(a) + "'@" + std::to_string(a.begin) + " to '" + tb + "';";
        s.replace(a.begin, a.end - a.begin, tb);
        break;
      }
      case 5: {  // replace a number (or put one where a name was)
        const std::string num = kNumbers[rng.below(std::size(kNumbers))];
        const Tok t = numbers.empty() || rng.below(4) == 0 ? toks[rng.below(toks.size())]
                                                           : numbers[rng.below(numbers.size())];
        how += " number '" + text(t) + "'@" + std::to_string(t.begin) + " to " + num + ";";
        s.replace(t.begin, t.end - t.begin, num);
        break;
      }
      case 6: {  // change a line's indentation: more, less, none, a tab, one space off
        if (indents.empty()) break;
        const Tok t = indents[rng.below(indents.size())];
        static const char* const forms[] = {"", "    ", "        ", "            ", "\t", "   ", "     ", "  \t  "};
        const std::string f = forms[rng.below(std::size(forms))];
        how += " indent@" + std::to_string(t.begin) + " " + std::to_string(t.end - t.begin) + " -> '" + f + "';";
        s.replace(t.begin, t.end - t.begin, f);
        break;
      }
      case 7: {  // replace a function, operator or dtype by a kindred one
        std::vector<std::pair<Tok, const std::vector<std::string>*>> kin;
        for (const Tok& t : toks)
          for (const auto& g : kKindred)
            if (std::find(g.begin(), g.end(), text(t)) != g.end()) kin.push_back({t, &g});
        if (kin.empty()) break;
        const auto& [t, g] = kin[rng.below(kin.size())];
        const std::string w = (*g)[rng.below(g->size())];
        how += " replace '" + text(t) + "'@" + std::to_string(t.begin) + " by '" + w + "';";
        s.replace(t.begin, t.end - t.begin, w);
        break;
      }
      case 8: {  // truncate: at a token boundary, or anywhere
        const size_t at = rng.below(3) ? toks[rng.below(toks.size())].begin : rng.below(s.size() + 1);
        how += " truncate@" + std::to_string(at) + ";";
        s.resize(at);
        break;
      }
    }
  }
  return s;
}

// Length of each line (1-based index), without the newline: a diagnostic's columns may reach one past the end.
std::vector<size_t> line_lengths(const std::string& s) {
  std::vector<size_t> out{0};
  size_t begin = 0;
  while (true) {
    size_t nl = s.find('\n', begin);
    if (nl == std::string::npos) {
      out.push_back(s.size() - begin);
      return out;
    }
    out.push_back(nl - begin);
    begin = nl + 1;
  }
}
bool inside(Pos p, const std::vector<size_t>& lines) {
  if (p.line < 1 || static_cast<size_t>(p.line) >= lines.size()) return false;
  return p.col >= 1 && static_cast<size_t>(p.col) <= lines[static_cast<size_t>(p.line)] + 1;
}
bool before_or_at(Pos a, Pos b) { return a.line < b.line || (a.line == b.line && a.col <= b.col); }

std::string pos_str(Pos p) { return std::to_string(p.line) + ":" + std::to_string(p.col); }

// The input being compiled and how it was made, written to stderr if the compiler crashes on it: a crash takes the
// test binary down before GoogleTest can say anything.
const std::string* g_input = nullptr;
const std::string* g_how = nullptr;
void on_crash(int sig) {
  auto say = [](const char* s, size_t n) { [[maybe_unused]] ssize_t r = write(2, s, n); };
  const char head[] = "\n*** the tile compiler crashed (signal) on this input; mutation: ";
  say(head, sizeof head - 1);
  if (g_how) say(g_how->data(), g_how->size());
  say("\n---\n", 5);
  if (g_input) say(g_input->data(), g_input->size());
  say("\n---\n", 5);
  signal(sig, SIG_DFL);
  raise(sig);
}
struct CrashReport {
  CrashReport() {
    for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) signal(sig, on_crash);
  }
  ~CrashReport() {
    for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) signal(sig, SIG_DFL);
    g_input = g_how = nullptr;
  }
};

// Compiles one input; returns a description of the first broken property, or "".
std::string check(const std::string& src, bool* compiled = nullptr, std::string* rendered = nullptr) {
  g_input = &src;
  Diags diags("fuzz.tile", &src);
  CompileResult r = compile_program("fuzz.tile", src, {}, diags);
  if (compiled) *compiled = r.ok;
  if (rendered) *rendered = diags.render(false);
  if (r.ok == diags.has_errors())
    return std::string("compile_program() returned ") + (r.ok ? "ok" : "failure") + " with " +
           std::to_string(diags.error_count()) + " error(s)";
  const auto lines = line_lengths(src);
  for (const Diagnostic& d : diags.all()) {
    if (!inside(d.range.begin, lines) || !inside(d.range.end, lines) || !before_or_at(d.range.begin, d.range.end))
      return "diagnostic range " + pos_str(d.range.begin) + "-" + pos_str(d.range.end) +
             " outside the source: " + d.message;
    if (d.message.empty()) return "a diagnostic with an empty message";
  }
  const std::string text = diags.render(false);
  if (diags.has_errors() && text.find("fuzz.tile:") == std::string::npos) return "render() lost the errors";
  if (r.ok) {
    if (r.files.empty()) return "compiled, but no op project files";
    const std::string k = "op_kernel/" + r.kernel.kernel_symbol + ".cpp";
    const std::string h = "op_host/" + r.kernel.kernel_symbol + ".cpp";
    const std::string t = "op_host/" + r.kernel.kernel_symbol + "_tiling.h";
    for (const std::string& f : {k, h, t, std::string("op_kernel/kgen_tile.h"), r.kernel.kernel_symbol + ".json"})
      if (!r.files.count(f) || r.files.at(f).empty()) return "compiled, but the project lacks " + f;
    if (r.files.at(k).find(r.kernel.kernel_symbol + "(") == std::string::npos)
      return "the kernel file does not define " + r.kernel.kernel_symbol;
  } else if (!r.files.empty()) {
    return "files written for a program with errors";
  }
  return "";
}

TEST(TileCompileFuzz, ExpertProgramsCompileClean) {
  const auto programs = expert_programs();
  ASSERT_GE(programs.size(), 20u) << "expert library not found under " << (source_dir() / "kernels");
  CrashReport crash_report;
  for (const Sample& p : programs) {
    g_how = &p.name;
    bool ok = false;
    std::string diags;
    EXPECT_EQ(check(p.text, &ok, &diags), "") << p.name;
    EXPECT_TRUE(ok) << p.name << " does not compile:\n" << diags;
  }
}

TEST(TileCompileFuzz, CompilerSurvivesTokenMutations) {
  const auto programs = expert_programs();
  ASSERT_FALSE(programs.empty());
  Rng rng{0x74696c65636f6d70ull};   // "tilecomp"
  const auto start = std::chrono::steady_clock::now();
  size_t compiled = 0, total = 0, failures = 0;
  std::set<std::string> seen;
  CrashReport crash_report;
  for (const Sample& p : programs) {
    for (int i = 0; i < kMutantsPerProgram; ++i) {
      std::string how;
      const std::string src = mutate(p.text, rng, how);
      how = p.name + how;
      g_how = &how;
      if (!seen.insert(src).second) continue;   // the same mutant twice tells nothing new
      bool ok = false;
      const std::string problem = check(src, &ok);
      if (!problem.empty() && ++failures <= 10)   // report a few, not thousands
        ADD_FAILURE() << "mutation " << how << "\n" << problem << "\n--- input:\n" << src << "\n---";
      compiled += ok ? 1 : 0;
      ++total;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(failures, 0u);
  // Both paths are exercised: some mutants still compile (a swapped pair of names, another number), most do not.
  EXPECT_GT(compiled, total / 50);
  EXPECT_LT(compiled, total);
  std::printf("tile compile fuzz: %zu programs, %zu mutants, %zu compile, %.2f s\n", programs.size(), total, compiled,
              seconds);
}

}  // namespace
}  // namespace kgen::tile
