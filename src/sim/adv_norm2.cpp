// RmsNorm ([B, S, H]) and LogSoftMax (ND, row-wise). One V-pipe trace record per call under the API's name.
// Computation in float; half outputs round once.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kgen/adv_norm2.h"
#include "sim/adv_common.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
bool same_start(const rt::LocalRef& a, const rt::LocalRef& b) {
  const Soc& soc = *cur().soc;
  return a.addr == b.addr && mem_of(a.pos, soc) == mem_of(b.pos, soc);
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void rms_norm(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& gamma, const LocalRef* tmp,
              float epsilon, const RmsNormTiling& t, bool basic_block, Loc loc) {
  const char* api = "RmsNorm";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint8_t* bg = vec_operand(gamma, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  uint32_t es = dtype_size(dt);
  uint64_t B = t.bLength, S = t.sLength, H = t.hLength;
  uint64_t oriH = norm_bsh(B, S, H, t.originalHLength, dt, "RmsNormTiling", "GetRmsNormTilingInfo", api, loc);
  if (basic_block && (H % 64 != 0 || H >= 2048 || (B * S) % 8 != 0))
    fail("param", api, loc, "isBasicBlock = true needs hLength a multiple of 64 below 2048 and B*S a multiple of 8; got "
                                "hLength = " + std::to_string(H) + ", B*S = " + std::to_string(B * S));
  float inv = 1.0f / static_cast<float>(oriH);
  if (t.reciprocalOfHLength != 0.0f) {
    if (t.originalHLength != 0 && std::fabs(t.reciprocalOfHLength - inv) > 1e-6f * inv)
      fail("param", api, loc, "tiling.reciprocalOfHLength = " + std::to_string(t.reciprocalOfHLength) +
                                  " is not 1/originalHLength = " + std::to_string(inv) + "; the tiling was made for another shape");
    inv = t.reciprocalOfHLength;
  }
  uint64_t rows = B * S, xb = rows * H * es, hb = H * es;
  // GetRmsNormMaxMinTmpSize minimum, or what the tiling's rows per pass (mainBsLength) use when it was made for more.
  uint64_t coeff = dt == DType::F16 ? 2 : 1;
  uint64_t need = (coeff * H + 8) * 4;
  if (t.mainBsLength > 1) need = std::max<uint64_t>(need, (coeff * t.mainBsLength * H + (t.mainBsLength + 7) / 8 * 8) * 4);
  if (!same_start(dst, src)) adv_no_overlap(dst, xb, "dstLocal", src, xb, "srcLocal", api, loc);
  adv_no_overlap(dst, xb, "dstLocal", gamma, hb, "gammaLocal", api, loc);
  if (tmp) {
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", src, xb, "srcLocal", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", dst, xb, "dstLocal", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", gamma, hb, "gammaLocal", api, loc);
  }
  adv_tmp(tmp, need, api, loc, "RmsNorm of [" + std::to_string(B) + ", " + std::to_string(S) + ", " + std::to_string(H) + "] on " +
                                   dtype_name(dt) + (t.mainBsLength > 1 ? " with mainBsLength = " + std::to_string(t.mainBsLength) : ""));
  issue(kV);
  touch(src, 0, xb, false, kV, api, loc);
  touch(gamma, 0, hb, false, kV, api, loc);
  if (tmp) touch(*tmp, 0, need, true, kV, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    touch(dst, 0, xb, true, kV, api, loc);
    trace_vec(api, dt, rows * H, static_cast<uint32_t>((xb + 255) / 256), &dst, &src, tmp, loc);
    return;
  }
  std::vector<float> in(rows * H), g(H);
  for (uint64_t i = 0; i < in.size(); ++i) in[i] = ldf(dt, bs + src.addr + i * es);
  for (uint64_t h = 0; h < H; ++h) g[h] = ldf(dt, bg + gamma.addr + h * es);
  uint8_t* po = touch(dst, 0, xb, true, kV, api, loc);
  for (uint64_t r = 0; r < rows; ++r) {
    const float* row = in.data() + r * H;
    float ss = 0;
    for (uint64_t h = 0; h < H; ++h) ss += row[h] * row[h];
    float rstd = 1.0f / std::sqrt(ss * inv + epsilon);
    for (uint64_t h = 0; h < H; ++h) stf(dt, po + (r * H + h) * es, row[h] * rstd * g[h]);
  }
  trace_vec(api, dt, rows * H, static_cast<uint32_t>((xb + 255) / 256), &dst, &src, tmp, loc);
}

void log_softmax(DType dt, const LocalRef& dst, const LocalRef& sum, const LocalRef& max, const LocalRef& src,
                 const LocalRef& tmp, const LogSoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& shape, bool nz,
                 Loc loc) {
  const char* api = "LogSoftMax";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint8_t* bsum = vec_operand(sum, api, loc);
  uint8_t* bmax = vec_operand(max, api, loc);
  vec_operand(tmp, api, loc);
  if (nz) fail("param", api, loc, "isDataFormatNZ = true (NZ layout) is not emulated by kgen; use the ND layout");
  SoftmaxRows rows = softmax_rows(shape.srcM, shape.srcK, shape.oriSrcM, shape.oriSrcK, tiling.srcM, tiling.srcK,
                                  tiling.splitM, 0, 0, dt, dt, "LogSoftMaxTiling", "LogSoftMaxTilingFunc", api, loc);
  uint32_t M = rows.M, K = rows.K, oriK = rows.oriK;
  uint32_t es = dtype_size(dt);
  uint32_t er = 32 / es;   // elements of one 32-byte row of sum/max
  uint64_t row_tmp = rows.row_tmp, need = rows.tmp_need;
  uint64_t bytes = static_cast<uint64_t>(M) * K * es;
  uint64_t red_bytes = static_cast<uint64_t>(M) * 32;
  adv_no_overlap(dst, bytes, "dst", src, bytes, "src", api, loc);
  adv_no_overlap(tmp, tmp.len, "sharedTmpBuffer", src, bytes, "src", api, loc);
  adv_no_overlap(tmp, tmp.len, "sharedTmpBuffer", dst, bytes, "dst", api, loc);
  adv_no_overlap(tmp, tmp.len, "sharedTmpBuffer", sum, red_bytes, "sum", api, loc);
  adv_no_overlap(tmp, tmp.len, "sharedTmpBuffer", max, red_bytes, "max", api, loc);
  adv_no_overlap(sum, red_bytes, "sum", max, red_bytes, "max", api, loc);
  adv_no_overlap(sum, red_bytes, "sum", dst, bytes, "dst", api, loc);
  adv_no_overlap(max, red_bytes, "max", dst, bytes, "dst", api, loc);
  adv_tmp(&tmp, need, api, loc, "LogSoftMax with srcK = " + std::to_string(K) +
                                    (need > row_tmp ? " and splitM = " + std::to_string(tiling.splitM) : std::string()));
  issue(kV);
  touch(src, 0, bytes, false, kV, api, loc);
  touch(tmp, 0, need, true, kV, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    touch(dst, 0, bytes, true, kV, api, loc);
    touch(sum, 0, red_bytes, true, kV, api, loc);
    touch(max, 0, red_bytes, true, kV, api, loc);
    trace_vec(api, dt, static_cast<uint64_t>(M) * K, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, &tmp, loc);
    return;
  }
  std::vector<float> in(static_cast<size_t>(M) * K);
  for (uint64_t i = 0; i < in.size(); ++i) in[i] = ldf(dt, bs + src.addr + i * es);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < oriK; ++k) {
      float x = in[static_cast<size_t>(m) * K + k];
      if (!(std::fabs(x) <= 2147483647.0f))
        fail("param", api, loc, "src[" + std::to_string(m) + ", " + std::to_string(k) + "] = " + std::to_string(x) +
                                    " is outside [-2147483647, 2147483647], the documented input range of LogSoftMax");
    }
  uint8_t* pd = touch(dst, 0, bytes, true, kV, api, loc);
  touch(sum, 0, red_bytes, true, kV, api, loc);
  touch(max, 0, red_bytes, true, kV, api, loc);
  for (uint32_t m = 0; m < M; ++m) {
    const float* row = in.data() + static_cast<size_t>(m) * K;
    float mx, s;
    softmax_row_stats(row, oriK, mx, s);
    // CANN computes log10 of the softmax (Ln then a multiply by log10(e)), as its documentation states.
    for (uint32_t k = 0; k < K; ++k)
      stf(dt, pd + (static_cast<uint64_t>(m) * K + k) * es, std::log10(std::exp(row[k] - mx) / s));
    for (uint32_t e = 0; e < er; ++e) {
      stf(dt, bsum + sum.addr + (static_cast<uint64_t>(m) * er + e) * es, s);
      stf(dt, bmax + max.addr + (static_cast<uint64_t>(m) * er + e) * es, mx);
    }
  }
  trace_vec(api, dt, static_cast<uint64_t>(M) * K, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, &tmp, loc);
}
}  // namespace kgen::rt
