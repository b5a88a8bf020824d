// Tensor-scalar vector ops (Adds, Muls, Maxs, Mins, LeakyRelu, ShiftLeft, ShiftRight) in the count form and the
// mask/repeat form (UnaryRepeatParams). Integer arithmetic wraps (two's complement); half is computed in float and
// rounded once, which is exact for the sums and products of two halfs.
#include <string>

#include "kgen/vec_runtime.h"
#include "kgen/vec_scalar.h"
#include "sim/elementwise.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
using rt::VOp;

// Shifts per the ShiftLeft/ShiftRight docs: unsigned types shift logically; signed ShiftLeft keeps the sign bit
// and drops the bit below it, signed ShiftRight is arithmetic. roundEn (signed ShiftRight only) adds the last bit
// shifted out.
template <class T> T shift_value(bool left, T x, uint32_t n, bool round_en) {
  using U = std::make_unsigned_t<T>;
  constexpr uint32_t N = sizeof(T) * 8;
  U ux = static_cast<U>(x);
  if (left) {
    U shifted = n >= N ? U(0) : static_cast<U>(ux << n);
    if constexpr (std::is_signed_v<T>) {
      U sign = static_cast<U>(U(1) << (N - 1));
      return static_cast<T>(static_cast<U>((ux & sign) | (shifted & static_cast<U>(~sign))));
    } else {
      return static_cast<T>(shifted);
    }
  }
  if constexpr (std::is_signed_v<T>) {
    T r = n >= N ? (x < 0 ? T(-1) : T(0)) : static_cast<T>(x >> n);
    if (round_en && n >= 1) {
      uint32_t b = n - 1 < N ? n - 1 : N - 1;
      if ((ux >> b) & 1u) r = static_cast<T>(static_cast<U>(static_cast<U>(r) + 1u));
    }
    return r;
  } else {
    return n >= N ? T(0) : static_cast<T>(ux >> n);
  }
}

template <class T> struct ScalarOp {
  using C = Calc<T>;
  VOp op;
  C s;
  uint32_t shift = 0;
  bool round_en = false;
  T operator()(T xv) const {
    C x = static_cast<C>(xv);
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      switch (op) {
        case VOp::Adds: return static_cast<T>(static_cast<U>(static_cast<U>(x) + static_cast<U>(s)));
        case VOp::Muls: return static_cast<T>(static_cast<U>(static_cast<U>(x) * static_cast<U>(s)));
        case VOp::Maxs: return x > s ? x : s;
        case VOp::Mins: return x < s ? x : s;
        case VOp::LeakyRelu: return x >= 0 ? x : static_cast<T>(static_cast<U>(static_cast<U>(x) * static_cast<U>(s)));
        case VOp::ShiftLeft: return shift_value<T>(true, xv, shift, false);
        case VOp::ShiftRight: return shift_value<T>(false, xv, shift, round_en);
        default: return xv;
      }
    } else {
      switch (op) {
        case VOp::Adds: return static_cast<T>(x + s);
        case VOp::Muls: return static_cast<T>(x * s);
        case VOp::Maxs: return static_cast<T>(x > s ? x : s);
        case VOp::Mins: return static_cast<T>(x < s ? x : s);
        case VOp::LeakyRelu: return static_cast<T>(x >= C(0) ? x : x * s);
        default: return xv;
      }
    }
  }
};

template <class T> ScalarOp<T> make_op(VOp op, rt::Scalar sc, bool round_en) {
  T v;
  std::memcpy(&v, &sc.bits, sizeof(T));
  ScalarOp<T> f{op, static_cast<Calc<T>>(v)};
  if constexpr (std::is_integral_v<T>) f.shift = static_cast<uint32_t>(v);
  f.round_en = round_en;
  return f;
}

// ShiftLeft/ShiftRight: the shift count must be in [0, bits of T].
void check_shift(VOp op, DType dt, rt::Scalar sc, const char* api, const Loc& loc) {
  if (op != VOp::ShiftLeft && op != VOp::ShiftRight) return;
  uint32_t bits = dtype_size(dt) * 8;
  int64_t n = 0;
  switch (dt) {
    case DType::I16: { int16_t v; std::memcpy(&v, &sc.bits, 2); n = v; break; }
    case DType::U16: { uint16_t v; std::memcpy(&v, &sc.bits, 2); n = v; break; }
    case DType::I32: { int32_t v; std::memcpy(&v, &sc.bits, 4); n = v; break; }
    case DType::U32: { uint32_t v; std::memcpy(&v, &sc.bits, 4); n = v; break; }
    default: return;
  }
  if (n < 0 || n > static_cast<int64_t>(bits))
    fail("param", api, loc,
         "shift count " + std::to_string(n) + " is outside [0, " + std::to_string(bits) + "] for " + dtype_name(dt) +
             " (scalarValue is the number of bits to shift)");
}

void scalar_count(VOp op, DType dt, const rt::LocalRef& dst, const rt::LocalRef& src, rt::Scalar s, uint64_t count,
                  const Loc& loc) {
  const char* api = rt::vop_name(op);
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  uint64_t n = checked_count(static_cast<int64_t>(count), api, loc);
  check_shift(op, dt, s, api, loc);
  issue(kV);
  uint32_t es = dtype_size(dt);
  LaneWise lanes;   // a lane read from never-written UB is garbage, not a fault (core.h LaneScope)
  const uint8_t* ps = touch_count(src, n, es, false, api, loc);
  uint8_t* pd = touch_count(dst, n, es, true, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    const T* a = reinterpret_cast<const T*>(ps);
    T* d = reinterpret_cast<T*>(pd);
    if constexpr (std::is_same_v<T, float>) {   // vectorisable loops for the common float ops
      float v;
      std::memcpy(&v, &s.bits, 4);
      switch (op) {
        case VOp::Adds: for (uint64_t i = 0; i < n; ++i) d[i] = a[i] + v; return;
        case VOp::Muls: for (uint64_t i = 0; i < n; ++i) d[i] = a[i] * v; return;
        case VOp::Maxs: for (uint64_t i = 0; i < n; ++i) d[i] = a[i] > v ? a[i] : v; return;
        case VOp::Mins: for (uint64_t i = 0; i < n; ++i) d[i] = a[i] < v ? a[i] : v; return;
        default: break;
      }
    }
    ScalarOp<T> f = make_op<T>(op, s, false);
    for (uint64_t i = 0; i < n; ++i) d[i] = f(a[i]);
  });
  trace_vec(api, dt, n, static_cast<uint32_t>((n * es + 255) / 256), &dst, &src, nullptr, loc);
}

void scalar_rep(VOp op, DType dt, const rt::LocalRef& dst, const rt::LocalRef& src, rt::Scalar s,
                const rt::MaskArg& mask, uint8_t repeat, const AscendC::UnaryRepeatParams& p, bool round_en,
                const Loc& loc) {
  const char* api = rt::vop_name(op);
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  RepeatWalk w = make_walk(mask, repeat, dt, api, loc);
  check_shift(op, dt, s, api, loc);
  issue(kV);
  LaneWalk lanes(w);   // a lane read from never-written UB is garbage, not a fault (elementwise.h)
  lanes.read(src, p.srcBlkStride, p.srcRepStride, api, loc);
  lanes.write(dst, p.dstBlkStride, p.dstRepStride, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    ScalarOp<T> f = make_op<T>(op, s, round_en);
    for_each_lane(w, [&](uint32_t r, uint32_t j, uint32_t e) {
      T x = load<T>(bs + src.addr + walk_offset(r, j, e, p.srcBlkStride, p.srcRepStride, sizeof(T)));
      store<T>(bd + dst.addr + walk_offset(r, j, e, p.dstBlkStride, p.dstRepStride, sizeof(T)), f(x));
    });
  });
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * w.per_block * 8, w.repeat, &dst, &src, nullptr, loc);
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void vec_scalar(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, Scalar s, uint64_t count, Loc loc) {
  scalar_count(op, dt, dst, src, s, count, loc);
}

void vec_scalar_rep(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, Scalar s, const MaskArg& mask,
                    uint8_t repeat, const AscendC::UnaryRepeatParams& p, Loc loc) {
  scalar_rep(op, dt, dst, src, s, mask, repeat, p, false, loc);
}

void vec_shift_right_rep(DType dt, const LocalRef& dst, const LocalRef& src, Scalar s, const MaskArg& mask,
                         uint8_t repeat, const AscendC::UnaryRepeatParams& p, bool roundEn, Loc loc) {
  scalar_rep(VOp::ShiftRight, dt, dst, src, s, mask, repeat, p, roundEn, loc);
}

uint64_t vec_external_count(VOp op, Loc loc) {
  Core& c = cur();
  if (!c.mask_counter)
    fail("param", vop_name(op), loc,
         "count form with isSetMask = false takes its element count from the counter-mode mask, but the mask is in "
         "normal mode; call SetMaskCount() and SetVectorMask<T, MaskMode::COUNTER>(count) first (or keep isSetMask = "
         "true)");
  return c.mask_lo;
}
}  // namespace kgen::rt
