// check (index programs): the body of a program that stores a gather or a scatter driven by an integer index
// tensor, read into k.ix. One `for r in tiles(E)` loop whose body is one store of one index operation.
#include <fmt/format.h>

#include "tile/index.h"

namespace kgen::tile {
namespace {

const char* const kIndexFns[] = {"gather", "scatter", "scatter_add", "index_add", "argmax", "argmin"};

bool is_index_fn(const std::string& f) {
  for (const char* n : kIndexFns)
    if (f == n) return true;
  return false;
}

// `x[load(index[r]), :]`: rows of x picked by an index column.
bool is_take_rows(const Expr& e) {
  return e.kind == ExprKind::Subscript && e.args.size() == 3 && e.args[1]->kind == ExprKind::Call &&
         e.args[1]->text == "load";
}

// Whether `e` (a stored value) contains an index operation anywhere.
bool has_index_op(const Expr& e) {
  if ((e.kind == ExprKind::Call && is_index_fn(e.text)) || is_take_rows(e)) return true;
  for (const ExprPtr& a : e.args)
    if (a && has_index_op(*a)) return true;
  for (const auto& [name, a] : e.kwargs)
    if (a && has_index_op(*a)) return true;
  return false;
}

class IndexChecker {
 public:
  IndexChecker(const Program& p, Kernel& k, Diags& d) : p_(p), k_(k), d_(d) {}

  void run() {
    k_.index = true;
    const Stmt* loop = nullptr;
    for (const StmtPtr& s : p_.body) {
      if (s->kind == StmtKind::Pass) continue;
      if (s->kind == StmtKind::For && !loop) loop = s.get();
      else d_.error(s->range, "an index program is one `for r in tiles(E):` loop with one store",
                    "gathers and scatters are whole statements: store(y[r, :], gather(load(x[r, :]), load(index[r, :])))");
    }
    if (!loop) {
      d_.error(p_.header_range, "the index program has no loop", "for r in tiles(m):");
      return;
    }
    if (!loop->value || loop->value->kind != ExprKind::Call || loop->value->text != "tiles" || loop->loop_vars.size() != 1) {
      d_.error(loop->value ? loop->value->range : loop->range, "an index program loops with `for r in tiles(E)`",
               "E is the dim of the rows the program writes (the index's rows, or the output's for index_add)");
      return;
    }
    k_.ix.loop_var = loop->loop_vars[0];
    const Stmt* store = nullptr;
    for (const StmtPtr& s : loop->body) {
      if (s->kind == StmtKind::Pass) continue;
      if (!store && s->kind == StmtKind::Expr && s->value && s->value->kind == ExprKind::Call && s->value->text == "store")
        store = s.get();
      else d_.error(s->range, "the loop of an index program is one store", "store(y[r, :], gather(...))");
    }
    if (!store) return;
    const Expr& st = *store->value;
    if (st.args.size() != 2) {
      d_.error(st.range, "store takes a destination and a value", "store(y[r, :], gather(...))");
      return;
    }
    k_.ix.text = print_expr(*st.args[1]);
    if (st.args[1]->kind == ExprKind::Call && (st.args[1]->text == "argmax" || st.args[1]->text == "argmin")) {
      arg_reduce(*st.args[0], *st.args[1]);
      return;
    }
    k_.ix.y = row_of(*st.args[0], true, "the destination");
    operation(*st.args[1]);
    types(*st.args[1]);
    for (size_t i = 0; i < k_.attrs.size(); ++i)
      if (k_.attrs[i].name == "dim") k_.ix.dim_attr = static_cast<int>(i);
  }

 private:
  // The stored value: one of the index operations, its operands loads of the loop's rows.
  void operation(const Expr& e) {
    if (is_take_rows(e) || (e.kind == ExprKind::Call && e.text == "load" && e.args.size() == 1 && is_take_rows(*e.args[0]))) {
      const Expr& sub = e.kind == ExprKind::Subscript ? e : *e.args[0];
      k_.ix.kind = "take_rows";
      k_.ix.x = tensor(*sub.args[0], "the table rows are taken from");
      if (sub.args[2]->kind != ExprKind::Slice)
        d_.error(sub.args[2]->range, "rows are taken whole", "x[load(index[r]), :]");
      const Expr& ld = *sub.args[1];
      if (ld.args.size() != 1 || ld.args[0]->kind != ExprKind::Subscript || ld.args[0]->args.size() != 2 ||
          !is_loop_var(*ld.args[0]->args[1])) {
        d_.error(ld.range, "the row numbers are the index tensor's elements of the loop's rows", "x[load(index[r]), :]");
        return;
      }
      k_.ix.index = tensor(*ld.args[0]->args[0], "the index");
      return;
    }
    if (e.kind != ExprKind::Call || !is_index_fn(e.text)) {
      d_.error(e.range, "an index program stores one index operation",
               "x[load(index[r]), :], gather(row, idx), scatter(row, idx, src), scatter_add(row, idx, src) or "
               "index_add(row, index, src, alpha)");
      return;
    }
    k_.ix.kind = e.text;
    const size_t want = e.text == "gather" ? 2 : 3;
    if (e.args.size() != want && !(e.text == "index_add" && e.args.size() == 4)) {
      d_.error(e.range, fmt::format("{} takes {} operands, not {}", e.text, e.text == "index_add" ? "3 or 4" : std::to_string(want),
                                    e.args.size()),
               e.text == "gather"      ? "gather(load(x[r, :]), load(index[r, :]))"
               : e.text == "index_add" ? "index_add(load(x[r, :]), index, src, alpha)"
                                       : e.text + "(load(x[r, :]), load(index[r, :]), load(src[r, :]))");
      return;
    }
    k_.ix.x = row_of(*e.args[0], false, "the first operand");
    if (e.text == "index_add") {   // the index and the source rows are read whole: any row may land in any block
      k_.ix.index = tensor(*e.args[1], "the index");
      k_.ix.src = tensor(*e.args[2], "the source rows");
      if (e.args.size() == 4) k_.ix.alpha = scalar(*e.args[3]);
      return;
    }
    k_.ix.index = row_of(*e.args[1], false, "the index");
    if (want == 3) k_.ix.src = row_of(*e.args[2], false, "the source");
  }

  // `store(y[c], argmax(load(x[:, c]), axis=0))` over an axis view x: T[*outer, r @ dim, *inner]: the index of the
  // first extreme along the axis, an i64 output.
  void arg_reduce(const Expr& dest, const Expr& e) {
    k_.ix.kind = e.text;
    if (e.args.size() != 1 || e.args[0]->kind != ExprKind::Call || e.args[0]->text != "load" ||
        e.args[0]->args.size() != 1 || e.args[0]->args[0]->kind != ExprKind::Subscript ||
        e.args[0]->args[0]->args.size() != 3 || e.args[0]->args[0]->args[1]->kind != ExprKind::Slice ||
        !is_loop_var(*e.args[0]->args[0]->args[2])) {
      d_.error(e.range, e.text + " takes the slab of an axis view", e.text + "(load(x[:, " + k_.ix.loop_var + "]), axis=0)");
      return;
    }
    for (const auto& [name, v] : e.kwargs)
      if (name != "axis" || v->kind != ExprKind::Number || v->number != 0)
        d_.error(v->range, e.text + " reduces the slab along its axis r", "axis=0");
    k_.ix.x = tensor(*e.args[0]->args[0]->args[0], "the reduced tensor");
    if (dest.kind != ExprKind::Subscript || dest.args.size() != 2 || !is_loop_var(*dest.args[1])) {
      d_.error(dest.range, "the indices are stored at the loop's positions", "store(y[" + k_.ix.loop_var + "], ...)");
      return;
    }
    k_.ix.y = tensor(*dest.args[0], "the destination", true);
    if (k_.ix.x >= 0 && k_.axis_attr < 0) {
      bool axis = false;
      for (const Dim& d : k_.tensors[k_.ix.x].dims) axis |= !d.axis_attr.empty();
      if (!axis) d_.error(e.args[0]->range, e.text + " needs an axis view", "x: T[*outer, r @ dim, *inner]");
    }
    for (size_t i = 0; i < k_.attrs.size(); ++i)
      if (k_.attrs[i].name == "dim") k_.ix.dim_attr = static_cast<int>(i);
    if (k_.ix.x >= 0)
      for (const Dim& d : k_.tensors[k_.ix.x].dims)
        for (size_t i = 0; i < k_.attrs.size(); ++i)
          if (!d.axis_attr.empty() && k_.attrs[i].name == d.axis_attr) k_.ix.dim_attr = static_cast<int>(i);
    if (k_.ix.y >= 0 && !(k_.tensors[k_.ix.y].type.var < 0 && k_.tensors[k_.ix.y].type.fixed == DType::I64))
      d_.error(dest.range, e.text + " stores int64 indices, as torch", "declare the output y: i64[*outer, *inner]");
    if (k_.ix.x >= 0)
      for (DType d : each(k_.tensors[k_.ix.x].type))
        if (d == DType::I64 || dtype_size(d) == 1)
          d_.error(e.range, fmt::format("{} compares f32, f16, bf16 or i32 values, not {}", e.text, dtype_name(d)),
                   "dtype T in (f32, f16, bf16, i32)");
  }

  // Dtypes: integer indices, one value type for x, src and y.
  void types(const Expr& e) {
    auto integer = [&](TypeOf t) {
      for (DType d : each(t))
        if (d != DType::I64 && d != DType::I32) return false;
      return true;
    };
    if (k_.ix.index >= 0 && !integer(k_.tensors[k_.ix.index].type))
      d_.error(e.range, "the index '" + k_.tensors[k_.ix.index].name + "' is not an integer tensor",
               "declare it i64 (torch's indices) or i32, or a dtype variable of those");
    for (int t : {k_.ix.src, k_.ix.y})
      if (t >= 0 && k_.ix.x >= 0 && !(k_.tensors[t].type == k_.tensors[k_.ix.x].type))
        d_.error(e.range, "'" + k_.tensors[t].name + "' and '" + k_.tensors[k_.ix.x].name + "' differ in dtype",
                 "gathers and scatters move values: type both with the same dtype variable");
    if (k_.ix.x >= 0)
      for (DType d : each(k_.tensors[k_.ix.x].type)) {
        if (d == DType::I64 || dtype_size(d) == 1)
          d_.error(e.range, fmt::format("index programs move 2- and 4-byte values, not {}", dtype_name(d)),
                   "values are f32, f16, bf16 or i32");
        if (k_.ix.kind == "index_add" && d == DType::I32)
          d_.error(e.range, "index_add sums in float32: i32 values are refused", "values are f32, f16 or bf16");
      }
  }

  // `name[r, :]` (or `load(name[r, :])` when !dest): a row block of a tensor.
  int row_of(const Expr& e, bool dest, const std::string& what) {
    const Expr* s = &e;
    if (!dest) {
      if (e.kind != ExprKind::Call || e.text != "load" || e.args.size() != 1) {
        d_.error(e.range, what + " is a load of the loop's rows", "load(x[" + k_.ix.loop_var + ", :])");
        return -1;
      }
      s = e.args[0].get();
    }
    if (s->kind != ExprKind::Subscript || s->args.size() != 3 || !is_loop_var(*s->args[1]) ||
        s->args[2]->kind != ExprKind::Slice) {
      d_.error(s->range, what + " is indexed by the loop's rows", "x[" + k_.ix.loop_var + ", :]");
      return -1;
    }
    return tensor(*s->args[0], what, dest);
  }

  int tensor(const Expr& e, const std::string& what, bool output = false) {
    if (e.kind == ExprKind::Name)
      for (size_t i = 0; i < k_.tensors.size(); ++i)
        if (k_.tensors[i].name == e.text) {
          if (k_.tensors[i].output != output)
            d_.error(e.range, "'" + e.text + "' is an " + (output ? "input" : "output"),
                     output ? "store into an output" : "gathers and scatters read inputs");
          return static_cast<int>(i);
        }
    d_.error(e.range, what + " is not a tensor " + (output ? "output" : "input"),
             output ? "store(y[r, :], ...)" : "name a tensor parameter");
    return -1;
  }

  bool is_loop_var(const Expr& e) const { return e.kind == ExprKind::Name && e.text == k_.ix.loop_var; }

  // index_add's alpha: a number or an f32 attr.
  std::string scalar(const Expr& e) {
    if (e.kind == ExprKind::Number) return fmt::format("static_cast<float>({})", e.number);
    if (e.kind == ExprKind::Name)
      for (const AttrArg& a : k_.attrs)
        if (a.name == e.text && a.type == DType::F32) return camel_lower(a.name) + "_";
    d_.error(e.range, "alpha is a number or an f32 attr", "index_add(load(x[r, :]), index, src, alpha)");
    return "1.0f";
  }

  std::vector<DType> each(TypeOf t) const { return t.var >= 0 ? k_.dtype_vars[t.var].types : std::vector<DType>{t.fixed}; }

  const Program& p_;
  Kernel& k_;
  Diags& d_;
};
}  // namespace

bool is_index_program(const Program& p) {
  for (const StmtPtr& s : p.body)
    if (s->kind == StmtKind::For)
      for (const StmtPtr& b : s->body)
        if (b->kind == StmtKind::Expr && b->value && b->value->kind == ExprKind::Call && b->value->text == "store" &&
            has_index_op(*b->value))
          return true;
  return false;
}

void check_index(const Program& p, Kernel& k, Diags& d) { IndexChecker(p, k, d).run(); }

std::string print_index(const Kernel& k) {
  const IndexOp& ix = k.ix;
  auto tn = [&](int t) { return t >= 0 ? k.tensors[t].name : std::string("-"); };
  std::string o = fmt::format("index kernel {} ({})\n", k.name, k.op_type);
  o += fmt::format("  {}: {} <- x={} index={} src={}{}\n", ix.kind, tn(ix.y), tn(ix.x), tn(ix.index), tn(ix.src),
                   ix.kind == "index_add" ? " alpha=" + ix.alpha : "");
  o += fmt::format("  for {} in tiles: {}\n", ix.loop_var, ix.text);
  return o;
}
}  // namespace kgen::tile
