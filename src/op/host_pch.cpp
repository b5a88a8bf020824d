// The exactness rule of the host's precompiled header (see host_pch.h).
#include "op/host_pch.h"

#include <filesystem>
#include <regex>

namespace kgen::op {
namespace {
// The preprocessor lines of a file up to its first #include, comments removed; the #include line last ("" when none).
std::vector<std::string> leading_directives(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0;
  std::string line;
  auto flush = [&] {
    size_t b = line.find_first_not_of(" \t\r");
    if (b != std::string::npos) out.push_back(line.substr(b, line.find_last_not_of(" \t\r") + 1 - b));
    line.clear();
  };
  while (i < text.size()) {
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t e = text.find("*/", i + 2);
      i = e == std::string::npos ? text.size() : e + 2;
      line += ' ';
    } else if (text[i] == '\n') {
      flush();
      if (!out.empty() && out.back().rfind("#", 0) == 0 &&
          std::regex_search(out.back(), std::regex(R"(^#\s*include\b)")))
        return out;
      ++i;
    } else {
      line += text[i++];
    }
  }
  flush();
  return out;
}

// The file's first #include names `want`, preceded by nothing or (guard_ok) by #pragma once and/or an include guard
// (#ifndef G then #define G, with nothing defined besides G).
bool first_include_is(const std::string& path, const std::regex& want, bool guard_ok) {
  std::vector<std::string> d = leading_directives(read_text(path));
  if (d.empty() || !std::regex_search(d.back(), want)) return false;
  d.pop_back();
  std::smatch m;
  if (guard_ok && !d.empty() && std::regex_match(d.front(), std::regex(R"(#\s*pragma\s+once)"))) d.erase(d.begin());
  if (guard_ok && d.size() == 2 && std::regex_match(d[0], m, std::regex(R"(#\s*ifndef\s+(\w+))"))) {
    const std::string g = m[1].str();
    if (std::regex_match(d[1], std::regex("#\\s*define\\s+" + g))) d.clear();
  }
  if (guard_ok && !d.empty() && std::regex_match(d.front(), std::regex(R"(#\s*pragma\s+once)"))) d.erase(d.begin());
  return d.empty();
}
}  // namespace

bool host_pch_applies(const Project& p) {
  if (p.tiling_h.empty() || p.host_cpp.empty() || p.host_sources.size() > 1) return false;   // one TU only
  namespace fs = std::filesystem;
  // The host's own quoted include of its tiling header, as the compiler finds it (the host's folder first).
  const std::string tiling = fs::path(p.tiling_h).filename().string();
  if (fs::path(p.tiling_h).parent_path() != fs::path(p.host_cpp).parent_path()) return false;
  const std::regex host_first("^#\\s*include\\s*\"" + std::regex_replace(tiling, std::regex(R"([.^$|()\[\]{}*+?\\])"),
                                                                          R"(\$&)") +
                              "\"$");
  if (!first_include_is(p.host_cpp, host_first, false)) return false;
  // The tiling header: an include guard (#ifndef X / #define X) or #pragma once may come first.
  return first_include_is(p.tiling_h, std::regex(R"(^#\s*include\s*["<]register/tilingdata_base\.h[">]$)"), true);
}
}  // namespace kgen::op
