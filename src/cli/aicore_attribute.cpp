// `[aicore]`, `[host, aicore]` -> __aicore__ (aicore_attribute.h).
#include "cli/aicore_attribute.h"

#include <cctype>

namespace kgen::cli {
namespace {
bool ident_char(unsigned char c) { return std::isalnum(c) || c == '_'; }

// The end (one past ']') of a specifier list "[aicore]" / "[host, aicore]" starting at src[at] == '[', or 0.
size_t specifier_end(const std::string& src, size_t at) {
  bool aicore = false;
  size_t i = at + 1;
  for (;;) {
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t')) ++i;
    size_t b = i;
    while (i < src.size() && ident_char(static_cast<unsigned char>(src[i]))) ++i;
    const std::string word = src.substr(b, i - b);
    if (word == "aicore") aicore = true;
    else if (word != "host") return 0;
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t')) ++i;
    if (i < src.size() && src[i] == ']') return aicore ? i + 1 : 0;
    if (i >= src.size() || src[i] != ',') return 0;
    ++i;
  }
}
}  // namespace

std::string rewrite_aicore_attribute(const std::string& src, bool& changed) {
  std::string out;
  size_t from = 0;
  for (size_t at = src.find('['); at != std::string::npos; at = src.find('[', at + 1)) {
    const unsigned char before = at > 0 ? static_cast<unsigned char>(src[at - 1]) : ' ';
    if (ident_char(before) || before == ']' || before == ')') continue;   // a subscript
    const size_t end = specifier_end(src, at);
    if (!end) continue;
    out.append(src, from, at - from);
    out += "__aicore__";
    from = end;
    at = end - 1;
    changed = true;
  }
  out.append(src, from, std::string::npos);
  return out;
}
}  // namespace kgen::cli
