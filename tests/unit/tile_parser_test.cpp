// The tile language's front end: lexer, parser, diagnostics and printing (src/tile/{lexer,parser,diag,ast_print}.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <sstream>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/lexer.h"
#include "tile/parser.h"

namespace kgen::tile {
namespace {

std::filesystem::path data_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "tile";
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A parse with everything it needs kept alive together (Diags points at the source).
struct Parsed {
  std::string source;
  Program program;
  Diags diags{"t.tile", &source};
  bool ok = false;
};

std::unique_ptr<Parsed> run(std::string source) {
  auto r = std::make_unique<Parsed>();
  r->source = std::move(source);
  r->ok = parse("t.tile", r->source, r->program, r->diags);
  return r;
}

// Every diagnostic as "LINE:COL: message | hint", in the order reported.
std::string summary(const Diags& d) {
  std::string out;
  for (const Diagnostic& x : d.all()) {
    if (!out.empty()) out += '\n';
    out += fmt::format("{}:{}: {}", x.range.begin.line, x.range.begin.col, x.message);
    if (!x.hint.empty()) out += " | " + x.hint;
  }
  return out;
}

const std::string K = "kernel k(x: f32[n]) -> (y: f32[n]):\n";  // a header for body snippets: they start on line 2

// ---------------------------------------------------------------------------------------------------------------
// Programs that parse

TEST(TileParser, SamplePrograms) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir())) {
    if (entry.path().extension() != ".tile") continue;
    ++count;
    auto r = run(read_file(entry.path()));
    EXPECT_TRUE(r->ok) << entry.path() << "\n" << r->diags.render();
    EXPECT_FALSE(r->program.name.empty()) << entry.path();
    EXPECT_FALSE(r->program.doc.empty()) << entry.path();
    EXPECT_FALSE(r->program.body.empty()) << entry.path();
  }
  EXPECT_GE(count, 7);
}

TEST(TileParser, SoftmaxFromTheDocs) {
  auto r = run(read_file(data_dir() / "softmax.tile"));
  ASSERT_TRUE(r->ok) << r->diags.render();
  const Program& p = r->program;
  EXPECT_EQ(p.file, "t.tile");
  EXPECT_EQ(p.doc, "Softmax over the last axis.");
  EXPECT_EQ(p.name, "softmax");
  ASSERT_EQ(p.params.size(), 1u);
  EXPECT_EQ(p.params[0].name, "x");
  EXPECT_EQ(p.params[0].type.dtype, "T");
  ASSERT_EQ(p.params[0].type.dims.size(), 2u);
  EXPECT_TRUE(p.params[0].type.dims[0].star);
  EXPECT_EQ(p.params[0].type.dims[0].name, "m");
  EXPECT_EQ(p.params[0].type.dims[1].name, "n");
  ASSERT_EQ(p.outputs.size(), 1u);
  EXPECT_EQ(p.outputs[0].name, "y");
  ASSERT_EQ(p.dtypes.size(), 1u);
  EXPECT_EQ(p.dtypes[0].types, (std::vector<std::string>{"f32", "f16", "bf16"}));
  ASSERT_EQ(p.body.size(), 1u);
  const Stmt& loop = *p.body[0];
  EXPECT_EQ(loop.kind, StmtKind::For);
  EXPECT_EQ(loop.loop_vars, std::vector<std::string>{"r"});
  EXPECT_EQ(print_expr(*loop.value), "tiles(m, buffers=2)");
  ASSERT_EQ(loop.body.size(), 3u);
  EXPECT_EQ(print_expr(*loop.body[1]->value), "exp(v - max(v, axis=1))");
  EXPECT_EQ(print_expr(*loop.body[2]->value), "store(y[r, :], e / sum(e, axis=1))");
  EXPECT_EQ(p.header_range.begin.line, 2);
  EXPECT_EQ(p.header_range.end.line, 2);
  EXPECT_EQ(p.header_range.end.col, 46);  // after the ':'
}

TEST(TileParser, AttrsAndSingleOutput) {
  auto r = run(read_file(data_dir() / "hardtanh.tile"));
  ASSERT_TRUE(r->ok) << r->diags.render();
  ASSERT_EQ(r->program.params.size(), 3u);
  EXPECT_FALSE(r->program.params[1].type.is_tensor);
  EXPECT_EQ(print_expr(*r->program.params[1].default_value), "-1.0");
  auto g = run(read_file(data_dir() / "gelu_tanh.tile"));
  ASSERT_TRUE(g->ok) << g->diags.render();
  ASSERT_EQ(g->program.outputs.size(), 1u);
  EXPECT_EQ(g->program.outputs[0].name, "y");
  EXPECT_EQ(g->program.doc, "GELU, tanh approximation; a single output may be written without parentheses.");
}

TEST(TileParser, StatementForms) {
  auto r = run(K +
               "    dtype T in (f32, f16,)\n"
               "    dtype U in (i32)\n"
               "    acc = 0\n"
               "    acc += 1\n"
               "    acc -= 1\n"
               "    acc *= 2\n"
               "    acc /= 2\n"
               "    for a, b in pairs(x):\n"
               "        pass\n"
               "    for (a, b) in pairs(x):\n"
               "        for c in tiles(n, tile=(128, 256)):\n"
               "            f(a,\n"
               "              b)   # implicit line joining\n"
               "    t = (1,)\n"
               "    m = not a < b and c or d % 2 == 0\n"
               "    w = x[1, :, n - 1]\n"
               "    z = true or false\n"
               "    e = -inf\n");
  ASSERT_TRUE(r->ok) << r->diags.render();
  const Program& p = r->program;
  ASSERT_EQ(p.dtypes.size(), 2u);
  EXPECT_EQ(p.dtypes[0].types.size(), 2u);
  ASSERT_EQ(p.body.size(), 12u);
  EXPECT_EQ(p.body[0]->kind, StmtKind::Assign);
  EXPECT_EQ(p.body[1]->kind, StmtKind::AugAssign);
  EXPECT_EQ(p.body[1]->op, "+=");
  EXPECT_EQ(p.body[4]->op, "/=");
  EXPECT_EQ(p.body[5]->loop_vars, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.body[5]->body[0]->kind, StmtKind::Pass);
  EXPECT_EQ(p.body[6]->loop_vars, (std::vector<std::string>{"a", "b"}));
  const Stmt& inner = *p.body[6]->body[0];
  EXPECT_EQ(print_expr(*inner.value), "tiles(n, tile=(128, 256))");
  EXPECT_EQ(inner.value->kwargs[0].second->kind, ExprKind::Tuple);
  EXPECT_EQ(inner.body[0]->kind, StmtKind::Expr);
  EXPECT_EQ(print_expr(*inner.body[0]->value), "f(a, b)");
  EXPECT_EQ(print_expr(*p.body[7]->value), "(1,)");
  EXPECT_EQ(print_expr(*p.body[8]->value), "not a < b and c or d % 2 == 0");
  EXPECT_EQ(p.body[8]->value->text, "or");
  EXPECT_EQ(print_expr(*p.body[9]->value), "x[1, :, n - 1]");
  EXPECT_EQ(p.body[9]->value->args[2]->kind, ExprKind::Slice);
  EXPECT_EQ(p.body[10]->value->args[0]->text, "true");
  const Expr& neg_inf = *p.body[11]->value;  // a unary minus on the number inf
  EXPECT_EQ(neg_inf.kind, ExprKind::Unary);
  EXPECT_EQ(neg_inf.args[0]->kind, ExprKind::Number);
  EXPECT_TRUE(std::isinf(neg_inf.args[0]->number));
}

TEST(TileParser, Numbers) {
  auto r = run(K + "    v = f(2, 0.5, 1e-5, 3E+2, .25, 1., inf, 007)\n");
  ASSERT_TRUE(r->ok) << r->diags.render();
  const Expr& call = *r->program.body[0]->value;
  ASSERT_EQ(call.args.size(), 8u);
  EXPECT_TRUE(call.args[0]->is_int);
  EXPECT_EQ(call.args[0]->number, 2);
  EXPECT_FALSE(call.args[1]->is_int);
  EXPECT_EQ(call.args[1]->number, 0.5);
  EXPECT_EQ(call.args[2]->number, 1e-5);
  EXPECT_FALSE(call.args[2]->is_int);
  EXPECT_EQ(call.args[3]->number, 300);
  EXPECT_EQ(call.args[4]->number, 0.25);
  EXPECT_EQ(call.args[5]->number, 1.0);
  EXPECT_FALSE(call.args[5]->is_int);
  EXPECT_EQ(call.args[6]->kind, ExprKind::Number);
  EXPECT_TRUE(std::isinf(call.args[6]->number));
  EXPECT_FALSE(call.args[6]->is_int);
  EXPECT_EQ(call.args[7]->number, 7);
}

TEST(TileParser, Ranges) {
  auto r = run(K + "    v = exp(a + b)\n");
  ASSERT_TRUE(r->ok);
  const Stmt& s = *r->program.body[0];
  EXPECT_EQ(s.target_range.begin.col, 5);
  EXPECT_EQ(s.range.begin.col, 5);
  EXPECT_EQ(s.range.end.col, 19);
  const Expr& call = *s.value;
  EXPECT_EQ(call.range.begin.col, 9);
  EXPECT_EQ(call.range.end.col, 19);
  EXPECT_EQ(call.args[0]->range.begin.col, 13);
  EXPECT_EQ(call.args[0]->range.end.col, 18);
  const Param& x = r->program.params[0];
  EXPECT_EQ(x.name_range.begin.col, 10);
  EXPECT_EQ(x.type.dtype_range.begin.col, 13);
  EXPECT_EQ(x.type.range.end.col, 19);
  EXPECT_EQ(x.type.dims[0].range.begin.col, 17);
  // parentheses belong to the expression they group
  auto g = run(K + "    v = (a + b) * c\n");
  EXPECT_EQ(g->program.body[0]->value->args[0]->range.begin.col, 9);
  EXPECT_EQ(g->program.body[0]->value->args[0]->range.end.col, 16);
}

TEST(TileParser, DocstringForms) {
  EXPECT_EQ(run("'''a\nb'''\n" + K + "    pass\n")->program.doc, "a\nb");
  EXPECT_EQ(run("'single'\n" + K + "    pass\n")->program.doc, "single");
  EXPECT_EQ(run("# comment first\n\"\"\"d\"\"\"\n" + K + "    pass\n")->program.doc, "d");
  auto none = run(K + "    pass\n");
  EXPECT_TRUE(none->ok);
  EXPECT_EQ(none->program.doc, "");
}

TEST(TileParser, WindowsLineEndingsAndNoFinalNewline) {
  auto r = run("\"\"\"d\"\"\"\r\nkernel k(x: f32[n]) -> (y: f32[n]):\r\n    v = x\r\n\r\n    store(y[:], v)");
  EXPECT_TRUE(r->ok) << r->diags.render();
  EXPECT_EQ(r->program.body.size(), 2u);
}

// ---------------------------------------------------------------------------------------------------------------
// The tree printer

TEST(TileParser, PrintAst) {
  auto r = run(
      "\"\"\"Doc.\"\"\"\n"
      "kernel scale(x: T[*m, n], s: f32 = 2) -> (y: T[*m, n]):\n"
      "    dtype T in (f32, f16)\n"
      "    for r in tiles(m, buffers=2):\n"
      "        v = load(x[r, :], f32)\n"
      "        store(y[r, :], -v * s)\n");
  ASSERT_TRUE(r->ok) << r->diags.render();
  EXPECT_EQ(print_ast(r->program),
            "Kernel scale @2:8\n"
            "  Doc \"Doc.\"\n"
            "  Param x: T[*m, n] @2:14\n"
            "  Param s: f32 @2:27\n"
            "    Number 2 @2:36\n"
            "  Output y: T[*m, n] @2:43\n"
            "  Dtype T in (f32, f16) @3:5\n"
            "  For r @4:5\n"
            "    Call tiles @4:14\n"
            "      Name m @4:20\n"
            "      Kwarg buffers @4:23\n"
            "        Number 2 @4:31\n"
            "    Assign v @5:9\n"
            "      Call load @5:13\n"
            "        Subscript @5:18\n"
            "          Name x @5:18\n"
            "          Name r @5:20\n"
            "          Slice @5:23\n"
            "        Name f32 @5:27\n"
            "    Expr @6:9\n"
            "      Call store @6:9\n"
            "        Subscript @6:15\n"
            "          Name y @6:15\n"
            "          Name r @6:17\n"
            "          Slice @6:20\n"
            "        Binary * @6:24\n"
            "          Unary - @6:24\n"
            "            Name v @6:25\n"
            "          Name s @6:29\n");
}

TEST(TileParser, PrintAstOtherStatements) {
  auto r = run(K + "    acc += 1\n    for a, b in p:\n        pass\n");
  ASSERT_TRUE(r->ok) << r->diags.render();
  EXPECT_EQ(print_ast(r->program),
            "Kernel k @1:8\n"
            "  Param x: f32[n] @1:10\n"
            "  Output y: f32[n] @1:25\n"
            "  AugAssign acc += @2:5\n"
            "    Number 1 @2:12\n"
            "  For a, b @3:5\n"
            "    Name p @3:17\n"
            "    Pass @4:9\n");
}

// print_expr writes the fewest parentheses, and reading its output back gives the same text.
TEST(TileParser, PrintExprRoundTrip) {
  const std::pair<const char*, const char*> cases[] = {
      {"exp(v - max(v, axis=1))", "exp(v - max(v, axis=1))"},
      {"(a + b) * c", "(a + b) * c"},
      {"a + (b * c)", "a + b * c"},
      {"a - (b - c)", "a - (b - c)"},
      {"(a - b) - c", "a - b - c"},
      {"a / (b * c)", "a / (b * c)"},
      {"a % b * c", "a % b * c"},
      {"-a ** b", "-a ** b"},
      {"(-a) ** b", "(-a) ** b"},
      {"a ** (b ** c)", "a ** b ** c"},
      {"(a ** b) ** c", "(a ** b) ** c"},
      {"a ** -b", "a ** -b"},
      {"- -a", "--a"},
      {"-(a + b)", "-(a + b)"},
      {"a - -b", "a - -b"},
      {"not a == b and c or d", "not a == b and c or d"},
      {"not (a and b)", "not (a and b)"},
      {"(not a) and b", "not a and b"},
      {"(a or b) and c", "(a or b) and c"},
      {"(a < b) == c", "(a < b) == c"},
      {"a < (b + c)", "a < b + c"},
      {"x[r, :]", "x[r, :]"},
      {"x[(t)]", "x[t]"},
      {"(128, 256)", "(128, 256)"},
      {"(a,)", "(a,)"},
      {"f()", "f()"},
      {"f(axis=1)", "f(axis=1)"},
      {"where(v >= 0, v, v * s)", "where(v >= 0, v, v * s)"},
      {"true and not false", "true and not false"},
      {"1e-5", "1e-05"},
      {"2.0", "2.0"},
      {"2.", "2.0"},
      {"0.5", "0.5"},
      {"1e20", "1e+20"},
      {"100000000000000000000", "100000000000000000000"},
      {"inf", "inf"},
      {"3", "3"},
      {"-inf", "-inf"},
  };
  for (const auto& [src, want] : cases) {
    auto r = run(K + "    v = " + src + "\n");
    ASSERT_TRUE(r->ok) << src << "\n" << r->diags.render();
    std::string once = print_expr(*r->program.body[0]->value);
    EXPECT_EQ(once, want) << src;
    auto again = run(K + "    v = " + once + "\n");
    ASSERT_TRUE(again->ok) << once;
    EXPECT_EQ(print_expr(*again->program.body[0]->value), once) << src;
  }
}

// Every expression of the sample programs reads back the same through print_expr.
TEST(TileParser, PrintExprRoundTripSamples) {
  for (const auto& entry : std::filesystem::directory_iterator(data_dir())) {
    if (entry.path().extension() != ".tile") continue;
    auto r = run(read_file(entry.path()));
    ASSERT_TRUE(r->ok);
    std::vector<const Stmt*> work;
    for (const StmtPtr& s : r->program.body) work.push_back(s.get());
    while (!work.empty()) {
      const Stmt* s = work.back();
      work.pop_back();
      for (const StmtPtr& b : s->body) work.push_back(b.get());
      if (!s->value) continue;
      std::string once = print_expr(*s->value);
      auto again = run(K + "    v = " + once + "\n");
      ASSERT_TRUE(again->ok) << once;
      EXPECT_EQ(print_expr(*again->program.body[0]->value), once);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The lexer

std::string kinds(const std::string& src) {
  Diags d("t.tile", &src);
  std::string out;
  for (const Token& t : lex(src, d)) {
    switch (t.kind) {
      case Tok::Newline: out += "NL "; break;
      case Tok::Indent: out += "IN "; break;
      case Tok::Dedent: out += "DE "; break;
      case Tok::End: out += "END"; break;
      default: out += t.text + ' ';
    }
  }
  return out;
}

TEST(TileLexer, Tokens) {
  EXPECT_EQ(kinds("a\n  b\n\n   # c\n  c(\n d,\n e)\nf"), "a NL IN b NL c ( d , e ) NL DE f NL END");
  EXPECT_EQ(kinds("x **= -> <= >= == != += -= *= /= % :"), "x ** = -> <= >= == != += -= *= /= % : NL END");
  EXPECT_EQ(kinds("a\n    b\n        c\nd\n"), "a NL IN b NL IN c NL DE DE d NL END");
  EXPECT_EQ(kinds("a\n  b\n    c"), "a NL IN b NL IN c NL DE DE END");
  EXPECT_EQ(kinds(""), "END");
  EXPECT_EQ(kinds("\n\n  # only a comment\n"), "END");
  std::string src = "for kernel in dtype pass and or not true false inf";
  Diags d("t.tile", &src);
  std::vector<Token> t = lex(src, d);
  EXPECT_EQ(t[0].kind, Tok::KwFor);
  EXPECT_EQ(t[1].kind, Tok::KwKernel);
  EXPECT_EQ(t[9].kind, Tok::KwFalse);
  EXPECT_EQ(t[10].kind, Tok::Name);  // inf
  EXPECT_FALSE(d.has_errors());
}

TEST(TileLexer, TokenRanges) {
  std::string src = "ab  <=\n  \"\"\"x\ny\"\"\" c";
  Diags d("t.tile", &src);
  std::vector<Token> t = lex(src, d);
  ASSERT_GE(t.size(), 6u);
  EXPECT_EQ(t[0].range.begin.col, 1);
  EXPECT_EQ(t[0].range.end.col, 3);
  EXPECT_EQ(t[1].range.begin.col, 5);
  EXPECT_EQ(t[1].range.end.col, 7);
  EXPECT_EQ(t[2].kind, Tok::Newline);
  EXPECT_EQ(t[2].range.begin.col, 7);  // right after the last token of the line
  EXPECT_EQ(t[3].kind, Tok::Indent);
  EXPECT_EQ(t[3].range.begin.line, 2);
  EXPECT_EQ(t[3].range.begin.col, 3);
  EXPECT_EQ(t[4].kind, Tok::String);
  EXPECT_EQ(t[4].text, "x\ny");
  EXPECT_EQ(t[4].range.end.line, 3);
  EXPECT_EQ(t[4].range.end.col, 5);
  EXPECT_EQ(t[5].text, "c");
  EXPECT_EQ(t[5].range.begin.line, 3);
  EXPECT_EQ(t[5].range.begin.col, 6);
}

// An unclosed bracket ends at a line that can only start a statement, instead of swallowing the rest of the file.
TEST(TileLexer, UnclosedBracketStopsAtStatementKeyword) {
  EXPECT_EQ(kinds("f(a\n\n  # x\nfor b"), "f ( a NL for b NL END");
  EXPECT_EQ(kinds("f(a\nb)"), "f ( a b ) NL END");
}

// ---------------------------------------------------------------------------------------------------------------
// Every diagnostic of the lexer and the parser, reached on purpose

struct DiagCase {
  std::string source;
  std::string expected;  // summary(): "LINE:COL: message | hint", one line per diagnostic
};

void expect_diags(const std::vector<DiagCase>& cases) {
  for (const DiagCase& c : cases) {
    auto r = run(c.source);
    EXPECT_FALSE(r->ok) << c.source;
    EXPECT_EQ(summary(r->diags), c.expected) << "source:\n" << c.source;
  }
}

TEST(TileDiagnostics, Lexer) {
  expect_diags({
      {K + "\tpass\n", "2:1: tab in indentation | indent with spaces"},
      {K + "    for t in tiles(n):\n        pass\n      pass\n      pass\n",
       "4:7: unindent does not match any outer indentation level | indent this line like the block it belongs to"},
      {K + "    pass $\n", "2:10: unexpected character '$'"},
      {K + "    pass !\n", "2:10: unexpected character '!' | use 'not' for negation and '!=' for not equal"},
      {K + "    pass ;\n", "2:10: unexpected character ';' | put each statement on its own line"},
      {K + "    pass \xc3\xa9\n", "2:10: unexpected characters '\\xc3\\xa9' | tile programs are ASCII text"},
      {K + "    pass {}\n", "2:10: unexpected characters '{}' | use ( ) for grouping and indentation for blocks"},
      {K + "    v = 2x\n", "2:9: invalid number '2x' | a name cannot start with a digit"},
      {K + "    v = 1e\n", "2:9: invalid number '1e' | an exponent needs digits, e.g. 1e-5"},
      {K + "    v = 1.2.3\n", "2:9: invalid number '1.2.3' | a number has at most one '.'"},
      {K + "    v = 1e999\n", "2:9: number '1e999' is out of range | use 'inf' for infinity; finite numbers must fit a "
                                "64-bit float"},
      {"'abc\n" + K + "    pass\n", "1:1: unterminated string | close it with '"},
      {K + "    v = 'abc\n", "2:9: unterminated string | close it with '"},  // and no second error for the string
      {"\"\"\"abc\n" + K + "    pass\n", "1:1: unterminated triple-quoted string | close it with \"\"\""},
  });
}

TEST(TileDiagnostics, FileStructure) {
  expect_diags({
      {"", "1:1: expected a kernel, found end of file | a tile file holds one 'kernel NAME(PARAMS) -> (OUTPUTS):' and "
           "its body"},
      {"# nothing\n", "1:1: expected a kernel, found end of file | a tile file holds one 'kernel NAME(PARAMS) -> "
                      "(OUTPUTS):' and its body"},
      {"x = 1\n" + K + "    pass\n",
       "1:1: expected 'kernel', found 'x' | a tile file holds one 'kernel NAME(PARAMS) -> (OUTPUTS):'"},
      {K + "    pass\nx = 1\n", "3:1: expected 'kernel', found 'x' | statements belong to the kernel body: indent them"},
      {K + "    pass\n" + K + "    pass\n", "3:1: a file holds a single kernel | put each kernel in its own .tile file"},
      {"\"\"\"doc\"\"\" kernel\n", "1:11: expected end of line after the docstring, found 'kernel'"},
      {K + "    pass\n'doc'\n",
       "3:1: expected 'kernel', found a string | a string is only allowed as the module docstring, the first line of "
       "the file"},
      {"  " + K + "    pass\n", "1:3: unexpected indent | only the kernel body is indented"},
  });
}

TEST(TileDiagnostics, Header) {
  const std::string body = "    pass\n";
  expect_diags({
      {"kernel (x: f32[n]) -> (y: f32[n]):\n" + body,
       "1:8: expected the kernel name after 'kernel', found '(' | write 'kernel NAME(PARAMS) -> (OUTPUTS):'"},
      {"kernel k x: f32[n]) -> (y: f32[n]):\n" + body, "1:10: expected '(' and the parameters after 'k', found 'x'"},
      {"kernel k(in: f32[n]) -> (y: f32[n]):\n" + body,
       "1:10: expected a parameter name, found 'in' | 'in' is a keyword; choose another name"},
      {"kernel k(x f32[n]) -> (y: f32[n]):\n" + body,
       "1:12: expected ':' and a type after 'x', found 'f32' | write 'x: f32[n]' for a tensor or 'x: f32 = 0.5' for "
       "an attr"},
      {"kernel k(x: [n]) -> (y: f32[n]):\n" + body, "1:13: expected a dtype such as f32 or T, found '['"},
      {"kernel k(x: f32[]) -> (y: f32[n]):\n" + body,
       "1:17: expected a dimension, found ']' | a tensor has at least one dimension, e.g. f32[n] or f32[*n]"},
      {"kernel k(x: f32[1.5]) -> (y: f32[n]):\n" + body, "1:17: a dimension must be an integer, found '1.5'"},
      {"kernel k(x: f32[99999999999999999999]) -> (y: f32[n]):\n" + body,
       "1:17: dimension '99999999999999999999' is too large"},
      {"kernel k(x: f32[*]) -> (y: f32[n]):\n" + body,
       "1:18: expected a dimension name after '*', found ']' | write '*m': any number of dims, m their product"},
      {"kernel k(x: f32[+]) -> (y: f32[n]):\n" + body,
       "1:17: expected a dimension (a name, '*name' or an integer), found '+'"},
      {"kernel k(x: f32[m n]) -> (y: f32[n]):\n" + body, "1:19: expected ',' or ']' in the dimensions, found 'n'"},
      {"kernel k(x: f32[n] y: f32[n]) -> (y: f32[n]):\n" + body,
       "1:20: expected ',' or ')' in the parameter list, found 'y'"},
      {"kernel k(x: f32[n]):\n" + body,
       "1:20: expected '->' and the outputs after the parameters, found ':' | declare the outputs: ') -> (y: "
       "T[n]):'"},
      {"kernel k(x: f32[n]) -> ():\n" + body, "1:25: a kernel needs at least one output | declare it: '-> (y: T[n])'"},
      {"kernel k(x: f32[n]) -> (y: f32[n] z: f32[n]):\n" + body,
       "1:35: expected ',' or ')' in the output list, found 'z'"},
      {"kernel k(x: f32[n]) -> (y: f32[n] = 1):\n" + body,
       "1:35: an output cannot have a default value | remove '= ...'"},
      {"kernel k(x: f32[n]) -> (y: f32[n])\n" + body,
       "1:35: expected ':' at the end of the kernel line, found end of line | add ':' at the end of the line"},
      {"kernel k(x: f32[n]) -> (y: f32[n]): pass\n", "1:37: expected end of line after the kernel line, found 'pass'"},
      {"kernel k(x: f32[n]) -> (y: f32[n]):\npass\nv = 1\n",
       "2:1: expected the kernel body, found 'pass' | indent the body under the kernel line"},
      {"kernel k(x: f32[n]\n" + body, "1:19: expected ',' or ')' in the parameter list, found end of line | close "
                                       "the '(' at 1:9"},
  });
}

TEST(TileDiagnostics, DtypeDeclarations) {
  const std::string hint = " | write 'dtype T in (f32, f16)'";
  expect_diags({
      {K + "    dtype in (f32)\n", "2:11: expected a dtype variable name after 'dtype', found 'in'" + hint},
      {K + "    dtype T (f32)\n", "2:13: expected 'in' after 'dtype T', found '('" + hint},
      {K + "    dtype T in f32\n", "2:16: expected '(' and the list of dtypes, found 'f32'" + hint},
      {K + "    dtype T in (f32, 1)\n", "2:22: expected a dtype such as f32, found '1'" + hint},
      {K + "    dtype T in (f32 f16)\n", "2:21: expected ',' or ')' in the list of dtypes, found 'f16'" + hint},
      {K + "    dtype T in ()\n", "2:5: dtype variable 'T' has no dtypes" + hint},
      {K + "    dtype T in (f32) x\n", "2:22: expected end of line after the dtype declaration, found 'x'"},
      {K + "    pass\n    dtype T in (f32)\n",
       "3:5: dtype declarations come first in the kernel body | move this line to the top of the body"},
  });
  // The misplaced declaration is kept, so that uses of T are not reported again by the checks.
  auto r = run(K + "    pass\n    dtype T in (f32)\n");
  EXPECT_EQ(r->program.dtypes.size(), 1u);
}

TEST(TileDiagnostics, Statements) {
  expect_diags({
      {K + "    pass x\n", "2:10: expected end of line after 'pass', found 'x'"},
      {K + "    for in tiles(n):\n        pass\n",
       "2:9: expected a loop variable after 'for', found 'in' | write 'for r in tiles(m):'"},
      {K + "    for a, in x:\n        pass\n",
       "2:12: expected a loop variable after ',', found 'in' | write 'for r in tiles(m):'"},
      {K + "    for (a, b in x:\n        pass\n", "2:15: expected ')' after the loop variables, found 'in'"},
      {K + "    for r = tiles(n):\n        pass\n",
       "2:11: expected 'in' after the loop variable, found '=' | write 'for r in tiles(m):'"},
      {K + "    for a, b tiles(n):\n        pass\n", "2:14: expected 'in' after the loop variables, found 'tiles'"},
      {K + "    for r in tiles(n)\n        pass\n",
       "2:22: expected ':' at the end of the 'for' line, found end of line | add ':' at the end of the line"},
      {K + "    for r in tiles(n): pass\n",
       "2:24: expected end of line after ':', found 'pass' | put the loop body on the next lines, indented"},
      {K + "    for r in tiles(n):\n    pass\n",
       "3:5: expected an indented block after the 'for' line, found 'pass' | indent the loop body"},
      {K + "    pass\n        pass\n", "3:9: unexpected indent | indent only the body of a 'for'"},
      {K + "    kernel j(x: f32[n]) -> (y: f32[n]):\n        pass\n",
       "2:5: a kernel cannot be defined inside another | put each kernel in its own .tile file"},
      {K + "    'text'\n",
       "2:5: a string is only allowed as the module docstring, the first line of the file | use '#' for comments"},
      {K + "    x[0] = 1\n",
       "2:5: cannot assign to 'x[0]' | values are immutable; write a tensor with store(y[i], v)"},
      {K + "    f(x) += 1\n", "2:5: cannot assign to 'f(x)' | assign to a single name: 'v = ...'"},
      {K + "    a = b = 1\n", "2:11: expected end of line after the statement, found '=' | assign one value per "
                              "statement"},
      {K + "    v = x y\n", "2:11: expected end of line after the statement, found 'y'"},
  });
}

TEST(TileDiagnostics, Expressions) {
  expect_diags({
      {K + "    v = a < b < c\n", "2:15: comparisons cannot be chained | combine them with 'and': a < b and b < c"},
      {K + "    v = f(x)(y)\n", "2:13: only a function name can be called | call a function by name, e.g. exp(x)"},
      {K + "    v = (x + 1)[0]\n", "2:16: only a tensor parameter can be indexed | index a tensor by name, e.g. x[t]"},
      {K + "    v = )\n", "2:9: expected an expression, found ')'"},
      {K + "    v = +x\n", "2:9: expected an expression, found '+' | there is no unary '+': drop it"},
      {K + "    v = [1]\n",
       "2:9: expected an expression, found '[' | there are no list literals; use ( ) for a tuple"},
      {K + "    v = 'a'\n", "2:9: a string is only allowed as the module docstring, the first line of the file"},
      {K + "    v = f(axis=1, axis=2)\n", "2:19: keyword argument 'axis' is given twice"},
      {K + "    v = f(axis=1, x)\n", "2:19: positional argument after a keyword argument | put the positional "
                                     "arguments first"},
      {K + "    v = f(x y)\n", "2:13: expected ',' or ')' in the call to 'f', found 'y'"},
      {K + "    v = f(1 = 2)\n",
       "2:13: expected ',' or ')' in the call to 'f', found '=' | a keyword argument is a name: 'axis=1'"},
      {K + "    v = f(x\n    pass\n",
       "2:12: expected ',' or ')' in the call to 'f', found end of line | close the '(' at 2:10"},
      {K + "    v = f(x\n    w = 1\n",  // the lexer joined the lines: the error is on the next one
       "3:5: expected ',' or ')' in the call to 'f', found 'w' | close the '(' at 2:10"},
      {K + "    v = x[]\n", "2:11: expected an index, found ']' | index with a tile variable or ':', e.g. x[r, :]"},
      {K + "    v = x[:1:2]\n",
       "2:13: a step in a subscript (a:b:c) is not supported | a subscript takes ':' (the whole axis), ':n' (its first "
       "n elements) or an index; ranges like a:b are not supported"},
      {K + "    v = x[0:1]\n",
       "2:12: ranges are not supported in a subscript | a subscript takes ':' (the whole axis), ':n' (its first n "
       "elements) or an index; ranges like a:b are not supported"},
      {K + "    v = x[0 1]\n", "2:13: expected ',' or ']' in the subscript, found '1'"},
      {K + "    v = x[0\n    pass\n",
       "2:12: expected ',' or ']' in the subscript, found end of line | close the '[' at 2:10"},
      {K + "    v = ()\n", "2:10: expected an expression inside '()', found ')'"},
      {K + "    v = (a b)\n", "2:12: expected ')' to close the '(' at 2:9, found 'b'"},
      {K + "    v = (a, b c)\n", "2:15: expected ')' to close the '(' at 2:9, found 'c' | separate the elements with "
                                 "','"},
  });
}

TEST(TileDiagnostics, Limits) {
  const std::string split = " | split it into several assignments";
  expect_diags({
      {K + "    v = " + std::string(250, '(') + "x" + std::string(250, ')') + "\n",
       "2:209: expression is nested too deeply (more than 200 levels)" + split},
      {K + "    v = " + std::string(250, '-') + "x\n",
       "2:210: expression is too long or too deeply nested (more than 200 levels)" + split},
  });
  std::string sum = "x";
  for (int i = 0; i < 250; ++i) sum += " + x";
  std::string nots;
  for (int i = 0; i < 250; ++i) nots += "not ";
  expect_diags({
      {K + "    v = " + sum + "\n", "2:9: expression is too long or too deeply nested (more than 200 levels)" + split},
      {K + "    v = " + nots + "x\n",
       "2:813: expression is too long or too deeply nested (more than 200 levels)" + split},
  });
  // Nested blocks: the kernel body is one level, so the 100th loop's body is too deep.
  std::string loops = K;
  for (int i = 1; i <= 105; ++i) loops += std::string(4 * i, ' ') + "for a in b:\n";
  loops += std::string(4 * 106, ' ') + "pass\n";
  expect_diags({{loops, "102:405: blocks are nested too deeply (more than 100 levels) | flatten the loops"}});
}

TEST(TileDiagnostics, TooManyErrors) {
  std::string src = K;
  for (int i = 0; i < 80; ++i) src += "    v = )\n";
  auto r = run(src);
  EXPECT_EQ(r->diags.error_count(), kMaxErrors + 1);
  EXPECT_EQ(r->diags.all().back().message, "too many errors; stopping");
}

// One diagnostic per broken statement, and parsing goes on after each.
TEST(TileDiagnostics, Recovery) {
  auto r = run(
      "kernel k(x: f32[n]) -> (y: f32[n]):\n"
      "    a = exp(x\n"              // unclosed: ends at the 'for' line
      "    for r in tiles(n)\n"      // missing ':'
      "        b = (x + ) * 2\n"     // missing operand, inside the body of the broken loop
      "        store(y[r], a)\n"
      "    c = 1\n");
  EXPECT_FALSE(r->ok);
  EXPECT_EQ(summary(r->diags),
            "2:14: expected ',' or ')' in the call to 'exp', found end of line | close the '(' at 2:12\n"
            "3:22: expected ':' at the end of the 'for' line, found end of line | add ':' at the end of the line\n"
            "4:18: expected an expression, found ')'");
  ASSERT_EQ(r->program.body.size(), 1u);
  EXPECT_EQ(r->program.body[0]->target, "c");
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering

TEST(TileRender, CaretAndHint) {
  auto r = run(K + "    for r in tiles(n)\n        pass\n");
  EXPECT_EQ(r->diags.render(),
            "t.tile:2:22: error: expected ':' at the end of the 'for' line, found end of line\n"
            "    for r in tiles(n)\n"
            "                     ^\n"
            "hint: add ':' at the end of the line\n");
}

TEST(TileRender, Tildes) {
  auto r = run(K + "    x[0] = 1\n");
  EXPECT_EQ(r->diags.render(),
            "t.tile:2:5: error: cannot assign to 'x[0]'\n"
            "    x[0] = 1\n"
            "    ^~~~\n"
            "hint: values are immutable; write a tensor with store(y[i], v)\n");
}

TEST(TileRender, MultiLineRangeTabsSeveritiesAndOrder) {
  std::string src = "ab\tcd ef\nsecond line\n";
  Diags d("f.tile", &src);
  d.warning({{2, 1}, {2, 7}}, "later");
  d.error({{1, 5}, {2, 3}}, "spans two lines", "a hint");
  d.note({{1, 5}, {1, 6}}, "same place, reported after");
  d.error({}, "no position", "still a hint");
  EXPECT_EQ(d.render(),
            "f.tile: error: no position\n"
            "hint: still a hint\n"
            "f.tile:1:5: error: spans two lines\n"
            "ab\tcd ef\n"
            "  \t ^~~~\n"
            "hint: a hint\n"
            "f.tile:1:5: note: same place, reported after\n"
            "ab\tcd ef\n"
            "  \t ^\n"
            "f.tile:2:1: warning: later\n"
            "second line\n"
            "^~~~~~\n");
  EXPECT_TRUE(d.has_errors());
  EXPECT_EQ(d.error_count(), 2u);
}

TEST(TileRender, EdgesOfTheLine) {
  std::string src = "abc\n";
  Diags d("f.tile", &src);
  d.error({{1, 4}, {1, 4}}, "after the end");
  d.error({{1, 2}, {1, 99}}, "past the end");
  d.error({{7, 1}, {7, 2}}, "no such line");
  EXPECT_EQ(d.render(),
            "f.tile:1:2: error: past the end\n"
            "abc\n"
            " ^~\n"
            "f.tile:1:4: error: after the end\n"
            "abc\n"
            "   ^\n"
            "f.tile:7:1: error: no such line\n");
}

// A long line is shown as a window around the caret, so garbage input cannot make a report megabytes long.
TEST(TileRender, LongLineWindow) {
  std::string src = std::string(300, 'a') + "$" + std::string(300, 'b') + "\n";
  Diags d("f.tile", &src);
  d.error({{1, 301}, {1, 303}}, "here");
  EXPECT_EQ(d.render(), "f.tile:1:301: error: here\n..." + std::string(40, 'a') + "$" + std::string(119, 'b') +
                            "...\n" + std::string(43, ' ') + "^~\n");
  d = Diags("f.tile", &src);
  d.error({{1, 2}, {1, 3}}, "start");
  EXPECT_EQ(d.render(), "f.tile:1:2: error: start\n" + std::string(160, 'a') + "...\n ^\n");
}

TEST(TileRender, Color) {
  std::string src = "abc\n";
  Diags d("f.tile", &src);
  d.error({{1, 1}, {1, 3}}, "bad", "fix");
  EXPECT_EQ(d.render(true),
            "\033[1mf.tile:1:1:\033[0m \033[1;31merror:\033[0m \033[1mbad\033[0m\n"
            "abc\n"
            "\033[1;32m^~\033[0m\n"
            "\033[1;32mhint:\033[0m fix\n");
}

TEST(TileRender, Closest) {
  EXPECT_EQ(closest("sigmod", {"silu", "sigmoid", "sign"}), "sigmoid");
  EXPECT_EQ(closest("exq", {"exp", "log"}), "exp");
  EXPECT_EQ(closest("ab", {"xy"}), "");
  EXPECT_EQ(closest("zzzzzz", {"sigmoid"}), "");
  EXPECT_EQ(closest("x", {}), "");
  EXPECT_EQ(closest("mx", {"max", "min"}), "max");  // equally close: the first
}

// ---------------------------------------------------------------------------------------------------------------
// Robustness on hostile inputs (the fuzz test covers random ones)

TEST(TileParser, HugeInputs) {
  // 1 MB of '(' is the classic stack overflow of a recursive-descent parser; the rest are smaller to keep the test
  // fast under sanitizers (each costs time linear in its size, which the 1 MB case already shows).
  const size_t mb = 1 << 20, kb = 1 << 16;
  for (const std::string& src :
       {std::string(mb, '('), std::string(kb, '['), K + "    v = " + std::string(kb, '-') + "x\n",
        K + "    v = " + std::string(kb, '(') + "\n", K + "    v = " + std::string(kb, '1') + "x\n",
        std::string(mb, ' ') + "x", std::string(mb, '\n'), std::string(mb, '\0'), std::string(mb, '\xff'),
        std::string(kb, '"'), std::string(mb, '#')}) {
    auto r = run(src);
    EXPECT_FALSE(r->ok);
    EXPECT_LE(r->diags.error_count(), kMaxErrors + 1);
    EXPECT_FALSE(r->diags.render().empty());
  }
  // Deeply indented lines: each one a level deeper.
  std::string stairs = K;
  for (int i = 1; i < 1000; ++i) stairs += std::string(i, ' ') + "for a in b:\n";
  auto r = run(stairs);
  EXPECT_FALSE(r->ok);
  // A long name and many statements are fine.
  EXPECT_TRUE(run(K + "    v = " + std::string(kb, 'a') + "\n")->ok);
  std::string many = K;
  for (int i = 0; i < 5000; ++i) many += "    v = x + 1\n";
  auto m = run(many);
  EXPECT_TRUE(m->ok);
  EXPECT_EQ(m->program.body.size(), 5000u);
}

}  // namespace
}  // namespace kgen::tile
