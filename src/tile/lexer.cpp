// The tile lexer (lexer.h). Positions are 1-based; columns count bytes, so a tab is one column, like clang's.
#include "tile/lexer.h"

#include <array>
#include <charconv>
#include <fmt/format.h>

namespace kgen::tile {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }
bool is_inline_space(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\r'; }

struct Keyword {
  std::string_view text;
  Tok kind;
};
constexpr Keyword kKeywords[] = {
    {"kernel", Tok::KwKernel}, {"for", Tok::KwFor}, {"in", Tok::KwIn},   {"dtype", Tok::KwDtype},
    {"pass", Tok::KwPass},     {"and", Tok::KwAnd}, {"or", Tok::KwOr},   {"not", Tok::KwNot},
    {"true", Tok::KwTrue},     {"false", Tok::KwFalse},
};

// Longest first, so that "**" wins over "*" and "->" over "-".
struct Punct {
  std::string_view text;
  Tok kind;
};
constexpr Punct kPuncts[] = {
    {"**", Tok::StarStar},   {"->", Tok::Arrow},        {"+=", Tok::PlusAssign}, {"-=", Tok::MinusAssign},
    {"*=", Tok::StarAssign}, {"/=", Tok::SlashAssign},  {"<=", Tok::LessEqual},  {">=", Tok::GreaterEqual},
    {"==", Tok::EqualEqual}, {"!=", Tok::NotEqual},     {"(", Tok::LParen},      {")", Tok::RParen},
    {"[", Tok::LBracket},    {"]", Tok::RBracket},      {",", Tok::Comma},       {":", Tok::Colon},
    {"=", Tok::Assign},      {"+", Tok::Plus},          {"-", Tok::Minus},       {"*", Tok::Star},
    {"/", Tok::Slash},       {"%", Tok::Percent},       {"<", Tok::Less},        {">", Tok::Greater},
    {"@", Tok::At},
};

// The punctuation at src[i], longest match first, or null. Indexed by the first byte: this is the lexer's hot loop.
const Punct* match_punct_at(std::string_view src, size_t i) {
  static const auto table = [] {
    std::array<std::vector<const Punct*>, 256> t{};
    for (const Punct& p : kPuncts) t[static_cast<unsigned char>(p.text[0])].push_back(&p);
    return t;
  }();
  for (const Punct* p : table[static_cast<unsigned char>(src[i])])
    if (src.compare(i, p->text.size(), p->text) == 0) return p;
  return nullptr;
}

// A byte as it should appear inside quotes in a message: printable ASCII as is, anything else as \xNN.
std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) out += static_cast<char>(c);
    else out += fmt::format("\\x{:02x}", c);
  }
  return out;
}

// What to do instead of a character the language does not have.
std::string unknown_char_hint(unsigned char c) {
  switch (c) {
    case '!': return "use 'not' for negation and '!=' for not equal";
    case '&': return "use 'and'";
    case '|': return "use 'or'";
    case ';': return "put each statement on its own line";
    case '.': return "there are no attributes or methods: call a function, e.g. exp(x)";
    case '{': case '}': return "use ( ) for grouping and indentation for blocks";
    case '\\': return "a line inside ( ) or [ ] continues on the next line without '\\'";
    case '@': return "matrix products are not written with '@'";
    default: break;
  }
  if (c >= 0x80) return "tile programs are ASCII text";
  return "";
}

}  // namespace

std::string spelling(Tok kind) {
  switch (kind) {
    case Tok::End: return "end of file";
    case Tok::Newline: return "end of line";
    case Tok::Indent: return "an indented block";
    case Tok::Dedent: return "the end of the block";
    case Tok::Name: return "a name";
    case Tok::Number: return "a number";
    case Tok::String: return "a string";
    default: break;
  }
  for (const Keyword& k : kKeywords)
    if (k.kind == kind) return fmt::format("'{}'", k.text);
  for (const Punct& p : kPuncts)
    if (p.kind == kind) return fmt::format("'{}'", p.text);
  return "a token";
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Name:
    case Tok::Number: return fmt::format("'{}'", printable(t.text));
    case Tok::String: return "a string";
    case Tok::Indent: return "an indented line";
    default: return spelling(t.kind);
  }
}

Lexer::Lexer(std::string_view source, Diags& diags)
    : src_(source), diags_(diags), base_errors_(diags.error_count()) {}

void Lexer::advance() {
  if (eof()) return;
  if (src_[pos_] == '\n') {
    ++line_;
    line_start_ = pos_ + 1;
  }
  ++pos_;
}

Token Lexer::make(Tok kind, Pos begin, std::string text) {
  Token t;
  t.kind = kind;
  t.range = {begin, here()};
  t.text = std::move(text);
  return t;
}

void Lexer::error(Range r, std::string message, std::string hint) {
  if (budget_left()) diags_.error(r, std::move(message), std::move(hint));
}

// Skips blank and comment-only lines, then compares the indentation of the first line with content against the
// stack of open blocks and queues the INDENT or DEDENTs it implies (pointing at the line's first token).
void Lexer::start_line() {
  while (!eof()) {
    int width = 0;
    bool tab = false;
    Pos tab_pos;
    while (!eof() && is_inline_space(src_[pos_])) {
      char c = src_[pos_];
      if (c == ' ') {
        ++width;
      } else if (c == '\t') {
        if (!tab) tab_pos = here();
        tab = true;
        width = (width / 8 + 1) * 8;  // Python's rule, so a file indented only with tabs still parses
      }
      advance();
    }
    if (eof()) return;
    if (src_[pos_] == '\n') {
      advance();
      continue;
    }
    if (src_[pos_] == '#') {
      while (!eof() && src_[pos_] != '\n') advance();
      continue;
    }
    at_line_start_ = false;
    if (tab && !reported_tab_) {
      reported_tab_ = true;  // once per file: a tab-indented file would otherwise report every line
      error({tab_pos, {tab_pos.line, tab_pos.col + 1}}, "tab in indentation", "indent with spaces");
    }
    Pos first = here();
    if (width > indents_.back().width) {
      indents_.push_back({width, false});
      pending_.push_back(make(Tok::Indent, first));
      return;
    }
    while (width < indents_.back().width) {
      bool silent = indents_.back().silent;
      indents_.pop_back();
      if (!silent) pending_.push_back(make(Tok::Dedent, first));
    }
    if (width > indents_.back().width) {
      // Between two levels: treat the line as belonging to the enclosing block, and remember its width without a
      // token so that the lines that follow at the same width do not each report again.
      error({first, first}, "unindent does not match any outer indentation level",
            "indent this line like the block it belongs to");
      indents_.push_back({width, true});
    }
    return;
  }
}

Token Lexer::next() {
  while (true) {
    if (!pending_.empty()) {
      Token t = std::move(pending_.front());
      pending_.pop_front();
      return t;
    }
    if (finished_) {
      Token t;
      t.range = {last_end_, last_end_};
      return t;
    }
    if (!budget_left()) pos_ = src_.size();  // too many errors: finish the token stream cleanly and stop
    if (at_line_start_ && brackets_ == 0) {
      start_line();
      if (!pending_.empty()) continue;
    }
    while (!eof() && is_inline_space(src_[pos_])) advance();
    if (!eof() && src_[pos_] == '#') {
      while (!eof() && src_[pos_] != '\n') advance();
    }
    if (eof()) {
      if (line_has_tokens_) {
        line_has_tokens_ = false;
        Token t;
        t.kind = Tok::Newline;
        t.range = {last_end_, last_end_};
        return t;
      }
      for (size_t i = indents_.size(); i-- > 1;) {
        if (indents_[i].silent) continue;
        Token t;
        t.kind = Tok::Dedent;
        t.range = {last_end_, last_end_};
        pending_.push_back(std::move(t));
      }
      indents_.resize(1);
      finished_ = true;
      continue;
    }
    if (src_[pos_] == '\n') {
      advance();
      if (brackets_ > 0 && !starts_statement()) continue;  // implicit line joining
      brackets_ = 0;
      at_line_start_ = true;
      if (line_has_tokens_) {
        line_has_tokens_ = false;
        Token t;
        t.kind = Tok::Newline;
        t.range = {last_end_, last_end_};
        return t;
      }
      continue;
    }
    Token t = scan();
    if (t.kind == Tok::End) continue;  // an unknown character was skipped
    line_has_tokens_ = true;
    last_end_ = t.range.end;
    return t;
  }
}

// Whether the next line with content starts with a keyword that only begins a statement. Inside an unclosed ( or [
// that line cannot continue the expression, so the bracket was never closed: ending the logical line here keeps one
// missing ')' from swallowing the rest of the file (the parser reports the ')' it expected).
bool Lexer::starts_statement() {
  // Blank lines inside brackets would otherwise be rescanned from every newline: remember the last answer, which
  // holds for every position up to the word it found (pos_ only grows).
  if (lookahead_valid_ && pos_ <= lookahead_word_) return lookahead_result_;
  size_t p = pos_;
  while (p < src_.size()) {
    while (p < src_.size() && is_inline_space(src_[p])) ++p;
    if (p < src_.size() && src_[p] == '#')
      while (p < src_.size() && src_[p] != '\n') ++p;
    if (p < src_.size() && src_[p] == '\n') {
      ++p;
      continue;
    }
    break;
  }
  size_t start = p;
  while (p < src_.size() && is_name_char(src_[p])) ++p;
  std::string_view word = src_.substr(start, p - start);
  lookahead_valid_ = true;
  lookahead_word_ = start;
  lookahead_result_ = word == "for" || word == "kernel" || word == "dtype" || word == "pass";
  return lookahead_result_;
}

// One token at pos_ (not whitespace, a comment or a newline). End means "nothing here" (unknown characters skipped).
Token Lexer::scan() {
  char c = src_[pos_];
  Pos begin = here();
  if (is_name_start(c)) {
    size_t start = pos_;
    while (!eof() && is_name_char(src_[pos_])) advance();
    std::string_view text = src_.substr(start, pos_ - start);
    for (const Keyword& k : kKeywords)
      if (k.text == text) return make(k.kind, begin, std::string(text));
    return make(Tok::Name, begin, std::string(text));
  }
  if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) return scan_number();
  if (c == '"' || c == '\'') return scan_string();
  const Punct* p = match_punct_at(src_, pos_);
  if (!p) {
    skip_unknown();
    return Token{};
  }
  for (size_t i = 0; i < p->text.size(); ++i) advance();
  if (p->kind == Tok::LParen || p->kind == Tok::LBracket) ++brackets_;
  if ((p->kind == Tok::RParen || p->kind == Tok::RBracket) && brackets_ > 0) --brackets_;
  return make(p->kind, begin, std::string(p->text));
}

// digits [. digits] [e [+-] digits], or . digits ...; a name character right after it makes the whole run invalid.
Token Lexer::scan_number() {
  Pos begin = here();
  size_t start = pos_;
  bool is_int = true;
  while (is_digit(at(pos_))) advance();
  if (at(pos_) == '.') {
    is_int = false;
    advance();
    while (is_digit(at(pos_))) advance();
  }
  if ((at(pos_) == 'e' || at(pos_) == 'E') &&
      (is_digit(at(pos_ + 1)) || ((at(pos_ + 1) == '+' || at(pos_ + 1) == '-') && is_digit(at(pos_ + 2))))) {
    is_int = false;
    advance();
    if (at(pos_) == '+' || at(pos_) == '-') advance();
    while (is_digit(at(pos_))) advance();
  }
  size_t valid_end = pos_;
  if (is_name_char(at(pos_)) || at(pos_) == '.') {
    while (is_name_char(at(pos_)) || at(pos_) == '.') advance();
    std::string_view bad = src_.substr(start, pos_ - start);
    char after = src_[valid_end];
    std::string hint = (after == 'e' || after == 'E') ? "an exponent needs digits, e.g. 1e-5"
                       : after == '.'                  ? "a number has at most one '.'"
                                                       : "a name cannot start with a digit";
    error({begin, here()}, fmt::format("invalid number '{}'", printable(bad)), hint);
  }
  std::string_view text = src_.substr(start, valid_end - start);
  Token t = make(Tok::Number, begin, std::string(src_.substr(start, pos_ - start)));
  t.is_int = is_int;
  t.malformed = valid_end != pos_;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), t.number);
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves the value alone here: tell the user rather than silently using 0 or infinity.
    error(t.range, fmt::format("number '{}' is out of range", printable(text)),
          "use 'inf' for infinity; finite numbers must fit a 64-bit float");
  }
  (void)ptr;
  return t;
}

// '...', "...", '''...''' or """...""": only the module docstring, but lexed anywhere so the parser can say so.
Token Lexer::scan_string() {
  Pos begin = here();
  char q = src_[pos_];
  bool triple = at(pos_ + 1) == q && at(pos_ + 2) == q;
  size_t quotes = triple ? 3 : 1;
  for (size_t i = 0; i < quotes; ++i) advance();
  size_t start = pos_;
  while (true) {
    if (eof() || (!triple && src_[pos_] == '\n')) {
      std::string what = triple ? "unterminated triple-quoted string" : "unterminated string";
      Pos end = triple ? Pos{begin.line, begin.col + 3} : here();
      error({begin, end}, what, fmt::format("close it with {}", std::string(quotes, q)));
      Token t = make(Tok::String, begin, std::string(src_.substr(start, pos_ - start)));
      t.malformed = true;
      return t;
    }
    char c = src_[pos_];
    if (c == '\\' && pos_ + 1 < src_.size() && (triple || src_[pos_ + 1] != '\n')) {
      advance();
      advance();
      continue;
    }
    if (c == q && (!triple || (at(pos_ + 1) == q && at(pos_ + 2) == q))) {
      std::string text(src_.substr(start, pos_ - start));
      for (size_t i = 0; i < quotes; ++i) advance();
      return make(Tok::String, begin, std::move(text));
    }
    advance();
  }
}

// A run of characters that start no token: one diagnostic for the run, not one per byte.
void Lexer::skip_unknown() {
  Pos begin = here();
  size_t start = pos_;
  auto starts_token = [&](size_t i) {
    char c = src_[i];
    if (is_name_char(c) || c == '"' || c == '\'' || c == '#' || c == '\n' || is_inline_space(c)) return true;
    if (c == '.') return is_digit(at(i + 1));
    return match_punct_at(src_, i) != nullptr;
  };
  advance();
  while (!eof() && !starts_token(pos_) && pos_ - start < 64) advance();
  std::string_view run = src_.substr(start, pos_ - start);
  std::string message = run.size() == 1 ? fmt::format("unexpected character '{}'", printable(run))
                                        : fmt::format("unexpected characters '{}'", printable(run));
  error({begin, here()}, message, unknown_char_hint(static_cast<unsigned char>(run[0])));
}

std::vector<Token> lex(std::string_view source, Diags& diags) {
  Lexer lexer(source, diags);
  std::vector<Token> out;
  while (true) {
    out.push_back(lexer.next());
    if (out.back().kind == Tok::End) return out;
  }
}

}  // namespace kgen::tile
