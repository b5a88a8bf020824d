// check (resize programs): `store(y, MODE(x, size=LIST_ATTR | scale=F32_ATTR, align_corners=BOOL_ATTR))` into
// Kernel::rz. The header is read here: list attrs (`out_size: i32[2] = (128, 150)`) and output dims from attrs.
#include <set>

#include "tile/resize.h"

namespace kgen::tile {
namespace {
const std::set<std::string> kModes = {"nearest", "linear", "cubic"};

// The stored call of a resize program, or nullptr.
const Expr* resize_call(const Program& p) {
  if (p.body.size() != 1 || p.body[0]->kind != StmtKind::Expr || !p.body[0]->value) return nullptr;
  const Expr& s = *p.body[0]->value;
  if (s.kind != ExprKind::Call || s.text != "store" || s.args.size() != 2) return nullptr;
  const Expr& c = *s.args[1];
  return c.kind == ExprKind::Call && kModes.count(c.text) ? &c : nullptr;
}

bool int_of(const Expr& e, int64_t& v) {
  if (e.kind != ExprKind::Number || !e.is_int) return false;
  v = static_cast<int64_t>(e.number);
  return true;
}

// One header parameter: a tensor, a scalar attr or a list attr; `spatial` dims named after the star.
void param(const Param& pa, bool output, Kernel& k, Diags& d) {
  if (pa.type.is_tensor && !(pa.default_value && pa.type.dtype == "i32")) {
    TensorArg t{pa.name, output, {}, pa.type.dims, pa.range};
    bool found = false;
    for (size_t i = 0; i < k.dtype_vars.size(); ++i)
      if (k.dtype_vars[i].name == pa.type.dtype) t.type.var = static_cast<int>(i), found = true;
    if (!found && !parse_dtype(pa.type.dtype, t.type.fixed)) {
      d.error(pa.type.dtype_range, "unknown dtype or dtype variable '" + pa.type.dtype + "'",
              "declare it first: dtype " + pa.type.dtype + " in (f32, f16, bf16)");
      return;
    }
    k.tensors.push_back(t);
    return;
  }
  if (output) {
    d.error(pa.range, "output '" + pa.name + "' has no dims", "a resize program stores a tensor: y: T[*m, oh, ow]");
    return;
  }
  AttrArg a{pa.name, DType::F32, 0, pa.range};
  int len = 0;
  std::vector<int64_t> def;
  if (pa.type.is_tensor) {   // a list attr: i32[N] = (a, b, ...)
    a.type = DType::I32;
    len = pa.type.dims.size() == 1 ? static_cast<int>(pa.type.dims[0].value) : 0;
    const Expr& dv = *pa.default_value;
    for (const auto& e : dv.args) {
      int64_t v = 0;
      if (!int_of(*e, v) || v <= 0) d.error(e->range, "a list attr's default holds positive integers", "(128, 150)");
      def.push_back(v);
    }
    if (len <= 0 || dv.kind != ExprKind::Tuple || static_cast<int>(def.size()) != len)
      d.error(dv.range, "the default of list attr '" + pa.name + "' is not a tuple of " + std::to_string(len) + " ints",
              "write " + pa.name + ": i32[2] = (128, 150)");
  } else if (pa.type.dtype == "f32") {
    a.type = DType::F32;
  } else if (pa.type.dtype == "i32") {
    a.type = DType::I32;
  } else if (pa.type.dtype == "bool") {
    a.type = DType::Bool;
  } else {
    d.error(pa.type.dtype_range, "attr '" + pa.name + "' has type '" + pa.type.dtype + "'",
            "attrs are f32, i32, bool or a list i32[N]");
    return;
  }
  if (!pa.default_value) {
    d.error(pa.name_range, "attr '" + pa.name + "' has no default value", "write " + pa.name + ": f32 = 2.0");
  } else if (!len) {
    const Expr* e = pa.default_value.get();
    double sign = 1;
    if (e->kind == ExprKind::Unary && e->text == "-" && e->args.size() == 1) sign = -1, e = e->args[0].get();
    if (e->kind == ExprKind::Number) a.default_value = sign * e->number;
    else if (e->kind == ExprKind::Name && (e->text == "true" || e->text == "false")) a.default_value = e->text == "true";
    else d.error(e->range, "the default of attr '" + pa.name + "' is not a constant", "write a number, true or false");
  }
  k.attrs.push_back(a);
  k.rz.list_len.push_back(len);
  k.rz.list_default.push_back(def);
}

int attr_named(const Kernel& k, const Expr& e, Diags& d, const std::string& what) {
  if (e.kind == ExprKind::Name)
    for (size_t i = 0; i < k.attrs.size(); ++i)
      if (k.attrs[i].name == e.text) return static_cast<int>(i);
  d.error(e.range, what + " must name an attr of the kernel", "declare it in the header: " + what);
  return -1;
}
}  // namespace

bool is_resize_program(const Program& p) { return resize_call(p) != nullptr; }

void check_resize(const Program& p, Kernel& k, Diags& d) {
  ResizeSpec& rz = k.rz;
  k.resize = true;
  for (const Param& pa : p.params) param(pa, false, k, d);
  for (const Param& pa : p.outputs) param(pa, true, k, d);
  const Expr& store = *p.body[0]->value;
  const Expr& call = *resize_call(p);
  rz.mode = call.text;
  rz.text = print_expr(store);
  auto tensor_named = [&](const Expr& e, bool output) {
    if (e.kind == ExprKind::Name)
      for (size_t i = 0; i < k.tensors.size(); ++i)
        if (k.tensors[i].name == e.text && k.tensors[i].output == output) return static_cast<int>(i);
    d.error(e.range, std::string("'") + print_expr(e) + "' is not " + (output ? "an output" : "an input") + " tensor",
            output ? "store(y, ...) names the output: store(y, linear(x, ...))"
                   : "interpolate an input: " + call.text + "(x, scale=s)");
    return -1;
  };
  rz.y = tensor_named(*store.args[0], true);
  if (call.args.size() != 1) {
    d.error(call.range, call.text + "() takes one tensor", call.text + "(x, size=out_size) or " + call.text + "(x, scale=s)");
    return;
  }
  rz.x = tensor_named(*call.args[0], false);
  int sizings = 0;   // size= and scale= given (an unknown attr is its own error, not a missing size)
  for (size_t i = 0; i < call.kwargs.size(); ++i) {
    const auto& [key, val] = call.kwargs[i];
    sizings += key == "size" || key == "scale";
    if (key == "size") rz.size_attr = attr_named(k, *val, d, "size=");
    else if (key == "scale") rz.scale_attr = attr_named(k, *val, d, "scale=");
    else if (key == "align_corners" && rz.mode != "nearest") rz.align_attr = attr_named(k, *val, d, "align_corners=");
    else if (key == "antialias" && call.text == "linear") {   // PIL's triangle filter widened by the downscale
      if (val->kind != ExprKind::Name || (val->text != "true" && val->text != "false"))
        d.error(val->range, "antialias= takes true or false", "linear(x, size=out_size, antialias=true)");
      else if (val->text == "true") rz.mode = "antialias";
    }
    else
      d.error(call.kwarg_ranges[i], call.text + "() has no argument '" + key + "'",
              call.text == "nearest" ? "nearest(x, size=out_size) or nearest(x, scale=s)"
                                     : call.text + "(x, size=out_size | scale=s, align_corners=flag" +
                                           (call.text == "linear" ? ", antialias=true)" : ")"));
  }
  if (sizings != 1)
    d.error(call.range, call.text + "() needs one of size= and scale=",
            "size=out_size (an i32[N] attr) or scale=s (an f32 attr)");
  if (rz.x < 0 || rz.y < 0) return;
  const TensorArg &x = k.tensors[rz.x], &y = k.tensors[rz.y];
  if (x.dims.size() < 2 || !x.dims[0].star || y.dims.size() != x.dims.size() || !y.dims[0].star ||
      y.dims[0].name != x.dims[0].name) {
    d.error(x.range, "a resize program views its tensors as x: T[*m, h, w] and y: T[*m, oh, ow]",
            "*m (batch, channels) is kept; the dims after it are interpolated");
    return;
  }
  rz.spatial = static_cast<int>(x.dims.size()) - 1;
  if (rz.spatial > 3) d.error(x.range, "at most 3 interpolated dims", "x: T[*m, d, h, w]");
  if (!(x.type == y.type)) d.error(y.range, "the output has the input's dtype", "y: T[...] as x");
  if (rz.size_attr >= 0 && (rz.list_len[rz.size_attr] != rz.spatial))
    d.error(call.range, "size= needs a list attr of " + std::to_string(rz.spatial) + " ints",
            "out_size: i32[" + std::to_string(rz.spatial) + "] = (...)");
  if (rz.scale_attr >= 0 && k.attrs[rz.scale_attr].type != DType::F32)
    d.error(call.range, "scale= needs an f32 attr", "scale_factor: f32 = 2.0");
  if (rz.align_attr >= 0 && k.attrs[rz.align_attr].type != DType::Bool)
    d.error(call.range, "align_corners= needs a bool attr", "align_corners: bool = false");
  if (rz.mode == "antialias" && rz.align_attr >= 0)
    d.error(call.range, "antialias=true with align_corners= is not supported", "drop align_corners (false)");
  if (rz.mode == "cubic" && rz.spatial != 2) d.error(call.range, "cubic() interpolates 2 dims", "x: T[*m, h, w]");
}

std::string print_resize(const Kernel& k) {
  const ResizeSpec& rz = k.rz;
  std::string o = "resize kernel " + k.name + " (" + k.op_type + ")\n";
  o += "  " + rz.mode + " over the last " + std::to_string(rz.spatial) + " dims of " +
       (rz.x >= 0 ? k.tensors[rz.x].name : "?") + "\n";
  if (rz.size_attr >= 0) o += "  output size: attr " + k.attrs[rz.size_attr].name + "\n";
  if (rz.scale_attr >= 0) o += "  output size: floor(in * " + k.attrs[rz.scale_attr].name + ")\n";
  if (rz.align_attr >= 0) o += "  align_corners: attr " + k.attrs[rz.align_attr].name + "\n";
  o += "  " + rz.text + "\n";
  return o;
}
}  // namespace kgen::tile
