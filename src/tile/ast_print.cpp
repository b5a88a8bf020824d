// Printing the syntax tree (ast.h): print_ast for tests and --dump-ast, print_expr for messages.
// print_expr writes the fewest parentheses the precedence needs, so that print_expr(parse(print_expr(e))) is
// print_expr(e): messages quote an expression the way a person would have written it.
#include <cmath>
#include <fmt/format.h>

#include "tile/ast.h"

namespace kgen::tile {
namespace {

// Binding strength, weakest first; the parser's precedence (parser.cpp) in the same order.
enum Prec : int {
  kOr = 1,
  kAnd,
  kNot,
  kCompare,
  kAdd,
  kMul,
  kUnary,
  kPower,
  kPostfix,
};

int binary_prec(const std::string& op) {
  if (op == "or") return kOr;
  if (op == "and") return kAnd;
  if (op == "+" || op == "-") return kAdd;
  if (op == "*" || op == "/" || op == "%") return kMul;
  if (op == "**") return kPower;
  return kCompare;  // < <= > >= == !=
}

int prec_of(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Binary: return binary_prec(e.text);
    case ExprKind::Unary: return e.text == "not" ? kNot : kUnary;
    default: return kPostfix;
  }
}

// The shortest text that reads back as the same number and the same int-ness: 2, 0.5, 1e-05, 2.0, inf.
std::string format_number(const Expr& e) {
  double v = e.number;
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  if (e.is_int) return fmt::format("{:.0f}", v);
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

void print(const Expr& e, int min_prec, std::string& out);

void print_list(const std::vector<ExprPtr>& items, size_t from, std::string& out) {
  for (size_t i = from; i < items.size(); ++i) {
    if (i > from) out += ", ";
    if (items[i]) print(*items[i], 0, out);
  }
}

// Prints e, in parentheses when it binds more weakly than its position (min_prec) requires.
void print(const Expr& e, int min_prec, std::string& out) {
  int prec = prec_of(e);
  bool parens = prec < min_prec;
  if (parens) out += '(';
  auto arg = [&](size_t i, int p) {
    if (i < e.args.size() && e.args[i]) print(*e.args[i], p, out);
  };
  switch (e.kind) {
    case ExprKind::Number:
      out += format_number(e);
      break;
    case ExprKind::Name:
      out += e.text;
      break;
    case ExprKind::Unary:
      out += e.text;
      if (e.text == "not") out += ' ';
      arg(0, prec);  // -(-a) prints as --a, which reads back the same
      break;
    case ExprKind::Binary:
      if (prec == kPower) {
        arg(0, kPostfix);  // (-a) ** b needs its parentheses; a ** -b does not
        out += " ** ";
        arg(1, kUnary);
      } else {
        // Left associative; comparisons do not chain, so both of their sides must bind tighter.
        arg(0, prec == kCompare ? prec + 1 : prec);
        out += fmt::format(" {} ", e.text);
        arg(1, prec + 1);
      }
      break;
    case ExprKind::Call:
      out += e.text;
      out += '(';
      print_list(e.args, 0, out);
      for (size_t i = 0; i < e.kwargs.size(); ++i) {
        if (i > 0 || !e.args.empty()) out += ", ";
        out += e.kwargs[i].first;
        out += '=';
        if (e.kwargs[i].second) print(*e.kwargs[i].second, 0, out);
      }
      out += ')';
      break;
    case ExprKind::Subscript:
      arg(0, kPostfix);
      out += '[';
      print_list(e.args, 1, out);
      out += ']';
      break;
    case ExprKind::Slice:
      out += ':';
      break;
    case ExprKind::SliceTo:
      out += ':';
      arg(0, 0);
      break;
    case ExprKind::Tuple:
      out += '(';
      print_list(e.args, 0, out);
      if (e.args.size() == 1) out += ',';
      out += ')';
      break;
  }
  if (parens) out += ')';
}

std::string at(Pos p) { return fmt::format("@{}:{}", p.line, p.col); }

std::string type_text(const TypeRef& t) {
  std::string s = t.dtype;
  if (!t.is_tensor) return s;
  s += '[';
  for (size_t i = 0; i < t.dims.size(); ++i) {
    if (i > 0) s += ", ";
    const Dim& d = t.dims[i];
    if (d.star) s += '*';
    s += d.name.empty() ? std::to_string(d.value) : d.name;
    if (!d.axis_attr.empty()) s += " @ " + d.axis_attr;
  }
  return s + ']';
}

// The docstring on one line: newlines and quotes escaped.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '"' || c == '\\') (out += '\\') += c;
    else out += c;
  }
  return out + '"';
}

const char* kind_name(ExprKind k) {
  switch (k) {
    case ExprKind::Number: return "Number";
    case ExprKind::Name: return "Name";
    case ExprKind::Unary: return "Unary";
    case ExprKind::Binary: return "Binary";
    case ExprKind::Call: return "Call";
    case ExprKind::Subscript: return "Subscript";
    case ExprKind::Slice: return "Slice";
    case ExprKind::SliceTo: return "SliceTo";
    case ExprKind::Tuple: return "Tuple";
  }
  return "Expr";
}

class AstPrinter {
 public:
  std::string out;

  void line(int depth, const std::string& text) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text;
    out += '\n';
  }

  void expr(const Expr& e, int depth) {
    std::string head = kind_name(e.kind);
    switch (e.kind) {
      case ExprKind::Number: head += ' ' + format_number(e); break;
      case ExprKind::Name:
      case ExprKind::Unary:
      case ExprKind::Binary:
      case ExprKind::Call: head += ' ' + e.text; break;
      default: break;
    }
    line(depth, head + ' ' + at(e.range.begin));
    for (const ExprPtr& a : e.args)
      if (a) expr(*a, depth + 1);
    for (size_t i = 0; i < e.kwargs.size(); ++i) {
      Pos p = i < e.kwarg_ranges.size() ? e.kwarg_ranges[i].begin : e.range.begin;
      line(depth + 1, fmt::format("Kwarg {} {}", e.kwargs[i].first, at(p)));
      if (e.kwargs[i].second) expr(*e.kwargs[i].second, depth + 2);
    }
  }

  void param(const char* what, const Param& p, int depth) {
    line(depth, fmt::format("{} {}: {} {}", what, p.name, type_text(p.type), at(p.name_range.begin)));
    if (p.default_value) expr(*p.default_value, depth + 1);
  }

  void stmt(const Stmt& s, int depth) {
    std::string head;
    switch (s.kind) {
      case StmtKind::Assign: head = "Assign " + s.target; break;
      case StmtKind::AugAssign: head = "AugAssign " + s.target + ' ' + s.op; break;
      case StmtKind::For: {
        head = "For";
        for (size_t i = 0; i < s.loop_vars.size(); ++i) head += (i ? ", " : " ") + s.loop_vars[i];
        break;
      }
      case StmtKind::Expr: head = "Expr"; break;
      case StmtKind::Pass: head = "Pass"; break;
    }
    line(depth, head + ' ' + at(s.range.begin));
    if (s.value) expr(*s.value, depth + 1);
    for (const StmtPtr& b : s.body)
      if (b) stmt(*b, depth + 1);
  }
};

}  // namespace

std::string print_expr(const Expr& e) {
  std::string out;
  print(e, 0, out);
  return out;
}

std::string print_ast(const Program& p) {
  AstPrinter pr;
  pr.line(0, fmt::format("Kernel {} {}", p.name, at(p.name_range.begin)));
  if (!p.doc.empty()) pr.line(1, "Doc " + quoted(p.doc));
  for (const Param& x : p.params) pr.param("Param", x, 1);
  for (const Param& x : p.outputs) pr.param("Output", x, 1);
  for (const DtypeDecl& d : p.dtypes) {
    std::string types;
    for (size_t i = 0; i < d.types.size(); ++i) types += (i ? ", " : "") + d.types[i];
    pr.line(1, fmt::format("Dtype {} in ({}) {}", d.var, types, at(d.range.begin)));
  }
  for (const StmtPtr& s : p.body)
    if (s) pr.stmt(*s, 1);
  return pr.out;
}

}  // namespace kgen::tile
