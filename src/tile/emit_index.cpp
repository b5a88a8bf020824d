// emit (index programs): the op project of a gather or scatter driven by an integer index tensor. Each vector core
// takes a contiguous range of the rows the program writes; row numbers and offsets are read on the scalar unit (or
// turned into Gather's byte offsets on the vector unit), and the pipes are ordered with explicit flags.
#include <fmt/format.h>

#include "tile/emit.h"
#include "tile/index.h"

namespace kgen::tile {
namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// Helpers every index kernel shares: pipe ordering and contiguous moves of any length.
const char* kHelpers = R"(// Orders two pipes: what the first has issued so far is done before the second goes on.
template <AscendC::HardEvent E>
__aicore__ inline void Await(AscendC::TPipe& pipe) {
  const int32_t e = pipe.FetchEventID(E);
  AscendC::SetFlag<E>(e);
  AscendC::WaitFlag<E>(e);
}
// count contiguous elements GM -> UB and UB -> GM; DataCopyPad moves no byte past either end.
template <class T>
__aicore__ inline void CopyIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint32_t count) {
  AscendC::DataCopyPad(dst, src, AscendC::DataCopyExtParams(1, count * static_cast<uint32_t>(sizeof(T)), 0, 0, 0),
                       AscendC::DataCopyPadExtParams<T>(false, 0, 0, static_cast<T>(0)));
}
template <class T>
__aicore__ inline void CopyOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count) {
  AscendC::DataCopyPad(dst, src, AscendC::DataCopyExtParams(1, count * static_cast<uint32_t>(sizeof(T)), 0, 0, 0));
}
// a + b in T on the scalar unit (halves and bfloat16 through float32, rounded once).
template <class T> __aicore__ inline T AddValues(T a, T b) { return a + b; }
template <> __aicore__ inline half AddValues(half a, half b) {
  return static_cast<half>(static_cast<float>(a) + static_cast<float>(b));
}
template <> __aicore__ inline bfloat16_t AddValues(bfloat16_t a, bfloat16_t b) {
  return AscendC::ToBfloat16(AscendC::ToFloat(a) + AscendC::ToFloat(b));
}
)";

// take_rows: y[r, :] = x[index[r], :] (index_select along dim 0, embedding).
const char* kTakeRows = R"(  // Blocks of `block_` output rows: the block's row numbers come to UB, each names one row of x that is copied
  // GM -> UB (one DMA per index), and the block's rows go out with one strided copy.
  __aicore__ inline void Process() {
    AscendC::LocalTensor<I> idx = idxBuf_.Get<I>();
    AscendC::LocalTensor<T> rows = rowsBuf_.Get<T>();
    for (uint32_t b0 = begin_; b0 < end_; b0 += block_) {
      const uint32_t count = end_ - b0 < block_ ? end_ - b0 : block_;
      CopyIn(idx, indexGm_[b0], count);                       // @TEXT@
      Await<AscendC::HardEvent::MTE2_S>(pipe_);
      for (uint32_t i = 0; i < count; ++i) {
        const uint64_t row = static_cast<uint64_t>(idx.GetValue(i));
        CopyIn(rows[i * npad_], xGm_[row * n_], n_);           // the row the index names
      }
      Await<AscendC::HardEvent::MTE2_MTE3>(pipe_);
      kt::StoreRows(yGm_[static_cast<uint64_t>(b0) * n_], rows, count, n_, npad_);
      Await<AscendC::HardEvent::MTE3_MTE2>(pipe_);           // the next block's rows overwrite these
      Await<AscendC::HardEvent::S_MTE2>(pipe_);              // and its row numbers
    }
  }
)";

// gather: y[r, j] = x[r, index[r, j]] (torch.gather / take_along_dim along the last dim).
const char* kGather = R"(  // One row at a time: the row of x and its indices come to UB, the indices become Gather's byte offsets
  // (index * sizeof(T), u32), one Gather picks the elements, and the row of y goes out.
  __aicore__ inline void Process() {
    using G = typename std::conditional<std::is_same<T, bfloat16_t>::value, half, T>::type;   // Gather moves 2-byte lanes
    AscendC::LocalTensor<T> xRow = xBuf_.Get<T>();
    AscendC::LocalTensor<I> idx = idxBuf_.Get<I>();
    AscendC::LocalTensor<int32_t> off = offBuf_.Get<int32_t>();
    AscendC::LocalTensor<T> yRow = yBuf_.Get<T>();
    for (uint32_t r = begin_; r < end_; ++r) {
      CopyIn(xRow, xGm_[static_cast<uint64_t>(r) * n_], n_);
      CopyIn(idx, indexGm_[static_cast<uint64_t>(r) * g_], g_);
      Await<AscendC::HardEvent::MTE2_V>(pipe_);
      if constexpr (std::is_same<I, int64_t>::value) {        // int64 indices narrow exactly (a row is < 2^31 long)
        AscendC::Cast(off, idx, AscendC::RoundMode::CAST_NONE, g_);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(off, off, static_cast<int32_t>(sizeof(T)), g_);
      } else {
        AscendC::Muls(off, idx, static_cast<int32_t>(sizeof(T)), g_);
      }
      AscendC::PipeBarrier<PIPE_V>();
      // @TEXT@
      AscendC::Gather(yRow.template ReinterpretCast<G>(), xRow.template ReinterpretCast<G>(),
                      off.template ReinterpretCast<uint32_t>(), 0u, g_);
      Await<AscendC::HardEvent::V_MTE3>(pipe_);
      CopyOut(yGm_[static_cast<uint64_t>(r) * g_], yRow, g_);
      Await<AscendC::HardEvent::V_MTE2>(pipe_);              // the next row overwrites x and the indices
      Await<AscendC::HardEvent::MTE3_V>(pipe_);              // and the gathered row
    }
  }
)";

// scatter / scatter_add: y[r] = x[r]; y[r, index[r, j]] = (+=) src[r, j], j in order (duplicates accumulate in order).
const char* kScatter = R"(  // One row at a time: the row of x, its indices and its source values come to UB; the scalar unit writes
  // each source value at the column its index names, in index order; the row goes out.
  __aicore__ inline void Process() {
    AscendC::LocalTensor<T> row = rowBuf_.Get<T>();
    AscendC::LocalTensor<I> idx = idxBuf_.Get<I>();
    AscendC::LocalTensor<T> src = srcBuf_.Get<T>();
    for (uint32_t r = begin_; r < end_; ++r) {
      CopyIn(row, xGm_[static_cast<uint64_t>(r) * n_], n_);
      CopyIn(idx, indexGm_[static_cast<uint64_t>(r) * g_], g_);
      CopyIn(src, srcGm_[static_cast<uint64_t>(r) * g_], g_);
      Await<AscendC::HardEvent::MTE2_S>(pipe_);
      for (uint32_t j = 0; j < g_; ++j) {                      // @TEXT@
        const uint32_t c = static_cast<uint32_t>(idx.GetValue(j));
        row.SetValue(c, @VALUE@);
      }
      Await<AscendC::HardEvent::S_MTE3>(pipe_);
      CopyOut(yGm_[static_cast<uint64_t>(r) * n_], row, n_);
      Await<AscendC::HardEvent::MTE3_MTE2>(pipe_);           // the next row overwrites this one
      Await<AscendC::HardEvent::S_MTE2>(pipe_);              // and the indices and values just read
    }
  }
)";

// index_add: y = x; y[index[k], :] += alpha * src[k, :] over k in order, summed in float32.
const char* kIndexAdd = R"(  // Blocks of `block_` output rows held in float32: every index is read in order (in chunks), and each
  // that lands in the block adds alpha times its source row (Axpy); the block goes out rounded once.
  __aicore__ inline void Process() {
    constexpr bool kF32 = std::is_same<T, float>::value;
    AscendC::LocalTensor<float> acc = accBuf_.Get<float>();
    AscendC::LocalTensor<T> accT = kF32 ? acc.template ReinterpretCast<T>() : accTBuf_.Get<T>();
    AscendC::LocalTensor<float> srcF = srcBuf_.Get<float>();
    AscendC::LocalTensor<T> srcT = kF32 ? srcF.template ReinterpretCast<T>() : srcTBuf_.Get<T>();
    AscendC::LocalTensor<I> idx = idxBuf_.Get<I>();
    for (uint32_t b0 = begin_; b0 < end_; b0 += block_) {
      const uint32_t count = end_ - b0 < block_ ? end_ - b0 : block_;
      kt::LoadRows(accT, xGm_[static_cast<uint64_t>(b0) * n_], count, n_, npad_);
      Await<AscendC::HardEvent::MTE2_V>(pipe_);
      if constexpr (!kF32) AscendC::Cast(acc, accT, AscendC::RoundMode::CAST_NONE, count * npad_);
      AscendC::PipeBarrier<PIPE_V>();
      for (uint32_t c0 = 0; c0 < g_; c0 += chunk_) {
        const uint32_t cnt = g_ - c0 < chunk_ ? g_ - c0 : chunk_;
        CopyIn(idx, indexGm_[c0], cnt);
        Await<AscendC::HardEvent::MTE2_S>(pipe_);
        for (uint32_t j = 0; j < cnt; ++j) {
          const int64_t t = static_cast<int64_t>(idx.GetValue(j)) - static_cast<int64_t>(b0);
          if (t < 0 || t >= static_cast<int64_t>(count)) continue;   // another block's row
          CopyIn(srcT, srcGm_[static_cast<uint64_t>(c0 + j) * n_], n_);
          Await<AscendC::HardEvent::MTE2_V>(pipe_);
          if constexpr (!kF32) {
            AscendC::Cast(srcF, srcT, AscendC::RoundMode::CAST_NONE, n_);
            AscendC::PipeBarrier<PIPE_V>();
          }
          // @TEXT@
          AscendC::Axpy(acc[static_cast<uint32_t>(t) * npad_], srcF, static_cast<float>(alpha_), static_cast<int32_t>(n_));
          AscendC::PipeBarrier<PIPE_V>();
          Await<AscendC::HardEvent::V_MTE2>(pipe_);            // the next source row overwrites this one
        }
        Await<AscendC::HardEvent::S_MTE2>(pipe_);              // the next chunk overwrites these indices
      }
      if constexpr (!kF32) AscendC::Cast(accT, acc, AscendC::RoundMode::CAST_RINT, count * npad_);
      Await<AscendC::HardEvent::V_MTE3>(pipe_);
      kt::StoreRows(yGm_[static_cast<uint64_t>(b0) * n_], accT, count, n_, npad_);
      Await<AscendC::HardEvent::MTE3_MTE2>(pipe_);
      Await<AscendC::HardEvent::MTE3_V>(pipe_);
    }
  }
)";


// argmax / argmin along an axis chosen at run time: y[o, i] = the first j with x[o, j, i] extreme (torch's ties).
const char* kArgReduce = R"(template <typename T>
class @CLS@ {
 public:
  __aicore__ inline @CLS@() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const @TD@& tiling) {
    r_ = tiling.n;
    inner_ = tiling.g;
    items_ = tiling.items;
    block_ = tiling.block;
    chunk_ = tiling.chunk;
    begin_ = AscendC::GetBlockIdx() * tiling.perCore;   // this core's work items [begin_, end_)
    end_ = begin_ >= items_ ? begin_ : (items_ - begin_ < tiling.perCore ? items_ : begin_ + tiling.perCore);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(y));
    // row mode (inner == 1): blocks of whole rows of r; column mode: [r, chunk] slabs; rows padded to 256 bytes
    // of float so that whole-repeat compares and selects never reach the next row
    const uint32_t width = inner_ == 1 ? kt::AlignUp(r_, 64) : chunk_;
    const uint32_t units = inner_ == 1 ? block_ : r_;
    pad_ = width;
    pipe_.InitBuffer(xBuf_, kt::RoundUp256(units * width * sizeof(T)));
    if constexpr (!std::is_same<T, float>::value) pipe_.InitBuffer(fBuf_, kt::RoundUp256(units * width * sizeof(float)));
    pipe_.InitBuffer(workBuf_, kt::RoundUp256(inner_ == 1 ? (r_ + block_ * 8) * sizeof(float) : width * sizeof(float)));
    pipe_.InitBuffer(maskBuf_, kt::RoundUp256(width / 8));
    pipe_.InitBuffer(i32Buf_, kt::RoundUp256((inner_ == 1 ? block_ : width) * sizeof(int32_t)));
    pipe_.InitBuffer(outBuf_, kt::RoundUp256((inner_ == 1 ? block_ : width) * sizeof(int64_t)));
  }

  __aicore__ inline void Process() {
    if (inner_ == 1) RowMode();
    else ColumnMode();
  }

 private:
  // Blocks of rows: ReduceMax/ReduceMin with calIndex per row (the first extreme's index, as raw bits next to
  // the value), the indices read by the scalar unit and stored as int64.
  __aicore__ inline void RowMode() {
    AscendC::LocalTensor<T> xT = xBuf_.Get<T>();
    AscendC::LocalTensor<float> xF = Floats(xT);
    AscendC::LocalTensor<float> work = workBuf_.Get<float>();
    AscendC::LocalTensor<float> tmp = work, red = work[kt::AlignUp(r_, 8)];
    AscendC::LocalTensor<int64_t> out = outBuf_.Get<int64_t>();
    for (uint32_t b0 = begin_; b0 < end_; b0 += block_) {
      const uint32_t count = end_ - b0 < block_ ? end_ - b0 : block_;
      kt::LoadRows(xT, xGm_[static_cast<uint64_t>(b0) * r_], count, r_, pad_);
      Await<AscendC::HardEvent::MTE2_V>(pipe_);
      if constexpr (!std::is_same<T, float>::value) {
        kt::Convert(xF, xT, count * pad_);                   // compared in float32 (int32 exact below 2^24)
        AscendC::PipeBarrier<PIPE_V>();
      }
      for (uint32_t i = 0; i < count; ++i) {                 // @TEXT@
        AscendC::@REDUCE@(red[i * 8], xF[i * pad_], tmp, static_cast<int32_t>(r_), true);
        AscendC::PipeBarrier<PIPE_V>();
      }
      Await<AscendC::HardEvent::V_S>(pipe_);
      AscendC::LocalTensor<uint32_t> bits = red.template ReinterpretCast<uint32_t>();
      for (uint32_t i = 0; i < count; ++i) out.SetValue(i, static_cast<int64_t>(bits.GetValue(i * 8 + 1)));
      Await<AscendC::HardEvent::S_MTE3>(pipe_);
      CopyOut(yGm_[b0], out, count);
      Await<AscendC::HardEvent::MTE3_S>(pipe_);              // the next block's indices overwrite these
      Await<AscendC::HardEvent::S_V>(pipe_);                 // and its reductions the values just read
      Await<AscendC::HardEvent::V_MTE2>(pipe_);              // and its rows the ones just reduced
    }
  }

  // Work items (outer index, chunk of inner columns): the [r, cols] slab in one strided copy, a running extreme
  // down the rows kept in row 0 (strict compare: the first index wins ties) and its row number in float32.
  __aicore__ inline void ColumnMode() {
    const uint32_t chunks = (inner_ + chunk_ - 1) / chunk_;
    AscendC::LocalTensor<T> xT = xBuf_.Get<T>();
    AscendC::LocalTensor<float> xF = Floats(xT);
    AscendC::LocalTensor<float> idx = workBuf_.Get<float>();
    AscendC::LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
    AscendC::LocalTensor<int32_t> i32 = i32Buf_.Get<int32_t>();
    AscendC::LocalTensor<int64_t> out = outBuf_.Get<int64_t>();
    for (uint32_t item = begin_; item < end_; ++item) {
      const uint64_t o = item / chunks;
      const uint32_t c0 = item % chunks * chunk_;
      const uint32_t len = inner_ - c0 < chunk_ ? inner_ - c0 : chunk_;
      kt::LoadCols(xT, xGm_[o * r_ * inner_ + c0], r_, len, inner_, pad_);
      Await<AscendC::HardEvent::MTE2_V>(pipe_);
      if constexpr (!std::is_same<T, float>::value) {
        kt::Convert(xF, xT, r_ * pad_);
        AscendC::PipeBarrier<PIPE_V>();
      }
      AscendC::Duplicate(idx, 0.0f, static_cast<int32_t>(pad_));
      AscendC::PipeBarrier<PIPE_V>();
      for (uint32_t j = 1; j < r_; ++j) {                    // @TEXT@
        kt::Cmp(mask, xF[j * pad_], xF, AscendC::CMPMODE::@CMP@, len);
        AscendC::PipeBarrier<PIPE_V>();
        kt::Where(xF, mask, xF[j * pad_], xF, len);
        kt::WhereST(idx, mask, static_cast<float>(j), idx, len);
        AscendC::PipeBarrier<PIPE_V>();
      }
      AscendC::Cast(i32, idx, AscendC::RoundMode::CAST_RINT, len);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Cast(out, i32, AscendC::RoundMode::CAST_NONE, len);
      Await<AscendC::HardEvent::V_MTE3>(pipe_);
      CopyOut(yGm_[o * inner_ + c0], out, len);
      Await<AscendC::HardEvent::MTE3_V>(pipe_);              // the next item's indices overwrite these
      Await<AscendC::HardEvent::V_MTE2>(pipe_);              // and its slab this one
    }
  }

  __aicore__ inline AscendC::LocalTensor<float> Floats(const AscendC::LocalTensor<T>& xT) {
    if constexpr (std::is_same<T, float>::value) return xT;
    else return fBuf_.Get<float>();
  }

  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf_, fBuf_, workBuf_, maskBuf_, i32Buf_, outBuf_;
  AscendC::GlobalTensor<T> xGm_;
  AscendC::GlobalTensor<int64_t> yGm_;
  uint32_t r_ = 0, inner_ = 0, items_ = 0, block_ = 0, chunk_ = 0, pad_ = 0, begin_ = 0, end_ = 0;
};
)";

std::string cls_of(const Kernel& k) { return "Kernel" + k.op_type.substr(0, k.op_type.size() - 6); }

// --- kernel ---------------------------------------------------------------------------------------------------
std::string kernel(const Kernel& k) {
  const IndexOp& ix = k.ix;
  const std::string cls = cls_of(k), td = k.op_type + "TilingData";
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} kernel, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  if (!k.doc.empty()) line(doc_comment(k.doc));
  line(fmt::format("// An index program ({}): `for {} in tiles(...)`: store(..., {})", ix.kind, ix.loop_var, ix.text));
  line("#include <type_traits>");
  line();
  line("#include \"kernel_operator.h\"");
  line("#include \"kgen_tile.h\"");
  line();
  line("namespace kix {");
  o += kHelpers;
  line("}  // namespace kix");
  line("using kix::Await;");
  line("using kix::CopyIn;");
  line("using kix::CopyOut;");
  line();
  if (ix.kind == "argmax" || ix.kind == "argmin") {
    std::string body = replace_all(kArgReduce, "@CLS@", cls);
    body = replace_all(body, "@TD@", td);
    body = replace_all(body, "@TEXT@", ix.text);
    body = replace_all(body, "@REDUCE@", ix.kind == "argmax" ? "ReduceMax" : "ReduceMin");
    body = replace_all(body, "@CMP@", ix.kind == "argmax" ? "GT" : "LT");
    o += body;
    line();
    line(fmt::format("extern \"C\" __global__ __aicore__ void {}(GM_ADDR {}, GM_ADDR {}, GM_ADDR workspace, GM_ADDR tiling) {{",
                     k.kernel_symbol, camel_lower(k.tensors[ix.x].name), camel_lower(k.tensors[ix.y].name)));
    line("  GET_TILING_DATA(tilingData, tiling);");
    line(fmt::format("  {}<DTYPE_{}> op;", cls, upper(k.tensors[ix.x].name)));
    line(fmt::format("  op.Init({}, {}, tilingData);", camel_lower(k.tensors[ix.x].name), camel_lower(k.tensors[ix.y].name)));
    line("  op.Process();");
    line("}");
    return o;
  }
  std::vector<int> ins;
  for (size_t i = 0; i < k.tensors.size(); ++i)
    if (!k.tensors[i].output) ins.push_back(static_cast<int>(i));
  line("template <typename T, typename I>");
  line("class " + cls + " {");
  line(" public:");
  line(fmt::format("  __aicore__ inline {}() {{}}", cls));
  std::string params;
  for (int t : ins) params += "GM_ADDR " + camel_lower(k.tensors[t].name) + ", ";
  params += "GM_ADDR " + camel_lower(k.tensors[ix.y].name);
  line(fmt::format("  __aicore__ inline void Init({}, const {}& tiling) {{", params, td));
  line("    rows_ = tiling.rows;");
  line("    n_ = tiling.n;");
  line("    g_ = tiling.g;");
  line("    block_ = tiling.block;");
  line("    chunk_ = tiling.chunk;");
  line(fmt::format("    npad_ = kt::AlignUp(n_, {});   // UB rows padded to 32 bytes", ix.kind == "index_add" ? "16u" : "kt::kBlkElems<T>"));
  for (const AttrArg& a : k.attrs) line(fmt::format("    {}_ = tiling.attr_{};", camel_lower(a.name), a.name));
  line("    begin_ = AscendC::GetBlockIdx() * tiling.perCore;   // this core's rows [begin_, end_)");
  line("    end_ = begin_ >= rows_ ? begin_ : (rows_ - begin_ < tiling.perCore ? rows_ : begin_ + tiling.perCore);");
  auto gm = [&](int t, const std::string& type, const std::string& role) {   // members named by role
    line(fmt::format("    {}Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ {}*>({}));", role, type, camel_lower(k.tensors[t].name)));
  };
  gm(ix.x, "T", "x");
  gm(ix.index, "I", "index");
  if (ix.src >= 0) gm(ix.src, "T", "src");
  gm(ix.y, "T", "y");
  auto buf = [&](const std::string& name, const std::string& bytes) {
    line(fmt::format("    pipe_.InitBuffer({}_, kt::RoundUp256({}));", name, bytes));
  };
  std::vector<std::string> bufs;
  if (ix.kind == "take_rows") {
    bufs = {"idxBuf", "rowsBuf"};
    buf("idxBuf", "block_ * sizeof(I)");
    buf("rowsBuf", "block_ * npad_ * sizeof(T)");
  } else if (ix.kind == "gather") {
    bufs = {"xBuf", "idxBuf", "offBuf", "yBuf"};
    buf("xBuf", "n_ * sizeof(T)");
    buf("idxBuf", "g_ * sizeof(I)");
    buf("offBuf", "g_ * sizeof(int32_t)");
    buf("yBuf", "g_ * sizeof(T)");
  } else if (ix.kind == "index_add") {
    bufs = {"accBuf", "accTBuf", "srcBuf", "srcTBuf", "idxBuf"};
    buf("accBuf", "block_ * npad_ * sizeof(float)");
    line("    if constexpr (!std::is_same<T, float>::value) pipe_.InitBuffer(accTBuf_, kt::RoundUp256(block_ * npad_ * sizeof(T)));");
    buf("srcBuf", "npad_ * sizeof(float)");
    line("    if constexpr (!std::is_same<T, float>::value) pipe_.InitBuffer(srcTBuf_, kt::RoundUp256(npad_ * sizeof(T)));");
    buf("idxBuf", "chunk_ * sizeof(I)");
  } else {
    bufs = {"rowBuf", "idxBuf", "srcBuf"};
    buf("rowBuf", "n_ * sizeof(T)");
    buf("idxBuf", "g_ * sizeof(I)");
    buf("srcBuf", "g_ * sizeof(T)");
  }
  line("  }");
  line();
  std::string body = ix.kind == "take_rows" ? kTakeRows : ix.kind == "gather" ? kGather
                     : ix.kind == "index_add"  ? kIndexAdd : kScatter;
  body = replace_all(body, "@TEXT@", ix.text);
  body = replace_all(body, "@VALUE@", ix.kind == "scatter_add" ? "kix::AddValues(row.GetValue(c), src.GetValue(j))"
                                                               : "src.GetValue(j)");
  if (ix.kind == "index_add") body = replace_all(body, "alpha_", ix.alpha);
  o += body;
  line();
  line(" private:");
  line("  AscendC::TPipe pipe_;");
  for (const std::string& b : bufs) line(fmt::format("  AscendC::TBuf<AscendC::TPosition::VECCALC> {}_;", b));
  auto gmdecl = [&](int t, const char* type, const char* role) {
    line(fmt::format("  AscendC::GlobalTensor<{}> {}Gm_;   // {}", type, role, k.tensors[t].name));
  };
  gmdecl(ix.x, "T", "x");
  gmdecl(ix.index, "I", "index");
  if (ix.src >= 0) gmdecl(ix.src, "T", "src");
  gmdecl(ix.y, "T", "y");
  line("  uint32_t rows_ = 0, n_ = 0, g_ = 0, block_ = 0, chunk_ = 0, npad_ = 0, begin_ = 0, end_ = 0;");
  for (const AttrArg& a : k.attrs) line(fmt::format("  float {}_ = 0;", camel_lower(a.name)));
  line("};");
  line();
  std::string args, call;
  for (const TensorArg& t : k.tensors) {
    args += "GM_ADDR " + camel_lower(t.name) + ", ";
    call += (call.empty() ? "" : ", ") + camel_lower(t.name);
  }
  line(fmt::format("extern \"C\" __global__ __aicore__ void {}({}GM_ADDR workspace, GM_ADDR tiling) {{", k.kernel_symbol,
                   args));
  line("  GET_TILING_DATA(tilingData, tiling);");
  line(fmt::format("  {}<DTYPE_{}, DTYPE_{}> op;", cls, upper(k.tensors[ix.x].name), upper(k.tensors[ix.index].name)));
  line(fmt::format("  op.Init({}, tilingData);", call));
  line("  op.Process();");
  line("}");
  return o;
}

std::string tiling_header(const Kernel& k) {
  std::string o = tiling_header_open(k, false);
  o += "BEGIN_TILING_DATA_DEF(" + k.op_type + "TilingData)\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, rows);      // the rows the program writes (split over the cores)\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, n);         // elements per row of x\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, g);         // indices per row (index_add: all of them)\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, perCore);   // rows per core\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, block);     // rows per UB block (take_rows, index_add)\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, chunk);     // indices per UB chunk (index_add), columns per chunk (argmax)\n";
  o += "TILING_DATA_FIELD_DEF(uint32_t, items);     // work items (argmax/argmin)\n";
  for (const AttrArg& a : k.attrs) o += "TILING_DATA_FIELD_DEF(float, attr_" + a.name + ");   // attr " + a.name + "\n";
  o += tiling_header_close(k);
  return o;
}

// --- host ---------------------------------------------------------------------------------------------------
// The host of argmax/argmin: outer, r and inner from the dim attr; row mode (inner == 1) blocks rows, column mode
// splits inner into chunks of up to 64 columns per work item.
std::string arg_host(const Kernel& k) {
  const IndexOp& ix = k.ix;
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} host side, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  line(fmt::format("// {} along the attr's dim: the work items (rows, or column chunks around the axis) are split over the", ix.kind));
  line("// vector cores.");
  line("#include \"" + k.kernel_symbol + "_tiling.h\"");
  line("#include \"register/op_def_registry.h\"");
  line("#include \"tiling/platform/platform_ascendc.h\"");
  line();
  line("namespace optiling {");
  line("static ge::graphStatus TilingFunc(gert::TilingContext* context) {");
  line("  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());");
  line("  uint64_t ub = 0;");
  line("  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);");
  line("  const uint64_t cores = platform.GetCoreNumAiv();");
  line("  const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();");
  line("  const ge::DataType dt = context->GetInputDesc(0)->GetDataType();");
  line("  const uint64_t es = (dt == ge::DT_FLOAT || dt == ge::DT_INT32) ? 4 : 2;");
  line("  const int64_t rank = static_cast<int64_t>(xs.GetDimNum());");
  line(fmt::format("  const int64_t* dimPtr = context->GetAttrs()->GetAttrPointer<int64_t>({});", ix.dim_attr < 0 ? 0 : ix.dim_attr));
  line("  if (dimPtr == nullptr || rank == 0) return ge::GRAPH_FAILED;");
  line("  const int64_t dim = *dimPtr < 0 ? *dimPtr + rank : *dimPtr;");
  line("  if (dim < 0 || dim >= rank) return ge::GRAPH_FAILED;   // out of range, as torch refuses it");
  line("  uint64_t outer = 1, inner = 1;");
  line("  for (int64_t d = 0; d < dim; ++d) outer *= static_cast<uint64_t>(xs.GetDim(d));");
  line("  for (int64_t d = dim + 1; d < rank; ++d) inner *= static_cast<uint64_t>(xs.GetDim(d));");
  line("  const uint64_t r = static_cast<uint64_t>(xs.GetDim(dim));");
  line("  if (r == 0 || r > (1u << 24)) return ge::GRAPH_FAILED;   // indices are counted in float32");
  line("  uint64_t items = 0, block = 1, chunk = 1;");
  line("  const uint64_t room = ub > 16384 ? ub - 16384 : 0;   // Select's scratch at the top of UB, flags, alignment");
  line("  if (inner == 1) {");
  line("    const uint64_t pad = (r + 63) / 64 * 64;");
  line("    // per row: the row in T and in float32, its (value, index) pair, its int32/int64 index");
  line("    const uint64_t fixed = pad * 4 + 1024;");
  line("    block = fixed >= room ? 0 : (room - fixed) / (pad * (es + 4) + 32 + 4 + 8);");
  line("    if (block > 1024) block = 1024;");
  line("    if (block == 0) return ge::GRAPH_FAILED;   // one row does not fit UB");
  line("    items = outer;");
  line("    const uint64_t perCoreRows = (items + cores - 1) / cores;");
  line("    if (perCoreRows > 0 && block > perCoreRows) block = perCoreRows;");
  line("  } else {");
  line("    chunk = 64;                                  // columns per work item: one 256-byte repeat of float32");
  line("    if (r * chunk * (es + 4) + chunk * 24 + 4096 > room) return ge::GRAPH_FAILED;   // the axis must fit UB");
  line("    items = outer * ((inner + chunk - 1) / chunk);");
  line("  }");
  line("  if (items > 0xffffffffull || inner > 0xffffffffull) return ge::GRAPH_FAILED;");
  line("  const uint64_t perCore = items == 0 ? 1 : (items + cores - 1) / cores;");
  line("  const uint64_t used = items == 0 ? 1 : (items + perCore - 1) / perCore;");
  line(fmt::format("  {}TilingData tiling;", k.op_type));
  line("  tiling.set_rows(static_cast<uint32_t>(outer));");
  line("  tiling.set_n(static_cast<uint32_t>(r));");
  line("  tiling.set_g(static_cast<uint32_t>(inner));");
  line("  tiling.set_items(static_cast<uint32_t>(items));");
  line("  tiling.set_perCore(static_cast<uint32_t>(perCore));");
  line("  tiling.set_block(static_cast<uint32_t>(block));");
  line("  tiling.set_chunk(static_cast<uint32_t>(chunk));");
  for (const AttrArg& a : k.attrs) line(fmt::format("  tiling.set_attr_{}(static_cast<float>({}));", a.name, a.name == "dim" ? "*dimPtr" : "0"));
  line("  context->SetBlockDim(static_cast<uint32_t>(used));");
  line("  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());");
  line("  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());");
  line("  size_t* workspace = context->GetWorkspaceSizes(1);");
  line("  workspace[0] = 0;");
  line("  return ge::GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace optiling");
  line();
  line("namespace ge {");
  line("static ge::graphStatus InferShape(gert::InferShapeContext* context) {");
  line("  const gert::Shape* xs = context->GetInputShape(0);");
  line("  gert::Shape* out = context->GetOutputShape(0);");
  line(fmt::format("  const int64_t* dimPtr = context->GetAttrs()->GetAttrPointer<int64_t>({});", ix.dim_attr < 0 ? 0 : ix.dim_attr));
  line("  if (dimPtr == nullptr) return GRAPH_FAILED;");
  line("  const int64_t rank = static_cast<int64_t>(xs->GetDimNum());");
  line("  const int64_t dim = *dimPtr < 0 ? *dimPtr + rank : *dimPtr;");
  bool keep = false;
  for (const Dim& d : k.tensors[ix.y].dims) keep |= (d.name.empty() && d.value == 1);
  line(fmt::format("  out->SetDimNum(0);   // x's dims without the reduced one{}", keep ? " (kept as 1)" : ""));
  line("  for (int64_t d = 0; d < rank; ++d)");
  line(keep ? "    out->AppendDim(d == dim ? 1 : xs->GetDim(d));" : "    if (d != dim) out->AppendDim(xs->GetDim(d));");
  line("  return GRAPH_SUCCESS;");
  line("}");
  line();
  line("static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {");
  line("  context->SetOutputDataType(0, ge::DT_INT64);");
  line("  return GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace ge");
  line();
  std::vector<std::vector<DType>> tensor_types;
  for (const TensorArg& t : k.tensors) {
    tensor_types.emplace_back();
    for (const auto& c : dtype_columns(k)) tensor_types.back().push_back(t.type.var >= 0 ? c[t.type.var] : t.type.fixed);
  }
  o += emit_op_def(k, tensor_types);
  return o;
}

std::string host(const Kernel& k) {
  if (k.ix.kind == "argmax" || k.ix.kind == "argmin") return arg_host(k);
  const IndexOp& ix = k.ix;
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  auto shape = [&](int t) { return fmt::format("context->GetInputShape({})->GetOriginShape()", input_index(k, t)); };
  auto size = [&](int t) { return fmt::format("context->GetInputDesc({})->GetDataType()", input_index(k, t)); };
  line(fmt::format("// {} host side, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  line(fmt::format("// An index program ({}): the rows it writes are split evenly over the vector cores.", ix.kind));
  line("#include \"" + k.kernel_symbol + "_tiling.h\"");
  line("#include \"register/op_def_registry.h\"");
  line("#include \"tiling/platform/platform_ascendc.h\"");
  line();
  line("namespace optiling {");
  line("static uint64_t Numel(const gert::Shape& s) {");
  line("  uint64_t p = 1;");
  line("  for (size_t d = 0; d < s.GetDimNum(); ++d) p *= static_cast<uint64_t>(s.GetDim(d));");
  line("  return p;");
  line("}");
  line("static uint64_t Bytes(ge::DataType t) {");
  line("  return t == ge::DT_INT64 ? 8 : (t == ge::DT_FLOAT || t == ge::DT_INT32) ? 4 : 2;");
  line("}");
  line("static uint64_t Align32(uint64_t b) { return (b + 31) / 32 * 32; }");
  line("static uint64_t Ub256(uint64_t b) { return (b + 255) / 256 * 256 + 256; }");
  line();
  line("static ge::graphStatus TilingFunc(gert::TilingContext* context) {");
  line("  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());");
  line("  uint64_t ub = 0;");
  line("  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);");
  line("  const uint64_t cores = platform.GetCoreNumAiv();");
  line(fmt::format("  const gert::Shape& xs = {};", shape(ix.x)));
  line(fmt::format("  const gert::Shape& is = {};", shape(ix.index)));
  line(fmt::format("  const uint64_t es = Bytes({}), is8 = Bytes({});   // bytes of a value, of an index", size(ix.x),
                   size(ix.index)));
  line("  if (xs.GetDimNum() < 1) return ge::GRAPH_FAILED;");
  line("  const uint64_t n = static_cast<uint64_t>(xs.GetDim(xs.GetDimNum() - 1));");
  line(fmt::format("  {}TilingData tiling;", k.op_type));
  line("  uint64_t rows = 0, g = 0, block = 1, chunk = 1, need = 0;");
  std::string dim_ok;   // the dims the program implements
  if (ix.kind == "take_rows") {
    line("  rows = Numel(is);                                  // one output row per index");
    line("  // block rows of x and their row numbers per UB block");
    line("  block = (ub - 2048) / (Align32(n * es) + is8);");
    line("  if (block > 4095) block = 4095;");
    line("  need = block == 0 ? ub + 1 : 0;");
    dim_ok = "dim == 0 || dim == -static_cast<int64_t>(xs.GetDimNum())";
  } else if (ix.kind == "index_add") {
    line("  rows = n == 0 ? 0 : Numel(xs) / n;                 // the output's rows");
    line("  g = Numel(is);                                     // every index is read by every core");
    line(fmt::format("  if (Numel({}) != g * n) return ge::GRAPH_FAILED;   // src is [len(index), n]", shape(ix.src)));
    line("  chunk = g < 1024 ? (g == 0 ? 1 : g) : 1024;");
    line("  const uint64_t npad = (n + 15) / 16 * 16, fixed = Ub256(chunk * is8) + 2 * Ub256(npad * 4) + 2048;");
    line("  block = fixed >= ub ? 0 : (ub - fixed) / (npad * (4 + es));");
    line("  if (block > 4095) block = 4095;");
    line("  need = block == 0 ? ub + 1 : 0;");
    dim_ok = "";
  } else {
    line("  g = static_cast<uint64_t>(is.GetDim(is.GetDimNum() - 1));   // indices per row");
    line("  rows = g == 0 ? 0 : Numel(is) / g;");
    line("  if (n == 0 || Numel(xs) / n != rows) return ge::GRAPH_FAILED;   // one row of x per row of the index");
    if (ix.src >= 0) line(fmt::format("  if (Numel({}) != rows * g) return ge::GRAPH_FAILED;   // src is shaped like the index", shape(ix.src)));
    line("  need = Ub256(n * es) + Ub256(g * is8) + Ub256(g * 4) + Ub256(g * es);   // one row of each");
    dim_ok = "dim == -1 || dim == static_cast<int64_t>(xs.GetDimNum()) - 1";
  }
  line("  if (need > ub || rows > 0xffffffffull || n > 0xffffffffull || g > 0xffffffffull) return ge::GRAPH_FAILED;");
  for (size_t a = 0; a < k.attrs.size(); ++a) {
    const AttrArg& at = k.attrs[a];
    const char* t = at.type == DType::F32 ? "float" : at.type == DType::I32 ? "int64_t" : "bool";
    line(fmt::format("  const {}* attr{}Ptr = context->GetAttrs()->GetAttrPointer<{}>({});", t, a, t, a));
    line(fmt::format("  if (attr{}Ptr == nullptr) return ge::GRAPH_FAILED;", a));
    line(fmt::format("  tiling.set_attr_{}(static_cast<float>(*attr{}Ptr));", at.name, a));
    if (static_cast<int>(a) == ix.dim_attr && !dim_ok.empty()) {
      line(fmt::format("  {{  // the program {} along one dim only", ix.kind == "take_rows" ? "takes rows" : "works"));
      line(fmt::format("    const int64_t dim = *attr{}Ptr;", a));
      line(fmt::format("    if (!({})) return ge::GRAPH_FAILED;", dim_ok));
      line("  }");
    }
  }
  line("  const uint64_t perCore = rows == 0 ? 1 : (rows + cores - 1) / cores;");
  line("  const uint64_t used = rows == 0 ? 1 : (rows + perCore - 1) / perCore;");
  line("  tiling.set_rows(static_cast<uint32_t>(rows));");
  line("  tiling.set_n(static_cast<uint32_t>(n));");
  line("  tiling.set_g(static_cast<uint32_t>(g));");
  line("  tiling.set_perCore(static_cast<uint32_t>(perCore));");
  line("  tiling.set_block(static_cast<uint32_t>(block));");
  line("  tiling.set_chunk(static_cast<uint32_t>(chunk));");
  line("  context->SetBlockDim(static_cast<uint32_t>(used));");
  line("  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());");
  line("  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());");
  line("  size_t* workspace = context->GetWorkspaceSizes(1);");
  line("  workspace[0] = 0;");
  line("  return ge::GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace optiling");
  line();
  line("namespace ge {");
  line("static ge::graphStatus InferShape(gert::InferShapeContext* context) {");
  line("  gert::Shape* out = context->GetOutputShape(0);");
  if (ix.kind == "take_rows" || ix.kind == "gather") {
    line(fmt::format("  const gert::Shape* is = context->GetInputShape({});   // shaped like the index", input_index(k, ix.index)));
    line("  *out = *is;");
    if (ix.kind == "take_rows") {
      line(fmt::format("  const gert::Shape* xs = context->GetInputShape({});   // then a row of x", input_index(k, ix.x)));
      line("  out->AppendDim(xs->GetDim(xs->GetDimNum() - 1));");
    }
  } else {
    line(fmt::format("  *out = *context->GetInputShape({});   // shaped like x", input_index(k, ix.x)));
  }
  line("  return GRAPH_SUCCESS;");
  line("}");
  line();
  line("static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {");
  line(fmt::format("  context->SetOutputDataType(0, context->GetInputDataType({}));", input_index(k, ix.x)));
  line("  return GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace ge");
  line();
  std::vector<std::vector<DType>> tensor_types;
  for (const TensorArg& t : k.tensors) {
    tensor_types.emplace_back();
    for (const auto& c : dtype_columns(k)) tensor_types.back().push_back(t.type.var >= 0 ? c[t.type.var] : t.type.fixed);
  }
  o += emit_op_def(k, tensor_types);
  return o;
}
}  // namespace

std::map<std::string, std::string> emit_index(const Kernel& k) {
  return project_files(k, kernel(k), tiling_header(k), host(k), emit_json(k));
}
}  // namespace kgen::tile
