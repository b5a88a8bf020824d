// Helpers of the convolutions that `kgen tile compile` lowers to the cube (docs/tile-language.md, "Convolutions"):
// im2col then one GEMM per batch. Stage 1 (kt::Conv::Unfold, kgen_conv.h) writes col[n] = [cin * taps, P] in T to a
// GM workspace (a 1x1, stride-1, unpadded conv skips it: x[n] is already [cin, P]); after a SyncAll, stage 2 here
// computes y[n] = W [cout, cin * taps] @ col[n] on the cube through the Matmul API, base block by base block into UB
// in float32, where the bias (one value per output channel, a row of the block) and the program's epilogue run on
// the vector core before the block goes out converted to T. The weight tensor [cout, cin, taps] is already A; a
// transposed conv's weight [cin, cout, taps] is rearranged into A in the workspace first (PermuteTransposedWeight),
// an avg-pooled conv's taps are folded into A there (FoldPooledWeight).
#ifndef KT_CONV_GEMM_H
#define KT_CONV_GEMM_H
#include "lib/matmul_intf.h"
#include "kgen_conv.h"

namespace kt {

// nn.ConvTranspose's weight [ci, co, taps] rearranged into the GEMM's A = [co, ci * taps] (GM to GM through UB): per
// input channel one load of its [co, taps] rows and one strided store, the channels round robin over the cores.
template <class T>
__aicore__ inline void PermuteTransposedWeight(AscendC::TPipe& pipe, const ConvGeom& g, GM_ADDR w, GM_ADDR a) {
  constexpr uint32_t kBytes = 64 * 1024;
  AscendC::GlobalTensor<T> wGm, aGm;
  wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w));
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a));
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kBytes);
  AscendC::LocalTensor<T> b = buf.Get<T>();
  const uint32_t taps = g.kd * g.kh * g.kw, rowBytes = taps * static_cast<uint32_t>(sizeof(T));
  uint32_t per = kBytes / ((rowBytes + 31) / 32 * 32);   // UB rows start on 32-byte blocks
  if (per > 4095) per = 4095;                              // DataCopyPad's blockCount
  const uint32_t stride = AscendC::GetBlockNum() * AscendC::GetTaskRatio();
  for (uint32_t ci = AscendC::GetBlockIdx(); ci < g.cin; ci += stride)
    for (uint32_t co0 = 0; co0 < g.cout; co0 += per) {
      const uint16_t rows = static_cast<uint16_t>(g.cout - co0 < per ? g.cout - co0 : per);
      AscendC::PipeBarrier<PIPE_ALL>();   // the previous store has read b
      AscendC::DataCopyPad(b, wGm[(uint64_t(ci) * g.cout + co0) * taps], AscendC::DataCopyExtParams(rows, rowBytes, 0, 0, 0),
                           AscendC::DataCopyPadExtParams<T>(false, 0, 0, static_cast<T>(0)));
      AscendC::PipeBarrier<PIPE_ALL>();   // b is loaded
      AscendC::DataCopyPad(aGm[(uint64_t(co0) * g.cin + ci) * taps], b,
                           AscendC::DataCopyExtParams(rows, rowBytes, 0, (g.cin - 1) * rowBytes, 0));
    }
  AscendC::PipeBarrier<PIPE_ALL>();
}

// avg_pool(conv(x), P) as one conv (the vector lowering's FoldPool): A[co, ci, a, b] = the mean of the P x P weight taps
// that output tap (a, b) covers, a < kh = wkh + P - 1. One (co, ci) plane per step, the planes round robin over the
// cores: its taps to float32 in UB, the folded taps summed on the scalar unit, converted to T and stored.
template <class T>
__aicore__ inline void FoldPooledWeight(AscendC::TPipe& pipe, const ConvGeom& g, GM_ADDR w, GM_ADDR a) {
  AscendC::GlobalTensor<T> wGm, aGm;
  wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w));
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a));
  const uint32_t raw = g.wkh * g.wkw, taps = g.kh * g.kw;
  AscendC::TBuf<AscendC::TPosition::VECCALC> rawT, rawF, outF, outT;
  pipe.InitBuffer(rawT, RoundUp256(uint64_t(raw) * sizeof(T)));
  pipe.InitBuffer(rawF, RoundUp256(uint64_t(raw) * 4));
  pipe.InitBuffer(outF, RoundUp256(uint64_t(taps) * 4));
  pipe.InitBuffer(outT, RoundUp256(uint64_t(taps) * sizeof(T)));
  AscendC::LocalTensor<float> r = rawF.Get<float>(), o = outF.Get<float>();
  const float inv = 1.0f / static_cast<float>(g.pool * g.pool);
  const uint32_t stride = AscendC::GetBlockNum() * AscendC::GetTaskRatio();
  for (uint32_t plane = AscendC::GetBlockIdx(); plane < g.cout * g.cin; plane += stride) {
    AscendC::PipeBarrier<PIPE_ALL>();   // the previous plane's store has read outT
    LoadFlat(rawT.Get<T>(), wGm[uint64_t(plane) * raw], raw);
    AscendC::PipeBarrier<PIPE_ALL>();
    Convert(r, rawT.Get<T>(), raw);
    AscendC::PipeBarrier<PIPE_ALL>();   // the scalar unit reads r next
    for (uint32_t ta = 0; ta < g.kh; ++ta)
      for (uint32_t tb = 0; tb < g.kw; ++tb) {
        float sum = 0.0f;
        for (uint32_t u = 0; u < g.pool; ++u)
          for (uint32_t v = 0; v < g.pool; ++v)
            if (ta >= u && tb >= v && ta - u < g.wkh && tb - v < g.wkw) sum += r.GetValue((ta - u) * g.wkw + (tb - v));
        o.SetValue(ta * g.kw + tb, sum * inv);
      }
    AscendC::PipeBarrier<PIPE_ALL>();
    Convert(outT.Get<T>(), o, taps);
    AscendC::PipeBarrier<PIPE_ALL>();
    StoreFlat(aGm[uint64_t(plane) * taps], outT.Get<T>(), taps);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}

template <class T>
class ConvGemm {
 public:
  using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T, false>;
  using BType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T, false>;
  using CType = AscendC::MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;   // blocks into UB
  using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<AType, BType, CType, BiasType> mm;

  // mBlocks x nBlocks blocks of [singleCoreM, singleCoreN] per batch; items = n * mBlocks * nBlocks.
  __aicore__ inline void Init(AscendC::TPipe& pipe, const ConvGeom& g, const TCubeTiling& ct, uint32_t mBlocks,
                              uint32_t nBlocks, GM_ADDR w, GM_ADDR bias, GM_ADDR col, GM_ADDR y) {
    g_ = g;
    m_ = ct.M;
    n_ = ct.N;
    k_ = ct.Ka;
    blockM_ = ct.singleCoreM;
    blockN_ = ct.singleCoreN;
    baseM_ = ct.baseM;
    baseN_ = ct.baseN;
    order_ = ct.iterateOrder;
    mBlocks_ = mBlocks;
    nBlocks_ = nBlocks;
    wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w));
    colGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(col));
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
    if (bias != nullptr && g.hasBias) bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(bias));
    const uint32_t block = baseM_ * baseN_;
    pipe.InitBuffer(cQueue_, 1, block * sizeof(float));
    pipe.InitBuffer(outQueue_, 1, RoundUp256(uint64_t(block) * sizeof(T)));
    pipe.InitBuffer(act_, block * sizeof(float));
    pipe.InitBuffer(math_, kMathTmpBytes);
    pipe.InitBuffer(chanT_, RoundUp256(uint64_t(g.cout) * sizeof(T)));
    pipe.InitBuffer(bF_, RoundUp256(uint64_t(g.cout) * 4));
    pipe.InitBuffer(eF_, RoundUp256(uint64_t(g.cout) * 4));
    pipe.InitBuffer(work_, RowBroadcastWorkElems<float>(baseM_) * 4);
  }
  // A per-output-channel vector of the epilogue (a [cout, 1, 1] bias), staged in float32 by Prepare.
  __aicore__ inline void SetChannelVector(GM_ADDR v) {
    eGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(v));
    hasExtra_ = true;
  }
  // Once per core: the bias and the channel vector to float32 in UB.
  __aicore__ inline void Prepare() {
    if (g_.hasBias) Stage(bF_.Get<float>(), bGm_);
    if (hasExtra_) Stage(eF_.Get<float>(), eGm_);
  }
  __aicore__ inline uint32_t ItemCount() const { return g_.n * mBlocks_ * nBlocks_; }

  // Points the Matmul at item's block: output channels [m0, + tailM) x positions [n0, + tailN) of one batch.
  __aicore__ inline void Begin(uint32_t item) {
    const uint32_t perBatch = mBlocks_ * nBlocks_;
    batch_ = item / perBatch;
    const uint32_t mIdx = item % perBatch % mBlocks_, nIdx = item % perBatch / mBlocks_;
    m0_ = uint64_t(mIdx) * blockM_;
    n0_ = uint64_t(nIdx) * blockN_;
    tailM_ = m_ - m0_ < uint64_t(blockM_) ? static_cast<uint32_t>(m_ - m0_) : blockM_;
    tailN_ = n_ - n0_ < uint64_t(blockN_) ? static_cast<uint32_t>(n_ - n0_) : blockN_;
    mm.SetTensorA(wGm_[m0_ * k_], false);
    mm.SetTensorB(colGm_[batch_ * k_ * n_ + n0_], false);
    mm.SetTail(static_cast<int32_t>(tailM_), static_cast<int32_t>(tailN_));
    mIter_ = (tailM_ + baseM_ - 1) / baseM_;
    nIter_ = (tailN_ + baseN_ - 1) / baseN_;
    count_ = 0;
  }
  // The next base block in UB: acc[r * Lr() + j] = sum of output channel r0 + r at position c0 + j,
  // bias included; false after the item's last block.
  __aicore__ inline bool Next() {
    if (!mm.Iterate()) return false;
    const uint32_t mi = order_ == 0 ? count_ % mIter_ : count_ / nIter_;
    const uint32_t ni = order_ == 0 ? count_ / mIter_ : count_ % nIter_;
    ++count_;
    rows_ = tailM_ - mi * baseM_ < baseM_ ? tailM_ - mi * baseM_ : baseM_;
    cols_ = tailN_ - ni * baseN_ < baseN_ ? tailN_ - ni * baseN_ : baseN_;
    sf_ = PadRow<float>(cols_);
    r0_ = static_cast<uint32_t>(m0_ + mi * baseM_);
    c0_ = n0_ + ni * baseN_;
    acc_ = cQueue_.AllocTensor<float>();
    mm.GetTensorC(acc_);
    cQueue_.EnQue(acc_);
    acc_ = cQueue_.DeQue<float>();
    if (g_.hasBias) AddPerChannel(bF_.Get<float>());
    return true;
  }
  // + the epilogue's per-channel input: each row of the block gets its channel's value.
  __aicore__ inline void AddChannelVector() { AddPerChannel(eF_.Get<float>()); }
  __aicore__ inline AscendC::LocalTensor<float> Acc() { return acc_; }
  __aicore__ inline uint32_t GroupSize() const { return rows_; }   // rows of the block: output channels
  __aicore__ inline uint32_t Lr() const { return sf_; }            // floats from one row to the next
  __aicore__ inline AscendC::LocalTensor<float> Scratch() { return act_.Get<float>(); }
  __aicore__ inline AscendC::LocalTensor<uint8_t> MathTmp() { return math_.Get<uint8_t>(); }

  // The block (after the epilogue) to y[batch][r0 + r][c0 + j], converted to T; only its columns go out.
  __aicore__ inline void Store() {
    AscendC::LocalTensor<T> out = outQueue_.AllocTensor<T>();
    const uint32_t so = PadRow<T>(cols_);
    if (so == sf_) Convert(out, acc_, rows_ * sf_);
    else for (uint32_t r = 0; r < rows_; ++r) Convert(out[r * so], acc_[r * sf_], cols_);
    outQueue_.EnQue(out);
    cQueue_.FreeTensor(acc_);
    out = outQueue_.DeQue<T>();
    AscendC::DataCopyExtParams cp(static_cast<uint16_t>(rows_), cols_ * static_cast<uint32_t>(sizeof(T)), 0,
                                  static_cast<uint32_t>((n_ - cols_) * sizeof(T)), 0);
    AscendC::DataCopyPad(yGm_[(batch_ * m_ + r0_) * n_ + c0_], out, cp);
    outQueue_.FreeTensor(out);
  }
  __aicore__ inline void End() { mm.End(); }

 private:
  // acc row r += vals[r0 + r] (one Brcb of the block's channel values, then row-broadcast Adds).
  __aicore__ inline void AddPerChannel(const AscendC::LocalTensor<float>& vals) {
    RowAdd(acc_, acc_, vals[r0_], work_.Get<float>(), rows_, cols_, sf_);
    AscendC::PipeBarrier<PIPE_V>();
  }
  // cout elements of T from GM to float32 UB.
  __aicore__ inline void Stage(const AscendC::LocalTensor<float>& dst, const AscendC::GlobalTensor<T>& src) {
    AscendC::PipeBarrier<PIPE_ALL>();
    if constexpr (std::is_same<T, float>::value) {
      LoadFlat(dst, src, g_.cout);
    } else {
      AscendC::LocalTensor<T> st = chanT_.Get<T>();
      LoadFlat(st, src, g_.cout);
      AscendC::PipeBarrier<PIPE_ALL>();
      Convert(dst, st, g_.cout);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  ConvGeom g_{};
  uint64_t m_ = 0, n_ = 0, k_ = 0, batch_ = 0, m0_ = 0, n0_ = 0, c0_ = 0;
  uint32_t blockM_ = 0, blockN_ = 0, baseM_ = 0, baseN_ = 0, order_ = 0, mBlocks_ = 1, nBlocks_ = 1;
  uint32_t tailM_ = 0, tailN_ = 0, mIter_ = 0, nIter_ = 0, count_ = 0, rows_ = 0, cols_ = 0, sf_ = 0, r0_ = 0;
  bool hasExtra_ = false;
  AscendC::LocalTensor<float> acc_;
  AscendC::GlobalTensor<T> wGm_, colGm_, yGm_, bGm_, eGm_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> cQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> act_, math_, chanT_, bF_, eF_, work_;
};
}  // namespace kt
#endif
