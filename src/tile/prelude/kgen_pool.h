// kgen_pool.h — the pooling-window helper of kernels generated from `for o in windows(...)` programs
// (docs/tile-language.md, "Pooling windows"). Copied next to the kernel (op_kernel/kgen_pool.h) with kgen_tile.h.
//
// Every program is seen as 3-D windows over [planes, D, H, W] (1-D pooling: D = the rows, H = 1; 2-D: D = the
// planes, H, W; the missing axes have kernel 1, stride 1, no padding). A work item is one plane and J consecutive
// output slices along D; the host picks J for the UB. Per item:
//   1. the input slices the item's windows reach (clipped to [0, D)) come in with one DataCopyPad of rows of W
//      (row stride wa > W: the zeros LoadRows puts after each row are the cells an average's padding reads);
//   2. per slice, W: kW Gathers by a byte-offset table per kw (a column outside [0, W) reads the row's zero cell
//      for an average, the window's first valid column for a maximum) folded with Add/Max into [H, owa];
//   3. H: kH Gathers of those rows the same way into [OH, owa] (a zero row past the slice for an average);
//   4. D: each output slice folds its valid input slices with count-form Add/Max, is scaled by 1/count for an
//      average, converted to T and stored as OH rows of OW.
// The tables are built once per core: one row by the scalar unit, the others by doubling Adds.
#pragma once
#include "kgen_tile.h"

namespace kt {
struct PoolGeom {
  uint32_t planes, D, H, W, OD, OH, OW;
  int32_t k[3], s[3], p[3], d[3];   // kernel, stride, padding, dilation per axis (D, H, W)
  uint32_t J;                       // output slices per work item
  uint32_t items;                   // planes * ceil(OD / J)
  uint32_t countPad;                // averages: the padding counts in the divisor (count_include_pad)
};
// Row strides (elements): input rows wa (a zero cell after W), gathered rows owa.
__aicore__ inline uint32_t PoolWa(uint32_t w) { return AlignUp(w + 1, 16); }
__aicore__ inline uint32_t PoolOwa(uint32_t ow) { return AlignUp(ow, 16); }
// The first input index of window `o` along an axis that is inside [0, size) (every window has one).
__aicore__ inline int32_t PoolFirstValid(int32_t o, int32_t k, int32_t s, int32_t p, int32_t d, int32_t size) {
  for (int32_t t = 0; t < k; ++t) {
    int32_t i = o * s - p + t * d;
    if (i >= 0 && i < size) return i;
  }
  return 0;
}
// The divisor's factor along one axis: the window clipped to the padded input (padding counted) or to the input.
__aicore__ inline float PoolCount(int32_t o, int32_t k, int32_t s, int32_t p, int32_t d, int32_t size, bool pad) {
  int32_t n = 0;
  for (int32_t t = 0; t < k; ++t) {
    int32_t i = o * s - p + t * d;
    n += pad ? (i < size + p ? 1 : 0) : (i >= 0 && i < size ? 1 : 0);
  }
  return static_cast<float>(n > 0 ? n : 1);
}

// Rows of W gathered per Gather: the W tables cover this many rows (about 24 KB of offsets), the rows further down are
// read through the Gather's base address.
__aicore__ inline uint32_t PoolTableRows(uint32_t h, uint32_t kw, uint32_t owa) {
  uint32_t r = 6144 / (kw * owa);
  r = r < 1 ? 1 : r;
  return r < h ? r : h;
}

template <typename T, bool kMax>
class PoolWindows {
 public:
  static constexpr bool kF32 = std::is_same<T, float>::value;
  // The buffers of one item of J output slices (the host's TilingFunc sizes J with the same bytes).
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PoolGeom& g) {
    g_ = g;
    wa_ = PoolWa(g.W);
    owa_ = PoolOwa(g.OW);
    rows_ = PoolTableRows(g.H, g.k[2], owa_);
    umax_ = (g.J - 1) * g.s[0] + (g.k[0] - 1) * g.d[0] + 1;
    if (umax_ > g.D) umax_ = g.D;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(g.planes) * g.D * g.H * g.W);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), static_cast<uint64_t>(g.planes) * g.OD * g.OH * g.OW);
    const uint32_t how = g.H * owa_, ohow = g.OH * owa_;
    pipe_.InitBuffer(inQ_, 2, RoundUp256(static_cast<uint64_t>(umax_) * g.H * wa_ * sizeof(T)));
    pipe_.InitBuffer(outQ_, 2, RoundUp256(static_cast<uint64_t>(g.J) * ohow * sizeof(T)));
    if constexpr (!kF32) pipe_.InitBuffer(stage_, RoundUp256(g.H * wa_ * 4));   // float32 copies of half rows
    pipe_.InitBuffer(gw_, RoundUp256(how * 4));
    pipe_.InitBuffer(tmp_, RoundUp256(rows_ * owa_ * 4));
    pipe_.InitBuffer(gh_, RoundUp256(static_cast<uint64_t>(umax_) * ohow * 4));
    if (g.k[0] > 1) pipe_.InitBuffer(acc_, RoundUp256(ohow * 4));   // D windows of several slices
    pipe_.InitBuffer(tabW_, RoundUp256(static_cast<uint64_t>(g.k[2]) * rows_ * owa_ * 4));
    if constexpr (!kMax) pipe_.InitBuffer(rcp_, RoundUp256(ohow * 4));
  }

  __aicore__ inline void Process() {
    const uint32_t cores = AscendC::GetBlockNum(), core = AscendC::GetBlockIdx();
    const uint32_t per = CeilDiv(g_.items, cores);
    const uint32_t begin = core * per, end = begin + per < g_.items ? begin + per : g_.items;
    if (begin >= end) return;
    Tables();
    const uint32_t chunks = CeilDiv(g_.OD, g_.J);
    for (uint32_t it = begin; it < end; ++it) {
      const uint32_t plane = it / chunks, od0 = it % chunks * g_.J;
      const uint32_t jn = g_.OD - od0 < g_.J ? g_.OD - od0 : g_.J;
      int32_t lo = static_cast<int32_t>(od0) * g_.s[0] - g_.p[0];
      int32_t hi = static_cast<int32_t>(od0 + jn - 1) * g_.s[0] - g_.p[0] + (g_.k[0] - 1) * g_.d[0] + 1;
      lo = lo < 0 ? 0 : lo;
      hi = hi > static_cast<int32_t>(g_.D) ? static_cast<int32_t>(g_.D) : hi;
      CopyIn(plane, static_cast<uint32_t>(lo), static_cast<uint32_t>(hi - lo));
      Compute(od0, jn, lo, hi);
      CopyOut(plane, od0, jn);
    }
  }

 private:
  // W tables: per kw, row r of [rows, owa] reads input row r at the window's column kw (a column outside the row: the
  // row's zero cell for a mean, the window's first valid column for a maximum). Row 0 by the scalar unit, the others
  // by doubling Adds. Means also get 1 / (count along H x count along W) per output element.
  __aicore__ inline void Tables() {
    const uint32_t tab = rows_ * owa_;
    AscendC::LocalTensor<int32_t> tw = tabW_.Get<int32_t>();
    const int32_t W = static_cast<int32_t>(g_.W), H = static_cast<int32_t>(g_.H);
    const int32_t s = g_.s[2], p = g_.p[2], d = g_.d[2], OW = static_cast<int32_t>(g_.OW);
    // Row 0 by the vector unit: (ow * s - p + kw * d) * 4; then the scalar unit fixes the few entries at the edges.
    for (int32_t kw = 0; kw < g_.k[2]; ++kw) {
      AscendC::CreateVecIndex(tw[kw * tab], static_cast<int32_t>(0), owa_);
      AscendC::Muls(tw[kw * tab], tw[kw * tab], s * 4, static_cast<int32_t>(owa_));
      AscendC::Adds(tw[kw * tab], tw[kw * tab], (kw * d - p) * 4, static_cast<int32_t>(owa_));
    }
    if constexpr (!kMax) {   // 1 / count along W: the full window inside, fixed at the edges below
      AscendC::Duplicate(tmp_.Get<float>(), 1.0f / static_cast<float>(g_.k[2]), static_cast<int32_t>(owa_));
    }
    int32_t e = static_cast<int32_t>(AscendC::GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
    AscendC::SetFlag<AscendC::HardEvent::V_S>(e);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(e);
    auto fix = [&](int32_t kw, int32_t ow) {   // an entry whose column is outside the row, or a padding lane
      const int32_t o = ow < OW ? ow : 0;
      int32_t c = o * s - p + kw * d;
      if (c < 0 || c >= W) c = kMax ? PoolFirstValid(o, g_.k[2], s, p, d, W) : W;
      tw.SetValue(kw * tab + ow, c * 4);
    };
    for (int32_t kw = 0; kw < g_.k[2]; ++kw) {
      for (int32_t ow = 0; ow < OW && ow * s - p + kw * d < 0; ++ow) fix(kw, ow);
      for (int32_t ow = static_cast<int32_t>(owa_) - 1; ow >= 0 && (ow >= OW || ow * s - p + kw * d >= W); --ow) fix(kw, ow);
    }
    if constexpr (!kMax) {
      AscendC::LocalTensor<float> cw = tmp_.Get<float>(), rc = rcp_.Get<float>();
      const bool pad = g_.countPad != 0;
      for (int32_t ow = 0; ow < OW && ow * s - p < 0; ++ow)
        cw.SetValue(ow, 1.0f / PoolCount(ow, g_.k[2], s, p, d, W, pad));
      for (int32_t ow = OW - 1; ow >= 0 && ow * s - p + (g_.k[2] - 1) * d >= W; --ow)
        cw.SetValue(ow, 1.0f / PoolCount(ow, g_.k[2], s, p, d, W, pad));
      e = static_cast<int32_t>(AscendC::GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
      AscendC::SetFlag<AscendC::HardEvent::S_V>(e);
      AscendC::WaitFlag<AscendC::HardEvent::S_V>(e);
      for (uint32_t oh = 0; oh < g_.OH; ++oh)   // rcp row oh = the W row / count along H
        AscendC::Muls(rc[oh * owa_], cw, 1.0f / PoolCount(oh, g_.k[1], g_.s[1], g_.p[1], g_.d[1], H, pad),
                      static_cast<int32_t>(owa_));
    }
    e = static_cast<int32_t>(AscendC::GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(e);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(e);
    for (int32_t kw = 0; kw < g_.k[2]; ++kw)
      for (uint32_t r = 1; r < rows_; r *= 2) {   // rows [r, 2r) = rows [0, r) + r rows of wa
        const uint32_t c = rows_ - r < r ? rows_ - r : r;
        AscendC::Adds(tw[kw * tab + r * owa_], tw[kw * tab], static_cast<int32_t>(r * wa_ * 4),
                      static_cast<int32_t>(c * owa_));
      }
  }

  __aicore__ inline void CopyIn(uint32_t plane, uint32_t lo, uint32_t nvalid) {
    AscendC::LocalTensor<T> in = inQ_.AllocTensor<T>();
    const uint64_t off = (static_cast<uint64_t>(plane) * g_.D + lo) * g_.H * g_.W;
    LoadRows(in, xGm_[off], nvalid * g_.H, g_.W, wa_);   // rows of W, each followed by zeros up to wa
    inQ_.EnQue(in);
  }

  // Input slice u as float32 rows of wa: float inputs where they landed, half and bfloat16 converted.
  __aicore__ inline AscendC::LocalTensor<float> SliceF32(const AscendC::LocalTensor<T>& in, int32_t u) {
    if constexpr (kF32) {
      return in[u * g_.H * wa_];
    } else {
      AscendC::LocalTensor<float> st = stage_.Get<float>();
      Convert(st, in[u * g_.H * wa_], g_.H * wa_);
      return st;
    }
  }

  __aicore__ inline void Fold(const AscendC::LocalTensor<float>& a, const AscendC::LocalTensor<float>& b, uint32_t n) {
    if constexpr (kMax) AscendC::Max(a, a, b, static_cast<int32_t>(n));
    else AscendC::Add(a, a, b, static_cast<int32_t>(n));
  }

  // W windows of one slice: gw [H, owa] = fold over kw of the gathered columns, `rows_` rows per Gather.
  __aicore__ inline void WindowsW(const AscendC::LocalTensor<float>& src, const AscendC::LocalTensor<float>& gw) {
    AscendC::LocalTensor<float> tmp = tmp_.Get<float>();
    AscendC::LocalTensor<uint32_t> tw = tabW_.Get<uint32_t>();
    for (uint32_t r0 = 0; r0 < g_.H; r0 += rows_) {
      const uint32_t n = (g_.H - r0 < rows_ ? g_.H - r0 : rows_) * owa_;
      for (int32_t kw = 0; kw < g_.k[2]; ++kw) {
        AscendC::Gather(kw == 0 ? gw[r0 * owa_] : tmp, src, tw[kw * rows_ * owa_], r0 * wa_ * 4, n);
        if (kw > 0) Fold(gw[r0 * owa_], tmp, n);
      }
    }
  }

  // H windows of one slice: dst [OH, owa] = fold over kh of the rows oh * s - p + kh * d of gw, each kh one
  // repeat-form instruction per 64 columns over the output rows whose row is inside [0, H).
  __aicore__ inline void WindowsH(const AscendC::LocalTensor<float>& gw, const AscendC::LocalTensor<float>& dst) {
    AscendC::Duplicate(dst, kMax ? -kInf : 0.0f, static_cast<int32_t>(g_.OH * owa_));
    const int32_t s = g_.s[1], OH = static_cast<int32_t>(g_.OH), H = static_cast<int32_t>(g_.H);
    const uint32_t blocks = owa_ / 8, srcStride = s * owa_ / 8;
    for (int32_t kh = 0; kh < g_.k[1]; ++kh) {
      const int32_t off = kh * g_.d[1] - g_.p[1];               // row of oh: oh * s + off
      int32_t a = off >= 0 ? 0 : (-off + s - 1) / s;            // first oh with a row >= 0
      int32_t b = (H - 1 - off) >= 0 ? (H - 1 - off) / s + 1 : 0;   // past the last oh with a row < H
      b = b > OH ? OH : b;
      for (int32_t o0 = a; o0 < b; o0 += 255) {
        const int32_t n = b - o0 < 255 ? b - o0 : 255;
        for (uint32_t c0 = 0; c0 < owa_; c0 += 64) {
          const uint64_t mask = owa_ - c0 < 64 ? owa_ - c0 : 64;
          AscendC::LocalTensor<float> d = dst[o0 * owa_ + c0];
          AscendC::LocalTensor<float> x = gw[(o0 * s + off) * owa_ + c0];
          if (srcStride <= 255) {
            AscendC::BinaryRepeatParams rp(1, 1, 1, static_cast<uint8_t>(blocks), static_cast<uint8_t>(blocks),
                                           static_cast<uint8_t>(srcStride));
            if constexpr (kMax) AscendC::Max(d, d, x, mask, static_cast<uint8_t>(n), rp);
            else AscendC::Add(d, d, x, mask, static_cast<uint8_t>(n), rp);
          } else {
            for (int32_t i = 0; i < n; ++i) Fold(d[i * owa_], x[i * s * owa_], static_cast<uint32_t>(mask));
          }
        }
      }
    }
  }

  __aicore__ inline void Compute(uint32_t od0, uint32_t jn, int32_t lo, int32_t hi) {
    const uint32_t ohow = g_.OH * owa_;
    AscendC::LocalTensor<T> in = inQ_.DeQue<T>();
    AscendC::LocalTensor<float> gw = gw_.Get<float>(), gh = gh_.Get<float>();
    for (int32_t u = 0; u < hi - lo; ++u) {   // each input slice: W windows, then H windows
      WindowsW(SliceF32(in, u), gw);
      WindowsH(gw, gh[u * ohow]);
    }
    inQ_.FreeTensor(in);
    AscendC::LocalTensor<T> out = outQ_.AllocTensor<T>();
    for (uint32_t j = 0; j < jn; ++j) {   // each output slice: its valid input slices along D
      const int32_t od = static_cast<int32_t>(od0 + j);
      AscendC::LocalTensor<float> r = gh[(od * g_.s[0] - lo) * ohow];   // kernel 1 along D: the slice itself
      if (g_.k[0] > 1) {
        r = acc_.Get<float>();
        AscendC::Duplicate(r, kMax ? -kInf : 0.0f, static_cast<int32_t>(ohow));
        for (int32_t kd = 0; kd < g_.k[0]; ++kd) {
          const int32_t id = od * g_.s[0] - g_.p[0] + kd * g_.d[0];
          if (id >= lo && id < hi) Fold(r, gh[(id - lo) * ohow], ohow);
        }
      }
      if constexpr (!kMax) {   // the mean: times 1 / (count along H and W) and 1 / (count along D)
        AscendC::Mul(r, r, rcp_.Get<float>(), static_cast<int32_t>(ohow));
        const float cd = PoolCount(od, g_.k[0], g_.s[0], g_.p[0], g_.d[0], static_cast<int32_t>(g_.D), g_.countPad != 0);
        if (cd != 1.0f) AscendC::Muls(r, r, 1.0f / cd, static_cast<int32_t>(ohow));
      }
      Convert(out[j * ohow], r, ohow);
    }
    outQ_.EnQue(out);
  }

  __aicore__ inline void CopyOut(uint32_t plane, uint32_t od0, uint32_t jn) {
    AscendC::LocalTensor<T> out = outQ_.DeQue<T>();
    const uint64_t off = (static_cast<uint64_t>(plane) * g_.OD + od0) * g_.OH * g_.OW;
    StoreRows(yGm_[off], out, jn * g_.OH, g_.OW, owa_);   // OH rows of OW per slice
    outQ_.FreeTensor(out);
  }

  PoolGeom g_;
  uint32_t wa_ = 0, owa_ = 0, rows_ = 0, umax_ = 0;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> stage_, gw_, tmp_, gh_, acc_, tabW_, rcp_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
};
}  // namespace kt
