// emit (convolution programs): the op project of a ConvSpec. The kernel is kt::Conv (prelude/kgen_conv.h) and the
// epilogue's steps on its float32 block; the host reads the geometry from the shapes and attrs and sizes the items.
#include <fmt/format.h>

#include <cctype>

#include "tile/conv.h"
#include "tile/emit.h"

namespace kgen::tile {
namespace {



std::vector<DType> columns(const Kernel& k) { return k.dtype_vars.empty() ? std::vector<DType>{} : k.dtype_vars[0].types; }

std::string tiling_header(const Kernel& k) {
  std::string o = fmt::format("// Tiling data of {}: the convolution's geometry (kt::ConvGeom) and its f32 attrs.\n",
                              k.op_type);
  o += "#ifndef " + upper(k.kernel_symbol) + "_TILING_H\n#define " + upper(k.kernel_symbol) + "_TILING_H\n";
  o += "#include \"register/tilingdata_base.h\"\n\nnamespace optiling {\n";
  o += fmt::format("BEGIN_TILING_DATA_DEF({}TilingData)\n", k.op_type);
  for (const char* f : kConvGeomFields) o += fmt::format("TILING_DATA_FIELD_DEF(uint32_t, {});\n", f);
  for (const AttrArg& a : k.attrs)
    if (a.type == DType::F32) o += fmt::format("TILING_DATA_FIELD_DEF(float, attr_{});\n", a.name);
  o += "END_TILING_DATA_DEF;\n";
  o += fmt::format("REGISTER_TILING_DATA_CLASS({}, {}TilingData)\n}}  // namespace optiling\n#endif\n", k.op_type,
                   k.op_type);
  return o;
}

// The kernel: one kt::Conv, each core's items accumulated, the epilogue applied to the float32 block, stored.
std::string kernel(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  std::string o = conv_kernel_open(k, "kgen_conv.h", "");
  auto line = [&](const std::string& l = "") { o += l + "\n"; };
  line("  AscendC::TPipe pipe;");
  line(fmt::format("  kt::Conv<DTYPE_{}> conv;", upper(k.tensors[cs.x].name)));
  const std::string bias = cs.bias >= 0 ? "g.hasBias ? " + k.tensors[cs.bias].name + " : nullptr" : "nullptr";
  line(fmt::format("  conv.Init(pipe, g, {}, {}, {}, {}, {});", k.tensors[cs.x].name, k.tensors[cs.w].name,
                   cs.w2 >= 0 ? k.tensors[cs.w2].name : "nullptr", bias, k.tensors[cs.y].name));
  if (cs.chan >= 0)
    line(fmt::format("  conv.SetChannelVector({});   // the per-channel input of the epilogue", k.tensors[cs.chan].name));
  line("  conv.Prepare();   // weights to float32 in UB, the gather tables");
  line("  const uint32_t begin = AscendC::GetBlockIdx() * g.perCore;");
  line("  for (uint32_t it = begin; it < begin + g.perCore && it < g.items; ++it) {");
  line("    conv.Accumulate(it);   // the float32 conv of one (batch, plane, row block, channel group) item");
  o += conv_epilogue(k);
  line("    conv.Store();");
  line("  }");
  line("}");
  return o;
}

// One geometry argument into arr[3 - nd .. 2]: a constant, an Int attr or a ListInt attr (one value or one per dim).
std::string geom_arg(const Kernel& k, const ConvSpec& cs, const ConvArg& a, const char* arr) {
  if (a.attr < 0) return fmt::format("  for (int d = 3 - nd; d < 3; ++d) {}[d] = {};\n", arr, a.value);
  const std::string div = (a.div > 1 ? fmt::format(" / {}", a.div) : "") +
                          (a.add > 0 ? fmt::format(" + {}", a.add) : a.add < 0 ? fmt::format(" - {}", -a.add) : "");
  const std::string name = k.attrs[a.attr].name;
  if (cs.list_len[a.attr] == 0)
    return fmt::format("  {{ const int64_t* v = ctx->GetAttrs()->GetInt({}); for (int d = 3 - nd; d < 3; ++d) {}[d] = "
                       "(v ? *v : {}){}; }}   // {}\n",
                       a.attr, arr, static_cast<int64_t>(k.attrs[a.attr].default_value), div, name);
  std::string defs;
  for (int64_t v : cs.list_default[a.attr]) defs += (defs.empty() ? "" : ", ") + std::to_string(v);
  return fmt::format("  {{ const gert::TypedContinuousVector<int64_t>* v = ctx->GetAttrs()->GetListInt({});   // {}\n"
                     "    const int64_t def[] = {{{}}};\n"
                     "    for (int d = 0; d < nd; ++d) {}[3 - nd + d] = (v && v->GetSize() > 0 ? v->GetData()[v->GetSize() "
                     "== 1 ? 0 : d] : def[d]){}; }}\n",
                     a.attr, name, defs, arr, div);
}

std::string host(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  const std::string T = k.op_type + "TilingData";
  std::string o;
  o += fmt::format("// Host side of {}: geometry from the shapes and attrs, work items over the cores.\n", k.op_type);
  o += fmt::format("#include \"{}_tiling.h\"\n#include \"register/op_def_registry.h\"\n", k.kernel_symbol);
  o += "#include \"tiling/platform/platform_ascendc.h\"\n\nnamespace optiling {\n";
  o += conv_geom_host(k);

  o += R"(// Work items (batch, plane, block of R output rows, G output channels): G splits a conv group only while the items
// do not cover the cores; R is the largest that keeps every core busy and fits UB; cc input channels staged at once.
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  const uint64_t coreNum = platform.GetCoreNumAiv();
)";
  o += fmt::format("  {} t;\n  int64_t os[5];\n", T);
  o += fmt::format("  if (!Geom(context, context->GetInputShape(0)->GetOriginShape(), context->GetInputShape({})->GetOriginShape(), "
                   "&t, os)) return ge::GRAPH_FAILED;\n", input_index(k, cs.w));
  o += fmt::format("  const bool hasBias = {};\n", conv_has_bias(k));
  o += R"(  const uint64_t es = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
  t.set_hasBias(hasBias ? 1 : 0);
  const uint64_t N = t.get_n(), CI = t.get_cin(), CO = t.get_cout(), groups = t.get_groups();
  const uint64_t OD = t.get_od(), OH = t.get_oh(), OW = t.get_ow(), KD = t.get_kd(), KH = t.get_kh(), KW = t.get_kw();
  const bool tr = t.get_transposed() != 0, sep = t.get_separable() != 0;
  const uint64_t cig = (sep || tr) ? CI : CI / groups, cog = CO / groups;
  // staged rows (kt::Conv::Init): a zero row first, then input rows with at least pw + 1 zeros after them; a
  // transposed conv's dilated rows need only the zero column iw
  const uint64_t wa = (t.get_iw() + (tr ? 0 : t.get_pw()) + 1 + 15) / 16 * 16, lead = tr ? 0 : wa;
  auto R256 = [](uint64_t b) { return (b + 255) / 256 * 256 + 256; };
  const uint64_t wElems = sep ? CI * KH * KW : (tr ? CI * cog : CO * cig) * KD * KH * KW;
  const uint64_t staged = sep && CO * CI > wElems ? CO * CI : wElems;   // wT_: the weights pass through it
  auto hrOf = [&](uint64_t R) { return tr ? R + (KH - 1) * t.get_dh() : (R - 1) * t.get_sh() + (KH - 1) * t.get_dh() + 1; };
  auto bytes = [&](uint64_t R, uint64_t G, uint64_t cc) {   // kt::Conv::Init's buffers
    const uint64_t lr = (R * OW + 15) / 16 * 16, x = cc * KD * hrOf(R) * wa;
    uint64_t b = 2048 + R256((lead + x + 16 * t.get_sw() + t.get_pw() + 16) * 4) + (es != 4 ? R256(x * es) : 0) +
                 R256(KW * lr * 4) + 2 * R256(lr * 4) + (tr ? R256(3 * lr * 4) : 0);
    b += R256(G * lr * 4) + (es != 4 ? R256(G * lr * es) : 0) + R256(wElems * 4) + (es != 4 ? R256(staged * es) : 0);
    b += (sep ? R256(CO * CI * 4) : 0) + (hasBias ? R256(CO * 4) : 0) + 4096 +
         512 + R256(CO * 4) + R256(G * lr * 4);
    return b;
  };
  uint64_t G = cog, R = 1;
  const uint64_t rowsAll = N * OD * OH;
  while (G > 1 && rowsAll * groups * ((cog + G - 1) / G) < coreNum) G = (G + 1) / 2;
  const uint64_t ng = groups * ((cog + G - 1) / G);
  R = OH;
  while (R > 1 && (N * OD * ((OH + R - 1) / R) * ng < coreNum || bytes(R, G, 1) > ubSize)) --R;
  while (G > 1 && bytes(R, G, 1) > ubSize) --G;
  uint64_t cc = cig;
  while (cc > 1 && bytes(R, G, cc) > ubSize) --cc;
  if (bytes(R, G, cc) > ubSize) return ge::GRAPH_FAILED;   // one row of one channel does not fit
  const uint64_t items = N * OD * ((OH + R - 1) / R) * groups * ((cog + G - 1) / G);
  const uint64_t perCore = (items + coreNum - 1) / coreNum;
  t.set_rows(R); t.set_grp(G); t.set_cc(cc); t.set_hr(hrOf(R)); t.set_wa(wa); t.set_items(items); t.set_perCore(perCore);
)";
  o += conv_float_attrs(k);
  o += R"(  context->SetBlockDim(static_cast<uint32_t>((items + perCore - 1) / perCore));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  size_t* ws = context->GetWorkspaceSizes(1);
  ws[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

)";
  o += conv_host_tail(k);
  return o;
}

// The project's json: the tensors with their dtype columns (the attrs are the OpDef's).
std::string conv_json_text(const Kernel& k) {
  std::string types, formats, ins, outs;
  for (DType d : columns(k)) {
    const char* j = dtype_json(d);
    types += (types.empty() ? "" : ", ") + fmt::format("\"{}\"", j);
    formats += (formats.empty() ? "" : ", ") + std::string("\"ND\"");
  }
  for (const TensorArg& t : k.tensors) {
    std::string& s = t.output ? outs : ins;
    s += (s.empty() ? "" : ",\n") + fmt::format("      {{\"name\": \"{}\", \"param_type\": \"{}\", \"format\": [{}], "
                                                "\"type\": [{}]}}", t.name, t.optional ? "optional" : "required",
                                                formats, types);
  }
  return fmt::format("[\n  {{\n    \"op\": \"{}\",\n    \"language\": \"cpp\",\n    \"input_desc\": [\n{}\n    ],\n"
                     "    \"output_desc\": [\n{}\n    ]\n  }}\n]\n", k.op_type, ins, outs);
}
}  // namespace

const std::vector<const char*> kConvGeomFields = {"n",  "cin", "cout", "groups", "id", "ih", "iw", "od",  "oh",   "ow",    "kd",
                         "kh", "kw",  "wkh",  "wkw",    "sd", "sh", "sw", "pd",  "ph",   "pw",    "dd",
                         "dh", "dw",  "transposed", "pool", "separable", "hasBias", "rows", "grp", "cc", "hr",
                         "wa", "items", "perCore"};

std::string conv_kernel_open(const Kernel& k, const std::string& helpers, const std::string& comment) {
  std::string o = fmt::format("// {}: {}\n{}", k.kernel_symbol, k.conv->text, comment);
  o += "#include \"kernel_operator.h\"\n#include \"" + helpers + "\"\n\n";
  std::string params;
  for (const TensorArg& t : k.tensors) params += "GM_ADDR " + t.name + ", ";
  o += fmt::format("extern \"C\" __global__ __aicore__ void {}({}GM_ADDR workspace, GM_ADDR tiling) {{\n",
                   k.kernel_symbol, params);
  o += "  GET_TILING_DATA(t, tiling);\n  kt::ConvGeom g;   // the geometry the host computed\n";
  for (const char* f : kConvGeomFields) o += fmt::format("  g.{0} = t.{0};\n", f);
  return o;
}

// An output dim the header names after an input's dim (`y: T[n, c, l]` with `x: T[n, c, l]`) is a promise the
// geometry must keep: the host refuses a shape where the convolution computes another size (padding k - 1 without
// the crop a causal conv needs), instead of writing an output of the size it computed under the declared name.
std::string bound_output_dims(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  const TensorArg& y = k.tensors[cs.y];
  std::string o;
  for (size_t d = 0; d < y.dims.size(); ++d) {
    const Dim& yd = y.dims[d];
    int ti = -1, j = -1;
    if (yd.star || yd.name.empty() || !input_dim(k, yd.name, ti, j)) continue;
    o += fmt::format("  if (outShape[{0}] != ShapeOf(ctx->GetInputShape({1})).GetDim({2})) {{\n"
                     "    std::fprintf(stderr, \"{3}:{4}: {5}'s dim {0} is '{6}' (%lld, dim {2} of {7}), but the "
                     "convolution computes %lld there (input size, padding, dilation, kernel size and stride give it) "
                     "— name the dim anew ({5}: T[..., o{6}]) or change the padding\\n\",\n"
                     "                 static_cast<long long>(ShapeOf(ctx->GetInputShape({1})).GetDim({2})), "
                     "static_cast<long long>(outShape[{0}]));\n    return false;\n  }}\n",
                     d, input_index(k, ti), j, k.file, y.range.begin.line, y.name, yd.name, k.tensors[ti].name);
  }
  return o;
}

bool input_dim(const Kernel& k, const std::string& name, int& tensor, int& dim) {
  for (size_t ti = 0; ti < k.tensors.size(); ++ti) {
    const TensorArg& t = k.tensors[ti];
    if (t.output || t.optional) continue;
    for (size_t j = 0; j < t.dims.size(); ++j)
      if (!t.dims[j].star && t.dims[j].name == name) {
        tensor = static_cast<int>(ti), dim = static_cast<int>(j);
        return true;
      }
  }
  return false;
}

// conv(...)[:, :, :l]: the output keeps the first l positions of the spatial dim; a crop longer than the conv's
// output is refused, naming the program's line and both sizes.
static std::string conv_crop_host(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  std::string o;
  for (size_t d = 0; d < cs.crop.size(); ++d) {
    const ConvCrop& c = cs.crop[d];
    if (!c.set) continue;
    std::string end, what;
    if (c.tensor >= 0) {
      end = fmt::format("ShapeOf(ctx->GetInputShape({})).GetDim({})", input_index(k, c.tensor), c.dim);
      what = fmt::format("'{}', dim {} of {}", k.tensors[c.tensor].dims[c.dim].name, c.dim, k.tensors[c.tensor].name);
    } else if (c.arg.attr >= 0) {
      end = fmt::format("[&] {{ const int64_t* v = ctx->GetAttrs()->GetInt({}); return v ? *v : {}; }}()", c.arg.attr,
                        static_cast<int64_t>(k.attrs[c.arg.attr].default_value));
      what = "attr '" + k.attrs[c.arg.attr].name + "'";
    } else {
      end = std::to_string(c.arg.value);
      what = std::to_string(c.arg.value);
    }
    const size_t slot = 3 - cs.crop.size() + d;
    o += fmt::format("  {{  // the crop [..., :{}] of spatial dim {}\n    const int64_t end = {};\n", what, d, end);
    o += fmt::format("    if (end < 1 || end > o[{0}]) {{\n      std::fprintf(stderr, \"{1}:{2}: the crop keeps %lld "
                     "positions of spatial dim {3} ({4}), but the convolution computes %lld there\\n\", "
                     "static_cast<long long>(end), static_cast<long long>(o[{0}]));\n      return false;\n    }}\n"
                     "    o[{0}] = end;\n  }}\n",
                     slot, k.file, k.tensors[cs.y].range.begin.line, d, what);
  }
  return o;
}

std::string conv_geom_host(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  const std::string T = k.op_type + "TilingData";
  std::string o;
  o += "static const gert::Shape& ShapeOf(const gert::StorageShape* s) { return s->GetOriginShape(); }\n";
  o += "static const gert::Shape& ShapeOf(const gert::Shape* s) { return *s; }\n\n";
  o += "// The conv's geometry (3 spatial slots, the unused leading ones 1); fills t unless it is null.\n";
  o += fmt::format("template <class C>\nstatic bool Geom(C* ctx, const gert::Shape& xs, const gert::Shape& ws, {}* t, "
                   "int64_t* outShape) {{\n", T);
  o += fmt::format("  const int nd = {};\n", cs.nd);
  o += "  if (static_cast<int>(xs.GetDimNum()) != nd + 2 || static_cast<int>(ws.GetDimNum()) != nd + 2) return false;\n";
  o += "  int64_t st[3] = {1, 1, 1}, pa[3] = {0, 0, 0}, di[3] = {1, 1, 1}, op[3] = {0, 0, 0};\n";
  o += geom_arg(k, cs, cs.stride, "st") + geom_arg(k, cs, cs.padding, "pa") + geom_arg(k, cs, cs.dilation, "di");
  if (cs.mode == "transposed") o += geom_arg(k, cs, cs.output_padding, "op");
  o += fmt::format("  for (int d = 0; d < 3; ++d)\n    if (st[d] < 1 || pa[d] < 0 || di[d] < 1 || op[d] < 0) {{\n"
                   "      std::fprintf(stderr, \"{}: stride %lld, padding %lld, dilation %lld, output padding %lld: "
                   "stride and dilation are at least 1, paddings at least 0\\n\", static_cast<long long>(st[d]), "
                   "static_cast<long long>(pa[d]), static_cast<long long>(di[d]), static_cast<long long>(op[d]));\n"
                   "      return false;\n    }}\n",
                   k.op_type);
  o += "  int64_t in[3] = {1, 1, 1}, kk[3] = {1, 1, 1}, o[3] = {1, 1, 1};\n";
  o += "  for (int d = 0; d < nd; ++d) { in[3 - nd + d] = xs.GetDim(2 + d); kk[3 - nd + d] = ws.GetDim(2 + d); }\n";
  o += "  const int64_t N = xs.GetDim(0), CI = xs.GetDim(1);\n";
  if (cs.mode == "transposed") o += "  const int64_t CO = ws.GetDim(1), groups = 1;   // weight [ci, co, taps]\n";
  else if (cs.mode == "depthwise") o += "  const int64_t CO = ws.GetDim(0), groups = CI;   // one filter per channel\n";
  else if (cs.mode == "separable")
    o += fmt::format("  const int64_t CO = ShapeOf(ctx->GetInputShape({})).GetDim(0), groups = 1;   // pointwise rows\n",
                     input_index(k, cs.w2));
  else o += "  const int64_t CO = ws.GetDim(0), groups = 1;\n";
  o += "  int64_t pool = 1;\n";
  if (cs.mode == "pool") {
    if (cs.pool.attr < 0) o += fmt::format("  pool = {};\n", cs.pool.value);
    else o += fmt::format("  {{ const int64_t* v = ctx->GetAttrs()->GetInt({}); pool = v ? *v : {}; }}   // {}\n",
                          cs.pool.attr, static_cast<int64_t>(k.attrs[cs.pool.attr].default_value), k.attrs[cs.pool.attr].name);
  }
  o += "  int64_t ke[3] = {kk[0], kk[1], kk[2]};   // taps after folding the avg-pool\n";
  o += "  if (pool > 1) for (int d = 1; d < 3; ++d) { ke[d] = kk[d] + pool - 1; st[d] = pool; }\n";
  if (cs.mode == "transposed") {
    o += "  for (int d = 0; d < 3; ++d) o[d] = (in[d] - 1) * st[d] - 2 * pa[d] + di[d] * (ke[d] - 1) + op[d] + 1;\n";
    o += "  for (int d = 0; d < 3 - nd; ++d) o[d] = 1;\n";
  } else {
    o += "  for (int d = 0; d < 3; ++d) o[d] = (in[d] + 2 * pa[d] - di[d] * (ke[d] - 1) - 1) / st[d] + 1;\n";
  }
  o += "  for (int d = 0; d < 3; ++d) if (o[d] < 1) return false;\n";
  o += conv_crop_host(k);
  o += "  outShape[0] = N; outShape[1] = CO; for (int d = 0; d < nd; ++d) outShape[2 + d] = o[3 - nd + d];\n";
  o += bound_output_dims(k);
  o += "  if (t == nullptr) return true;\n";
  const std::pair<const char*, std::string> vals[] = {
      {"n", "N"}, {"cin", "CI"}, {"cout", "CO"}, {"groups", "groups"}, {"id", "in[0]"}, {"ih", "in[1]"},
      {"iw", "in[2]"}, {"od", "o[0]"}, {"oh", "o[1]"}, {"ow", "o[2]"}, {"kd", "ke[0]"}, {"kh", "ke[1]"},
      {"kw", "ke[2]"}, {"wkh", "kk[1]"}, {"wkw", "kk[2]"}, {"sd", "st[0]"}, {"sh", "st[1]"}, {"sw", "st[2]"},
      {"pd", "pa[0]"}, {"ph", "pa[1]"}, {"pw", "pa[2]"}, {"dd", "di[0]"}, {"dh", "di[1]"}, {"dw", "di[2]"},
      {"transposed", cs.mode == "transposed" ? "1" : "0"}, {"pool", "pool"},
      {"separable", cs.mode == "separable" ? "1" : "0"}};
  for (const auto& [f, v] : vals) o += fmt::format("  t->set_{}(static_cast<uint32_t>({}));\n", f, v);
  o += "  return true;\n}\n\n";
  return o;
}

std::string conv_has_bias(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  std::string has_bias = "false";
  if (cs.bias >= 0)
    has_bias = k.tensors[cs.bias].optional
                   ? fmt::format("context->GetOptionalInputShape({}) != nullptr", input_index(k, cs.bias))
                   : "true";
  return has_bias;
}

std::string conv_float_attrs(const Kernel& k) {
  std::string floats;
  for (size_t i = 0; i < k.attrs.size(); ++i)
    if (k.attrs[i].type == DType::F32)
      floats += fmt::format("  {{ const float* v = context->GetAttrs()->GetFloat({}); t.set_attr_{}(v ? *v : static_cast<float>({:.9g})); }}\n",
                            i, k.attrs[i].name, k.attrs[i].default_value);
  return floats;
}

std::string conv_host_tail(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  const std::string T = k.op_type + "TilingData";
  std::string o = R"(namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  int64_t os[5];
)";
  o += fmt::format("  if (!optiling::Geom(context, *context->GetInputShape(0), *context->GetInputShape({}), "
                   "static_cast<optiling::{}*>(nullptr), os)) return GRAPH_FAILED;\n", input_index(k, cs.w), T);
  o += R"(  gert::Shape* out = context->GetOutputShape(0);
  out->SetDimNum(0);
  for (size_t d = 0; d < context->GetInputShape(0)->GetDimNum(); ++d) out->AppendDim(os[d]);
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, context->GetInputDataType(0));
  return GRAPH_SUCCESS;
}
}  // namespace ge

)";
  // OpDef: the tensors, then the attrs (list attrs as ListInt).
  const auto cols = columns(k);
  std::string types, formats;
  for (DType d : cols) {
    types += (types.empty() ? "" : ", ") + std::string(dtype_ge(d));
    formats += (formats.empty() ? "" : ", ") + std::string("ge::FORMAT_ND");
  }
  o += fmt::format("namespace ops {{\nclass {0} : public OpDef {{\n public:\n  explicit {0}(const char* name) : OpDef(name) {{\n",
                   k.op_type);
  for (const TensorArg& t : k.tensors)
    o += fmt::format("    this->{}(\"{}\").ParamType({}).DataType({{{}}}).Format({{{}}}).UnknownShapeFormat({{{}}});\n",
                     t.output ? "Output" : "Input", t.name, t.optional ? "OPTIONAL" : "REQUIRED", types, formats, formats);
  for (size_t i = 0; i < k.attrs.size(); ++i) {
    const AttrArg& a = k.attrs[i];
    if (cs.list_len[i] > 0) {
      std::string v;
      for (int64_t x : cs.list_default[i]) v += (v.empty() ? "" : ", ") + std::to_string(x);
      o += fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).ListInt({{{}}});\n", a.name, v);
    } else if (a.type == DType::F32) {
      o += fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Float({:g});\n", a.name, a.default_value);
    } else {
      o += fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Int({});\n", a.name, static_cast<int64_t>(a.default_value));
    }
  }
  o += "    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);\n";
  o += "    this->AICore().SetTiling(optiling::TilingFunc);\n    this->AICore().AddConfig(\"ascend910b\");\n  }\n};\n\n";
  o += fmt::format("OP_ADD({});\n}}  // namespace ops\n", k.op_type);
  return o;
}

std::string conv_epilogue(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  std::string o;
  auto line = [&](const std::string& l = "") { o += l + "\n"; };
  if (!cs.epi.empty()) {
    line("    AscendC::LocalTensor<float> acc = conv.Acc();");
    line("    const int32_t cnt = static_cast<int32_t>(conv.GroupSize() * conv.Lr());");
  }
  for (const ConvEpi& e : cs.epi) {
    if (e.op == "relu") {
      line("    AscendC::Relu(acc, acc, cnt);   // relu");
    } else if (e.op == "silu") {   // x * sigmoid(x)
      line("    AscendC::Sigmoid(conv.Scratch(), acc, conv.MathTmp(), static_cast<uint32_t>(cnt));   // silu");
      line("    AscendC::PipeBarrier<PIPE_V>();");
      line("    AscendC::Mul(acc, acc, conv.Scratch(), cnt);   // x * sigmoid(x)");
    } else if (e.op == "tanh" || e.op == "sigmoid") {
      line(fmt::format("    AscendC::{}(conv.Scratch(), acc, conv.MathTmp(), static_cast<uint32_t>(cnt));   // {}",
                       e.op == "tanh" ? "Tanh" : "Sigmoid", e.op));
      line("    AscendC::PipeBarrier<PIPE_V>();");
      line("    AscendC::Adds(acc, conv.Scratch(), 0.0f, cnt);   // back into the accumulator");
    } else if (e.op == "muls") {
      line(fmt::format("    AscendC::Muls(acc, acc, {}, cnt);   // * scalar", e.scalar));
    } else if (e.op == "adds") {
      line(fmt::format("    AscendC::Adds(acc, acc, {}, cnt);   // + scalar", e.scalar));
    } else {
      line("    conv.AddChannelVector();   // + the channel's value");
    }
    line("    AscendC::PipeBarrier<PIPE_V>();");
  }
  return o;
}

std::string conv_json(const Kernel& k) { return conv_json_text(k); }

std::string print_conv(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  auto arg = [&](const ConvArg& a) {
    return a.attr < 0 ? std::to_string(a.value)
                      : k.attrs[a.attr].name + (a.div > 1 ? "/" + std::to_string(a.div) : "") +
                            (a.add > 0 ? "+" + std::to_string(a.add) : a.add < 0 ? std::to_string(a.add) : "");
  };
  std::string epi;
  for (const ConvEpi& e : cs.epi) epi += " " + e.op + (e.scalar.empty() ? "" : "(" + e.scalar + ")");
  std::string crop;
  for (size_t d = 0; d < cs.crop.size(); ++d)
    if (cs.crop[d].set)
      crop += fmt::format(" dim {}: :{}", d,
                          cs.crop[d].tensor >= 0 ? k.tensors[cs.crop[d].tensor].dims[cs.crop[d].dim].name : arg(cs.crop[d].arg));
  if (!crop.empty()) epi += "\n  crop:" + crop;
  return fmt::format("conv {}: {} {}-D{}, {} * {} -> {}, stride {} padding {} dilation {}{}{}\n  epilogue:{}\n", k.name,
                     cs.mode, cs.nd, cs.cube ? " on the cube (im2col, a GEMM per batch)" : " on the vector cores",
                     k.tensors[cs.x].name, k.tensors[cs.w].name, k.tensors[cs.y].name, arg(cs.stride),
                     arg(cs.padding), arg(cs.dilation), cs.bias >= 0 ? " bias " + k.tensors[cs.bias].name : "",
                     cs.mode == "pool" ? " pool " + arg(cs.pool) : "", epi.empty() ? " none" : epi);
}

std::map<std::string, std::string> emit_conv(const Kernel& k) {
  if (k.conv->cube) return emit_conv_gemm(k);
  return project_files(k, kernel(k), tiling_header(k), host(k), conv_json(k));
}
}  // namespace kgen::tile
