// check (row matmul programs): blocks(m) over whole rows of x, one `mma(x[blk, k], weight[k, n])` (or weight[n, k]),
// a chain of row operations (scale, + load(bias[n]), activations, softmax, one reduction over the row) into k.row_mm.
#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <set>

#include "tile/attention.h"
#include "tile/row_matmul.h"

namespace kgen::tile {
namespace {

const char* kShape =
    "for blk in blocks(m):\n        h = mma(x[blk, k], weight[n, k]) + load(bias[n])\n"
    "        store(y[blk, n], softmax(h))";
const char* kRowForms =
    "the rows take: * or / a scalar, + load(bias[n]), relu/sigmoid/tanh/exp/abs/gelu/gelu_tanh/silu, softmax(h), "
    "sum/max/mean/logsumexp(h, axis=1)";
const std::set<std::string> kActs = {"relu", "sigmoid", "tanh", "exp", "abs", "gelu", "gelu_tanh", "silu"};
const std::set<std::string> kReds = {"sum", "max", "mean", "logsumexp"};

int count_mma(const Expr& e) {
  int n = e.kind == ExprKind::Call && e.text == "mma";
  for (const ExprPtr& a : e.args)
    if (a) n += count_mma(*a);
  return n;
}

// axis=1 or axis=-1: along the row.
bool is_row_axis(const Expr& v) {
  if (v.kind == ExprKind::Number) return v.number == 1;
  return v.kind == ExprKind::Unary && v.text == "-" && v.args[0]->kind == ExprKind::Number && v.args[0]->number == 1;
}

class RowMmChecker {
 public:
  RowMmChecker(const Program& p, Kernel& k, Diags& d) : p_(p), k_(k), d_(d), rm_(std::make_shared<RowMatmul>()) {}

  void run() {
    k_.cube = true;
    const Stmt* loop = nullptr;
    for (const StmtPtr& s : p_.body) {
      if (s->kind == StmtKind::For && !loop) {
        loop = s.get();
        continue;
      }
      d_.error(s->range, loop ? "a statement after the blocks loop" : "a statement before the blocks loop",
               "a row matmul program is one blocks loop:\n    " + std::string(kShape));
    }
    if (loop && blocks(*loop)) body(*loop);
    if (!d_.has_errors()) k_.row_mm = rm_;
  }

 private:
  std::string sym_name(int s) const { return s >= 0 ? k_.syms[s].name : std::string("?"); }

  // for blk in blocks(m): the rows of x, in blocks chosen by the host.
  bool blocks(const Stmt& s) {
    const Expr* it = s.value.get();
    if (s.loop_vars.size() != 1) {
      d_.error(s.range, "a blocks loop has one loop variable", "for blk in blocks(m):");
      return false;
    }
    rm_->block_var = s.loop_vars[0];
    for (size_t i = 0; i < it->kwargs.size(); ++i)
      d_.error(it->kwarg_ranges[i], "blocks() has no option '" + it->kwargs[i].first + "'",
               "the block of rows is chosen by the host for the core count");
    if (it->args.size() != 1 || it->args[0]->kind != ExprKind::Name || sym_index(k_, it->args[0]->text) < 0) {
      d_.error(it->range, "blocks() of a row matmul program takes x's rows", "for blk in blocks(m):  (x: T[m, k])");
      return false;
    }
    rm_->m_sym = sym_index(k_, it->args[0]->text);
    blocks_range_ = it->range;
    return true;
  }

  void body(const Stmt& loop) {
    for (const StmtPtr& st : loop.body) {
      if (stored_) {
        d_.error(st->range, "a statement after the store", "the store of the rows ends the block");
        continue;
      }
      if (st->kind == StmtKind::Assign) {
        if (value(*st->value)) {
          names_.push_back(st->target);
          head_ = st->target;
        }
        continue;
      }
      if (st->kind == StmtKind::Expr && st->value->kind == ExprKind::Call && st->value->text == "store") {
        store(*st->value);
        continue;
      }
      d_.error(st->range, "a row matmul block is `name = ...` statements and one store", kShape);
    }
    if (!stored_ && !d_.has_errors())
      d_.error(loop.range, "the block is never stored", "end the block with store(y[blk, n], ...)");
  }

  // A value of the chain: the matmul, or one operation of the previous value.
  bool value(const Expr& e) {
    if (e.kind == ExprKind::Name) {
      if (e.text == head_ && !head_.empty()) return true;
      if (std::find(names_.begin(), names_.end(), e.text) != names_.end())
        d_.error(e.range, "'" + e.text + "' is an earlier value of the row chain",
                 "each row operation applies to the latest value, '" + head_ + "'");
      else d_.error(e.range, "unknown name '" + e.text + "'", head_.empty() ? kShape : "use '" + head_ + "'");
      return false;
    }
    if (e.kind == ExprKind::Call && e.text == "mma") return matmul(e);
    if (e.kind == ExprKind::Binary && (e.text == "*" || e.text == "/")) return scale(e);
    if (e.kind == ExprKind::Binary && e.text == "+") return add_row(e);
    if (e.kind == ExprKind::Call && kActs.count(e.text)) {
      if (e.args.size() != 1 || !e.kwargs.empty()) {
        d_.error(e.range, e.text + " takes one value", e.text + "(h)");
        return false;
      }
      if (!value(*e.args[0])) return false;
      push({RowOp::Act, e.text, "", -1, reduced_, print_expr(e)});
      return true;
    }
    if (e.kind == ExprKind::Call && (e.text == "softmax" || kReds.count(e.text))) return along_row(e);
    d_.error(e.range, "not an operation of the rows", kRowForms);
    return false;
  }
  void push(RowOp op) { rm_->ops.push_back(std::move(op)); }

  // h * SCALAR, SCALAR * h, h / SCALAR: the scalar is computed on the host.
  bool scale(const Expr& e) {
    const bool left_scalar = is_scalar(*e.args[0]);
    if (left_scalar && e.text == "/") {
      d_.error(e.range, "a scalar divided by the rows", "scale the rows: h / divisor or h * scale");
      return false;
    }
    const Expr& tile = left_scalar ? *e.args[1] : *e.args[0];
    const Expr& sc = left_scalar ? *e.args[0] : *e.args[1];
    if (!value(tile)) return false;
    std::string h;
    if (!host_scalar_expr(k_, sc, h, d_, "not a scale of the rows")) return false;
    push({RowOp::Scale, "", e.text == "/" ? "1.0 / (" + h + ")" : h, -1, reduced_, print_expr(e)});
    return true;
  }

  // h + load(bias[n]) (either order): a [n] input added down the rows.
  bool add_row(const Expr& e) {
    const char* hint = "h + load(bias[n])  (bias: T[n], n the weight's output dim)";
    auto is_load = [](const Expr& a) { return a.kind == ExprKind::Call && a.text == "load"; };
    const bool left = is_load(*e.args[0]);
    if (left == is_load(*e.args[1])) {
      d_.error(e.range, "the rows add a loaded row: h + load(bias[n])", hint);
      return false;
    }
    const Expr& ld = left ? *e.args[0] : *e.args[1];
    if (!value(left ? *e.args[1] : *e.args[0])) return false;
    if (reduced_) {
      d_.error(e.range, "a row added to the reduced column", "add the bias before the reduction");
      return false;
    }
    if (ld.args.size() != 1 || !ld.kwargs.empty() || ld.args[0]->kind != ExprKind::Subscript ||
        ld.args[0]->args.size() != 2) {
      d_.error(ld.range, "load takes one input indexed by its dim", hint);
      return false;
    }
    const Expr& sub = *ld.args[0];
    const int t = tensor_index(k_, sub.args[0]->text);
    const std::string n = sym_name(rm_->n_sym);
    if (t < 0 || k_.tensors[t].output || k_.tensors[t].dims.size() != 1 || k_.tensors[t].dims[0].name != n) {
      d_.error(sub.args[0]->range, "the loaded row is an input of dims [" + n + "]", hint);
      return false;
    }
    if (sub.args[1]->kind != ExprKind::Name || sub.args[1]->text != n) {
      d_.error(sub.args[1]->range, "the row is indexed by its dim '" + n + "'", hint);
      return false;
    }
    if (k_.tensors[t].optional)   // reported once; the chain goes on
      d_.error(k_.tensors[t].range, "a row matmul program takes no optional input yet", "bias: T[n]  (without = None)");
    const TypeOf& bt = k_.tensors[t].type;
    if (bt != k_.tensors[rm_->x].type && !(bt.var < 0 && bt.fixed == DType::F32))
      d_.error(k_.tensors[t].range, "the row has x's dtype or is f32", "bias: T[n]");
    push({RowOp::AddRow, "", "", t, false, print_expr(e)});
    return true;
  }

  // softmax(h) and the reductions sum / max / mean / logsumexp(h, axis=1): along the whole row.
  bool along_row(const Expr& e) {
    const bool soft = e.text == "softmax";
    const std::string hint = soft ? "softmax(h) or softmax(h, axis=1)" : e.text + "(h, axis=1)";
    if (e.args.size() != 1) {
      d_.error(e.range, e.text + " takes one value", hint);
      return false;
    }
    bool axis = false;
    for (size_t i = 0; i < e.kwargs.size(); ++i) {
      if (e.kwargs[i].first == "axis" && is_row_axis(*e.kwargs[i].second)) {
        axis = true;
        continue;
      }
      d_.error(e.kwarg_ranges[i], e.text + " after a matmul runs along the row only", hint);
      return false;
    }
    if (!soft && !axis) {
      d_.error(e.range, e.text + " of the rows needs axis=1 (along each row)", hint);
      return false;
    }
    if (!value(*e.args[0])) return false;
    if (reduced_) {
      d_.error(e.range, "the rows are already reduced to a column", "one reduction per row: " + hint);
      return false;
    }
    if (soft) push({RowOp::Softmax, "", "", -1, false, print_expr(e)});
    else push({RowOp::Reduce, e.text, "", -1, false, print_expr(e)});
    reduced_ = !soft;
    return true;
  }

  bool is_scalar(const Expr& e) const {
    if (e.kind == ExprKind::Number) return true;
    if (e.kind == ExprKind::Name)
      return tensor_index(k_, e.text) < 0 && std::find(names_.begin(), names_.end(), e.text) == names_.end() &&
             (sym_index(k_, e.text) >= 0 || std::any_of(k_.attrs.begin(), k_.attrs.end(), [&](const AttrArg& a) { return a.name == e.text; }));
    if (e.kind == ExprKind::Call) return (e.text == "sqrt" || e.text == "rsqrt" || e.text == "exp" || e.text == "log") &&
                                         e.args.size() == 1 && is_scalar(*e.args[0]);
    if (e.kind != ExprKind::Binary && e.kind != ExprKind::Unary) return false;
    for (const ExprPtr& a : e.args)
      if (!is_scalar(*a)) return false;
    return true;
  }

  // mma(x[blk, k], weight[k, n]) or mma(x[blk, k], weight[n, k]) (nn.Linear's weight, stored transposed).
  bool matmul(const Expr& e) {
    const char* hint = "mma(x[blk, k], weight[k, n])  or  mma(x[blk, k], weight[n, k])  (x: T[m, k])";
    if (rm_->x >= 0) {
      d_.error(e.range, "one matmul per block", "h = mma(x[blk, k], weight[n, k]) starts the chain");
      return false;
    }
    if (e.args.size() != 2 || !e.kwargs.empty()) {
      d_.error(e.range, "mma takes two operands", hint);
      return false;
    }
    for (const ExprPtr& a : e.args) {
      const int t = a->kind == ExprKind::Subscript ? tensor_index(k_, a->args[0]->text) : -1;
      if (t < 0 || k_.tensors[t].output || a->args.size() != 3 || k_.tensors[t].dims.size() != 2 ||
          a->args[1]->kind != ExprKind::Name || a->args[2]->kind != ExprKind::Name) {
        d_.error(a->range, "an operand is a 2-D input indexed by two names", hint);
        return false;
      }
    }
    const Expr &xs = *e.args[0], &ws = *e.args[1];
    const TensorArg &x = k_.tensors[tensor_index(k_, xs.args[0]->text)], &w = k_.tensors[tensor_index(k_, ws.args[0]->text)];
    if (xs.args[1]->text != rm_->block_var || x.dims[0].name != sym_name(rm_->m_sym)) {
      d_.error(xs.args[1]->range, "x is indexed by the block of its rows first: x[" + rm_->block_var + ", " +
                                      x.dims[1].name + "] with blocks(" + x.dims[0].name + ")", hint);
      return false;
    }
    const std::string kd = x.dims[1].name;
    if (xs.args[2]->text != kd) {
      d_.error(xs.args[2]->range, "index '" + xs.args[2]->text + "' at x's dim '" + kd + "'", hint);
      return false;
    }
    for (int i : {0, 1})
      if (ws.args[1 + i]->text != w.dims[i].name) {
        d_.error(ws.args[1 + i]->range, "index '" + ws.args[1 + i]->text + "' at dim '" + w.dims[i].name + "' of '" +
                                            w.name + "': operands are indexed in the order they are stored", hint);
        return false;
      }
    if (w.dims[0].name == kd) rm_->w_trans = false;
    else if (w.dims[1].name == kd) rm_->w_trans = true;
    else {
      d_.error(ws.range, "the weight has x's dim '" + kd + "'", hint);
      return false;
    }
    rm_->x = tensor_index(k_, x.name);
    rm_->w = tensor_index(k_, w.name);
    rm_->k_sym = sym_index(k_, kd);
    rm_->n_sym = sym_index(k_, w.dims[rm_->w_trans ? 0 : 1].name);
    rm_->mma_text = print_expr(e);
    // an f32 weight (a Parameter the task does not convert) with a half x: x's block is converted to f32 first
    rm_->x_to_f32 = x.type != w.type && w.type.var < 0 && w.type.fixed == DType::F32;
    if (x.type != w.type && !rm_->x_to_f32)
      d_.error(w.range, "the weight has x's dtype or is f32", "x: T[m, k], weight: T[n, k]  (or weight: f32[k, n])");
    const std::vector<DType> types = x.type.var >= 0 ? k_.dtype_vars[x.type.var].types : std::vector<DType>{x.type.fixed};
    for (DType t : types)
      if (t != DType::F32 && t != DType::F16 && t != DType::BF16)
        d_.error(x.range, std::string("the cube multiplies f32, f16 and bf16, not ") + dtype_name(t), "dtype T in (f32, f16, bf16)");
    return true;
  }

  // store(y[blk, n], rows) or, after a reduction, store(y[blk, 1], column).
  void store(const Expr& call) {
    stored_ = true;
    const char* hint = "store(y[blk, n], softmax(h))  or  store(y[blk, 1], sum(h, axis=1))";
    if (call.args.size() != 2 || call.args[0]->kind != ExprKind::Subscript || call.args[0]->args.size() != 3) {
      d_.error(call.range, "store takes the output indexed [blk, n] (or [blk, 1]) and the rows", hint);
      return;
    }
    if (!value(*call.args[1])) return;
    const Expr& sub = *call.args[0];
    const int yt = tensor_index(k_, sub.args[0]->text);
    if (yt < 0 || !k_.tensors[yt].output) {
      d_.error(sub.args[0]->range, "the block is stored into an output", hint);
      return;
    }
    const TensorArg& y = k_.tensors[yt];
    const std::string n = sym_name(rm_->n_sym), m = sym_name(rm_->m_sym);
    const std::string want = reduced_ ? "1" : n;
    const bool dims_ok = y.dims.size() == 2 && y.dims[0].name == m &&
                         (reduced_ ? y.dims[1].name.empty() && y.dims[1].value == 1 : y.dims[1].name == n);
    if (!dims_ok) {
      d_.error(y.range, fmt::format("'{}' is [{}, {}]: {}", y.name, m, want,
                                    reduced_ ? "one value per row after the reduction" : "x's rows, the weight's " + n),
               y.name + ": T[" + m + ", " + want + "]");
      return;
    }
    const Expr &i0 = *sub.args[1], &i1 = *sub.args[2];
    const bool col_ok = reduced_ ? i1.kind == ExprKind::Number && i1.number == 1 : i1.kind == ExprKind::Name && i1.text == n;
    if (i0.kind != ExprKind::Name || i0.text != rm_->block_var || !col_ok) {
      d_.error(sub.range, fmt::format("the output is indexed {}[{}, {}]", y.name, rm_->block_var, want), hint);
      return;
    }
    if (y.type != k_.tensors[rm_->x].type)
      d_.error(y.range, "the output has x's dtype", y.name + ": T[" + m + ", " + want + "]");
    rm_->y = yt;
    rm_->reduced = reduced_;
    rm_->store_text = print_expr(call);
  }

  const Program& p_;
  Kernel& k_;
  Diags& d_;
  std::shared_ptr<RowMatmul> rm_;
  Range blocks_range_;
  std::string head_;
  std::vector<std::string> names_;
  bool reduced_ = false, stored_ = false;
};
}  // namespace

bool is_row_matmul_program(const Program& p) {
  for (const StmtPtr& s : p.body) {
    if (s->kind != StmtKind::For || !s->value || s->value->kind != ExprKind::Call || s->value->text != "blocks") continue;
    int mmas = 0;
    for (const StmtPtr& b : s->body) {
      if (b->kind == StmtKind::For) return false;   // a K loop: a cube matmul program
      if (b->value) mmas += count_mma(*b->value);
    }
    // attention programs have two mma calls and blocks(*batch, s): a broken one stays attention for its diagnostics
    return mmas == 1 && s->value->args.size() == 1;
  }
  return false;
}

void check_row_matmul(const Program& p, Kernel& k, Diags& d) { RowMmChecker(p, k, d).run(); }

std::string print_row_matmul(const Kernel& k) {
  const RowMatmul& r = *k.row_mm;
  auto tn = [&](int t) { return t >= 0 ? k.tensors[t].name : std::string("?"); };
  auto sn = [&](int s) { return s >= 0 ? k.syms[s].name : std::string("-"); };
  std::string o = fmt::format("row matmul kernel {} ({})\n", k.name, k.op_type);
  o += fmt::format("  blocks: {} over rows {}, k {}, n {}\n", r.block_var, sn(r.m_sym), sn(r.k_sym), sn(r.n_sym));
  o += fmt::format("  cube: H = {} @ {}{} -> f32 workspace\n", tn(r.x), tn(r.w), r.w_trans ? "^T" : "");
  for (const RowOp& op : r.ops) {
    const char* names[] = {"scale", "add_row", "act", "softmax", "reduce"};
    o += fmt::format("  vector{}: {}{}{}{}  # {}\n", op.column ? " (column)" : "", names[op.kind],
                     op.fn.empty() ? "" : " " + op.fn, op.host_expr.empty() ? "" : " " + op.host_expr,
                     op.tensor >= 0 ? " " + tn(op.tensor) : "", op.text);
  }
  o += fmt::format("  store: {} [{}, {}]\n", tn(r.y), sn(r.m_sym), r.reduced ? "1" : sn(r.n_sym));
  return o;
}
}  // namespace kgen::tile
