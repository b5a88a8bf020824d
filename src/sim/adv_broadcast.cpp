// Broadcast (adv_broadcast.h): the shapes CANN allows, the copy, one V-pipe record.
#include "kgen/adv_broadcast.h"

#include <cstring>
#include <string>
#include <vector>

#include "sim/adv_common.h"

namespace kgen::rt {
using namespace kgen::sim;

void adv_broadcast(DType dt, const LocalRef& dst, const LocalRef& src, const uint32_t* dst_shape,
                   const uint32_t* src_shape, int32_t dim, int32_t axis, const LocalRef* tmp, Loc loc) {
  const char* api = "Broadcast";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  if (!dst_shape || !src_shape) fail("param", api, loc, "dstShape and srcShape must point to dim uint32_t values");
  const uint64_t es = dtype_size(dt);
  auto shape = [&](const uint32_t* s) {
    return "{" + std::to_string(s[0]) + (dim == 2 ? ", " + std::to_string(s[1]) : std::string()) + "}";
  };
  // The broadcast axis goes from 1 to dstShape[axis]; every other axis is the same in both (dim 1: axis 0).
  const int32_t b = dim == 1 ? 0 : axis;
  bool ok = src_shape[b] == 1 && dst_shape[b] >= 1;
  for (int32_t i = 0; i < dim; ++i)
    if (i != b && (src_shape[i] != dst_shape[i] || src_shape[i] == 0)) ok = false;
  if (!ok)
    fail("param", api, loc, "srcShape " + shape(src_shape) + " does not broadcast to dstShape " + shape(dst_shape) +
                                " along axis " + std::to_string(b) + ": srcShape[" + std::to_string(b) +
                                "] must be 1 and the other axis the same in both");
  if (dim == 2 && axis == 0 && src_shape[1] * es % 32 != 0)
    fail("align", api, loc, "dim 2, axis 0 needs srcShape[1] * sizeof(T) to be a multiple of 32 bytes (it is " +
                                std::to_string(src_shape[1] * es) + ")");
  const uint64_t rows = dim == 2 ? dst_shape[0] : 1, cols = dim == 2 ? dst_shape[1] : dst_shape[0];
  const uint64_t src_n = dim == 2 ? static_cast<uint64_t>(src_shape[0]) * src_shape[1] : 1, dst_n = rows * cols;
  if (src_n * es > src.len)
    fail("param", api, loc, "srcShape " + shape(src_shape) + " needs " + std::to_string(src_n * es) +
                                " bytes but srcLocal holds " + std::to_string(src.len));
  if (dst_n * es > dst.len)
    fail("param", api, loc, "dstShape " + shape(dst_shape) + " needs " + std::to_string(dst_n * es) +
                                " bytes but dstLocal holds " + std::to_string(dst.len));
  // CANN's docs forbid src and dst to overlap, but the API broadcasts through its temporary buffer, and an in-place
  // broadcast passes on the chip (NPUKernelBench's InplaceAddRmsNorm, docs/sources.md S72): the source is read whole
  // before the destination is written.
  issue(kV);
  const uint8_t* p_src = touch(src, 0, src_n * es, false, kV, api, loc);
  const std::vector<uint8_t> in(p_src, p_src + src_n * es);
  const uint8_t* ps = in.data();
  uint8_t* pd = touch(dst, 0, dst_n * es, true, kV, api, loc);
  for (uint64_t i = 0; i < rows; ++i)
    for (uint64_t j = 0; j < cols; ++j) {
      const uint64_t from = dim == 1 ? 0 : axis == 1 ? i : j;   // [m, 1] -> row i; [1, k] -> column j
      std::memcpy(pd + (i * cols + j) * es, ps + from * es, es);
    }
  trace_vec(api, dt, dst_n, static_cast<uint32_t>((dst_n * es + 255) / 256), &dst, &src, tmp, loc);
}
}  // namespace kgen::rt
