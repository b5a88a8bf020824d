// The semantic checks and the lowering of expressions to SSA instructions (sema.h).
#include "tile/sema.h"

#include "op/kernel_name.h"
#include "tile/host_scalars.h"
#include "tile/attention.h"
#include "tile/cube.h"
#include "tile/staged.h"
#include "tile/pool.h"
#include "tile/conv.h"
#include "tile/row_matmul.h"
#include "tile/index.h"
#include "tile/i64_load.h"
#include "tile/repeat_rows.h"
#include "tile/resize.h"
#include "tile/sema_group.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

namespace kgen::tile {
namespace {
constexpr int64_t kMaxKRows = 256;        // values per position of a K-row output (y: T[*outer, K, *inner])
constexpr double kMaxUnrolled = 256;      // copies of a range loop's body (nested loops multiply)

// What the 910B vector unit computes per dtype (count-form APIs and the kt:: helpers they lower to). The 310P has no
// bfloat16 at all. Moves (load/store/cast) are always available.
bool supports(const std::string& fn, DType t) {
  // Rounding to an integral value is a float32 -> float32 Cast (RINT / FLOOR / CEIL / TRUNC); half has no half ->
  // half Cast.
  if (fn == "round" || fn == "floor" || fn == "ceil" || fn == "trunc") return t == DType::F32;
  const bool fp = t == DType::F32 || t == DType::F16;
  static const std::set<std::string> int_ok = {"add", "sub", "mul", "max", "min", "relu", "abs", "fill", "select",
                                               "rsub"};
  if (fp) return true;
  if (t == DType::I32) return int_ok.count(fn) > 0;
  return fn == "fill";
}

const std::set<std::string> kUnary = {"exp",  "log",  "sqrt", "rsqrt", "abs",       "relu",     "sigmoid",
                                      "tanh", "erf",  "gelu", "gelu_tanh", "silu",  "softplus", "reciprocal",
                                      "hardsigmoid", "round", "floor", "ceil", "trunc"};
const std::set<std::string> kUnaryScalar = {"leaky_relu", "elu"};
const std::vector<std::string> kAllFunctions = {
    "load", "store", "cast", "exp", "log", "sqrt", "rsqrt", "abs", "relu", "sigmoid", "tanh", "erf", "gelu",
    "gelu_tanh", "silu", "softplus", "reciprocal", "hardsigmoid", "round", "floor", "ceil", "trunc", "leaky_relu",
    "elu", "min", "max", "sum", "mean", "prod", "clamp", "where", "tiles", "cumsum", "cumprod", "cummax", "cummin",
    "logcumsumexp", "axis_index"};
// Cumulative ops along the axis r of a slab (axis programs): the function and its kt::Scan.
const std::map<std::string, std::string> kScans = {
    {"cumsum", "sum"}, {"cumprod", "prod"}, {"cummax", "max"}, {"cummin", "min"}, {"logcumsumexp", "logsumexp"}};

// An operand during lowering: a value (tile or mask) or a scalar.
struct Operand {
  bool ok = false;
  bool scalar = false;
  int value = -1;
  ScalarExpr s;
  TypeOf scalar_type{-1, DType::F32};   // scalars adapt to the tile they meet
};

class Checker {
 public:
  Checker(const Program& p, const std::string& soc, Kernel& k, Diags& d) : p_(p), soc_(soc), k_(k), d_(d) {}

  bool run() {
    k_.name = p_.name;
    k_.op_type = camel_lower(p_.name) + "Custom";
    if (!k_.op_type.empty()) k_.op_type[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(k_.op_type[0])));
    k_.kernel_symbol = op::snake_case(k_.op_type);   // as CANN names it: prefix_sum_2d -> PrefixSum2dCustom -> prefix_sum2d_custom
    k_.doc = p_.doc;
    k_.file = p_.file;
    if (p_.name.empty()) {
      d_.error(p_.header_range, "the program has no kernel", "start with `kernel NAME(x: T[*n]) -> (y: T[*n]):`");
      return false;
    }
    for (char c : p_.name)
      if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
        d_.error(p_.name_range, "kernel name '" + p_.name + "' is not snake_case",
                 "use lower-case letters, digits and '_' (the op type is its CamelCase + \"Custom\")");
        break;
      }
    dtypes();
    if (is_conv_program(p_)) {   // convolutions (list attrs, attr-sized outputs, epilogue): sema_conv.cpp
      check_conv(p_, k_, d_);
      return !d_.has_errors();
    }
    if (is_resize_program(p_)) {   // interpolation with list attrs and attr-sized outputs: sema_resize.cpp
      check_resize(p_, k_, d_);
      return !d_.has_errors();
    }
    header();
    check_optional_inputs(k_, is_cube_program(p_), d_);   // `= None` inputs: sema_optional.cpp
    if (is_staged_program(p_)) check_staged(p_, soc_, k_, d_);   // cube stages and sync(): sema_staged.cpp
    else if (is_row_matmul_program(p_)) check_row_matmul(p_, k_, d_);   // one mma, whole-row ops: sema_row_matmul.cpp
    else if (is_attention_program(p_)) check_attention(p_, k_, d_);   // cube + vector cores: sema_attention.cpp
    else if (is_cube_program(p_)) check_cube(p_, soc_, k_, d_);   // matmul on the cube cores: sema_cube.cpp
    else if (is_index_program(p_)) check_index(p_, k_, d_);   // gathers and scatters: sema_index.cpp
    else if (is_pool_program(p_)) check_pool(p_, k_, d_);    // pooling windows: sema_pool.cpp
    else body();
    return !d_.has_errors();
  }

 private:
  // --- header ------------------------------------------------------------------------------------------------
  void dtypes() {
    for (const DtypeDecl& dd : p_.dtypes) {
      DType t;
      if (parse_dtype(dd.var, t)) {
        d_.error(dd.var_range, "'" + dd.var + "' is a dtype, not a dtype variable", "name the variable T (or U, ...)");
        continue;
      }
      for (const auto& v : k_.dtype_vars)
        if (v.name == dd.var) d_.error(dd.var_range, "dtype variable '" + dd.var + "' is declared twice");
      if (!dd.base.empty()) {
        mapped_dtype_var(dd);
        continue;
      }
      DtypeVar v{dd.var, {}};
      for (size_t i = 0; i < dd.types.size(); ++i) {
        DType ty;
        if (!parse_dtype(dd.types[i], ty)) {
          d_.error(dd.type_ranges[i], "unknown dtype '" + dd.types[i] + "'",
                   hint_dtype(dd.types[i]));
          continue;
        }
        if (ty == DType::BF16 && soc_.find("310") != std::string::npos)
          d_.error(dd.type_ranges[i], soc_ + " has no bfloat16", "drop bf16 from the list for this SoC");
        if (std::find(v.types.begin(), v.types.end(), ty) != v.types.end())
          d_.error(dd.type_ranges[i], "dtype '" + dd.types[i] + "' is listed twice");
        if (ty == DType::I64 && !is_index_program(p_))   // index programs read i64 indices
          d_.error(dd.type_ranges[i], "a dtype column cannot be i64: the vector unit has no int64 arithmetic",
                   "compute in i32 and map the output's dtype: dtype U = " + dd.var + "(i32 -> i64)");
        v.types.push_back(ty);
      }
      if (dd.types.empty()) d_.error(dd.range, "dtype variable '" + dd.var + "' lists no dtype", "dtype T in (f32, f16)");
      k_.dtype_vars.push_back(v);
    }
  }

  // `dtype U = T(i32 -> i64)`: U follows T's columns; each listed type of T maps to the given one, the others to
  // themselves.
  void mapped_dtype_var(const DtypeDecl& dd) {
    int base = -1;
    for (size_t i = 0; i < k_.dtype_vars.size(); ++i)
      if (k_.dtype_vars[i].name == dd.base) base = static_cast<int>(i);
    if (base < 0 || k_.dtype_vars[base].base >= 0) {
      d_.error(dd.base_range, base < 0 ? "'" + dd.base + "' is not a dtype variable declared above"
                                       : "'" + dd.base + "' is itself a mapped dtype variable",
               "declare the input's variable first: dtype T in (f32, i32), then dtype " + dd.var + " = T(i32 -> i64)");
      return;
    }
    DtypeVar v{dd.var, k_.dtype_vars[base].types, base};
    std::vector<DType> seen;
    for (size_t i = 0; i < dd.keys.size(); ++i) {
      DType from, to;
      if (!parse_dtype(dd.keys[i], from)) {
        d_.error(dd.key_ranges[i], "unknown dtype '" + dd.keys[i] + "'", hint_dtype(dd.keys[i]));
        continue;
      }
      if (!parse_dtype(dd.types[i], to)) {
        d_.error(dd.type_ranges[i], "unknown dtype '" + dd.types[i] + "'", hint_dtype(dd.types[i]));
        continue;
      }
      auto at = std::find(v.types.begin(), v.types.end(), from);
      const auto& bt = k_.dtype_vars[base].types;
      auto in_base = std::find(bt.begin(), bt.end(), from);
      if (in_base == bt.end()) {
        std::string list;
        for (DType t : bt) list += (list.empty() ? "" : ", ") + std::string(dtype_name(t));
        d_.error(dd.key_ranges[i], "'" + dd.keys[i] + "' is not a dtype of " + dd.base + " (" + list + ")",
                 "map only the dtypes " + dd.base + " lists");
        continue;
      }
      if (std::find(seen.begin(), seen.end(), from) != seen.end()) {
        d_.error(dd.key_ranges[i], "'" + dd.keys[i] + "' is mapped twice");
        continue;
      }
      seen.push_back(from);
      (void)at;
      v.types[in_base - bt.begin()] = to;
    }
    k_.dtype_vars.push_back(v);
  }

  // An i64 tensor is written from i32 (or f32) values: Cast int32 -> int64 on the way out. `value` and `tensor`
  // are compared column by column (a mapped variable goes with its base's column).
  bool i64_store_ok(TypeOf value, TypeOf tensor, Range r) {
    std::vector<std::pair<DType, DType>> pairs;
    const auto ev = each(value), et = each(tensor);
    auto root = [&](int v) { return k_.dtype_vars[v].base >= 0 ? k_.dtype_vars[v].base : v; };
    const bool aligned = value.var >= 0 && tensor.var >= 0 && root(value.var) == root(tensor.var);
    for (size_t i = 0; i < ev.size(); ++i)
      for (size_t j = 0; j < et.size(); ++j)
        if (!aligned || i == j) pairs.push_back({ev[i], et[j]});
    for (auto [v, t] : pairs)
      if (t == DType::I64 && v != DType::I32 && v != DType::F32) {
        d_.error(r, fmt::format("storing a {} value into an i64 output", dtype_name(v)),
                 "i64 outputs are written from i32 (or f32) values: cast(v, i32)");
        return false;
      }
    return true;
  }

  std::string hint_dtype(const std::string& s) {
    std::string c = closest(s, {"f32", "f16", "bf16", "i32", "i8", "u8", "bool", "i64"});
    return c.empty() ? "dtypes: f32, f16, bf16, i32, i8, u8, bool, i64" : "did you mean '" + c + "'?";
  }

  bool type_of(const TypeRef& r, TypeOf& t) {
    DType d;
    if (parse_dtype(r.dtype, d)) {
      t = {-1, d};
      return true;
    }
    for (size_t i = 0; i < k_.dtype_vars.size(); ++i)
      if (k_.dtype_vars[i].name == r.dtype) {
        t = {static_cast<int>(i), DType::F32};
        return true;
      }
    std::vector<std::string> names = {"f32", "f16", "bf16", "i32", "i8", "u8", "bool"};
    for (auto& v : k_.dtype_vars) names.push_back(v.name);
    std::string c = closest(r.dtype, names);
    d_.error(r.dtype_range, "unknown dtype or dtype variable '" + r.dtype + "'",
             c.empty() ? "declare it first: dtype " + r.dtype + " in (f32, f16)" : "did you mean '" + c + "'?");
    return false;
  }

  // `bias: T[n] = None`: an optional input (absent when the task's layer has bias=False).
  void optional_input(const Param& pa, TensorArg& t) {
    const Expr& v = *pa.default_value;
    if (v.kind == ExprKind::Name && v.text == "None") {
      t.optional = true;
      return;
    }
    d_.error(v.range, "a tensor input's only default is None (an optional input)",
             pa.name + ": ... = None  (absent inputs read as zeros in a cube epilogue)");
  }

  void header() {
    std::set<std::string> names;
    auto unique = [&](const std::string& n, Range r) {
      if (!names.insert(n).second) d_.error(r, "'" + n + "' is declared twice", "give each parameter its own name");
    };
    for (const Param& pa : p_.params) {
      unique(pa.name, pa.name_range);
      if (pa.type.is_tensor) {
        TensorArg t{pa.name, false, {}, pa.type.dims, pa.range};
        if (type_of(pa.type, t.type) && input_type_ok(pa, t.type)) {
          chunk_view(t);
          dims(t, static_cast<int>(k_.tensors.size()), true);
          if (pa.default_value) optional_input(pa, t);
          k_.tensors.push_back(t);
        }
      } else {
        AttrArg a{pa.name, DType::F32, 0, pa.range};
        if (pa.type.dtype == "f32" || pa.type.dtype == "float") a.type = DType::F32;
        else if (pa.type.dtype == "i32" || pa.type.dtype == "int") a.type = DType::I32;
        else if (pa.type.dtype == "bool") a.type = DType::Bool;
        else {
          d_.error(pa.type.dtype_range, "attr '" + pa.name + "' has type '" + pa.type.dtype + "'",
                   "attrs are f32, i32 or bool scalars; a tensor needs dims: " + pa.name + ": " + pa.type.dtype +
                       "[*n]");
          continue;
        }
        if (!pa.default_value) {
          d_.error(pa.name_range, "attr '" + pa.name + "' has no default value",
                   "write " + pa.name + ": " + pa.type.dtype + " = " + (a.type == DType::Bool ? "false" : "0"));
        } else if (!constant(*pa.default_value, a.default_value)) {
          d_.error(pa.default_value->range, "the default of attr '" + pa.name + "' is not a constant",
                   "write a number, true or false");
        }
        k_.attrs.push_back(a);
      }
    }
    axis_markers();
    if (k_.tensors.empty())
      d_.error(p_.header_range, "the kernel has no tensor input", "add one: kernel " + p_.name + "(x: T[*n]) -> ...");
    if (p_.outputs.empty())
      d_.error(p_.header_range, "the kernel has no output", "add one after '->': -> (y: T[*n])");
    for (const Param& pa : p_.outputs) {
      unique(pa.name, pa.name_range);
      if (!pa.type.is_tensor) {   // a 0-dim output (a loss, a full reduction), written after the loop
        TensorArg t{pa.name, true, {}, {}, pa.range};
        if (type_of(pa.type, t.type)) k_.tensors.push_back(t);
        continue;
      }
      TensorArg t{pa.name, true, {}, pa.type.dims, pa.range};
      // y: T[*outer, K, *inner] of a chunk view: x's whole shape, its chunks stored one by one (y[k, c])
      if (k_.axis_chunks > 0 && t.dims.size() == 3 && t.dims[1].name.empty() && t.dims[1].value == k_.axis_chunks &&
          t.dims[0].star && t.dims[2].star)
        t.dims[1].name = "chunk_count";
      if (type_of(pa.type, t.type)) {
        dims(t, static_cast<int>(k_.tensors.size()), false);
        k_.tensors.push_back(t);
      }
    }
  }

  bool constant(const Expr& e, double& v) {
    if (e.kind == ExprKind::Number) {
      v = e.number;
      return true;
    }
    if (e.kind == ExprKind::Name && (e.text == "true" || e.text == "false")) {
      v = e.text == "true";
      return true;
    }
    if (e.kind == ExprKind::Name && e.text == "inf") {
      v = INFINITY;
      return true;
    }
    if (e.kind == ExprKind::Name && range_vars_.count(e.text)) {   // the iteration's number
      v = locals_.at(e.text).s.value;
      return true;
    }
    if (e.kind == ExprKind::Unary && e.text == "-" && e.args.size() == 1 && constant(*e.args[0], v)) {
      v = -v;
      return true;
    }
    return false;
  }

  // A chunk view x: T[*outer, 2 @ dim, *inner]: dim `dim` of x split into 2 equal chunks (torch's x.chunk(2, dim)),
  // the chunk number being the axis. The axis dim is named `chunk_count` (`chunks` is a tiling field); the host takes
  // r = 2 and inner = size / 2 * (the dims after).
  void chunk_view(TensorArg& t) {
    for (Dim& d : t.dims) {
      if (d.axis_attr.empty() || !d.name.empty()) continue;
      if (d.value < 2 || (k_.axis_chunks > 0 && k_.axis_chunks != d.value)) {
        d_.error(d.range, d.value < 2 ? "a chunk view splits its dim into at least 2 chunks"
                                      : "chunk views of one kernel split their dim into different numbers of chunks",
                 "x: T[*outer, 2 @ dim, *inner] sees dim `dim` of x as 2 equal halves (x.chunk(2, dim))");
        continue;
      }
      k_.axis_chunks = d.value;
      d.name = "chunk_count";
    }
  }

  // An axis view x: T[*outer, r @ dim, *inner]: the three syms are found from the attr at run time.
  bool axis_view(const TensorArg& t, int index, bool input) {
    int markers = 0;
    for (const Dim& d : t.dims) markers += !d.axis_attr.empty();
    if (markers == 0) return false;
    const Dim* m = nullptr;
    for (const Dim& d : t.dims)
      if (!d.axis_attr.empty()) {
        if (m) {
          d_.error(d.axis_range, "tensor '" + t.name + "' has two axis markers",
                   "one axis per view: x: T[*outer, r @ dim, *inner]");
          return true;
        }
        m = &d;
      }
    if (!input) {
      d_.error(m->range, "an axis marker on output '" + t.name + "'",
               "the marker belongs to the input the axis is chosen in; the output is " + t.name +
                   ": T[*outer, 1, *inner] or T[*outer, *inner]");
      return true;
    }
    if (t.dims.size() != 3 || !t.dims[0].star || t.dims[1].star || &t.dims[1] != m || !t.dims[2].star) {
      d_.error(m->range, "an axis marker needs the dims on both sides of it: " + t.name + ": T[*outer, " + m->name +
                             " @ " + m->axis_attr + ", *inner]",
               "*outer and *inner stand for any number of dims (possibly none) before and after the axis");
      return true;
    }
    for (int part = 0; part < 3; ++part) {
      const Dim& d = t.dims[part];
      if (int si = sym_index(k_, d.name); si >= 0) {
        if (k_.syms[si].part != part)
          d_.error(d.range, "'" + d.name + "' is already another dim", "give each dim of an axis view its own name");
        continue;
      }
      Sym sy{d.name, index, 0, 0, d.star};
      sy.part = part;
      k_.syms.push_back(sy);
    }
    pending_axes_.push_back({index, m->axis_attr, m->axis_range});
    return true;
  }

  // After the attrs are known: each axis marker names an i32 attr, the same one in every view.
  void axis_markers() {
    for (const auto& [tensor, attr, range] : pending_axes_) {
      const int a = attr_index(k_, attr);
      if (a < 0 || k_.attrs[a].type != DType::I32) {
        d_.error(range, a < 0 ? "'" + attr + "' is not an attr of the kernel" : "attr '" + attr + "' is not an i32",
                 "the axis is chosen by an i32 attr: kernel f(x: T[*outer, r @ " + attr + ", *inner], " + attr +
                     ": i32 = 1)");
        continue;
      }
      if (k_.axis_attr >= 0 && k_.axis_attr != a) {
        d_.error(range, "views chosen by two attrs", "all axis views of a kernel share one attr");
        continue;
      }
      k_.axis_attr = a;
      if (k_.axis_tensor < 0) k_.axis_tensor = tensor;
    }
  }

  // An output of an axis view's positions: [*outer, 1, *inner] (keepdim) or [*outer, *inner]. True when the output
  // uses the view's dims (and then reports any other pattern).
  bool axis_output(const TensorArg& t) {
    bool uses = false, axis = false;
    for (const Dim& d : t.dims)
      if (int si = sym_index(k_, d.name); si >= 0 && k_.syms[si].part >= 0) {
        uses = true;
        axis |= k_.syms[si].part == 1;   // reported by dims()
      }
    if (!uses || axis) return uses;
    const auto& ds = t.dims;
    auto part = [&](const Dim& d, int p) { return d.star && sym_index(k_, d.name) >= 0 && k_.syms[sym_index(k_, d.name)].part == p; };
    const bool keep = ds.size() == 3 && part(ds[0], 0) && ds[1].name.empty() && ds[1].value == 1 && part(ds[2], 2);
    const bool drop = ds.size() == 2 && part(ds[0], 0) && part(ds[1], 2);
    if (ds.size() == 3 && part(ds[0], 0) && ds[1].name.empty() && ds[1].value >= 2 && part(ds[2], 2)) {
      if (ds[1].value > kMaxKRows)   // the row-mode gather's offsets take whole rows of K (kt::RowsFromChunks)
        d_.error(ds[1].range, fmt::format("{} values per position; at most {}", ds[1].value, kMaxKRows),
                 "store at most " + std::to_string(kMaxKRows) + " rows along the axis");
      return true;   // K values per position, stored row by row: y[j, c]
    }
    if (keep && k_.axis_chunks > 0)
      d_.error(t.range, "output '" + t.name + "' of a chunk view is one chunk: [*outer, *inner]",
               "the chunks are combined along the axis (prod, sum, ...) into the shape of one chunk");
    if (!keep && !drop)
      d_.error(t.range, "output '" + t.name + "' of an axis view must be [*outer, 1, *inner], [*outer, *inner] or "
                            "[*outer, K, *inner]",
               "a reduction leaves one value per position of the dims around the axis; K values per position (a "
               "literal K, such as the k largest) are stored row by row, store(y[j, c], ...)");
    return true;
  }

  // Binds each dim name of an input to its source; checks an output's names are bound.
  void dims(const TensorArg& t, int index, bool input) {
    if (axis_view(t, index, input)) return;
    // An input shaped by the view's dims (one value per position, per outer or per inner index): the host checks it
    // against the view's shape at run time.
    if (input) {
      const AxisShape as = axis_shape(k_, t);
      if (as == AxisShape::Positions || as == AxisShape::Outer || as == AxisShape::Inner ||
          as == AxisShape::Periodic)
        return;
    }
    int stars = 0;
    const int nd = static_cast<int>(t.dims.size());
    for (int i = 0; i < nd; ++i) {
      const Dim& d = t.dims[i];
      stars += d.star;
      if (d.name.empty()) {
        if (d.value < 1) d_.error(d.range, "a literal dim must be at least 1");
        continue;
      }
      if (std::find_if(k_.attrs.begin(), k_.attrs.end(), [&](const AttrArg& a) { return a.name == d.name; }) !=
          k_.attrs.end())
        d_.error(d.range, "dim '" + d.name + "' has the name of an attr", "rename one of them");
      auto it = std::find_if(k_.syms.begin(), k_.syms.end(), [&](const Sym& s) { return s.name == d.name; });
      if (it != k_.syms.end() && it->part >= 0 && input) {
        std::string outer = "outer", inner = "inner";   // the view's own names for them
        for (const Sym& sy : k_.syms)
          if (sy.tensor == it->tensor && sy.part == 0) outer = sy.name;
          else if (sy.tensor == it->tensor && sy.part == 2) inner = sy.name;
        const std::string ty = tname(t.type);
        d_.error(d.range, "'" + d.name + "' is a dim of the axis view '" + k_.tensors[it->tensor].name +
                              "', found at run time from its attr",
                 "view this input around the same axis, shape it by the view's dims (one value per position: " +
                     t.name + ": " + ty + "[*" + outer + ", 1, *" + inner + "]; per outer index: " + t.name + ": " +
                     ty + "[*" + outer + "]; per inner index: " + t.name + ": " + ty + "[*" + inner +
                     "]), or give the dim its own name");
        continue;
      }
      if (it != k_.syms.end() && it->part == 1 && !input && axis_shaped(t)) continue;   // a scan's output
      if (it != k_.syms.end() && it->part == 1) {
        d_.error(d.range, "the axis '" + d.name + "' in output '" + t.name + "'",
                 "a reduction over the axis leaves 1 there: " + t.name + ": T[*outer, 1, *inner] (keepdim) or T[*outer, "
                 "*inner]; a cumulative op keeps the whole axis: " + t.name + ": T[*outer, " + d.name + ", *inner]");
        continue;
      }
      if (it != k_.syms.end()) {
        if (it->star != d.star)
          d_.error(d.range, "'" + d.name + "' is " + (d.star ? "a starred dim here" : "a single dim here") +
                                " but " + (it->star ? "a starred dim" : "a single dim") + " in '" +
                                (it->tensor < static_cast<int>(k_.tensors.size()) ? k_.tensors[it->tensor].name : t.name) +
                                "'",
                   "use one form for a name everywhere");
        continue;
      }
      if (!input && is_pool_program(p_)) continue;   // a pooling output's window sizes: found from the attrs
      if (!input) {
        d_.error(d.range, "dim '" + d.name + "' of output '" + t.name + "' is not a dim of any input",
                 "an output's dims come from the inputs' dims");
        continue;
      }
      k_.syms.push_back({d.name, index, nd - 1 - i, nd - 1 - i, d.star});
    }
    if (!input && axis_output(t)) return;
    if (stars > 1)
      d_.error(t.range, "tensor '" + t.name + "' has " + std::to_string(stars) + " starred dims",
               "at most one: *m stands for all the leading dims");
    if (t.dims.empty() && input) d_.error(t.range, "tensor '" + t.name + "' has no dims", "x: T[*n] for any shape");
  }


  // --- body --------------------------------------------------------------------------------------------------
  void body() {
    const Stmt* loop = nullptr;
    // The loop's header first: whether the program is flat or over rows decides what the prologue may load.
    for (const StmtPtr& s : p_.body)
      if (s->kind == StmtKind::For) {
        loop_header(*s);
        break;
      }
    const size_t errors_before_body = d_.error_count();
    for (const StmtPtr& s : p_.body) {
      if (s->kind == StmtKind::For) {
        if (loop) {
          second_loop(*s, *loop);
          continue;
        }
        loop = s.get();
        in_loop_ = true;
        for (const StmtPtr& b : s->body) stmt(*b);
        in_loop_ = false;
      } else if (k_.phase2 >= 0) {
        d_.error(s->range, "a statement after the second tiles loop",
                 "the second loop is the program's last statement: store its results in it");
      } else if (loop && accs_.empty()) {
        d_.error(s->range, "a statement after the tiles loop",
                 "only an accumulator's result is computed after the loop (total = 0.0, total += sum(v), then "
                 "store(loss, total)); move this into the loop or before it");
      } else if (loop) {
        after_loop_ = true;   // the epilogue: combined accumulators into 0-dim outputs
        stmt(*s);
      } else {
        stmt(*s);
      }
    }
    if (!loop && !d_.has_errors())
      d_.error(p_.header_range, "the kernel has no tiles loop",
               "add one: for t in tiles(n):  (flat) or  for r in tiles(m):  (rows of x: T[*m, n])");
    bool stored[64] = {};
    for (const auto* list : {&k_.body, &k_.epilogue})
      for (const Instr& in : *list)
        if (in.op == Op::Store && in.tensor >= 0 && in.tensor < 64) stored[in.tensor] = true;
    for (const auto& [name, acc] : accs_)
      if (!combined_.count(name))
        d_.warning(k_.values[acc].name.empty() ? p_.header_range : p_.header_range,
                   "accumulator '" + name + "' is never used after the loop");
    for (size_t i = 0; i < k_.tensors.size() && i < 64; ++i)
      if (k_.tensors[i].output && !stored[i] && loop && d_.error_count() == errors_before_body)
        d_.error(k_.tensors[i].range, "output '" + k_.tensors[i].name + "' is never stored",
                 "store(" + k_.tensors[i].name + "[" + k_.loop_var + (k_.rows ? ", :" : "") + "], VALUE) in the loop");
    if (d_.error_count() == errors_before_body) chunk_stores();
  }

  // The rows along the axis an output stored one by one holds: a K-row output's literal K, a chunk view's chunks.
  int64_t krows_of(const TensorArg& t) const {
    return axis_shape(k_, t) == AxisShape::KRows ? t.dims[1].value : k_.axis_chunks;
  }

  // The chunks of an output stored one by one (y[k, c]): each exactly once, and no whole-slab store beside them.
  void chunk_stores() {
    for (size_t ti = 0; ti < k_.tensors.size(); ++ti) {
      std::map<int, int> times;        // chunk -> stores of it (the chunk count is a literal of any size)
      std::map<int, Range> again;      // a chunk's second store
      bool chunked = false, whole = false;
      Range last;
      for (const Instr& in : k_.body)
        if (in.op == Op::Store && in.tensor == static_cast<int>(ti)) {
          last = in.range;
          if (in.chunk >= 0) {
            chunked = true;
            if (++times[in.chunk] == 2) again[in.chunk] = in.range;
          } else {
            whole = true;
          }
        }
      if (!chunked || krows_of(k_.tensors[ti]) > kMaxKRows) continue;   // (too many rows: reported)
      const std::string& y = k_.tensors[ti].name;
      if (whole) {
        d_.error(last, "output '" + y + "' is stored whole and by chunks", "store either y[:, c] or each y[k, c]");
        continue;
      }
      const int64_t rows = krows_of(k_.tensors[ti]);
      const char* what = axis_shape(k_, k_.tensors[ti]) == AxisShape::KRows ? "row" : "chunk";
      const std::string hint = fmt::format("store each of the {} {}s once: store({}[k, {}], ...) for k = 0..{}",
                                           rows, what, y, k_.loop_var, rows - 1);
      for (const auto& [c, n] : times)
        if (n > 1) d_.error(again[c], fmt::format("{} {} of output '{}' is stored twice", what, c, y), hint);
      for (int64_t c = 0; c < rows; ++c)   // the first one no store writes
        if (!times.count(static_cast<int>(c))) {
          d_.error(k_.tensors[ti].range, fmt::format("{} {} of output '{}' is stored by no store", what, c, y), hint);
          break;
        }
    }
  }

  // A second `for t in tiles(n)` after the epilogue (a two-phase program: Frobenius normalization, LAMB's trust
  // ratio): the whole-tensor totals of the first loop, combined on every core, scale a second pass over the tensor.
  void second_loop(const Stmt& s, const Stmt& first) {
    if (k_.phase2 >= 0) {
      d_.error(s.range, "a third tiles loop", "a program has at most two loops: a reduction, then a pass that uses it");
      return;
    }
    if (accs_.empty() || k_.rows || k_.axis || k_.cube) {
      d_.error(s.range, "a second tiles loop",
               "a second loop follows a flat loop that accumulates (total += sum(v)) and reads its totals; otherwise "
               "put both computations in one loop");
      return;
    }
    if (s.loop_vars.size() != 1 || !s.value || !first.value || print_expr(*s.value) != print_expr(*first.value)) {
      d_.error(s.value ? s.value->range : s.range, "the second loop iterates differently from the first",
               "both loops cover the same tensor: for " + k_.loop_var + " in " +
                   (first.value ? print_expr(*first.value) : std::string("tiles(n)")) + ":");
      return;
    }
    for (auto it = locals_.begin(); it != locals_.end();) {   // the first loop's tiles end with it
      const bool tile = !it->second.scalar && it->second.value >= 0 && !k_.values[it->second.value].resident &&
                        !k_.values[it->second.value].epilogue;
      if (tile) first_loop_names_.insert(it->first), it = locals_.erase(it);
      else ++it;
    }
    k_.loop_var = s.loop_vars[0];
    k_.phase2 = static_cast<int>(k_.body.size());
    in_loop_ = phase2_ = true;
    after_loop_ = false;
    for (const StmtPtr& b : s.body) stmt(*b);
    in_loop_ = phase2_ = false;
  }

  // A name in the second loop: an epilogue value or a combined accumulator becomes a scalar (read from UB once, after
  // the epilogue); a tile of the first loop is an error. False: not such a name.
  bool phase2_name(const Expr& e, Operand& o) {
    const std::string& n = e.text;
    if (first_loop_names_.count(n) && !locals_.count(n)) {
      d_.error(e.range, "'" + n + "' is a tile of the first loop", "load it again in the second loop");
      o = {};
      return true;
    }
    Operand v;
    if (accs_.count(n)) {   // the combined total, computed in the epilogue
      phase2_ = in_loop_ = false;
      after_loop_ = true;
      v = name(e);
      after_loop_ = false;
      phase2_ = in_loop_ = true;
    } else if (auto it = locals_.find(n); it != locals_.end()) v = it->second;
    else return false;
    if (!v.ok || v.scalar || !k_.values[v.value].epilogue) {
      o = v;
      return true;
    }
    if (k_.values[v.value].mask) {
      d_.error(e.range, "'" + n + "' is a comparison; the second loop reads numbers", "use where() after the loop");
      o = {};
      return true;
    }
    std::string member;
    for (const auto& [val, m] : k_.phase_scalars)
      if (val == v.value) member = m;
    if (member.empty()) {
      member = camel_lower(n) + "S_";
      k_.phase_scalars.emplace_back(v.value, member);
    }
    o = {};
    o.ok = o.scalar = true;
    o.s.cpp = member;
    o.scalar_type = {-1, DType::F32};
    return true;
  }

  void loop_header(const Stmt& s) {
    if (s.loop_vars.size() != 1) {
      d_.error(s.range, "a tiles loop has one loop variable", "for t in tiles(n):");
      return;
    }
    k_.loop_var = s.loop_vars[0];
    if (sym_index(k_, k_.loop_var) >= 0 || tensor_index(k_, k_.loop_var) >= 0 || attr_index(k_, k_.loop_var) >= 0)
      d_.error(s.loop_var_ranges[0], "the loop variable '" + k_.loop_var + "' has the name of a dim, tensor or attr",
               "call it something else, e.g. t or r");
    const Expr* it = s.value.get();
    if (!it || it->kind != ExprKind::Call || it->text != "tiles") {
      d_.error(it ? it->range : s.range, "the loop must iterate over tiles(...)", "for t in tiles(n, buffers=2):");
      return;
    }
    if (it->args.size() == 2) {
      axis_loop(*it);
      loop_options(*it);
      return;
    }
    if (it->args.size() != 1 || it->args[0]->kind != ExprKind::Name) {
      d_.error(it->range, "tiles() takes one dim name", "tiles(n) over a flat x: T[*n], tiles(m) over rows of x: T[*m, n]");
      return;
    }
    const std::string& ext = it->args[0]->text;
    int si = sym_index(k_, ext);
    if (si < 0) {
      std::vector<std::string> names;
      for (auto& y : k_.syms) names.push_back(y.name);
      std::string c = closest(ext, names);
      d_.error(it->args[0]->range, "'" + ext + "' is not a dim of any input",
               c.empty() ? "iterate over a dim name of an input" : "did you mean '" + c + "'?");
      return;
    }
    if (k_.syms[si].part >= 0) {
      d_.error(it->args[0]->range, "'" + ext + "' is a dim of the axis view '" + k_.tensors[k_.syms[si].tensor].name + "'",
               "iterate over the positions around the axis: tiles(" + sym_name(0) + ", " + sym_name(2) + ")");
      return;
    }
    k_.extent_sym = si;
    // Flat if the extent is the only dim of its tensor's pattern; rows if it is the leading part of [*m, n].
    const TensorArg& t = k_.tensors[k_.syms[si].tensor];
    const Sym& sy = k_.syms[si];
    // A later input may view the extent as rows ([*m, n]) when the first one is a column of scales (a: T[*m]).
    bool later_rows = false;
    for (const TensorArg& u : k_.tensors)
      later_rows |= !u.output && u.dims.size() >= 2 && u.dims[0].star && u.dims[0].name == ext;
    if (t.dims.size() == 1 && !later_rows) {
      k_.rows = false;
    } else if ((t.dims.size() >= 2 && sy.first == static_cast<int>(t.dims.size()) - 1) || t.dims.size() == 1) {
      k_.rows = true;
      row_length(ext, *it->args[0]);
    } else {
      d_.error(it->args[0]->range, "tiles(" + ext + "): '" + ext + "' must be the whole of a flat tensor (x: T[*" +
                                       ext + "]) or the rows of x: T[*" + ext + ", n] (or T[*" + ext +
                                       ", h, w]: rows of h * w)",
               "describe the tensor by the view the loop needs");
    }
    loop_options(*it);
  }

  // The rows' length: the dims after m of the first tensor viewed as [*m, n], or [*m, h, w] for rows of h * w
  // elements (the trailing dims merged into one row: instance norm's planes); a column [*m, 1] may come first.
  void row_length(const std::string& m, const Expr& at) {
    for (const TensorArg& u : k_.tensors) {
      if (u.dims.size() < 2 || u.dims[0].name != m) continue;
      std::vector<std::string> names;
      for (size_t i = 1; i < u.dims.size(); ++i)
        if (!u.dims[i].name.empty() && !u.dims[i].star && sym_index(k_, u.dims[i].name) >= 0) names.push_back(u.dims[i].name);
      if (names.size() + 1 != u.dims.size()) continue;   // a column [*m, 1], or literals inside the row
      row_dims_ = names;
      if (names.size() == 1) {
        k_.row_sym = sym_index(k_, names[0]);
        return;
      }
      // Several dims: a dim for their product (h_w), read from the input that binds them.
      std::string joined = names[0];
      for (size_t i = 1; i < names.size(); ++i) joined += "_" + names[i];
      const Sym& lo = k_.syms[sym_index(k_, names.back())];
      const Sym& hi = k_.syms[sym_index(k_, names[0])];
      bool adjacent = lo.part < 0 && hi.part < 0 && lo.tensor == hi.tensor;
      for (size_t i = 0; i < names.size(); ++i) {
        const Sym& y = k_.syms[sym_index(k_, names[i])];
        adjacent &= y.tensor == hi.tensor && y.first == hi.first - static_cast<int>(i) && !y.star;
      }
      if (!adjacent || sym_index(k_, joined) >= 0) {
        d_.error(at.range, "the row dims " + joined + " of '" + u.name + "' cannot be merged into one row",
                 sym_index(k_, joined) >= 0 ? "'" + joined + "' is already a dim: rename it"
                                     : "the row's dims must be the last dims of one input, in the same order");
        return;
      }
      k_.row_sym = static_cast<int>(k_.syms.size());
      k_.syms.push_back({joined, hi.tensor, hi.first, lo.last, false});
      return;
    }
  }

  // The rows' dims as a pattern: "n" or "h, w".
  std::string row_pattern() const {
    std::string o;
    for (const std::string& n : row_dims_) o += (o.empty() ? "" : ", ") + n;
    return o.empty() ? "n" : o;
  }

  std::string sym_name(int part) const {
    for (const Sym& y : k_.syms)
      if (y.part == part) return y.name;
    return part == 0 ? "outer" : part == 1 ? "r" : "inner";
  }

  // tiles(outer, inner) over an axis view: the positions around the axis, each reduced over the whole axis.
  void axis_loop(const Expr& it) {
    const Expr& a = *it.args[0];
    const Expr& b = *it.args[1];
    const int so = a.kind == ExprKind::Name ? sym_index(k_, a.text) : -1, si = b.kind == ExprKind::Name ? sym_index(k_, b.text) : -1;
    if (so < 0 || si < 0 || k_.syms[so].part != 0 || k_.syms[si].part != 2 || k_.syms[so].tensor != k_.syms[si].tensor) {
      d_.error(it.range, "tiles(a, b) iterates over the positions around an axis: a and b are the *outer and *inner "
                         "dims of a view x: T[*outer, r @ dim, *inner]",
               k_.axis_tensor >= 0 ? "tiles(" + sym_name(0) + ", " + sym_name(2) + ")" : "tiles(n) over a flat tensor");
      return;
    }
    k_.axis = true;
    k_.outer_sym = so;
    k_.inner_sym = si;
    for (size_t i = 0; i < k_.syms.size(); ++i)
      if (k_.syms[i].part == 1 && k_.syms[i].tensor == k_.syms[so].tensor) k_.axis_sym = static_cast<int>(i);
    k_.extent_sym = so;
  }

  void loop_options(const Expr& e) {
    const Expr* it = &e;
    for (size_t i = 0; i < it->kwargs.size(); ++i) {
      const auto& [key, val] = it->kwargs[i];
      double v = 0;
      if (key == "buffers") {
        if (!constant(*val, v) || v < 1 || v > 4 || v != std::floor(v))
          d_.error(val->range, "buffers= is the queue depth, 1 to 4", "buffers=2 double-buffers the copies");
        else k_.queue_depth = static_cast<int>(v);
      } else if (key == "tile") {
        if (val->kind == ExprKind::Name && val->text == "auto") continue;
        if (!constant(*val, v) || v < 1 || v != std::floor(v))
          d_.error(val->range, "tile= is a positive integer or auto", "tile=auto sizes it for the UB");
        else k_.tile_request = static_cast<int64_t>(v);
      } else {
        d_.error(it->kwarg_ranges[i], "tiles() has no argument '" + key + "'", "tiles(n, tile=auto, buffers=2)");
      }
    }
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Pass: return;
      case StmtKind::For:
        if (s.value && s.value->kind == ExprKind::Call && s.value->text == "range") return range_loop(s);
        d_.error(s.range, "nested tiles loops are not supported",
                 "one tiles loop per kernel; repeat statements with 'for j in range(K):'");
        return;
      case StmtKind::AugAssign:
        accumulate(s);
        return;
      case StmtKind::Assign: {
        if (tensor_index(k_, s.target) >= 0 || attr_index(k_, s.target) >= 0 || sym_index(k_, s.target) >= 0 || s.target == k_.loop_var) {
          d_.error(s.target_range, "'" + s.target + "' is already a parameter, dim or the loop variable",
                   "pick another name");
          return;
        }
        if (range_vars_.count(s.target)) {
          d_.error(s.target_range, "'" + s.target + "' is the range loop's variable", "pick another name");
          return;
        }
        // Inside a range loop a name may be given a new value (the loop carries it: v = where(..., v)); elsewhere
        // values are immutable.
        const bool rebind = locals_.count(s.target) && !range_vars_.empty();
        if (locals_.count(s.target) && !rebind)
          d_.error(s.target_range, "'" + s.target + "' is assigned twice",
                   "values are immutable: use a new name (inside 'for j in range(K):' a name may take a new value)");
        Operand o = expr(*s.value);
        if (!o.ok) {
          failed_names_.insert(s.target);   // reported once, where it is defined
          return;
        }
        if (!o.scalar) {
          Value& v = k_.values[o.value];   // a name's later values are named apart in the generated code
          if (v.name.empty()) v.name = rebind ? fmt::format("{}_{}", s.target, o.value) : s.target;
        }
        locals_[s.target] = o;
        if (o.scalar) scalar_asts_[s.target] = s.value.get();   // a host scalar may use it
        return;
      }
      case StmtKind::Expr: {
        const Expr& e = *s.value;
        if (e.kind == ExprKind::Call && e.text == "store") {
          store(e);
          return;
        }
        d_.error(e.range, "this expression's value is not used", "assign it (v = ...) or store it: store(y[t], ...)");
        return;
      }
    }
  }

  std::vector<Instr>& out() { return in_loop_ ? k_.body : after_loop_ ? k_.epilogue : k_.prologue; }

  // `for j in range(K):` inside the tiles loop, K a literal: the body K times over, j the constant 0, 1, ... K-1 in
  // each (an index such as y[j, c] takes it). Names assigned in the body may be assigned again (the loop carries
  // them); after the loop they hold the last iteration's values. Unrolled: the generated code has K copies.
  void range_loop(const Stmt& s) {
    const Expr& it = *s.value;
    double n = 0;
    if (!in_loop_) {
      d_.error(s.range, "a range loop outside the tiles loop", "repeat statements inside 'for r in tiles(...)'");
      return;
    }
    if (s.loop_vars.size() != 1) {
      d_.error(s.loop_var_ranges.back(), "a range loop has one variable", "for j in range(K):");
      return;
    }
    if (it.args.size() != 1 || !it.kwargs.empty() || !constant(*it.args[0], n) || n != std::floor(n) || n < 1) {
      d_.error(it.range, "range() takes one positive integer literal", "for j in range(8):  (unrolled: K copies)");
      return;
    }
    const std::string& j = s.loop_vars[0];
    if (tensor_index(k_, j) >= 0 || attr_index(k_, j) >= 0 || sym_index(k_, j) >= 0 || j == k_.loop_var ||
        locals_.count(j)) {
      d_.error(s.loop_var_ranges[0], "'" + j + "' is already a name of the program", "pick another loop variable");
      return;
    }
    if (unrolled_ * n > kMaxUnrolled) {
      d_.error(it.range, fmt::format("range loops unrolled to {} copies of their body; at most {}",
                                     static_cast<int64_t>(unrolled_ * n), kMaxUnrolled),
               "unrolling copies the body: use fewer iterations");
      return;
    }
    unrolled_ *= n;
    range_vars_.insert(j);
    for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
      Operand c;
      c.ok = c.scalar = true;
      c.s = {std::to_string(i), true, static_cast<double>(i)};
      locals_[j] = c;
      const size_t errors = d_.error_count();
      for (const StmtPtr& b : s.body) stmt(*b);
      if (d_.error_count() > errors) break;   // reported once, not once per iteration
    }
    locals_.erase(j);
    range_vars_.erase(j);
    unrolled_ /= n;
  }

  // `total += sum(x)` in the loop, with `total = 0.0` before it: a per-core accumulator, added up over the cores
  // after the loop.
  void accumulate(const Stmt& s) {
    if (phase2_) {
      d_.error(s.target_range, "an accumulator in the second tiles loop",
               "accumulate in the first loop; the second uses the combined totals");
      return;
    }
    if (k_.axis) {
      d_.error(s.target_range, "accumulators are not supported in axis programs",
               "reduce the whole tensor with a flat program: for t in tiles(n) over x: T[*n]");
      return;
    }
    if (!in_loop_ || s.op != "+=") {
      d_.error(s.target_range, s.op != "+=" ? "only '+=' accumulates" : "'+=' outside the tiles loop",
               "total = 0.0 before the loop, total += sum(v) in it");
      return;
    }
    auto it = locals_.find(s.target);
    if (it == locals_.end() || !it->second.scalar || !it->second.s.constant || it->second.s.value != 0) {
      d_.error(s.target_range, "'" + s.target + "' is not an accumulator", "start it before the loop: " + s.target +
                                                                              " = 0.0");
      return;
    }
    const Expr& e = *s.value;
    const Expr* x = &e;
    if (e.kind == ExprKind::Call && e.text == "sum" && e.args.size() == 1 && e.kwargs.empty()) x = e.args[0].get();
    else {
      d_.error(e.range, "an accumulator adds whole sums", s.target + " += sum(v)");
      return;
    }
    Operand v = expr(*x);
    if (!v.ok) return;
    if (v.scalar || !not_mask(v, x->range)) {
      d_.error(x->range, "sum() of a scalar", "sum a tile");
      return;
    }
    const Value val = k_.values[v.value];
    const Form want = k_.rows ? Form::Col : Form::Flat;
    if (val.form != want) {
      d_.error(x->range, fmt::format("a {} program accumulates {} values, this is {}", k_.rows ? "row" : "flat",
                                     form_name(want), form_name(val.form)),
               k_.rows ? "reduce each row first: " + s.target + " += sum(sum(v, axis=1))" : "");
      return;
    }
    if (!(val.type.var < 0 && val.type.fixed == DType::F32)) {
      d_.error(x->range, "accumulators are float32; this value is " + tname(val.type), "load(x[...], f32)");
      return;
    }
    int acc;
    if (auto a = accs_.find(s.target); a != accs_.end()) acc = a->second;
    else {
      acc = new_value(want, {-1, DType::F32});
      k_.values[acc].accumulator = true;
      k_.values[acc].name = s.target;
      accs_[s.target] = acc;
    }
    Instr in;
    in.op = Op::Accumulate;
    in.fn = "add";
    in.dst = acc;
    in.srcs = {v.value};
    in.range = s.range;
    in.text = s.target + " += " + print_expr(e);
    k_.body.push_back(in);
  }

  int new_value(Form f, TypeOf t, bool mask = false) {
    Value v;
    v.id = static_cast<int>(k_.values.size());
    v.form = f;
    v.type = t;
    v.mask = mask;
    v.resident = !in_loop_ && !after_loop_;
    v.epilogue = after_loop_;
    k_.values.push_back(v);
    return v.id;
  }

  // Inputs are computed on: no i64 (no int64 arithmetic), no mapped variable (it has no columns of its own).
  bool input_type_ok(const Param& pa, TypeOf t) {
    // index programs read i64 indices; vector programs load them converted (load(target[r], f32): sema_i64_load.cpp)
    if (t.var < 0 && t.fixed == DType::I64 && !is_index_program(p_) && !i64_loads_allowed(p_)) {
      d_.error(pa.type.dtype_range, "input '" + pa.name + "' is i64: the vector unit has no int64 arithmetic",
               "i64 is for outputs (written from i32 values)");
      return false;
    }
    if (t.var >= 0 && k_.dtype_vars[t.var].base >= 0) {
      d_.error(pa.type.dtype_range, "input '" + pa.name + "' has the mapped dtype variable '" + pa.type.dtype + "'",
               "type inputs with " + k_.dtype_vars[k_.dtype_vars[t.var].base].name + "; a mapped variable is for outputs");
      return false;
    }
    return true;
  }

  bool has_i64(TypeOf t) const {
    for (DType d : each(t))
      if (d == DType::I64) return true;
    return false;
  }

  std::string tname(TypeOf t) const { return t.var >= 0 ? k_.dtype_vars[t.var].name : dtype_name(t.fixed); }

  // Each dtype the value can have, over the columns.
  std::vector<DType> each(TypeOf t) const {
    if (t.var < 0) return {t.fixed};
    return k_.dtype_vars[t.var].types;
  }

  bool require(const std::string& fn, TypeOf t, Range r, const std::string& what) {
    for (DType d : each(t))
      if (!supports(fn, d)) {
        d_.error(r, fmt::format("{} has no {} form on the vector unit{}", what, dtype_name(d),
                                t.var >= 0 ? fmt::format(" (column {} = {})", tname(t), dtype_name(d)) : ""),
                 d == DType::BF16 || d == DType::I32 || d == DType::I8 || d == DType::U8
                     ? "compute in float32: load(x[...], f32), then store() converts back"
                     : "");
        return false;
      }
    return true;
  }

  // A whole vector: w: T[n], or T[1, n] (PyTorch's row vector of shape (1, n)): leading 1s, then one named dim.
  static bool vector_dims(const TensorArg& t) {
    if (t.dims.empty() || t.dims.back().star || t.dims.back().name.empty()) return false;
    for (size_t i = 0; i + 1 < t.dims.size(); ++i)
      if (!t.dims[i].name.empty() || t.dims[i].value != 1) return false;
    return true;
  }

  // The index of a load/store: x[t] (flat), x[r, :] (rows / col), w[:] (vec). Returns the form or Scalar on error.
  Form index_form(const Expr& sub, int ti) {
    const TensorArg& t = k_.tensors[ti];
    const size_t ni = sub.args.size() - 1;
    auto is_loop = [&](const Expr& e) { return e.kind == ExprKind::Name && e.text == k_.loop_var; };
    auto is_all = [&](const Expr& e) { return e.kind == ExprKind::Slice; };
    if (ni == 1 && is_all(*sub.args[1])) {
      if (!vector_dims(t)) {
        d_.error(sub.range, "'" + t.name + "[:]' takes a whole vector; '" + t.name + "' is not declared as one",
                 "declare it as " + t.name + ": " + tname(t.type) + "[n] (or [1, n]) with n the rows' length");
        return Form::Scalar;
      }
      if (!k_.rows || k_.row_sym < 0 || t.dims.back().name != k_.syms[k_.row_sym].name) {
        d_.error(sub.range, "a whole vector is broadcast down the rows of a row program; its dim must be the rows' "
                            "length",
                 "for r in tiles(m) over x: T[*m, n], with " + t.name + ": " + tname(t.type) + "[n]");
        return Form::Scalar;
      }
      return Form::Vec;
    }
    if (!in_loop_) {
      d_.error(sub.range, "only whole vectors (w[:]) are loaded before the loop", "move this into the loop");
      return Form::Scalar;
    }
    if (k_.extent_sym < 0) return Form::Scalar;   // the loop's header had an error (reported there)
    if (k_.axis) return axis_index(sub, ti);
    if (!k_.rows) {
      if (ni != 1 || !is_loop(*sub.args[1])) {
        d_.error(sub.range, "index a flat program's tensor with the loop variable: " + t.name + "[" + k_.loop_var + "]");
        return Form::Scalar;
      }
      if (t.dims.size() != 1 || t.dims[0].name != k_.syms[k_.extent_sym].name) {
        d_.error(sub.range, "'" + t.name + "' is not a flat tensor of " + k_.syms[k_.extent_sym].name + " elements",
                 "declare it as " + t.name + ": " + tname(t.type) + "[*" + k_.syms[k_.extent_sym].name + "]");
        return Form::Scalar;
      }
      return Form::Flat;
    }
    if (ni >= 1 && sub.args[1]->kind == ExprKind::Binary && sub.args[1]->text == "%") return periodic_index(sub, ti);
    const std::string& m = k_.syms[k_.extent_sym].name;
    // One value per row: t: T[*m] indexed t[r] (the reduced dim dropped), or t: T[*m, 1] indexed t[r, :].
    if (ni == 1 && is_loop(*sub.args[1]) && t.dims.size() == 1 && t.dims[0].name == m) return Form::Col;
    if (ni != 2 || !is_loop(*sub.args[1]) || !is_all(*sub.args[2])) {
      d_.error(sub.range, "index a row program's tensor as " + t.name + "[" + k_.loop_var + ", :]",
               t.dims.size() == 1 ? "a tensor of one value per row is " + t.name + ": " + tname(t.type) + "[*" + m +
                                        "], indexed " + t.name + "[" + k_.loop_var + "]"
                                  : "");
      return Form::Scalar;
    }
    // mask: bool[b, 1, q, n]: rows repeated over x's dim at its 1 (repeat_rows.h, sema_repeat_rows.cpp)
    if (const int rep = check_repeat_rows(k_, ti, row_dims_, sub.range, d_); rep != 0)
      return rep > 0 ? Form::Rows : Form::Scalar;
    if (t.dims.size() < 2 || t.dims[0].name != m) {
      d_.error(sub.range, "'" + t.name + "' is not viewed as rows of " + m,
               "declare it as " + t.name + ": " + tname(t.type) + "[*" + m + ", " + row_pattern() + "]");
      return Form::Scalar;
    }
    bool ones = true, same_row = t.dims.size() == row_dims_.size() + 1;   // [*m, 1] (or [*m, 1, 1]); the rows' dims
    for (size_t i = 1; i < t.dims.size(); ++i) {
      ones &= t.dims[i].name.empty() && t.dims[i].value == 1;
      same_row = same_row && t.dims[i].name == row_dims_[i - 1];
    }
    if (ones) return Form::Col;
    if (k_.row_sym < 0 || !same_row) {
      d_.error(sub.range, "'" + t.name + "' has rows of another length than the loop's tensor",
               "all row tensors share the row's dims (" + t.name + ": " + tname(t.type) + "[*" + m + ", " +
                   row_pattern() + "]), or have 1 (a column: " + t.name + ": " + tname(t.type) + "[*" + m + ", 1])");
      return Form::Scalar;
    }
    return Form::Rows;
  }

  // A column that repeats every c rows: bias: T[c, 1, 1] (or [c, 1], [c]) indexed bias[r % c, :] (or bias[r % c]) gives
  // the [rows, 1] column bias[(row) % c] of each row: a per-channel bias over rows of (batch, channel) planes.
  // The period is recorded for the Load (period_sym_); the kernel reads the column through the scalar unit.
  Form periodic_index(const Expr& sub, int ti) {
    const TensorArg& t = k_.tensors[ti];
    const Expr& ix = *sub.args[1];
    const std::string form = t.name + "[" + k_.loop_var + " % c, :]";
    const bool lhs_loop = ix.args[0]->kind == ExprKind::Name && ix.args[0]->text == k_.loop_var;
    const int ps = ix.args[1]->kind == ExprKind::Name ? sym_index(k_, ix.args[1]->text) : -1;
    if (!k_.rows || !lhs_loop || ps < 0) {
      d_.error(ix.range, "a periodic index is the row loop's variable modulo a dim: " + form,
               "for r in tiles(m) over rows, with " + t.name + ": " + tname(t.type) + "[c, 1]");
      return Form::Scalar;
    }
    bool ones = !t.dims.empty() && t.dims[0].name == ix.args[1]->text;
    for (size_t i = 1; i < t.dims.size(); ++i) ones &= t.dims[i].name.empty() && t.dims[i].value == 1;
    const size_t ni = sub.args.size() - 1;
    const bool all = ni == 2 && sub.args[2]->kind == ExprKind::Slice;
    if (!ones || t.output || !(ni == 1 || all) || (t.dims.size() == 1) != (ni == 1)) {
      d_.error(sub.range, "'" + t.name + "' is not a column of " + ix.args[1]->text + " values",
               "declare it as " + t.name + ": " + tname(t.type) + "[" + ix.args[1]->text + ", 1, 1] (or [" +
                   ix.args[1]->text + ", 1]) and load " + form);
      return Form::Scalar;
    }
    period_sym_ = ps;
    return Form::Col;
  }
  int period_sym_ = -1;   // the period of the last periodic index, read by load()
  int chunk_store_ = -1;  // the chunk of the last y[k, c] index, read by store()

  // The index of a load/store in an axis program: x[:, c] (a slab [r, cols] of an axis view) or y[c] (a flat tile
  // of the positions, for tensors shaped [*outer, 1, *inner] or [*outer, *inner]).
  Form axis_index(const Expr& sub, int ti) {
    const TensorArg& t = k_.tensors[ti];
    const size_t ni = sub.args.size() - 1;
    const std::string& c = k_.loop_var;
    auto is_loop = [&](const Expr& e) { return e.kind == ExprKind::Name && e.text == c; };
    if (k_.outer_sym < 0 || k_.axis_sym < 0 || k_.inner_sym < 0) return Form::Scalar;   // the view's error is reported
    const std::string outer = k_.syms[k_.outer_sym].name, r = k_.syms[k_.axis_sym].name,
                      inner = k_.syms[k_.inner_sym].name;
    const AxisShape as = axis_shape(k_, t);
    const bool view = as == AxisShape::View;
    if (ni == 2 && sub.args[1]->kind == ExprKind::Slice && is_loop(*sub.args[2])) {
      if (view) return Form::Slab;
      d_.error(sub.range, "'" + t.name + "[:, " + c + "]' takes the whole axis; '" + t.name + "' is not an axis view",
               "declare it as " + t.name + ": " + tname(t.type) + "[*" + outer + ", " +
                   (k_.axis_chunks > 0 ? std::to_string(k_.axis_chunks) : r) + " @ " +   // a chunk view's literal K
                   (k_.axis_attr >= 0 ? k_.attrs[k_.axis_attr].name : std::string("dim")) + ", *" + inner + "]");
      return Form::Scalar;
    }
    double kc = -1;
    if (ni == 2 && constant(*sub.args[1], kc) && is_loop(*sub.args[2])) {   // y[k, c]: row k of the positions
      const bool krows = t.output && as == AxisShape::KRows;
      if (!krows && (!t.output || !view || k_.axis_chunks == 0)) {
        const std::string j = print_expr(*sub.args[1]);
        d_.error(sub.range, "'" + t.name + "[" + j + ", " + c + "]' stores row " + j + " of an output of K values per position",
                 "declare the output " + t.name + ": " + tname(t.type) + "[*" + outer + ", K, *" + inner +
                     "] (K a literal, or a chunk view's chunk count) and store each row's positions");
        return Form::Scalar;
      }
      const int64_t rows = krows_of(t);
      const char* what = krows ? "row" : "chunk";
      if (kc != std::floor(kc) || kc < 0 || kc >= static_cast<double>(rows)) {
        d_.error(sub.args[1]->range, fmt::format("{} {} of {} {}s", what, kc, rows, what),
                 fmt::format("the {}s are numbered 0 to {}", what, rows - 1));
        return Form::Scalar;
      }
      chunk_store_ = static_cast<int>(kc);
      return Form::Flat;
    }
    if (ni == 1 && is_loop(*sub.args[1])) {
      // [*outer] and [*inner] inputs repeat their value over the positions that share the index; [s, *inner] over
      // the outer indices that share their last dims
      if (as == AxisShape::Positions ||
          (!t.output && (as == AxisShape::Outer || as == AxisShape::Inner || as == AxisShape::Periodic)))
        return Form::Flat;
      d_.error(sub.range, "'" + t.name + "[" + c + "]' takes one value per position; '" + t.name + "' is not shaped so",
               view ? "an axis view is loaded whole along the axis: load(" + t.name + "[:, " + c + "])"
                    : "declare it as " + t.name + ": " + tname(t.type) + "[*" + outer + ", 1, *" + inner +
                          "] (one value per position), [*" + outer + "] or [*" + inner + "]");
      return Form::Scalar;
    }
    d_.error(sub.range, "index an axis program's tensors as x[:, " + c + "] (the axis r of each position) or y[" + c +
                            "] (one value per position)",
             "");
    return Form::Scalar;
  }

  // tensor[...] inside load/store: the tensor index and the form; -1 on error.
  int access(const Expr& e, bool want_output, Form& f) {
    if (e.kind != ExprKind::Subscript || e.args.empty() || e.args[0]->kind != ExprKind::Name) {
      d_.error(e.range, want_output ? "store() writes to an output: store(y[t], value)"
                                    : "load() reads an input: load(x[t])");
      return -1;
    }
    const std::string& n = e.args[0]->text;
    int ti = tensor_index(k_, n);
    if (ti < 0) {
      std::vector<std::string> names;
      for (auto& t : k_.tensors) names.push_back(t.name);
      std::string c = closest(n, names);
      d_.error(e.args[0]->range, "'" + n + "' is not a tensor of the kernel", c.empty() ? "" : "did you mean '" + c + "'?");
      return -1;
    }
    if (k_.tensors[ti].output != want_output) {
      d_.error(e.args[0]->range, want_output ? "'" + n + "' is an input; store() writes outputs"
                                             : "'" + n + "' is an output; load() reads inputs",
               "");
      return -1;
    }
    f = index_form(e, ti);
    return f == Form::Scalar ? -1 : ti;
  }

  void store(const Expr& e) {
    if (after_loop_) return store_after(e);
    if (!in_loop_) {
      d_.error(e.range, "store() outside the tiles loop", "store inside the loop");
      return;
    }
    if (e.args.size() != 2 || !e.kwargs.empty()) {
      d_.error(e.range, "store() takes a destination and a value", "store(y[t], v)");
      return;
    }
    Form f;
    chunk_store_ = -1;
    int ti = access(*e.args[0], true, f);
    const int chunk = chunk_store_;
    Operand v = expr(*e.args[1]);
    if (ti < 0 || !v.ok) return;
    if (v.scalar && has_i64(k_.tensors[ti].type)) {
      d_.error(e.args[1]->range, "storing a scalar into the i64 output '" + k_.tensors[ti].name + "'",
               "store an i32 tile");
      return;
    }
    if (v.scalar) v = fill(v, f, k_.tensors[ti].type, e.args[1]->range);
    const Value& val = k_.values[v.value];
    if (!val.mask && !i64_store_ok(val.type, k_.tensors[ti].type, e.args[1]->range)) return;
    if (val.mask) {
      d_.error(e.args[1]->range, "storing a comparison result", "turn it into values: where(mask, 1.0, 0.0)");
      return;
    }
    if (val.form != f) {
      d_.error(e.args[1]->range, fmt::format("storing a {} value into {}[...] which takes a {} tile",
                                             form_name(val.form), k_.tensors[ti].name, form_name(f)),
               f == Form::Col ? "reduce along the row first: sum(v, axis=1)"
               : f == Form::Flat && val.form == Form::Slab
                   ? "reduce it over the axis r first: sum(v, axis=0) (axis=1 reduces over the positions and stays a slab)"
                   : "");
      return;
    }
    Instr in;
    in.op = Op::Store;
    in.tensor = ti;
    in.srcs = {v.value};
    in.chunk = chunk;
    in.range = e.range;
    in.text = print_expr(e);
    out().push_back(in);
  }

  // After the loop: store(loss, value) into a 0-dim output, from the combined accumulators.
  void store_after(const Expr& e) {
    if (e.args.size() != 2 || e.args[0]->kind != ExprKind::Name) {
      d_.error(e.range, "after the loop, store() writes a 0-dim output: store(loss, total / n)");
      return;
    }
    const int ti = tensor_index(k_, e.args[0]->text);
    if (ti < 0 || !k_.tensors[ti].output || !k_.tensors[ti].dims.empty()) {
      d_.error(e.args[0]->range, "'" + e.args[0]->text + "' is not a 0-dim output",
               "declare it without dims: -> (" + e.args[0]->text + ": f32)");
      return;
    }
    Operand v = expr(*e.args[1]);
    if (!v.ok) return;
    if (v.scalar) {
      d_.error(e.args[1]->range, "the value does not depend on an accumulator", "accumulate in the loop: total += sum(v)");
      return;
    }
    if (has_i64(k_.tensors[ti].type)) {
      d_.error(e.args[0]->range, "a 0-dim output cannot be i64 yet", "declare it f32 or i32");
      return;
    }
    Instr in;
    in.op = Op::Store;
    in.tensor = ti;
    in.srcs = {v.value};
    in.range = e.range;
    in.text = print_expr(e);
    k_.epilogue.push_back(in);
  }

  // axis_index(v): the slab of v's shape and dtype whose element (i, c) is i, its index along the axis r (cummax's
  // indices: the last i where the running maximum was reached, kernels/math/cummax.tile).
  Operand axis_index(const Expr& e) {
    if (e.args.size() != 1 || !e.kwargs.empty()) {
      d_.error(e.range, "axis_index() takes one slab", "axis_index(v) with v = load(x[:, c], f32)");
      return {};
    }
    Operand v = expr(*e.args[0]);
    if (!v.ok) return {};
    // A row tile [rows, n] of a row program is numbered along its rows: element (i, j) is j (a class index).
    const bool row_tile = !v.scalar && k_.rows && k_.values[v.value].form == Form::Rows;
    if (v.scalar || (k_.values[v.value].form != Form::Slab && !row_tile) || k_.values[v.value].mask) {
      d_.error(e.args[0]->range, "axis_index() numbers the rows of a slab of an axis program (or the columns of a row "
                                 "tile)",
               "for c in tiles(outer, inner): ... axis_index(load(x[:, c], f32)); for r in tiles(m): ... "
               "axis_index(load(x[r, :], f32))");
      return {};
    }
    const TypeOf t = k_.values[v.value].type;
    for (DType d : each(t))
      if (d != DType::F32 && d != DType::I32) {
        d_.error(e.args[0]->range, "axis_index() gives f32 or i32 indices; this slab is " + tname(t),
                 "load it as f32: load(x[:, c], f32) (exact indices up to 2**24)");
        return {};
      }
    return emit(Op::Fill, "axis_index", row_tile ? Form::Rows : Form::Slab, t, {}, e);
  }

  Operand fill(const Operand& s, Form f, TypeOf t, Range r) {
    Operand o;
    o.ok = true;
    o.value = new_value(f, t);
    Instr in;
    in.op = Op::Fill;
    in.fn = "fill";
    in.dst = o.value;
    in.scalar = s.s;
    in.range = r;
    in.text = s.s.cpp;
    out().push_back(in);
    return o;
  }

  Operand scalar(const std::string& cpp, bool constant = false, double v = 0) {
    Operand o;
    o.ok = o.scalar = true;
    o.s = {cpp, constant, v};
    return o;
  }

  Operand expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Number: {
        if (std::isinf(e.number)) return scalar(e.number > 0 ? "kt::kInf" : "(-kt::kInf)", true, e.number);
        const bool small_int = e.is_int && std::fabs(e.number) < 9007199254740992.0;   // 2^53: exact as int64
        std::string c = small_int ? fmt::format("{}", static_cast<int64_t>(e.number)) : fmt::format("{:.9g}", e.number);
        if (!e.is_int && c.find_first_of(".e") == std::string::npos) c += ".0";
        return scalar(c, true, e.number);
      }
      case ExprKind::Name: return name(e);
      case ExprKind::Unary: {
        Operand a = expr(*e.args[0]);
        if (!a.ok) return a;
        if (e.text == "not") {
          d_.error(e.range, "'not' is not supported", "invert the comparison instead");
          return {};
        }
        if (a.scalar) return scalar("(-" + a.s.cpp + ")", a.s.constant, -a.s.value);
        return scalar_op(e, a, scalar("-1.0", true, -1), "mul");
      }
      case ExprKind::Binary: return binary(e);
      case ExprKind::Call: return call(e);
      case ExprKind::Subscript:
        if (!e.args.empty() && e.args[0]->kind == ExprKind::Call) {
          d_.error(e.range, "a tile value is not indexed",
                   "only a convolution's output is cropped: store(y, conv(x, w, padding=k - 1)[:, :, :l])");
          return {};
        }
        d_.error(e.range, "a tensor is read with load(): load(" + print_expr(e) + ")");
        return {};
      case ExprKind::Slice:
      case ExprKind::SliceTo:
      case ExprKind::Tuple:
        d_.error(e.range, "unexpected " + std::string(e.kind == ExprKind::Tuple ? "tuple" : "'" + print_expr(e) + "'") +
                              " here");
        return {};
    }
    return {};
  }

  Operand name(const Expr& e) {
    const std::string& n = e.text;
    if (phase2_) {   // a two-phase program's second loop reads the epilogue's values as scalars
      if (Operand o; phase2_name(e, o)) return o;
    }
    if (auto a = accs_.find(n); a != accs_.end()) {
      if (!after_loop_) {
        d_.error(e.range, "accumulator '" + n + "' is read inside the loop", "use it after the loop");
        return {};
      }
      auto c = combined_.find(n);
      if (c == combined_.end()) {   // the sum over the accumulator's elements and all cores, once
        Operand o = emit(Op::Combine, "sum", Form::Flat, {-1, DType::F32}, {a->second}, e);
        k_.values[o.value].epilogue = true;
        c = combined_.emplace(n, o).first;
      }
      return c->second;
    }
    if (auto it = locals_.find(n); it != locals_.end()) return it->second;
    if (int a = attr_index(k_, n); a >= 0) return scalar(camel_lower(n) + "_");
    if (int s = sym_index(k_, n); s >= 0) return scalar("static_cast<float>(" + camel_lower(n) + "_)");
    if (n == "inf") return scalar("kt::kInf", true, INFINITY);
    if (n == "true" || n == "false") return scalar(n == "true" ? "1" : "0", true, n == "true");
    if (tensor_index(k_, n) >= 0) {
      d_.error(e.range, "'" + n + "' is a tensor; read it with load(" + n + "[" + k_.loop_var + "])");
      return {};
    }
    if (n == k_.loop_var) {
      d_.error(e.range, "the loop variable indexes tensors; it is not a value", "load(x[" + n + "])");
      return {};
    }
    if (failed_names_.count(n)) return {};   // its definition has an error already: no follow-on error here
    std::vector<std::string> names;
    for (auto& [k, v] : locals_) names.push_back(k);
    for (auto& a : k_.attrs) names.push_back(a.name);
    for (auto& s : k_.syms) names.push_back(s.name);
    std::string c = closest(n, names);
    d_.error(e.range, "unknown name '" + n + "'", c.empty() ? "" : "did you mean '" + c + "'?");
    return {};
  }

  TypeOf type_of_op(const Operand& o) const { return o.scalar ? o.scalar_type : k_.values[o.value].type; }

  Operand emit(Op op, const std::string& fn, Form f, TypeOf t, std::vector<int> srcs, const Expr& e,
               ScalarExpr s = {}, bool mask = false) {
    Operand o;
    o.ok = true;
    o.value = new_value(f, t, mask);
    Instr in;
    in.op = op;
    in.fn = fn;
    in.dst = o.value;
    in.srcs = std::move(srcs);
    in.scalar = s;
    in.range = e.range;
    in.text = print_expr(e);
    out().push_back(in);
    return o;
  }

  bool not_mask(const Operand& o, Range r) {
    if (!o.scalar && k_.values[o.value].mask) {
      d_.error(r, "a comparison result used as a number", "select with it: where(mask, a, b)");
      return false;
    }
    return true;
  }

  Operand scalar_op(const Expr& e, const Operand& tile, const Operand& s, const std::string& fn) {
    if (!tile.ok || tile.scalar) return {};
    const Value& v = k_.values[tile.value];
    if (!not_mask(tile, e.range) || !require(fn == "rsub" ? "sub" : fn == "rdiv" ? "div" : fn, v.type, e.range,
                                              "'" + print_expr(e) + "'"))
      return {};
    return emit(Op::Scalar, fn, v.form, v.type, {tile.value}, e, s.s);
  }

  Operand binary(const Expr& e) {
    static const std::map<std::string, std::string> arith = {{"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}};
    static const std::map<std::string, std::string> cmp = {{"<", "lt"},  {"<=", "le"}, {">", "gt"},
                                                           {">=", "ge"}, {"==", "eq"}, {"!=", "ne"}};
    if (e.text == "and" || e.text == "or") {
      d_.error(e.range, "'" + e.text + "' on masks is not supported", "nest where(): where(a, where(b, x, y), y)");
      return {};
    }
    const size_t hoisted = k_.host_scalars.size();   // a power of scalars hoists its operands' host scalars with it
    Operand a = expr(*e.args[0]);
    Operand b = expr(*e.args[1]);
    if (!a.ok || !b.ok) return {};
    if (e.text == "**") {
      if (!b.scalar) {
        d_.error(e.args[1]->range, "the exponent must be a scalar", "");
        return {};
      }
      if (a.scalar) return hoist(e, a.s.constant && b.s.constant, std::pow(a.s.value, b.s.value), hoisted);
      if (b.s.constant && b.s.value == 2) return binary_values(e, a, a, "mul");
      if (b.s.constant && b.s.value == 0.5) return unary_value(e, a, "sqrt");
      if (b.s.constant && b.s.value == 3) return binary_values(e, binary_values(e, a, a, "mul"), a, "mul");
      d_.error(e.args[1]->range, "a tile's power must be 2, 3 or 0.5", "write the product: v * v * v * v");
      return {};
    }
    if (auto it = cmp.find(e.text); it != cmp.end()) {
      if (a.scalar && b.scalar) {
        d_.error(e.range, "comparing two scalars", "compare a tile: where(v > 0, v, 0)");
        return {};
      }
      static const std::map<std::string, std::string> flip = {{"lt", "gt"}, {"le", "ge"}, {"gt", "lt"},
                                                               {"ge", "le"}, {"eq", "eq"}, {"ne", "ne"}};
      std::string fn = it->second;
      if (a.scalar) {
        std::swap(a, b);
        fn = flip.at(fn);
      }
      const Value va = k_.values[a.value];
      if (!not_mask(a, e.range) || !not_mask(b, e.range) || !require("compare", va.type, e.range, "comparison"))
        return {};
      if (b.scalar) return emit(Op::Compare, fn, va.form, va.type, {a.value}, e, b.s, true);
      const Value vb = k_.values[b.value];
      if (!same(va, vb, e)) return {};
      if (va.form != vb.form && where_spreads(a, b, b)) {   // v == t[rows, 1]: spread over the row tile, as where does
        const Operand ra = spread_rows(a, e), rb = spread_rows(b, e);
        return emit(Op::Compare, fn, Form::Rows, va.type, {ra.value, rb.value}, e, {}, true);
      }
      if (slab_and_flat(va.form, vb.form)) {   // v == max(v, axis=0): the positions' values spread along r
        const Operand sa = spread_slab(a, e), sb = spread_slab(b, e);
        return emit(Op::Compare, fn, Form::Slab, va.type, {sa.value, sb.value}, e, {}, true);
      }
      if (va.form != vb.form) {
        d_.error(e.range, fmt::format("comparing a {} tile with a {} tile", form_name(va.form), form_name(vb.form)),
                 "compare tiles of one form");
        return {};
      }
      return emit(Op::Compare, fn, va.form, va.type, {a.value, b.value}, e, {}, true);
    }
    const std::string fn = arith.at(e.text);
    if (a.scalar && b.scalar) {
      double v = 0;
      bool c = a.s.constant && b.s.constant;
      if (c) v = fn == "add" ? a.s.value + b.s.value : fn == "sub" ? a.s.value - b.s.value
                 : fn == "mul" ? a.s.value * b.s.value : a.s.value / b.s.value;
      return scalar("(" + a.s.cpp + " " + e.text + " " + b.s.cpp + ")", c, v);
    }
    if (b.scalar) {
      if (fn == "sub") return scalar_op(e, a, scalar("(-" + b.s.cpp + ")", b.s.constant, -b.s.value), "add");
      if (fn == "div") return scalar_op(e, a, scalar("(1.0f / " + b.s.cpp + ")", b.s.constant, 1 / b.s.value), "mul");
      return scalar_op(e, a, b, fn);
    }
    if (a.scalar) {
      if (fn == "add" || fn == "mul") return scalar_op(e, b, a, fn);
      return scalar_op(e, b, a, fn == "sub" ? "rsub" : "rdiv");
    }
    return binary_values(e, a, b, fn);
  }

  bool same(const Value& a, const Value& b, const Expr& e) {
    if (a.type == b.type) return true;
    d_.error(e.range, "operands of '" + print_expr(e) + "' have dtypes " + tname(a.type) + " and " + tname(b.type),
             "convert one: cast(v, " + tname(b.type) + ") or load(x[...], " + tname(b.type) + ")");
    return false;
  }

  Operand binary_values(const Expr& e, Operand a, Operand b, const std::string& fn) {
    if (!a.ok || !b.ok) return {};
    if (!not_mask(a, e.range) || !not_mask(b, e.range)) return {};
    Value va = k_.values[a.value], vb = k_.values[b.value];
    if (!same(va, vb, e) || !require(fn, va.type, e.range, "'" + print_expr(e) + "'")) return {};
    if (va.form == vb.form) return emit(Op::Binary, fn, va.form, va.type, {a.value, b.value}, e);
    const bool commutes = fn == "add" || fn == "mul" || fn == "max" || fn == "min";
    auto bcast = [&](Form big, Form small, Op op) -> Operand {
      if (va.form == big && vb.form == small) return emit(op, fn, big, va.type, {a.value, b.value}, e);
      if (vb.form == big && va.form == small) {
        if (commutes) return emit(op, fn, big, va.type, {b.value, a.value}, e);
        // small - big = -(big) + small;  small / big = (1 / big) * small
        Operand t = fn == "sub" ? emit(Op::Scalar, "mul", big, vb.type, {b.value}, e, {"-1.0", true, -1})
                                : emit(Op::Unary, "reciprocal", big, vb.type, {b.value}, e);
        return emit(op, fn == "sub" ? "add" : "mul", big, va.type, {t.value, a.value}, e);
      }
      return Operand{};
    };
    if (Operand o = bcast(Form::Rows, Form::Col, Op::RowBcast); o.ok) return o;
    if (Operand o = bcast(Form::Rows, Form::Vec, Op::VecBcast); o.ok) return o;
    // An axis program's flat tile holds one value per position (sum(v, axis=0), load(z[c])): it repeats along r
    // when it meets a slab, as x / x.sum(dim, keepdim=True) broadcasts in PyTorch.
    if (k_.axis)
      if (Operand o = bcast(Form::Slab, Form::Flat, Op::SlabBcast); o.ok) return o;
    if ((va.form == Form::Col && vb.form == Form::Vec) || (va.form == Form::Vec && vb.form == Form::Col))
      return outer(e, a, b, fn);
    d_.error(e.range, fmt::format("cannot combine a {} tile with a {} tile", form_name(va.form), form_name(vb.form)),
             k_.axis ? "slabs combine with slabs and with flat tiles of the positions (sum(v, axis=0), load(y[c])), "
                       "which repeat along r"
                     : "row tiles combine with columns (reductions along axis=1) and whole vectors (w[:]); flat tiles "
                       "with flat tiles");
    return {};
  }

  // The outer broadcast [rows, 1] op [n] -> [rows, n] (PyTorch's (m, 1) op (1, n)): the first operand is spread
  // over a row tile (0 + it, broadcast), so the second then broadcasts onto it in its usual form and order.
  Operand outer(const Expr& e, Operand a, Operand b, const std::string& fn) {
    const Value va = k_.values[a.value];
    Operand zero = fill(scalar("0", true, 0), Form::Rows, va.type, e.range);
    Operand spread = emit(va.form == Form::Col ? Op::RowBcast : Op::VecBcast, "add", Form::Rows, va.type,
                          {zero.value, a.value}, e);
    return binary_values(e, spread, b, fn);
  }

  // where() over mixed forms (torch.where(cond[b, 1], x[b, n], other[n])): when a row tile meets a column or a
  // vector, or a column mask meets a vector, the mask and the operands are spread over row tiles as the outer
  // broadcast spreads them. True when the operands need it.
  bool where_spreads(const Operand& m, const Operand& a, const Operand& b) const {
    bool rows = false, col = false, vec = false;
    for (const Operand* o : {&m, &a, &b}) {
      if (o->scalar) continue;
      const Form f = k_.values[o->value].form;
      if (f != Form::Rows && f != Form::Col && f != Form::Vec) return false;   // flat/slab: the form check speaks
      rows |= f == Form::Rows, col |= f == Form::Col, vec |= f == Form::Vec;
    }
    return (rows && (col || vec)) || (col && vec);
  }

  // An axis program's slab meets a flat tile of its positions.
  bool slab_and_flat(Form a, Form b) const {
    return k_.axis && ((a == Form::Slab && b == Form::Flat) || (a == Form::Flat && b == Form::Slab));
  }
  // A flat tile of the positions spread along r over a slab: 0 + it, repeated (one Duplicate, one SlabAdd).
  Operand spread_slab(const Operand& v, const Expr& e) {
    const Value vv = k_.values[v.value];
    if (vv.form != Form::Flat) return v;
    Operand zero = fill(scalar("0", true, 0), Form::Slab, vv.type, e.range);
    return emit(Op::SlabBcast, "add", Form::Slab, vv.type, {zero.value, v.value}, e);
  }

  // A column or vector spread over a row tile: 0 + it, broadcast (one Duplicate, one RowAdd/VecAdd).
  Operand spread_rows(const Operand& v, const Expr& e) {
    const Value vv = k_.values[v.value];
    if (vv.form == Form::Rows) return v;
    Operand zero = fill(scalar("0", true, 0), Form::Rows, vv.type, e.range);
    return emit(vv.form == Form::Col ? Op::RowBcast : Op::VecBcast, "add", Form::Rows, vv.type, {zero.value, v.value}, e);
  }

  // A column or vector mask spread over a row tile: its bits become 1.0/0.0 halves (a select), those are spread, and
  // compared with 0 again (masks are bit fields, which no broadcast instruction moves).
  Operand spread_mask(const Operand& m, const Expr& e) {
    const Value mv = k_.values[m.value];
    if (mv.form == Form::Rows) return m;
    Operand ones;
    ones.ok = true;
    ones.value = new_value(mv.form, {-1, DType::F16});
    Instr in;
    in.op = Op::Select;
    in.fn = "select";
    in.dst = ones.value;
    in.srcs = {m.value, -1, -1};
    in.scalar = {"1", true, 1};
    in.scalar2 = {"0", true, 0};
    in.range = e.range;
    in.text = print_expr(e);
    out().push_back(in);
    Operand h = spread_rows(ones, e);
    return emit(Op::Compare, "ne", Form::Rows, {-1, DType::F16}, {h.value}, e, {"0.0", true, 0}, true);
  }

  // A scalar the kernel's scalar unit has no instruction for (a power of scalars, exp/log/sqrt/... of a scalar):
  // folded here when constant, else computed once by the host TilingFunc and read from the tiling data. The host
  // scalars its operands added (from `hoisted` on) are part of its host expression: no fields of their own.
  Operand hoist(const Expr& e, bool constant, double value, size_t hoisted) {
    if (constant && std::isfinite(value)) return scalar(fmt::format("{:.9g}", value), true, value);
    k_.host_scalars.resize(std::min(hoisted, k_.host_scalars.size()));
    std::string host;
    const Expr* bad = nullptr;
    if (!host_scalar_cpp(e, k_, scalar_asts_, host, bad)) {
      d_.error(bad ? bad->range : e.range, "'" + print_expr(bad ? *bad : e) + "' cannot be computed on the host",
               "a scalar computed on the host is made of literals, attrs, dims, + - * / **, and exp, log, sqrt, "
               "rsqrt, abs, tanh, sigmoid, erf, max, min of them");
      return {};
    }
    return scalar(add_host_scalar(k_, host, print_expr(e)));
  }

  Operand unary_value(const Expr& e, Operand a, const std::string& fn) {
    if (!not_mask(a, e.range)) return {};
    const Value v = k_.values[a.value];
    if (!require(fn, v.type, e.range, fn + "()")) return {};
    return emit(Op::Unary, fn, v.form, v.type, {a.value}, e);
  }

  bool dtype_arg(const Expr& e, TypeOf& t) {
    if (e.kind != ExprKind::Name) {
      d_.error(e.range, "expected a dtype (f32, f16, ...)");
      return false;
    }
    TypeRef r;
    r.dtype = e.text;
    r.dtype_range = e.range;
    if (!type_of(r, t)) return false;
    for (DType d : each(t))
      if (d == DType::I64) {
        d_.error(e.range, "values are not computed in i64 (the vector unit has no int64 arithmetic)",
                 "compute in i32; store() converts to an i64 output");
        return false;
      }
    return true;
  }

  Operand call(const Expr& e) {
    const std::string& f = e.text;
    auto nargs = [&](size_t n, const std::string& form) {
      if (e.args.size() == n) return true;
      d_.error(e.range, fmt::format("{}() takes {} argument(s), got {}", f, n, e.args.size()), form);
      return false;
    };
    auto no_kwargs = [&]() {
      if (e.kwargs.empty()) return true;
      d_.error(e.kwarg_ranges[0], f + "() has no argument '" + e.kwargs[0].first + "'");
      return false;
    };
    if (f == "store") {
      d_.error(e.range, "store() is a statement, not a value", "store(y[t], v) on its own line");
      return {};
    }
    if (f == "tiles") {
      d_.error(e.range, "tiles() belongs in a for statement", "for t in tiles(n):");
      return {};
    }
    if (f == "load") {
      if (e.args.empty() || e.args.size() > 2 || !no_kwargs()) {
        if (e.args.empty() || e.args.size() > 2) d_.error(e.range, "load() takes a tensor index and an optional dtype",
                                                          "load(x[t]) or load(x[t], f32)");
        return {};
      }
      Form form;
      period_sym_ = -1;
      int ti = access(*e.args[0], false, form);
      if (ti < 0) return {};
      const int period = period_sym_;
      TypeOf t = k_.tensors[ti].type;
      if (e.args.size() == 2 && !dtype_arg(*e.args[1], t)) return {};
      const TypeOf src = k_.tensors[ti].type;
      if (!i64_load_ok(k_.tensors[ti], form, e.args.size() == 2, t, e.range, k_.loop_var, d_)) return {};
      const bool byte_src = src.var < 0 && dtype_size(src.fixed) == 1;
      if (byte_src && !(t == src) && !(t.var < 0 && t.fixed == DType::F16)) {
        d_.error(e.range, std::string("the vector unit converts ") + dtype_name(src.fixed) + " only to f16",
                 "load(" + print_expr(*e.args[0]) + ", f16), then cast(v, f32) if needed");
        return {};
      }
      // A whole [n] vector read in the loop is the same for every tile: loaded once per core, before the loop (a
      // resident value), as if written there.
      const bool hoist = form == Form::Vec && in_loop_ && !after_loop_;
      if (hoist) in_loop_ = false;
      Operand o = emit(Op::Load, "load", form, t, {}, e);
      out().back().tensor = ti;
      if (hoist) in_loop_ = true;
      if (period >= 0) {   // the period is a tiling field (split_cores adds the dims a scalar names)
        out().back().period = period;
        out().back().scalar = name(*e.args[0]->args[1]->args[1]).s;
      }
      return o;
    }
    if (f == "axis_index") return axis_index(e);
    if (f == "cast") {
      if (!nargs(2, "cast(v, f32)") || !no_kwargs()) return {};
      Operand a = expr(*e.args[0]);
      TypeOf t;
      if (!a.ok || !dtype_arg(*e.args[1], t)) return {};
      if (a.scalar) return a;
      if (!not_mask(a, e.range)) return {};
      return emit(Op::Cast, "cast", k_.values[a.value].form, t, {a.value}, e);
    }
    if (kUnary.count(f)) {
      if (!nargs(1, f + "(v)") || !no_kwargs()) return {};
      const size_t hoisted = k_.host_scalars.size();
      Operand a = expr(*e.args[0]);
      if (!a.ok) return {};
      if (a.scalar) return hoist(e, false, 0, hoisted);
      return unary_value(e, a, f);
    }
    if (kUnaryScalar.count(f)) {
      if (!nargs(2, f + "(v, s)") || !no_kwargs()) return {};
      Operand a = expr(*e.args[0]);
      Operand s = expr(*e.args[1]);
      if (!a.ok || !s.ok) return {};
      if (a.scalar || !s.scalar) {
        d_.error(e.range, f + "() takes a tile and a scalar", f + "(v, 0.01)");
        return {};
      }
      if (!not_mask(a, e.range) || !require(f, k_.values[a.value].type, e.range, f + "()")) return {};
      return emit(Op::UnaryScalar, f, k_.values[a.value].form, k_.values[a.value].type, {a.value}, e, s.s);
    }
    if (f == "sum" || f == "mean" || f == "prod" || ((f == "max" || f == "min") && !e.kwargs.empty())) {
      // group=K (after axis=1): the rows of each group of K reduce together (sema_group.cpp)
      const bool grouped = e.kwargs.size() == 2 && e.kwargs[1].first == "group" && f != "prod";
      if (e.args.size() != 1 || e.kwargs.size() != 1u + grouped || e.kwargs[0].first != "axis") {
        d_.error(e.range, f + "() reduces along an axis of a tile: " + f + (f == "prod" ? "(v, axis=0)" : "(v, axis=1)"),
                 k_.axis ? f + "(v, axis=0) over the axis r of a slab [r, cols]" : "");
        return {};
      }
      double ax = 0;
      if (!constant(*e.kwargs[0].second, ax) || (ax != 1 && ax != -1 && ax != 0)) {
        d_.error(e.kwargs[0].second->range, "axis= is 1 (along each row of a row tile; over the positions of a slab) or 0 (over the axis r of a slab)",
                 f + "(v, axis=1)");
        return {};
      }
      Operand a = expr(*e.args[0]);
      if (!a.ok) return {};
      if (grouped && ax == 0) {
        d_.error(e.kwargs[1].second->range, "group= groups the rows of a row tile, not the axis r of a slab",
                 f + "(v, axis=1, group=K) in a row program");
        return {};
      }
      if (ax == 0) return axis_reduce(e, a, f);
      if (f == "prod") {
        d_.error(e.kwargs[0].second->range, "prod() reduces a slab over its axis r only",
                 "prod(v, axis=0) with v = load(x[:, c]) of a view x: T[*outer, r @ dim, *inner]");
        return {};
      }
      if (!a.scalar && k_.values[a.value].form == Form::Slab) {
        if (grouped) {
          d_.error(e.kwargs[1].second->range, "group= groups the rows of a row tile, not a slab's positions",
                   f + "(v, axis=1) reduces over the positions of each outer index");
          return {};
        }
        return across_reduce(e, a, f);
      }
      if (a.scalar || k_.values[a.value].form != Form::Rows) {
        d_.error(e.args[0]->range, f + "(..., axis=1) reduces a row tile [rows, n]",
                 k_.rows ? "" : "flat programs have no rows: use a row program, for r in tiles(m) over x: T[*m, n]");
        return {};
      }
      const Value v = k_.values[a.value];
      if (!not_mask(a, e.range) || !require(f == "mean" ? "sum" : f, v.type, e.range, f + "()")) return {};
      Operand o = emit(Op::Reduce, f, Form::Col, v.type, {a.value}, e);
      if (grouped && !check_group(k_, *e.kwargs[1].second, e, a.value, out().back(), d_)) return {};
      return o;
    }
    if (f == "max" || f == "min") {
      if (!nargs(2, f + "(a, b) or " + f + "(v, axis=1)")) return {};
      Operand a = expr(*e.args[0]);
      Operand b = expr(*e.args[1]);
      if (!a.ok || !b.ok) return {};
      if (a.scalar && b.scalar) return scalar(std::string(f == "max" ? "kt::ScalarMax(" : "kt::ScalarMin(") + a.s.cpp + ", " + b.s.cpp + ")");
      if (a.scalar) std::swap(a, b);
      if (b.scalar) return scalar_op(e, a, b, f);
      return binary_values(e, a, b, f);
    }
    if (f == "clamp") {
      if (!nargs(3, "clamp(v, lo, hi)") || !no_kwargs()) return {};
      Operand v = expr(*e.args[0]);
      Operand lo = expr(*e.args[1]);
      Operand hi = expr(*e.args[2]);
      if (!v.ok || !lo.ok || !hi.ok) return {};
      if (v.scalar) {
        d_.error(e.args[0]->range, "clamp() of a scalar", "clamp a tile");
        return {};
      }
      Operand m = lo.scalar ? scalar_op(e, v, lo, "max") : binary_values(e, v, lo, "max");
      if (!m.ok) return {};
      return hi.scalar ? scalar_op(e, m, hi, "min") : binary_values(e, m, hi, "min");
    }
    if (f == "where") {
      if (!nargs(3, "where(mask, a, b)") || !no_kwargs()) return {};
      Operand m = expr(*e.args[0]);
      Operand a = expr(*e.args[1]);
      Operand b = expr(*e.args[2]);
      if (!m.ok || !a.ok || !b.ok) return {};
      // A bool tensor as the mask: nonzero bytes select the first operand (a bool column over row operands is
      // spread before the compare: no select needed).
      if (is_byte_tile(m)) m = byte_mask(m, *e.args[0], where_spreads(m, a, b));
      if (m.scalar || !k_.values[m.value].mask) {
        d_.error(e.args[0]->range, "where()'s first argument must be a comparison of tiles", "where(v > 0, v, 0.0)");
        return {};
      }
      if (where_spreads(m, a, b)) {
        m = spread_mask(m, e);
        for (Operand* o : {&a, &b})
          if (!o->scalar && !k_.values[o->value].mask) *o = spread_rows(*o, e);
      }
      if (k_.values[m.value].form == Form::Slab)   // flat operands of a slab mask: their values repeat along r
        for (Operand* o : {&a, &b})
          if (!o->scalar && !k_.values[o->value].mask && slab_and_flat(Form::Slab, k_.values[o->value].form))
            *o = spread_slab(*o, e);
      const Value mv = k_.values[m.value];
      TypeOf t = !a.scalar ? k_.values[a.value].type : !b.scalar ? k_.values[b.value].type : mv.type;
      for (const Operand* o : {&a, &b})
        if (!o->scalar) {
          const Value& v = k_.values[o->value];
          if (!not_mask(*o, e.range)) return {};
          if (v.form != mv.form) {
            d_.error(e.range, fmt::format("where() over a {} mask with a {} operand", form_name(mv.form),
                                          form_name(v.form)),
                     k_.axis ? "the operands have the mask's form, or are flat tiles of a slab mask's positions "
                               "(repeated along r); compare slabs for a slab result: where(v > max(v, axis=0), ...)"
                             : "the operands have the mask's form; row tiles, [rows, 1] columns and [n] vectors mix "
                               "(they are spread over row tiles)");
            return {};
          }
          if (!(v.type == t)) {
            d_.error(e.range, "where()'s operands have dtypes " + tname(t) + " and " + tname(v.type),
                     "convert one with cast()");
            return {};
          }
        }
      if (!require("select", t, e.range, "where()")) return {};
      Operand o;
      o.ok = true;
      o.value = new_value(mv.form, t);
      Instr in;
      in.op = Op::Select;
      in.fn = "select";
      in.dst = o.value;
      in.srcs = {m.value, a.scalar ? -1 : a.value, b.scalar ? -1 : b.value};
      in.scalar = a.s;
      in.scalar2 = b.s;
      in.range = e.range;
      in.text = print_expr(e);
      out().push_back(in);
      return o;
    }
    if (kScans.count(f)) return scan(e);
    std::string c = closest(f, kAllFunctions);
    d_.error(e.range, "unknown function '" + f + "'", c.empty() ? "see docs/tile-language.md, Functions" : "did you mean '" + c + "'?");
    return {};
  }

  // sum/max/min/mean/prod(v, axis=0): a slab [r, cols] over its axis r, to a flat tile of the cols. Integers reduce
  // exactly with the vector unit's integer Add/Max/Min/Mul (mean divides: floats only).
  Operand axis_reduce(const Expr& e, const Operand& a, const std::string& f) {
    if (a.scalar || k_.values[a.value].form != Form::Slab) {
      d_.error(e.args[0]->range, f + "(..., axis=0) reduces over the axis r of a slab [r, cols]; this is " +
                                     (a.scalar ? std::string("a scalar") : std::string("a ") +
                                                                              form_name(k_.values[a.value].form) + " tile"),
               k_.axis ? "load the slab of an axis view: v = load(x[:, " + k_.loop_var + "])"
                       : "choose the axis with an attr: x: T[*outer, r @ dim, *inner], for c in tiles(outer, inner), "
                         "v = load(x[:, c])");
      return {};
    }
    const Value v = k_.values[a.value];
    static const std::map<std::string, std::string> op = {
        {"sum", "add"}, {"max", "max"}, {"min", "min"}, {"prod", "mul"}, {"mean", "div"}};
    if (!not_mask(a, e.range) || !require(op.at(f), v.type, e.range, f + "()")) return {};
    return emit(Op::Reduce, f, Form::Flat, v.type, {a.value}, e);
  }

  // sum/max/min/mean(v, axis=1) of a slab [r, cols]: over the positions of each row of r that share an outer index
  // (x.sum(the dims after dim, keepdim=True)), repeated over them: a slab again. The host keeps an outer index's whole
  // inner dims in one tile (column mode); floats only (the row helpers' WholeReduce).
  Operand across_reduce(const Expr& e, const Operand& a, const std::string& f) {
    const Value v = k_.values[a.value];
    if (!not_mask(a, e.range)) return {};
    for (DType t : each(v.type))
      if (t != DType::F32 && t != DType::F16) {
        d_.error(e.args[0]->range, fmt::format("{}(v, axis=1) of a slab reduces float values; this one is {}", f,
                                               dtype_name(t)),
                 "load it as f32: load(x[:, " + k_.loop_var + "], f32)");
        return {};
      }
    return emit(Op::SlabAcross, f, Form::Slab, v.type, {a.value}, e);
  }

  // An output shaped like the axis view, y: T[*outer, r, *inner] (what a scan leaves): stored whole, y[:, c].
  bool axis_shaped(const TensorArg& t) const {
    auto part = [&](const Dim& d, int p, bool star) {
      const int si = sym_index(k_, d.name);
      return si >= 0 && k_.syms[si].part == p && d.star == star && d.axis_attr.empty();
    };
    return t.dims.size() == 3 && part(t.dims[0], 0, true) && part(t.dims[1], 1, false) && part(t.dims[2], 2, true);
  }

  // cumsum/cumprod/cummax/cummin/logcumsumexp(v, axis=0, reverse=false, exclusive=false): a slab [r, cols] to the
  // slab of its running results along r (from the end when reverse; shifted by one, the identity first, when
  // exclusive).
  Operand scan(const Expr& e) {
    const std::string& f = e.text;
    const std::string form = f + "(v, axis=0, reverse=false, exclusive=false)";
    const Expr* reset = nullptr;
    if (e.args.size() != 1) {
      d_.error(e.range, fmt::format("{}() takes one slab, got {} arguments", f, e.args.size()), form);
      return {};
    }
    bool have_axis = false, rev = false, excl = false, across = false;
    for (size_t i = 0; i < e.kwargs.size(); ++i) {
      const auto& [key, val] = e.kwargs[i];
      double v = 0;
      const bool c = constant(*val, v);
      if (key == "axis") {
        have_axis = true;
        if (!c || (v != 0 && v != 1)) {
          d_.error(val->range, f + "() runs along the axis r of a slab (axis=0) or over its positions (axis=1)", form);
          return {};
        }
        across = v == 1;
      } else if (key == "reverse" || key == "exclusive") {
        if (!c || (v != 0 && v != 1)) {
          d_.error(val->range, key + "= is true or false", form);
          return {};
        }
        (key == "reverse" ? rev : excl) = v != 0;
      } else if (key == "reset") {
        reset = val.get();
      } else {
        d_.error(e.kwarg_ranges[i], f + "() has no argument '" + key + "'",
                 form + "; reset=m restarts the scan where the slab mask m is True");
        return {};
      }
    }
    if (!have_axis) {
      d_.error(e.range, f + "() needs the axis it runs along: axis=0 (the axis r of a slab)", form);
      return {};
    }
    Operand a = expr(*e.args[0]);
    if (!a.ok) return {};
    if (a.scalar || k_.values[a.value].form != Form::Slab) {
      d_.error(e.args[0]->range, f + "() runs along the axis r of a slab [r, cols]; this is " +
                                     (a.scalar ? std::string("a scalar") : std::string("a ") +
                                                                              form_name(k_.values[a.value].form) + " tile"),
               k_.axis ? "load the slab of an axis view: v = load(x[:, " + k_.loop_var + "])"
                       : "choose the axis with an attr: x: T[*outer, r @ dim, *inner], for c in tiles(outer, inner), "
                         "v = load(x[:, c])");
      return {};
    }
    const std::string fn = kScans.at(f);
    if (across) {   // over the positions: the helpers' row scans, on floats
      for (DType t : each(k_.values[a.value].type))
        if (t != DType::F32 && t != DType::F16) {
          d_.error(e.args[0]->range, fmt::format("{}(v, axis=1) of a slab scans float values; this one is {}", f,
                                                 dtype_name(t)),
                   "load it as f32: load(x[:, " + k_.loop_var + "], f32)");
          return {};
        }
      if (reset) {
        d_.error(reset->range, f + "(v, axis=1) has no reset=", "reset= restarts a scan along the axis r: axis=0");
        return {};
      }
    }
    if (excl && (fn == "logsumexp")) {
      d_.error(e.range, "an exclusive logcumsumexp() starts at log(0) = -inf", "use the inclusive form");
      return {};
    }
    static const std::map<std::string, std::string> op = {
        {"sum", "add"}, {"prod", "mul"}, {"max", "max"}, {"min", "min"}, {"logsumexp", "exp"}};
    const Value v = k_.values[a.value];
    if (!not_mask(a, e.range) || !require(op.at(fn), v.type, e.range, f + "()")) return {};
    std::vector<int> srcs = {a.value};
    if (reset) {
      const int r = reset_slab(*reset, fn, excl, v.type, f, e);
      if (r < 0) return {};
      srcs.push_back(r);
    }
    Operand o = emit(Op::Scan, fn, Form::Slab, v.type, srcs, e);
    out().back().reverse = rev;
    out().back().exclusive = excl;
    out().back().across = across;
    return o;
  }

  // A tile of a bool (or u8) tensor, which a mask position takes as "non-zero".
  bool is_byte_tile(const Operand& m) const {
    if (m.scalar) return false;
    const Value& v = k_.values[m.value];
    return !v.mask && v.type.var < 0 && (v.type.fixed == DType::Bool || v.type.fixed == DType::U8);
  }
  // Its mask: the bytes as halves compared with 0, spread over row tiles first when `spread` (a column).
  Operand byte_mask(const Operand& m, const Expr& at, bool spread) {
    const Form f = k_.values[m.value].form;
    Operand h = emit(Op::Cast, "cast", f, {-1, DType::F16}, {m.value}, at);
    if (spread) h = spread_rows(h, at);
    return emit(Op::Compare, "ne", spread ? Form::Rows : f, {-1, DType::F16}, {h.value}, at, {"0.0", true, 0}, true);
  }

  // A scan's reset=: a slab mask (a comparison of slabs, or a bool view's slab: non-zero bytes) where a new run
  // starts, as a slab of the scanned type holding 1 there and 0 elsewhere (the helper's bounds are made from it).
  // The value it returns, or -1 after an error.
  int reset_slab(const Expr& x, const std::string& fn, bool excl, TypeOf t, const std::string& f, const Expr& e) {
    const std::string hint = "reset= takes a slab mask, True where a new run starts: reset=load(starts[:, " +
                             (k_.loop_var.empty() ? std::string("c") : k_.loop_var) +
                             "]) of a bool view, or a comparison such as reset=(ids != shifted)";
    if (fn == "logsumexp") {
      d_.error(x.range, "logcumsumexp() has no reset=", "split the axis into runs outside the kernel");
      return -1;
    }
    if (excl) {
      d_.error(x.range, f + "() with reset= is inclusive only", "drop exclusive=true");
      return -1;
    }
    Operand m = expr(x);
    if (!m.ok) return -1;
    if (is_byte_tile(m)) m = byte_mask(m, x, false);   // a bool view
    if (m.scalar || !k_.values[m.value].mask || k_.values[m.value].form != Form::Slab) {
      d_.error(x.range,
               "reset= of " + f + "() is " +
                   (m.scalar ? std::string("a scalar")
                             : !k_.values[m.value].mask
                                   ? std::string("a number ") + form_name(k_.values[m.value].form) + " tile"
                                   : std::string("a ") + form_name(k_.values[m.value].form) + " mask"),
               hint);
      return -1;
    }
    if (!require("select", t, e.range, f + "() with reset=")) return -1;
    const int one = new_value(Form::Slab, t);
    Instr in;
    in.op = Op::Select;
    in.fn = "select";
    in.dst = one;
    in.srcs = {m.value, -1, -1};
    in.scalar = {"1.0", true, 1};
    in.scalar2 = {"0.0", true, 0};
    in.range = x.range;
    in.text = print_expr(x);
    out().push_back(in);
    return one;
  }

  const Program& p_;
  std::string soc_;
  Kernel& k_;
  Diags& d_;
  bool in_loop_ = false, after_loop_ = false;
  bool phase2_ = false;                               // checking a two-phase program's second loop
  std::set<std::string> failed_names_;               // values whose definition had an error (no "unknown name" later)
  std::set<std::string> first_loop_names_;            // tiles of the first loop (not visible in the second)
  std::map<std::string, Operand> locals_;
  std::map<std::string, const Expr*> scalar_asts_;    // scalar locals' expressions (for host scalars)
  std::vector<std::string> row_dims_;                 // row programs: the dims of a row (n, or h and w merged)
  std::set<std::string> range_vars_;                  // the variables of the range loops being unrolled
  double unrolled_ = 1;                               // copies of the innermost range loop's body
  std::map<std::string, int> accs_;           // accumulator name -> its value
  std::map<std::string, Operand> combined_;   // accumulator name -> its combined value (epilogue)
  struct PendingAxis {
    int tensor;
    std::string attr;
    Range range;
  };
  std::vector<PendingAxis> pending_axes_;     // axis markers, resolved once the attrs are known
};
}  // namespace

bool check(const Program& p, const std::string& soc, Kernel& out, Diags& diags) {
  out = Kernel{};
  return Checker(p, soc, out, diags).run();
}
}  // namespace kgen::tile
