// check (convolution programs): `store(y, EPILOGUE(conv(x, weight, bias, stride=s, padding=p, dilation=d)))` into a
// ConvSpec. The header is read here: list attrs (`stride: i32[2] = (1, 2)`) and output dims that come from attrs.
#include <fmt/format.h>

#include <set>

#include "tile/conv.h"

namespace kgen::tile {
namespace {
const std::set<std::string> kConvCalls = {"conv", "conv_transpose", "avg_pool"};
const char* kConvShape = "store(y, conv(x, weight, bias, stride=stride, padding=padding, dilation=dilation))";

bool holds_conv(const Expr& e) {
  if (e.kind == ExprKind::Call && kConvCalls.count(e.text)) return true;
  for (const ExprPtr& a : e.args)
    if (a && holds_conv(*a)) return true;
  return false;
}

class ConvChecker {
 public:
  ConvChecker(const Program& p, Kernel& k, Diags& d) : p_(p), k_(k), d_(d) {}

  void run() {
    for (const Param& pa : p_.params) param(pa, false);
    for (const Param& pa : p_.outputs) param(pa, true);
    const Expr& store = *p_.body[0]->value;
    cs_.text = print_expr(store);
    cs_.y = tensor(*store.args[0], true);
    epilogue(*store.args[1]);
    if (cs_.x < 0 || cs_.w < 0 || cs_.y < 0) return;
    const size_t rank = k_.tensors[cs_.x].dims.size();
    if (rank < 3 || rank > 5) {
      d_.error(k_.tensors[cs_.x].range, "a convolution's input is [batch, channels, 1-3 spatial dims]",
               "x: T[n, ci, h, w] for conv2d, T[n, ci, l] for conv1d, T[n, ci, d, h, w] for conv3d");
      return;
    }
    cs_.nd = static_cast<int>(rank) - 2;
    if (k_.tensors[cs_.w].dims.size() != rank)
      d_.error(k_.tensors[cs_.w].range, "the weight has the input's rank",
               "weight: T[co, ci, kh, kw] (conv) or T[ci, co, kh, kw] (conv_transpose)");
    if (k_.tensors[cs_.y].dims.size() != rank)
      d_.error(k_.tensors[cs_.y].range, "the output has the input's rank", "y: T[n, co, oh, ow]");
    for (const ConvArg* a : {&cs_.stride, &cs_.padding, &cs_.dilation, &cs_.output_padding})
      if (a->attr >= 0 && cs_.list_len[a->attr] > 0 && cs_.list_len[a->attr] != cs_.nd)
        d_.error(k_.attrs[a->attr].range, fmt::format("list attr '{}' has {} ints for {} spatial dims",
                                                      k_.attrs[a->attr].name, cs_.list_len[a->attr], cs_.nd),
                 "one int per spatial dim of x");
    // one GEMM per batch after im2col (a transposed conv's up to 2-D); depthwise and separable stay on the vector cores
    cs_.cube = cs_.mode == "conv" || cs_.mode == "pool" || (cs_.mode == "transposed" && cs_.nd <= 2);
    k_.conv = std::make_shared<const ConvSpec>(cs_);
  }

 private:
  // A header parameter: a tensor (optional with `= None`), a scalar attr or a list attr `i32[N] = (a, b)`.
  void param(const Param& pa, bool output) {
    if (pa.type.is_tensor && !(pa.default_value && pa.type.dtype == "i32")) {
      TensorArg t{pa.name, output, {}, pa.type.dims, pa.range};
      bool found = false;
      for (size_t i = 0; i < k_.dtype_vars.size(); ++i)
        if (k_.dtype_vars[i].name == pa.type.dtype) t.type.var = static_cast<int>(i), found = true;
      if (!found) {
        d_.error(pa.type.dtype_range, "a convolution's tensors have the dtype variable ('" + pa.type.dtype + "')",
                 "declare dtype T in (f32, f16) and write " + pa.name + ": T[...]");
        return;
      }
      if (pa.default_value) {
        if (output || pa.default_value->kind != ExprKind::Name || pa.default_value->text != "None")
          d_.error(pa.default_value->range, "a tensor's only default is None", pa.name + ": T[co] = None");
        t.optional = true;
      } else if (!output) {
        for (const TensorArg& o : k_.tensors)
          if (o.optional)
            d_.error(pa.range, "required input '" + pa.name + "' after the optional input '" + o.name + "'",
                     "inputs are passed in order; put the optional (= None) inputs last");
      }
      k_.tensors.push_back(t);
      return;
    }
    if (output) {
      d_.error(pa.range, "output '" + pa.name + "' has no dims", "y: T[n, co, oh, ow]");
      return;
    }
    AttrArg a{pa.name, DType::I32, 0, pa.range};
    int len = 0;
    std::vector<int64_t> def;
    if (pa.type.is_tensor) {   // a list attr: i32[N] = (a, b, ...)
      len = pa.type.dims.size() == 1 ? static_cast<int>(pa.type.dims[0].value) : 0;
      const Expr& dv = *pa.default_value;
      for (const auto& e : dv.args) {
        if (e->kind != ExprKind::Number || !e->is_int || e->number < 0)
          d_.error(e->range, "a list attr's default holds non-negative integers", "(1, 2)");
        def.push_back(static_cast<int64_t>(e->number));
      }
      if (len <= 0 || dv.kind != ExprKind::Tuple || static_cast<int>(def.size()) != len)
        d_.error(dv.range, "the default of list attr '" + pa.name + "' is not a tuple of " + std::to_string(len) +
                               " ints", "write " + pa.name + ": i32[2] = (1, 2)");
    } else if (pa.type.dtype == "f32" || pa.type.dtype == "i32") {
      a.type = pa.type.dtype == "f32" ? DType::F32 : DType::I32;
    } else {
      d_.error(pa.type.dtype_range, "attr '" + pa.name + "' has type '" + pa.type.dtype + "'",
               "a convolution's attrs are i32, f32 or a list i32[N]");
      return;
    }
    if (!pa.default_value) {
      d_.error(pa.name_range, "attr '" + pa.name + "' has no default value", "write " + pa.name + ": i32 = 1");
    } else if (!len) {
      const Expr* e = pa.default_value.get();
      double sign = 1;
      if (e->kind == ExprKind::Unary && e->text == "-" && e->args.size() == 1) sign = -1, e = e->args[0].get();
      if (e->kind == ExprKind::Number) a.default_value = sign * e->number;
      else d_.error(e->range, "the default of attr '" + pa.name + "' is not a constant", "write a number");
    }
    k_.attrs.push_back(a);
    cs_.list_len.push_back(len);
    cs_.list_default.push_back(def);
  }

  int tensor(const Expr& e, bool output) {
    if (e.kind == ExprKind::Name)
      for (size_t i = 0; i < k_.tensors.size(); ++i)
        if (k_.tensors[i].name == e.text && k_.tensors[i].output == output) return static_cast<int>(i);
    std::vector<std::string> names;
    for (const TensorArg& t : k_.tensors)
      if (t.output == output) names.push_back(t.name);
    const std::string c = e.kind == ExprKind::Name ? closest(e.text, names) : "";
    d_.error(e.range, "'" + print_expr(e) + "' is not " + (output ? "an output" : "an input") + " tensor",
             !c.empty() ? "did you mean '" + c + "'?" : output ? "store(y, conv(...)) names the output" : kConvShape);
    return -1;
  }

  // A geometry argument: an integer, an i32 (or list) attr, or `attr / integer` (integer division: k / 2).
  void geom_arg(const Expr& e, const std::string& what, ConvArg& out) {
    const Expr* base = &e;
    auto int_literal = [](const Expr& x) { return x.kind == ExprKind::Number && x.is_int && x.number >= 0; };
    if (base->kind == ExprKind::Binary && (base->text == "+" || base->text == "-") && base->args.size() == 2 &&
        int_literal(*base->args[1])) {   // kernel_size - 1
      out.add = static_cast<int64_t>(base->args[1]->number) * (base->text == "-" ? -1 : 1);
      base = base->args[0].get();
    }
    if (base->kind == ExprKind::Binary && base->text == "/" && base->args.size() == 2 && int_literal(*base->args[1]) &&
        base->args[1]->number > 0) {
      out.div = static_cast<int64_t>(base->args[1]->number);
      base = base->args[0].get();
    }
    if (int_literal(*base) && static_cast<int64_t>(base->number) / out.div + out.add >= 0) {
      out.attr = -1, out.value = static_cast<int64_t>(base->number) / out.div + out.add, out.div = 1, out.add = 0;
      return;
    }
    const int a = base->kind == ExprKind::Name ? attr_index(k_, base->text) : -1;
    if (a >= 0 && k_.attrs[a].type == DType::I32) {
      out.attr = a;
      return;
    }
    std::vector<std::string> names;
    for (const AttrArg& at : k_.attrs) names.push_back(at.name);
    const std::string c = base->kind == ExprKind::Name ? closest(base->text, names) : "";
    d_.error(e.range, what + "= is an integer, an i32 attr, a list attr i32[N], attr / integer or attr - integer",
             !c.empty() && a < 0 ? "did you mean '" + c + "'?"
                                 : what + "=" + what + " with " + what + ": i32 = 1 (or i32[2] = (1, 1)) in the header");
  }

  // conv(x, w, [bias], stride=, padding=, dilation=, groups=) / conv_transpose(x, w, [bias], ..., output_padding=)
  void conv_call(const Expr& c) {
    const bool tr = c.text == "conv_transpose";
    const std::string sig = tr ? "conv_transpose(x, weight, bias, stride=, padding=, output_padding=, dilation=)"
                               : "conv(x, weight, bias, stride=, padding=, dilation=, groups=)";
    if (c.args.size() < 2 || c.args.size() > 3) {
      d_.error(c.range, c.text + "() takes the input, the weight and an optional bias", sig);
      return;
    }
    const Expr& in = *c.args[0];
    if (!tr && in.kind == ExprKind::Call && in.text == "conv") {   // depthwise then pointwise
      conv_call(in);
      if (cs_.mode != "depthwise" || cs_.bias >= 0 || c.args.size() != 2 || !c.kwargs.empty()) {
        d_.error(c.range, "a conv of a conv is a depthwise-separable conv: a 1x1 conv of a depthwise conv, no bias",
                 "conv(conv(x, dw_weight, padding=padding, groups=ci), pw_weight)");
        return;
      }
      cs_.mode = "separable";
      cs_.w2 = tensor(*c.args[1], false);
      return;
    }
    if (tr) cs_.mode = "transposed";
    cs_.x = tensor(in, false);
    cs_.w = tensor(*c.args[1], false);
    if (c.args.size() == 3) {
      cs_.bias = tensor(*c.args[2], false);
      if (cs_.bias >= 0 && k_.tensors[cs_.bias].dims.size() != 1)
        d_.error(c.args[2]->range, "a conv's bias is one value per output channel", "bias: T[co] = None");
    }
    for (size_t i = 0; i < c.kwargs.size(); ++i) {
      const auto& [key, val] = c.kwargs[i];
      ConvArg* dst = key == "stride" ? &cs_.stride : key == "padding" ? &cs_.padding : key == "dilation" ? &cs_.dilation
                   : key == "output_padding" && tr ? &cs_.output_padding : nullptr;
      if (dst) {
        geom_arg(*val, key, *dst);
        continue;
      }
      if (key == "groups" && !tr) {   // groups = the input's channel dim: depthwise
        const TensorArg* x = cs_.x >= 0 ? &k_.tensors[cs_.x] : nullptr;
        if (val->kind == ExprKind::Number && val->is_int && val->number == 1) continue;
        if (x && x->dims.size() > 1 && val->kind == ExprKind::Name && x->dims[1].name == val->text) {
          cs_.mode = "depthwise";
          continue;
        }
        d_.error(val->range, "groups= is 1 or the input's channel dim (a depthwise conv)",
                 x && x->dims.size() > 1 ? "groups=" + x->dims[1].name : "groups=ci with x: T[n, ci, h, w]");
        continue;
      }
      std::vector<std::string> opts = {"stride", "padding", "dilation", tr ? "output_padding" : "groups"};
      const std::string cl = closest(key, opts);
      d_.error(c.kwarg_ranges[i], c.text + "() has no option '" + key + "'",
               cl.empty() ? sig : "did you mean '" + cl + "'?");
    }
  }

  // A float scalar of the epilogue: a number or an f32 attr (read from the tiling data).
  bool scalar(const Expr& e, std::string& out) {
    if (e.kind == ExprKind::Number) {
      out = fmt::format("static_cast<float>({:.9g})", e.number);
      return true;
    }
    const int a = e.kind == ExprKind::Name ? attr_index(k_, e.text) : -1;
    if (a >= 0 && k_.attrs[a].type == DType::F32) {
      out = "t.attr_" + k_.attrs[a].name;
      return true;
    }
    return false;
  }
  // A per-output-channel input: T[co, 1, 1] or T[co] (a learned bias added after the conv).
  bool channel_vector(const Expr& e) {
    if (e.kind != ExprKind::Name) return false;
    for (size_t i = 0; i < k_.tensors.size(); ++i) {
      const TensorArg& t = k_.tensors[i];
      if (t.output || t.name != e.text || t.optional) continue;
      for (size_t j = 1; j < t.dims.size(); ++j)
        if (t.dims[j].value != 1) return false;
      if (cs_.chan >= 0 && cs_.chan != static_cast<int>(i)) return false;
      cs_.chan = static_cast<int>(i);
      return true;
    }
    return false;
  }

  // conv(...)[:, :, :l]: the first l output positions along a spatial dim (`:` keeps one whole); the batch and the
  // channels are kept whole. One crop per program, on the conv or anywhere in its epilogue (the steps are elementwise).
  void crop(const Expr& e) {
    const std::string form = "conv(...)[:, :, :l] (':' keeps a dim, ':l' its first l positions)";
    if (!cs_.crop.empty()) {
      d_.error(e.range, "the conv's output is cropped twice", "crop it once: " + form);
      return;
    }
    const size_t rank = e.args.size() - 1;
    if (cs_.x < 0) return;   // the conv's error is reported
    if (rank != k_.tensors[cs_.x].dims.size() || rank < 3) {
      d_.error(e.range, fmt::format("a crop indexes every dim of the conv's output: batch, channels and {} spatial "
                                    "dim(s), {} in all", k_.tensors[cs_.x].dims.size() - 2, k_.tensors[cs_.x].dims.size()),
               form);
      return;
    }
    for (size_t i = 1; i <= 2; ++i)
      if (e.args[i]->kind != ExprKind::Slice)
        d_.error(e.args[i]->range, "the batch and the channels are kept whole: ':'", form);
    std::vector<ConvCrop> crops(rank - 2);
    for (size_t i = 3; i <= rank; ++i) {
      const Expr& ix = *e.args[i];
      if (ix.kind == ExprKind::Slice) continue;
      if (ix.kind != ExprKind::SliceTo) {
        d_.error(ix.range, "a spatial dim of the conv's output is kept whole (':') or cropped to its start (':l')", form);
        continue;
      }
      ConvCrop& c = crops[i - 3];
      c.set = true;
      const Expr& end = *ix.args[0];
      if (end.kind == ExprKind::Name && input_dim(k_, end.text, c.tensor, c.dim)) continue;   // x: T[n, c, l], [..., :l]
      const bool attr = end.kind == ExprKind::Name && attr_index(k_, end.text) >= 0 &&
                        k_.attrs[attr_index(k_, end.text)].type == DType::I32;
      if (attr || (end.kind == ExprKind::Number && end.is_int && end.number >= 1)) geom_arg(end, "crop", c.arg);
      else
        d_.error(end.range, "'" + print_expr(end) + "' is not a dim of an input, an i32 attr or a positive integer",
                 "crop to an input's length: conv(x, w, padding=k - 1)[:, :, :l] with x: T[n, c, l]");
    }
    cs_.crop = crops;
  }

  // The stored expression: element-wise steps around the conv, collected innermost first.
  void epilogue(const Expr& e) {
    if (e.kind == ExprKind::Subscript && !e.args.empty() && e.args[0]->kind == ExprKind::Call && holds_conv(*e.args[0])) {
      epilogue(*e.args[0]);   // the conv first: the crop indexes its rank
      crop(e);
      return;
    }
    if (e.kind == ExprKind::Call && (e.text == "conv" || e.text == "conv_transpose")) {
      conv_call(e);
      return;
    }
    if (e.kind == ExprKind::Call && e.text == "avg_pool") {   // folded into the taps: a stride-1 2-D conv only
      if (e.args.size() != 1 || e.args[0]->kind != ExprKind::Call || e.args[0]->text != "conv" || e.kwargs.size() != 1 ||
          e.kwargs[0].first != "size") {
        d_.error(e.range, "avg_pool() pools a conv's output by size=", "avg_pool(conv(x, weight, bias), size=pool)");
        return;
      }
      conv_call(*e.args[0]);
      geom_arg(*e.kwargs[0].second, "size", cs_.pool);
      if (cs_.mode != "conv" || cs_.stride.attr >= 0 || cs_.stride.value != 1 || cs_.padding.attr >= 0 ||
          cs_.padding.value != 0 || cs_.dilation.attr >= 0 || cs_.dilation.value != 1)
        d_.error(e.range, "avg_pool() folds into a plain conv (stride 1, no padding, no dilation)",
                 "avg_pool(conv(x, weight, bias), size=pool)");
      cs_.mode = "pool";
      return;
    }
    if (e.kind == ExprKind::Call && (e.text == "relu" || e.text == "tanh" || e.text == "sigmoid" || e.text == "silu") &&
        e.args.size() == 1) {
      epilogue(*e.args[0]);
      cs_.epi.push_back({e.text, ""});
      return;
    }
    if (e.kind == ExprKind::Binary && e.args.size() == 2 && (e.text == "*" || e.text == "+" || e.text == "-")) {
      std::string s;
      const bool left_conv = holds_conv(*e.args[0]);
      const Expr& inner = left_conv ? *e.args[0] : *e.args[1];
      const Expr& other = left_conv ? *e.args[1] : *e.args[0];
      if (e.text == "-" && !left_conv) {
        d_.error(e.range, "the conv is the left operand of '-'", "conv(...) - s");
        return;
      }
      epilogue(inner);
      if (scalar(other, s)) {
        cs_.epi.push_back({e.text == "*" ? "muls" : "adds", e.text == "-" ? "-" + s : s});
        return;
      }
      if (e.text == "+" && channel_vector(other)) {
        cs_.epi.push_back({"chan_add", ""});
        return;
      }
      d_.error(other.range, "'" + print_expr(other) + "' is not a scalar or a per-channel input of the epilogue",
               e.text == "+" ? "add a number, an f32 attr or one input b: T[co, 1, 1]" : "a number or an f32 attr");
      return;
    }
    d_.error(e.range, "'" + print_expr(e) + "' is not a step of a convolution's epilogue",
             "the conv's result may pass through relu, tanh, sigmoid, silu, '* s', '+ s', '- s' and '+ b' (b: T[co, 1, 1])");
  }

  const Program& p_;
  Kernel& k_;
  Diags& d_;
  ConvSpec cs_;
};
}  // namespace

bool is_conv_program(const Program& p) {
  if (p.body.size() != 1 || p.body[0]->kind != StmtKind::Expr || !p.body[0]->value) return false;
  const Expr& s = *p.body[0]->value;
  return s.kind == ExprKind::Call && s.text == "store" && s.args.size() == 2 && holds_conv(*s.args[1]);
}

void check_conv(const Program& p, Kernel& k, Diags& d) { ConvChecker(p, k, d).run(); }
}  // namespace kgen::tile
