// The tile parser (parser.h): recursive descent over the lexer's tokens, one token of lookahead (two for keyword
// arguments). Grammar and meaning: docs/tile-language.md.
//
// Error handling: a statement that goes wrong records ONE diagnostic (fail() ignores the follow-on ones), then the
// parser skips to the end of the logical line (the lexer already joined bracketed lines) and goes on with the next
// statement. A `for` line that fails still has its indented body parsed, so errors inside it are reported too.
//
// Robustness: recursion goes through parse_unary (every nesting of brackets, unary operators and '**') and through
// parse_block; both are bounded. Trees are also bounded in height (a long `a + b + ...` chain is built in a loop but
// would still be a deep tree that later recursive passes, and the destructor, walk), so no input can exhaust the stack.
#include "tile/parser.h"

#include <cmath>
#include <fmt/format.h>
#include <initializer_list>
#include <optional>

#include "tile/lexer.h"

namespace kgen::tile {
namespace {

constexpr int kMaxNesting = 200;  // brackets, unary operators and '**' inside one expression
constexpr int kMaxHeight = 200;   // height of one expression tree
constexpr int kMaxBlocks = 100;   // nested indented blocks

std::string pos_text(Pos p) { return fmt::format("{}:{}", p.line, p.col); }

// An expression under construction with the height of its tree, which the height limit needs.
struct Node {
  ExprPtr e;
  int height = 0;
  explicit operator bool() const { return e != nullptr; }
};

class Parser {
 public:
  Parser(const std::string& source, Program& out, Diags& diags)
      : lexer_(source, diags), out_(out), diags_(diags), base_errors_(diags.error_count()) {
    tok_[0] = lexer_.next();
    tok_[1] = lexer_.next();
  }
  void parse_file();

 private:
  // --- tokens
  const Token& cur() const { return tok_[0]; }
  const Token& peek() const { return tok_[1]; }
  bool at(Tok k) const { return tok_[0].kind == k; }
  Token take() {
    Token t = std::move(tok_[0]);
    last_end_ = t.range.end;
    tok_[0] = std::move(tok_[1]);
    tok_[1] = lexer_.next();
    ++consumed_;
    return t;
  }
  bool accept(Tok k) {
    if (!at(k)) return false;
    take();
    return true;
  }
  // Takes a token of kind k, or fails with "expected WHAT, found X".
  bool expect(Tok k, const std::string& what, const std::string& hint = "") {
    if (at(k)) {
      take();
      return true;
    }
    fail_expected(what, hint);
    return false;
  }

  // --- diagnostics
  bool budget_left() const { return diags_.error_count() - base_errors_ < kMaxErrors; }
  void report(Range r, std::string message, std::string hint = "") {
    if (budget_left()) diags_.error(r, std::move(message), std::move(hint));
  }
  // The first error of a statement; later ones in the same statement are consequences and are dropped.
  // A token the lexer already reported (an unterminated string) gets no second diagnostic.
  void fail(Range r, std::string message, std::string hint = "") {
    bool reported = cur().malformed && r.begin.line == cur().range.begin.line && r.begin.col == cur().range.begin.col;
    if (!failed_ && !reported) report(r, std::move(message), std::move(hint));
    failed_ = true;
  }
  // For an error inside brackets: when the line ended, or the token found is on a later line (the lexer joins the
  // lines of an unclosed bracket), the bracket most likely lacks its closing half.
  std::string unclosed_hint(char bracket, Pos open) const {
    if (!at(Tok::End) && !at(Tok::Newline) && cur().range.begin.line == open.line) return "";
    return fmt::format("close the '{}' at {}", bracket, pos_text(open));
  }
  void fail_expected(const std::string& what, const std::string& hint = "") {
    fail(cur().range, fmt::format("expected {}, found {}", what, describe(cur())), hint);
  }
  // After a failed statement: skip the rest of its logical line (NEWLINE included) and start afresh.
  void recover() {
    while (!at(Tok::Newline) && !at(Tok::End) && !at(Tok::Indent) && !at(Tok::Dedent)) take();
    accept(Tok::Newline);
    failed_ = false;
  }
  bool expect_line_end(const std::string& after) {
    if (at(Tok::Newline) || at(Tok::End)) {
      accept(Tok::Newline);
      return true;
    }
    fail_expected(fmt::format("end of line after {}", after));
    return false;
  }

  // --- file structure
  void parse_kernel();
  bool parse_header();
  bool parse_param(Param& p, bool output);
  bool parse_type(TypeRef& t);
  void parse_kernel_body();
  bool parse_dtype(DtypeDecl& d);
  bool parse_dtype_map(DtypeDecl& d, Pos begin);
  void parse_block(std::vector<StmtPtr>& out);
  void skip_block();

  // --- statements
  void parse_statement(std::vector<StmtPtr>& out);
  StmtPtr parse_for(bool& header_failed);
  StmtPtr parse_simple();

  // --- expressions, lowest precedence first
  Node parse_expr() { return parse_or(); }
  Node parse_or();
  Node parse_and();
  Node parse_not();
  Node parse_comparison();
  Node parse_additive();
  Node parse_multiplicative();
  Node parse_unary();
  Node parse_power();
  Node parse_postfix();
  Node parse_primary();
  Node parse_call(Node callee);
  Node parse_subscript(Node base);
  Node parse_parenthesized();
  Node make(ExprKind kind, Range r, std::string text, std::vector<Node> kids);
  Node binary(Token op, Node lhs, Node rhs);

  Lexer lexer_;
  Program& out_;
  Diags& diags_;
  size_t base_errors_;
  Token tok_[2];
  size_t consumed_ = 0;
  Pos last_end_{1, 1};  // end of the last token taken
  bool failed_ = false;
  int nesting_ = 0;  // parse_unary recursion
  int blocks_ = 0;   // parse_block recursion
};

// ---------------------------------------------------------------------------------------------------------------
// File structure

void Parser::parse_file() {
  while (accept(Tok::Newline)) {
  }
  if (at(Tok::String)) {
    out_.doc = take().text;
    if (!expect_line_end("the docstring")) recover();
  }
  bool seen_kernel = false;
  while (!at(Tok::End) && budget_left()) {
    size_t before = consumed_;
    if (at(Tok::KwKernel) && !seen_kernel) {
      seen_kernel = true;
      parse_kernel();
    } else if (at(Tok::KwKernel)) {
      fail(cur().range, "a file holds a single kernel", "put each kernel in its own .tile file");
      recover();
      skip_block();
    } else if (at(Tok::Indent)) {
      // Most likely the whole kernel is indented: read on as if it were not (the DEDENT is skipped below).
      report(cur().range, "unexpected indent", "only the kernel body is indented");
      take();
    } else if (at(Tok::Dedent) || at(Tok::Newline)) {
      take();
    } else {
      std::string hint = seen_kernel ? "statements belong to the kernel body: indent them"
                                     : "a tile file holds one 'kernel NAME(PARAMS) -> (OUTPUTS):'";
      if (at(Tok::String)) hint = "a string is only allowed as the module docstring, the first line of the file";
      fail_expected("'kernel'", hint);
      recover();
      skip_block();
    }
    if (consumed_ == before && !at(Tok::End)) take();  // never loop without progress
  }
  if (!budget_left()) {
    // One more error says why the report ends early (the budget does not count it).
    diags_.error(cur().range, "too many errors; stopping", "fix these and run again");
    return;
  }
  if (!seen_kernel && !diags_.has_errors())
    report(cur().range, "expected a kernel, found end of file",
           "a tile file holds one 'kernel NAME(PARAMS) -> (OUTPUTS):' and its body");
}

// An indented block where none belongs: its statements are parsed (their errors are worth reporting) and dropped.
void Parser::skip_block() {
  if (!at(Tok::Indent)) return;
  std::vector<StmtPtr> dropped;
  parse_block(dropped);
}

void Parser::parse_kernel() {
  Pos begin = cur().range.begin;
  take();  // 'kernel'
  bool ok = parse_header();
  out_.header_range = {begin, last_end_};
  if (!ok) recover();
  if (at(Tok::Indent)) {
    parse_kernel_body();
  } else if (ok) {
    report(cur().range, fmt::format("expected the kernel body, found {}", describe(cur())),
           "indent the body under the kernel line");
    // Most likely the body is there but not indented: read it as the body rather than report each line again.
    while (!at(Tok::End) && !at(Tok::KwKernel) && budget_left()) {
      size_t before = consumed_;
      parse_statement(out_.body);
      if (consumed_ == before && !at(Tok::End)) take();
    }
  }
}

// NAME(PARAMS) -> (OUTPUTS):  or  NAME(PARAMS) -> OUTPUT:
bool Parser::parse_header() {
  if (!at(Tok::Name)) {
    fail_expected("the kernel name after 'kernel'", "write 'kernel NAME(PARAMS) -> (OUTPUTS):'");
    return false;
  }
  out_.name_range = cur().range;
  out_.name = take().text;
  Pos open = cur().range.begin;
  if (!expect(Tok::LParen, fmt::format("'(' and the parameters after '{}'", out_.name))) return false;
  while (!at(Tok::RParen)) {
    Param p;
    if (!parse_param(p, false)) return false;
    out_.params.push_back(std::move(p));
    if (accept(Tok::Comma)) continue;
    if (at(Tok::RParen)) break;
    fail_expected("',' or ')' in the parameter list",
                  unclosed_hint('(', open));
    return false;
  }
  take();  // ')'
  if (!at(Tok::Arrow)) {
    fail_expected("'->' and the outputs after the parameters", "declare the outputs: ') -> (y: T[n]):'");
    return false;
  }
  take();
  if (at(Tok::LParen)) {
    Pos open_out = take().range.begin;
    if (at(Tok::RParen)) {
      fail(cur().range, "a kernel needs at least one output", "declare it: '-> (y: T[n])'");
      return false;
    }
    while (!at(Tok::RParen)) {
      Param p;
      if (!parse_param(p, true)) return false;
      out_.outputs.push_back(std::move(p));
      if (accept(Tok::Comma)) continue;
      if (at(Tok::RParen)) break;
      fail_expected("',' or ')' in the output list",
                    unclosed_hint('(', open_out));
      return false;
    }
    take();  // ')'
  } else {
    Param p;
    if (!parse_param(p, true)) return false;
    out_.outputs.push_back(std::move(p));
  }
  if (!at(Tok::Colon)) {
    fail_expected("':' at the end of the kernel line", "add ':' at the end of the line");
    return false;
  }
  take();
  return expect_line_end("the kernel line");
}

// name: TYPE  or  name: TYPE = DEFAULT (attrs)
bool Parser::parse_param(Param& p, bool output) {
  const char* what = output ? "an output" : "a parameter";
  if (!at(Tok::Name)) {
    std::string hint;
    if (cur().kind >= Tok::KwKernel && cur().kind <= Tok::KwFalse)
      hint = fmt::format("{} is a keyword; choose another name", describe(cur()));
    fail_expected(fmt::format("{} name", what), hint);
    return false;
  }
  p.name_range = cur().range;
  p.name = take().text;
  if (!at(Tok::Colon)) {
    fail_expected(fmt::format("':' and a type after '{}'", p.name),
                  fmt::format("write '{}: f32[n]' for a tensor or '{}: f32 = 0.5' for an attr", p.name, p.name));
    return false;
  }
  take();
  if (!parse_type(p.type)) return false;
  p.range = {p.name_range.begin, p.type.range.end};
  if (at(Tok::Assign)) {
    if (output) {
      fail(cur().range, "an output cannot have a default value", "remove '= ...'");
      return false;
    }
    take();
    Node value = parse_expr();
    if (!value) return false;
    p.default_value = std::move(value.e);
    p.range.end = p.default_value->range.end;
  }
  return true;
}

// DTYPE  or  DTYPE[DIM, ...] with DIM one of n, *n, 1, r @ attr
bool Parser::parse_type(TypeRef& t) {
  if (!at(Tok::Name)) {
    fail_expected("a dtype such as f32 or T", "");
    return false;
  }
  t.dtype_range = cur().range;
  t.dtype = take().text;
  t.range = t.dtype_range;
  if (!at(Tok::LBracket)) return true;
  Pos open = take().range.begin;
  t.is_tensor = true;
  if (at(Tok::RBracket)) {
    fail(cur().range, "expected a dimension, found ']'", "a tensor has at least one dimension, e.g. f32[n] or f32[*n]");
    return false;
  }
  while (true) {
    Dim d;
    Pos begin = cur().range.begin;
    d.star = accept(Tok::Star);
    if (at(Tok::Name)) {
      d.name = cur().text;
      d.range = {begin, take().range.end};
      if (accept(Tok::At)) {   // r @ dim: the axis chosen by an attr
        if (!at(Tok::Name)) {
          fail_expected("the name of an i32 attr after '@'", "write 'r @ dim': r is the input's dim number `dim`");
          return false;
        }
        d.axis_attr = cur().text;
        d.axis_range = take().range;
        d.range.end = d.axis_range.end;
      }
    } else if (at(Tok::Number) && !d.star) {
      const Token& n = cur();
      if (!n.is_int) {
        fail(n.range, fmt::format("a dimension must be an integer, found '{}'", n.text), "");
        return false;
      }
      if (!(n.number < 9.2e18)) {
        fail(n.range, fmt::format("dimension '{}' is too large", n.text), "");
        return false;
      }
      d.value = static_cast<int64_t>(n.number);
      d.range = take().range;
      if (accept(Tok::At)) {   // 2 @ dim: dim `dim` split into 2 equal chunks (a chunk view, sema.cpp)
        if (!at(Tok::Name)) {
          fail_expected("the name of an i32 attr after '@'", "write '2 @ dim': dim `dim` split into 2 chunks");
          return false;
        }
        d.axis_attr = cur().text;
        d.axis_range = take().range;
        d.range.end = d.axis_range.end;
      }
    } else {
      fail_expected(d.star ? "a dimension name after '*'" : "a dimension (a name, '*name' or an integer)",
                    d.star ? "write '*m': any number of dims, m their product" : "");
      return false;
    }
    t.dims.push_back(std::move(d));
    if (accept(Tok::Comma)) continue;
    if (at(Tok::RBracket)) break;
    fail_expected("',' or ']' in the dimensions",
                  unclosed_hint('[', open));
    return false;
  }
  t.range.end = take().range.end;  // ']'
  return true;
}

// INDENT (dtype T in (...) NEWLINE)* statement* DEDENT
void Parser::parse_kernel_body() {
  take();  // INDENT
  ++blocks_;
  while (at(Tok::KwDtype)) {
    DtypeDecl d;
    if (parse_dtype(d)) {
      out_.dtypes.push_back(std::move(d));
    } else {
      recover();
    }
  }
  while (!at(Tok::Dedent) && !at(Tok::End) && budget_left()) {
    size_t before = consumed_;
    parse_statement(out_.body);
    if (consumed_ == before && !at(Tok::End) && !at(Tok::Dedent)) take();
  }
  --blocks_;
  accept(Tok::Dedent);
}

// dtype T in (f32, f16, bf16)
bool Parser::parse_dtype(DtypeDecl& d) {
  Pos begin = take().range.begin;  // 'dtype'
  const std::string hint = "write 'dtype T in (f32, f16)'";
  if (!at(Tok::Name)) {
    fail_expected("a dtype variable name after 'dtype'", hint);
    return false;
  }
  d.var_range = cur().range;
  d.var = take().text;
  if (accept(Tok::Assign)) return parse_dtype_map(d, begin);
  if (!expect(Tok::KwIn, fmt::format("'in' after 'dtype {}'", d.var), hint)) return false;
  if (!expect(Tok::LParen, "'(' and the list of dtypes", hint)) return false;
  while (!at(Tok::RParen)) {
    if (!at(Tok::Name)) {
      fail_expected("a dtype such as f32", hint);
      return false;
    }
    d.type_ranges.push_back(cur().range);
    d.types.push_back(take().text);
    if (accept(Tok::Comma)) continue;
    if (at(Tok::RParen)) break;
    fail_expected("',' or ')' in the list of dtypes", hint);
    return false;
  }
  d.range = {begin, take().range.end};  // ')'
  if (d.types.empty()) {
    fail(d.range, fmt::format("dtype variable '{}' has no dtypes", d.var), hint);
    return false;
  }
  return expect_line_end("the dtype declaration");
}

// dtype U = T(i32 -> i64): U takes T's column, with the listed types of T mapped (an output dtype that follows an
// input's, as torch.sum widens int32 to int64).
bool Parser::parse_dtype_map(DtypeDecl& d, Pos begin) {
  const std::string hint = fmt::format("write 'dtype {} = T(i32 -> i64)'", d.var);
  if (!at(Tok::Name)) {
    fail_expected("the dtype variable that '" + d.var + "' follows", hint);
    return false;
  }
  d.base_range = cur().range;
  d.base = take().text;
  if (!expect(Tok::LParen, "'(' and the mapped dtypes", hint)) return false;
  while (!at(Tok::RParen)) {
    if (!at(Tok::Name)) {
      fail_expected("a mapping such as i32 -> i64", hint);
      return false;
    }
    d.key_ranges.push_back(cur().range);
    d.keys.push_back(take().text);
    if (!expect(Tok::Arrow, "'->' after '" + d.keys.back() + "'", hint)) return false;
    if (!at(Tok::Name)) {
      fail_expected("the dtype that '" + d.keys.back() + "' maps to", hint);
      return false;
    }
    d.type_ranges.push_back(cur().range);
    d.types.push_back(take().text);
    if (accept(Tok::Comma)) continue;
    if (at(Tok::RParen)) break;
    fail_expected("',' or ')' in the mapping", hint);
    return false;
  }
  d.range = {begin, take().range.end};  // ')'
  return expect_line_end("the dtype declaration");
}

// INDENT statement* DEDENT
void Parser::parse_block(std::vector<StmtPtr>& out) {
  if (blocks_ >= kMaxBlocks) {
    // Too deep to recurse into: report once and skip the block's tokens, counting INDENT/DEDENT instead.
    report(cur().range, fmt::format("blocks are nested too deeply (more than {} levels)", kMaxBlocks),
           "flatten the loops");
    int depth = 0;
    do {
      if (at(Tok::Indent)) ++depth;
      if (at(Tok::Dedent)) --depth;
      take();
    } while (depth > 0 && !at(Tok::End));
    return;
  }
  ++blocks_;
  take();  // INDENT
  while (!at(Tok::Dedent) && !at(Tok::End) && budget_left()) {
    size_t before = consumed_;
    parse_statement(out);
    if (consumed_ == before && !at(Tok::End) && !at(Tok::Dedent)) take();
  }
  accept(Tok::Dedent);
  --blocks_;
}

// ---------------------------------------------------------------------------------------------------------------
// Statements

void Parser::parse_statement(std::vector<StmtPtr>& out) {
  switch (cur().kind) {
    case Tok::Indent:
      // Parse the stray block's statements into this one: they are still checked, and later errors still found.
      report(cur().range, "unexpected indent", "indent only the body of a 'for'");
      parse_block(out);
      return;
    case Tok::Newline:
      take();
      return;
    case Tok::KwPass: {
      auto s = std::make_unique<Stmt>();
      s->kind = StmtKind::Pass;
      s->range = take().range;
      if (expect_line_end("'pass'")) {
        out.push_back(std::move(s));
      } else {
        recover();
      }
      return;
    }
    case Tok::KwFor: {
      bool header_failed = false;
      StmtPtr s = parse_for(header_failed);
      if (s) {
        out.push_back(std::move(s));
      } else if (header_failed) {
        recover();
        skip_block();
      }
      return;
    }
    case Tok::KwDtype: {
      DtypeDecl d;
      if (!parse_dtype(d)) {
        recover();
        return;
      }
      // Misplaced but well formed: keep it, or every use of the variable would be an error too.
      report(d.range, "dtype declarations come first in the kernel body", "move this line to the top of the body");
      out_.dtypes.push_back(std::move(d));
      return;
    }
    case Tok::KwKernel:
      fail(cur().range, "a kernel cannot be defined inside another", "put each kernel in its own .tile file");
      recover();
      skip_block();
      return;
    case Tok::String:
      fail(cur().range, "a string is only allowed as the module docstring, the first line of the file",
           "use '#' for comments");
      recover();
      return;
    default: {
      StmtPtr s = parse_simple();
      if (s) {
        out.push_back(std::move(s));
      } else {
        recover();
      }
      return;
    }
  }
}

// for a in EXPR:  /  for a, b in EXPR:  /  for (a, b) in EXPR:   then an indented block
StmtPtr Parser::parse_for(bool& header_failed) {
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::For;
  Pos begin = take().range.begin;  // 'for'
  header_failed = true;
  bool paren = accept(Tok::LParen);
  while (true) {
    if (!at(Tok::Name)) {
      fail_expected(s->loop_vars.empty() ? "a loop variable after 'for'" : "a loop variable after ','",
                    "write 'for r in tiles(m):'");
      return nullptr;
    }
    s->loop_var_ranges.push_back(cur().range);
    s->loop_vars.push_back(take().text);
    if (!accept(Tok::Comma)) break;
  }
  if (paren && !expect(Tok::RParen, "')' after the loop variables")) return nullptr;
  if (!at(Tok::KwIn)) {
    fail_expected(s->loop_vars.size() > 1 ? "'in' after the loop variables" : "'in' after the loop variable",
                  at(Tok::Assign) ? "write 'for r in tiles(m):'" : "");
    return nullptr;
  }
  take();
  Node it = parse_expr();
  if (!it) return nullptr;
  s->value = std::move(it.e);
  if (!at(Tok::Colon)) {
    fail_expected("':' at the end of the 'for' line", "add ':' at the end of the line");
    return nullptr;
  }
  s->range = {begin, take().range.end};
  if (!at(Tok::Newline)) {
    fail_expected("end of line after ':'", "put the loop body on the next lines, indented");
    return nullptr;
  }
  take();
  header_failed = false;
  if (!at(Tok::Indent)) {
    // The header is fine; the statements that follow are simply not indented. Report once, keep the empty loop.
    report(cur().range, fmt::format("expected an indented block after the 'for' line, found {}", describe(cur())),
           "indent the loop body");
    return s;
  }
  parse_block(s->body);
  return s;
}

// v = EXPR  /  acc += EXPR  /  EXPR
StmtPtr Parser::parse_simple() {
  auto s = std::make_unique<Stmt>();
  Node lhs = parse_expr();
  if (!lhs) return nullptr;
  Tok k = cur().kind;
  bool assign = k == Tok::Assign;
  bool aug = k == Tok::PlusAssign || k == Tok::MinusAssign || k == Tok::StarAssign || k == Tok::SlashAssign;
  if (assign || aug) {
    if (lhs.e->kind != ExprKind::Name) {
      std::string hint = lhs.e->kind == ExprKind::Subscript
                             ? "values are immutable; write a tensor with store(y[i], v)"
                             : "assign to a single name: 'v = ...'";
      fail(lhs.e->range, fmt::format("cannot assign to '{}'", print_expr(*lhs.e)), hint);
      return nullptr;
    }
    s->kind = assign ? StmtKind::Assign : StmtKind::AugAssign;
    s->target = lhs.e->text;
    s->target_range = lhs.e->range;
    Token op = take();
    if (aug) s->op = op.text;
    Node value = parse_expr();
    if (!value) return nullptr;
    s->value = std::move(value.e);
  } else {
    s->kind = StmtKind::Expr;
    s->value = std::move(lhs.e);
  }
  s->range = {s->kind == StmtKind::Expr ? s->value->range.begin : s->target_range.begin, s->value->range.end};
  if (at(Tok::Assign)) {
    fail(cur().range, "expected end of line after the statement, found '='", "assign one value per statement");
    return nullptr;
  }
  if (!expect_line_end("the statement")) return nullptr;
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// Expressions

Node Parser::make(ExprKind kind, Range r, std::string text, std::vector<Node> kids) {
  Node n;
  n.e = std::make_unique<Expr>();
  n.e->kind = kind;
  n.e->range = r;
  n.e->text = std::move(text);
  int h = 0;
  for (Node& k : kids) {
    h = std::max(h, k.height);
    n.e->args.push_back(std::move(k.e));
  }
  n.height = h + 1;
  if (n.height > kMaxHeight) {
    fail(r, fmt::format("expression is too long or too deeply nested (more than {} levels)", kMaxHeight),
         "split it into several assignments");
    return {};
  }
  return n;
}

Node Parser::binary(Token op, Node lhs, Node rhs) {
  Range r{lhs.e->range.begin, rhs.e->range.end};
  std::vector<Node> kids;
  kids.push_back(std::move(lhs));
  kids.push_back(std::move(rhs));
  return make(ExprKind::Binary, r, op.text, std::move(kids));
}

Node Parser::parse_or() {
  Node lhs = parse_and();
  while (lhs && at(Tok::KwOr)) {
    Token op = take();
    Node rhs = parse_and();
    if (!rhs) return {};
    lhs = binary(std::move(op), std::move(lhs), std::move(rhs));
  }
  return lhs;
}

Node Parser::parse_and() {
  Node lhs = parse_not();
  while (lhs && at(Tok::KwAnd)) {
    Token op = take();
    Node rhs = parse_not();
    if (!rhs) return {};
    lhs = binary(std::move(op), std::move(lhs), std::move(rhs));
  }
  return lhs;
}

// not* comparison: a loop, so a long run of 'not' costs no stack (the height limit bounds the tree).
Node Parser::parse_not() {
  std::vector<Pos> nots;
  while (at(Tok::KwNot)) {
    nots.push_back(take().range.begin);
    if (static_cast<int>(nots.size()) > kMaxHeight) {
      fail(cur().range, fmt::format("expression is too long or too deeply nested (more than {} levels)", kMaxHeight),
           "split it into several assignments");
      return {};
    }
  }
  Node n = parse_comparison();
  for (size_t i = nots.size(); n && i-- > 0;) {
    Range r{nots[i], n.e->range.end};
    std::vector<Node> kids;
    kids.push_back(std::move(n));
    n = make(ExprKind::Unary, r, "not", std::move(kids));
  }
  return n;
}

bool is_comparison(Tok k) {
  return k == Tok::Less || k == Tok::LessEqual || k == Tok::Greater || k == Tok::GreaterEqual ||
         k == Tok::EqualEqual || k == Tok::NotEqual;
}

// Comparisons do not chain: `a < b < c` means something else in Python than in C, so neither meaning is guessed.
Node Parser::parse_comparison() {
  Node lhs = parse_additive();
  if (!lhs || !is_comparison(cur().kind)) return lhs;
  Token op = take();
  Node rhs = parse_additive();
  if (!rhs) return {};
  if (is_comparison(cur().kind)) {
    fail(cur().range, "comparisons cannot be chained", "combine them with 'and': a < b and b < c");
    return {};
  }
  return binary(std::move(op), std::move(lhs), std::move(rhs));
}

Node Parser::parse_additive() {
  Node lhs = parse_multiplicative();
  while (lhs && (at(Tok::Plus) || at(Tok::Minus))) {
    Token op = take();
    Node rhs = parse_multiplicative();
    if (!rhs) return {};
    lhs = binary(std::move(op), std::move(lhs), std::move(rhs));
  }
  return lhs;
}

Node Parser::parse_multiplicative() {
  Node lhs = parse_unary();
  while (lhs && (at(Tok::Star) || at(Tok::Slash) || at(Tok::Percent))) {
    Token op = take();
    Node rhs = parse_unary();
    if (!rhs) return {};
    lhs = binary(std::move(op), std::move(lhs), std::move(rhs));
  }
  return lhs;
}

// -* power. Every recursive path of the expression grammar passes through here, so this is where nesting is bounded.
Node Parser::parse_unary() {
  if (nesting_ >= kMaxNesting) {
    fail(cur().range, fmt::format("expression is nested too deeply (more than {} levels)", kMaxNesting),
         "split it into several assignments");
    return {};
  }
  ++nesting_;
  std::vector<Pos> minuses;
  while (at(Tok::Minus)) {
    minuses.push_back(take().range.begin);
    if (static_cast<int>(minuses.size()) > kMaxHeight) {
      fail(cur().range, fmt::format("expression is too long or too deeply nested (more than {} levels)", kMaxHeight),
           "split it into several assignments");
      --nesting_;
      return {};
    }
  }
  Node n = parse_power();
  for (size_t i = minuses.size(); n && i-- > 0;) {
    Range r{minuses[i], n.e->range.end};
    std::vector<Node> kids;
    kids.push_back(std::move(n));
    n = make(ExprKind::Unary, r, "-", std::move(kids));
  }
  --nesting_;
  return n;
}

// postfix ['**' unary]: right associative, and binds tighter than a unary minus on its left (-a ** b is -(a ** b)).
Node Parser::parse_power() {
  Node base = parse_postfix();
  if (!base || !at(Tok::StarStar)) return base;
  Token op = take();
  Node exponent = parse_unary();
  if (!exponent) return {};
  return binary(std::move(op), std::move(base), std::move(exponent));
}

Node Parser::parse_postfix() {
  Node n = parse_primary();
  while (n && (at(Tok::LParen) || at(Tok::LBracket))) {
    bool is_name = n.e->kind == ExprKind::Name && n.e->text != "true" && n.e->text != "false";
    if (at(Tok::LParen)) {
      if (!is_name || !n.e->args.empty() || n.height != 1) {
        fail(cur().range, "only a function name can be called", "call a function by name, e.g. exp(x)");
        return {};
      }
      n = parse_call(std::move(n));
    } else {
      if (!is_name && n.e->kind != ExprKind::Call) {   // a call's result is cropped: conv(...)[:, :, :l]
        fail(cur().range, "only a tensor parameter can be indexed", "index a tensor by name, e.g. x[t]");
        return {};
      }
      n = parse_subscript(std::move(n));
    }
  }
  return n;
}

Node Parser::parse_primary() {
  const Token& t = cur();
  switch (t.kind) {
    case Tok::Name: {
      Node n = make(ExprKind::Name, t.range, t.text, {});
      if (t.text == "inf") {  // a literal, not a name: keeps the grammar free of a special token
        n.e->kind = ExprKind::Number;
        n.e->number = INFINITY;
      }
      take();
      return n;
    }
    case Tok::Number: {
      Node n = make(ExprKind::Number, t.range, t.text, {});
      n.e->number = t.number;
      n.e->is_int = t.is_int;
      take();
      return n;
    }
    case Tok::KwTrue:
    case Tok::KwFalse: {
      // Booleans are the names "true" and "false": the checks resolve them like any other constant.
      Node n = make(ExprKind::Name, t.range, t.text, {});
      take();
      return n;
    }
    case Tok::LParen:
      return parse_parenthesized();
    case Tok::String:
      fail(t.range, "a string is only allowed as the module docstring, the first line of the file", "");
      return {};
    default: {
      std::string hint;
      if (t.kind == Tok::Plus) hint = "there is no unary '+': drop it";
      if (t.kind == Tok::LBracket) hint = "there are no list literals; use ( ) for a tuple";
      fail_expected("an expression", hint);
      return {};
    }
  }
}

// name(ARG, ..., KEY=VALUE, ...)
Node Parser::parse_call(Node callee) {
  Pos open = take().range.begin;  // '('
  Node call = std::move(callee);
  call.e->kind = ExprKind::Call;
  int height = 1;
  while (!at(Tok::RParen)) {
    if (at(Tok::Name) && peek().kind == Tok::Assign) {
      Range key_range = cur().range;
      std::string key = take().text;
      take();  // '='
      for (const auto& [k, v] : call.e->kwargs) {
        if (k == key) {
          fail(key_range, fmt::format("keyword argument '{}' is given twice", key), "");
          return {};
        }
      }
      Node value = parse_expr();
      if (!value) return {};
      height = std::max(height, value.height + 1);
      call.e->kwargs.emplace_back(std::move(key), std::move(value.e));
      call.e->kwarg_ranges.push_back(key_range);
    } else {
      if (!call.e->kwargs.empty()) {
        fail(cur().range, "positional argument after a keyword argument", "put the positional arguments first");
        return {};
      }
      Node arg = parse_expr();
      if (!arg) return {};
      height = std::max(height, arg.height + 1);
      call.e->args.push_back(std::move(arg.e));
    }
    if (accept(Tok::Comma)) continue;
    if (at(Tok::RParen)) break;
    std::string hint = unclosed_hint('(', open);
    if (hint.empty() && at(Tok::Assign)) hint = "a keyword argument is a name: 'axis=1'";
    fail_expected(fmt::format("',' or ')' in the call to '{}'", call.e->text), hint);
    return {};
  }
  call.e->range.end = take().range.end;  // ')'
  call.height = height + 1;
  if (call.height > kMaxHeight) {
    fail(call.e->range,
         fmt::format("expression is too long or too deeply nested (more than {} levels)", kMaxHeight),
         "split it into several assignments");
    return {};
  }
  return call;
}

// name[INDEX, ...] where INDEX is an expression or ':' (the whole axis)
Node Parser::parse_subscript(Node base) {
  Pos open = take().range.begin;  // '['
  std::vector<Node> kids;
  Range r = base.e->range;
  kids.push_back(std::move(base));
  if (at(Tok::RBracket)) {
    fail(cur().range, "expected an index, found ']'", "index with a tile variable or ':', e.g. x[r, :]");
    return {};
  }
  const char* range_hint =
      "a subscript takes ':' (the whole axis), ':n' (its first n elements) or an index; ranges like a:b are not supported";
  while (true) {
    if (at(Tok::Colon)) {
      const Range colon = cur().range;
      take();
      if (at(Tok::Comma) || at(Tok::RBracket)) {
        kids.push_back(make(ExprKind::Slice, colon, ":", {}));
      } else if (at(Tok::End) || at(Tok::Newline)) {
        fail_expected("',' or ']' after ':'", "");
        return {};
      } else {   // :END, the first END elements
        Node end = parse_expr();
        if (!end) return {};
        Range r{colon.begin, end.e->range.end};
        std::vector<Node> one;
        one.push_back(std::move(end));
        kids.push_back(make(ExprKind::SliceTo, r, ":", std::move(one)));
        if (at(Tok::Colon)) {
          fail(cur().range, "a step in a subscript (a:b:c) is not supported", range_hint);
          return {};
        }
      }
    } else {
      Node index = parse_expr();
      if (!index) return {};
      kids.push_back(std::move(index));
      if (at(Tok::Colon)) {
        fail(cur().range, "ranges are not supported in a subscript", range_hint);
        return {};
      }
    }
    if (accept(Tok::Comma)) {
      if (at(Tok::RBracket)) break;  // x[r, :,] like Python
      continue;
    }
    if (at(Tok::RBracket)) break;
    fail_expected("',' or ']' in the subscript",
                  unclosed_hint('[', open));
    return {};
  }
  r.end = take().range.end;  // ']'
  return make(ExprKind::Subscript, r, "", std::move(kids));
}

// (EXPR) groups; (EXPR, ...) and (EXPR,) are tuples.
Node Parser::parse_parenthesized() {
  Token open = take();
  if (at(Tok::RParen)) {
    fail(cur().range, "expected an expression inside '()', found ')'", "");
    return {};
  }
  Node first = parse_expr();
  if (!first) return {};
  if (at(Tok::RParen)) {
    Range r{open.range.begin, take().range.end};
    first.e->range = r;  // the parentheses belong to the expression: carets cover them
    return first;
  }
  std::vector<Node> kids;
  kids.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::RParen)) break;
    Node next = parse_expr();
    if (!next) return {};
    kids.push_back(std::move(next));
  }
  if (!at(Tok::RParen)) {
    bool line_end = at(Tok::End) || at(Tok::Newline) || cur().range.begin.line > open.range.begin.line;
    fail_expected(fmt::format("')' to close the '(' at {}", pos_text(open.range.begin)),
                  kids.size() == 1 || line_end ? "" : "separate the elements with ','");
    return {};
  }
  Range r{open.range.begin, take().range.end};
  return make(ExprKind::Tuple, r, "", std::move(kids));
}

}  // namespace

bool parse(const std::string& file, const std::string& source, Program& out, Diags& diags) {
  out = Program{};
  out.file = file;
  out.source = source;
  // The lexer reads `source` (the caller's string, alive for the whole call); diagnostics quote out.source later.
  Parser parser(source, out, diags);
  parser.parse_file();
  return !diags.has_errors();
}

}  // namespace kgen::tile
