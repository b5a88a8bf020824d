// Binary elementwise vector ops (Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu, SubRelu, FusedMulAdd,
// MulAddDst) in the count form and the mask/repeat form.
#include <string>

#include "kgen/vec_runtime.h"
#include "sim/elementwise.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
using rt::VOp;

template <class C> C binary_value(VOp op, C a, C b, C d) {
  switch (op) {
    case VOp::Add: return a + b;
    case VOp::Sub: return a - b;
    case VOp::Mul: return a * b;
    case VOp::Div: return a / b;
    case VOp::Max: return a > b ? a : b;
    case VOp::Min: return a < b ? a : b;
    case VOp::AddRelu: { C s = a + b; return s > C(0) ? s : C(0); }
    case VOp::SubRelu: { C s = a - b; return s > C(0) ? s : C(0); }
    case VOp::FusedMulAdd: return a * d + b;   // dst = src0 * dst + src1
    case VOp::MulAddDst: return a * b + d;     // dst = src0 * src1 + dst
    case VOp::And:
      if constexpr (std::is_integral_v<C>) return a & b; else return C(0);
    case VOp::Or:
      if constexpr (std::is_integral_v<C>) return a | b; else return C(0);
    default: return C(0);
  }
}

bool reads_dst(VOp op) { return op == VOp::FusedMulAdd || op == VOp::MulAddDst; }

template <class T> void binary_count(VOp op, T* d, const T* a, const T* b, uint64_t n) {
  using C = Calc<T>;
  // The common ops get their own loops so the compiler vectorises them.
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t>) {
    switch (op) {
      case VOp::Add: for (uint64_t i = 0; i < n; ++i) d[i] = static_cast<T>(a[i] + b[i]); return;
      case VOp::Sub: for (uint64_t i = 0; i < n; ++i) d[i] = static_cast<T>(a[i] - b[i]); return;
      case VOp::Mul: for (uint64_t i = 0; i < n; ++i) d[i] = static_cast<T>(a[i] * b[i]); return;
      default: break;
    }
  }
  for (uint64_t i = 0; i < n; ++i)
    d[i] = static_cast<T>(binary_value<C>(op, static_cast<C>(a[i]), static_cast<C>(b[i]), static_cast<C>(d[i])));
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

const char* vop_name(VOp op) {
  static const char* n[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or", "AddRelu", "SubRelu",
                            "FusedMulAdd", "MulAddDst", "Exp", "Ln", "Abs", "Reciprocal", "Sqrt", "Rsqrt", "Relu",
                            "Not", "Copy", "Adds", "Muls", "Maxs", "Mins", "LeakyRelu", "ShiftLeft", "ShiftRight"};
  return n[static_cast<int>(op)];
}

void vec_binary(VOp op, DType dt, const LocalRef& dst, const LocalRef& a, const LocalRef& b, uint64_t count, Loc loc) {
  const char* api = vop_name(op);
  require_dtype(api, dt, loc);
  uint64_t n = checked_count(static_cast<int64_t>(count), api, loc);
  uint8_t* pd = vec_operand(dst, api, loc);
  vec_operand(a, api, loc);
  vec_operand(b, api, loc);
  (void)pd;
  issue(kV);
  uint32_t es = dtype_size(dt);
  LaneWise lanes;   // a lane read from never-written UB is garbage, not a fault (core.h LaneScope)
  const uint8_t* pa = touch_count(a, n, es, false, api, loc);
  const uint8_t* pb = touch_count(b, n, es, false, api, loc);
  if (reads_dst(op)) touch_count(dst, n, es, false, api, loc);
  uint8_t* out = touch_count(dst, n, es, true, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    binary_count<T>(op, reinterpret_cast<T*>(out), reinterpret_cast<const T*>(pa), reinterpret_cast<const T*>(pb), n);
  });
  trace_vec(api, dt, n, static_cast<uint32_t>((n * es + 255) / 256), &dst, &a, &b, loc);
}

void vec_binary_rep(VOp op, DType dt, const LocalRef& dst, const LocalRef& a, const LocalRef& b, const MaskArg& mask,
                    uint8_t repeat, const AscendC::BinaryRepeatParams& p, Loc loc) {
  const char* api = vop_name(op);
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* ba = vec_operand(a, api, loc);
  uint8_t* bb = vec_operand(b, api, loc);
  RepeatWalk w = make_walk(mask, repeat, dt, api, loc);
  issue(kV);
  LaneWalk lanes(w);   // a lane read from never-written UB is garbage, not a fault (elementwise.h)
  lanes.read(a, p.src0BlkStride, p.src0RepStride, api, loc);
  lanes.read(b, p.src1BlkStride, p.src1RepStride, api, loc);
  if (reads_dst(op)) lanes.read(dst, p.dstBlkStride, p.dstRepStride, api, loc);
  lanes.write(dst, p.dstBlkStride, p.dstRepStride, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    using C = Calc<T>;
    for_each_lane(w, [&](uint32_t r, uint32_t j, uint32_t e) {
      uint8_t* pd = bd + dst.addr + walk_offset(r, j, e, p.dstBlkStride, p.dstRepStride, sizeof(T));
      C va = static_cast<C>(load<T>(ba + a.addr + walk_offset(r, j, e, p.src0BlkStride, p.src0RepStride, sizeof(T))));
      C vb = static_cast<C>(load<T>(bb + b.addr + walk_offset(r, j, e, p.src1BlkStride, p.src1RepStride, sizeof(T))));
      store<T>(pd, static_cast<T>(binary_value<C>(op, va, vb, static_cast<C>(load<T>(pd)))));
    });
  });
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * w.per_block * 8, w.repeat, &dst, &a, &b, loc);
}
}  // namespace kgen::rt
