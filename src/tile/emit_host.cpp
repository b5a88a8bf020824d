// emit (host side): the tiling header (one field per split_cores field), the host file (TilingFunc: dims from the
// input shapes and their consistency, the tile size from the SoC's UB and the size_tiles terms, the core split and
// block dim; InferShape and InferDataType from the outputs' dims and dtypes; the OpDef with one dtype column per
// combination of the dtype variables) and the msopgen json.
#include <fmt/format.h>

#include "tile/emit.h"
#include "tile/passes.h"
#include "tile/repeat_rows.h"
#include "tile/sema_group.h"

namespace kgen::tile {
namespace {


DType type_in(const TypeOf& t, const std::vector<DType>& col) { return t.var >= 0 ? col[t.var] : t.fixed; }

// `dtype U = T(i32 -> i64)` on the host: dtU from dtT, one comparison per mapped type.
std::string mapped_dtype(const Kernel& k, int v) {
  const DtypeVar& u = k.dtype_vars[v];
  const std::string base = k.dtype_vars[u.base].name;
  std::string e = "dt" + base;
  for (size_t i = 0; i < u.types.size(); ++i)
    if (u.types[i] != k.dtype_vars[u.base].types[i])
      e = fmt::format("dt{} == {} ? {} : {}", base, dtype_ge(k.dtype_vars[u.base].types[i]), dtype_ge(u.types[i]), e);
  return fmt::format("  const ge::DataType dt{} = {};   // follows dt{}", u.name, e, base);
}

// The host's variable for a dim of the program (prefixed: a dim may be called `total` or `depth`).
std::string sym_var(const std::string& name) { return "d_" + camel_lower(name); }

int output_index(const Kernel& k, int tensor) {
  int n = 0;
  for (int i = 0; i < tensor; ++i) n += k.tensors[i].output;
  return n;
}
// Flat and row programs: the tile size's limits, then contiguous ranges of the extent per core.
template <class Line>
void extent_split(const Kernel& k, Line& line) {
  line(std::string("  if (tileUnits == 0) return ge::GRAPH_FAILED;   // ") +
       (k.rows ? (k.chunks.possible ? "not even a chunk of 64 columns fits in UB"
                                    : "one row needs more UB than the SoC has (and this program cannot be chunked: " +
                                          k.chunks.why_not + ")")
               : "no room for a tile"));
  if (k.tile_request > 0)
    line(fmt::format("  if (tileUnits > {0}) tileUnits = {0};   // tile={0} in the program", k.tile_request));
  if (k.rows) line("  if (tileUnits > 4095) tileUnits = 4095;   // DataCopyPad moves at most 4095 rows at once");
  for (const std::string& l : group_tile_lines(k)) line(l);   // group=K: whole groups per tile (emit_group.cpp)
  line("  // Core split: contiguous ranges" + std::string(k.rows ? "" : " of whole 64-element groups") + ".");
  line("  uint64_t perCore = coreNum == 0 ? total : (total + coreNum - 1) / coreNum;");
  if (!k.rows) line("  perCore = (perCore + 63) / 64 * 64;");
  if (!k.group.host.empty()) line("  perCore = (perCore + groupRows - 1) / groupRows * groupRows;   // whole groups per core");
  line("  if (perCore == 0) perCore = 1;");
  line("  if (tileUnits > perCore) tileUnits = perCore;");
}


// --- axis programs (x: T[*outer, r @ dim, *inner]) ------------------------------------------------------------------
template <class Line>
void axis_dims(const Kernel& k, Line& line) {
  const std::string outer = sym_var(k.syms[k.outer_sym].name), r = sym_var(k.syms[k.axis_sym].name),
                    inner = sym_var(k.syms[k.inner_sym].name);
  const std::string x = k.tensors[k.axis_tensor].name, dim = k.attrs[k.axis_attr].name;
  line(fmt::format("  // {} viewed around the axis that `{}` picks (negative: from the end, as in PyTorch): {} is the product of "
                   "the dims before it, {} of those after it.",
                   x, dim, k.syms[k.outer_sym].name, k.syms[k.inner_sym].name));
  line(fmt::format("  const gert::Shape& axisShape = context->GetInputShape({})->GetOriginShape();",
                   input_index(k, k.axis_tensor)));
  line(fmt::format("  const int64_t* axisAttr = context->GetAttrs()->GetAttrPointer<int64_t>({});", k.axis_attr));
  line("  if (axisAttr == nullptr) return ge::GRAPH_FAILED;");
  line("  const int64_t axisRank = static_cast<int64_t>(axisShape.GetDimNum());");
  line("  const int64_t axis = *axisAttr < 0 ? *axisAttr + axisRank : *axisAttr;");
  line("  if (axis < 0 || axis >= axisRank) {");
  line(fmt::format("    std::fprintf(stderr, \"{}: {} = %lld is out of range for {} with %lld dims (expected %lld to %lld)\\n\",",
                   k.op_type, dim, x));
  line("                 static_cast<long long>(*axisAttr), static_cast<long long>(axisRank),");
  line("                 static_cast<long long>(-axisRank), static_cast<long long>(axisRank - 1));");
  line("    return ge::GRAPH_FAILED;");
  line("  }");
  line(fmt::format("  uint64_t {} = 1, {} = 1;", outer, inner));
  line(fmt::format("  for (int64_t d = 0; d < axis; ++d) {} *= axisShape.GetDim(d);", outer));
  if (k.axis_chunks > 0) {   // a chunk view: the axis is the chunk number, a chunk's part of the dim is inner
    line(fmt::format("  const uint64_t {} = {};   // {} viewed as {} equal chunks of its dim `{}`", r, k.axis_chunks, x,
                     k.axis_chunks, dim));
    line(fmt::format("  if (axisShape.GetDim(axis) % {} != 0) {{", k.axis_chunks));
    line(fmt::format("    std::fprintf(stderr, \"{}: dim %lld of {} (%lld) does not split into {} equal chunks\\n\",",
                     k.op_type, x, k.axis_chunks));
    line("                 static_cast<long long>(axis), static_cast<long long>(axisShape.GetDim(axis)));");
    line("    return ge::GRAPH_FAILED;");
    line("  }");
    line(fmt::format("  {} = axisShape.GetDim(axis) / {};", inner, k.axis_chunks));
  } else {
    line(fmt::format("  const uint64_t {} = axisShape.GetDim(axis);", r));
  }
  line(fmt::format("  for (int64_t d = axis + 1; d < axisRank; ++d) {} *= axisShape.GetDim(d);", inner));
}

// The shape checks of an input of an axis program: another view has the first one's shape; a tensor of the
// positions has its dims without the axis (or 1 there), of the outer or inner indices the dims before or after it
// (a chunk view's inner is a chunk's part of its dim: checked by size). False for inputs of other shapes (checked
// as usual).
template <class Line>
bool axis_input_check(const Kernel& k, int ti, const std::string& sh, Line& line) {
  const TensorArg& t = k.tensors[ti];
  if (ti == k.axis_tensor) return true;   // it defines the dims
  const AxisShape as = axis_shape(k, t);
  if (as == AxisShape::None) return false;
  const std::string x = k.tensors[k.axis_tensor].name, dim = k.attrs[k.axis_attr].name;
  std::string cond, want;   // the condition the shape fails on, what it should be
  switch (as) {
    case AxisShape::View:
      cond = "static_cast<int64_t>(s.GetDimNum()) != axisRank || !Dims(s, 0, axisRank, 0)";
      want = x + "'s shape";
      break;
    case AxisShape::Positions:
      cond = k.axis_chunks > 0 ? fmt::format("Elems(s) != {} * {}", sym_var(k.syms[k.outer_sym].name),
                                             sym_var(k.syms[k.inner_sym].name))
                               : "!(Dims(s, 0, axis, 0) && ((static_cast<int64_t>(s.GetDimNum()) == axisRank - 1 && "
                                 "Dims(s, axis + 1, axisRank, -1)) || (static_cast<int64_t>(s.GetDimNum()) == axisRank "
                                 "&& s.GetDim(axis) == 1 && Dims(s, axis + 1, axisRank, 0))))";
      want = x + "'s shape without its dim `" + dim + "` (or 1 there)";
      break;
    case AxisShape::Outer:
      cond = "static_cast<int64_t>(s.GetDimNum()) != axis || !Dims(s, 0, axis, 0)";
      want = x + "'s dims before its dim `" + dim + "`";
      break;
    case AxisShape::Inner:
      cond = k.axis_chunks > 0 ? "Elems(s) != " + sym_var(k.syms[k.inner_sym].name)
                               : "static_cast<int64_t>(s.GetDimNum()) != axisRank - axis - 1 || "
                                 "!Dims(s, axis + 1, axisRank, -axis - 1)";
      want = x + "'s dims after its dim `" + dim + "`";
      break;
    case AxisShape::Periodic:   // [s.., *inner]: x's last dims before the axis, then its dims after (a chunk's part)
      cond = k.axis_chunks > 0
                 ? fmt::format("![&] {{ const int64_t j = static_cast<int64_t>(s.GetDimNum()) - (axisRank - axis); "
                               "return j >= 1 && j <= axis && Dims(s, axis - j, axis, j - axis) && "
                               "s.GetDim(j) * {} == axisShape.GetDim(axis) && Dims(s, axis + 1, axisRank, j - axis); }}()",
                               k.axis_chunks)
                 : "![&] { const int64_t j = static_cast<int64_t>(s.GetDimNum()) - (axisRank - axis - 1); "
                   "return j >= 1 && j <= axis && Dims(s, axis - j, axis, j - axis) && "
                   "Dims(s, axis + 1, axisRank, j - axis - 1); }()";
      want = x + "'s last dims before its dim `" + dim + "`, then " +
             (k.axis_chunks > 0 ? "a chunk's part of that dim and the dims after it" : "the dims after it");
      break;
    case AxisShape::KRows:   // outputs only
    case AxisShape::None: break;
  }
  line(fmt::format("  {{  // {}: {}", t.name, want));
  line(fmt::format("    const gert::Shape& s = {};", sh));
  line("    // s's dims [from - shift, to - shift) are the axis input's dims [from, to)");
  line("    auto Dims = [&](const gert::Shape& sv, int64_t from, int64_t to, int64_t shift) {");
  line("      if (static_cast<int64_t>(sv.GetDimNum()) < to + shift) return false;");
  line("      for (int64_t d = from; d < to; ++d)");
  line("        if (sv.GetDim(d + shift) != axisShape.GetDim(d)) return false;");
  line("      return true;");
  line("    };");
  line("    auto Elems = [](const gert::Shape& sv) { uint64_t p = 1; for (size_t d = 0; d < sv.GetDimNum(); ++d) p *= sv.GetDim(d); return p; };");
  line("    (void)Dims, (void)Elems;");
  line(fmt::format("    if ({}) {{", cond));
  line(fmt::format("      std::fprintf(stderr, \"{}: input {} must have {} ({} = %lld)\\n\", static_cast<long long>(axis));",
                   k.op_type, t.name, want, dim));
  line("      return ge::GRAPH_FAILED;");
  line("    }");
  line("  }");
  return true;
}

// Axis programs: row mode takes tiles of whole rows, column mode chunks of inner in 16-column groups, as wide as UB
// allows but narrow enough that outer * chunks gives every core work.
template <class Line>
void axis_split(const Kernel& k, Line& line) {
  const std::string outer = sym_var(k.syms[k.outer_sym].name), r = sym_var(k.syms[k.axis_sym].name),
                    inner = sym_var(k.syms[k.inner_sym].name);
  auto too_long = [&](const std::string& ind) {
    line(ind + fmt::format("std::fprintf(stderr, \"{}: the axis of %llu elements does not fit in UB (even for 16 positions); "
                           "reductions and scans over axes this long are not supported\\n\", static_cast<unsigned long long>({}));",
                           k.op_type, r));
    line(ind + "return ge::GRAPH_FAILED;");
  };
  line("  if (tileUnits == 0) {");
  too_long("    ");
  line("  }");
  if (k.tile_request > 0)
    line(fmt::format("  if (tileUnits > {0}) tileUnits = rowMode ? {0} : ({0} + 15) / 16 * 16;   // tile={0} in the program",
                     k.tile_request));
  line("  uint64_t total = 0, chunks = 1;");
  line("  if (rowMode) {");
  line("    if (tileUnits > 4095) tileUnits = 4095;   // DataCopyPad moves at most 4095 rows at once");
  line(fmt::format("    total = {};", outer));
  line("  } else {");
  bool one = false;   // 1-byte tensors (a bool mask): columns in whole 32-byte blocks of them
  for (const Buffer& b : k.buffers) one |= !b.mask && b.type.var < 0 && dtype_size(b.type.fixed) == 1;
  if (one) line("    tileUnits = tileUnits / 32 * 32;   // whole 32-byte blocks of 1-byte columns");
  else line("    tileUnits = tileUnits / 16 * 16;   // whole 32-byte blocks of 2- and 4-byte columns");
  line("    if (tileUnits == 0) {");
  too_long("      ");
  line("    }");
  bool across = false;   // sum(v, axis=1) of a slab: one outer index's whole inner dims in one tile
  for (const Instr& in : k.body) across |= in.op == Op::SlabAcross || (in.op == Op::Scan && in.across);
  if (across) {
    line(fmt::format("    if ({} > tileUnits) {{", inner));
    line(fmt::format("      std::fprintf(stderr, \"{}: the dims after dim `{}` of {} hold %llu positions; a reduction over them "
                     "(axis=1 of a slab) needs them in one tile, at most %llu here\\n\", static_cast<unsigned long long>({}), "
                     "static_cast<unsigned long long>(tileUnits));",
                     k.op_type, k.attrs[k.axis_attr].name, k.tensors[k.axis_tensor].name, inner));
    line("      return ge::GRAPH_FAILED;");
    line("    }");
    line(fmt::format("    tileUnits = ({} + {}) / {} * {};   // one tile per outer index", inner, one ? 31 : 15, one ? 32 : 16,
                     one ? 32 : 16));
  } else {
    line(fmt::format("    const uint64_t want = coreNum == 0 ? 1 : (coreNum + {0} - 1) / {0};   // chunks per outer index", outer));
    line(fmt::format("    const uint64_t even = (({0} + want - 1) / want + {1}) / {2} * {2};", inner, one ? 31 : 15, one ? 32 : 16));
    line("    if (tileUnits > even) tileUnits = even;");
  }
  line(fmt::format("    chunks = ({0} + tileUnits - 1) / tileUnits;", inner));
  line(fmt::format("    total = {} * chunks;", outer));
  line("  }");
  line("  uint64_t perCore = coreNum == 0 ? total : (total + coreNum - 1) / coreNum;");
  line("  if (perCore == 0) perCore = 1;");
  line("  if (rowMode && tileUnits > perCore) tileUnits = perCore;");
}

// InferShape of an output of the positions: the input's shape without the axis ([*outer, *inner]) or with 1 there.
template <class Line>
bool axis_output_shape(const Kernel& k, const TensorArg& t, Line& line) {
  if (!k.axis || t.dims.empty() || t.dims[0].name != k.syms[k.outer_sym].name) return false;
  const bool keep = t.dims.size() == 3;
  const bool whole = keep && t.dims[1].name == k.syms[k.axis_sym].name;   // a scan's output: the input's shape
  const int64_t krows = keep && t.dims[1].name.empty() && t.dims[1].value >= 2 ? t.dims[1].value : 0;   // [*o, K, *i]
  line(fmt::format("    const gert::Shape* xs = context->GetInputShape({});", input_index(k, k.axis_tensor)));
  line(fmt::format("    const int64_t* axisAttr = context->GetAttrs()->GetAttrPointer<int64_t>({});", k.axis_attr));
  line("    if (axisAttr == nullptr) return GRAPH_FAILED;");
  line("    const int64_t rank = static_cast<int64_t>(xs->GetDimNum());");
  line("    const int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;");
  line("    if (axis < 0 || axis >= rank) return GRAPH_FAILED;");
  line("    out->SetDimNum(0);");
  line("    for (int64_t d = 0; d < rank; ++d)");
  line(whole   ? "      out->AppendDim(xs->GetDim(d));   // the whole axis (a cumulative op)"
        : krows ? fmt::format("      out->AppendDim(d == axis ? {} : xs->GetDim(d));   // K values per position", krows)
        : keep  ? "      out->AppendDim(d == axis ? 1 : xs->GetDim(d));   // keepdim"
        : k.axis_chunks > 0 ? fmt::format("      out->AppendDim(d == axis ? xs->GetDim(d) / {} : xs->GetDim(d));   // one chunk",
                                            k.axis_chunks)
               : "      if (d != axis) out->AppendDim(xs->GetDim(d));");
  line("  }");
  return true;
}
}  // namespace

// Every combination of the dtype variables' types: the OpDef's columns.
std::vector<std::vector<DType>> dtype_columns(const Kernel& k) {
  std::vector<std::vector<DType>> cols{{}};
  for (const auto& v : k.dtype_vars) {
    std::vector<std::vector<DType>> next;
    for (const auto& c : cols)
      for (size_t i = 0; i < v.types.size(); ++i) {
        // A mapped variable adds no columns: it takes the type that goes with its base's type in this column.
        if (v.base >= 0 && k.dtype_vars[v.base].types[i] != c[v.base]) continue;
        auto e = c;
        e.push_back(v.types[i]);
        next.push_back(e);
      }
    cols = next;
  }
  return cols;
}

std::string doc_comment(const std::string& doc) {
  if (doc.empty()) return "";
  std::string o = "// ";
  for (char c : doc) o += c == '\n' ? std::string("\n// ") : std::string(1, c);
  return o;
}

std::string upper(const std::string& s) {
  std::string o;
  for (char c : s) o += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return o;
}

int input_index(const Kernel& k, int tensor) {
  int n = 0;
  for (int i = 0; i < tensor; ++i) n += !k.tensors[i].output;
  return n;
}

std::string tiling_header_open(const Kernel& k, bool cube_tiling) {
  const std::string g = upper(k.kernel_symbol) + "_TILING_H";
  std::string o = fmt::format("// Tiling data of {}, generated by `kgen tile compile` from {}.\n", k.op_type, k.file);
  o += "#ifndef " + g + "\n#define " + g + "\n#include \"register/tilingdata_base.h\"\n";
  if (cube_tiling) o += "#include \"tiling/tiling_api.h\"\n";
  return o + "\nnamespace optiling {\n";
}

std::string tiling_header_close(const Kernel& k) {
  return "END_TILING_DATA_DEF;\n\nREGISTER_TILING_DATA_CLASS(" + k.op_type + ", " + k.op_type +
         "TilingData)\n}  // namespace optiling\n#endif\n";
}

std::map<std::string, std::string> project_files(const Kernel& k, std::string kernel, std::string tiling_header,
                                                 std::string host, std::string json) {
  const std::string& base = k.kernel_symbol;
  return {{"op_kernel/" + base + ".cpp", std::move(kernel)},
          {"op_host/" + base + "_tiling.h", std::move(tiling_header)},
          {"op_host/" + base + ".cpp", std::move(host)},
          {base + ".json", std::move(json)}};
}

std::string emit_tiling_header(const Kernel& k) {
  std::string o = tiling_header_open(k, false);
  o += "BEGIN_TILING_DATA_DEF(" + k.op_type + "TilingData)\n";
  for (const auto& f : k.fields) o += fmt::format("TILING_DATA_FIELD_DEF({}, {});   // {}\n", f.type, f.name, f.why);
  o += tiling_header_close(k);
  return o;
}

std::string emit_host(const Kernel& k) {
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} host side, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  line("// Tiling: the extent (" + std::string(k.rows ? "rows of the last dim" : "elements, any shape") +
       ") split over the vector cores, each core's share streamed through UB in tiles as large as the buffers allow.");
  line("#include \"" + k.kernel_symbol + "_tiling.h\"");
  if (k.axis || !k.group.host.empty()) line("#include <cstdio>");
  if (!k.host_scalars.empty()) line("#include <cmath>   // scalars computed on the host (std::pow, ...)");
  line("#include \"register/op_def_registry.h\"");
  line("#include \"tiling/platform/platform_ascendc.h\"");
  line();
  line("namespace optiling {");
  line("constexpr uint64_t kMathTmpBytes = 4096;   // kt::kMathTmpBytes: scratch of Sigmoid/Tanh/Erf/...");
  bool select = false;
  for (const Instr& in : k.body) select |= in.op == Op::Select;
  if (select)
    line("constexpr uint64_t kReserveBytes = 8192 + 1024;   // Select's scalar modes use the top 8 KB of UB as scratch");
  else line("constexpr uint64_t kReserveBytes = 1024;   // UB left unused for alignment");
  line();
  line("static uint64_t SizeOf(ge::DataType t) {");
  line("  switch (t) {");
  line("    case ge::DT_INT64: return 8;");
  line("    case ge::DT_FLOAT: case ge::DT_INT32: return 4;");
  line("    case ge::DT_FLOAT16: case ge::DT_BF16: return 2;");
  line("    default: return 1;");
  line("  }");
  line("}");
  line();
  line("static ge::graphStatus TilingFunc(gert::TilingContext* context) {");
  line("  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());");
  line("  uint64_t ubSize = 0;");
  line("  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);");
  line("  const uint64_t coreNum = platform.GetCoreNumAiv();");
  // Dims.
  line("  // Dims of the program, from the input shapes.");
  if (k.axis) axis_dims(k, line);
  for (const Sym& s : k.syms) {
    if (s.part >= 0) continue;
    const int in = input_index(k, s.tensor);
    const std::string sh = fmt::format("context->GetInputShape({})->GetOriginShape()", in);
    const int after = s.first;   // dims after this one (from the end)
    if (!s.star && s.first != s.last) {   // dims merged into one row (x: T[*m, h, w]: rows of h * w)
      line(fmt::format("  uint64_t {} = 1;", sym_var(s.name)));
      line(fmt::format("  for (size_t d = {}; d <= {} && d < {}.GetDimNum(); ++d) {} *= {}.GetDim({}.GetDimNum() - 1 - d);",
                       s.last, s.first, sh, sym_var(s.name), sh, sh));
    } else if (s.star) {
      line(fmt::format("  uint64_t {} = 1;", sym_var(s.name)));
      line(fmt::format("  for (size_t d = 0; d + {} < {}.GetDimNum(); ++d) {} *= {}.GetDim(d);", after, sh,
                       sym_var(s.name), sh));
    } else {
      line(fmt::format("  const uint64_t {} = {}.GetDimNum() > {} ? {}.GetDim({}.GetDimNum() - {}) : 1;",
                       sym_var(s.name), sh, after, sh, sh, after + 1));
    }
  }
  // Consistency of every input's shape with its pattern.
  line("  // Every input must match its declared dims.");
  for (size_t ti = 0; ti < k.tensors.size(); ++ti) {
    const TensorArg& t = k.tensors[ti];
    if (t.output) continue;
    const int in = input_index(k, static_cast<int>(ti));
    const std::string sh = fmt::format("context->GetInputShape({})->GetOriginShape()", in);
    if (k.axis && axis_input_check(k, static_cast<int>(ti), sh, line)) continue;
    bool star = false;
    for (const Dim& d : t.dims) star |= d.star;
    const size_t fixed_dims = t.dims.size() - (star ? 1 : 0);
    line(fmt::format("  {{  // {}", t.name));
    line(fmt::format("    const gert::Shape& s = {};", sh));
    if (!star || fixed_dims > 0)
      line(fmt::format("    if (s.GetDimNum() {} {}) return ge::GRAPH_FAILED;", star ? "<" : "!=", fixed_dims));
    const int nd = static_cast<int>(t.dims.size());
    for (int i = nd - 1, from_end = 0; i >= 0; --i, ++from_end) {
      const Dim& d = t.dims[i];
      if (d.star) {
        line(fmt::format("    uint64_t p = 1;"));
        line(fmt::format("    for (size_t d = 0; d + {} < s.GetDimNum(); ++d) p *= s.GetDim(d);", from_end));
        line(fmt::format("    if (p != {}) return ge::GRAPH_FAILED;", sym_var(d.name)));
        break;
      }
      const std::string v = d.name.empty() ? std::to_string(d.value) : sym_var(d.name);
      line(fmt::format("    if (static_cast<uint64_t>(s.GetDim(s.GetDimNum() - {})) != {}) return ge::GRAPH_FAILED;",
                       from_end + 1, v));
    }
    line("  }");
  }
  repeat_rows_host_checks(k, line);   // mask[b, 1, q, n]: x has its rank and its named dims (sema_repeat_rows.cpp)
  // Dtype variables.
  for (size_t v = 0; v < k.dtype_vars.size(); ++v) {
    int first = -1;
    for (size_t ti = 0; ti < k.tensors.size(); ++ti)
      if (!k.tensors[ti].output && k.tensors[ti].type.var == static_cast<int>(v)) {
        first = input_index(k, static_cast<int>(ti));
        break;
      }
    const std::string nm = k.dtype_vars[v].name;
    if (k.dtype_vars[v].base >= 0) line(mapped_dtype(k, static_cast<int>(v)));
    else if (first >= 0) line(fmt::format("  const ge::DataType dt{} = context->GetInputDesc({})->GetDataType();", nm, first));
    else line(fmt::format("  const ge::DataType dt{} = {};", nm, dtype_ge(k.dtype_vars[v].types[0])));
    line(fmt::format("  const uint64_t size{} = SizeOf(dt{});", nm, nm));
    line(fmt::format("  (void)size{};", nm));
  }
  bool one = false;   // 1-byte tensors pad rows to 32 elements (32 bytes), the others to 16 (whole blocks of both sizes)
  for (const Buffer& b : k.buffers)
    if (!b.mask && b.type.var < 0 && dtype_size(b.type.fixed) == 1) one = true;
  if (k.axis) {
    line("  const bool rowMode = " + sym_var(k.syms[k.inner_sym].name) + " == 1;   // reducing the last dim: contiguous rows");
    line(fmt::format("  const uint64_t npad = rowMode ? ({0} + {1} - 1) / {1} * {1} : {0};   // UB elements of a slab per "
                     "position",
                     sym_var(k.syms[k.axis_sym].name), one ? 32 : 16));
  } else if (k.rows) {
    line(fmt::format("  const uint64_t total = {};", sym_var(k.syms[k.extent_sym].name)));
    line(fmt::format("  const uint64_t npad = ({1} + {0} - 1) / {0} * {0};   // row stride in UB (elements)", one ? 32 : 16,
                     k.row_sym >= 0 ? sym_var(k.syms[k.row_sym].name) : std::string("1")));
    for (const std::string& l : group_size_lines(k)) line(l);   // group=K: rows per group (emit_group.cpp)
  } else {
    line(fmt::format("  const uint64_t total = {};", sym_var(k.syms[k.extent_sym].name)));
    line("  const uint64_t npad = 1;   // (flat: a unit is one element)");
  }
  // UB budget.
  line("  // UB bytes of the buffers (the kernel's InitBuffer sizes) for rows padded to npadV elements and queues of");
  line("  // depthV tiles: per tile unit and fixed.");
  line("  auto ubBytes = [&](uint64_t npadV, uint64_t depth, double& perUnit, double& fixedBytes) {");
  line(k.rows || k.axis ? "    auto rowBytes = [&](uint64_t es) { return static_cast<double>(npadV * es); };"
              : "    auto rowBytes = [&](uint64_t es) { return static_cast<double>(es) + 0 * npadV; };");
  line("    (void)rowBytes;");
  if (k.axis) {   // the axis reductions' work (kt::AxisWorkBytes): row helpers' (or a transpose's) per row, half a slab per column
    line("    auto axisWorkBytes = [&](uint64_t es, bool gather) { return rowMode ? (gather ? npadV * (4.0 + es) : "
         "256.0) : static_cast<double>((npadV + 1) / 2 * es); };");
    line("    auto axisWorkFixed = [&](uint64_t es, bool gather) { return rowMode ? (gather ? 16.0 * npadV * (4.0 + es) : "
         "8192.0 + 256.0) : 0.0; };");
    line("    (void)axisWorkBytes;");
    line("    (void)axisWorkFixed;");
  }
  line("    perUnit = 0;");
  line("    fixedBytes = kReserveBytes;");
  for (const UbTerm& t : k.ub_terms) {
    const Buffer& b = k.buffers[t.buffer];
    if (!t.per_unit.empty()) line(fmt::format("    perUnit += {};   // {}", t.per_unit, b.name));
    if (!t.fixed.empty()) line(fmt::format("    fixedBytes += {};   // {}", t.fixed, b.name));
  }
  line("  };");
  line(fmt::format("  // Queue depth {} (buffers=), or less when not even one {} fits at that depth.", k.queue_depth,
                   k.rows ? "row" : k.axis ? "position" : "element group"));
  line("  uint64_t tileUnits = 0, depth = " + std::to_string(k.queue_depth) + ";");
  line("  for (; depth >= 1; --depth) {");
  line("    double perUnit = 0, fixedBytes = 0;");
  line("    ubBytes(npad, depth, perUnit, fixedBytes);");
  line("    if (fixedBytes < static_cast<double>(ubSize) && perUnit > 0)");
  line("      tileUnits = static_cast<uint64_t>((static_cast<double>(ubSize) - fixedBytes) / perUnit);");
  if (!k.rows && !k.axis) line("    if (tileUnits >= 64) tileUnits = tileUnits / 64 * 64;   // whole 256-byte repeats of float");
  if (k.axis)   // column mode takes whole groups of 16 positions: lower the depth until one group fits
    line("    if (rowMode ? tileUnits > 0 : tileUnits >= 16) break;");
  else line(k.group.host.empty() ? "    if (tileUnits > 0) break;" : "    if (tileUnits >= groupRows) break;   // a whole group");
  line("  }");
  if (k.rows && k.chunks.possible) {
    int cols = 0;
    for (const Value& v : k.values) cols += v.form == Form::Col && !v.mask && !v.resident && !v.accumulator;
    for (const Instr& in : k.body)
      cols += in.op == Op::Reduce || (in.op == Op::Load && k.values[in.dst].form == Form::Col) ||
              (in.op == Op::Store && k.values[in.srcs[0]].form == Form::Col);
    line("  // A row longer than UB: one row at a time in chunks of `chunk` columns (a multiple of 64), as large as fit.");
    line("  uint64_t chunk = 0;");
    line("  if (tileUnits == 0) {");
    line(fmt::format("    const double colBytes = {} * 768.0{};   // the row's columns and partials (512 B each + alignment)",
                     cols, k.chunks.split ? " + 32.0 * coreNum + 256.0" : ""));
    line("    for (depth = " + std::to_string(k.queue_depth) + "; depth >= 1 && chunk == 0; --depth) {");
    line("      double p0 = 0, f0 = 0, p1 = 0, f1 = 0;");
    line("      ubBytes(0, depth, p0, f0);");
    line("      ubBytes(64, depth, p1, f1);");
    line("      const double base = p0 + f0 + colBytes, per64 = (p1 + f1) - (p0 + f0);");
    line("      if (base < static_cast<double>(ubSize) && per64 > 0)");
    line("        chunk = static_cast<uint64_t>((static_cast<double>(ubSize) - base) / per64) * 64;");
    line("      if (chunk > 0) break;");
    line("    }");
    line("    if (chunk > npad) chunk = npad;");
    line("    if (chunk > 0) tileUnits = 1;");
    line("  }");
  }
  int nred = 0;   // the reductions: each folds partials (a chunked axis, rows shared by cores)
  for (const Instr& in : k.body) nred += in.op == Op::Reduce;
  if (k.axis && k.chunks.axis) {
    line("  // Column mode with an axis too long for 16 positions: the axis in chunks of axisChunk rows (a multiple of 8),");
    line("  // 16 positions a tile, each reduction's partials folded across the chunks.");
    line("  uint64_t axisChunk = 0;");
    line("  if (!rowMode && tileUnits < 16) {");
    line(fmt::format("    const double foldBytes = {} * 2 * 256.0;   // a chunk's partial and the running value per reduction",
                     nred));
    line("    for (depth = " + std::to_string(k.queue_depth) + "; depth >= 1 && axisChunk == 0; --depth) {");
    line("      double p0 = 0, f0 = 0, p1 = 0, f1 = 0;");
    line("      ubBytes(0, depth, p0, f0);");
    line("      ubBytes(64, depth, p1, f1);");
    line("      const double perRow = 16.0 * (p1 - p0) / 64 + (f1 - f0) / 64;");
    line("      const double room = static_cast<double>(ubSize) - f0 - 16.0 * p0 - foldBytes;");
    line("      if (room > 0 && perRow > 0) axisChunk = static_cast<uint64_t>(room / perRow) / 8 * 8;");
    line("      if (axisChunk > 0) break;");
    line("    }");
    line("    if (axisChunk > 0) tileUnits = 16;");
    line("  }");
  }
  if (k.axis) axis_split(k, line);
  else extent_split(k, line);
  const bool split = k.rows && k.chunks.possible && k.chunks.split;
  if (split) {
    line("  // Chunked rows, fewer than the cores: `parts` cores share each row, each a range of its columns, as many as");
    line("  // there are cores for (a chunk each at least); their partial reductions meet in the workspace.");
    line("  uint64_t parts = 1;");
    line("  if (chunk > 0 && total > 0 && total < coreNum) {");
    line(fmt::format("    const uint64_t chunksPerRow = ({} + chunk - 1) / chunk;", k.row_sym >= 0 ? sym_var(k.syms[k.row_sym].name) : std::string("1")));
    line("    parts = coreNum / total < chunksPerRow ? coreNum / total : chunksPerRow;");
    line("    if (parts < 1) parts = 1;");
    line("  }");
  }
  line(std::string("  const uint64_t blockDim = total == 0 ? 1 : (total + perCore - 1) / perCore") +
       (split ? " * parts;" : ";"));
  // Attrs.
  for (size_t a = 0; a < k.attrs.size(); ++a) {
    const AttrArg& at = k.attrs[a];
    const char* t = at.type == DType::F32 ? "float" : at.type == DType::I32 ? "int64_t" : "bool";
    line(fmt::format("  const {}* attr{}Ptr = context->GetAttrs()->GetAttrPointer<{}>({});", t, a, t, a));
    line(fmt::format("  if (attr{}Ptr == nullptr) return ge::GRAPH_FAILED;", a));
    line(fmt::format("  const {} attr_{} = *attr{}Ptr;", t, camel_lower(at.name), a));
  }
  line();
  line(fmt::format("  {}TilingData tiling;", k.op_type));
  for (const auto& f : k.fields) line(fmt::format("  tiling.set_{}(static_cast<{}>({}));", f.name, f.type, f.host_expr));
  line("  context->SetBlockDim(static_cast<uint32_t>(blockDim));");
  line("  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());");
  line("  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());");
  line("  size_t* workspace = context->GetWorkspaceSizes(1);");
  int nacc = 0;
  for (const Value& v : k.values) nacc += v.accumulator;
  if (nacc > 0) line(fmt::format("  workspace[0] = {} * blockDim * 32;   // a 32-byte slot per core and accumulator", nacc));
  else if (split && nred > 0)   // chunked rows shared by cores: a 32-byte slot per core and reduction
    line(fmt::format("  workspace[0] = parts > 1 ? {} * blockDim * 32 : 0;   // a 32-byte slot per core and reduction",
                     nred));
  else line("  workspace[0] = 0;");
  line("  return ge::GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace optiling");
  line();
  // InferShape / InferDataType.
  line("namespace ge {");
  line("static ge::graphStatus InferShape(gert::InferShapeContext* context) {");
  for (size_t ti = 0; ti < k.tensors.size(); ++ti) {
    const TensorArg& t = k.tensors[ti];
    if (!t.output) continue;
    const int oi = output_index(k, static_cast<int>(ti));
    line(fmt::format("  {{  // {}", t.name));
    line(fmt::format("    gert::Shape* out = context->GetOutputShape({});", oi));
    if (axis_output_shape(k, t, line)) continue;
    line("    out->SetDimNum(0);");
    for (const Dim& d : t.dims) {
      if (d.name.empty()) {
        line(fmt::format("    out->AppendDim({});", d.value));
        continue;
      }
      const Sym* s = nullptr;
      for (const Sym& y : k.syms)
        if (y.name == d.name) s = &y;
      if (!s) continue;
      const std::string sh = fmt::format("context->GetInputShape({})", input_index(k, s->tensor));
      if (s->star) {
        line(fmt::format("    for (size_t d = 0; d + {} < {}->GetDimNum(); ++d) out->AppendDim({}->GetDim(d));",
                         s->first, sh, sh));
      } else {
        line(fmt::format("    out->AppendDim({}->GetDim({}->GetDimNum() - {}));", sh, sh, s->first + 1));
      }
    }
    line("  }");
  }
  line("  return GRAPH_SUCCESS;");
  line("}");
  line();
  line("static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {");
  for (size_t ti = 0; ti < k.tensors.size(); ++ti) {
    const TensorArg& t = k.tensors[ti];
    if (!t.output) continue;
    const int oi = output_index(k, static_cast<int>(ti));
    if (t.type.var >= 0 && k.dtype_vars[t.type.var].base >= 0) {   // a mapped variable: from its base's input
      const int base = k.dtype_vars[t.type.var].base;
      int src = 0;
      for (size_t j = 0; j < k.tensors.size(); ++j)
        if (!k.tensors[j].output && k.tensors[j].type.var == base) {
          src = input_index(k, static_cast<int>(j));
          break;
        }
      line("  {");
      line(fmt::format("    const ge::DataType dt{} = context->GetInputDataType({});", k.dtype_vars[base].name, src));
      line("  " + mapped_dtype(k, t.type.var));
      line(fmt::format("    context->SetOutputDataType({}, dt{});", oi, k.dtype_vars[t.type.var].name));
      line("  }");
    } else if (t.type.var >= 0) {
      int src = -1;
      for (size_t j = 0; j < k.tensors.size(); ++j)
        if (!k.tensors[j].output && k.tensors[j].type.var == t.type.var) {
          src = input_index(k, static_cast<int>(j));
          break;
        }
      line(fmt::format("  context->SetOutputDataType({}, context->GetInputDataType({}));", oi, src < 0 ? 0 : src));
    } else {
      line(fmt::format("  context->SetOutputDataType({}, {});", oi, dtype_ge(t.type.fixed)));
    }
  }
  line("  return GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace ge");
  line();
  // OpDef.
  const auto cols = dtype_columns(k);
  std::vector<std::vector<DType>> tensor_types;
  for (const TensorArg& t : k.tensors) {
    tensor_types.emplace_back();
    for (const auto& c : cols) tensor_types.back().push_back(type_in(t.type, c));
  }
  o += emit_op_def(k, tensor_types);
  return o;
}

std::string emit_json(const Kernel& k) {
  const auto cols = dtype_columns(k);
  std::string o = "[\n  {\n    \"op\": \"" + k.op_type + "\",\n    \"language\": \"cpp\",\n";
  auto descs = [&](bool outputs) {
    std::string s;
    for (const TensorArg& t : k.tensors) {
      if (t.output != outputs) continue;
      std::string types, formats;
      for (const auto& c : cols) {
        types += (types.empty() ? "" : ", ") + fmt::format("\"{}\"", dtype_json(type_in(t.type, c)));
        formats += (formats.empty() ? "" : ", ") + std::string("\"ND\"");
      }
      s += (s.empty() ? "" : ",\n") + fmt::format("      {{\"name\": \"{}\", \"param_type\": \"{}\", \"format\": "
                                                  "[{}], \"type\": [{}]}}",
                                                  t.name, t.optional ? "optional" : "required", formats, types);
    }
    return s;
  };
  o += "    \"input_desc\": [\n" + descs(false) + "\n    ],\n";
  o += "    \"output_desc\": [\n" + descs(true) + "\n    ]";
  if (!k.attrs.empty()) {
    o += ",\n    \"attr\": [\n";
    for (size_t i = 0; i < k.attrs.size(); ++i) {
      const AttrArg& a = k.attrs[i];
      const char* t = a.type == DType::F32 ? "float" : a.type == DType::I32 ? "int" : "bool";
      std::string v = a.type == DType::F32 ? fmt::format("{:g}", a.default_value)
                      : a.type == DType::I32 ? fmt::format("{}", static_cast<int64_t>(a.default_value))
                                             : (a.default_value != 0 ? "true" : "false");
      o += fmt::format("      {{\"name\": \"{}\", \"param_type\": \"optional\", \"type\": \"{}\", \"default_value\": "
                       "\"{}\"}}{}\n",
                       a.name, t, v, i + 1 < k.attrs.size() ? "," : "");
    }
    o += "    ]";
  }
  o += "\n  }\n]\n";
  return o;
}

std::string emit_op_def(const Kernel& k, const std::vector<std::vector<DType>>& tensor_types) {
  std::string o;
  auto line = [&](const std::string& l = "") { o += l + "\n"; };
  line("namespace ops {");
  line(fmt::format("class {} : public OpDef {{", k.op_type));
  line(" public:");
  line(fmt::format("  explicit {}(const char* name) : OpDef(name) {{", k.op_type));
  for (const TensorArg& t : k.tensors) {
    std::string types, formats;
    for (DType d : tensor_types[&t - k.tensors.data()]) {
      types += (types.empty() ? "" : ", ") + std::string(dtype_ge(d));
      formats += (formats.empty() ? "" : ", ") + std::string("ge::FORMAT_ND");
    }
    line(fmt::format("    this->{}(\"{}\")", t.output ? "Output" : "Input", t.name));
    line(t.optional ? "        .ParamType(OPTIONAL)   // = None: may be absent" : "        .ParamType(REQUIRED)");
    line(fmt::format("        .DataType({{{}}})", types));
    line(fmt::format("        .Format({{{}}})", formats));
    line(fmt::format("        .UnknownShapeFormat({{{}}});", formats));
  }
  for (const AttrArg& a : k.attrs) {
    if (a.type == DType::F32)
      line(fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Float({});", a.name, fmt::format("{:g}", a.default_value)));
    else if (a.type == DType::I32)
      line(fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Int({});", a.name, static_cast<int64_t>(a.default_value)));
    else
      line(fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Bool({});", a.name, a.default_value != 0 ? "true" : "false"));
  }
  line("    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);");
  line("    this->AICore().SetTiling(optiling::TilingFunc);");
  line("    this->AICore().AddConfig(\"ascend910b\");");
  line("  }");
  line("};");
  line();
  line(fmt::format("OP_ADD({});", k.op_type));
  line("}  // namespace ops");
  return o;
}
}  // namespace kgen::tile
