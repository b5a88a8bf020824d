// Summarising docs/tile-language.md for small contexts (compact_reference.h).
#include "gen/compact_reference.h"

#include <sstream>
#include <vector>

namespace kgen::gen {
namespace {
struct Section {
  std::string heading;                 // "## Body", "### Types" ("" for the introduction)
  std::vector<std::string> blocks;     // paragraphs, code blocks and tables, in order
};

bool is_code(const std::string& b) { return b.rfind("```", 0) == 0; }
bool is_table(const std::string& b) { return b.rfind("|", 0) == 0; }

// Splits the document into sections (at "## " and "### " headings) of blank-line separated blocks; a code block is
// one block whatever blank lines it holds.
std::vector<Section> sections_of(const std::string& doc) {
  std::vector<Section> out(1);
  std::istringstream in(doc);
  std::string line, block;
  bool code = false;
  auto flush = [&] {
    if (!block.empty()) out.back().blocks.push_back(block);
    block.clear();
  };
  while (std::getline(in, line)) {
    if (!code && (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0)) {
      flush();
      out.push_back({line, {}});
      continue;
    }
    if (line.rfind("```", 0) == 0) code = !code;
    if (!code && line.empty()) {
      flush();
      continue;
    }
    block += (block.empty() ? "" : "\n") + line;
  }
  flush();
  return out;
}

// The sections of the core language: Header, Body and Body's subsections through Functions.
bool core(const std::string& heading) {
  static const char* names[] = {"## Header", "## Body", "### Indexing", "### Values", "### Types", "### Output dtypes",
                                "### Functions"};
  for (const char* n : names)
    if (heading.rfind(n, 0) == 0) return true;
  return false;
}
bool internals(const std::string& heading) {
  for (const char* n : {"## What the compiler decides", "## Lowering", "## Limits", "## The expert library"})
    if (heading.rfind(n, 0) == 0) return true;
  return false;
}

std::string shorten(const std::string& paragraph, size_t n) {
  if (paragraph.size() <= n) return paragraph;
  size_t cut = paragraph.rfind(". ", n);   // at a sentence end when there is one
  if (cut == std::string::npos || cut < n / 2) cut = paragraph.rfind(' ', n);
  return paragraph.substr(0, cut == std::string::npos ? n : cut + 1) + " ...";
}

// detail 3: the core sections whole, the others' first paragraphs of 600 characters; 2: the core's code and tables,
// first paragraphs of 600; 1: the same, 300; 0: the core's tables only, 200.
std::string render(const std::vector<Section>& secs, int detail) {
  const size_t para = detail >= 2 ? 600 : detail == 1 ? 300 : 200;
  std::string o =
      "(A summary of docs/tile-language.md for a small context: each section's first paragraph, the core language's "
      "code and function table; the examples below show the other program forms in full.)\n\n";
  for (size_t i = 0; i < secs.size(); ++i) {
    const Section& s = secs[i];
    if (internals(s.heading)) continue;
    if (!s.heading.empty()) o += s.heading + "\n\n";
    bool first_para = true, first_code = true;
    if (detail == 3 && core(s.heading)) {
      for (const std::string& b : s.blocks) o += b + "\n\n";
      continue;
    }
    for (const std::string& b : s.blocks) {
      const bool keep_code = (i == 0 || core(s.heading)) ? detail >= 1 || is_table(b) : false;
      if (is_code(b)) {
        if ((i == 0 && first_code) || keep_code) o += b + "\n\n";
        first_code = false;
      } else if (is_table(b)) {
        if (core(s.heading)) o += b + "\n\n";
      } else if (first_para && b.rfind("# ", 0) != 0) {
        o += shorten(b, para) + "\n\n";
        first_para = false;
      }
    }
  }
  return o;
}
}  // namespace

size_t estimate_tokens(const std::string& text) { return (text.size() * 2 + 6) / 7; }

std::string compact_tile_reference(const std::string& doc, size_t max_chars) {
  const std::vector<Section> secs = sections_of(doc);
  std::string o;
  for (int detail = 3; detail >= 0; --detail) {
    o = render(secs, detail);
    if (o.size() <= max_chars) return o;
  }
  return o.substr(0, max_chars);   // a context too small for any summary: the start of the least detailed one
}
}  // namespace kgen::gen
