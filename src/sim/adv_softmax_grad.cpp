// SoftmaxGrad / SoftmaxGradFront (adv_softmax_grad.h): one V-pipe trace record per call; the temporary space is
// CANN's GetSoftMaxGradMinTmpSize for one row at least (adv_tmp_sizes.h), and the rows of a call are computed in
// float, the row sum in order over its oriSrcK elements.
#include <string>
#include <vector>

#include "kgen/adv_softmax_grad.h"
#include "sim/adv_common.h"
#include "sim/adv_tmp_sizes.h"
#include "sim/elementwise.h"
#include "sim/timing.h"

namespace kgen::rt {
using namespace kgen::sim;

void softmax_grad(DType dt, const LocalRef& dst, const LocalRef& grad, const LocalRef& src, const LocalRef* tmp,
                  const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& shape, bool is_front, bool front_api,
                  Loc loc) {
  const char* api = front_api ? "SoftmaxGradFront" : "SoftmaxGrad";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  const uint8_t* bg = vec_operand(grad, api, loc);
  const uint8_t* bs = vec_operand(src, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  const SoftmaxRows rows = softmax_rows(shape.srcM, shape.srcK, shape.oriSrcM, shape.oriSrcK, tiling.srcM, tiling.srcK,
                                        tiling.splitM, 0, 0, dt, dt, "SoftMaxTiling", "SoftMaxGradTilingFunc", api, loc);
  const uint32_t M = rows.M, K = rows.K, oriK = rows.oriK;
  const uint32_t es = dtype_size(dt), blk = 32 / es;
  const uint64_t bytes = static_cast<uint64_t>(M) * K * es;
  const uint64_t out_bytes = is_front ? static_cast<uint64_t>(M) * 32 : bytes;
  const uint64_t need = softmax_grad_row_bytes(es, K, is_front);
  if (tmp) {
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", src, bytes, "srcTensor", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", grad, bytes, "gradTensor", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", dst, out_bytes, "dstTensor", api, loc);
  }
  adv_tmp(tmp, need, api, loc, std::string(api) + " with srcK = " + std::to_string(K));
  issue(kV);
  // The row sums mix a row's first oriSrcK lanes: those must hold data. The padding lanes past them are read lane by
  // lane (garbage there makes only the same lanes of dst garbage, elementwise.h LaneWise).
  for (uint32_t m = 0; m < M; ++m) {
    touch(grad, static_cast<uint64_t>(m) * K * es, static_cast<uint64_t>(oriK) * es, false, kV, api, loc);
    touch(src, static_cast<uint64_t>(m) * K * es, static_cast<uint64_t>(oriK) * es, false, kV, api, loc);
  }
  LaneWise lanes;
  touch_count(grad, static_cast<uint64_t>(M) * K, es, false, api, loc);
  touch_count(src, static_cast<uint64_t>(M) * K, es, false, api, loc);
  if (tmp) touch(*tmp, 0, need, true, kV, api, loc);
  std::vector<float> g(static_cast<size_t>(M) * K), x(g.size());
  if (computes(dt))
    for (uint64_t i = 0; i < g.size(); ++i) {   // read before writing: dst may be one of the sources
      g[i] = ldf(dt, bg + grad.addr + i * es);
      x[i] = ldf(dt, bs + src.addr + i * es);
    }
  uint8_t* pd = is_front ? touch(dst, 0, out_bytes, true, kV, api, loc)
                         : touch_count(dst, static_cast<uint64_t>(M) * K, es, true, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    trace_vec(api, dt, static_cast<uint64_t>(M) * K, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
    return;
  }
  for (uint32_t m = 0; m < M; ++m) {
    const size_t row = static_cast<size_t>(m) * K;
    float s = 0.0f;
    for (uint32_t k = 0; k < oriK; ++k) s += g[row + k] * x[row + k];
    if (is_front) {
      for (uint32_t e = 0; e < blk; ++e) stf(dt, pd + (static_cast<uint64_t>(m) * blk + e) * es, s);
      continue;
    }
    for (uint32_t k = 0; k < K; ++k) stf(dt, pd + (row + k) * es, (g[row + k] - s) * x[row + k]);
  }
  trace_vec(api, dt, static_cast<uint64_t>(M) * K, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
}
}  // namespace kgen::rt
