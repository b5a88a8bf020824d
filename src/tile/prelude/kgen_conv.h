// Helpers of the convolution kernels that `kgen tile compile` writes (docs/tile-language.md, "Convolutions").
// Vector-core form: each work item is (batch, output plane, block of R output rows, group of G output channels); the
// input rows the block needs are staged once in UB with zero rows/columns around them, each kernel tap's
// strided/dilated/shifted view is one Gather by a byte-offset table built once per core by vector instructions (the
// views are affine in the output position), and every output channel of the group accumulates it with one Axpy (the
// tap's weight a scalar). Accumulation is float32 for every dtype.
#ifndef KT_CONV_H
#define KT_CONV_H
#include "kgen_tile.h"

namespace kt {

// The geometry of one convolution, filled by the kernel from its tiling data (names as in the host's TilingFunc).
struct ConvGeom {
  uint32_t n, cin, cout, groups;        // batch, channels, conv groups (1, or cin for depthwise)
  uint32_t id, ih, iw, od, oh, ow;      // input and output extents (id = od = 1 below 3-D)
  uint32_t kd, kh, kw;                  // effective taps (after an avg-pool is folded into the weights: cube only)
  uint32_t wkh, wkw;                    // the weight tensor's taps (differ from kh, kw when pool > 1)
  uint32_t sd, sh, sw, pd, ph, pw, dd, dh, dw;
  uint32_t transposed, pool, separable, hasBias;
  uint32_t rows, grp, cc, hr, wa;       // rows per block, channels per item, input channels per load, UB row layout
  uint32_t items, perCore;
  uint32_t chunks = 1;                  // im2col (kgen_conv_gemm.h): input-channel chunks of cc per row block
};

template <class T>
class Conv {
 public:
  static constexpr bool kF32 = std::is_same<T, float>::value;

  __aicore__ inline void Init(AscendC::TPipe& pipe, const ConvGeom& g, GM_ADDR x, GM_ADDR w, GM_ADDR w2, GM_ADDR bias,
                              GM_ADDR y) {
    g_ = g;
    cig_ = g.separable ? g.cin : (g.transposed ? g.cin : g.cin / g.groups);
    cog_ = g.cout / g.groups;
    lr_ = static_cast<uint32_t>(RoundUp(uint64_t(g.rows) * g.ow, 16));   // one output channel's block in UB
    nb_ = (g.oh + g.rows - 1) / g.rows;
    ngPer_ = (cog_ + g.grp - 1) / g.grp;
    taps_ = g.kd * g.kh * g.kw;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w));
    if (w2 != nullptr) w2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w2));
    if (bias != nullptr) bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(bias));
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
    InitStaging(pipe, g);
    pipe.InitBuffer(acc_, RoundUp256(uint64_t(g.grp) * lr_ * 4));
    if constexpr (!kF32) pipe.InitBuffer(out_, RoundUp256(uint64_t(g.grp) * lr_ * sizeof(T)));
    pipe.InitBuffer(wF_, RoundUp256(uint64_t(WeightElems()) * 4));
    if constexpr (!kF32) pipe.InitBuffer(wT_, RoundUp256(uint64_t(StagedElems()) * sizeof(T)));
    if (g.separable) pipe.InitBuffer(w2F_, RoundUp256(uint64_t(g.cout) * g.cin * 4));
    if (g.hasBias) pipe.InitBuffer(bF_, RoundUp256(uint64_t(g.cout) * 4));
    pipe.InitBuffer(eF_, RoundUp256(uint64_t(g.cout) * 4));
    pipe.InitBuffer(math_, RoundUp256(kMathTmpBytes));
    pipe.InitBuffer(act_, RoundUp256(uint64_t(g.grp) * lr_ * 4));
  }

  // Once per core: weights (and bias) to float32 in UB, the gather tables.
  __aicore__ inline void Prepare() {
    AscendC::LocalTensor<float> wF = wF_.Get<float>();
    StageFloat(wF, wGm_, WeightElems());
    if (g_.separable) StageFloat(w2F_.Get<float>(), w2Gm_, g_.cout * g_.cin);
    if (g_.hasBias) StageFloat(bF_.Get<float>(), bGm_, g_.cout);
    if (hasExtra_) StageFloat(eF_.Get<float>(), eGm_, g_.cout);
    AscendC::Duplicate(xF_.Get<float>(), 0.0f, static_cast<int32_t>(xAll_));   // the zero row and the slack
    if (g_.transposed) BuildTransposedTables();
    else BuildUnfoldTables();
    AscendC::PipeBarrier<PIPE_ALL>();   // the tables and the weights are read next (vector and scalar units)
  }

  __aicore__ inline uint32_t ItemCount() const { return g_.items; }
  __aicore__ inline uint32_t Lr() const { return lr_; }
  __aicore__ inline uint32_t GroupSize() const { return geff_; }
  __aicore__ inline AscendC::LocalTensor<float> Acc() { return acc_.Get<float>(); }
  // A float32 block as large as Acc(): activations (Tanh, Sigmoid) do not run in place.
  __aicore__ inline AscendC::LocalTensor<float> Scratch() { return act_.Get<float>(); }
  // Scratch of the activations an epilogue calls (Tanh, Sigmoid, ...).
  __aicore__ inline AscendC::LocalTensor<uint8_t> MathTmp() { return math_.Get<uint8_t>(); }
  // A per-output-channel vector of the epilogue (a [cout, 1, 1] bias), staged in float32 by Prepare.
  __aicore__ inline void SetChannelVector(GM_ADDR v) {
    eGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(v));
    hasExtra_ = true;
  }
  // + the epilogue's per-channel input: each output channel's block gets its value.
  __aicore__ inline void AddChannelVector() {
    AscendC::LocalTensor<float> acc = acc_.Get<float>(), e = eF_.Get<float>();
    for (uint32_t gi = 0; gi < geff_; ++gi)
      AscendC::Adds(acc[gi * lr_], acc[gi * lr_], e.GetValue(co0_ + gi), static_cast<int32_t>(lr_));
  }

  // The float32 sums of one item: acc[g * Lr() + r * ow + j] = conv output (channel co0 + g, row oh0 + r, column j),
  // bias included.
  __aicore__ inline void Accumulate(uint32_t item) {
    Decode(item);
    AscendC::LocalTensor<float> acc = acc_.Get<float>();
    AscendC::PipeBarrier<PIPE_ALL>();   // the previous item's stores have read acc
    for (uint32_t gi = 0; gi < geff_; ++gi) {
      const float b = g_.hasBias ? bF_.Get<float>().GetValue(co0_ + gi) : 0.0f;
      AscendC::Duplicate(acc[gi * lr_], b, static_cast<int32_t>(lr_));
    }
    const uint32_t cnt = g_.rows * g_.ow;
    AscendC::LocalTensor<float> xF = xF_.Get<float>();
    AscendC::LocalTensor<float> tmp = tmp_.Get<float>();
    AscendC::LocalTensor<uint32_t> tab = tab_.Get<uint32_t>();
    for (uint32_t c0 = 0; c0 < nci_; c0 += g_.cc) {
      const uint32_t cn = nci_ - c0 < g_.cc ? nci_ - c0 : g_.cc;
      LoadInput(c0, cn);
      for (uint32_t c = 0; c < cn; ++c) {
        const uint32_t ci = ci0_ + c0 + c;
        AscendC::LocalTensor<float> sum = g_.separable ? tmp2_.Get<float>() : tmp;
        if (g_.separable) {
          AscendC::Duplicate(sum, 0.0f, static_cast<int32_t>(lr_));
          AscendC::PipeBarrier<PIPE_V>();
        }
        for (uint32_t kd = 0; kd < g_.kd; ++kd)
          for (uint32_t kh = 0; kh < g_.kh; ++kh) {
            const uint32_t row = g_.transposed ? (g_.kh - 1 - kh) * g_.dh : kh * g_.dh;
            const uint32_t base = ((c * g_.kd + kd) * g_.hr + row) * g_.wa * 4;
            for (uint32_t kw = 0; kw < g_.kw; ++kw) {
              // the tap's view of the staged rows: strided, dilated and shifted columns, zeros outside the input
              AscendC::Gather(tmp, xF, tab[kw * lr_], base, cnt);
              AscendC::PipeBarrier<PIPE_V>();
              if (g_.separable) {
                AscendC::Axpy(sum, tmp, Weight(0, ci, kd, kh, kw), static_cast<int32_t>(cnt));
              } else {
                for (uint32_t gi = 0; gi < geff_; ++gi)
                  AscendC::Axpy(acc[gi * lr_], tmp, Weight(co0_ + gi, ci, kd, kh, kw), static_cast<int32_t>(cnt));
              }
              AscendC::PipeBarrier<PIPE_V>();   // tmp is gathered again next
            }
          }
        if (g_.separable) {   // the pointwise mix: every output channel takes this channel's depthwise result
          AscendC::LocalTensor<float> w2 = w2F_.Get<float>();
          for (uint32_t gi = 0; gi < geff_; ++gi)
            AscendC::Axpy(acc[gi * lr_], sum, w2.GetValue((co0_ + gi) * g_.cin + ci), static_cast<int32_t>(cnt));
          AscendC::PipeBarrier<PIPE_V>();
        }
      }
    }
  }

  // ---- im2col, the first stage of the cube lowering (kgen_conv_gemm.h): x unfolded into the GEMM's B operand
  // col[n][(ci, kd, kh, kw)][(od, oh, ow)] in T, so that y[n] = W [cout, cin * taps] @ col[n] [cin * taps, P].
  // Items are (batch, plane, block of R output rows, chunk of cc input channels). The staged rows are wa >= iw + pw + 1
  // wide after one zero row, so every tap's view is affine in the output position (left padding reads the previous
  // row's zero tail, right padding this row's): the gather tables are built by vector instructions, not per element.
  // A channel's taps are gathered into one [taps, lr] block and leave with one DMA (one col row per tap). A transposed
  // conv stages its dilated rows (as Accumulate does) and its columns go through a divisibility test in the tables.
  __aicore__ inline void InitUnfold(AscendC::TPipe& pipe, const ConvGeom& g, GM_ADDR x, GM_ADDR col) {
    g_ = g;
    cig_ = g.cin;
    cog_ = g.cout;
    lr_ = static_cast<uint32_t>(RoundUp(uint64_t(g.rows) * g.ow, 16));
    nb_ = (g.oh + g.rows - 1) / g.rows;
    taps_ = g.kd * g.kh * g.kw;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    colGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(col));
    InitStaging(pipe, g);
    pipe.InitBuffer(colQ_, 2, RoundUp256(uint64_t(taps_) * lr_ * sizeof(T)));
    AscendC::Duplicate(xF_.Get<float>(), 0.0f, static_cast<int32_t>(xAll_));   // the zero row and the slack
    if (g.transposed) BuildTransposedTables();
    else BuildUnfoldTables();
    AscendC::PipeBarrier<PIPE_ALL>();
  }
  // Elements past the staged rows that the table's padding entries (i >= R * ow) may reach.
  __aicore__ static inline uint32_t UnfoldSlack(const ConvGeom& g) { return 16 * g.sw + g.pw + 16; }

  __aicore__ inline void Unfold(uint32_t item) {
    const uint32_t chunk = item % g_.chunks;
    uint32_t rest = item / g_.chunks;
    const uint32_t b = rest % nb_;
    rest /= nb_;
    od_ = rest % g_.od;
    n_ = rest / g_.od;
    oh0_ = b * g_.rows;
    rowsEff_ = g_.oh - oh0_ < g_.rows ? g_.oh - oh0_ : g_.rows;
    ci0_ = 0;
    const uint32_t c0 = chunk * g_.cc, cn = g_.cin - c0 < g_.cc ? g_.cin - c0 : g_.cc;
    LoadInput(c0, cn);
    const uint32_t cnt = g_.rows * g_.ow, len = rowsEff_ * g_.ow;
    const uint64_t P = uint64_t(g_.od) * g_.oh * g_.ow, K = uint64_t(g_.cin) * taps_;
    const uint64_t first = (uint64_t(od_) * g_.oh + oh0_) * g_.ow;   // the block's first output position
    const uint32_t lenBytes = len * static_cast<uint32_t>(sizeof(T));
    // taps blocks of len elements: lr apart in UB (in 32-byte blocks past each block's end), P apart in col
    AscendC::DataCopyExtParams p(static_cast<uint16_t>(taps_), lenBytes,
                                 (lr_ * static_cast<uint32_t>(sizeof(T)) - (lenBytes + 31) / 32 * 32) / 32,
                                 static_cast<uint32_t>((P - len) * sizeof(T)), 0);
    AscendC::LocalTensor<float> xF = xF_.Get<float>();
    AscendC::LocalTensor<uint32_t> tab = tab_.Get<uint32_t>();
    for (uint32_t c = 0; c < cn; ++c) {
      AscendC::LocalTensor<T> o = colQ_.template AllocTensor<T>();
      for (uint32_t kd = 0; kd < g_.kd; ++kd)
        for (uint32_t kh = 0; kh < g_.kh; ++kh) {
          const uint32_t row = g_.transposed ? (g_.kh - 1 - kh) * g_.dh : kh * g_.dh;   // as in Accumulate
          const uint32_t base = ((c * g_.kd + kd) * g_.hr + row) * g_.wa * 4;
          for (uint32_t kw = 0; kw < g_.kw; ++kw) {
            const uint32_t t = (kd * g_.kh + kh) * g_.kw + kw;
            if constexpr (kF32) {
              AscendC::Gather(o[t * lr_], xF, tab[kw * lr_], base, cnt);
            } else {
              AscendC::LocalTensor<float> tmp = tmp_.Get<float>();
              AscendC::Gather(tmp, xF, tab[kw * lr_], base, cnt);
              AscendC::PipeBarrier<PIPE_V>();
              Convert(o[t * lr_], tmp, cnt);
              AscendC::PipeBarrier<PIPE_V>();   // tmp is gathered again next
            }
          }
        }
      colQ_.EnQue(o);
      o = colQ_.template DeQue<T>();
      AscendC::DataCopyPad(colGm_[(uint64_t(n_) * K + uint64_t(c0 + c) * taps_) * P + first], o, p);
      colQ_.FreeTensor(o);
    }
  }

  // acc (after the epilogue) to y: one contiguous run of rows * ow elements per output channel.
  __aicore__ inline void Store() {
    AscendC::LocalTensor<float> acc = acc_.Get<float>();
    const uint32_t cnt = rowsEff_ * g_.ow;
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t gi = 0; gi < geff_; ++gi) {
      const uint64_t off = ((uint64_t(n_) * g_.cout + co0_ + gi) * g_.od + od_) * g_.oh * g_.ow + uint64_t(oh0_) * g_.ow;
      AscendC::DataCopyExtParams p(1, cnt * static_cast<uint32_t>(sizeof(T)), 0, 0, 0);
      if constexpr (kF32) {
        AscendC::DataCopyPad(yGm_[off], acc[gi * lr_], p);
      } else {
        AscendC::LocalTensor<T> out = out_.Get<T>();
        if (gi == 0) {
          Convert(out, acc, geff_ * lr_);
          AscendC::PipeBarrier<PIPE_ALL>();
        }
        AscendC::DataCopyPad(yGm_[off], out[gi * lr_], p);
      }
    }
  }

 private:
  // The staged input rows and the gather tables with their scratch, as both lowerings lay them out: one zero row first
  // (not for a transposed conv), the rows, the slack the tables' padding entries may reach.
  __aicore__ inline void InitStaging(AscendC::TPipe& pipe, const ConvGeom& g) {
    lead_ = g.transposed ? 0 : g.wa;
    const uint64_t xElems = uint64_t(g.cc) * g.kd * g.hr * g.wa;
    xAll_ = static_cast<uint32_t>(lead_ + xElems + UnfoldSlack(g));
    pipe.InitBuffer(xF_, RoundUp256(uint64_t(xAll_) * 4));
    if constexpr (!kF32) pipe.InitBuffer(xT_, RoundUp256(xElems * sizeof(T)));
    pipe.InitBuffer(tab_, RoundUp256(uint64_t(g.kw) * lr_ * 4));
    pipe.InitBuffer(tmp_, RoundUp256(uint64_t(lr_) * 4));
    pipe.InitBuffer(tmp2_, RoundUp256(uint64_t(lr_) * 4));   // the tables' scratch; separable's per-channel sum
    if (g.transposed) pipe.InitBuffer(tabWork_, RoundUp256(uint64_t(lr_) * 4 * 3));
  }

  // The largest tensor StageFloat brings through wT_: the weight, or a separable conv's pointwise weight.
  __aicore__ inline uint32_t StagedElems() const {
    const uint32_t pw = g_.separable ? g_.cout * g_.cin : 0;
    return WeightElems() > pw ? WeightElems() : pw;
  }
  __aicore__ inline uint32_t WeightElems() const {
    if (g_.separable) return g_.cin * taps_;
    return g_.transposed ? g_.cin * cog_ * taps_ : g_.cout * cig_ * taps_;
  }

  // The weight of (output channel co, input channel ci, tap) in UB: [co][ci of the group][taps], transposed
  // [ci][co][taps] as nn.ConvTranspose stores it, separable (depthwise) [ci][taps].
  __aicore__ inline float Weight(uint32_t co, uint32_t ci, uint32_t kd, uint32_t kh, uint32_t kw) {
    const uint32_t tap = (kd * g_.kh + kh) * g_.kw + kw;
    uint32_t i;
    if (g_.separable) i = ci * taps_ + tap;
    else if (g_.transposed) i = (ci * cog_ + co) * taps_ + tap;
    else i = (co * cig_ + (ci - (co / cog_) * cig_)) * taps_ + tap;
    return wF_.Get<float>().GetValue(i);
  }

  // GM (T) -> UB float32 through the T staging buffer.
  __aicore__ inline void StageFloat(const AscendC::LocalTensor<float>& dst, const AscendC::GlobalTensor<T>& src,
                                    uint32_t len) {
    AscendC::PipeBarrier<PIPE_ALL>();
    if constexpr (kF32) {
      LoadFlat(dst, src, len);
    } else {
      AscendC::LocalTensor<T> st = wT_.Get<T>();
      LoadFlat(st, src, len);
      AscendC::PipeBarrier<PIPE_ALL>();
      Convert(dst, st, len);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // idx[i] = i and row[i] = min(floor((i + 0.5) / ow), R - 1) over the table's lr entries, in float32 (exact far below
  // 2^24; the + 0.5 keeps a product that rounds down from flooring a whole row early). row is converted in place.
  __aicore__ inline void IndexAndRow(const AscendC::LocalTensor<float>& idx, const AscendC::LocalTensor<float>& row) {
    const int32_t n = static_cast<int32_t>(lr_);
    AscendC::LocalTensor<int32_t> ri = row.template ReinterpretCast<int32_t>();
    AscendC::CreateVecIndex(idx, 0.0f, lr_);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(row, idx, 0.5f, n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(row, row, 1.0f / static_cast<float>(g_.ow), n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(ri, row, AscendC::RoundMode::CAST_FLOOR, n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Mins(ri, ri, static_cast<int32_t>(g_.rows - 1), n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(row, ri, AscendC::RoundMode::CAST_RINT, n);
    AscendC::PipeBarrier<PIPE_V>();
  }

  // tab[kw][i], i = r * ow + j < R * ow: byte offset of (staged row r * sh, column j * sw - pw + kw * dw) after the
  // zero row: 4 * (lead - pw + kw * dw + sw * i + (sh * wa - sw * ow) * r), r = floor(i / ow) in float32 (exact:
  // offsets stay far below 2^24). Entries i >= R * ow only pad the gathers (r clamped to R - 1: they stay in UB).
  __aicore__ inline void BuildUnfoldTables() {
    AscendC::LocalTensor<float> idx = tmp_.Get<float>(), v = tmp2_.Get<float>();
    AscendC::LocalTensor<int32_t> tab = tab_.Get<int32_t>();
    const int32_t n = static_cast<int32_t>(lr_);
    IndexAndRow(idx, v);
    AscendC::Muls(idx, idx, static_cast<float>(4 * g_.sw), n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Axpy(idx, v, 4.0f * (static_cast<float>(g_.sh * g_.wa) - static_cast<float>(g_.sw * g_.ow)), n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(idx, idx, 4.0f * (static_cast<float>(lead_) - static_cast<float>(g_.pw)), n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(tab, idx, AscendC::RoundMode::CAST_RINT, n);
    AscendC::PipeBarrier<PIPE_V>();
    for (uint32_t kw = 1; kw < g_.kw; ++kw)
      AscendC::Adds(tab[kw * lr_], tab, static_cast<int32_t>(4 * kw * g_.dw), n);
  }

  // Transposed: tab[kw][i] = 4 * (r * wa + col), col = (j + pw - kw * dw) / sw where sw divides it and it lies in
  // [0, iw), else iw (the zero column); r, j from i as above. The test is float32 arithmetic on 0/1 factors.
  __aicore__ inline void BuildTransposedTables() {
    AscendC::LocalTensor<float> w = tabWork_.Get<float>();
    AscendC::LocalTensor<float> rF = w, jF = w[lr_], c = w[2 * lr_], q = tmp_.Get<float>(), v = tmp2_.Get<float>();
    AscendC::LocalTensor<int32_t> iv = tmp2_.Get<int32_t>(), tab = tab_.Get<int32_t>();
    const int32_t n = static_cast<int32_t>(lr_);
    auto barrier = [] { AscendC::PipeBarrier<PIPE_V>(); };
    IndexAndRow(jF, rF);
    AscendC::Axpy(jF, rF, -static_cast<float>(g_.ow), n);       // j = i - r * ow
    barrier();
    const float iw = static_cast<float>(g_.iw);
    for (uint32_t kw = 0; kw < g_.kw; ++kw) {
      AscendC::Adds(q, jF, static_cast<float>(g_.pw) - static_cast<float>(kw * g_.dw), n);   // q = j + pw - kw * dw
      barrier();
      AscendC::Adds(v, q, 0.5f, n);
      barrier();
      AscendC::Muls(v, v, 1.0f / static_cast<float>(g_.sw), n);
      barrier();
      AscendC::Cast(iv, v, AscendC::RoundMode::CAST_FLOOR, n);
      barrier();
      AscendC::Cast(c, iv, AscendC::RoundMode::CAST_RINT, n);   // c = floor(q / sw)
      barrier();
      AscendC::Axpy(q, c, -static_cast<float>(g_.sw), n);      // q - c * sw, in [0, sw)
      barrier();
      AscendC::Muls(q, q, -1.0f, n);
      barrier();
      AscendC::Adds(q, q, 1.0f, n);
      barrier();
      AscendC::Maxs(q, q, 0.0f, n);                              // 1 where sw divides
      barrier();
      AscendC::Adds(v, c, 1.0f, n);
      barrier();
      AscendC::Maxs(v, v, 0.0f, n);
      barrier();
      AscendC::Mins(v, v, 1.0f, n);                              // 1 where c >= 0
      barrier();
      AscendC::Mul(q, q, v, n);
      barrier();
      AscendC::Muls(v, c, -1.0f, n);
      barrier();
      AscendC::Adds(v, v, iw, n);
      barrier();
      AscendC::Maxs(v, v, 0.0f, n);
      barrier();
      AscendC::Mins(v, v, 1.0f, n);                              // 1 where c < iw
      barrier();
      AscendC::Mul(q, q, v, n);                                  // valid
      barrier();
      AscendC::Adds(c, c, -iw, n);
      barrier();
      AscendC::Mul(c, c, q, n);
      barrier();
      AscendC::Adds(c, c, iw, n);                                // col = valid ? c : iw
      barrier();
      AscendC::Axpy(c, rF, static_cast<float>(g_.wa), n);       // + r * wa (dilated rows: one staged row per row)
      barrier();
      AscendC::Muls(c, c, 4.0f, n);
      barrier();
      AscendC::Cast(tab[kw * lr_], c, AscendC::RoundMode::CAST_RINT, n);
      barrier();
    }
  }

  __aicore__ inline void Decode(uint32_t item) {
    const uint32_t ng = g_.groups * ngPer_;
    const uint32_t cg = item % ng;
    uint32_t rest = item / ng;
    const uint32_t b = rest % nb_;
    rest /= nb_;
    od_ = rest % g_.od;
    n_ = rest / g_.od;
    const uint32_t grp = cg / ngPer_, j = cg % ngPer_;
    co0_ = grp * cog_ + j * g_.grp;
    geff_ = cog_ - j * g_.grp < g_.grp ? cog_ - j * g_.grp : g_.grp;
    oh0_ = b * g_.rows;
    rowsEff_ = g_.oh - oh0_ < g_.rows ? g_.oh - oh0_ : g_.rows;
    ci0_ = (g_.separable || g_.transposed) ? 0 : grp * cig_;
    nci_ = cig_;
  }

  // Input channels [ci0_ + c0, + cn) of the item's rows into xF: zeros, then each valid row at its place.
  __aicore__ inline void LoadInput(uint32_t c0, uint32_t cn) {
    const uint32_t elems = cn * g_.kd * g_.hr * g_.wa;
    AscendC::PipeBarrier<PIPE_ALL>();   // the previous chunk's gathers have read xF
    AscendC::LocalTensor<float> xF = xF_.Get<float>()[lead_];   // im2col keeps a zero row first
    AscendC::LocalTensor<T> dst;
    if constexpr (kF32) dst = xF;
    else dst = xT_.Get<T>();
    if constexpr (kF32) AscendC::Duplicate(dst, 0.0f, static_cast<int32_t>(elems));
    else AscendC::Duplicate(dst.template ReinterpretCast<int16_t>(), int16_t(0), static_cast<int32_t>(elems));
    AscendC::PipeBarrier<PIPE_ALL>();
    const uint32_t es = sizeof(T);
    const uint32_t rowBytes = static_cast<uint32_t>(RoundUp(uint64_t(g_.iw) * es, 32));
    const uint8_t rpad = static_cast<uint8_t>((rowBytes / es) - g_.iw);
    for (uint32_t c = 0; c < cn; ++c)
      for (uint32_t kd = 0; kd < g_.kd; ++kd) {
        const int64_t pl = int64_t(od_) * g_.sd - g_.pd + int64_t(kd) * g_.dd;
        if (pl < 0 || pl >= g_.id) continue;   // a padding plane stays zero
        const uint64_t plane = ((uint64_t(n_) * g_.cin + ci0_ + c0 + c) * g_.id + pl) * g_.ih * g_.iw;
        int64_t first, count, step;   // staged rows first, first + step, ... hold input rows in order
        int64_t inRow;
        if (g_.transposed) {   // staged row l is dilated row oh0 + ph - (kh - 1) * dh + l: input row t / sh
          const int64_t t0 = int64_t(oh0_) + g_.ph - int64_t(g_.kh - 1) * g_.dh;
          first = 0;
          while (first < g_.hr && (t0 + first < 0 || (t0 + first) % g_.sh != 0)) ++first;
          inRow = (t0 + first) / g_.sh;
          step = g_.sh;
          count = first < g_.hr ? (g_.hr - 1 - first) / step + 1 : 0;
          if (inRow + count > g_.ih) count = g_.ih - inRow;
        } else {   // staged row l is input row oh0 * sh - ph + l
          const int64_t t0 = int64_t(oh0_) * g_.sh - g_.ph;
          first = t0 < 0 ? -t0 : 0;
          inRow = t0 + first;
          step = 1;
          count = g_.hr - first;
          if (inRow + count > g_.ih) count = g_.ih - inRow;
        }
        if (count <= 0) continue;
        const uint32_t dstGap = static_cast<uint32_t>((uint64_t(step) * g_.wa * es - rowBytes) / 32);
        AscendC::DataCopyExtParams p(static_cast<uint16_t>(count), g_.iw * es, 0, dstGap, 0);
        AscendC::DataCopyPadExtParams<T> pad(true, 0, rpad, static_cast<T>(0));
        AscendC::DataCopyPad(dst[((c * g_.kd + kd) * g_.hr + first) * g_.wa], xGm_[plane + uint64_t(inRow) * g_.iw], p,
                             pad);
      }
    AscendC::PipeBarrier<PIPE_ALL>();
    if constexpr (!kF32) {
      Convert(xF, dst, elems);
      AscendC::PipeBarrier<PIPE_V>();
    }
  }

  ConvGeom g_{};
  uint32_t cig_ = 0, cog_ = 0, lr_ = 0, nb_ = 0, ngPer_ = 0, taps_ = 0;
  uint32_t n_ = 0, od_ = 0, oh0_ = 0, rowsEff_ = 0, co0_ = 0, geff_ = 0, ci0_ = 0, nci_ = 0;
  uint32_t lead_ = 0;   // elements before the staged rows in xF (one zero row, but for a transposed conv)
  uint32_t xAll_ = 0;   // xF's elements: lead_, the staged rows, the slack the tables' padding entries may reach
  bool hasExtra_ = false;
  AscendC::GlobalTensor<T> xGm_, wGm_, w2Gm_, bGm_, yGm_, eGm_, colGm_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> colQ_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tabWork_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xF_, xT_, tab_, tmp_, tmp2_, acc_, out_, wF_, wT_, w2F_, bF_, eF_, math_, act_;
};
}  // namespace kt
#endif
