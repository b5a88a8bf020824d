// check (pooling programs): `for o in windows(h, w, size=k, stride=s, padding=p, dilation=d)` around one
// `store(y[o], max(load(x[o], f32)))` (or mean(..., count_include_pad=...)): the window dims, attrs and output.
#include <fmt/format.h>

#include "tile/pool.h"

namespace kgen::tile {
namespace {

const char* kPoolShape =
    "for o in windows(h, w, size=kernel_size, stride=stride, padding=padding, dilation=dilation):\n"
    "        store(y[o], max(load(x[o], f32)))";

class PoolChecker {
 public:
  PoolChecker(const Program& p, Kernel& k, Diags& d) : p_(p), k_(k), d_(d) {}

  void run() {
    k_.pool = true;
    const Stmt* loop = nullptr;
    for (const StmtPtr& s : p_.body) {
      if (s->kind == StmtKind::For && !loop) {
        loop = s.get();
        continue;
      }
      d_.error(s->range, loop ? "a statement after the windows loop" : "a statement before the windows loop",
               "a pooling program is one windows loop:\n    " + std::string(kPoolShape));
    }
    if (!loop || !windows(*loop)) return;
    if (loop->body.size() != 1 || loop->body[0]->kind != StmtKind::Expr) {
      d_.error(loop->body.empty() ? loop->range : loop->body[0]->range, "the windows loop's body is one store",
               "store(y[" + var_ + "], max(load(x[" + var_ + "], f32)))");
      return;
    }
    store(*loop->body[0]);
  }

 private:

  // A window attr: an i32 attr of the kernel or a non-negative integer (bool attrs / true / false for `flag`).
  bool attr_expr(const Expr& e, const std::string& what, bool flag, std::string& out) {
    if (e.kind == ExprKind::Number && e.is_int && !flag && e.number >= 0) {
      out = fmt::format("{}", static_cast<int64_t>(e.number));
      return true;
    }
    if (e.kind == ExprKind::Name && flag && (e.text == "true" || e.text == "false")) {
      out = e.text == "true" ? "1" : "0";
      return true;
    }
    const int a = e.kind == ExprKind::Name ? attr_index(k_, e.text) : -1;
    if (a >= 0 && k_.attrs[a].type == (flag ? DType::Bool : DType::I32)) {
      out = "attr_" + k_.attrs[a].name;
      return true;
    }
    std::vector<std::string> names;
    for (const AttrArg& at : k_.attrs) names.push_back(at.name);
    const std::string c = e.kind == ExprKind::Name ? closest(e.text, names) : "";
    d_.error(e.range,
             a >= 0 ? fmt::format("attr '{}' is not {}", e.text, flag ? "a bool" : "an i32")
                    : fmt::format("{} is {}", what, flag ? "a bool attr, true or false" : "an i32 attr or an integer"),
             !c.empty() && a < 0 ? "did you mean '" + c + "'?"
                                 : flag ? "count_include_pad=count_include_pad with count_include_pad: bool = true"
                                        : what + "=" + what + " with " + what + ": i32 = 1 in the header");
    return false;
  }

  // for o in windows(h, w, size=..., stride=..., padding=..., dilation=...)
  bool windows(const Stmt& s) {
    const Expr* it = s.value.get();
    if (!it || it->kind != ExprKind::Call || it->text != "windows" || s.loop_vars.size() != 1) {
      d_.error(it ? it->range : s.range, "a pooling program's loop iterates over windows(...)",
               "for o in windows(h, w, size=kernel_size, stride=stride, padding=padding)");
      return false;
    }
    var_ = s.loop_vars[0];
    k_.pw.loop_text = "for " + var_ + " in " + print_expr(*it);
    if (it->args.empty() || it->args.size() > 3) {
      d_.error(it->range, "windows() takes the 1, 2 or 3 windowed dims of the input",
               "windows(l, ...) for 1-D, windows(h, w, ...) for 2-D, windows(d, h, w, ...) for 3-D pooling");
      return false;
    }
    for (const ExprPtr& a : it->args) {
      if (a->kind != ExprKind::Name) {
        d_.error(a->range, "windows() takes dim names of the input", "windows(h, w, size=kernel_size)");
        return false;
      }
      dims_.push_back(a.get());
    }
    k_.pw.nd = static_cast<int>(dims_.size());
    bool kernel = false;
    for (size_t i = 0; i < it->kwargs.size(); ++i) {
      const auto& [name, v] = it->kwargs[i];
      std::string* dst = name == "size" ? &k_.pw.kernel : name == "stride" ? &k_.pw.stride
                       : name == "padding" ? &k_.pw.padding : name == "dilation" ? &k_.pw.dilation : nullptr;
      if (!dst) {
        const std::string c = closest(name, {"size", "stride", "padding", "dilation"});
        d_.error(it->kwarg_ranges[i], "windows() has no option '" + name + "'",
                 c.empty() ? "the options are size, stride, padding and dilation" : "did you mean '" + c + "'?");
        continue;
      }
      kernel |= name == "size";
      attr_expr(*v, name, false, *dst);
    }
    if (!kernel) {
      d_.error(it->range, "windows() needs the window's size: size=", "windows(h, w, size=kernel_size)");
      return false;
    }
    if (k_.pw.stride.empty()) k_.pw.stride = k_.pw.kernel;   // PyTorch: stride defaults to the kernel size
    if (k_.pw.padding.empty()) k_.pw.padding = "0";
    if (k_.pw.dilation.empty()) k_.pw.dilation = "1";
    return !d_.has_errors();
  }

  // store(y[o], max(load(x[o], f32))) or store(y[o], mean(load(x[o], f32), count_include_pad=...)).
  void store(const Stmt& s) {
    const Expr* v = s.value.get();
    const std::string want = "store(y[" + var_ + "], max(load(x[" + var_ + "], f32)))";
    if (v->kind != ExprKind::Call || v->text != "store" || v->args.size() != 2) {
      d_.error(v->range, "the windows loop's body is one store", want);
      return;
    }
    k_.pw.store_text = print_expr(*v);
    k_.pw.out = indexed(*v->args[0], true);
    const Expr& r = *v->args[1];
    if (r.kind != ExprKind::Call || (r.text != "max" && r.text != "mean") || r.args.size() != 1) {
      d_.error(r.range, "a window is reduced by max(...) or mean(...) of the loaded window",
               "max(load(x[" + var_ + "], f32)) or mean(load(x[" + var_ + "], f32), count_include_pad=true)");
      return;
    }
    k_.pw.max = r.text == "max";
    k_.pw.count_pad = "1";
    for (size_t i = 0; i < r.kwargs.size(); ++i) {
      if (!k_.pw.max && r.kwargs[i].first == "count_include_pad") {
        attr_expr(*r.kwargs[i].second, "count_include_pad", true, k_.pw.count_pad);
        continue;
      }
      d_.error(r.kwarg_ranges[i], r.text + "() of a window has no option '" + r.kwargs[i].first + "'",
               k_.pw.max ? "max(load(x[o], f32))" : "mean(load(x[o], f32), count_include_pad=count_include_pad)");
    }
    if (!k_.pw.max && k_.pw.dilation != "1")
      d_.error(s.range, "an average window has no dilation", "drop dilation= (nn.AvgPool has none)");
    const Expr& ld = *r.args[0];
    if (ld.kind != ExprKind::Call || ld.text != "load" || ld.args.empty() || ld.args.size() > 2) {
      d_.error(ld.range, "the reduced window is load(x[" + var_ + "], f32)", want);
      return;
    }
    if (ld.args.size() == 2 && !(ld.args[1]->kind == ExprKind::Name && ld.args[1]->text == "f32"))
      d_.error(ld.args[1]->range, "windows are reduced in f32", "load(x[" + var_ + "], f32)");
    k_.pw.in = indexed(*ld.args[0], false);
    if (k_.pw.in >= 0 && k_.pw.out >= 0) shapes();
  }

  // x[o] / y[o]: a tensor indexed by the loop variable.
  int indexed(const Expr& e, bool output) {
    const char* what = output ? "output" : "input";
    if (e.kind != ExprKind::Subscript || e.args.size() != 2 || e.args[0]->kind != ExprKind::Name ||
        e.args[1]->kind != ExprKind::Name || e.args[1]->text != var_) {
      d_.error(e.range, fmt::format("the {} is indexed by the window '{}'", what, var_),
               output ? "store(y[" + var_ + "], ...)" : "load(x[" + var_ + "], f32)");
      return -1;
    }
    const int t = tensor_index(k_, e.args[0]->text);
    if (t < 0 || k_.tensors[t].output != output) {
      d_.error(e.args[0]->range, fmt::format("'{}' is not an {}", e.args[0]->text, what),
               output ? "store into the output after '->'" : "load the input the windows slide over");
      return -1;
    }
    return t;
  }

  // The windowed dims are the input's last dims, in order; the output repeats the others and names its own.
  void shapes() {
    const TensorArg& x = k_.tensors[k_.pw.in];
    const TensorArg& y = k_.tensors[k_.pw.out];
    const size_t nd = dims_.size();
    bool ok = x.dims.size() > nd;
    for (size_t i = 0; ok && i < nd; ++i) ok = x.dims[x.dims.size() - nd + i].name == dims_[i]->text && !x.dims[x.dims.size() - nd + i].star;
    if (!ok || !x.dims[0].star || x.dims.size() != nd + 1) {
      std::string w;
      for (const Expr* d : dims_) w += ", " + d->text;
      d_.error(dims_[0]->range, "the windowed dims are the last dims of '" + x.name + "', after its starred dims",
               x.name + ": T[*m" + w + "] (m: the batch and channel planes)");
      return;
    }
    if (y.dims.size() != x.dims.size() || !y.dims[0].star || y.dims[0].name != x.dims[0].name) {
      d_.error(y.range, "output '" + y.name + "' has the input's planes and one dim per windowed dim",
               y.name + ": T[*" + x.dims[0].name + ", ...] with the output sizes named freely (oh, ow)");
      return;
    }
    if (!(x.type == y.type))
      d_.error(y.range, "the output has the input's dtype", y.name + ": T[...] like " + x.name);
    std::vector<DType> types = x.type.var >= 0 ? k_.dtype_vars[x.type.var].types : std::vector<DType>{x.type.fixed};
    for (DType t : types)
      if (t != DType::F32 && t != DType::F16 && t != DType::BF16)
        d_.error(x.range, std::string("windows are pooled from f32, f16 or bf16, not ") + dtype_name(t),
                 "dtype T in (f32, f16, bf16)");
    for (const TensorArg& t : k_.tensors)
      if (&t != &x && &t != &y)
        d_.error(t.range, "a pooling program has one input and one output", "pool each tensor in its own kernel");
  }

  const Program& p_;
  Kernel& k_;
  Diags& d_;
  std::string var_;
  std::vector<const Expr*> dims_;
};
}  // namespace

bool is_pool_program(const Program& p) {
  for (const StmtPtr& s : p.body)
    if (s->kind == StmtKind::For && s->value && s->value->kind == ExprKind::Call && s->value->text == "windows")
      return true;
  return false;
}

void check_pool(const Program& p, Kernel& k, Diags& d) { PoolChecker(p, k, d).run(); }
}  // namespace kgen::tile
