// Tokenizing C++ text (cpp_tokens.h).
#include "cli/cpp_tokens.h"

#include <cctype>
#include <cstdlib>

namespace kgen::cli {
namespace {
// `#line N "FILE"` / `# N "FILE"`: sets the number (and name) of the next line.
bool line_directive(const std::string& d, int& next, std::string& file) {
  size_t i = d.find_first_not_of(" \t", 1);
  if (i == std::string::npos) return false;
  if (d.compare(i, 4, "line") == 0) i = d.find_first_not_of(" \t", i + 4);
  if (i == std::string::npos || !std::isdigit(static_cast<unsigned char>(d[i]))) return false;
  next = std::atoi(d.c_str() + i);
  size_t q = d.find('"', i), q2 = q == std::string::npos ? q : d.find('"', q + 1);
  if (q2 != std::string::npos) file = d.substr(q + 1, q2 - q - 1);
  return true;
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

Tokens tokenize(const std::string& file, const std::string& s) {
  Tokens r;
  r.files.push_back(file);
  std::vector<Token>& out = r.toks;
  int line = 1, shift = 0, file_index = 0;   // the logical line is line + shift
  size_t line_start = 0;
  bool at_line_start = true;
  auto newline = [&](size_t i) { ++line; line_start = i + 1; at_line_start = true; };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\n') { newline(i); continue; }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') continue;
    if (c == '#' && at_line_start) {   // a directive: up to the first newline not escaped by a backslash
      size_t start = i;
      for (; i < s.size() && s[i] != '\n'; ++i)
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') { ++i; newline(i); }
      int next = 0;
      std::string name;
      if (line_directive(s.substr(start, i - start), next, name)) {
        shift = next - (line + 1);
        if (!name.empty()) {
          r.files.push_back(name);
          file_index = static_cast<int>(r.files.size()) - 1;
        }
      }
      if (i < s.size()) newline(i);
      continue;
    }
    at_line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i + 1 < s.size() && s[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      size_t stop = e == std::string::npos ? s.size() : e + 2;
      for (size_t k = i; k < stop; ++k)
        if (s[k] == '\n') { ++line; line_start = k + 1; }
      i = stop - 1;
      continue;
    }
    if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"') {   // raw string R"delim( ... )delim"
      size_t open = s.find('(', i + 2);
      if (open != std::string::npos) {
        std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
        size_t e = s.find(close, open);
        size_t stop = e == std::string::npos ? s.size() : e + close.size();
        for (size_t k = i; k < stop; ++k)
          if (s[k] == '\n') { ++line; line_start = k + 1; }
        i = stop - 1;
        continue;
      }
    }
    if (c == '"' || c == '\'') {
      size_t k = i + 1;
      for (; k < s.size() && s[k] != c && s[k] != '\n'; ++k)
        if (s[k] == '\\') ++k;
      i = k < s.size() && s[k] == '\n' ? k - 1 : k;
      continue;
    }
    Token t;
    t.begin = i;
    t.physical = line;
    t.line = line + shift;
    t.file = file_index;
    t.col = static_cast<int>(i - line_start) + 1;
    if (ident_start(c)) {
      size_t k = i;
      while (k < s.size() && ident_char(s[k])) ++k;
      t.text = s.substr(i, k - i);
      i = k - 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t k = i;
      while (k < s.size() && (ident_char(s[k]) || s[k] == '.' || s[k] == '\'')) ++k;
      t.text = s.substr(i, k - i);
      i = k - 1;
    } else if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      t.text = "::";
      ++i;
    } else {
      t.text = std::string(1, c);
    }
    t.end = i + 1;
    out.push_back(t);
  }
  return r;
}
}  // namespace kgen::cli
