#include "cli/launch_rewrite.h"

#include <cctype>

namespace kgen::cli {
namespace {
// Index just past the bracket that closes the one at `open`, skipping string and char literals; npos if none.
size_t match_close(const std::string& s, size_t open, char o, char c) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    char ch = s[i];
    if (ch == '"' || ch == '\'') {
      for (++i; i < s.size() && s[i] != ch; ++i)
        if (s[i] == '\\') ++i;
      continue;
    }
    if (ch == o) ++depth;
    if (ch == c && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
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
    // kernel name: identifier (with ::) right before <<<, skipping spaces
    size_t end = lt;
    while (end > pos && std::isspace(static_cast<unsigned char>(src[end - 1]))) --end;
    size_t begin = end;
    while (begin > pos && ident_char(src[begin - 1])) --begin;
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
    // blockDim is the first launch parameter; l2ctrl and stream are evaluated and ignored.
    size_t comma = config.find(',');
    std::string block_dim = config.substr(0, comma);
    out.append(src, pos, begin - pos);
    out += "::kgen::rt::launch_fn(\"" + name + "\", (" + block_dim + "), [&]() { " + name + "(" + args +
           "); }, ::kgen::rt::Loc::current())";
    // keep line numbers of everything after the launch: re-emit the newlines the launch spanned
    for (size_t i = begin; i < close; ++i)
      if (src[i] == '\n') out += '\n';
    pos = close;
    changed = true;
  }
  out.append(src, pos, std::string::npos);
  return out;
}
}  // namespace kgen::cli
