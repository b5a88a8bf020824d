// A bounded, seeded mutation fuzz of the tile parser: every sample program under tests/data/tile, mutated a few
// thousand times (bytes and tokens deleted, inserted, duplicated, swapped; truncation; random bytes). Whatever the
// input, parse() must not crash, must return false exactly when it reported an error, must keep every diagnostic
// inside the source, and its diagnostics must render. Deterministic: the seed is fixed, so a failure reproduces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/lexer.h"
#include "tile/parser.h"

namespace kgen::tile {
namespace {

constexpr int kMutationsPerProgram = 1000;  // about 3 s under ASan on a slow machine

std::vector<std::string> sample_programs() {
  std::vector<std::filesystem::path> paths;
  auto dir = std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "tile";
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".tile") paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());  // directory order is not deterministic
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back(ss.str());
  }
  return out;
}

// splitmix64: tiny, and the same sequence on every platform (std distributions are not).
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

// Pieces worth inserting: the language's own tokens, so mutations reach deep into the grammar, and hostile bytes.
const char* const kPieces[] = {
    "(", ")", "[", "]", ",", ":", "=", "+=", "->", "**", "*", "-", "+", "/", "%", "<", "<=", "==", "!=", "\n",
    "\n    ", "\n        ", "    ", "\t", "#", "\"", "'''", "\"\"\"", "kernel", "for", "in", "dtype", "pass", "and",
    "or", "not", "true", "false", "inf", "x", "tiles", "load", "store", "1", "0.5", "1e-5", "1e", "2x", "$", "!",
    "\xff", "\xc3\xa9", "" /* a NUL byte */, "\r\n", ".", "..", "@", ";", "\\",
};

// Token boundaries (roughly): positions where the character class changes. Token mutations cut at them.
std::vector<size_t> boundaries(const std::string& s) {
  std::vector<size_t> b{0};
  auto cls = [](char c) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') return 0;
    if (c == ' ' || c == '\t') return 1;
    if (c == '\n') return 2;
    return 3 + static_cast<unsigned char>(c);  // each punctuation character is its own piece
  };
  for (size_t i = 1; i < s.size(); ++i)
    if (cls(s[i]) != cls(s[i - 1]) || cls(s[i]) >= 3) b.push_back(i);
  b.push_back(s.size());
  return b;
}

std::string mutate(const std::string& base, Rng& rng) {
  std::string s = base;
  int rounds = 1 + static_cast<int>(rng.below(4));
  for (int r = 0; r < rounds; ++r) {
    size_t n = s.size();
    switch (rng.below(10)) {
      case 0:  // delete a byte
        if (n) s.erase(rng.below(n), 1);
        break;
      case 1: {  // insert a random byte
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(rng.below(n + 1)), static_cast<char>(rng.below(256)));
        break;
      }
      case 2: {  // insert a language piece
        const char* piece = kPieces[rng.below(std::size(kPieces))];
        std::string p = *piece ? std::string(piece) : std::string(1, '\0');
        s.insert(rng.below(n + 1), p);
        break;
      }
      case 3: {  // duplicate a byte range
        if (!n) break;
        size_t a = rng.below(n), len = 1 + rng.below(std::min<size_t>(n - a, 40));
        s.insert(rng.below(n + 1), s.substr(a, len));
        break;
      }
      case 4: {  // swap two bytes
        if (n < 2) break;
        std::swap(s[rng.below(n)], s[rng.below(n)]);
        break;
      }
      case 5: {  // delete a token
        auto b = boundaries(s);
        if (b.size() < 2) break;
        size_t i = rng.below(b.size() - 1);
        s.erase(b[i], b[i + 1] - b[i]);
        break;
      }
      case 6: {  // duplicate a token
        auto b = boundaries(s);
        if (b.size() < 2) break;
        size_t i = rng.below(b.size() - 1);
        s.insert(b[rng.below(b.size())], s.substr(b[i], b[i + 1] - b[i]));
        break;
      }
      case 7: {  // swap two tokens
        auto b = boundaries(s);
        if (b.size() < 3) break;
        size_t i = rng.below(b.size() - 1), j = rng.below(b.size() - 1);
        if (i == j) break;
        if (i > j) std::swap(i, j);
        std::string ti = s.substr(b[i], b[i + 1] - b[i]), tj = s.substr(b[j], b[j + 1] - b[j]);
        s = s.substr(0, b[i]) + tj + s.substr(b[i + 1], b[j] - b[i + 1]) + ti + s.substr(b[j + 1]);
        break;
      }
      case 8:  // truncate
        s.resize(rng.below(n + 1));
        break;
      case 9: {  // overwrite a run with random bytes
        if (!n) break;
        size_t a = rng.below(n), len = 1 + rng.below(std::min<size_t>(n - a, 16));
        for (size_t i = 0; i < len; ++i) s[a + i] = static_cast<char>(rng.below(256));
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

// Checks one input; returns a description of the first broken property, or "".
std::string check(const std::string& src, bool* parsed_ok = nullptr) {
  Program program;
  Diags diags("fuzz.tile", &src);
  bool ok = parse("fuzz.tile", src, program, diags);
  if (parsed_ok) *parsed_ok = ok;
  if (ok == diags.has_errors()) return "parse() result disagrees with has_errors()";
  if (diags.error_count() > kMaxErrors + 1) return "more errors than the limit";
  auto lines = line_lengths(src);
  for (const Diagnostic& d : diags.all()) {
    if (!inside(d.range.begin, lines) || !inside(d.range.end, lines) || !before_or_at(d.range.begin, d.range.end))
      return "diagnostic range outside the source: " + d.message;
    if (d.message.empty()) return "empty message";
  }
  std::string text = diags.render();
  if (diags.has_errors() && text.find(": error: ") == std::string::npos) return "render() lost the errors";
  if (ok) {
    std::string tree = print_ast(program);
    if (tree.rfind("Kernel ", 0) != 0) return "print_ast of a clean parse";
  }
  return "";
}

TEST(TileFuzz, ParserSurvivesMutations) {
  auto programs = sample_programs();
  ASSERT_FALSE(programs.empty());
  Rng rng{0x6b67656e74696c65ull};  // "kgentile"
  auto start = std::chrono::steady_clock::now();
  size_t clean = 0, total = 0;
  for (const std::string& base : programs) {
    ASSERT_EQ(check(base), "");
    for (int i = 0; i < kMutationsPerProgram; ++i) {
      std::string src = mutate(base, rng);
      bool ok = false;
      std::string problem = check(src, &ok);
      ASSERT_EQ(problem, "") << "input:\n" << src;
      clean += ok ? 1 : 0;
      ++total;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Some mutations keep the program valid (a swapped pair of names, a duplicated comment): both paths are exercised.
  EXPECT_GT(clean, 0u);
  EXPECT_LT(clean, total);
  std::printf("tile fuzz: %zu inputs, %zu parse cleanly, %.2f s\n", total, clean, seconds);
}

// Inputs made of nothing but random bytes, and of random sequences of language pieces.
TEST(TileFuzz, RandomInputs) {
  Rng rng{42};
  for (int i = 0; i < 400; ++i) {
    std::string src;
    size_t n = rng.below(400);
    if (i % 2 == 0) {
      for (size_t j = 0; j < n; ++j) src += static_cast<char>(rng.below(256));
    } else {
      for (size_t j = 0; j < n / 4; ++j) {
        const char* piece = kPieces[rng.below(std::size(kPieces))];
        src += *piece ? std::string(piece) : std::string(1, '\0');
        src += rng.below(3) ? " " : "";
      }
    }
    ASSERT_EQ(check(src), "") << "input:\n" << src;
  }
}

}  // namespace
}  // namespace kgen::tile
