// Diagnostics of the tile compiler, clang style:
//   file.tile:5:13: error: unknown function 'sigmod'
//       v = sigmod(x)
//           ^~~~~~
//   hint: did you mean 'sigmoid'?
// Every stage adds to one Diags; a run reports all of them (errors first by position), never stops at the first.
#pragma once
#include <string>
#include <vector>

#include "tile/ast.h"

namespace kgen::tile {
enum class Severity { Error, Warning, Note };
struct Diagnostic {
  Severity severity = Severity::Error;
  Range range;                // where: the caret under range.begin, tildes to range.end on the same line
  std::string message;        // what and why, one sentence, no trailing period
  std::string hint;           // how to fix ("" when there is nothing useful to say)
};
class Diags {
 public:
  Diags(std::string file, const std::string* source) : file_(std::move(file)), source_(source) {}
  void error(Range r, std::string message, std::string hint = "");
  void warning(Range r, std::string message, std::string hint = "");
  void note(Range r, std::string message, std::string hint = "");
  bool has_errors() const;
  size_t error_count() const;
  const std::vector<Diagnostic>& all() const { return list_; }
  // All diagnostics sorted by position (stable), each as "file:line:col: severity: message", the source line, the
  // caret line and "hint: ..." when there is one. color adds ANSI colours (a terminal).
  std::string render(bool color = false) const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  const std::string* source_;
  std::vector<Diagnostic> list_;
};
// The closest of `candidates` to `word` by edit distance (<= max(1, size/3)), or "" — for "did you mean" hints.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);
}  // namespace kgen::tile
