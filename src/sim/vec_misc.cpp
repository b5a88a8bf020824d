// Axpy (dst = src * scalar + dst; half/half, float/float, half -> float), Duplicate, CreateVecIndex, and the length
// form of SetVectorMask.
#include <string>
#include <type_traits>

#include "kgen/vec_misc.h"
#include "kgen/vec_runtime.h"
#include "sim/elementwise.h"
#include "sim/timing.h"
#include "sim/vec_lanes.h"

namespace kgen::sim {
namespace {
void check_axpy_pair(DType d, DType s, const Loc& loc) {
  bool ok = (d == DType::F16 && s == DType::F16) || (d == DType::F32 && s == DType::F32) ||
            (d == DType::F32 && s == DType::F16);
  if (!ok)
    fail("dtype", "Axpy", loc,
         std::string("Axpy does not support src ") + dtype_name(s) + " -> dst " + dtype_name(d) +
             " (supported src/scalar -> dst: half -> half, float -> float, half -> float)");
}

// One lane of Axpy: x * a + d in the destination's type. In half the product is rounded to half before the add, as
// the chip's half Axpy computes (NPUKernelBench's ForeachAddList: its Axpy<half, half> answer matches torch_npu's
// `a + b * alpha`, two half roundings, to the last bit, docs/sources.md S78); float and half -> float in float.
template <class D, class S> D axpy_lane(float x, float a, float d) {
  if constexpr (std::is_same_v<D, half> && std::is_same_v<S, half>)
    return static_cast<D>(static_cast<float>(static_cast<half>(x * a)) + d);
  else
    return static_cast<D>(x * a + d);
}

template <class F> void with_axpy_types(DType d, DType s, F&& f) {
  if (d == DType::F16) f(Tag<half>{}, Tag<half>{});
  else if (s == DType::F32) f(Tag<float>{}, Tag<float>{});
  else f(Tag<float>{}, Tag<half>{});
}

template <class T> T scalar_value(rt::Scalar s) {
  T v;
  std::memcpy(&v, &s.bits, sizeof(T));
  return v;
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void vec_axpy(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, Scalar s, uint64_t count, Loc loc) {
  const char* api = "Axpy";
  require_dtype(api, dt_src, loc);
  check_axpy_pair(dt_dst, dt_src, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  uint64_t n = checked_count(static_cast<int64_t>(count), api, loc);
  issue(kV);
  uint32_t ed = dtype_size(dt_dst), es = dtype_size(dt_src);
  LaneWise lanes;   // a lane read from never-written UB is garbage, not a fault (core.h LaneScope)
  const uint8_t* ps = touch_count(src, n, es, false, api, loc);
  touch_count(dst, n, ed, false, api, loc);
  uint8_t* pd = touch_count(dst, n, ed, true, api, loc);
  with_axpy_types(dt_dst, dt_src, [&](auto td, auto ts) {
    using D = typename decltype(td)::type;
    using S = typename decltype(ts)::type;
    float a = static_cast<float>(scalar_value<S>(s));
    D* d = reinterpret_cast<D*>(pd);
    const S* x = reinterpret_cast<const S*>(ps);
    for (uint64_t i = 0; i < n; ++i) d[i] = axpy_lane<D, S>(static_cast<float>(x[i]), a, static_cast<float>(d[i]));
  });
  DType wide = ed >= es ? dt_dst : dt_src;
  trace_vec(api, wide, n, static_cast<uint32_t>((n * dtype_size(wide) + 255) / 256), &dst, &src, nullptr, loc);
}

void vec_axpy_rep(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, Scalar s, const MaskArg& mask,
                  uint8_t repeat, const AscendC::UnaryRepeatParams& p, Loc loc) {
  const char* api = "Axpy";
  require_dtype(api, dt_src, loc);
  check_axpy_pair(dt_dst, dt_src, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  // The wider type (dst) sets the lanes of a repeat: half -> float uses the first 4 DataBlocks of src per repeat.
  RepeatWalk w = make_walk(mask, repeat, dt_dst, api, loc);
  issue(kV);
  uint32_t ed = dtype_size(dt_dst), es = dtype_size(dt_src);
  touch_lanes(src, w, es, p.srcBlkStride, p.srcRepStride, false, api, loc);
  touch_lanes(dst, w, ed, p.dstBlkStride, p.dstRepStride, false, api, loc);
  touch_lanes(dst, w, ed, p.dstBlkStride, p.dstRepStride, true, api, loc);
  with_axpy_types(dt_dst, dt_src, [&](auto td, auto ts) {
    using D = typename decltype(td)::type;
    using S = typename decltype(ts)::type;
    float a = static_cast<float>(scalar_value<S>(s));
    for_each_lane_k(w, [&](uint32_t r, uint32_t k) {
      float x = static_cast<float>(load<S>(bs + src.addr + lane_offset(r, k, es, p.srcBlkStride, p.srcRepStride)));
      uint8_t* pd = bd + dst.addr + lane_offset(r, k, ed, p.dstBlkStride, p.dstRepStride);
      store<D>(pd, axpy_lane<D, S>(x, a, static_cast<float>(load<D>(pd))));
    });
  });
  trace_vec(api, dt_dst, static_cast<uint64_t>(w.repeat) * lanes_per_repeat(w), w.repeat, &dst, &src, nullptr, loc);
}

void vec_duplicate(DType dt, const LocalRef& dst, Scalar s, uint64_t count, Loc loc) {
  const char* api = "Duplicate";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  uint64_t n = checked_count(static_cast<int64_t>(count), api, loc);
  issue(kV);
  uint32_t es = dtype_size(dt);
  uint8_t* pd = touch_count(dst, n, es, true, api, loc);
  if (es == 4) {
    uint32_t v = static_cast<uint32_t>(s.bits);
    uint32_t* d = reinterpret_cast<uint32_t*>(pd);
    for (uint64_t i = 0; i < n; ++i) d[i] = v;
  } else {
    for (uint64_t i = 0; i < n; ++i) std::memcpy(pd + i * es, &s.bits, es);
  }
  trace_vec(api, dt, n, static_cast<uint32_t>((n * es + 255) / 256), &dst, nullptr, nullptr, loc);
}

void vec_duplicate_rep(DType dt, const LocalRef& dst, Scalar s, const MaskArg& mask, uint8_t repeat,
                       uint16_t dst_blk_stride, uint8_t dst_rep_stride, Loc loc) {
  const char* api = "Duplicate";
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  RepeatWalk w = make_walk(mask, repeat, dt, api, loc);
  issue(kV);
  touch_walk(dst, w, dst_blk_stride, dst_rep_stride, true, api, loc);
  uint32_t es = dtype_size(dt);
  for_each_lane(w, [&](uint32_t r, uint32_t j, uint32_t e) {
    std::memcpy(bd + dst.addr + walk_offset(r, j, e, dst_blk_stride, dst_rep_stride, es), &s.bits, es);
  });
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * w.per_block * 8, w.repeat, &dst, nullptr, nullptr, loc);
}

void vec_create_index(DType dt, const LocalRef& dst, Scalar first, uint64_t count, Loc loc) {
  const char* api = "CreateVecIndex";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  issue(kV);
  uint32_t es = dtype_size(dt);
  uint8_t* pd = touch_count(dst, count, es, true, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    using C = Calc<T>;
    C f = static_cast<C>(scalar_value<T>(first));
    for (uint64_t i = 0; i < count; ++i) {
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        store<T>(pd + i * es, static_cast<T>(static_cast<U>(static_cast<U>(f) + static_cast<U>(i))));
      } else {
        store<T>(pd + i * es, static_cast<T>(f + static_cast<C>(i)));
      }
    }
  });
  trace_vec(api, dt, count, static_cast<uint32_t>((count * es + 255) / 256), &dst, nullptr, nullptr, loc);
}

void vec_create_index_rep(DType dt, const LocalRef& dst, Scalar first, const MaskArg& mask, uint8_t repeat,
                          uint16_t dst_blk_stride, uint8_t dst_rep_stride, Loc loc) {
  const char* api = "CreateVecIndex";
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  RepeatWalk w = make_walk(mask, repeat, dt, api, loc);
  issue(kV);
  touch_walk(dst, w, dst_blk_stride, dst_rep_stride, true, api, loc);
  uint32_t R = w.per_block * 8;
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    using C = Calc<T>;
    C f = static_cast<C>(scalar_value<T>(first));
    for_each_lane(w, [&](uint32_t r, uint32_t j, uint32_t e) {
      uint64_t i = static_cast<uint64_t>(r) * R + j * w.per_block + e;   // the element's logical index
      T v;
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        v = static_cast<T>(static_cast<U>(static_cast<U>(f) + static_cast<U>(i)));
      } else {
        v = static_cast<T>(f + static_cast<C>(i));
      }
      store<T>(bd + dst.addr + walk_offset(r, j, e, dst_blk_stride, dst_rep_stride, sizeof(T)), v);
    });
  });
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * R, w.repeat, &dst, nullptr, nullptr, loc);
}

void set_vector_mask_len(DType dt, int64_t len, bool counter, Loc loc) {
  if (len < 0) fail("param", "SetVectorMask", loc, "len " + std::to_string(len) + " is negative");
  if (counter) {   // MaskMode::COUNTER writes the count into the low mask register
    set_vector_mask(dt, 0, static_cast<uint64_t>(len), false, loc);
    return;
  }
  if (cur().mask_counter)
    fail("param", "SetVectorMask", loc,
         "SetVectorMask<T, MaskMode::NORMAL>(len) writes a " + std::to_string(len) +
             "-element bit pattern, but the mask is in counter mode (SetMaskCount), where it would be read as an "
             "element count; use SetVectorMask<T, MaskMode::COUNTER>(len)");
  if (len == 0) fail("param", "SetVectorMask", loc, "len 0 enables no element; len must be at least 1");
  set_vector_mask(dt, 0, static_cast<uint64_t>(len), true, loc);
}
}  // namespace kgen::rt
