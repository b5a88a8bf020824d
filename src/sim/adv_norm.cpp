// SoftMax (ND, row-wise) and LayerNorm ([B,S,H] with mean/variance). One V-pipe trace record per call under the
// API's name. Computation in float; half outputs round once.
#include <cmath>
#include <string>
#include <vector>

#include "kgen/adv_norm.h"
#include "sim/adv_common.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
uint64_t a32(uint64_t b) { return (b + 31) / 32 * 32; }
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void softmax(DType dt, DType red_dt, const LocalRef& dst, const LocalRef* sum, const LocalRef* max, const LocalRef& src,
             const LocalRef* tmp, const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& shape, bool nz,
             uint32_t cfg_m, uint32_t cfg_k, Loc loc) {
  const char* api = "SoftMax";
  require_dtype(api, dt, loc);
  if (sum) require_dtype(api, red_dt, loc);
  vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint8_t* bsum = sum ? vec_operand(*sum, api, loc) : nullptr;
  uint8_t* bmax = max ? vec_operand(*max, api, loc) : nullptr;
  if (tmp) vec_operand(*tmp, api, loc);
  if (nz) fail("param", api, loc, "isDataFormatNZ = true (NZ layout) is not emulated by kgen; use the ND layout");
  SoftmaxRows rows = softmax_rows(shape.srcM, shape.srcK, shape.oriSrcM, shape.oriSrcK, tiling.srcM, tiling.srcK,
                                  tiling.splitM, cfg_m, cfg_k, dt, red_dt, "SoftMaxTiling", "SoftMaxTilingFunc", api, loc);
  uint32_t M = rows.M, K = rows.K, oriK = rows.oriK;
  uint32_t es = dtype_size(dt), rs = dtype_size(red_dt);
  uint32_t er = 32 / rs;   // elements of one 32-byte row of sum/max
  uint64_t row_tmp = rows.row_tmp, need = rows.tmp_need;
  uint64_t bytes = static_cast<uint64_t>(M) * K * es;
  uint64_t red_bytes = static_cast<uint64_t>(M) * 32;
  if (tmp) {
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", src, bytes, "srcTensor", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", dst, bytes, "dstTensor", api, loc);
    if (sum) adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", *sum, red_bytes, "sumTensor", api, loc);
    if (max) adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", *max, red_bytes, "maxTensor", api, loc);
  }
  if (sum && max) adv_no_overlap(*sum, red_bytes, "sumTensor", *max, red_bytes, "maxTensor", api, loc);
  adv_tmp(tmp, need, api, loc, "SoftMax with srcK = " + std::to_string(K) +
                                   (need > row_tmp ? " and splitM = " + std::to_string(tiling.splitM) : std::string()));
  issue(kV);
  touch(src, 0, bytes, false, kV, api, loc);
  if (tmp) touch(*tmp, 0, need, true, kV, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    touch(dst, 0, bytes, true, kV, api, loc);
    if (sum) touch(*sum, 0, red_bytes, true, kV, api, loc);
    if (max) touch(*max, 0, red_bytes, true, kV, api, loc);
    trace_vec(api, dt, static_cast<uint64_t>(M) * K, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
    return;
  }
  std::vector<float> in(static_cast<size_t>(M) * K);
  for (uint64_t i = 0; i < in.size(); ++i) in[i] = ldf(dt, bs + src.addr + i * es);
  uint8_t* pd = touch(dst, 0, bytes, true, kV, api, loc);
  if (sum) touch(*sum, 0, red_bytes, true, kV, api, loc);
  if (max) touch(*max, 0, red_bytes, true, kV, api, loc);
  for (uint32_t m = 0; m < M; ++m) {
    const float* row = in.data() + static_cast<size_t>(m) * K;
    float mx, s;
    softmax_row_stats(row, oriK, mx, s);
    for (uint32_t k = 0; k < K; ++k) stf(dt, pd + (static_cast<uint64_t>(m) * K + k) * es, std::exp(row[k] - mx) / s);
    for (uint32_t e = 0; e < er; ++e) {
      if (sum) stf(red_dt, bsum + sum->addr + (static_cast<uint64_t>(m) * er + e) * rs, s);
      if (max) stf(red_dt, bmax + max->addr + (static_cast<uint64_t>(m) * er + e) * rs, mx);
    }
  }
  trace_vec(api, dt, static_cast<uint64_t>(M) * K, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
}

void layer_norm(DType dt, const LocalRef& out, const LocalRef& mean, const LocalRef& var, const LocalRef& x,
                const LocalRef& gamma, const LocalRef& beta, const LocalRef* tmp, float epsilon,
                const LayerNormTiling& t, bool reuse_source, Loc loc) {
  const char* api = "LayerNorm";
  require_dtype(api, dt, loc);
  vec_operand(out, api, loc);
  uint8_t* bmean = vec_operand(mean, api, loc);
  uint8_t* bvar = vec_operand(var, api, loc);
  uint8_t* bx = vec_operand(x, api, loc);
  uint8_t* bg = vec_operand(gamma, api, loc);
  uint8_t* bb = vec_operand(beta, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  uint32_t es = dtype_size(dt);
  uint64_t B = t.bLength, S = t.sLength, H = t.hLength;
  uint64_t oriH = norm_bsh(B, S, H, t.originalHLength, dt, "LayerNormTiling", "GetLayerNormNDTilingInfo", api, loc);
  if (reuse_source && dt == DType::F16) fail("param", api, loc, "isReuseSource = true is not supported for half input");
  float inv = 1.0f / static_cast<float>(oriH);
  if (t.lastDimValueBack != 0.0f && std::fabs(t.lastDimValueBack - inv) > 1e-6f * inv)
    fail("param", api, loc, "tiling.lastDimValueBack = " + std::to_string(t.lastDimValueBack) + " is not 1/originalHLength = " +
                                std::to_string(inv) + "; the tiling was made for another shape");
  bool reuse = reuse_source && dt == DType::F32;
  uint64_t need = (reuse ? 2 : 3) * a32(H * 4) + 2 * a32(B * S * 4);   // GetLayerNormMaxMinTmpSize minimum
  need = std::max<uint64_t>(need, static_cast<uint64_t>(t.tmpBufSize) * 4);   // what the tiling tells the kernel to use
  uint64_t xb = B * S * H * es, mb = B * S * es, hb = H * es;
  adv_no_overlap(mean, mb, "outputMean", x, xb, "inputX", api, loc);
  adv_no_overlap(var, mb, "outputVariance", x, xb, "inputX", api, loc);
  adv_no_overlap(mean, mb, "outputMean", var, mb, "outputVariance", api, loc);
  adv_no_overlap(out, xb, "output", gamma, hb, "gamma", api, loc);
  adv_no_overlap(out, xb, "output", beta, hb, "beta", api, loc);
  adv_no_overlap(out, xb, "output", mean, mb, "outputMean", api, loc);
  adv_no_overlap(out, xb, "output", var, mb, "outputVariance", api, loc);
  if (tmp) {
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", x, xb, "inputX", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", out, xb, "output", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", mean, mb, "outputMean", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", var, mb, "outputVariance", api, loc);
  }
  adv_tmp(tmp, need, api, loc, "LayerNorm of [" + std::to_string(B) + ", " + std::to_string(S) + ", " + std::to_string(H) + "]");
  issue(kV);
  touch(x, 0, xb, false, kV, api, loc);
  touch(gamma, 0, hb, false, kV, api, loc);
  touch(beta, 0, hb, false, kV, api, loc);
  if (tmp) touch(*tmp, 0, need, true, kV, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    touch(out, 0, xb, true, kV, api, loc);
    touch(mean, 0, mb, true, kV, api, loc);
    touch(var, 0, mb, true, kV, api, loc);
    trace_vec(api, dt, B * S * H, static_cast<uint32_t>((xb + 255) / 256), &out, &x, tmp, loc);
    return;
  }
  std::vector<float> in(B * S * H), g(H), be(H);
  for (uint64_t i = 0; i < in.size(); ++i) in[i] = ldf(dt, bx + x.addr + i * es);
  for (uint64_t h = 0; h < H; ++h) { g[h] = ldf(dt, bg + gamma.addr + h * es); be[h] = ldf(dt, bb + beta.addr + h * es); }
  uint8_t* po = touch(out, 0, xb, true, kV, api, loc);
  touch(mean, 0, mb, true, kV, api, loc);
  touch(var, 0, mb, true, kV, api, loc);
  for (uint64_t r = 0; r < B * S; ++r) {
    const float* row = in.data() + r * H;
    // mean = sum(x * 1/m), variance = sum((x - mean)^2 * 1/m) over the stored H axis, m = originalHLength (0772)
    float mu = 0;
    for (uint64_t h = 0; h < H; ++h) mu += row[h] * inv;
    float v = 0;
    for (uint64_t h = 0; h < H; ++h) v += (row[h] - mu) * (row[h] - mu) * inv;
    float rstd = 1.0f / std::sqrt(v + epsilon);
    for (uint64_t h = 0; h < H; ++h) stf(dt, po + (r * H + h) * es, (row[h] - mu) * rstd * g[h] + be[h]);
    stf(dt, bmean + mean.addr + r * es, mu);
    stf(dt, bvar + var.addr + r * es, v);
  }
  trace_vec(api, dt, B * S * H, static_cast<uint32_t>((xb + 255) / 256), &out, &x, tmp, loc);
}
}  // namespace kgen::rt
