// emit (resize programs): the op project of an interpolation. Per core the column tables of the last dim (byte
// offsets and weights per tap, PyTorch's float formulas) are built once; tiles of output rows then read the span of
// source rows they need in one DMA, gather the columns for all rows at once, and blend rows with scalar weights.
#include <fmt/format.h>

#include "tile/emit.h"
#include "tile/resize.h"

namespace kgen::tile {
namespace {

// Taps per output element along the last dim; antialias: -1, the host computes it from the scale (max_interp_size).
int taps_of(const std::string& mode) { return mode == "nearest" ? 1 : mode == "linear" ? 2 : mode == "cubic" ? 4 : -1; }

// The taps of output index i along one dim (source indices, weights), as PyTorch's CPU kernels compute them in
// float: nearest_idx, area_pixel_compute_source_index + guard_index_and_lambda, cubic convolution (A = -0.75).
// The same text is compiled into the kernel (KR_INLINE = __aicore__ inline) and the host (static inline).
std::string taps_fn(const std::string& mode) {
  std::string o =
      "constexpr int32_t kMaxTaps = 32;   // the most taps of one output element along one dim\n"
      "// floor of a float on the scalar unit (source positions may be negative for cubic)\n"
      "KR_INLINE int32_t FloorToInt(float v) {\n"
      "  const int32_t f = static_cast<int32_t>(v);\n"
      "  return static_cast<float>(f) > v ? f - 1 : f;\n"
      "}\n"
      "// The source indices and weights of output index i along a dim of `in` -> `out` elements; returns the taps.\n"
      "KR_INLINE int32_t Taps(int32_t i, int32_t in, int32_t out, float scale, bool align, int32_t* idx, float* w) {\n";
  if (mode == "nearest") {
    o += "  (void)align;\n"
         "  int32_t s = i;                                           // nearest_idx: the same size\n"
         "  if (out == 2 * in) s = i >> 1;                           // an exact doubling\n"
         "  else if (out != in) s = FloorToInt(static_cast<float>(i) * scale);   // floor(i * scale), clamped\n"
         "  idx[0] = s < in - 1 ? s : in - 1;\n"
         "  w[0] = 1.0f;\n"
         "  return 1;\n";
  } else if (mode == "linear") {
    o += "  float src = align ? scale * static_cast<float>(i) : scale * (static_cast<float>(i) + 0.5f) - 0.5f;\n"
         "  if (!align && src < 0.0f) src = 0.0f;                   // area_pixel_compute_source_index\n"
         "  int32_t i0 = FloorToInt(src);\n"
         "  if (i0 > in - 1) i0 = in - 1;\n"
         "  float lambda = src - static_cast<float>(i0);             // guard_index_and_lambda\n"
         "  lambda = lambda < 0.0f ? 0.0f : lambda > 1.0f ? 1.0f : lambda;\n"
         "  idx[0] = i0;\n"
         "  idx[1] = i0 + (i0 < in - 1 ? 1 : 0);\n"
         "  w[0] = 1.0f - lambda;\n"
         "  w[1] = lambda;\n"
         "  return 2;\n";
  } else if (mode == "cubic") {
    o += "  (void)out;\n"
         "  const float src = align ? scale * static_cast<float>(i) : scale * (static_cast<float>(i) + 0.5f) - 0.5f;\n"
         "  const int32_t i0 = FloorToInt(src);\n"
         "  const float t = src - static_cast<float>(i0);\n"
         "  const float a = -0.75f;                                 // cubic convolution, A = -0.75\n"
         "  const float x0 = t + 1.0f, x2 = 1.0f - t, x3 = x2 + 1.0f;\n"
         "  w[0] = ((a * x0 - 5.0f * a) * x0 + 8.0f * a) * x0 - 4.0f * a;\n"
         "  w[1] = ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;\n"
         "  w[2] = ((a + 2.0f) * x2 - (a + 3.0f)) * x2 * x2 + 1.0f;\n"
         "  w[3] = ((a * x3 - 5.0f * a) * x3 + 8.0f * a) * x3 - 4.0f * a;\n"
         "  for (int32_t j = 0; j < 4; ++j) {                       // indices clamped to the input\n"
         "    const int32_t s = i0 - 1 + j;\n"
         "    idx[j] = s < 0 ? 0 : s > in - 1 ? in - 1 : s;\n"
         "  }\n"
         "  return 4;\n";
  } else {   // antialias: a triangle filter widened by the scale when downsampling, normalized (as PIL)
    o += "  (void)out;\n"
         "  (void)align;\n"
         "  const float support = scale >= 1.0f ? scale : 1.0f;        // (interp_size / 2) * scale, interp_size = 2\n"
         "  const float center = scale * (static_cast<float>(i) + 0.5f);\n"
         "  const float invscale = scale >= 1.0f ? 1.0f / scale : 1.0f;\n"
         "  int32_t xmin = static_cast<int32_t>(center - support + 0.5f);\n"
         "  if (xmin < 0) xmin = 0;\n"
         "  int32_t xmax = static_cast<int32_t>(center + support + 0.5f);\n"
         "  if (xmax > in) xmax = in;\n"
         "  int32_t n = xmax - xmin;\n"
         "  n = n < 0 ? 0 : n > kMaxTaps ? kMaxTaps : n;\n"
         "  float total = 0.0f;\n"
         "  for (int32_t j = 0; j < n; ++j) {\n"
         "    float x = (static_cast<float>(j + xmin) - center + 0.5f) * invscale;\n"
         "    x = x < 0.0f ? -x : x;\n"
         "    w[j] = x < 1.0f ? 1.0f - x : 0.0f;\n"
         "    idx[j] = xmin + j;\n"
         "    total += w[j];\n"
         "  }\n"
         "  for (int32_t j = 0; j < n && total != 0.0f; ++j) w[j] /= total;\n"
         "  return n;\n";
  }
  return o + "}\n";
}

// The first (or last) source row, flattened over the planes and the leading dims, that output row q reads.
std::string src_row_fn() {
  return "// The flattened source row (plane, leading dims) of output row q's first or last tap.\n"
         "KR_INLINE int64_t SrcRow(int64_t q, bool last, int32_t lead, const int32_t* in, const int32_t* out,\n"
         "                         const float* scale, bool align) {\n"
         "  int32_t o[2] = {0, 0}, idx[kMaxTaps];\n"
         "  float w[kMaxTaps];\n"
         "  for (int32_t l = lead - 1; l >= 0; --l) {\n"
         "    o[l] = static_cast<int32_t>(q % out[l]);\n"
         "    q /= out[l];\n"
         "  }\n"
         "  int64_t row = q;                                          // the plane\n"
         "  for (int32_t l = 0; l < lead; ++l) {\n"
         "    const int32_t n = Taps(o[l], in[l], out[l], scale[l], align, idx, w);\n"
         "    row = row * in[l] + idx[last ? n - 1 : 0];\n"
         "  }\n"
         "  return row;\n"
         "}\n"
         "// The source rows [lo, hi] that output rows [q, q + n) read. With one leading dim they grow with q; with two a\n"
         "// tile may wrap from one output depth to the next, where h restarts while d may stay: every row is looked at.\n"
         "KR_INLINE void Span(int64_t q, int64_t n, int32_t lead, const int32_t* in, const int32_t* out, const float* scale,\n"
         "                    bool align, int64_t& lo, int64_t& hi) {\n"
         "  lo = SrcRow(q, false, lead, in, out, scale, align);\n"
         "  hi = SrcRow(q + n - 1, true, lead, in, out, scale, align);\n"
         "  for (int64_t r = 1; lead == 2 && r < n; ++r) {\n"
         "    const int64_t a = SrcRow(q + r, false, lead, in, out, scale, align);\n"
         "    const int64_t b = SrcRow(q + r - 1, true, lead, in, out, scale, align);\n"
         "    lo = a < lo ? a : lo;\n"
         "    hi = b > hi ? b : hi;\n"
         "  }\n"
         "}\n";
}

std::string kernel(const Kernel& k) {
  const ResizeSpec& rz = k.rz;
  const TensorArg &x = k.tensors[rz.x], &y = k.tensors[rz.y];
  const std::string cls = "Kernel" + k.op_type.substr(0, k.op_type.size() - 6);
  const int th = taps_of(rz.mode);
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} kernel, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  if (!k.doc.empty()) line(doc_comment(k.doc));
  line(fmt::format("// A resize program: {}", rz.text));
  line("// Output rows (plane, leading output dims) are split over the cores. Each core builds the column tables of the");
  line("// last dim once (per tap: byte offsets into a row of the source span, weights), then per tile of rows: one");
  line("// DMA of the span of source rows the tile reads, a Gather per tap over all span rows (the horizontal pass),");
  line("// a weighted sum of span rows per output row (scalar weights: the vertical pass), one DMA out.");
  line("#include \"kernel_operator.h\"");
  line();
  line("#define KR_INLINE __aicore__ inline");
  o += taps_fn(rz.mode);
  o += src_row_fn();
  line();
  line("template <typename T>");
  line("class " + cls + " {");
  line(" public:");
  line(fmt::format("  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const {}TilingData& t, AscendC::TPipe* pipe) {{",
                   k.op_type));
  line("    rows_ = t.rows;");
  line("    perCore_ = t.perCore;");
  line("    tileRows_ = t.tileRows;");
  line("    maxSpan_ = t.maxSpan;");
  line("    lead_ = t.lead;");
  line("    align_ = t.align != 0;");
  line("    in_[0] = t.in0; in_[1] = t.in1; in_[2] = t.in2;");
  line("    out_[0] = t.out0; out_[1] = t.out1; out_[2] = t.out2;");
  line("    scale_[0] = t.scale0; scale_[1] = t.scale1; scale_[2] = t.scale2;");
  line("    ws_ = t.ws;");
  line("    ows_ = t.ows;");
  line("    taps_ = t.taps;");
  line("    xGm_.SetGlobalBuffer((__gm__ T*)x);");
  line("    yGm_.SetGlobalBuffer((__gm__ T*)y);");
  line("    pipe->InitBuffer(inQ_, 2, maxSpan_ * ws_ * sizeof(T));        // the span of source rows, double-buffered");
  line("    pipe->InitBuffer(outQ_, 2, tileRows_ * ows_ * sizeof(T));     // a tile of output rows");
  line("    pipe->InitBuffer(offBuf_, taps_ * maxSpan_ * ows_ * sizeof(uint32_t));   // per tap: byte offsets");
  if (th != 1) line("    pipe->InitBuffer(wBuf_, taps_ * maxSpan_ * ows_ * sizeof(float));       // per tap: weights");
  line("    pipe->InitBuffer(hBuf_, maxSpan_ * ows_ * sizeof(float));     // the span's rows, resized along the last dim");
  if (th != 1) line("    pipe->InitBuffer(gBuf_, maxSpan_ * ows_ * sizeof(float));     // one tap's gathered columns");
  line(fmt::format("    pipe->InitBuffer(tmpBuf_, {} * ows_ * sizeof(float));          // the tables' float positions",
                   rz.mode == "cubic" ? 4 : 2));
  line("    if constexpr (!kF32) {                                        // float32 copies of half/bfloat16 data");
  line("      pipe->InitBuffer(spanBuf_, maxSpan_ * ws_ * sizeof(float));");
  line("      pipe->InitBuffer(accBuf_, tileRows_ * ows_ * sizeof(float));");
  line("    }");
  line("  }");
  line();
  line("  __aicore__ inline void Process() {");
  line("    const int64_t q0 = static_cast<int64_t>(AscendC::GetBlockIdx()) * perCore_;");
  line("    if (q0 >= rows_) return;");
  line("    const int64_t q1 = q0 + perCore_ < rows_ ? q0 + perCore_ : rows_;");
  line("    Tables();");
  line("    for (int64_t q = q0; q < q1; q += tileRows_) Tile(q, static_cast<uint32_t>(q1 - q < tileRows_ ? q1 - q : tileRows_));");
  line("  }");
  line();
  line(" private:");
  line("  static constexpr bool kF32 = std::is_same<T, float>::value;");
  line();
  line("  // The last dim's tables: row 0 by the scalar formulas, rows 1.. of the span by doubling (offsets + s * row).");
  line("  __aicore__ inline void Tables() {");
  line("    const int32_t d = lead_, inW = in_[d], outW = out_[d];");
  line("    (void)outW;");
  line("    const uint32_t plane = maxSpan_ * ows_;");
  line("    AscendC::LocalTensor<int32_t> off = offBuf_.Get<int32_t>();");
  if (th != 1) line("    AscendC::LocalTensor<float> wt = wBuf_.Get<float>();");
  if (rz.mode == "antialias") {   // a variable number of normalized weights per column: the scalar formulas, once
    line("    int32_t idx[kMaxTaps];");
    line("    float w[kMaxTaps];");
    line("    for (int32_t j = 0; j < static_cast<int32_t>(ows_); ++j) {");
    line("      const int32_t n = j < outW ? Taps(j, inW, outW, scale_[d], align_, idx, w) : 0;");
    line("      for (int32_t t = 0; t < taps_; ++t) {                     // missing taps: column 0, weight 0");
    line("        off.SetValue(t * plane + j, t < n ? idx[t] * static_cast<int32_t>(sizeof(float)) : 0);");
    line("        wt.SetValue(t * plane + j, t < n ? w[t] : 0.0f);");
    line("      }");
    line("    }");
    line("    event_t sv = static_cast<event_t>(AscendC::GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));");
    line("    AscendC::SetFlag<AscendC::HardEvent::S_V>(sv);");
    line("    AscendC::WaitFlag<AscendC::HardEvent::S_V>(sv);");
  } else if (rz.mode == "cubic") {   // the same float formulas as Taps, on the vector unit over all columns at once
    line("    AscendC::LocalTensor<float> src = tmpBuf_.Get<float>(), t = src[ows_], x = src[2 * ows_], p = src[3 * ows_];");
    line("    AscendC::CreateVecIndex(src, 0.0f, ows_);                    // the output column j, as a float");
    line("    if (align_) {                                               // area_pixel_compute_source_index");
    line("      AscendC::Muls(src, src, scale_[d], ows_);");
    line("    } else {");
    line("      AscendC::Adds(src, src, 0.5f, ows_);");
    line("      AscendC::Muls(src, src, scale_[d], ows_);");
    line("      AscendC::Adds(src, src, -0.5f, ows_);");
    line("    }");
    line("    AscendC::LocalTensor<int32_t> i0 = off[3 * plane];            // floor(src), then the clamped taps");
    line("    AscendC::Cast(i0, src, AscendC::RoundMode::CAST_FLOOR, ows_);");
    line("    AscendC::Cast(t, i0, AscendC::RoundMode::CAST_NONE, ows_);");
    line("    AscendC::Sub(t, src, t, ows_);                               // t = src - floor(src)");
    line("    const float a = -0.75f;                                     // cubic convolution, A = -0.75");
    line("    for (int32_t k = 0; k < 4; ++k) {");
    line("      // x: the distance of tap k; taps 0 and 3 use the outer polynomial, 1 and 2 the inner one");
    line("      if (k == 0) AscendC::Adds(x, t, 1.0f, ows_);");
    line("      else if (k == 1) AscendC::Adds(x, t, 0.0f, ows_);");
    line("      else if (k == 2) { AscendC::Muls(x, t, -1.0f, ows_); AscendC::Adds(x, x, 1.0f, ows_); }");
    line("      else AscendC::Adds(x, x, 1.0f, ows_);");
    line("      const bool outer = k == 0 || k == 3;");
    line("      AscendC::Muls(p, x, outer ? a : a + 2.0f, ows_);");
    line("      AscendC::Adds(p, p, outer ? -5.0f * a : -(a + 3.0f), ows_);");
    line("      AscendC::Mul(p, p, x, ows_);");
    line("      if (outer) {");
    line("        AscendC::Adds(p, p, 8.0f * a, ows_);");
    line("        AscendC::Mul(p, p, x, ows_);");
    line("        AscendC::Adds(wt[k * plane], p, -4.0f * a, ows_);");
    line("      } else {");
    line("        AscendC::Mul(p, p, x, ows_);");
    line("        AscendC::Adds(wt[k * plane], p, 1.0f, ows_);");
    line("      }");
    line("    }");
    line("    for (int32_t k = 0; k < 4; ++k) {                          // idx k = clamp(i0 - 1 + k, 0, in - 1), in bytes");
    line("      AscendC::Adds(off[k * plane], i0, k - 1, ows_);");
    line("      AscendC::Maxs(off[k * plane], off[k * plane], 0, ows_);");
    line("      AscendC::Mins(off[k * plane], off[k * plane], inW - 1, ows_);");
    line("      AscendC::Muls(off[k * plane], off[k * plane], static_cast<int32_t>(sizeof(float)), ows_);");
    line("    }");
  } else {   // the same float formulas as Taps, on the vector unit over all columns at once
    line("    AscendC::LocalTensor<float> src = tmpBuf_.Get<float>();");
    line("    AscendC::CreateVecIndex(src, 0.0f, ows_);                    // the output column j, as a float");
    if (rz.mode == "nearest") {
      line("    // nearest_idx: j, j >> 1 for an exact doubling, else floor(j * scale)");
      line("    const float s = outW == inW ? 1.0f : outW == 2 * inW ? 0.5f : scale_[d];");
      line("    AscendC::Muls(src, src, s, ows_);");
      line("    AscendC::Cast(off, src, AscendC::RoundMode::CAST_FLOOR, ows_);");
      line("    AscendC::Mins(off, off, inW - 1, ows_);");
      line("    AscendC::Muls(off, off, static_cast<int32_t>(sizeof(float)), ows_);   // byte offsets");
    } else {
      line("    AscendC::LocalTensor<float> f0 = src[ows_];");
      line("    AscendC::LocalTensor<int32_t> i1 = off[plane];");
      line("    if (align_) {                                               // area_pixel_compute_source_index");
      line("      AscendC::Muls(src, src, scale_[d], ows_);");
      line("    } else {");
      line("      AscendC::Adds(src, src, 0.5f, ows_);");
      line("      AscendC::Muls(src, src, scale_[d], ows_);");
      line("      AscendC::Adds(src, src, -0.5f, ows_);");
      line("      AscendC::Maxs(src, src, 0.0f, ows_);");
      line("    }");
      line("    AscendC::Cast(off, src, AscendC::RoundMode::CAST_FLOOR, ows_);   // i0 = min(floor(src), in - 1)");
      line("    AscendC::Mins(off, off, inW - 1, ows_);");
      line("    AscendC::Cast(f0, off, AscendC::RoundMode::CAST_NONE, ows_);");
      line("    AscendC::Sub(src, src, f0, ows_);                            // lambda = clamp(src - i0, 0, 1)");
      line("    AscendC::Maxs(src, src, 0.0f, ows_);");
      line("    AscendC::Mins(wt[plane], src, 1.0f, ows_);                   // w1 = lambda");
      line("    AscendC::Muls(wt, wt[plane], -1.0f, ows_);");
      line("    AscendC::Adds(wt, wt, 1.0f, ows_);                           // w0 = 1 - lambda");
      line("    AscendC::Adds(i1, off, 1, ows_);                             // i1 = i0 + (i0 < in - 1)");
      line("    AscendC::Mins(i1, i1, inW - 1, ows_);");
      line("    AscendC::Muls(off, off, static_cast<int32_t>(sizeof(float)), ows_);   // byte offsets");
      line("    AscendC::Muls(i1, i1, static_cast<int32_t>(sizeof(float)), ows_);");
    }
  }
  line("    AscendC::PipeBarrier<PIPE_V>();");
  line("    for (uint32_t have = 1; have < maxSpan_; have *= 2) {");
  line("      const uint32_t n = (have < maxSpan_ - have ? have : maxSpan_ - have) * ows_;");
  line("      for (int32_t t = 0; t < taps_; ++t) {");
  line("        AscendC::Adds(off[t * plane + have * ows_], off[t * plane], static_cast<int32_t>(have * ws_ * sizeof(float)), n);");
  if (th != 1) line("        AscendC::Adds(wt[t * plane + have * ows_], wt[t * plane], 0.0f, n);");
  line("      }");
  line("      AscendC::PipeBarrier<PIPE_V>();");
  line("    }");
  line("  }");
  line();
  line("  // Output rows [q, q + n): the span of source rows in, the horizontal taps, the vertical blend, the rows out.");
  line("  __aicore__ inline void Tile(int64_t q, uint32_t n) {");
  line("    int64_t lo = 0, hi = 0;");
  line("    Span(q, n, lead_, in_, out_, scale_, align_, lo, hi);");
  line("    const uint32_t span = static_cast<uint32_t>(hi - lo + 1);");
  line("    const int32_t inW = in_[lead_], outW = out_[lead_];");
  line(fmt::format("    // copy-in: rows [lo, lo + span) of {} in one DMA (each row padded to 32 bytes in UB)", x.name));
  line("    AscendC::LocalTensor<T> s = inQ_.AllocTensor<T>();");
  line("    AscendC::DataCopyExtParams in{static_cast<uint16_t>(span), static_cast<uint32_t>(inW * sizeof(T)), 0, 0, 0};");
  line("    AscendC::DataCopyPad(s, xGm_[lo * inW], in, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});");
  line("    inQ_.EnQue(s);");
  line("    s = inQ_.DeQue<T>();");
  line("    AscendC::LocalTensor<float> src;");
  line("    if constexpr (kF32) {");
  line("      src = s;");
  line("    } else {");
  line("      src = spanBuf_.Get<float>();");
  line("      AscendC::Cast(src, s, AscendC::RoundMode::CAST_NONE, span * ws_);");
  line("    }");
  line("    // horizontal: every span row resized along the last dim, sum over taps of weight * gathered column");
  line("    const uint32_t plane = maxSpan_ * ows_, cnt = span * ows_;");
  line("    AscendC::LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();");
  line("    AscendC::LocalTensor<float> h = hBuf_.Get<float>();");
  line("    AscendC::Gather(h, src, off, 0, cnt);");
  if (th != 1) {
    line("    AscendC::LocalTensor<float> wt = wBuf_.Get<float>(), g = gBuf_.Get<float>();");
    line("    AscendC::Mul(h, h, wt, cnt);");
    line("    for (int32_t t = 1; t < taps_; ++t) {");
    line("      AscendC::Gather(g, src, off[t * plane], 0, cnt);");
    line("      AscendC::Mul(g, g, wt[t * plane], cnt);");
    line("      AscendC::Add(h, h, g, cnt);");
    line("    }");
  }
  line("    inQ_.FreeTensor(s);");
  line("    // vertical: each output row is a weighted sum of span rows (the taps of its leading dims)");
  line("    AscendC::LocalTensor<T> y = outQ_.AllocTensor<T>();");
  line("    AscendC::LocalTensor<float> acc;");
  line("    if constexpr (kF32) acc = y;");
  line("    else acc = accBuf_.Get<float>();");
  line("    for (uint32_t r = 0; r < n; ++r) Blend(acc[r * ows_], h, q + r, lo);");
  line("    if constexpr (!kF32) AscendC::Cast(y, acc, AscendC::RoundMode::CAST_RINT, n * ows_);");
  line("    outQ_.EnQue(y);");
  line(fmt::format("    // copy-out: the tile's rows of {}, contiguous in GM", y.name));
  line("    y = outQ_.DeQue<T>();");
  line("    AscendC::DataCopyExtParams outP{static_cast<uint16_t>(n), static_cast<uint32_t>(outW * sizeof(T)), 0, 0, 0};");
  line("    AscendC::DataCopyPad(yGm_[q * outW], y, outP);");
  line("    outQ_.FreeTensor(y);");
  line("  }");
  line();
  line("  // Output row q <- sum over its leading-dim taps (product weights) of span rows of h.");
  line("  __aicore__ inline void Blend(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& h, int64_t q, int64_t lo) {");
  line("    int32_t o[2] = {0, 0}, idx[2][kMaxTaps] = {{0}}, cnt[2] = {1, 1};");
  line("    float w[2][kMaxTaps] = {{1.0f}, {1.0f}};");
  line("    for (int32_t l = lead_ - 1; l >= 0; --l) {");
  line("      o[l] = static_cast<int32_t>(q % out_[l]);");
  line("      q /= out_[l];");
  line("    }");
  line("    for (int32_t l = 0; l < lead_; ++l) cnt[l] = Taps(o[l], in_[l], out_[l], scale_[l], align_, idx[l], w[l]);");
  line("    const int64_t stride1 = lead_ == 2 ? in_[1] : 1;");
  line("    int64_t base = q;                                          // the plane's first source row");
  line("    for (int32_t l = 0; l < lead_; ++l) base *= in_[l];");
  line("    bool first = true;");
  line("    for (int32_t a = 0; a < cnt[0]; ++a)");
  line("      for (int32_t b = 0; b < cnt[1]; ++b) {");
  line("        int64_t row = base;");
  line("        if (lead_ == 2) row += idx[0][a] * stride1 + idx[1][b];");
  line("        else if (lead_ == 1) row += idx[0][a];");
  line("        const float wgt = w[0][a] * w[1][b];");
  line("        const uint32_t at = static_cast<uint32_t>(row - lo) * ows_;");
  line("        if (first) AscendC::Muls(dst, h[at], wgt, ows_);");
  line("        else AscendC::Axpy(dst, h[at], wgt, ows_);");
  line("        first = false;");
  line("      }");
  line("  }");
  line();
  line("  AscendC::GlobalTensor<T> xGm_, yGm_;");
  line("  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;");
  line("  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ_;");
  line("  AscendC::TBuf<AscendC::TPosition::VECCALC> offBuf_, wBuf_, hBuf_, gBuf_, spanBuf_, accBuf_, tmpBuf_;");
  line("  int64_t rows_ = 0, perCore_ = 0, tileRows_ = 1;");
  line("  uint32_t maxSpan_ = 1, ws_ = 8, ows_ = 8;");
  line("  int32_t taps_ = 1;");
  line("  int32_t lead_ = 0, in_[3] = {1, 1, 1}, out_[3] = {1, 1, 1};");
  line("  float scale_[3] = {0, 0, 0};");
  line("  bool align_ = false;");
  line("};");
  line();
  line(fmt::format("extern \"C\" __global__ __aicore__ void {}(GM_ADDR {}, GM_ADDR {}, GM_ADDR workspace, GM_ADDR tiling) {{",
                   k.kernel_symbol, camel_lower(x.name), camel_lower(y.name)));
  line("  GET_TILING_DATA(t, tiling);");
  line("  AscendC::TPipe pipe;");
  line(fmt::format("  {}<DTYPE_{}> op;", cls, upper(x.name)));
  line(fmt::format("  op.Init({}, {}, t, &pipe);", camel_lower(x.name), camel_lower(y.name)));
  line("  op.Process();");
  line("}");
  return o;
}

std::string tiling_header(const Kernel& k) {
  std::string o = tiling_header_open(k, false);
  o += "BEGIN_TILING_DATA_DEF(" + k.op_type + "TilingData)\n";
  auto f = [&](const char* t, const char* n, const char* why) {
    o += fmt::format("TILING_DATA_FIELD_DEF({}, {});   // {}\n", t, n, why);
  };
  f("int64_t", "rows", "output rows: planes x the leading output dims");
  f("int64_t", "perCore", "output rows per core");
  f("int64_t", "tileRows", "output rows per tile");
  f("uint32_t", "maxSpan", "the most source rows one tile reads");
  f("int32_t", "lead", "interpolated dims before the last (0-2)");
  f("int32_t", "align", "align_corners");
  for (int i = 0; i < 3; ++i) {
    f("int32_t", fmt::format("in{}", i).c_str(), "an interpolated dim of the input (the last is the row)");
    f("int32_t", fmt::format("out{}", i).c_str(), "its output size");
    f("float", fmt::format("scale{}", i).c_str(), "its source-index scale (area_pixel_compute_scale)");
  }
  f("uint32_t", "ws", "input row stride in UB (elements, 32-byte padded)");
  f("uint32_t", "ows", "output row stride in UB (elements, 32-byte padded)");
  f("int32_t", "taps", "taps per output column along the last dim");
  o += tiling_header_close(k);
  return o;
}

std::string host(const Kernel& k) {
  const ResizeSpec& rz = k.rz;
  const int th = taps_of(rz.mode);
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} host side, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  line("// Output sizes from the attrs, the per-dim scales as PyTorch computes them, the output rows split over the");
  line("// vector cores, and the tile of rows: the largest whose span of source rows fits UB with the tables.");
  line("#include <algorithm>");
  line("#include <cmath>");
  line("#include <cstdint>");
  line("#include \"" + k.kernel_symbol + "_tiling.h\"");
  line("#include \"register/op_def_registry.h\"");
  line("#include \"tiling/platform/platform_ascendc.h\"");
  line();
  line("#define KR_INLINE static inline");
  o += taps_fn(rz.mode);
  o += src_row_fn();
  line();
  line("namespace {");
  line("// The output size of each interpolated dim (sp of them) of an input shape, from the attrs.");
  line("bool OutSizes(const gert::RuntimeAttrs* attrs, const gert::Shape& x, size_t sp, int64_t* in, int64_t* out, float* scale) {");
  line("  if (x.GetDimNum() < sp + 1) return false;");
  if (rz.size_attr >= 0) {
    line(fmt::format("  const gert::TypedContinuousVector<int64_t>* size = attrs->GetListInt({});   // {}", rz.size_attr,
                     k.attrs[rz.size_attr].name));
    line("  if (size == nullptr || size->GetSize() != sp) return false;");
  } else {
    line(fmt::format("  const float* s = attrs->GetAttrPointer<float>({});   // {}", rz.scale_attr, k.attrs[rz.scale_attr].name));
    line("  if (s == nullptr || *s <= 0) return false;");
  }
  line("  for (size_t i = 0; i < sp; ++i) {");
  line("    in[i] = x.GetDim(x.GetDimNum() - sp + i);");
  if (rz.size_attr >= 0) {
    line("    out[i] = size->GetData()[i];");
    line("    scale[i] = static_cast<float>(in[i]) / static_cast<float>(out[i]);   // compute_scales_value without a scale");
  } else {
    line("    out[i] = static_cast<int64_t>(std::floor(static_cast<double>(in[i]) * static_cast<double>(*s)));");
    line("    scale[i] = static_cast<float>(1.0 / static_cast<double>(*s));   // compute_scales_value");
  }
  line("    if (in[i] <= 0 || out[i] <= 0 || in[i] > 0x7fffffff || out[i] > 0x7fffffff) return false;");
  line("  }");
  line("  return true;");
  line("}");
  line("}  // namespace");
  line();
  line("namespace optiling {");
  line("static ge::graphStatus TilingFunc(gert::TilingContext* context) {");
  line("  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());");
  line(fmt::format("  const size_t sp = {};", rz.spatial));
  line("  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};");
  line("  float scale[3] = {0, 0, 0};");
  line("  const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();");
  line("  if (!OutSizes(context->GetAttrs(), x, sp, in, out, scale)) return ge::GRAPH_FAILED;");
  if (rz.align_attr >= 0) {
    line(fmt::format("  const bool* alignPtr = context->GetAttrs()->GetAttrPointer<bool>({});", rz.align_attr));
    line("  const bool align = alignPtr != nullptr && *alignPtr;");
    line("  if (align)   // area_pixel_compute_scale: (in - 1) / (out - 1)");
    line("    for (size_t i = 0; i < sp; ++i) scale[i] = out[i] > 1 ? static_cast<float>(in[i] - 1) / static_cast<float>(out[i] - 1) : 0.0f;");
  } else {
    line("  const bool align = false;");
  }
  line("  int64_t planes = 1;");
  line("  for (size_t d = 0; d + sp < x.GetDimNum(); ++d) planes *= x.GetDim(d);");
  line("  int64_t rows = planes;");
  line("  for (size_t i = 0; i + 1 < sp; ++i) rows *= out[i];");
  line("  const uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;   // f32, f16, bf16");
  line("  const uint32_t perBlock = 32 / elem;");
  line("  const uint32_t ws = static_cast<uint32_t>((in[sp - 1] + perBlock - 1) / perBlock * perBlock);");
  line("  const uint32_t ows = static_cast<uint32_t>((out[sp - 1] + perBlock - 1) / perBlock * perBlock);");
  line("  const uint32_t aiv = platform.GetCoreNumAiv();");
  line("  const int64_t cores = rows < static_cast<int64_t>(aiv) ? (rows > 0 ? rows : 1) : aiv;");
  line("  const int64_t perCore = (rows + cores - 1) / cores;");
  line("  int32_t inI[3], outI[3];");
  line("  for (int i = 0; i < 3; ++i) inI[i] = static_cast<int32_t>(in[i]), outI[i] = static_cast<int32_t>(out[i]);");
  line("  const int32_t lead = static_cast<int32_t>(sp) - 1;");
  line("  // The most source rows a tile of `tile` output rows reads, over every tile of every core.");
  line("  auto maxSpan = [&](int64_t tile) {");
  line("    int64_t most = 1;");
  line("    for (int64_t c = 0; c * perCore < rows; ++c)");
  line("      for (int64_t q = c * perCore; q < rows && q < (c + 1) * perCore; q += tile) {");
  line("        const int64_t last = std::min(std::min(q + tile, (c + 1) * perCore), rows) - 1;");
  line("        int64_t lo = 0, hi = 0;");
  line("        Span(q, last - q + 1, lead, inI, outI, scale, align, lo, hi);");
  line("        most = std::max(most, hi - lo + 1);");
  line("      }");
  line("    return most + 2;   // room for the kernel's own rounding of the same formulas");
  line("  };");
  line("  uint64_t ub = 0;");
  line("  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);");
  line("  const uint64_t budget = ub - 8 * 1024;   // room for the runtime's own use");
  if (th > 0) {
    line(fmt::format("  const uint64_t taps = {};", th));
  } else {   // antialias: max_interp_size of each dim, ceil(support) * 2 + 1
    line("  uint64_t taps = 1;");
    line("  for (size_t i = 0; i < sp; ++i) {");
    line("    const float support = scale[i] >= 1.0f ? scale[i] : 1.0f;");
    line("    const uint64_t t = static_cast<uint64_t>(std::ceil(support)) * 2 + 1;");
    line("    if (t > 32) return ge::GRAPH_FAILED;   // kMaxTaps: a downscale by more than 15");
    line("    if (i + 1 == sp) taps = t;");
    line("  }");
  }
  line("  auto bytes = [&](int64_t tile, int64_t span) {");
  line("    uint64_t b = 2 * span * ws * elem + 2 * tile * ows * elem;                 // the in and out queues");
  line("    b += taps * span * ows * 4 * (taps > 1 ? 2 : 1) + span * ows * 4 * (taps > 1 ? 2 : 1);   // tables, h, g");
  line("    b += 4 * ows * 4;                                                          // table temporaries");
  line("    if (elem != 4) b += span * ws * 4 + tile * ows * 4;                        // float32 copies");
  line("    return b;");
  line("  };");
  line("  int64_t tile = perCore < 1024 ? perCore : 1024, span = maxSpan(tile);");
  line("  while (tile > 1 && (bytes(tile, span) > budget || span > 4095)) {");
  line("    tile = (tile + 1) / 2;");
  line("    span = maxSpan(tile);");
  line("  }");
  line("  if (bytes(tile, span) > budget) return ge::GRAPH_FAILED;   // one row's span does not fit UB");
  line(fmt::format("  {}TilingData tiling;", k.op_type));
  line("  tiling.set_rows(rows);");
  line("  tiling.set_perCore(perCore);");
  line("  tiling.set_tileRows(tile);");
  line("  tiling.set_maxSpan(static_cast<uint32_t>(span));");
  line("  tiling.set_lead(lead);");
  line("  tiling.set_align(align ? 1 : 0);");
  line("  tiling.set_in0(inI[0]); tiling.set_in1(inI[1]); tiling.set_in2(inI[2]);");
  line("  tiling.set_out0(outI[0]); tiling.set_out1(outI[1]); tiling.set_out2(outI[2]);");
  line("  tiling.set_scale0(scale[0]); tiling.set_scale1(scale[1]); tiling.set_scale2(scale[2]);");
  line("  tiling.set_ws(ws);");
  line("  tiling.set_ows(ows);");
  line("  tiling.set_taps(static_cast<int32_t>(taps));");
  line("  context->SetBlockDim(static_cast<uint32_t>(cores));");
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
  line("  const gert::Shape* x = context->GetInputShape(0);");
  line("  gert::Shape* y = context->GetOutputShape(0);");
  line(fmt::format("  const size_t sp = {};", rz.spatial));
  line("  int64_t in[3], out[3];");
  line("  float scale[3];");
  line("  if (!OutSizes(context->GetAttrs(), *x, sp, in, out, scale)) return GRAPH_FAILED;");
  line("  *y = *x;   // the leading dims are kept, the interpolated ones resized");
  line("  for (size_t i = 0; i < sp; ++i) y->SetDim(x->GetDimNum() - sp + i, out[i]);");
  line("  return GRAPH_SUCCESS;");
  line("}");
  line();
  line("static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {");
  line("  context->SetOutputDataType(0, context->GetInputDataType(0));");
  line("  return GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace ge");
  line();
  // OpDef: the tensors, then the attrs (list attrs as ListInt).
  line("namespace ops {");
  line(fmt::format("class {} : public OpDef {{", k.op_type));
  line(" public:");
  line(fmt::format("  explicit {}(const char* name) : OpDef(name) {{", k.op_type));
  const TensorArg& x = k.tensors[rz.x];
  std::vector<DType> cols = x.type.var >= 0 ? k.dtype_vars[x.type.var].types : std::vector<DType>{x.type.fixed};
  std::string types, formats;
  for (DType d : cols) {
    types += (types.empty() ? "" : ", ") + std::string(dtype_ge(d));
    formats += (formats.empty() ? "" : ", ") + std::string("ge::FORMAT_ND");
  }
  for (const TensorArg& t : k.tensors) {
    line(fmt::format("    this->{}(\"{}\")", t.output ? "Output" : "Input", t.name));
    line("        .ParamType(REQUIRED)");
    line(fmt::format("        .DataType({{{}}})", types));
    line(fmt::format("        .Format({{{}}})", formats));
    line(fmt::format("        .UnknownShapeFormat({{{}}});", formats));
  }
  for (size_t i = 0; i < k.attrs.size(); ++i) {
    const AttrArg& a = k.attrs[i];
    if (rz.list_len[i] > 0) {
      std::string v;
      for (int64_t e : rz.list_default[i]) v += (v.empty() ? "" : ", ") + std::to_string(e);
      line(fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).ListInt({{{}}});", a.name, v));
    } else if (a.type == DType::F32) {
      line(fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Float({:g});", a.name, a.default_value));
    } else if (a.type == DType::I32) {
      line(fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Int({});", a.name, static_cast<int64_t>(a.default_value)));
    } else {
      line(fmt::format("    this->Attr(\"{}\").AttrType(OPTIONAL).Bool({});", a.name, a.default_value != 0 ? "true" : "false"));
    }
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

std::string json(const Kernel& k) {
  const ResizeSpec& rz = k.rz;
  const TensorArg& x = k.tensors[rz.x];
  std::vector<DType> cols = x.type.var >= 0 ? k.dtype_vars[x.type.var].types : std::vector<DType>{x.type.fixed};
  std::string types, formats;
  for (DType d : cols) {
    types += (types.empty() ? "" : ", ") + fmt::format("\"{}\"", dtype_json(d));
    formats += (formats.empty() ? "" : ", ") + std::string("\"ND\"");
  }
  auto desc = [&](const TensorArg& t) {
    return fmt::format("      {{\"name\": \"{}\", \"param_type\": \"required\", \"format\": [{}], \"type\": [{}]}}", t.name,
                       formats, types);
  };
  std::string o = "[\n  {\n    \"op\": \"" + k.op_type + "\",\n    \"language\": \"cpp\",\n";
  o += "    \"input_desc\": [\n" + desc(x) + "\n    ],\n";
  o += "    \"output_desc\": [\n" + desc(k.tensors[rz.y]) + "\n    ],\n    \"attr\": [\n";
  for (size_t i = 0; i < k.attrs.size(); ++i) {
    const AttrArg& a = k.attrs[i];
    std::string t, v;
    if (rz.list_len[i] > 0) {
      t = "list_int";
      for (int64_t e : rz.list_default[i]) v += (v.empty() ? "" : ",") + std::to_string(e);
    } else if (a.type == DType::F32) {
      t = "float", v = fmt::format("{:g}", a.default_value);
    } else if (a.type == DType::I32) {
      t = "int", v = std::to_string(static_cast<int64_t>(a.default_value));
    } else {
      t = "bool", v = a.default_value != 0 ? "true" : "false";
    }
    o += fmt::format("      {{\"name\": \"{}\", \"param_type\": \"optional\", \"type\": \"{}\", \"default_value\": \"{}\"}}{}\n",
                     a.name, t, v, i + 1 < k.attrs.size() ? "," : "");
  }
  return o + "    ]\n  }\n]\n";
}
}  // namespace

std::map<std::string, std::string> emit_resize(const Kernel& k) {
  return project_files(k, kernel(k), tiling_header(k), host(k), json(k));
}
}  // namespace kgen::tile
