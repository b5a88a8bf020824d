// Diagnostics (diag.h): collected by every stage, rendered clang style at the end of a run.
#include "tile/diag.h"

#include <algorithm>
#include <fmt/format.h>
#include <string_view>

namespace kgen::tile {
namespace {

constexpr size_t kMaxShownLine = 160;  // longer source lines are cut to a window around the caret

const char* kReset = "\033[0m";
const char* kBold = "\033[1m";
const char* kGreen = "\033[1;32m";

const char* severity_word(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}
const char* severity_color(Severity s) {  // clang's: red errors, magenta warnings, cyan notes
  switch (s) {
    case Severity::Error: return "\033[1;31m";
    case Severity::Warning: return "\033[1;35m";
    case Severity::Note: return "\033[1;36m";
  }
  return "";
}

// Line `line` (1-based) of `source` without its newline (and without a '\r' before it); false past the end.
bool source_line(const std::string& source, int line, std::string_view& out) {
  if (line < 1) return false;
  size_t begin = 0;
  for (int l = 1; l < line; ++l) {
    size_t nl = source.find('\n', begin);
    if (nl == std::string::npos) return false;
    begin = nl + 1;
  }
  size_t end = source.find('\n', begin);
  if (end == std::string::npos) end = source.size();
  if (end > begin && source[end - 1] == '\r') --end;
  out = std::string_view(source).substr(begin, end - begin);
  return true;
}

// The caret line under `text`: whitespace copied from the source line up to the caret (so tabs line up), '^' under
// the first character of the range, '~' under the rest of it on this line.
std::string caret_line(std::string_view text, const Range& r) {
  size_t line_len = text.size();
  size_t begin = static_cast<size_t>(std::max(r.begin.col, 1)) - 1;
  begin = std::min(begin, line_len);  // a range at the end of the line puts the caret just after it
  size_t end = r.end.line > r.begin.line ? line_len
               : r.end.line == r.begin.line ? static_cast<size_t>(std::max(r.end.col, 1)) - 1
                                            : begin;
  end = std::min(end, line_len);
  std::string out;
  for (size_t i = 0; i < begin; ++i) out += text[i] == '\t' ? '\t' : ' ';
  out += '^';
  for (size_t i = begin + 1; i < end; ++i) out += '~';
  return out;
}

}  // namespace

void Diags::error(Range r, std::string message, std::string hint) {
  list_.push_back({Severity::Error, r, std::move(message), std::move(hint)});
}
void Diags::warning(Range r, std::string message, std::string hint) {
  list_.push_back({Severity::Warning, r, std::move(message), std::move(hint)});
}
void Diags::note(Range r, std::string message, std::string hint) {
  list_.push_back({Severity::Note, r, std::move(message), std::move(hint)});
}

bool Diags::has_errors() const { return error_count() > 0; }

size_t Diags::error_count() const {
  return static_cast<size_t>(
      std::count_if(list_.begin(), list_.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

std::string Diags::render(bool color) const {
  std::vector<const Diagnostic*> sorted;
  sorted.reserve(list_.size());
  for (const Diagnostic& d : list_) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    if (a->range.begin.line != b->range.begin.line) return a->range.begin.line < b->range.begin.line;
    return a->range.begin.col < b->range.begin.col;
  });
  auto paint = [color](const char* code, std::string_view s) {
    return color ? fmt::format("{}{}{}", code, s, kReset) : std::string(s);
  };
  std::string out;
  for (const Diagnostic* d : sorted) {
    const Range& r = d->range;
    std::string where = r.begin.line > 0 ? fmt::format("{}:{}:{}:", file_, r.begin.line, r.begin.col)
                                         : fmt::format("{}:", file_);
    out += paint(kBold, where);
    out += ' ';
    out += paint(severity_color(d->severity), std::string(severity_word(d->severity)) + ":");
    out += ' ';
    out += paint(kBold, d->message);
    out += '\n';
    std::string_view text;
    if (r.begin.line > 0 && source_ && source_line(*source_, r.begin.line, text)) {
      // A very long line (generated or garbage input) is shown as a window around the caret, marked with "...".
      Range shown = r;
      std::string prefix, suffix;
      if (text.size() > kMaxShownLine) {
        size_t caret = static_cast<size_t>(std::max(r.begin.col, 1)) - 1;
        size_t start = caret > kMaxShownLine / 4 ? caret - kMaxShownLine / 4 : 0;
        start = std::min(start, text.size());
        if (start > 0) prefix = "...";
        if (text.size() - start > kMaxShownLine) suffix = "...";
        text = text.substr(start, kMaxShownLine);
        int shift = static_cast<int>(start) - static_cast<int>(prefix.size());
        shown.begin.col -= shift;
        if (shown.end.line == shown.begin.line) shown.end.col -= shift;
      }
      std::string line = prefix + std::string(text) + suffix;
      out += line;
      out += '\n';
      out += paint(kGreen, caret_line(line, shown));
      out += '\n';
    }
    if (!d->hint.empty()) {
      out += paint(kGreen, "hint:");
      out += ' ';
      out += d->hint;
      out += '\n';
    }
  }
  return out;
}

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  // Levenshtein distance with one row; candidates are short names, so this is cheap.
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diag = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  size_t limit = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    size_t d = distance(word, c);
    if (d < best_distance) {  // strict: the first of equally close candidates wins
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace kgen::tile
