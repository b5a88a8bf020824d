// The tile language's lexer: source text to tokens with ranges, Python style. Leading spaces become INDENT/DEDENT
// tokens, a line with content ends in NEWLINE, and newlines inside () and [] are ignored (implicit line joining).
// It pulls one token at a time so that a huge input never turns into a huge token vector before the parser sees it.
// Problems (a tab in the indentation, an unknown character, ...) are diagnostics; the lexer then goes on.
#pragma once
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "tile/ast.h"
#include "tile/diag.h"

namespace kgen::tile {

enum class Tok {
  End, Newline, Indent, Dedent,
  Name, Number, String,
  // keywords
  KwKernel, KwFor, KwIn, KwDtype, KwPass, KwAnd, KwOr, KwNot, KwTrue, KwFalse,
  // punctuation and operators
  LParen, RParen, LBracket, RBracket, Comma, Colon, Arrow,
  Assign, PlusAssign, MinusAssign, StarAssign, SlashAssign,
  Plus, Minus, Star, Slash, StarStar, Percent, At,
  Less, LessEqual, Greater, GreaterEqual, EqualEqual, NotEqual,
};

struct Token {
  Tok kind = Tok::End;
  Range range;
  std::string text;     // the spelling; a String's text is its content without the quotes
  double number = 0;    // Number only
  bool is_int = false;  // Number written without '.' or an exponent
  bool malformed = false;  // the lexer reported this token already (e.g. an unterminated string)
};

// How a token kind reads in a message: "':'", "end of line", "a name".
std::string spelling(Tok kind);
// How a token that was found reads in a message: "'foo'", "'3.5'", "end of line".
std::string describe(const Token& t);

// One run of the front end stops reporting after this many errors (the lexer's and the parser's together): binary
// garbage would otherwise produce a diagnostic per byte.
constexpr size_t kMaxErrors = 50;

class Lexer {
 public:
  Lexer(std::string_view source, Diags& diags);
  // The next token; after the end of the input, End forever.
  Token next();

 private:
  void start_line();                 // at the start of a logical line: blank lines, then INDENT/DEDENT
  Token scan();                      // one token of the current line (or NEWLINE / End)
  Token scan_number();
  Token scan_string();
  void skip_unknown();
  bool starts_statement();
  Token make(Tok kind, Pos begin, std::string text = "");
  void error(Range r, std::string message, std::string hint = "");
  bool budget_left() const { return diags_.error_count() - base_errors_ < kMaxErrors; }

  char at(size_t i) const { return i < src_.size() ? src_[i] : '\0'; }
  bool eof() const { return pos_ >= src_.size(); }
  Pos here() const { return {line_, static_cast<int>(pos_ - line_start_) + 1}; }
  void advance();                    // one byte, keeping line and column

  std::string_view src_;
  Diags& diags_;
  size_t base_errors_;
  size_t pos_ = 0, line_start_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;        // no token yet on this logical line
  bool line_has_tokens_ = false;     // a NEWLINE is due at the end of this line
  int brackets_ = 0;                 // open ( and [: newlines inside are not line ends
  bool reported_tab_ = false;
  bool finished_ = false;
  Pos last_end_{1, 1};               // end of the last real token: NEWLINE, DEDENT and End point here
  struct Level {
    int width;
    bool silent;                     // pushed to recover from a bad dedent: no INDENT or DEDENT for it
  };
  std::vector<Level> indents_{{0, false}};
  std::deque<Token> pending_;
  bool lookahead_valid_ = false;     // starts_statement()'s last answer, good up to lookahead_word_
  size_t lookahead_word_ = 0;
  bool lookahead_result_ = false;
};

// All tokens of `source` up to and including End (tests and tools; the parser pulls tokens itself).
std::vector<Token> lex(std::string_view source, Diags& diags);

}  // namespace kgen::tile
