#include "cli/bisheng_rules.h"
#include "cli/cpp_tokens.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace kgen::cli {
namespace fs = std::filesystem;
namespace {
bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// Index of the token closing the bracket at `open` (same kind), or toks.size().
size_t match(const std::vector<Token>& toks, size_t open) {
  const std::string o = toks[open].text;
  const std::string c = o == "(" ? ")" : o == "{" ? "}" : o == "[" ? "]" : ">";
  int depth = 0;
  for (size_t i = open; i < toks.size(); ++i) {
    if (toks[i].text == o) ++depth;
    if (toks[i].text == c && --depth == 0) return i;
  }
  return toks.size();
}

// in_aicore[i]: token i lies in the body of a function declared __aicore__.
std::vector<bool> aicore_bodies(const std::vector<Token>& toks) {
  std::vector<bool> in(toks.size(), false);
  for (size_t i = 0; i < toks.size(); ++i) {
    const bool spec = toks[i].text == "aicore" && i > 0 && toks[i - 1].text == "[" && i + 1 < toks.size() &&
                      toks[i + 1].text == "]";   // bisheng's own spelling of __aicore__ (aicore_attribute.h)
    if (toks[i].text != "__aicore__" && !spec) continue;
    size_t k = i + 1;
    while (k < toks.size() && toks[k].text != "(" && toks[k].text != ";" && toks[k].text != "{") ++k;
    if (k >= toks.size() || toks[k].text != "(") continue;
    k = match(toks, k);   // the parameter list's ')'
    // Qualifiers, a trailing return type, a constructor's initialiser list: up to the body's '{' or a ';'.
    bool init_list = false;
    for (++k; k < toks.size(); ++k) {
      const std::string& t = toks[k].text;
      if (t == ";") break;
      if (t == ":") init_list = true;
      if (t == "(") { k = match(toks, k); continue; }
      if (t == "{") {
        // In an initialiser list, `member{...}` initialises; the body's '{' follows ')' or '}' (or the ':').
        const std::string& prev = toks[k - 1].text;
        if (init_list && prev != ")" && prev != "}" && prev != ":") { k = match(toks, k); continue; }
        size_t e = match(toks, k);
        for (size_t j = k; j < e && j < toks.size(); ++j) in[j] = true;
        break;
      }
    }
  }
  return in;
}

const std::set<std::string>& core_guards() {
  static const std::set<std::string> s = {"ASCEND_IS_AIC", "ASCEND_IS_AIV", "ASCEND_IS_NOT_AIC", "ASCEND_IS_NOT_AIV"};
  return s;
}
// libm functions without an AI Core implementation: the transcendental family (any spelling) and sqrtf/sqrtl.
bool host_math(const std::string& name, std::string& base) {
  static const std::set<std::string> family = {
      "exp",   "exp2",  "expm1", "log",   "log2",  "log10", "log1p", "pow",    "sin",    "cos",   "tan",
      "asin",  "acos",  "atan",  "atan2", "sinh",  "cosh",  "tanh",  "asinh",  "acosh",  "atanh", "erf",
      "erfc",  "tgamma", "lgamma", "cbrt", "hypot", "sincos"};
  if (family.count(name)) { base = name; return true; }
  if (name.size() > 1 && (name.back() == 'f' || name.back() == 'l')) {
    std::string b = name.substr(0, name.size() - 1);
    if (family.count(b) || b == "sqrt") { base = b; return true; }
  }
  return false;
}
// The AscendC vector API (or the scalar path) that computes what a host math function would.
std::string vector_equivalent(const std::string& base) {
  if (base == "exp") return "AscendC::Exp";
  if (base == "log") return "AscendC::Ln";
  if (base == "sqrt") return "AscendC::Sqrt on a tensor, or the scalar sqrt(x) bisheng provides";
  if (base == "pow") return "AscendC::Power";
  if (base == "tanh") return "AscendC::Tanh";
  if (base == "erf") return "AscendC::Erf";
  if (base == "sin") return "AscendC::Sin";
  if (base == "cos") return "AscendC::Cos";
  if (base == "log2") return "AscendC::Log with base 2";
  if (base == "log10") return "AscendC::Log with base 10";
  return "the AscendC vector API on a LocalTensor";
}

std::string line_of(const std::string& text, int line) {
  size_t b = 0;
  for (int l = 1; l < line && b != std::string::npos; ++l) {
    b = text.find('\n', b);
    if (b != std::string::npos) ++b;
  }
  if (b == std::string::npos || b >= text.size()) return "";
  size_t e = text.find('\n', b);
  std::string s = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}
}  // namespace

std::vector<RuleFinding> check_bisheng_rules(const std::string& file, const std::string& text) {
  std::vector<RuleFinding> out;
  const Tokens tk = tokenize(file, text);
  const std::vector<Token>& toks = tk.toks;
  const std::vector<bool> aicore = aicore_bodies(toks);
  auto add = [&](const Token& t, std::string msg, std::string hint) {
    out.push_back({tk.files[t.file], t.line, t.col, std::move(msg), std::move(hint), line_of(text, t.physical)});
  };
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    const std::string prev = i ? toks[i - 1].text : "";
    if (core_guards().count(t.text) && prev != "if") {
      std::string kind = t.text.substr(t.text.size() - 3);   // AIC / AIV
      bool negated = t.text.find("_NOT_") != std::string::npos;
      std::string cond = std::string("g_coreType ") + (negated ? "!=" : "==") + " AscendC::" + kind;
      std::string hint;
      if (prev == "(" && i >= 2 && toks[i - 2].text == "if")
        hint = "write 'if " + t.text + " { ... }' without the parentheses (combine other conditions in a nested if)";
      else if (prev == "!")
        hint = "write 'if ASCEND_IS_" + std::string(negated ? "" : "NOT_") + kind + " { ... }'";
      else
        hint = "branch with 'if " + t.text + " { ... }', or use the plain condition '" + cond + "'";
      add(t, "'" + t.text + "' is only valid right after 'if': CANN defines it as 'constexpr(" + cond +
                 ")' for the device, so this does not compile on the chip",
          hint);
      continue;
    }
    if (!aicore[i] || i + 1 >= toks.size() || toks[i + 1].text != "(") continue;
    std::string base;
    if (!host_math(t.text, base)) continue;
    // A member call (x.exp(), p->log()) or another namespace's function (AscendC::Exp is spelt differently anyway).
    if (prev == "." || prev == ">") continue;
    std::string spelled = t.text;
    if (prev == "::") {
      std::string ns = i >= 2 && ident_start(toks[i - 2].text[0]) ? toks[i - 2].text : "";
      if (!ns.empty() && ns != "std") continue;
      spelled = ns + "::" + t.text;
    }
    add(t, "'" + spelled + "' is a host (libm) function, called in __aicore__ code: bisheng rejects it, the AI Core " +
               "has no math library",
        "compute it with " + vector_equivalent(base) +
            (base == "sqrt" ? "" : "; only the scalar sqrt() and abs() exist in kernel code"));
  }
  return out;
}

std::vector<RuleFinding> check_bisheng_rules_file(const std::string& path) {
  std::vector<RuleFinding> out;
  std::set<std::string> seen;
  std::vector<fs::path> todo = {fs::path(path)};
  while (!todo.empty()) {
    fs::path p = todo.back();
    todo.pop_back();
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(p, ec);
    if (!seen.insert(canon.string()).second) continue;
    std::ifstream in(p, std::ios::binary);
    if (!in) continue;
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    for (auto& f : check_bisheng_rules(p.string(), text)) out.push_back(std::move(f));
    // #include "x.h" next to the file (kgen's and the system's headers are not the kernel's code).
    std::istringstream lines(text);
    std::string l;
    while (std::getline(lines, l)) {
      size_t h = l.find_first_not_of(" \t");
      if (h == std::string::npos || l[h] != '#') continue;
      size_t inc = l.find("include", h);
      size_t q = l.find('"', inc == std::string::npos ? h : inc);
      if (inc == std::string::npos || q == std::string::npos) continue;
      size_t q2 = l.find('"', q + 1);
      if (q2 == std::string::npos) continue;
      fs::path next = p.parent_path() / l.substr(q + 1, q2 - q - 1);
      if (fs::is_regular_file(next, ec)) todo.push_back(next);
    }
  }
  return out;
}

std::string format_finding(const RuleFinding& f) {
  std::string s = f.file + ":" + std::to_string(f.line) + ":" + std::to_string(f.col) + ": error: " + f.message +
                  " [bisheng]\n";
  if (!f.source_line.empty()) {
    s += "  " + f.source_line + "\n  ";
    for (int i = 1; i < f.col && i - 1 < static_cast<int>(f.source_line.size()); ++i)
      s += f.source_line[i - 1] == '\t' ? '\t' : ' ';
    s += "^\n";
  }
  s += f.file + ":" + std::to_string(f.line) + ":" + std::to_string(f.col) + ": note: " + f.hint + "\n";
  return s;
}
}  // namespace kgen::cli
