// bisheng's clang's C++ in g++'s terms (clang_compat.h): in-class explicit specializations, C++17 aggregates.
#include "cli/clang_compat.h"
#include "cli/cpp_tokens.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace kgen::cli {
namespace {
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The index of the '>' closing the '<' at toks[open] (parentheses nest inside), or npos.
size_t closing_angle(const std::vector<Token>& toks, size_t open) {
  int angle = 0, paren = 0;
  for (size_t i = open; i < toks.size(); ++i) {
    const std::string& t = toks[i].text;
    if (t == "(" || t == "[") ++paren;
    else if (t == ")" || t == "]") --paren;
    else if (paren == 0 && t == "<") ++angle;
    else if (paren == 0 && t == ">" && --angle == 0) return i;
    else if (t == ";" || t == "{" || t == "}") return std::string::npos;
  }
  return std::string::npos;
}

// After a template head ending at toks[from - 1]: the declarator of the function it declares, as the index of its
// name's first token, the name ("operator()" for the call operator), and whether `<ARGS>` follows the name (an
// explicit specialization's). False when the declaration is not a function's (a class, a variable).
struct Declarator {
  size_t name = 0, args_open = 0, args_close = 0;   // args_*: the '<' and '>' of <ARGS>, 0 when none
  size_t params = 0;                                // the '(' of the parameter list
  std::string text;
};
bool function_declarator(const std::vector<Token>& toks, size_t from, Declarator& d) {
  for (size_t i = from; i < toks.size(); ++i) {
    const std::string& t = toks[i].text;
    if (t == ";" || t == "{" || t == "}" || t == "=" || t == "class" || t == "struct" || t == "union") return false;
    if (t == "operator" && i + 3 < toks.size() && toks[i + 1].text == "(" && toks[i + 2].text == ")") {
      d.name = i;
      d.text = "operator()";
      size_t j = i + 3;
      if (toks[j].text == "<") {
        const size_t c = closing_angle(toks, j);
        if (c == std::string::npos) return false;
        d.args_open = j;
        d.args_close = c;
        j = c + 1;
      }
      if (j >= toks.size() || toks[j].text != "(") return false;
      d.params = j;
      return true;
    }
    if (t == "(") return false;   // a parenthesis before any name: not a form handled here
    if (!ident_char(t[0]) || std::isdigit(static_cast<unsigned char>(t[0]))) continue;
    size_t j = i + 1;
    if (j < toks.size() && toks[j].text == "<") {
      const size_t c = closing_angle(toks, j);
      if (c == std::string::npos) return false;
      if (c + 1 < toks.size() && toks[c + 1].text == "(") {
        d = {i, j, c, c + 1, t};
        return true;
      }
      i = c;   // a template-id in the return type
      continue;
    }
    if (j < toks.size() && toks[j].text == "(") {
      d = {i, 0, 0, j, t};
      return true;
    }
  }
  return false;
}

// What a class body remembers: its member function templates' heads by name (the last one declared).
struct Primary {
  size_t open = 0, close = 0;   // the '<' and '>' of the template head
};

struct Scope {
  bool is_class = false;
  std::map<std::string, Primary> primaries;         // member function templates
  std::map<std::string, Primary> class_primaries;   // member class templates
  std::map<std::string, bool> tagged;               // class templates whose head got the tag parameter
};
struct Edit {
  size_t begin, end;
  std::string text;
};

// The parameters of a template head or the arguments of a template-id between toks[open] '<' and toks[close] '>'.
size_t top_level_items(const std::vector<Token>& toks, size_t open, size_t close) {
  if (close == open + 1) return 0;
  size_t n = 1;
  int depth = 0;
  for (size_t k = open + 1; k < close; ++k) {
    const std::string& x = toks[k].text;
    if (x == "<" || x == "(" || x == "[") ++depth;
    else if (x == ">" || x == ")" || x == "]") --depth;
    else if (depth == 0 && x == ",") ++n;
  }
  return n;
}

// A member class template (`template <HEAD> struct NAME` at toks[i], head closing at toks[close]): a primary is
// remembered; an explicit specialization `template <> struct NAME<ARGS>` becomes a partial specialization on a tag
// parameter the primary gains (`template <HEAD, class KgenSpecTag = void> struct NAME`, `template <class
// KgenSpecTag> struct NAME<ARGS, KgenSpecTag>`), which class scope allows. True when toks[i] starts such a template.
bool class_template(const std::vector<Token>& toks, size_t i, size_t close, Scope& scope, std::vector<Edit>& edits) {
  size_t k = close + 1;
  if (k + 1 >= toks.size() || (toks[k].text != "struct" && toks[k].text != "class")) return false;
  const std::string name = toks[k + 1].text;
  const size_t after = k + 2;
  if (after >= toks.size()) return true;
  if (close > i + 2) {   // a primary (a partial specialization NAME<...> is not)
    if (toks[after].text != "<") scope.class_primaries[name] = {i + 1, close};
    return true;
  }
  if (toks[after].text != "<") return true;
  const size_t args_close = closing_angle(toks, after);
  auto p = scope.class_primaries.find(name);
  if (args_close == std::string::npos || p == scope.class_primaries.end()) return true;
  const Primary& head = p->second;
  const size_t params = top_level_items(toks, head.open, head.close);
  if (params == 0 || top_level_items(toks, after, args_close) != params) return true;
  for (size_t q = head.open; q < head.close; ++q)
    if (toks[q].text == ".") return true;   // a pack (`...`) takes every argument: no room for the tag
  if (!scope.tagged[name]) {
    scope.tagged[name] = true;
    edits.push_back({toks[head.close].begin, toks[head.close].begin, ", class KgenSpecTag = void"});
  }
  edits.push_back({toks[i].begin, toks[close].end, "template <class KgenSpecTag>"});
  edits.push_back({toks[args_close].begin, toks[args_close].begin, ", KgenSpecTag"});
  return true;
}

std::string flat(const std::string& s) {
  std::string r = s;
  std::replace(r.begin(), r.end(), '\n', ' ');
  std::replace(r.begin(), r.end(), '\r', ' ');
  return r;
}

// Whether the '{' at toks[at] opens a class body: the tokens since the previous statement start with (after template
// heads and an access label) class / struct / union. `name`: the class's name (its first identifier).
bool opens_class(const std::vector<Token>& toks, size_t at, std::string* name = nullptr) {
  size_t b = at;
  while (b > 0 && toks[b - 1].text != ";" && toks[b - 1].text != "{" && toks[b - 1].text != "}") --b;
  size_t i = b;
  while (i < at && toks[i].text == "template" && i + 1 < at && toks[i + 1].text == "<") {
    const size_t c = closing_angle(toks, i + 1);
    if (c == std::string::npos || c >= at) return false;
    i = c + 1;
  }
  while (i + 1 < at && (toks[i].text == "public" || toks[i].text == "private" || toks[i].text == "protected") &&
         toks[i + 1].text == ":")
    i += 2;   // an access label before a nested class
  if (!(i < at && (toks[i].text == "class" || toks[i].text == "struct" || toks[i].text == "union"))) return false;
  if (name) {
    name->clear();
    for (size_t k = i + 1; k < at && name->empty(); ++k) {
      if (toks[k].text == "alignas" || toks[k].text == "__attribute__") {   // skip its parenthesized operand
        int depth = 0;
        for (++k; k < at; ++k) {
          if (toks[k].text == "(") ++depth;
          else if (toks[k].text == ")" && --depth == 0) break;
        }
        continue;
      }
      if (toks[k].text == "[" || toks[k].text == "]") continue;
      if (ident_char(toks[k].text[0]) && !std::isdigit(static_cast<unsigned char>(toks[k].text[0]))) *name = toks[k].text;
    }
  }
  return true;
}

// The edits in order, applied to src.
std::string apply(const std::string& src, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  size_t from = 0;
  for (const Edit& e : edits) {
    out.append(src, from, e.begin - from);
    out += e.text;
    from = e.end;
  }
  out.append(src, from, std::string::npos);
  return out;
}

// src[begin, end) as blanks, its line breaks kept.
std::string blank(const std::string& src, size_t begin, size_t end) {
  std::string b = src.substr(begin, end - begin);
  for (char& c : b)
    if (c != '\n') c = ' ';
  return b;
}
}  // namespace

std::string rewrite_member_specializations(const std::string& src, bool& changed) {
  const std::vector<Token> toks = tokenize("", src).toks;
  std::vector<Scope> scopes(1);
  std::vector<Edit> edits;
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i].text;
    if (t == "{") {
      scopes.push_back({opens_class(toks, i), {}});
      continue;
    }
    if (t == "}") {
      if (scopes.size() > 1) scopes.pop_back();
      continue;
    }
    if (t != "template" || !scopes.back().is_class || i + 1 >= toks.size() || toks[i + 1].text != "<") continue;
    const size_t close = closing_angle(toks, i + 1);
    if (close == std::string::npos) continue;
    Scope& scope = scopes.back();
    if (class_template(toks, i, close, scope, edits)) continue;
    Declarator d;
    if (!function_declarator(toks, close + 1, d)) continue;
    if (close > i + 2) {   // a primary: remember its head (a specialization of the form `name<ARGS>` is no primary)
      if (!d.args_open) scope.primaries[d.text] = {i + 1, close};
      continue;
    }
    // template <> ... name<ARGS>(: an explicit specialization in class scope
    if (!d.args_open) continue;
    auto p = scope.primaries.find(d.text);
    if (p == scope.primaries.end()) continue;
    const Primary& head = p->second;
    // one template parameter: `class|typename P [= D]` or `TYPE P [= D]`
    size_t stop = head.close;
    int depth = 0;
    bool single = true;
    for (size_t k = head.open + 1; k < head.close; ++k) {
      const std::string& x = toks[k].text;
      if (x == "<" || x == "(") ++depth;
      else if (x == ">" || x == ")") --depth;
      else if (depth == 0 && x == ",") single = false;
      else if (depth == 0 && x == "=" && stop == head.close) stop = k;
    }
    if (!single || stop <= head.open + 1) continue;
    const std::string kind = toks[head.open + 1].text;
    const std::string param = toks[stop - 1].text;
    if (!ident_char(param[0])) continue;
    const std::string args = flat(src.substr(toks[d.args_open + 1].begin, toks[d.args_close].begin - toks[d.args_open + 1].begin));
    const std::string cond = kind == "class" || kind == "typename" ? "std::is_same_v<" + param + ", " + args + ">"
                                                                   : param + " == (" + args + ")";
    const std::string head_text = flat(src.substr(toks[head.open].begin, toks[head.close].end - toks[head.open].begin));
    edits.push_back({toks[i].begin, toks[close].end, "template " + head_text + " requires (" + cond + ")"});
    edits.push_back({toks[d.args_open].begin, toks[d.args_close].end,   // drop <ARGS>, keeping its line breaks
                     blank(src, toks[d.args_open].begin, toks[d.args_close].end)});
  }
  if (edits.empty()) return src;
  changed = true;
  return apply(src, std::move(edits));
}

std::string rewrite_defaulted_constructors(const std::string& src, bool& changed) {
  const std::vector<Token> toks = tokenize("", src).toks;
  struct Class {
    std::string name;
    bool is_class = false, is_public = true;   // is_public: the current access
    bool all_defaulted = true;
    std::vector<std::pair<size_t, size_t>> ctors;   // token ranges [first, ';'] of its constructor declarations
  };
  std::vector<Class> scopes(1);
  std::vector<Edit> edits;
  size_t stmt = 0;   // the first token of the current member declaration
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i].text;
    if (t == "{") {
      Class c;
      c.is_class = opens_class(toks, i, &c.name);
      if (c.is_class) {
        size_t k = i;
        while (k > 0 && toks[k - 1].text != ";" && toks[k - 1].text != "{" && toks[k - 1].text != "}") --k;
        while (k < i && toks[k].text != "class" && toks[k].text != "struct" && toks[k].text != "union") ++k;
        c.is_public = toks[k].text != "class";
      }
      scopes.push_back(c);
      stmt = i + 1;
      continue;
    }
    if (t == "}") {
      if (scopes.size() > 1) {
        const Class& c = scopes.back();
        if (c.is_class && c.all_defaulted)
          for (const auto& [a, b] : c.ctors) edits.push_back({toks[a].begin, toks[b].end, blank(src, toks[a].begin, toks[b].end)});
        scopes.pop_back();
      }
      stmt = i + 1;
      continue;
    }
    Class& c = scopes.back();
    if (t == ";") { stmt = i + 1; continue; }
    if (!c.is_class || c.name.empty()) continue;
    if ((t == "public" || t == "private" || t == "protected") && i + 1 < toks.size() && toks[i + 1].text == ":") {
      c.is_public = t == "public";
      stmt = i + 2;
      ++i;
      continue;
    }
    // NAME ( at the start of a member declaration (after specifiers): a constructor
    if (t != c.name || i + 1 >= toks.size() || toks[i + 1].text != "(" || (i > stmt && toks[i - 1].text == "~")) continue;
    bool specifiers_only = true, is_explicit = false;
    size_t first = stmt;   // past a template head: a constructor template is user-provided, never `= default`
    if (first + 1 < i && toks[first].text == "template" && toks[first + 1].text == "<") {
      const size_t close = closing_angle(toks, first + 1);
      if (close == std::string::npos || close >= i) continue;
      first = close + 1;
    }
    for (size_t k = first; k < i; ++k) {
      if (toks[k].text == "explicit") is_explicit = true;
      if (!ident_char(toks[k].text[0])) specifiers_only = false;   // `X::X(`, a type, an operator: not a declaration here
    }
    if (!specifiers_only) continue;
    int depth = 0;
    size_t k = i + 1;
    for (; k < toks.size(); ++k) {
      if (toks[k].text == "(") ++depth;
      else if (toks[k].text == ")" && --depth == 0) break;
    }
    const bool defaulted = k + 3 < toks.size() && toks[k + 1].text == "=" && toks[k + 2].text == "default" &&
                           toks[k + 3].text == ";";
    if (!defaulted || is_explicit || !c.is_public) {
      c.all_defaulted = false;
      continue;
    }
    c.ctors.emplace_back(stmt, k + 3);
    i = k + 3;
    stmt = i + 1;
  }
  if (edits.empty()) return src;
  changed = true;
  return apply(src, std::move(edits));
}
}  // namespace kgen::cli
