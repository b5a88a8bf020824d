// emit (attention programs): the op project of an attention program. Per work item (batch, block of query rows) the
// vector core drives two Matmul objects: S = Q K^T into its GM workspace (f32), the row ops and the softmax on UB row
// chunks (P in q's dtype back to the workspace), then O = P V into the output.
#include <fmt/format.h>

#include "tile/attention.h"
#include "tile/emit.h"

namespace kgen::tile {
namespace {

std::string sym_var(const Kernel& k, int sym) { return "d_" + camel_lower(k.syms[sym].name); }
bool has(const Attention& a, AttnOp::Kind kind) {
  for (const AttnOp& op : a.ops)
    if (op.kind == kind) return true;
  return false;
}
int mask_tensor(const Attention& a) {
  for (const AttnOp& op : a.ops)
    if (op.kind == AttnOp::KeyMask) return op.tensor;
  return -1;
}
// The element type of a tensor in the kernel: T for q, k, v and y (one dtype), bytes for a bool mask.
std::string gm_type(const Kernel& k, const TensorArg& t) {
  if (t.type == k.tensors[k.attn.q].type) return "T";
  return t.type.fixed == DType::Bool ? "uint8_t" : dtype_cpp(t.type.fixed);
}
std::string cls_of(const Kernel& k) { return "Kernel" + k.op_type.substr(0, k.op_type.size() - 6); }

// --- kernel: the vector core's side; the cube cores serve its two Matmul objects --------------------------------
void kernel_members(const Kernel& k, std::string& o) {
  const Attention& a = k.attn;
  const bool causal = has(a, AttnOp::Causal);
  const int mask = mask_tensor(a);
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(" private:");
  line("  // One work item: the block of query rows m0.. of batch matrix bh.");
  line("  __aicore__ inline void Block(uint32_t item) {");
  line("    const uint64_t bh = item / mBlocks_;");
  line("    const uint32_t m0 = item % mBlocks_ * blockM_;");
  line("    const uint32_t rows = s_ - m0 < blockM_ ? s_ - m0 : blockM_;   // the last block is shorter (the tail)");
  line("    const uint64_t kv = bh / heads_ * groups_ + bh % heads_ / (heads_ / groups_);   // k/v matrix of this head");
  if (causal) line("    const uint32_t keys = m0 + rows < t_ ? m0 + rows : t_;   // causal: later keys are all masked");
  else line("    const uint32_t keys = t_;");
  line(fmt::format("    // {}: S = Q K^T on the cube, f32 into this core's workspace [rows, t]", a.scores_text));
  line(fmt::format("    mmScores.SetTensorA({}Gm_[(bh * s_ + m0) * d_]);", camel_lower(k.tensors[a.q].name)));
  line(fmt::format("    mmScores.SetTensorB({}Gm_[kv * t_ * d_], true);", camel_lower(k.tensors[a.k].name)));
  line("    mmScores.SetTail(rows, keys);");
  line("    mmScores.IterateAll(sWs_);");
  if (mask >= 0) {
    line("    MaskBias(bh / maskDiv_);   // the batch's key mask as 0 / -big per key");
  }
  line("    for (uint32_t r0 = 0; r0 < rows; r0 += chunkRows_)");
  line("      Rows(m0 + r0, r0, rows - r0 < chunkRows_ ? rows - r0 : chunkRows_, keys);");
  line("    // P's copies to GM are complete before the cube reads them (MTE3 -> scalar, then the Matmul's message)");
  line("    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);");
  line("    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);");
  line(fmt::format("    // {}: O = P V on the cube, Fixpipe f32 -> T", a.out_text));
  line("    mmOut.SetTensorA(pWs_);");
  line(fmt::format("    mmOut.SetTensorB({}Gm_[kv * t_ * e_]);", camel_lower(k.tensors[a.v].name)));
  line("    mmOut.SetTail(rows, e_, keys);");
  line(fmt::format("    mmOut.IterateAll({}Gm_[(bh * s_ + m0) * e_]);", camel_lower(k.tensors[a.y].name)));
  line("  }");
  line();
  line("  // `count` score rows (query rows q0.., workspace rows r0..) through UB: the row ops, softmax, P to GM.");
  line("  __aicore__ inline void Rows(uint32_t q0, uint32_t r0, uint32_t count, uint32_t keys) {");
  line("    AscendC::LocalTensor<float> sc = sIn_.AllocTensor<float>();");
  line("    kt::LoadCols(sc, sWs_[static_cast<uint64_t>(r0) * t_], count, keys, t_, npad_);");
  line("    sIn_.EnQue(sc);");
  line("    sc = sIn_.DeQue<float>();");
  line("    const uint32_t all = kt::RoundRep<float>(count * npad_);");
  line("    AscendC::LocalTensor<float> work = work_.Get<float>(), bwork = bwork_.Get<float>();");
  line("    AscendC::LocalTensor<float> colMax = colMax_.Get<float>(), colSum = colSum_.Get<float>();");
  line("    AscendC::LocalTensor<T> p = pOut_.AllocTensor<T>();");
  int scale = 0;
  for (const AttnOp& op : a.ops) {
    line("    // " + op.text);
    switch (op.kind) {
      case AttnOp::Scale:
        line(fmt::format("    AscendC::Muls(sc, sc, scale{}_, all);", scale++));
        line("    AscendC::PipeBarrier<PIPE_V>();");
        break;
      case AttnOp::Causal:
        line("    {   // key j of query row q0 + r is masked when j - r - q0 > 0: offs_ holds j - r");
        line("      AscendC::LocalTensor<float> bias = bias_.Get<float>();");
        line("      AscendC::Adds(bias, offs_.Get<float>(), -static_cast<float>(q0), all);");
        line("      AscendC::PipeBarrier<PIPE_V>();");
        line("      AscendC::Maxs(bias, bias, 0.0f, all);");
        line("      AscendC::PipeBarrier<PIPE_V>();");
        line("      AscendC::Muls(bias, bias, -kMaskBig, all);   // 0 or <= -1e30: exp gives exactly 0");
        line("      AscendC::PipeBarrier<PIPE_V>();");
        line("      AscendC::Add(sc, sc, bias, all);");
        line("      AscendC::PipeBarrier<PIPE_V>();");
        line("    }");
        break;
      case AttnOp::KeyMask:
        line("    kt::VecAdd(sc, sc, maskBias_.Get<float>(), count, keys, npad_);");
        line("    AscendC::PipeBarrier<PIPE_V>();");
        break;
      case AttnOp::Softmax:
        line("    kt::RowMax(colMax, sc, work, count, keys, npad_);   // the row maxima over the keys");
        line("    AscendC::PipeBarrier<PIPE_V>();");
        line("    kt::RowSub(sc, sc, colMax, bwork, count, keys, npad_);");
        line("    AscendC::PipeBarrier<PIPE_V>();");
        line("    AscendC::Exp(sc, sc, all);");
        line("    AscendC::PipeBarrier<PIPE_V>();");
        line("    kt::RowSum(colSum, sc, work, count, keys, npad_);");
        line("    AscendC::PipeBarrier<PIPE_V>();");
        line("    if constexpr (std::is_same<T, float>::value) {");
        line("      kt::RowDiv(p, sc, colSum, bwork, count, keys, npad_);");
        line("    } else {   // the probabilities in f32, then rounded to T as torch's softmax returns them");
        line("      kt::RowDiv(sc, sc, colSum, bwork, count, keys, npad_);");
        line("      AscendC::PipeBarrier<PIPE_V>();");
        line("      kt::Convert(p, sc, all);");
        line("    }");
        break;
    }
  }
  line("    sIn_.FreeTensor(sc);");
  line("    pOut_.EnQue(p);");
  line("    p = pOut_.DeQue<T>();");
  line("    // rows of `keys` probabilities, t apart in the workspace (the row stride the Matmul reads)");
  line("    AscendC::DataCopyExtParams cp(static_cast<uint16_t>(count), keys * static_cast<uint32_t>(sizeof(T)),");
  line("                                  (npad_ - kt::PadRow<T>(keys)) * static_cast<uint32_t>(sizeof(T)) / 32,");
  line("                                  (t_ - keys) * static_cast<uint32_t>(sizeof(T)), 0);");
  line("    AscendC::DataCopyPad(pWs_[static_cast<uint64_t>(r0) * t_], p, cp);");
  line("    pOut_.FreeTensor(p);");
  line("  }");
  line();
  if (causal) {
    line("  // offs_[r, j] = j - r for the rows of a chunk: a query's causal mask is offs_ > its row index.");
    line("  __aicore__ inline void CausalOffsets() {");
    line("    AscendC::LocalTensor<float> offs = offs_.Get<float>();");
    line("    for (uint32_t j = 0; j < npad_; ++j) offs.SetValue(j, static_cast<float>(j));");
    line("    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);");
    line("    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);");
    line("    for (uint32_t r = 1; r < chunkRows_; ++r) AscendC::Adds(offs[r * npad_], offs, -static_cast<float>(r), npad_);");
    line("    const uint32_t used = chunkRows_ * npad_;");
    line("    kt::detail::ZeroRange(offs, used, kt::RoundRep<float>(used));");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("  }");
    line();
  }
  if (mask >= 0) {
    line("  // maskBias_[j] = 0 where the batch's mask is true, -big where it is false (bool -> half -> float).");
    line("  __aicore__ inline void MaskBias(uint64_t row) {");
    line("    if (row == maskRow_) return;   // the same batch as the last item");
    line("    maskRow_ = row;");
    line("    AscendC::LocalTensor<uint8_t> m = maskIn_.AllocTensor<uint8_t>();");
    line(fmt::format("    kt::LoadFlat(m, {}Gm_[row * t_], t_);", camel_lower(k.tensors[mask].name)));
    line("    maskIn_.EnQue(m);");
    line("    m = maskIn_.DeQue<uint8_t>();");
    line("    AscendC::LocalTensor<half> h = maskHalf_.Get<half>();");
    line("    AscendC::LocalTensor<float> bias = maskBias_.Get<float>();");
    line("    kt::Convert(h, m, kt::RoundRep<half>(npad_));");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("    kt::Convert(bias, h, kt::RoundRep<float>(npad_));");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("    AscendC::Adds(bias, bias, -1.0f, kt::RoundRep<float>(npad_));   // true 0, false -1");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("    AscendC::Muls(bias, bias, kMaskBig, kt::RoundRep<float>(npad_));");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("    maskIn_.FreeTensor(m);");
    line("  }");
    line();
  }
}

std::string kernel(const Kernel& k) {
  const Attention& a = k.attn;
  const bool causal = has(a, AttnOp::Causal);
  const int mask = mask_tensor(a);
  const std::string cls = cls_of(k), td = k.op_type + "TilingData";
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} kernel, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  if (!k.doc.empty()) line(doc_comment(k.doc));
  line("// An attention program. Each work item is one block of query rows of one batch matrix; the vector core that");
  line("// takes it drives two Matmul objects on its cube core: S = Q K^T (K read transposed) into its GM workspace in");
  line("// float32, then, chunk by chunk of rows in UB, the row operations and the softmax (P written back in T), then");
  line("// O = P V straight into the output.");
  line("#include \"kernel_operator.h\"");
  line("#include \"lib/matmul_intf.h\"");
  line("#include \"kgen_tile.h\"");
  line();
  line("constexpr float kMaskBig = 1e30f;   // masked scores: exp(s - 1e30 - max) is exactly 0, as exp(-inf)");
  line();
  line("template <typename T>");
  line("class " + cls + " {");
  line(" public:");
  line("  using QType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;");
  line("  using KType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T, true>;   // k [t, d] read as [d, t]");
  line("  using SType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;     // scores in f32");
  line("  using PType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;");
  line("  using VType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;");
  line("  using OType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;");
  line("  using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;");
  line("  AscendC::Matmul<QType, KType, SType, BiasType> mmScores;");
  line("  AscendC::Matmul<PType, VType, OType, BiasType> mmOut;");
  line();
  std::string params;
  for (const auto& t : k.tensors) params += "GM_ADDR " + camel_lower(t.name) + ", ";
  line(fmt::format("  __aicore__ inline void Init({}GM_ADDR workspace, AscendC::TPipe* pipe, const {}& tiling) {{", params, td));
  for (const char* f : {"s", "t", "d", "e", "blockM", "mBlocks", "items", "heads", "groups", "maskDiv", "chunkRows", "npad"})
    line(fmt::format("    {}_ = tiling.{};", f, f));
  int nscale = 0;
  for (const AttnOp& op : a.ops)
    if (op.kind == AttnOp::Scale) line(fmt::format("    scale{}_ = tiling.scale{};   // {}", nscale, nscale, op.text)), ++nscale;
  for (const auto& t : k.tensors)
    line(fmt::format("    {}Gm_.SetGlobalBuffer((__gm__ {}*){});", camel_lower(t.name), gm_type(k, t), camel_lower(t.name)));
  line("    // this core's workspace: S [blockM, t] in f32, then P [blockM, t] in T");
  line("    GM_ADDR ws = AscendC::GetUserWorkspace(workspace) + AscendC::GetBlockIdx() * tiling.wsBytes;");
  line("    sWs_.SetGlobalBuffer((__gm__ float*)ws);");
  line("    pWs_.SetGlobalBuffer((__gm__ T*)(ws + tiling.pOffset));");
  line("    const uint32_t tile = chunkRows_ * npad_;   // elements of a chunk of score rows");
  line("    pipe->InitBuffer(sIn_, 1, kt::RoundUp256(tile * sizeof(float)));");
  line("    pipe->InitBuffer(pOut_, 1, kt::RoundUp256(tile * sizeof(float)));");
  line("    pipe->InitBuffer(colMax_, kt::RoundUp256(chunkRows_ * sizeof(float)));");
  line("    pipe->InitBuffer(colSum_, kt::RoundUp256(chunkRows_ * sizeof(float)));");
  line("    pipe->InitBuffer(work_, kt::RowReduceWorkElems<float>(chunkRows_, npad_) * sizeof(float));");
  line("    pipe->InitBuffer(bwork_, kt::RowBroadcastWorkElems<float>(chunkRows_) * sizeof(float));");
  if (causal) {
    line("    pipe->InitBuffer(offs_, kt::RoundUp256(tile * sizeof(float)));");
    line("    pipe->InitBuffer(bias_, kt::RoundUp256(tile * sizeof(float)));");
    line("    CausalOffsets();");
  }
  if (mask >= 0) {
    line("    pipe->InitBuffer(maskIn_, 1, kt::RoundUp256(npad_));");
    line("    pipe->InitBuffer(maskHalf_, kt::RoundUp256(npad_ * sizeof(half)));");
    line("    pipe->InitBuffer(maskBias_, kt::RoundUp256(npad_ * sizeof(float)));");
  }
  line("  }");
  line();
  line("  __aicore__ inline void Process() {");
  line(fmt::format("    // for {} in blocks(...): the items of this vector core, round robin over all of them", a.block_var));
  line("    const uint32_t stride = AscendC::GetBlockNum() * AscendC::GetTaskRatio();");
  line("    for (uint32_t item = AscendC::GetBlockIdx(); item < items_; item += stride) Block(item);");
  line("    mmScores.End();");
  line("    mmOut.End();");
  line("  }");
  line();
  kernel_members(k, o);
  for (const auto& t : k.tensors)
    line(fmt::format("  AscendC::GlobalTensor<{}> {}Gm_;", gm_type(k, t), camel_lower(t.name)));
  line("  AscendC::GlobalTensor<float> sWs_;");
  line("  AscendC::GlobalTensor<T> pWs_;");
  line("  AscendC::TQue<AscendC::TPosition::VECIN, 1> sIn_;");
  line("  AscendC::TQue<AscendC::TPosition::VECOUT, 1> pOut_;");
  line("  AscendC::TBuf<AscendC::TPosition::VECCALC> colMax_, colSum_, work_, bwork_;");
  if (causal) line("  AscendC::TBuf<AscendC::TPosition::VECCALC> offs_, bias_;");
  if (mask >= 0) {
    line("  AscendC::TQue<AscendC::TPosition::VECIN, 1> maskIn_;");
    line("  AscendC::TBuf<AscendC::TPosition::VECCALC> maskHalf_, maskBias_;");
    line("  uint64_t maskRow_ = ~0ull;");
  }
  line("  uint32_t s_ = 0, t_ = 0, d_ = 0, e_ = 0, blockM_ = 0, mBlocks_ = 1, items_ = 0;");
  line("  uint32_t heads_ = 1, groups_ = 1, maskDiv_ = 1, chunkRows_ = 1, npad_ = 16;");
  for (int i = 0; i < nscale; ++i) line(fmt::format("  float scale{}_ = 1.0f;", i));
  line("};");
  line();
  line(fmt::format("extern \"C\" __global__ __aicore__ void {}({}GM_ADDR workspace, GM_ADDR tiling) {{",
                   k.kernel_symbol, params));
  line("  GET_TILING_DATA(tilingData, tiling);");
  line("  // Two Matmul objects make this a MIX kernel: each cube core serves the vector cores of its block.");
  line("  if (AscendC::GetBlockIdx() >= tilingData.items) return;");
  line("  AscendC::TPipe pipe;");
  line(fmt::format("  {}<DTYPE_{}> op;", cls, upper(k.tensors[a.q].name)));
  line("  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.mmScores, &tilingData.scoresTiling, op.mmOut,");
  line("                    &tilingData.outTiling);   // before InitBuffer");
  std::string args;
  for (const auto& t : k.tensors) args += camel_lower(t.name) + ", ";
  line(fmt::format("  op.Init({}workspace, &pipe, tilingData);", args));
  line("  op.Process();");
  line("}");
  return o;
}

// --- tiling header ------------------------------------------------------------------------------------------
std::string tiling_header(const Kernel& k) {
  std::string o = tiling_header_open(k, true);
  o += "BEGIN_TILING_DATA_DEF(" + k.op_type + "TilingData)\n";
  auto field = [&](const char* type, const std::string& name, const std::string& what) {
    o += fmt::format("TILING_DATA_FIELD_DEF({}, {});   // {}\n", type, name, what);
  };
  field("uint32_t", "s", "query rows");
  field("uint32_t", "t", "keys");
  field("uint32_t", "d", "head dim");
  field("uint32_t", "e", "value dim");
  field("uint32_t", "blockM", "query rows per work item");
  field("uint32_t", "mBlocks", "blocks per batch matrix (ceil(s / blockM))");
  field("uint32_t", "items", "work items: batch * mBlocks");
  field("uint32_t", "heads", "q's last batch dim (1 without one)");
  field("uint32_t", "groups", "k's heads (= heads unless grouped-query)");
  field("uint32_t", "maskDiv", "batch matrices per key-mask row");
  field("uint32_t", "chunkRows", "score rows per UB chunk");
  field("uint32_t", "npad", "UB row stride of a score row (t rounded up to 16)");
  field("uint32_t", "pOffset", "bytes from a workspace slot to its P");
  field("uint32_t", "wsBytes", "bytes of one vector core's workspace slot");
  int i = 0;
  for (const AttnOp& op : k.attn.ops)
    if (op.kind == AttnOp::Scale) field("float", "scale" + std::to_string(i++), op.text);
  o += "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, scoresTiling);   // S = Q K^T of one block\n";
  o += "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outTiling);      // O = P V of one block\n";
  o += tiling_header_close(k);
  return o;
}

}  // namespace

// --- host ---------------------------------------------------------------------------------------------------
void cube_host_open(const Kernel& k, bool cmath, const std::function<void(const std::string&)>& line) {
  if (cmath) line("#include <cmath>");
  line("#include \"" + k.kernel_symbol + "_tiling.h\"");
  line("#include \"register/op_def_registry.h\"");
  line("#include \"tiling/platform/platform_ascendc.h\"");
  line("#include \"tiling/tiling_api.h\"");
  line("");
  line("namespace optiling {");
  line("static matmul_tiling::DataType CubeType(ge::DataType t) {");
  line("  if (t == ge::DT_FLOAT16) return matmul_tiling::DataType::DT_FLOAT16;");
  line("  if (t == ge::DT_BF16) return matmul_tiling::DataType::DT_BF16;");
  line("  return matmul_tiling::DataType::DT_FLOAT;");
  line("}");
  line("");
  line("static ge::graphStatus TilingFunc(gert::TilingContext* context) {");
  line("  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());");
}

void host_matmul(const char* name, const char* a_type, bool trans_b, const char* c_type, const char* m,
                 const char* n, const char* kk, const char* org_m, const std::function<void(const std::string&)>& line,
                 const char* org_n) {
  line(fmt::format("    matmul_tiling::MatmulApiTiling {}(platform);", name));
  line(fmt::format("    {}.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, {}, false);", name, a_type));
  line(fmt::format("    {}.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, {});", name,
                   trans_b ? "true" : "false"));
  line(fmt::format("    {}.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, {});", name, c_type));
  line(fmt::format("    {}.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, "
                   "matmul_tiling::DataType::DT_FLOAT);", name));
  line(fmt::format("    {}.SetShape(static_cast<int32_t>({}), static_cast<int32_t>({}), static_cast<int32_t>({}));",
                   name, m, n, kk));
  line(fmt::format("    {}.SetOrgShape(static_cast<int32_t>({}), static_cast<int32_t>({}), static_cast<int32_t>({}));",
                   name, org_m, org_n ? org_n : n, kk));
  line(fmt::format("    {}.SetBias(false);", name));
  line(fmt::format("    {}.SetBufferSpace(-1, -1, -1);", name));
}

namespace {

std::string host(const Kernel& k) {
  const Attention& a = k.attn;
  const bool causal = has(a, AttnOp::Causal);
  const int mask = mask_tensor(a);
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} host side, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  line("// Tiling: blocks of query rows so that the batch's matrices keep every vector core busy; one Matmul tiling for");
  line("// S = Q K^T [blockM, t, d] and one for O = P V [blockM, e, t]; UB chunks of score rows; a workspace slot per core.");
  cube_host_open(k, true, line);
  cube_host_dims(k, line);
  for (size_t i = 0; i < k.attrs.size(); ++i) {
    const AttrArg& at = k.attrs[i];
    const char* t = at.type == DType::F32 ? "float" : at.type == DType::I32 ? "int64_t" : "bool";
    line(fmt::format("  const {}* attr{}Ptr = context->GetAttrs()->GetAttrPointer<{}>({});", t, i, t, i));
    line(fmt::format("  if (attr{}Ptr == nullptr) return ge::GRAPH_FAILED;", i));
  }
  std::string batch = "1";
  for (int s : a.batch_syms) batch += " * " + sym_var(k, s);
  line(fmt::format("  const uint64_t batch = {};   // batch matrices of q", batch));
  line(fmt::format("  const uint64_t s = {}, t = {}, d = {}, e = {};", sym_var(k, a.s_sym), sym_var(k, a.t_sym),
                   sym_var(k, a.d_sym), sym_var(k, a.e_sym)));
  const std::string heads = a.batch_syms.empty() ? "1" : sym_var(k, a.batch_syms.back());
  line(fmt::format("  const uint64_t heads = {}, groups = {};", heads, a.group_sym >= 0 ? sym_var(k, a.group_sym) : heads));
  line("  if (groups == 0 || heads % groups != 0) return ge::GRAPH_FAILED;   // each k/v head serves heads / groups");
  if (causal) line("  if (s != t) return ge::GRAPH_FAILED;   // causal_mask: the square mask of self-attention");
  std::string mdiv = "1";
  if (mask >= 0)
    for (size_t i = k.tensors[mask].dims.size() - 1; i < a.batch_syms.size(); ++i) mdiv += " * " + sym_var(k, a.batch_syms[i]);
  line(fmt::format("  const uint64_t maskDiv = {};", mdiv));
  line("  if (s > 0x7fffffff || t > 0xffff || d > 0x7fffffff || e > 0x7fffffff) return ge::GRAPH_FAILED;");
  line(fmt::format("  const ge::DataType dt = context->GetInputDesc({})->GetDataType();", input_index(k, a.q)));
  line("  const matmul_tiling::DataType inType = CubeType(dt);");
  line("  const uint64_t tBytes = dt == ge::DT_FLOAT ? 4 : 2;");
  line("  const uint32_t aicNum = platform.GetCoreNumAic(), aivNum = platform.GetCoreNumAiv();");
  line(fmt::format("  {}TilingData tiling;", k.op_type));
  int i = 0;
  for (const AttnOp& op : a.ops)
    if (op.kind == AttnOp::Scale) {
      line(fmt::format("  tiling.set_scale{}(static_cast<float>({}));   // {}", i, op.host_expr, op.text));
      ++i;
    }
  line("  uint64_t items = 0;");
  line("  if (batch > 0 && s > 0 && t > 0 && d > 0 && e > 0) {");
  line("    // blocks of query rows (multiples of 16, at most 128): enough that every vector core gets work");
  line("    const uint64_t perMatrix = batch >= aivNum ? 1 : (aivNum + batch - 1) / batch;");
  line("    uint64_t blockM = ((s + perMatrix - 1) / perMatrix + 15) / 16 * 16;");
  line("    blockM = blockM > 128 ? 128 : blockM;");
  line("    blockM = blockM > s ? s : blockM;");
  line("    const uint64_t npad = (t + 15) / 16 * 16;");
  line("    uint64_t ub = 0;");
  line("    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);");
  line("    // UB per chunk row: S in f32 and P (queues), the reduction's 256 B, a broadcast block, two column entries");
  line(fmt::format("    const uint64_t perRow = npad * {} + 256 + 32 + 8;", causal ? "(4 + 4 + 4 + 4)" : "(4 + 4)"));
  line(fmt::format("    const uint64_t fixed = 16 * 1024 + (npad * 4 > 8160 ? 8192 : 0){};",
                   mask >= 0 ? " + npad * 7 + 1536" : ""));
  line("    uint64_t chunkRows = ub > fixed + perRow ? (ub - fixed) / perRow : 0;");
  line("    if (chunkRows == 0) return ge::GRAPH_FAILED;   // a score row does not fit in UB");
  line("    chunkRows = chunkRows > blockM ? blockM : chunkRows;");
  host_matmul("scores", "inType", true, "matmul_tiling::DataType::DT_FLOAT", "blockM", "t", "d", "s", line);
  line("    if (scores.GetTiling(tiling.scoresTiling) == -1) return ge::GRAPH_FAILED;");
  host_matmul("out", "inType", false, "inType", "blockM", "e", "t", "s", line);
  line("    if (out.GetTiling(tiling.outTiling) == -1) return ge::GRAPH_FAILED;");
  line("    tiling.set_blockM(static_cast<uint32_t>(blockM));");
  line("    tiling.set_mBlocks(static_cast<uint32_t>((s + blockM - 1) / blockM));");
  line("    tiling.set_chunkRows(static_cast<uint32_t>(chunkRows));");
  line("    tiling.set_npad(static_cast<uint32_t>(npad));");
  line("    const uint64_t sBytes = (blockM * t * 4 + 511) / 512 * 512, pBytes = (blockM * t * tBytes + 511) / 512 * 512;");
  line("    tiling.set_pOffset(static_cast<uint32_t>(sBytes));");
  line("    tiling.set_wsBytes(static_cast<uint32_t>(sBytes + pBytes));");
  line("    items = batch * tiling.get_mBlocks();");
  line("  }");
  line("  if (items > 0xffffffffu) return ge::GRAPH_FAILED;");
  line("  tiling.set_s(static_cast<uint32_t>(s));");
  line("  tiling.set_t(static_cast<uint32_t>(t));");
  line("  tiling.set_d(static_cast<uint32_t>(d));");
  line("  tiling.set_e(static_cast<uint32_t>(e));");
  line("  tiling.set_heads(static_cast<uint32_t>(heads));");
  line("  tiling.set_groups(static_cast<uint32_t>(groups));");
  line("  tiling.set_maskDiv(static_cast<uint32_t>(maskDiv));");
  line("  tiling.set_items(static_cast<uint32_t>(items));");
  line("  const uint64_t usedCores = items == 0 ? 1 : items < aivNum ? items : aivNum;");
  line("  context->SetBlockDim(platform.CalcTschBlockDim(static_cast<uint32_t>(usedCores), aicNum, aivNum));");
  line("  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());");
  line("  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());");
  line("  size_t* workspace = context->GetWorkspaceSizes(1);");
  line("  // the Matmul API's system workspace, then a slot of S and P per vector core");
  line("  workspace[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(aivNum) * tiling.get_wsBytes();");
  line("  return ge::GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace optiling");
  line();
  line("namespace ge {");
  line("static ge::graphStatus InferShape(gert::InferShapeContext* context) {");
  line(fmt::format("  const gert::Shape* q = context->GetInputShape({});", input_index(k, a.q)));
  line(fmt::format("  const gert::Shape* v = context->GetInputShape({});", input_index(k, a.v)));
  line(fmt::format("  gert::Shape* out = context->GetOutputShape(0);   // {}: q's shape with v's last dim",
                   k.tensors[a.y].name));
  line("  *out = *q;");
  line("  out->SetDim(q->GetDimNum() - 1, v->GetDim(v->GetDimNum() - 1));");
  line("  return GRAPH_SUCCESS;");
  line("}");
  line();
  line("static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {");
  line(fmt::format("  context->SetOutputDataType(0, context->GetInputDataType({}));", input_index(k, a.q)));
  line("  return GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace ge");
  line();
  const TypeOf& qt = k.tensors[a.q].type;
  const std::vector<DType> cols = qt.var >= 0 ? k.dtype_vars[qt.var].types : std::vector<DType>{qt.fixed};
  std::vector<std::vector<DType>> tensor_types;
  for (const TensorArg& t : k.tensors) {
    tensor_types.emplace_back();
    for (DType c : cols) tensor_types.back().push_back(t.type.var >= 0 ? c : t.type.fixed);
  }
  o += emit_op_def(k, tensor_types);
  return o;
}
}  // namespace

std::map<std::string, std::string> emit_attention(const Kernel& k) {
  return project_files(k, kernel(k), tiling_header(k), host(k), emit_json(k));
}
}  // namespace kgen::tile
