// The tile language's syntax tree: plain structs with source ranges, as the parser (parser.h) builds it from a .tile
// file. Nothing here is checked yet: names, dtypes and shapes are resolved by the semantic checks (sema.h).
// Grammar and meaning: docs/tile-language.md.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kgen::tile {

struct Pos {                 // 1-based line and column (columns count bytes; tabs are one column)
  int line = 0, col = 0;
};
struct Range {               // [begin, end): end is one past the last character
  Pos begin, end;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class ExprKind {
  Number,      // 2, 0.5, 1e-5, inf            -> number, is_int
  Name,        // x, v, n, f32                  -> text
  Unary,       // -a, not a                     -> text = "-" / "not", args = {a}
  Binary,      // a + b, a < b, a and b         -> text = "+", "-", "*", "/", "**", "<", "<=", ">", ">=", "==", "!=", "and", "or"
  Call,        // f(a, b, axis=1)               -> text = function name, args, kwargs
  Subscript,   // x[t], x[r, :], conv(..)[:, :, :l] -> args = {base (a Name, or a call: a crop), index...}
  Slice,       // ':' inside a subscript (the whole axis)
  SliceTo,     // ':END' inside a subscript (the first END elements of the axis: a crop) -> args = {END}
  Tuple,       // (a, b) or a, b in a for target / tile sizes  -> args
};

struct Expr {
  ExprKind kind = ExprKind::Name;
  Range range;
  std::string text;
  double number = 0;
  bool is_int = false;                                  // a Number written without '.', 'e' or 'inf'
  std::vector<ExprPtr> args;
  std::vector<std::pair<std::string, ExprPtr>> kwargs;  // Call only, in source order
  std::vector<Range> kwarg_ranges;                      // range of each keyword's name
};

// `T[*m, n]`, `f32[n]`, `f32` (an attr), `i32`: a dtype (or dtype variable) and, for a tensor, its dims.
struct Dim {
  std::string name;          // symbolic size; empty for a literal
  int64_t value = -1;        // literal size (e.g. 1 in [m, 1]); -1 when symbolic
  bool star = false;         // *m: any number of dims, m their product (at most one per tensor, or one each side
                             // of an axis marker)
  std::string axis_attr;     // `r @ dim`: this dim is the input's dim number `dim` (an i32 attr) of any rank
  Range axis_range;          // of the attr's name
  Range range;
};
struct TypeRef {
  std::string dtype;         // "f32", "f16", "bf16", "i32", "i8", "u8", "bool", or a dtype variable ("T")
  Range dtype_range;
  bool is_tensor = false;    // written with [...]
  std::vector<Dim> dims;
  Range range;
};

// A kernel parameter (tensor input or scalar attr) or output.
struct Param {
  std::string name;
  Range name_range;
  TypeRef type;
  ExprPtr default_value;     // attrs only: `eps: f32 = 1e-5`
  Range range;
};

// `dtype T in (f32, f16, bf16)`
struct DtypeDecl {
  std::string var;
  Range var_range;
  std::vector<std::string> types;
  std::vector<Range> type_ranges;
  Range range;
  // `dtype U = T(i32 -> i64)`: a mapped variable, one column per column of T; `keys` are T's types that map to
  // `types` (the others map to themselves).
  std::string base;
  Range base_range;
  std::vector<std::string> keys;
  std::vector<Range> key_ranges;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
enum class StmtKind {
  Assign,      // v = EXPR                   -> target, value
  AugAssign,   // acc += EXPR                -> target, op ("+=", "-=", "*=", "/=", "max=", ...)  value
  For,         // for r in tiles(m, ...):    -> loop_vars, value (the iterator expression), body
  Expr,        // store(y[t], v)             -> value
  Pass,        // pass
};
struct Stmt {
  StmtKind kind = StmtKind::Expr;
  Range range;
  std::string target, op;
  Range target_range;
  std::vector<std::string> loop_vars;
  std::vector<Range> loop_var_ranges;
  ExprPtr value;
  std::vector<StmtPtr> body;
};

struct Program {
  std::string file;           // as given (diagnostics print it)
  std::string source;         // the whole text (diagnostics quote lines of it)
  std::string doc;            // the module docstring, without quotes ("" if none)
  std::string name;           // kernel name as written: leaky_relu
  Range name_range;
  std::vector<Param> params;  // inputs (tensors) and attrs (scalars), in order
  std::vector<Param> outputs;
  std::vector<DtypeDecl> dtypes;
  std::vector<StmtPtr> body;  // statements after the dtype declarations
  Range header_range;
};

// The tree as indented text (tests, `kgen tile check --dump-ast`): one node per line, ranges as line:col.
std::string print_ast(const Program& p);
std::string print_expr(const Expr& e);   // back to source form: "exp(v - max(v, axis=1))"
}  // namespace kgen::tile
