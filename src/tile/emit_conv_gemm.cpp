// emit (convolutions on the cube): a plain conv (groups 1) as im2col + one GEMM per batch. Stage 1 on the vector
// cores unfolds x into a GM workspace (kt::Conv::Unfold); stage 2 is kt::ConvGemm (prelude/kgen_conv_gemm.h) with the
// program's epilogue on each float32 base block. The host sizes the unfold items and asks for the Matmul tiling.
#include <fmt/format.h>

#include "tile/conv.h"
#include "tile/emit.h"

namespace kgen::tile {
namespace {
std::string tiling_header(const Kernel& k) {
  std::string o = tiling_header_open(k, true);
  o += fmt::format("BEGIN_TILING_DATA_DEF({}TilingData)\n", k.op_type);
  for (const char* f : kConvGeomFields) o += fmt::format("TILING_DATA_FIELD_DEF(uint32_t, {});\n", f);
  o += "TILING_DATA_FIELD_DEF(uint32_t, chunks);    // im2col: input-channel chunks of cc per row block\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, direct);    // 1: a 1x1, stride-1, unpadded conv; x is already col\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, colOffset); // col's byte offset in the user workspace (after A)\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, mBlocks);   // GEMM blocks along cout (ceil(cout / singleCoreM))\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, nBlocks);   // GEMM blocks along the output positions\n";
  for (const AttrArg& a : k.attrs)
    if (a.type == DType::F32) o += fmt::format("TILING_DATA_FIELD_DEF(float, attr_{});\n", a.name);
  o += "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);   // the Matmul API's tiling of one block\n";
  return o + tiling_header_close(k);
}

std::string kernel(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  const std::string T = "DTYPE_" + upper(k.tensors[cs.x].name);
  std::string o = conv_kernel_open(
      k, "kgen_conv_gemm.h",
      cs.mode == "transposed"
          ? "// On the cube: y[n] = A [cout, cin * taps] @ col[n] [cin * taps, oh * ow], A = the weight [cin, cout, taps]\n"
            "// rearranged, col = the transposed conv's im2col of x[n] (each output position's input taps, zero where none).\n"
      : cs.mode == "pool"
          ? "// On the cube: y[n] = A [cout, cin * taps] @ col[n] [cin * taps, oh * ow], A = the weight with the avg-pool\n"
            "// folded into its taps (a conv with k + pool - 1 taps, stride pool), col = im2col(x[n]) for those taps.\n"
          : "// On the cube: y[n] = weight [cout, cin * taps] @ col[n] [cin * taps, od * oh * ow], col = im2col(x[n]).\n");
  auto line = [&](const std::string& l = "") { o += l + "\n"; };
  line("  g.chunks = t.chunks;");
  const bool tr = cs.mode == "transposed", pool = cs.mode == "pool";   // A in the workspace: built in stage 1
  const std::string x = k.tensors[cs.x].name;
  line("  // No early return for cores without work: every vector core meets the others at the SyncAll.");
  line("  AscendC::TPipe pipe;");
  line("  GM_ADDR user = AscendC::GetUserWorkspace(workspace);   // after the Matmul API's");
  line(fmt::format("  GM_ADDR col = t.direct ? {} : user + t.colOffset;", x));
  if (tr || pool)
    line(std::string("  GM_ADDR a = user;   // ") + (tr ? "the weight as [co, ci * taps]" : "the folded taps [co, ci * taps]"));
  line(fmt::format("  kt::ConvGemm<{}> conv;", T));
  line("  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), conv.mm, &t.cubeTiling);   // before any UB buffer");
  line("  const uint32_t stride = AscendC::GetBlockNum() * AscendC::GetTaskRatio();");
  if (tr || pool) {
    line(tr ? "  // stage 1, vector cores: A = the weight [ci, co, taps] rearranged; col = im2col(x), item by item"
            : "  // stage 1, vector cores: A = the weight with the pool folded into its taps; col = im2col(x), item by item");
    line(fmt::format("  kt::{}<{}>(pipe, g, {}, a);", tr ? "PermuteTransposedWeight" : "FoldPooledWeight", T,
                     k.tensors[cs.w].name));
    line("  pipe.Reset();");
    line("  if (!t.direct) {");
  } else {
    line("  if (!t.direct) {   // stage 1, vector cores: col = im2col(x), item by item");
  }
  line(fmt::format("    kt::Conv<{}> unfold;", T));
  line(fmt::format("    unfold.InitUnfold(pipe, g, {}, col);", x));
  line("    for (uint32_t it = AscendC::GetBlockIdx(); it < g.items; it += stride) unfold.Unfold(it);");
  if (tr || pool) {
    line("    pipe.Reset();");
    line("  }");
    line("  AscendC::SyncAll();   // every core's part of A and col is in GM before any GEMM reads them");
    line("  pipe.Reset();         // stage 2's UB buffers replace stage 1's");
  } else {
    line("    AscendC::SyncAll();   // every core's part of col is in GM before any GEMM reads it");
    line("    pipe.Reset();         // stage 2's UB buffers replace stage 1's");
    line("  }");
  }
  const std::string bias = cs.bias >= 0 ? k.tensors[cs.bias].name : "nullptr";
  line(fmt::format("  conv.Init(pipe, g, t.cubeTiling, t.mBlocks, t.nBlocks, {}, {}, col, {});",
                   tr || pool ? "a" : k.tensors[cs.w].name, bias, k.tensors[cs.y].name));
  if (cs.chan >= 0)
    line(fmt::format("  conv.SetChannelVector({});   // the per-channel input of the epilogue", k.tensors[cs.chan].name));
  line("  conv.Prepare();   // the bias (and the epilogue's channel vector) to float32 in UB");
  line("  // stage 2: the (batch, block) items round robin; the cube fills each base block, the vector core finishes it");
  line("  for (uint32_t it = AscendC::GetBlockIdx(); it < conv.ItemCount(); it += stride) {");
  line("    conv.Begin(it);");
  line("    while (conv.Next()) {   // one base block [channels, positions] in float32, bias added");
  std::string epi = conv_epilogue(k);
  for (size_t at = 0; at < epi.size();) {   // one level deeper than the vector kernel's item loop
    const size_t nl = epi.find('\n', at);
    o += "  " + epi.substr(at, nl - at + 1);
    at = nl + 1;
  }
  line("      conv.Store();");
  line("    }");
  line("  }");
  line("  conv.End();");
  line("}");
  return o;
}

std::string host(const Kernel& k) {
  const ConvSpec& cs = *k.conv;
  const std::string T = k.op_type + "TilingData";
  std::string o;
  o += fmt::format("// Host side of {}: geometry from the shapes and attrs; im2col items; the GEMM's Matmul tiling.\n",
                   k.op_type);
  o += fmt::format("#include \"{}_tiling.h\"\n#include \"register/op_def_registry.h\"\n", k.kernel_symbol);
  o += "#include \"tiling/platform/platform_ascendc.h\"\n#include \"tiling/tiling_api.h\"\n\nnamespace optiling {\n";
  o += conv_geom_host(k);
  o += R"(// Stage 1 items (batch, plane, block of R output rows, chunk of cc input channels): the R and cc that fit UB and
// give the cores the fewest bytes and DMAs in their longest round. Stage 2: one [cout, cin * taps] @ [cin * taps, P]
// product per batch, split by MultiCoreMatmulTiling into enough blocks that the batches keep every core busy.
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  const uint32_t aicNum = platform.GetCoreNumAic(), aivNum = platform.GetCoreNumAiv();
  const uint64_t coreNum = aivNum;
)";
  o += fmt::format("  {} t;\n  int64_t os[5];\n", T);
  o += fmt::format("  if (!Geom(context, context->GetInputShape(0)->GetOriginShape(), context->GetInputShape({})->GetOriginShape(), "
                   "&t, os)) return ge::GRAPH_FAILED;\n", input_index(k, cs.w));
  o += fmt::format("  const bool hasBias = {};\n", conv_has_bias(k));
  o += R"(  const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
  const uint64_t es = dt == ge::DT_FLOAT ? 4 : 2;
  t.set_hasBias(hasBias ? 1 : 0);
  const uint64_t N = t.get_n(), CI = t.get_cin(), CO = t.get_cout();
  const uint64_t OD = t.get_od(), OH = t.get_oh(), OW = t.get_ow(), KD = t.get_kd(), KH = t.get_kh(), KW = t.get_kw();
  const uint64_t K = CI * KD * KH * KW, P = OD * OH * OW;
  // x[n] is col itself: one tap, stride 1, no padding, and (a transposed conv's output_padding) no extra positions
  const bool direct = KD * KH * KW == 1 && t.get_sd() == 1 && t.get_sh() == 1 && t.get_sw() == 1 && t.get_pd() == 0 &&
                      t.get_ph() == 0 && t.get_pw() == 0 && OD == t.get_id() && OH == t.get_ih() && OW == t.get_iw();
  // staged rows: a zero row first, then rows of the input with at least pw + 1 zeros after them (kt::Conv::Unfold);
  // a transposed conv's dilated rows need only the zero column iw
  const bool tr = t.get_transposed() != 0;
  const uint64_t wa = (t.get_iw() + (tr ? 0 : t.get_pw()) + 1 + 15) / 16 * 16, lead = tr ? 0 : wa;
  const uint64_t taps = KD * KH * KW;
  auto R256 = [](uint64_t b) { return (b + 255) / 256 * 256 + 256; };
  auto hrOf = [&](uint64_t R) { return tr ? R + (KH - 1) * t.get_dh() : (R - 1) * t.get_sh() + (KH - 1) * t.get_dh() + 1; };
  auto bytes = [&](uint64_t R, uint64_t cc) {   // kt::Conv::InitUnfold's buffers
    const uint64_t lr = (R * OW + 15) / 16 * 16, x = cc * KD * hrOf(R) * wa;
    return 2048 + R256((lead + x + 16 * t.get_sw() + t.get_pw() + 16) * 4) + (es != 4 ? R256(x * es) : 0) +
           R256(KW * lr * 4) + 2 * R256(lr * 4) + 2 * R256(taps * lr * es) + (tr ? R256(3 * lr * 4) : 0);
  };
  // Per core: rounds of items, each moving cc channels' taps (out) and rows (in). A channel's DMA pair costs a fixed
  // 40 KB of transfer: twice its latencies on the 910B (MTE2 110 ns + MTE3 50 ns at ~110 GB/s a core), for fewer items.
  auto cost = [&](uint64_t R, uint64_t cc) {
    const uint64_t items = N * OD * ((OH + R - 1) / R) * ((CI + cc - 1) / cc);
    return (items + coreNum - 1) / coreNum * cc * ((taps * R * OW + KD * hrOf(R) * wa) * es + 40000);
  };
  uint64_t R = 1, cc = 1, chunks = 1, items = 0;
  if (!direct) {
    if (bytes(1, 1) > ubSize) return ge::GRAPH_FAILED;   // one output row of one channel does not fit
    uint64_t best = ~0ull;
    for (uint64_t r = 1; r <= OH; ++r) {
      if (bytes(r, 1) > ubSize) break;
      for (uint64_t c = 1; c <= CI && bytes(r, c) <= ubSize; ++c)
        if (cost(r, c) < best) best = cost(r, c), R = r, cc = c;
    }
    chunks = (CI + cc - 1) / cc;
    items = N * OD * ((OH + R - 1) / R) * chunks;
  }
  t.set_rows(R); t.set_grp(CO); t.set_cc(cc); t.set_hr(hrOf(R)); t.set_wa(wa); t.set_items(items); t.set_perCore(0);
  t.set_chunks(chunks); t.set_direct(direct ? 1 : 0);
)";
  o += cs.mode == "transposed" || cs.mode == "pool"
           ? "  const uint64_t colOffset = (CO * K * es + 511) / 512 * 512;   // A (built in stage 1) comes first\n"
           : "  const uint64_t colOffset = 0;   // A is the weight itself\n";
  o += R"(  if (colOffset > 0xffffffffu) return ge::GRAPH_FAILED;
  t.set_colOffset(static_cast<uint32_t>(colOffset));
  if (N * K * P * es > (1ull << 40) || CO > 0x7fffffff || P > 0x7fffffff || K > 0x7fffffff) return ge::GRAPH_FAILED;
  const matmul_tiling::DataType inType = dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                         : dt == ge::DT_BF16  ? matmul_tiling::DataType::DT_BF16
                                                              : matmul_tiling::DataType::DT_FLOAT;
  // The epilogue's UB: the float32 block, its scratch, the block in T, the channel vectors and their broadcast; base
  // rows 64 down to 16.
  uint32_t baseM = 64;
  while (baseM > 16 && uint64_t(baseM) * (128 * (8 + es) + 32) + 4096 + 3 * R256(CO * 4) > ubSize) baseM /= 2;
  const uint64_t perMatrix = N >= coreNum ? 1 : (coreNum + N - 1) / N;
  matmul_tiling::MultiCoreMatmulTiling cube(platform);
  cube.SetDim(static_cast<int32_t>(perMatrix));
  cube.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, false);
  cube.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, false);
  cube.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  cube.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  cube.SetShape(static_cast<int32_t>(CO), static_cast<int32_t>(P), static_cast<int32_t>(K));
  cube.SetOrgShape(static_cast<int32_t>(CO), static_cast<int32_t>(P), static_cast<int32_t>(K));
  cube.EnableBias(false);
  cube.SetBufferSpace(-1, -1, -1);
  cube.SetFixSplit(static_cast<int32_t>(baseM), 128, -1);
  if (cube.GetTiling(t.cubeTiling) == -1) return ge::GRAPH_FAILED;
  const uint64_t blockM = static_cast<uint64_t>(t.cubeTiling.get_singleCoreM());
  const uint64_t blockN = static_cast<uint64_t>(t.cubeTiling.get_singleCoreN());
  t.set_mBlocks(static_cast<uint32_t>((CO + blockM - 1) / blockM));
  t.set_nBlocks(static_cast<uint32_t>((P + blockN - 1) / blockN));
)";
  o += conv_float_attrs(k);
  o += R"(  const uint64_t gemmItems = N * t.get_mBlocks() * t.get_nBlocks();
  const uint64_t busy = gemmItems > items ? gemmItems : items;
  const uint64_t usedCores = busy == 0 ? 1 : busy < aivNum ? busy : aivNum;
  context->SetBlockDim(platform.CalcTschBlockDim(static_cast<uint32_t>(usedCores), aicNum, aivNum));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  size_t* ws = context->GetWorkspaceSizes(1);
  ws[0] = platform.GetLibApiWorkSpaceSize() + colOffset + (direct ? 0 : (N * K * P * es + 511) / 512 * 512);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

)";
  o += conv_host_tail(k);
  return o;
}
}  // namespace

std::map<std::string, std::string> emit_conv_gemm(const Kernel& k) {
  return project_files(k, kernel(k), tiling_header(k), host(k), conv_json(k));
}
}  // namespace kgen::tile
