// Unary elementwise vector ops (Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu, Not) in the count form and the
// mask/repeat form (UnaryRepeatParams), and Copy (the identity, mask/repeat form with CopyRepeatParams). half is
// computed in float and rounded once (to nearest even).
// Exp/Ln/Sqrt use the C library; the chip's Reciprocal/Rsqrt are approximations (docs: below 1e-3 / 1e-4
// accuracy), here they are exact.
#include <cmath>
#include <string>

#include "kgen/vec_runtime.h"
#include "sim/elementwise.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
using rt::VOp;

template <class C> C unary_value(VOp op, C x) {
  if constexpr (std::is_floating_point_v<C>) {
    switch (op) {
      case VOp::Exp: return std::exp(x);
      case VOp::Ln: return std::log(x);
      case VOp::Abs: return std::fabs(x);
      case VOp::Reciprocal: return C(1) / x;
      case VOp::Sqrt: return std::sqrt(x);
      case VOp::Rsqrt: return C(1) / std::sqrt(x);
      case VOp::Relu: return x > C(0) ? x : C(0);
      default: return x;
    }
  } else {
    switch (op) {
      case VOp::Relu: return x > C(0) ? x : C(0);
      case VOp::Not: return static_cast<C>(~x);
      case VOp::Abs: return x < C(0) ? static_cast<C>(0 - x) : x;
      default: return x;
    }
  }
}

template <class T> void unary_count(VOp op, T* d, const T* s, uint64_t n) {
  using C = Calc<T>;
  if constexpr (std::is_same_v<T, float>) {
    switch (op) {   // the common ops get their own loops so the compiler vectorises them
      case VOp::Abs: for (uint64_t i = 0; i < n; ++i) d[i] = std::fabs(s[i]); return;
      case VOp::Relu: for (uint64_t i = 0; i < n; ++i) d[i] = s[i] > 0.0f ? s[i] : 0.0f; return;
      case VOp::Sqrt: for (uint64_t i = 0; i < n; ++i) d[i] = std::sqrt(s[i]); return;
      case VOp::Exp: for (uint64_t i = 0; i < n; ++i) d[i] = std::exp(s[i]); return;
      default: break;
    }
  }
  for (uint64_t i = 0; i < n; ++i) d[i] = static_cast<T>(unary_value<C>(op, static_cast<C>(s[i])));
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void vec_unary(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, uint64_t count, Loc loc) {
  const char* api = vop_name(op);
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  uint64_t n = checked_count(static_cast<int64_t>(count), api, loc);
  issue(kV);
  uint32_t es = dtype_size(dt);
  LaneWise lanes;   // a lane read from never-written UB is garbage, not a fault (core.h LaneScope)
  const uint8_t* ps = touch_count(src, n, es, false, api, loc);
  uint8_t* pd = touch_count(dst, n, es, true, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    unary_count<T>(op, reinterpret_cast<T*>(pd), reinterpret_cast<const T*>(ps), n);
  });
  trace_vec(api, dt, n, static_cast<uint32_t>((n * es + 255) / 256), &dst, &src, nullptr, loc);
}

namespace {
void unary_rep(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, const MaskArg& mask, uint8_t repeat,
               uint32_t dst_blk, uint32_t src_blk, uint32_t dst_rep, uint32_t src_rep, Loc loc) {
  const char* api = vop_name(op);
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  RepeatWalk w = make_walk(mask, repeat, dt, api, loc);
  issue(kV);
  LaneWalk lanes(w);   // a lane read from never-written UB is garbage, not a fault (elementwise.h)
  lanes.read(src, src_blk, src_rep, api, loc);
  lanes.write(dst, dst_blk, dst_rep, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    using C = Calc<T>;
    for_each_lane(w, [&](uint32_t r, uint32_t j, uint32_t e) {
      C x = static_cast<C>(load<T>(bs + src.addr + walk_offset(r, j, e, src_blk, src_rep, sizeof(T))));
      store<T>(bd + dst.addr + walk_offset(r, j, e, dst_blk, dst_rep, sizeof(T)), static_cast<T>(unary_value<C>(op, x)));
    });
  });
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * w.per_block * 8, w.repeat, &dst, &src, nullptr, loc);
}
}  // namespace

void vec_unary_rep(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, const MaskArg& mask, uint8_t repeat,
                   const AscendC::UnaryRepeatParams& p, Loc loc) {
  unary_rep(op, dt, dst, src, mask, repeat, p.dstBlkStride, p.srcBlkStride, p.dstRepStride, p.srcRepStride, loc);
}

void vec_copy_rep(DType dt, const LocalRef& dst, const LocalRef& src, const MaskArg& mask, uint8_t repeat,
                  uint32_t dst_blk, uint32_t src_blk, uint32_t dst_rep, uint32_t src_rep, Loc loc) {
  unary_rep(VOp::Copy, dt, dst, src, mask, repeat, dst_blk, src_blk, dst_rep, src_rep, loc);
}
}  // namespace kgen::rt
