// Source text helpers (source_text.h).
#include "op/source_text.h"

namespace kgen::op {
std::string without_comments(const std::string& s) {
  std::string o = s;
  for (size_t i = 0; i < o.size(); ++i) {
    if (o[i] == '"' || o[i] == '\'') {
      const char q = o[i];
      for (++i; i < o.size() && o[i] != q; ++i)
        if (o[i] == '\\') ++i;
    } else if (o.compare(i, 2, "//") == 0) {
      for (; i < o.size() && o[i] != '\n'; ++i) o[i] = ' ';
    } else if (o.compare(i, 2, "/*") == 0) {
      size_t e = o.find("*/", i + 2);
      e = e == std::string::npos ? o.size() : e + 2;
      for (; i < e; ++i)
        if (o[i] != '\n') o[i] = ' ';
      --i;
    }
  }
  return o;
}
}  // namespace kgen::op
