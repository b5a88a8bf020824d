// CANN's kernel name of an op type, the name its build gives the kernel file and the extern "C" function it launches:
// AddCustom -> add_custom, PrefixSum2dCustom -> prefix_sum2d_custom (an underscore before an upper-case letter that
// follows a lower-case letter or a digit, or that starts a word after an acronym). Header-only: the tile compiler,
// which does not link the op library, names its kernels by it too.
#pragma once
#include <cctype>
#include <string>

namespace kgen::op {
inline std::string snake_case(const std::string& t) {
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      const bool prev_lower = i > 0 && (std::islower(static_cast<unsigned char>(t[i - 1])) ||
                                        std::isdigit(static_cast<unsigned char>(t[i - 1])));
      const bool next_lower = i + 1 < t.size() && std::islower(static_cast<unsigned char>(t[i + 1]));
      const bool prev_upper = i > 0 && std::isupper(static_cast<unsigned char>(t[i - 1]));
      if (i > 0 && (prev_lower || (prev_upper && next_lower))) s += '_';
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      s += c;
    }
  }
  return s;
}
}  // namespace kgen::op
