// The code tokens of a C++ text, for the checks and rewrites `kgen cc` makes before g++ sees a file (bisheng_rules.h,
// clang_compat.h): comments, string and character literals and preprocessor lines are left out, `#line`
// directives renumber what follows.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace kgen::cli {
struct Token {
  std::string text;   // an identifier, "::", or one punctuation character; numbers are one token
  int line = 0, col = 0;
  int physical = 0;   // the line in the text (line: as a #line directive renumbers it)
  int file = 0;       // index into the names the #line directives gave (0: the file itself)
  size_t begin = 0, end = 0;   // the token's bytes in the text: [begin, end)
};
struct Tokens {
  std::vector<Token> toks;
  std::vector<std::string> files;   // files[0] is the file's own name
};

// The tokens of `text`, whose own name is `file`.
Tokens tokenize(const std::string& file, const std::string& text);
}  // namespace kgen::cli
