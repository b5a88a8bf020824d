// SelectWithBytesMask on 910B as CANN's v220 implementation runs it (impl/adv_api/detail/select/selectwithbytesmask/):
// the whole tensor operand (src0.GetSize() elements) in loops of at most 32640, the scalar duplicated over the first
// 256 bytes of sharedTmpBuffer, each loop's mask cast to half and compared with 0 into bits there; mask rows longer
// than srcLastAxis compacted first (in place with isReuseMask, else into the temporary buffer's head).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kgen/adv_select.h"
#include "sim/elementwise.h"

namespace kgen::rt {
using namespace kgen::sim;

namespace {
// Whether a mask element is 0 after CANN's cast to half: a 4-byte mask is read as float and cast with round-to-odd,
// so only +-0 is 0; 2- and 1-byte masks convert exactly.
bool mask_is_zero(const uint8_t* p, uint32_t size) {
  if (size == 4) return (load<uint32_t>(p) & 0x7FFFFFFFu) == 0;
  if (size == 2) return load<uint16_t>(p) == 0;
  return *p == 0;
}
}  // namespace

void adv_select_bytes_mask(DType dt, DType mask_dt, const LocalRef& dst, const LocalRef& src, Scalar scalar,
                           bool scalar_first, const LocalRef& mask, const LocalRef& tmp, uint32_t first_axis,
                           uint32_t src_last, uint32_t mask_last, bool reuse_mask, Loc loc) {
  const char* api = "SelectWithBytesMask";
  require_dtype(api, dt, loc);
  if (mask_dt != DType::B8 && mask_dt != DType::I8 && mask_dt != DType::U8 && mask_dt != DType::I16 &&
      mask_dt != DType::U16 && mask_dt != DType::I32 && mask_dt != DType::U32)
    fail("dtype", api, loc, std::string("mask of ") + dtype_name(mask_dt) +
                                "; it must be bool, int8_t, uint8_t, int16_t, uint16_t, int32_t or uint32_t");
  for (const LocalRef* t : {&dst, &src, &mask, &tmp}) vec_operand(*t, api, loc);   // each a UB tensor on the AIV
  const uint32_t es = dtype_size(dt), ms = dtype_size(mask_dt);
  const std::string shape = "SelectWithBytesMaskShapeInfo {firstAxis " + std::to_string(first_axis) + ", srcLastAxis " +
                            std::to_string(src_last) + ", maskLastAxis " + std::to_string(mask_last) + "}";
  if (first_axis == 0 || src_last == 0 || mask_last < src_last)
    fail("param", api, loc, shape + ": the axes must be nonzero and maskLastAxis at least srcLastAxis");
  if (src_last * es % 32 != 0)
    fail("param", api, loc, shape + ": srcLastAxis * sizeof(T) must be a multiple of 32 bytes");
  if (mask_last * ms % 32 != 0 || mask_last % 16 != 0)
    fail("param", api, loc, shape + ": maskLastAxis must be a multiple of 16 elements and of 32 bytes");
  const uint64_t total = src.len / es;   // v220 selects src0.GetSize() elements
  // The temporary space as CANN divides it: a compacted mask first (isReuseMask false, rows longer than the source's),
  // 256 bytes kept for the tail, the rest in half elements per loop. Its arithmetic is uint32_t: a buffer under 256
  // bytes wraps to the largest loop, 32640 elements.
  LocalRef tmp_mask = mask;
  uint32_t buffer = tmp.len, loop_off = 0;
  if (!reuse_mask && src_last != mask_last) {
    const uint32_t need = static_cast<uint32_t>((total * ms + 31) / 32 * 32);
    tmp_mask = tmp;
    tmp_mask.len = need;
    buffer -= need;
    loop_off = need;
  }
  buffer -= 256;
  const uint64_t loop = std::min<uint64_t>(buffer / 2 / 32 * 32, 255 * 256 / 2);
  if (loop == 0)
    fail("param", api, loc, "sharedTmpBuffer holds " + std::to_string(tmp.len) + " bytes, which leaves no element per "
                            "loop: CANN's loop would never end (give at least 1024 bytes: GetSelectWithBytesMaskMaxMinTmpSize)");
  issue(kV);
  // InitScalarSelectMask: the scalar over one 256-byte repeat at the buffer's start (past a shorter buffer's end)
  uint8_t* t0 = touch(tmp, 0, 256, true, kV, api, loc);
  for (uint32_t k = 0; k < 256 / es; ++k) std::memcpy(t0 + static_cast<uint64_t>(k) * es, &scalar.bits, es);
  if (src_last != mask_last) {   // RemoveRedundantMask: GatherMask of each row's first srcLastAxis elements
    std::vector<uint8_t> rows(static_cast<size_t>(first_axis) * src_last * ms);
    for (uint32_t r = 0; r < first_axis; ++r) {
      const uint8_t* m = touch(mask, static_cast<uint64_t>(r) * mask_last * ms, static_cast<uint64_t>(src_last) * ms,
                               false, kV, api, loc);
      std::memcpy(rows.data() + static_cast<size_t>(r) * src_last * ms, m, static_cast<size_t>(src_last) * ms);
    }
    std::memcpy(touch(tmp_mask, 0, rows.size(), true, kV, api, loc), rows.data(), rows.size());
  }
  std::vector<uint8_t> out;
  for (uint64_t off = 0; off < total; off += loop) {
    const uint64_t n = std::min(loop, total - off);
    const uint8_t* m = touch(tmp_mask, off * ms, n * ms, false, kV, api, loc);
    std::vector<uint8_t> take_tensor(n);
    for (uint64_t i = 0; i < n; ++i) take_tensor[i] = mask_is_zero(m + i * ms, ms) != scalar_first;
    // the loop's temporaries: the mask cast to half (written as 0 or 1: only whether it is 0 is read again), then the
    // comparison's bits over their start
    uint8_t* th = touch(tmp, loop_off, n * 2, true, kV, api, loc);
    for (uint64_t i = 0; i < n; ++i) store<half>(th + i * 2, half(take_tensor[i] != scalar_first ? 0.0f : 1.0f));
    const uint64_t bit_bytes = (n + 127) / 128 * 16;
    uint8_t* tb = touch(tmp, loop_off, bit_bytes, true, kV, api, loc);
    std::memset(tb, 0, bit_bytes);
    for (uint64_t i = 0; i < n; ++i)
      if (take_tensor[i]) tb[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    const uint8_t* s = touch(src, off * es, n * es, false, kV, api, loc);
    out.assign(s, s + n * es);
    for (uint64_t i = 0; i < n; ++i)
      if (!take_tensor[i]) std::memcpy(out.data() + i * es, &scalar.bits, es);
    std::memcpy(touch(dst, off * es, n * es, true, kV, api, loc), out.data(), out.size());
  }
  trace_vec(api, dt, total, static_cast<uint32_t>((total * es + 255) / 256), &dst, &src, &mask, loc);
}
}  // namespace kgen::rt
