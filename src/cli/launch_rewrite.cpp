#include "cli/launch_rewrite.h"

#include <cctype>

namespace kgen::cli {
namespace {
// Index of the last character of the literal or comment starting at i (", ', // or /*), or i if none starts there.
size_t skip_literal(const std::string& s, size_t i) {
  char ch = s[i];
  if (ch == '"' || ch == '\'') {
    for (++i; i < s.size() && s[i] != ch; ++i)
      if (s[i] == '\\') ++i;
    return i < s.size() ? i : s.size() - 1;
  }
  if (ch == '/' && i + 1 < s.size() && s[i + 1] == '/') {
    size_t e = s.find('\n', i);
    return e == std::string::npos ? s.size() - 1 : e - 1;   // the newline itself stays code
  }
  if (ch == '/' && i + 1 < s.size() && s[i + 1] == '*') {
    size_t e = s.find("*/", i + 2);
    return e == std::string::npos ? s.size() - 1 : e + 1;
  }
  return i;
}

// Index just past the bracket that closes the one at `open`, skipping literals and comments; npos if none.
size_t match_close(const std::string& s, size_t open, char o, char c) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    size_t j = skip_literal(s, i);
    if (j != i) { i = j; continue; }
    char ch = s[i];
    if (ch == o) ++depth;
    if (ch == c && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

// Position of the first comma of `s` outside brackets, literals and comments; npos if none.
size_t top_level_comma(const std::string& s) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    size_t j = skip_literal(s, i);
    if (j != i) { i = j; continue; }
    char ch = s[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (ch == ',' && depth == 0) return i;
  }
  return std::string::npos;
}

bool qualified_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }

size_t count_newlines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// Start of the kernel name that ends at `end` (exclusive): an identifier (with ::), optionally followed by
// template arguments as in kernel<float, 8>. Returns end if there is none.
size_t name_begin(const std::string& src, size_t floor, size_t end) {
  size_t i = end;
  if (i > floor && src[i - 1] == '>') {   // template arguments: walk back to the matching '<'
    int depth = 0;
    while (i > floor) {
      char ch = src[--i];
      if (ch == '>') ++depth;
      if (ch == '<' && --depth == 0) break;
    }
    if (depth != 0) return end;
  }
  size_t id_end = i;
  while (i > floor && qualified_name_char(src[i - 1])) --i;
  return i == id_end ? end : i;
}
}  // namespace

std::string rewrite_launches(const std::string& src, bool& changed) {
  changed = false;
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t lt = src.find("<<<", pos);
    if (lt == std::string::npos) break;
    size_t gt = src.find(">>>", lt + 3);
    if (gt == std::string::npos) break;
    // kernel name: identifier (with ::, maybe template arguments) right before <<<, skipping spaces
    size_t end = lt;
    while (end > pos && std::isspace(static_cast<unsigned char>(src[end - 1]))) --end;
    size_t begin = name_begin(src, pos, end);
    size_t open = gt + 3;
    while (open < src.size() && std::isspace(static_cast<unsigned char>(src[open]))) ++open;
    if (begin == end || open >= src.size() || src[open] != '(') {
      out.append(src, pos, lt + 3 - pos);
      pos = lt + 3;
      continue;
    }
    size_t close = match_close(src, open, '(', ')');
    if (close == std::string::npos) break;
    std::string name = src.substr(begin, end - begin);
    std::string config = src.substr(lt + 3, gt - lt - 3);
    std::string args = src.substr(open + 1, close - open - 2);
    // blockDim is the first launch parameter; l2ctrl and stream are ignored (launches run synchronously).
    std::string block_dim = config.substr(0, top_level_comma(config));
    std::string quoted;
    for (char ch : name) {
      if (ch == '"' || ch == '\\') quoted += '\\';
      quoted += ch == '\n' ? ' ' : ch;
    }
    out.append(src, pos, begin - pos);
    // Block dim and arguments are kept verbatim, newlines and comments included (a // comment inside them
    // always ends before the comma or parenthesis that ends them); the location is taken on the launch's
    // first line; the newlines of the dropped parts are re-emitted after the call so later lines keep their
    // numbers.
    out += "::kgen::rt::launch_at(\"" + quoted + "\", ::kgen::rt::Loc::current(), (" + block_dim + "), [&]() { " +
           name + "(" + args + "); })";
    size_t kept = count_newlines(block_dim) + count_newlines(args) + count_newlines(name);
    size_t spanned = count_newlines(src.substr(begin, close - begin));
    for (size_t i = kept; i < spanned; ++i) out += '\n';
    pos = close;
    changed = true;
  }
  out.append(src, pos, std::string::npos);
  return out;
}
}  // namespace kgen::cli
