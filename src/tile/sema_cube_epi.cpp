// check (cube epilogues): the elementwise statements between a cube program's K loop and its store, lowered to
// CubeEpiOp on float32 base blocks in UB (scalars are attrs and literals; a [n] input is a row added down the block).
#include <cmath>
#include <fmt/format.h>

#include "tile/cube.h"

namespace kgen::tile {
namespace {

// A value of the epilogue: a block (the accumulator's shape), a row ([n] broadcast down the rows) or a scalar.
struct EpiVal {
  char kind = 0;      // 'B' block, 'R' row, 'S' scalar, 0 = error
  int id = -1;        // B, R
  std::string s;      // S: a C++ float expression
};

std::string float_literal(double v) {
  if (std::isinf(v)) return v > 0 ? "ktInf" : "(-ktInf)";
  std::string t = fmt::format("{}", v);
  if (t.find_first_of(".e") == std::string::npos) t += ".0";
  return t + "f";
}

const char* kUnary[] = {"relu", "sigmoid", "tanh", "exp", "abs", "gelu", "gelu_tanh", "silu"};

class EpiLowering {
 public:
  EpiLowering(Kernel& k, Diags& d) : k_(k), d_(d), mm_(k.mm) {
    mm_.epi.clear();
    mm_.epi_row.assign(1, false);   // value 0: the accumulator
    env_[mm_.acc] = {'B', 0, ""};
  }

  void assign(const Stmt& s) {
    if (s.target == mm_.acc) {
      d_.error(s.target_range, "the epilogue does not reassign the accumulator '" + mm_.acc + "'",
               "name the new value: h = " + (s.value ? print_expr(*s.value) : std::string("...")));
      return;
    }
    EpiVal v = lower(*s.value);
    if (v.kind) env_[s.target] = v;
  }

  // The stored value: a block.
  void result(const Expr& e) {
    EpiVal v = lower(e);
    if (!v.kind) return;
    if (v.kind != 'B') {
      d_.error(e.range, v.kind == 'S'   ? "the store writes a scalar, not a block"
                             : v.kind == 'R' ? "the store writes a [n] row, not a block"
                                             : "the store writes a [m] column, not a block",
               "store a value computed from the accumulator: store(c[" + mm_.block_var + "], relu(" + mm_.acc + " + b))");
      return;
    }
    mm_.epi_result = v.id;
  }

 private:
  int fresh(bool row) {
    mm_.epi_row.push_back(row);
    return static_cast<int>(mm_.epi_row.size()) - 1;
  }
  EpiVal emit(CubeEpiOp op, bool row, const Expr& e) {
    op.dst = fresh(row);
    op.text = print_expr(e);
    mm_.epi.push_back(op);
    return {row ? 'R' : 'B', op.dst, ""};
  }

  EpiVal name(const Expr& e) {
    auto it = env_.find(e.text);
    if (it != env_.end()) return it->second;
    for (const AttrArg& a : k_.attrs)
      if (a.name == e.text) return {'S', -1, "attr_" + a.name + "_"};
    std::vector<std::string> names;
    for (const auto& [n, v] : env_) names.push_back(n);
    for (const AttrArg& a : k_.attrs) names.push_back(a.name);
    std::string c = closest(e.text, names);
    d_.error(e.range, "'" + e.text + "' is not a value of the epilogue",
             c.empty() ? "the epilogue reads the accumulator, its own values, attrs and load(x[" + mm_.block_var + "])"
                       : "did you mean '" + c + "'?");
    return {};
  }

  // load(x[blk]): x has the output's dims (a block of it) or is a [n] vector (a row, broadcast down the block).
  EpiVal load(const Expr& e) {
    const Expr* ix = e.args.empty() ? nullptr : e.args[0].get();
    if (e.args.size() != 1 || !e.kwargs.empty() || ix->kind != ExprKind::Subscript || ix->args.size() != 2 ||
        ix->args[0]->kind != ExprKind::Name || ix->args[1]->kind != ExprKind::Name ||
        ix->args[1]->text != mm_.block_var) {
      d_.error(e.range, "an epilogue loads the block's part of an input", "load(bias[" + mm_.block_var + "])");
      return {};
    }
    int ti = -1;
    for (size_t i = 0; i < k_.tensors.size(); ++i)
      if (k_.tensors[i].name == ix->args[0]->text && !k_.tensors[i].output) ti = static_cast<int>(i);
    if (ti < 0) {
      d_.error(ix->args[0]->range, "'" + ix->args[0]->text + "' is not an input", "load an input tensor");
      return {};
    }
    const TensorArg& t = k_.tensors[ti];
    const TensorArg& c = k_.tensors[mm_.c];
    const std::string nname = mm_.n_sym >= 0 ? k_.syms[mm_.n_sym].name : "";
    bool same = t.dims.size() == c.dims.size();
    for (size_t i = 0; same && i < t.dims.size(); ++i) same = t.dims[i].name == c.dims[i].name && !t.dims[i].name.empty();
    const bool row = !nname.empty() && t.dims.size() == 1 && t.dims[0].name == nname;
    // a [m] vector: one value per output row (a conv's per-channel bias), broadcast along each row of the block
    const bool col = !row && mm_.m_sym >= 0 && t.dims.size() == 1 && t.dims[0].name == k_.syms[mm_.m_sym].name;
    if (col) {
      CubeEpiOp op;
      op.op = "load_col";
      op.tensor = ti;
      EpiVal v = emit(op, true, e);
      v.kind = 'C';
      return v;
    }
    if (!same && !row) {
      d_.error(t.range, "'" + t.name + "' is neither a [" + nname + "] row nor of the output's shape",
               t.name + ": T[" + nname + "] (a bias added down the rows) or the dims of '" + c.name + "'");
      return {};
    }
    if (ti == mm_.a || ti == mm_.b)
      d_.error(ix->args[0]->range, "'" + t.name + "' is an operand of mma", "the epilogue loads other inputs");
    CubeEpiOp op;
    op.op = row ? "load_row" : "load_block";
    op.tensor = ti;
    return emit(op, row, e);
  }

  // block OP column (a [m] input broadcast along the rows): kt::RowAdd ... on the block's rows.
  EpiVal column_op(const std::string& fn, EpiVal a, EpiVal b, const Expr& e) {
    const bool comm = fn == "add" || fn == "mul" || fn == "max" || fn == "min";
    if (a.kind == 'C' && b.kind == 'B' && comm) std::swap(a, b);
    if (a.kind != 'B' || b.kind != 'C') {
      d_.error(e.range, "a [m] column combines only with the block, written first for - and /",
               "acc + load(bias[" + mm_.block_var + "])");
      return {};
    }
    CubeEpiOp op;
    op.op = "bin_col", op.fn = fn, op.a = a.id, op.b = b.id;
    return emit(op, false, e);
  }

  EpiVal binary(const std::string& fn, EpiVal a, EpiVal b, const Expr& e) {
    const bool comm = fn == "add" || fn == "mul" || fn == "max" || fn == "min";
    if (a.kind == 'S' && b.kind == 'S') {
      if (fn == "max" || fn == "min") return {'S', -1, fmt::format("({} {} {} ? {} : {})", a.s, fn == "max" ? ">" : "<", b.s, a.s, b.s)};
      const char* op = fn == "add" ? "+" : fn == "sub" ? "-" : fn == "mul" ? "*" : "/";
      return {'S', -1, fmt::format("({} {} {})", a.s, op, b.s)};
    }
    if (a.kind == 'C' || b.kind == 'C') return column_op(fn, a, b, e);
    if (a.kind == 'R' && b.kind != 'B') {
      d_.error(e.range, "a [n] row combines only with the block", "add it to the block: acc + load(bias[blk])");
      return {};
    }
    if (b.kind == 'R' && a.kind != 'B') {
      d_.error(e.range, "a [n] row combines only with the block", "add it to the block: acc + load(bias[blk])");
      return {};
    }
    CubeEpiOp op;
    op.fn = fn;
    if (a.kind == 'B' && b.kind == 'B') {
      op.op = "bin", op.a = a.id, op.b = b.id;
    } else if (a.kind == 'B' && b.kind == 'R') {
      op.op = "bin_row", op.a = a.id, op.b = b.id;
    } else if (a.kind == 'R' && b.kind == 'B') {
      if (!comm) {
        d_.error(e.range, "a [n] row minus or over the block is not in this version",
                 "write the block first: (acc - bias) * -1, or acc + bias");
        return {};
      }
      op.op = "bin_row", op.a = b.id, op.b = a.id;
    } else if (a.kind == 'B') {   // block op scalar
      op.op = "scalar", op.a = a.id;
      op.scalar = b.s;
      if (fn == "sub") op.fn = "add", op.scalar = "(-" + b.s + ")";
      if (fn == "div") op.fn = "mul", op.scalar = "(1.0f / " + b.s + ")";
    } else {                      // scalar op block
      op.op = "scalar", op.a = b.id;
      op.scalar = a.s;
      if (fn == "sub") op.fn = "rsub";
      if (fn == "div") op.fn = "rdiv";
    }
    return emit(op, false, e);
  }

  // tril(h) / triu(h): the block with the elements above (below) the output matrix's diagonal set to zero, by the
  // elements' row and column in the matrix (torch.tril / torch.triu with diagonal 0).
  EpiVal triangle(const Expr& e) {
    if (e.args.size() != 1 || !e.kwargs.empty()) {
      d_.error(e.range, e.text + "() of the epilogue takes one block", e.text + "(" + mm_.acc + ")  (the main diagonal)");
      return {};
    }
    EpiVal a = lower(*e.args[0]);
    if (!a.kind) return {};
    if (a.kind != 'B' || mm_.vec_b) {
      d_.error(e.args[0]->range, e.text + "() masks a block of the output matrix by row and column",
               e.text + "(" + mm_.acc + ")  in blocks(m, n)");
      return {};
    }
    CubeEpiOp op;
    op.op = "tri", op.fn = e.text, op.a = a.id;
    return emit(op, false, e);
  }

  EpiVal call(const Expr& e) {
    const std::string& f = e.text;
    if (f == "load") return load(e);
    for (const char* u : kUnary)
      if (f == u) {
        if (e.args.size() != 1 || !e.kwargs.empty()) {
          d_.error(e.range, f + "() takes one value", f + "(h)");
          return {};
        }
        EpiVal a = lower(*e.args[0]);
        if (!a.kind) return {};
        if (a.kind != 'B') {
          d_.error(e.args[0]->range, f + "() of the epilogue applies to a block", f + "(" + mm_.acc + " + b)");
          return {};
        }
        CubeEpiOp op;
        op.op = "unary", op.fn = f, op.a = a.id;
        return emit(op, false, e);
      }
    if (f == "min" || f == "max") {
      if (e.args.size() != 2 || !e.kwargs.empty()) {
        d_.error(e.range, f + "() of the epilogue takes two values", f + "(h, 0.5)  (elementwise)");
        return {};
      }
      EpiVal a = lower(*e.args[0]), b = lower(*e.args[1]);
      if (!a.kind || !b.kind) return {};
      return binary(f, a, b, e);
    }
    if (f == "clamp") {
      if (e.args.size() != 3 || !e.kwargs.empty()) {
        d_.error(e.range, "clamp() takes a value and two bounds", "clamp(h, lo, hi)");
        return {};
      }
      EpiVal v = lower(*e.args[0]), lo = lower(*e.args[1]), hi = lower(*e.args[2]);
      if (!v.kind || !lo.kind || !hi.kind) return {};
      if (v.kind != 'B' || lo.kind != 'S' || hi.kind != 'S') {
        d_.error(e.range, "clamp() of the epilogue bounds a block by two scalars", "clamp(h, lo, hi) with attrs or numbers");
        return {};
      }
      CubeEpiOp op;
      op.op = "clamp", op.a = v.id, op.scalar = lo.s, op.scalar2 = hi.s;
      return emit(op, false, e);
    }
    if (f == "tril" || f == "triu") return triangle(e);
    static const std::vector<std::string> fns = {"min",  "max",  "clamp", "relu",      "sigmoid", "tanh", "exp",
                                                 "abs",  "gelu", "gelu_tanh", "silu", "tril",    "triu", "load"};
    const std::string c = closest(f, fns);
    d_.error(e.range, "'" + f + "' is not an epilogue function",
             (c.empty() ? std::string() : "did you mean '" + c + "'? ") +
                 "the epilogue has + - * /, min, max, clamp, relu, sigmoid, tanh, exp, abs, gelu, gelu_tanh, silu, tril, "
                 "triu, load");
    return {};
  }

  EpiVal lower(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Number: return {'S', -1, float_literal(e.number)};
      case ExprKind::Name: return name(e);
      case ExprKind::Call: return call(e);
      case ExprKind::Unary: {
        if (e.text != "-" || e.args.size() != 1) break;
        EpiVal a = lower(*e.args[0]);
        if (!a.kind) return {};
        if (a.kind == 'S') return {'S', -1, "(-" + a.s + ")"};
        return binary("mul", a, {'S', -1, "-1.0f"}, e);
      }
      case ExprKind::Binary: {
        static const std::map<std::string, std::string> ops = {{"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}};
        auto it = ops.find(e.text);
        if (it == ops.end() || e.args.size() != 2) break;
        EpiVal a = lower(*e.args[0]), b = lower(*e.args[1]);
        if (!a.kind || !b.kind) return {};
        return binary(it->second, a, b, e);
      }
      default: break;
    }
    d_.error(e.range, "this expression is not in a cube epilogue",
             "the epilogue is elementwise: + - * /, min, max, clamp and activations of the block, attrs, numbers");
    return {};
  }

  Kernel& k_;
  Diags& d_;
  CubeMatmul& mm_;
  std::map<std::string, EpiVal> env_;
};
}  // namespace

void check_cube_epilogue(const std::vector<const Stmt*>& assigns, const Expr& stored, Kernel& k, Diags& d) {
  EpiLowering l(k, d);
  for (const Stmt* s : assigns) l.assign(*s);
  l.result(stored);
}
}  // namespace kgen::tile
