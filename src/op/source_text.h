// C++ source text of an op project, read for what it declares without a compiler.
#pragma once
#include <string>

namespace kgen::op {
// The text with comments blanked out (string and character literals kept), so that braces and keywords in comments
// count for nothing; lengths and line breaks are preserved.
std::string without_comments(const std::string& s);
}  // namespace kgen::op
