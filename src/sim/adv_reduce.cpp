// High-level pattern reduces: ReduceSum/Mean/Max/Min/Prod/Any/All<T, Pattern::Reduce::AR | RA>. The source is
// [first, last] with the inner axis padded to 32 bytes (srcInnerPad = true, the only value A2/A3 take); AR reduces
// each row to dst[first], RA reduces each column to dst[last]. One V-pipe trace record per call, named
// "ReduceSum<pattern>" etc. to keep it apart from the basic ReduceSum. Computation in float; half rounds once.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kgen/adv_reduce.h"
#include "sim/adv_common.h"
#include "sim/timing.h"
#include "sim/adv_tmp_sizes.h"

namespace kgen::sim {
namespace {
using rt::AdvRed;
const char* red_name(AdvRed op) {
  static const char* n[] = {"ReduceSum<pattern>", "ReduceMean<pattern>", "ReduceMax<pattern>", "ReduceMin<pattern>",
                            "ReduceProd<pattern>", "ReduceAny<pattern>", "ReduceAll<pattern>"};
  return n[static_cast<int>(op)];
}
uint64_t find_k(uint64_t n) {   // largest power of two <= n
  uint64_t r = 1;
  while (n > 1) { r <<= 1; n >>= 1; }
  return r;
}
uint64_t a32(uint64_t b) { return (b + 31) / 32 * 32; }
// Power-of-two split of an axis of length n: half of it when n is itself a power of two (and `cond`).
uint64_t split(uint64_t n, bool cond) {
  uint64_t k = find_k(n);
  if (k == n && cond) k >>= 1;
  return k;
}
inline float ldv(DType dt, const uint8_t* p) {
  switch (dt) {
    case DType::F16: return static_cast<float>(load<half>(p));
    case DType::U8: return static_cast<float>(load<uint8_t>(p));
    default: return load<float>(p);
  }
}
inline void stv(DType dt, uint8_t* p, float v) {
  switch (dt) {
    case DType::F16: store<half>(p, half(v)); break;
    case DType::U8: store<uint8_t>(p, static_cast<uint8_t>(v)); break;
    default: store<float>(p, v);
  }
}
}  // namespace

static_assert(static_cast<int>(rt::AdvRed::Sum) == static_cast<int>(ReduceTmpOp::Sum) &&
                  static_cast<int>(rt::AdvRed::Prod) == static_cast<int>(ReduceTmpOp::Prod) &&
                  static_cast<int>(rt::AdvRed::All) == static_cast<int>(ReduceTmpOp::All),
              "ReduceTmpOp follows the order of kgen::rt::AdvRed");
uint64_t reduce_min_tmp_bytes(ReduceTmpOp op, uint32_t elem_size, uint64_t first, uint64_t last, bool ra, bool reuse) {
  uint64_t ts = elem_size ? elem_size : 4;
  auto common = [&]() -> uint64_t {   // ReduceMax/Min, and ReduceAny/All on float
    if (reuse) return 0;
    if (ra) return split(first, first > 1) * a32(last * ts);
    uint64_t per_blk = 32 / ts, per_rep = 256 / ts;
    if (last <= per_blk) return 0;
    return first * (last < per_rep ? per_blk : per_rep) * ts;
  };
  switch (op) {
    case ReduceTmpOp::Sum:
    case ReduceTmpOp::Mean:
      if (reuse) return 0;
      if (ra) return split(first, first > 1) * ((last + 7) / 8 * 8) * 4;
      return last <= 64 ? 0 : first * split(last, first > 1) * 4;
    case ReduceTmpOp::Max:
    case ReduceTmpOp::Min: return common();
    case ReduceTmpOp::Prod:
      if (reuse) return ra ? 0 : 256;
      if (ra) return split(first, first > 1) * a32(last * 4);
      return (std::max<uint64_t>(8, split(last, first > 1)) + first * 8) * 4 + 256;
    case ReduceTmpOp::Any:
    case ReduceTmpOp::All:
      if (ts != 1) return common();   // float
      if (!ra) return a32(last) * 2 + first * 32;
      if (reuse) return 0;
      return split(first, first > 1) * a32(last);
  }
  return 0;
}
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void adv_reduce(AdvRed op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, const uint32_t* shape,
                bool inner_pad, bool ra, bool reuse_source, Loc loc) {
  const char* api = red_name(op);
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  if (!shape) fail("param", api, loc, "srcShape is a null pointer; pass uint32_t srcShape[2] = {first, last}");
  uint64_t first = shape[0], last = shape[1], es = dtype_size(dt);
  const char* pat = ra ? "RA" : "AR";
  if (first == 0 || last == 0)
    fail("param", api, loc, "srcShape = {" + std::to_string(first) + ", " + std::to_string(last) +
                                "}; both axes must be greater than 0");
  if (!inner_pad)
    fail("param", api, loc, "srcInnerPad = false is not supported on " + std::string(cur().soc->name) +
                                " (only true): pad the inner axis of the source to 32 bytes and pass true");
  uint64_t per_blk = 32 / es, pad_last = (last + per_blk - 1) / per_blk * per_blk;
  uint64_t src_bytes = first * pad_last * es, n_out = ra ? last : first, dst_bytes = n_out * es;
  if (src_bytes > src.len)
    fail("param", api, loc, "srcShape {" + std::to_string(first) + ", " + std::to_string(last) + "} with the inner axis padded to " +
                                std::to_string(pad_last) + " elements needs " + std::to_string(src_bytes) +
                                " bytes but srcTensor holds " + std::to_string(src.len));
  if (dst_bytes > dst.len)
    fail("param", api, loc, std::string("pattern ") + pat + " writes " + std::to_string(n_out) + " elements but dstTensor holds " +
                                std::to_string(dst.len / es) + "; dstTensor must hold at least " +
                                (ra ? "srcShape[1]" : "srcShape[0]") + " elements");
  adv_no_overlap(dst, dst_bytes, "dstTensor", src, src_bytes, "srcTensor", api, loc);
  uint64_t need = reduce_min_tmp_bytes(static_cast<ReduceTmpOp>(op), static_cast<uint32_t>(es), first, last, ra, reuse_source);
  if (tmp) {
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", src, src_bytes, "srcTensor", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", dst, dst_bytes, "dstTensor", api, loc);
  }
  adv_tmp(tmp, need, api, loc, std::string(api) + " (" + pat + ") of {" + std::to_string(first) + ", " +
                                   std::to_string(last) + "} on " + dtype_name(dt) +
                                   (reuse_source ? " with isReuseSource" : ""));
  issue(kV);
  const uint8_t* ps = touch(src, 0, src_bytes, false, kV, api, loc);
  if (tmp && need) touch(*tmp, 0, need, true, kV, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    touch(dst, 0, dst_bytes, true, kV, api, loc);
    trace_vec(api, dt, first * last, static_cast<uint32_t>((src_bytes + 255) / 256), &dst, &src, tmp, loc);
    return;
  }
  std::vector<float> v(first * last);
  for (uint64_t r = 0; r < first; ++r)
    for (uint64_t c = 0; c < last; ++c) v[r * last + c] = ldv(dt, ps + (r * pad_last + c) * es);
  if (op == AdvRed::Any || op == AdvRed::All)
    for (uint64_t i = 0; i < v.size(); ++i)
      if (v[i] != 0.0f && v[i] != 1.0f)
        fail("param", api, loc, "source element [" + std::to_string(i / last) + ", " + std::to_string(i % last) + "] = " +
                                    std::to_string(v[i]) + "; " + api + " takes only 0 and 1 as input");
  std::vector<float> out(n_out);
  uint64_t outer = ra ? last : first, inner = ra ? first : last;
  for (uint64_t o = 0; o < outer; ++o) {
    auto at = [&](uint64_t i) { return ra ? v[i * last + o] : v[o * last + i]; };
    float acc = at(0);
    for (uint64_t i = 1; i < inner; ++i) {
      float x = at(i);
      switch (op) {
        case AdvRed::Sum:
        case AdvRed::Mean: acc += x; break;
        case AdvRed::Max:
        case AdvRed::Any: acc = std::max(acc, x); break;
        case AdvRed::Min:
        case AdvRed::All: acc = std::min(acc, x); break;
        case AdvRed::Prod: acc *= x; break;
      }
    }
    if (op == AdvRed::Mean) acc = acc / static_cast<float>(inner);
    out[o] = acc;
  }
  uint8_t* pd = touch(dst, 0, dst_bytes, true, kV, api, loc);
  for (uint64_t o = 0; o < n_out; ++o) stv(dt, pd + o * es, out[o]);
  trace_vec(api, dt, first * last, static_cast<uint32_t>((src_bytes + 255) / 256), &dst, &src, tmp, loc);
}
}  // namespace kgen::rt
