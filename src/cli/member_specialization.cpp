// In-class explicit specializations of member function templates -> constrained overloads (member_specialization.h).
#include "cli/member_specialization.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace kgen::cli {
namespace {
struct Tok {
  std::string text;   // an identifier or number, "::", or one punctuation character
  size_t begin = 0, end = 0;
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The code tokens of src: comments, string and character literals and preprocessor lines are skipped.
std::vector<Tok> tokenize(const std::string& s) {
  std::vector<Tok> out;
  bool line_start = true;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\n') { line_start = true; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == '#' && line_start) {   // a directive, with its continuation lines
      while (i < s.size() && s[i] != '\n') i += s[i] == '\\' && i + 1 < s.size() ? 2 : 1;
      line_start = true;
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i + 1 < s.size() && s[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const size_t e = s.find("*/", i + 2);
      i = e == std::string::npos ? s.size() : e + 1;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      i = j;
      continue;
    }
    Tok t;
    t.begin = i;
    if (ident_char(c)) {
      size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      t.end = j;
    } else if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      t.end = i + 2;
    } else {
      t.end = i + 1;
    }
    t.text = s.substr(t.begin, t.end - t.begin);
    out.push_back(std::move(t));
    i = t.end - 1;
  }
  return out;
}

// The index of the '>' closing the '<' at toks[open] (parentheses nest inside), or npos.
size_t closing_angle(const std::vector<Tok>& toks, size_t open) {
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
bool function_declarator(const std::vector<Tok>& toks, size_t from, Declarator& d) {
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
size_t top_level_items(const std::vector<Tok>& toks, size_t open, size_t close) {
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
bool class_template(const std::vector<Tok>& toks, size_t i, size_t close, Scope& scope, std::vector<Edit>& edits) {
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
// heads and an access label) class / struct / union.
bool opens_class(const std::vector<Tok>& toks, size_t at) {
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
  return i < at && (toks[i].text == "class" || toks[i].text == "struct" || toks[i].text == "union");
}
}  // namespace

std::string rewrite_member_specializations(const std::string& src, bool& changed) {
  const std::vector<Tok> toks = tokenize(src);
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
    // drop <ARGS>, keeping its line breaks
    std::string blank = src.substr(toks[d.args_open].begin, toks[d.args_close].end - toks[d.args_open].begin);
    for (char& c : blank)
      if (c != '\n') c = ' ';
    edits.push_back({toks[d.args_open].begin, toks[d.args_close].end, blank});
  }
  if (edits.empty()) return src;
  changed = true;
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
}  // namespace kgen::cli
