// The language reference for a model with a small context: docs/tile-language.md (about 22k tokens) summarised by
// rule, so the summary follows the document as it changes. Kept: the introduction's example, every heading (so the
// model knows each program form exists), the first paragraph of each section (shortened), and the core language
// (Header, Body and its subsections up to Functions) whole when it fits, else its code blocks and tables; left out: the other
// sections' later paragraphs and code, and the compiler's internals (what it decides, lowering, limits, the expert
// library). The nearest expert examples, which the prompt carries anyway, show the specialised forms in full.
#pragma once
#include <cstddef>
#include <string>

namespace kgen::gen {
// A rough token count of text for budgeting prompts: 1 token per 3.5 characters (code and English prose run 3.5-4.5
// characters a token in the Qwen, Llama and DeepSeek tokenizers; 3.5 errs on the side of fitting).
size_t estimate_tokens(const std::string& text);
// The summary of the tile-language document `doc`, at most max_chars characters (less detail where needed: the core
// sections' code first, then paragraphs shortened further). Deterministic.
std::string compact_tile_reference(const std::string& doc, size_t max_chars);
}  // namespace kgen::gen
