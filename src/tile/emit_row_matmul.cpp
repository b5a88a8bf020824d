// emit (row matmul programs): the op project of a row matmul program, in two stages. Stage 1: per work item (a block
// of rows and columns of H) the vector core drives one Matmul object: H = X W into H [m, n] (f32) in the GM workspace.
// Stage 2, after a SyncAll: each vector core takes its share of the rows, chunk by chunk of whole rows in UB, through
// the row chain (scale, bias, activations, softmax, a reduction) and converts the rows (or their column) into the
// output. Splitting H's columns keeps every cube core busy when the rows are few (a softmax over 128 rows of 16384).
#include <fmt/format.h>

#include "tile/attention.h"
#include "tile/cube.h"
#include "tile/emit.h"
#include "tile/row_matmul.h"

namespace kgen::tile {
namespace {

std::string sym_var(const Kernel& k, int sym) { return "d_" + camel_lower(k.syms[sym].name); }
int bias_tensor(const RowMatmul& r) {
  for (const RowOp& op : r.ops)
    if (op.kind == RowOp::AddRow) return op.tensor;
  return -1;
}
bool needs_math(const RowMatmul& r) {
  for (const RowOp& op : r.ops)
    if (op.kind == RowOp::Act && op.fn != "relu" && op.fn != "exp" && op.fn != "abs") return true;
  return false;
}
bool uses_in_place(const RowMatmul& r) {
  for (const RowOp& op : r.ops)
    if (op.kind == RowOp::Act && (op.fn == "sigmoid" || op.fn == "tanh")) return true;
  return false;
}
// The element type of a tensor in the kernel: T for those typed like x, else its fixed dtype (an f32 weight or bias).
std::string gm_type(const Kernel& k, const TensorArg& t) {
  return t.type == k.tensors[k.row_mm->x].type ? "T" : dtype_cpp(t.type.fixed);
}
// The row maxima (softmax, logsumexp) and the row sums of the softmax need their own columns.
bool needs_max(const RowMatmul& r) {
  for (const RowOp& op : r.ops)
    if (op.kind == RowOp::Softmax || (op.kind == RowOp::Reduce && op.fn == "logsumexp")) return true;
  return false;
}
bool needs_sum(const RowMatmul& r) {
  for (const RowOp& op : r.ops)
    if (op.kind == RowOp::Softmax) return true;
  return false;
}
std::string cls_of(const Kernel& k) { return "Kernel" + k.op_type.substr(0, k.op_type.size() - 6); }

// One activation on `v` (count elements, in place): AscendC's own, or the prelude's with the math scratch.
std::string activation(const std::string& fn, const std::string& v, const std::string& count) {
  if (fn == "relu") return fmt::format("AscendC::Relu({}, {}, {});", v, v, count);
  if (fn == "exp") return fmt::format("AscendC::Exp({}, {}, {});", v, v, count);
  if (fn == "abs") return fmt::format("AscendC::Abs({}, {}, {});", v, v, count);
  if (fn == "sigmoid") return fmt::format("InPlace<false>({}, {});   // sigmoid", v, count);
  if (fn == "tanh") return fmt::format("InPlace<true>({}, {});   // tanh", v, count);
  const std::string f = fn == "gelu" ? "kt::Gelu" : fn == "gelu_tanh" ? "kt::GeluTanh" : "kt::Silu";
  return fmt::format("{}({}, {}, math_.Get<uint8_t>(), {});", f, v, v, count);
}

// The chain on the chunk `h` ([count, npad] f32) and, after a reduction, on its column `col`.
void chain(const Kernel& k, const std::function<void(const std::string&)>& line) {
  // h = exp(h - rowmax(h)) with the row max in colMax, then the row sums of h into `sum`: softmax and logsumexp.
  auto shifted_exp_sum = [&](const char* sum) {
    line("    kt::RowMax(colMax, h, work, count, n_, npad_);");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("    kt::RowSub(h, h, colMax, bwork, count, n_, npad_);");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("    AscendC::Exp(h, h, all);");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line(fmt::format("    kt::RowSum({}, h, work, count, n_, npad_);", sum));
    line("    AscendC::PipeBarrier<PIPE_V>();");
  };
  int scale = 0;
  for (const RowOp& op : k.row_mm->ops) {
    line("    // " + op.text);
    const std::string v = op.column ? "col" : "h", cnt = op.column ? "colAll" : "all";
    switch (op.kind) {
      case RowOp::Scale: line(fmt::format("    AscendC::Muls({}, {}, scale{}_, {});", v, v, scale++, cnt)); break;
      case RowOp::AddRow: line("    kt::VecAdd(h, h, biasRow_.Get<float>(), count, n_, npad_);   // down the rows"); break;
      case RowOp::Act: line("    " + activation(op.fn, v, cnt)); break;
      case RowOp::Softmax:
        shifted_exp_sum("colSum");
        line("    kt::RowDiv(h, h, colSum, bwork, count, n_, npad_);");
        break;
      case RowOp::Reduce:
        if (op.fn == "sum" || op.fn == "mean") line("    kt::RowSum(col, h, work, count, n_, npad_);");
        if (op.fn == "max") line("    kt::RowMax(col, h, work, count, n_, npad_);");
        if (op.fn == "mean") {
          line("    AscendC::PipeBarrier<PIPE_V>();");
          line("    AscendC::Muls(col, col, 1.0f / static_cast<float>(n_), colAll);");
        }
        if (op.fn == "logsumexp") {   // max + log(sum(exp(h - max))): stable for any row
          shifted_exp_sum("col");
          line("    AscendC::Ln(col, col, colAll);");
          line("    AscendC::PipeBarrier<PIPE_V>();");
          line("    AscendC::Add(col, col, colMax, colAll);");
        }
        break;
    }
    line("    AscendC::PipeBarrier<PIPE_V>();");
  }
}

// --- kernel: the vector core's side; the cube core serves its Matmul object -------------------------------------
void kernel_members(const Kernel& k, std::string& o) {
  const RowMatmul& r = *k.row_mm;
  const int bias = bias_tensor(r);
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(" private:");
  line("  // One work item: the block of H's rows m0.. and columns n0...");
  line("  __aicore__ inline void Block(uint32_t item) {");
  line("    const uint32_t m0 = item / nBlocks_ * blockM_, n0 = item % nBlocks_ * blockN_;");
  line("    const uint32_t rows = m_ - m0 < blockM_ ? m_ - m0 : blockM_;   // the last blocks are shorter (the tails)");
  line("    const uint32_t cols = n_ - n0 < blockN_ ? n_ - n0 : blockN_;");
  line(fmt::format("    // {}: H = X W{} on the cube, f32 into H's block [rows, cols] in the workspace (rows n apart)",
                   r.mma_text, r.w_trans ? "^T" : ""));
  const std::string xa = fmt::format("{}Gm_[static_cast<uint64_t>(m0) * k_]", camel_lower(k.tensors[r.x].name));
  if (r.x_to_f32) {
    line("    if constexpr (std::is_same<T, float>::value) {");
    line("      mm.SetTensorA(" + xa + ");");
    line("    } else {   // the weight is f32: x's rows in f32 first, through UB into this core's workspace");
    line("      XToF32(m0, rows);");
    line("      mm.SetTensorA(xWs_);");
    line("    }");
  } else {
    line("    mm.SetTensorA(" + xa + ");");
  }
  if (r.w_trans)   // [n, k]: the block's columns are rows n0.. of the weight
    line(fmt::format("    mm.SetTensorB({}Gm_[static_cast<uint64_t>(n0) * k_], true);", camel_lower(k.tensors[r.w].name)));
  else line(fmt::format("    mm.SetTensorB({}Gm_[n0]);", camel_lower(k.tensors[r.w].name)));
  line("    mm.SetTail(rows, cols);");
  line("    mm.IterateAll(hWs_[static_cast<uint64_t>(m0) * n_ + n0]);");
  line("  }");
  line();
  line("  // `count` whole rows of H (rows q0..) through UB: the row chain, then the output.");
  line("  __aicore__ inline void Rows(uint32_t q0, uint32_t count) {");
  line("    AscendC::LocalTensor<float> h = hIn_.AllocTensor<float>();");
  line("    kt::LoadCols(h, hWs_[static_cast<uint64_t>(q0) * n_], count, n_, n_, npad_);");
  line("    hIn_.EnQue(h);");
  line("    h = hIn_.DeQue<float>();");
  line("    const uint32_t all = kt::RoundRep<float>(count * npad_);");
  if (r.reduced) line("    const uint32_t colAll = kt::RoundRep<float>(count);");
  line("    AscendC::LocalTensor<float> work = work_.Get<float>(), bwork = bwork_.Get<float>();");
  if (needs_max(r)) line("    AscendC::LocalTensor<float> colMax = colMax_.Get<float>();   // the row maxima");
  if (needs_sum(r)) line("    AscendC::LocalTensor<float> colSum = colSum_.Get<float>();   // the softmax's row sums");
  if (r.reduced) line("    AscendC::LocalTensor<float> col = col_.Get<float>();   // the reduced rows");
  chain(k, line);
  const std::string y = camel_lower(k.tensors[r.y].name) + "Gm_";
  line("    AscendC::LocalTensor<T> out = yOut_.AllocTensor<T>();");
  if (r.reduced) {
    line("    kt::Convert(out, col, colAll);   // one value per row, rounded to T");
    line("    hIn_.FreeTensor(h);");
    line("    yOut_.EnQue(out);");
    line("    out = yOut_.DeQue<T>();");
    line("    AscendC::DataCopyExtParams cp(1, count * static_cast<uint32_t>(sizeof(T)), 0, 0, 0);");
    line(fmt::format("    AscendC::DataCopyPad({}[q0], out, cp);", y));
  } else {
    line("    kt::Convert(out, h, all);   // the rows, rounded to T");
    line("    hIn_.FreeTensor(h);");
    line("    yOut_.EnQue(out);");
    line("    out = yOut_.DeQue<T>();");
    line("    // rows of n, npad apart in UB, contiguous in the output");
    line("    AscendC::DataCopyExtParams cp(static_cast<uint16_t>(count), n_ * static_cast<uint32_t>(sizeof(T)),");
    line("                                  (npad_ - kt::PadRow<T>(n_)) * static_cast<uint32_t>(sizeof(T)) / 32, 0, 0);");
    line(fmt::format("    AscendC::DataCopyPad({}[static_cast<uint64_t>(q0) * n_], out, cp);", y));
  }
  line("    yOut_.FreeTensor(out);");
  line("  }");
  line();
  if (uses_in_place(r)) {
    line("  // sigmoid / tanh in place: CANN's API needs dst apart from src, so 2 KB chunks go through the math scratch.");
    line("  template <bool kTanh>");
    line("  __aicore__ inline void InPlace(const AscendC::LocalTensor<float>& v, uint32_t count) {");
    line("    constexpr uint32_t C = 2048 / sizeof(float);");
    line("    AscendC::LocalTensor<uint8_t> st = math_.Get<uint8_t>();");
    line("    AscendC::LocalTensor<float> c = st[2048].ReinterpretCast<float>();");
    line("    st.SetSize(2048);");
    line("    for (uint32_t o = 0; o < count; o += C) {");
    line("      const uint32_t len = count - o < C ? count - o : C;");
    line("      if constexpr (kTanh) AscendC::Tanh(c, v[o], st, len);");
    line("      else AscendC::Sigmoid(c, v[o], st, len);");
    line("      AscendC::PipeBarrier<PIPE_V>();");
    line("      AscendC::Adds(v[o], c, 0.0f, static_cast<int32_t>(len));");
    line("      AscendC::PipeBarrier<PIPE_V>();");
    line("    }");
    line("  }");
    line();
  }
  if (r.x_to_f32) {
    line("  // x's rows m0.. (rows * k elements, contiguous) converted to f32 into xWs_, in chunks of kXChunk.");
    line("  __aicore__ inline void XToF32(uint32_t m0, uint32_t rows) {");
    line("    const uint64_t total = static_cast<uint64_t>(rows) * k_;");
    line("    for (uint64_t o = 0; o < total; o += kXChunk) {");
    line("      const uint32_t len = static_cast<uint32_t>(total - o < kXChunk ? total - o : kXChunk);");
    line("      AscendC::LocalTensor<T> a = xIn_.AllocTensor<T>();");
    line(fmt::format("      kt::LoadFlat(a, {}Gm_[static_cast<uint64_t>(m0) * k_ + o], len);", camel_lower(k.tensors[r.x].name)));
    line("      xIn_.EnQue(a);");
    line("      a = xIn_.DeQue<T>();");
    line("      AscendC::LocalTensor<float> f = xOut_.AllocTensor<float>();");
    line("      kt::Convert(f, a, kt::RoundRep<float>(len));");
    line("      xIn_.FreeTensor(a);");
    line("      xOut_.EnQue(f);");
    line("      f = xOut_.DeQue<float>();");
    line("      kt::StoreFlat(xWs_[o], f, len);");
    line("      xOut_.FreeTensor(f);");
    line("    }");
    line("    // the copies to GM are complete before the cube reads them (MTE3 -> scalar, then the Matmul's message)");
    line("    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);");
    line("    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);");
    line("  }");
    line();
  }
  if (bias >= 0) {
    line(fmt::format("  // {} as a float row of npad, resident for every block of this core.", k.tensors[bias].name));
    line("  __aicore__ inline void BiasRow() {");
    const std::string bt = gm_type(k, k.tensors[bias]);
    line(fmt::format("    AscendC::LocalTensor<{}> b = biasIn_.AllocTensor<{}>();", bt, bt));
    line(fmt::format("    kt::LoadVector(b, {}Gm_, n_);", camel_lower(k.tensors[bias].name)));
    line("    biasIn_.EnQue(b);");
    line(fmt::format("    b = biasIn_.DeQue<{}>();", bt));
    line("    kt::Convert(biasRow_.Get<float>(), b, kt::RoundRep<float>(npad_));");
    line("    AscendC::PipeBarrier<PIPE_V>();");
    line("    biasIn_.FreeTensor(b);");
    line("  }");
    line();
  }
}

std::string kernel(const Kernel& k) {
  const RowMatmul& r = *k.row_mm;
  const int bias = bias_tensor(r);
  const std::string cls = cls_of(k), td = k.op_type + "TilingData";
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} kernel, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  if (!k.doc.empty()) line(doc_comment(k.doc));
  line("// A row matmul program. Stage 1: each work item is a block of rows and columns of H; the vector core that takes");
  line("// it drives the Matmul on its cube core: H = X W into the GM workspace in float32. Stage 2, after a SyncAll: each");
  line("// vector core takes its share of the rows, chunk by chunk of whole rows in UB, through the row operations (those");
  line("// that need the whole row: softmax, a reduction) and converts the result into the output.");
  line("#include \"kernel_operator.h\"");
  line("#include \"lib/matmul_intf.h\"");
  line("#include \"kgen_tile.h\"");
  line();
  line("template <typename T>");
  line("class " + cls + " {");
  line(" public:");
  const std::string mt = r.x_to_f32 ? "float" : "T";   // the cube's operand type
  if (r.x_to_f32) line("  static constexpr uint32_t kXChunk = 4096;   // elements of x per conversion to f32");
  line(fmt::format("  using XType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, {}>;", mt));
  if (r.w_trans) line(fmt::format("  using WType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, {}, true>;   // [n, k] read as [k, n]", mt));
  else line(fmt::format("  using WType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, {}>;", mt));
  line("  using HType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;   // H in f32");
  line("  using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;");
  line("  AscendC::Matmul<XType, WType, HType, BiasType> mm;");
  line();
  std::string params;
  for (const auto& t : k.tensors) params += "GM_ADDR " + camel_lower(t.name) + ", ";
  line(fmt::format("  __aicore__ inline void Init({}GM_ADDR workspace, AscendC::TPipe* pipe, const {}& tiling) {{", params, td));
  for (const char* f : {"m", "n", "k", "blockM", "blockN", "nBlocks", "items", "chunkRows", "npad"})
    line(fmt::format("    {}_ = tiling.{};", f, f));
  int nscale = 0;
  for (const RowOp& op : r.ops)
    if (op.kind == RowOp::Scale) line(fmt::format("    scale{}_ = tiling.scale{};   // {}", nscale, nscale, op.text)), ++nscale;
  for (const auto& t : k.tensors)
    line(fmt::format("    {}Gm_.SetGlobalBuffer((__gm__ {}*){});", camel_lower(t.name), gm_type(k, t), camel_lower(t.name)));
  line("    GM_ADDR ws = AscendC::GetUserWorkspace(workspace);");
  line("    hWs_.SetGlobalBuffer((__gm__ float*)ws);   // H [m, n] in f32: every core writes its blocks, reads its rows");
  if (r.x_to_f32) {
    line("    // this core's slot: x's block in f32 (a half x)");
    line("    xWs_.SetGlobalBuffer((__gm__ float*)(ws + tiling.xOffset + AscendC::GetBlockIdx() * tiling.wsBytes));");
    line("    pipe->InitBuffer(xIn_, 1, kt::RoundUp256(kXChunk * sizeof(T)));");
    line("    pipe->InitBuffer(xOut_, 1, kt::RoundUp256(kXChunk * sizeof(float)));");
  }
  line("    const uint32_t tile = chunkRows_ * npad_;   // elements of a chunk of rows");
  line("    pipe->InitBuffer(hIn_, 1, kt::RoundUp256(tile * sizeof(float)));");
  if (r.reduced) line("    pipe->InitBuffer(yOut_, 1, kt::RoundUp256(chunkRows_ * sizeof(T)));");
  else line("    pipe->InitBuffer(yOut_, 1, kt::RoundUp256(tile * sizeof(T)));");
  if (needs_max(r)) line("    pipe->InitBuffer(colMax_, kt::RoundUp256(chunkRows_ * sizeof(float)));");
  if (needs_sum(r)) line("    pipe->InitBuffer(colSum_, kt::RoundUp256(chunkRows_ * sizeof(float)));");
  if (r.reduced) line("    pipe->InitBuffer(col_, kt::RoundUp256(chunkRows_ * sizeof(float)));");
  line("    pipe->InitBuffer(work_, kt::RowReduceWorkElems<float>(chunkRows_, npad_) * sizeof(float));");
  line("    pipe->InitBuffer(bwork_, kt::RowBroadcastWorkElems<float>(chunkRows_) * sizeof(float));");
  if (needs_math(r)) line("    pipe->InitBuffer(math_, kt::kMathTmpBytes);   // the activations' scratch");
  if (bias >= 0) {
    line("    pipe->InitBuffer(biasIn_, 1, kt::RoundUp256(npad_ * sizeof(T)));");
    line("    pipe->InitBuffer(biasRow_, kt::RoundUp256(npad_ * sizeof(float)));");
    line("    BiasRow();");
  }
  line("  }");
  line();
  line("  __aicore__ inline void Process() {");
  line(fmt::format("    // Stage 1, for {} in blocks(...): the blocks of H of this vector core, round robin over all of them",
                   r.block_var));
  line("    const uint32_t stride = AscendC::GetBlockNum() * AscendC::GetTaskRatio();");
  line("    for (uint32_t item = AscendC::GetBlockIdx(); item < items_; item += stride) Block(item);");
  line("    mm.End();");
  line("    // Stage 2, once every core's blocks are in GM: this core's share of the rows, whole rows through the chain");
  line("    AscendC::SyncAll();");
  line("    const uint32_t per = (m_ + stride - 1) / stride, q0 = AscendC::GetBlockIdx() * per;");
  line("    const uint32_t q1 = q0 + per < m_ ? q0 + per : m_;");
  line("    for (uint32_t q = q0; q < q1; q += chunkRows_) Rows(q, q1 - q < chunkRows_ ? q1 - q : chunkRows_);");
  line("  }");
  line();
  kernel_members(k, o);
  for (const auto& t : k.tensors) line(fmt::format("  AscendC::GlobalTensor<{}> {}Gm_;", gm_type(k, t), camel_lower(t.name)));
  line(std::string("  AscendC::GlobalTensor<float> hWs_") + (r.x_to_f32 ? ", xWs_;" : ";"));
  if (r.x_to_f32) {
    line("  AscendC::TQue<AscendC::TPosition::VECIN, 1> xIn_;");
    line("  AscendC::TQue<AscendC::TPosition::VECOUT, 1> xOut_;");
  }
  line("  AscendC::TQue<AscendC::TPosition::VECIN, 1> hIn_;");
  line("  AscendC::TQue<AscendC::TPosition::VECOUT, 1> yOut_;");
  line(std::string("  AscendC::TBuf<AscendC::TPosition::VECCALC> work_, bwork_") + (needs_max(r) ? ", colMax_" : "") +
       (needs_sum(r) ? ", colSum_" : "") + (r.reduced ? ", col_" : "") + (needs_math(r) ? ", math_" : "") + ";");
  if (bias >= 0) {
    line("  AscendC::TQue<AscendC::TPosition::VECIN, 1> biasIn_;");
    line("  AscendC::TBuf<AscendC::TPosition::VECCALC> biasRow_;");
  }
  line("  uint32_t m_ = 0, n_ = 0, k_ = 0, blockM_ = 0, blockN_ = 0, nBlocks_ = 1, items_ = 0, chunkRows_ = 1, npad_ = 16;");
  for (int i = 0; i < nscale; ++i) line(fmt::format("  float scale{}_ = 1.0f;", i));
  line("};");
  line();
  line(fmt::format("extern \"C\" __global__ __aicore__ void {}({}GM_ADDR workspace, GM_ADDR tiling) {{",
                   k.kernel_symbol, params));
  line("  GET_TILING_DATA(tilingData, tiling);");
  line("  // The Matmul object makes this a MIX kernel: each cube core serves the vector cores of its block. No early");
  line("  // return for cores without a block of H: every vector core meets the others at the SyncAll.");
  line("  AscendC::TPipe pipe;");
  line(fmt::format("  {}<DTYPE_{}> op;", cls, upper(k.tensors[r.x].name)));
  line("  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.mm, &tilingData.mmTiling);   // before InitBuffer");
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
  field("uint32_t", "m", "rows of x");
  field("uint32_t", "n", "columns of the product (the whole row)");
  field("uint32_t", "k", "the reduced dim of the product");
  field("uint32_t", "blockM", "rows of H per work item");
  field("uint32_t", "blockN", "columns of H per work item");
  field("uint32_t", "nBlocks", "column blocks: ceil(n / blockN)");
  field("uint32_t", "items", "work items: ceil(m / blockM) * nBlocks");
  field("uint32_t", "chunkRows", "rows per UB chunk");
  field("uint32_t", "npad", "UB row stride (n rounded up to 16)");
  field("uint64_t", "xOffset", "bytes of H [m, n] in f32 at the workspace's start: the cores' slots follow");
  field("uint32_t", "wsBytes", "bytes of one vector core's slot: x's block in f32 (a half x with an f32 weight)");
  int i = 0;
  for (const RowOp& op : k.row_mm->ops)
    if (op.kind == RowOp::Scale) field("float", "scale" + std::to_string(i++), op.text);
  o += "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);   // H = X W of one block\n";
  o += tiling_header_close(k);
  return o;
}

// --- host ---------------------------------------------------------------------------------------------------
std::string host(const Kernel& k) {
  const RowMatmul& r = *k.row_mm;
  const int bias = bias_tensor(r);
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} host side, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  line("// Tiling: blocks of up to 128 rows of H (the weight is read once per block of rows), its columns split until every");
  line("// vector core has a block; one Matmul tiling for H = X W [blockM, blockN, k] inside [m, n, k]; H [m, n] in the");
  line("// workspace; UB chunks of whole rows.");
  cube_host_open(k, true, line);
  cube_host_dims(k, line);
  for (size_t i = 0; i < k.attrs.size(); ++i) {
    const AttrArg& at = k.attrs[i];
    const char* t = at.type == DType::F32 ? "float" : at.type == DType::I32 ? "int64_t" : "bool";
    line(fmt::format("  const {}* attr{}Ptr = context->GetAttrs()->GetAttrPointer<{}>({});", t, i, t, i));
    line(fmt::format("  if (attr{}Ptr == nullptr) return ge::GRAPH_FAILED;", i));
  }
  line(fmt::format("  const uint64_t m = {}, n = {}, k = {};", sym_var(k, r.m_sym), sym_var(k, r.n_sym), sym_var(k, r.k_sym)));
  line("  if (m > 0x7fffffff || n > 0xffff || k > 0x7fffffff) return ge::GRAPH_FAILED;");
  line(fmt::format("  const ge::DataType dt = context->GetInputDesc({})->GetDataType();", input_index(k, r.x)));
  if (r.x_to_f32) line("  const matmul_tiling::DataType inType = matmul_tiling::DataType::DT_FLOAT;   // x converted: the weight is f32");
  else line("  const matmul_tiling::DataType inType = CubeType(dt);");
  line("  const uint32_t aicNum = platform.GetCoreNumAic(), aivNum = platform.GetCoreNumAiv();");
  line(fmt::format("  {}TilingData tiling;", k.op_type));
  int i = 0;
  for (const RowOp& op : r.ops)
    if (op.kind == RowOp::Scale) line(fmt::format("  tiling.set_scale{}(static_cast<float>({}));   // {}", i++, op.host_expr, op.text));
  line("  uint64_t items = 0;");
  line("  if (m > 0 && n > 0 && k > 0) {");
  line("    // blocks of up to 128 rows (a multiple of 16): the weight is read once per block of rows");
  line("    uint64_t blockM = m < 128 ? (m + 15) / 16 * 16 : 128;");
  line("    blockM = blockM > m ? m : blockM;");
  line("    const uint64_t mBlocks = (m + blockM - 1) / blockM;");
  line("    // then H's columns in blocks (multiples of 16, at least 128) until every vector core has one");
  line("    uint64_t blockN = n;");
  line("    if (mBlocks < aivNum) {");
  line("      const uint64_t want = (aivNum + mBlocks - 1) / mBlocks;");
  line("      blockN = ((n + want - 1) / want + 15) / 16 * 16;");
  line("      blockN = blockN < 128 ? 128 : blockN;");
  line("      blockN = blockN > n ? n : blockN;");
  line("    }");
  line("    const uint64_t nBlocks = (n + blockN - 1) / blockN;");
  line("    const uint64_t npad = (n + 15) / 16 * 16;");
  line("    uint64_t ub = 0;");
  line("    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);");
  line("    // UB per chunk row: H in f32 and the output (queues), the reduction's 256 B, a broadcast block, three columns");
  line("    const uint64_t perRow = npad * (4 + 4) + 256 + 32 + 12;");
  line(fmt::format("    const uint64_t fixed = 16 * 1024 + (npad * 4 > 8160 ? 8192 : 0){}{}{};",
                   needs_math(r) ? " + 4096" : "", bias >= 0 ? " + npad * 8 + 1024" : "",
                   r.x_to_f32 ? " + 4096 * 6 + 512" : ""));
  line("    uint64_t chunkRows = ub > fixed + perRow ? (ub - fixed) / perRow : 0;");
  line("    if (chunkRows == 0) return ge::GRAPH_FAILED;   // a row does not fit in UB");
  line("    chunkRows = chunkRows > m ? m : chunkRows;");
  host_matmul("mmH", "inType", r.w_trans, "matmul_tiling::DataType::DT_FLOAT", "blockM", "blockN", "k", "m", line, "n");
  line("    if (mmH.GetTiling(tiling.mmTiling) == -1) return ge::GRAPH_FAILED;");
  line("    tiling.set_blockM(static_cast<uint32_t>(blockM));");
  line("    tiling.set_blockN(static_cast<uint32_t>(blockN));");
  line("    tiling.set_nBlocks(static_cast<uint32_t>(nBlocks));");
  line("    tiling.set_chunkRows(static_cast<uint32_t>(chunkRows));");
  line("    tiling.set_npad(static_cast<uint32_t>(npad));");
  line("    tiling.set_xOffset((m * n * 4 + 511) / 512 * 512);   // after H [m, n] in f32");
  if (r.x_to_f32)   // only a half x is converted: a float32 x is read as it is
    line("    tiling.set_wsBytes(static_cast<uint32_t>(dt == ge::DT_FLOAT ? 0 : (blockM * k * 4 + 511) / 512 * 512));");
  else line("    tiling.set_wsBytes(0);");
  line("    items = mBlocks * nBlocks;");
  line("  }");
  line("  tiling.set_m(static_cast<uint32_t>(m));");
  line("  tiling.set_n(static_cast<uint32_t>(n));");
  line("  tiling.set_k(static_cast<uint32_t>(k));");
  line("  tiling.set_items(static_cast<uint32_t>(items));");
  line("  // the blocks of H, and at least a row each in stage 2");
  line("  const uint64_t want = items > m ? items : m, usedCores = want == 0 ? 1 : want < aivNum ? want : aivNum;");
  line("  context->SetBlockDim(platform.CalcTschBlockDim(static_cast<uint32_t>(usedCores), aicNum, aivNum));");
  line("  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());");
  line("  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());");
  line("  size_t* workspace = context->GetWorkspaceSizes(1);");
  line("  // the Matmul API's system workspace, then H [m, n] in f32, then a slot per vector core (x's block in f32)");
  line("  workspace[0] = platform.GetLibApiWorkSpaceSize() + tiling.get_xOffset() + static_cast<size_t>(aivNum) * "
       "tiling.get_wsBytes();");
  line("  return ge::GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace optiling");
  line();
  line("namespace ge {");
  line("static ge::graphStatus InferShape(gert::InferShapeContext* context) {");
  line(fmt::format("  const gert::Shape* x = context->GetInputShape({});", input_index(k, r.x)));
  line(fmt::format("  gert::Shape* out = context->GetOutputShape(0);   // {}: x's rows, then {}", k.tensors[r.y].name,
                   r.reduced ? "1" : "the weight's " + k.syms[r.n_sym].name));
  line("  *out = *x;");
  if (r.reduced) line("  out->SetDim(x->GetDimNum() - 1, 1);");
  else {
    line(fmt::format("  const gert::Shape* w = context->GetInputShape({});", input_index(k, r.w)));
    line(fmt::format("  out->SetDim(x->GetDimNum() - 1, w->GetDim({}));", r.w_trans ? 0 : 1));
  }
  line("  return GRAPH_SUCCESS;");
  line("}");
  line();
  line("static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {");
  line(fmt::format("  context->SetOutputDataType(0, context->GetInputDataType({}));", input_index(k, r.x)));
  line("  return GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace ge");
  line();
  // one OpDef column per type of x; the tensors typed otherwise (an f32 weight or bias) keep their dtype
  const TypeOf& xt = k.tensors[r.x].type;
  const std::vector<DType> cols = xt.var >= 0 ? k.dtype_vars[xt.var].types : std::vector<DType>{xt.fixed};
  std::vector<std::vector<DType>> tensor_types;
  for (const TensorArg& t : k.tensors) {
    tensor_types.emplace_back();
    for (DType c : cols) tensor_types.back().push_back(t.type == xt ? c : t.type.fixed);
  }
  o += emit_op_def(k, tensor_types);
  return o;
}
}  // namespace

std::map<std::string, std::string> emit_row_matmul(const Kernel& k) {
  return project_files(k, kernel(k), tiling_header(k), host(k), emit_json(k));
}
}  // namespace kgen::tile
