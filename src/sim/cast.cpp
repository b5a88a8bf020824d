// Cast: the src -> dst pairs and RoundModes of the Cast doc (A2 table 15-178, 310P table 15-177), bit-exact.
//
// Rounding: every source value is exact in long double; it is rounded once to the target's precision with the
// mode's rule (RINT ties to even, ROUND ties away from zero, FLOOR, CEIL, TRUNC, ODD = round to odd / Von Neumann;
// CAST_NONE is RINT where precision is lost). Overflow saturates, as the doc says for every narrowing pair
// ("溢出默认按照饱和处理"): finite values beyond the target's range become its largest finite value (half 65504,
// bfloat16 3.39e38, the integer min/max). Infinities and NaN of a float source keep their class when the target is
// a float type; to an integer, +-inf saturates to max/min and NaN becomes 0.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kgen/vec_cast.h"
#include "sim/elementwise.h"
#include "sim/timing.h"
#include "sim/vec_lanes.h"

namespace kgen::sim {
namespace {
using AscendC::RoundMode;
using D = DType;

constexpr uint8_t mb(RoundMode m) { return static_cast<uint8_t>(1u << static_cast<int>(m)); }
constexpr uint8_t kNone = mb(RoundMode::CAST_NONE);
constexpr uint8_t kOdd = mb(RoundMode::CAST_ODD);
constexpr uint8_t kR = mb(RoundMode::CAST_RINT) | mb(RoundMode::CAST_FLOOR) | mb(RoundMode::CAST_CEIL) |
                       mb(RoundMode::CAST_ROUND) | mb(RoundMode::CAST_TRUNC);
constexpr uint8_t kAny = 0xff;   // int32 -> half: the mode is ignored (SetDeqScale path)

struct CastRule { D src, dst; uint8_t modes; };
// Atlas A2 (arch 2201), table 15-178. int4b_t pairs are not modelled (no int4b_t type).
constexpr CastRule kA2[] = {
    {D::F16, D::I32, kR},         {D::F16, D::I16, kR},           {D::F16, D::F32, kNone},
    {D::F16, D::I8, kR | kNone},  {D::F16, D::U8, kR | kNone},    {D::F32, D::F32, kR},
    {D::F32, D::I32, kR},         {D::F32, D::F16, kR | kOdd | kNone}, {D::F32, D::I64, kR},
    {D::F32, D::I16, kR},         {D::F32, D::BF16, kR},          {D::BF16, D::F32, kNone},
    {D::BF16, D::I32, kR},        {D::U8, D::F16, kNone},         {D::I8, D::F16, kNone},
    {D::I16, D::F16, kR | kNone}, {D::I16, D::F32, kNone},        {D::I32, D::F32, kR | kNone},
    {D::I32, D::I16, kNone},      {D::I32, D::F16, kAny},         {D::I32, D::I64, kNone},
    {D::I64, D::I32, kNone},      {D::I64, D::F32, kR},
};
// Atlas inference AI Core (310P, arch 2002), table 15-177.
constexpr uint8_t kFCRT = mb(RoundMode::CAST_FLOOR) | mb(RoundMode::CAST_CEIL) | mb(RoundMode::CAST_ROUND) |
                          mb(RoundMode::CAST_TRUNC);
constexpr CastRule k310P[] = {
    {D::F16, D::I32, kR},           {D::F16, D::I16, mb(RoundMode::CAST_RINT)}, {D::F16, D::F32, kNone},
    {D::F16, D::I8, kFCRT | kNone}, {D::F16, D::U8, kFCRT | kNone},            {D::F32, D::I32, kR | kNone},
    {D::F32, D::F16, kNone | kOdd}, {D::F32, D::U8, kNone},                    {D::F32, D::I8, kNone},
    {D::F32, D::I16, kNone},
};

const char* mode_name(RoundMode m) {
  static const char* n[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
  int i = static_cast<int>(m);
  return i >= 0 && i < 7 ? n[i] : "invalid RoundMode";
}
std::string modes_str(uint8_t modes) {
  if (modes == kAny) return "any RoundMode (ignored)";
  std::string s;
  for (int i = 0; i < 7; ++i)
    if (modes & (1u << i)) s += (s.empty() ? "" : "/") + std::string(mode_name(static_cast<RoundMode>(i)));
  return s;
}

void check_cast(D dst, D src, RoundMode m, const Loc& loc) {
  const Core& c = cur();
  bool p310 = c.soc->arch == 2002;
  const CastRule* rules = p310 ? k310P : kA2;
  size_t n = p310 ? sizeof(k310P) / sizeof(k310P[0]) : sizeof(kA2) / sizeof(kA2[0]);
  for (size_t i = 0; i < n; ++i) {
    if (rules[i].src != src || rules[i].dst != dst) continue;
    if (static_cast<int>(m) > 6 || !(rules[i].modes & mb(m)))
      fail("dtype", "Cast", loc,
           std::string("Cast ") + dtype_name(src) + " -> " + dtype_name(dst) + " does not take " + mode_name(m) +
               " on " + c.soc->name + "; supported: " + modes_str(rules[i].modes));
    return;
  }
  std::string from;
  for (size_t i = 0; i < n; ++i)
    if (rules[i].src == src)
      from += std::string(from.empty() ? "" : ", ") + dtype_name(rules[i].dst) + " (" + modes_str(rules[i].modes) + ")";
  fail("dtype", "Cast", loc,
       std::string("Cast ") + dtype_name(src) + " -> " + dtype_name(dst) + " is not supported on " + c.soc->name +
           (from.empty() ? std::string("; no Cast takes ") + dtype_name(src) + " as source there"
                         : std::string("; from ") + dtype_name(src) + " it converts to: " + from));
}

using LD = long double;

// Rounds the magnitude a (>= 0) to a multiple of 2^qe with the mode; neg is the sign of the value.
LD round_mag(LD a, int qe, RoundMode m, bool neg) {
  LD s = std::ldexp(a, -qe);
  LD n = std::floor(s);
  LD f = s - n;
  bool odd = std::fmod(n, 2.0L) != 0;
  bool inc = false;
  switch (m) {
    case RoundMode::CAST_NONE:
    case RoundMode::CAST_RINT: inc = f > 0.5L || (f == 0.5L && odd); break;
    case RoundMode::CAST_ROUND: inc = f >= 0.5L; break;
    case RoundMode::CAST_FLOOR: inc = neg && f > 0; break;
    case RoundMode::CAST_CEIL: inc = !neg && f > 0; break;
    case RoundMode::CAST_TRUNC: inc = false; break;
    case RoundMode::CAST_ODD: inc = f > 0 && !odd; break;
  }
  return std::ldexp(inc ? n + 1 : n, qe);
}

// x rounded to a binary float format with p significand bits, minimum normal exponent emin, saturating at max.
LD round_to_format(LD x, int p, int emin, LD max, RoundMode m) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  bool neg = std::signbit(x);
  LD a = std::fabs(x);
  int ex;
  std::frexp(a, &ex);   // a in [2^(ex-1), 2^ex)
  int e = ex - 1 < emin ? emin : ex - 1;
  LD r = round_mag(a, e - (p - 1), m, neg);
  if (r > max) r = max;
  return neg ? -r : r;
}

LD round_to_int(LD x, RoundMode m) {
  if (std::isnan(x) || std::isinf(x)) return x;
  bool neg = std::signbit(x);
  LD r = round_mag(std::fabs(x), 0, m, neg);
  return neg ? -r : r;
}

LD read_exact(D dt, const uint8_t* p) {
  switch (dt) {
    case D::F16: return static_cast<float>(load<half>(p));
    case D::BF16: return static_cast<float>(load<bfloat16_t>(p));
    case D::F32: return load<float>(p);
    case D::I8: return load<int8_t>(p);
    case D::U8: return load<uint8_t>(p);
    case D::I16: return load<int16_t>(p);
    case D::I32: return load<int32_t>(p);
    case D::I64: return static_cast<LD>(load<int64_t>(p));
    default: return 0;
  }
}

template <class I> void write_int(LD v, uint8_t* p) {
  I r;
  if (std::isnan(v)) r = 0;
  else if (v >= static_cast<LD>(std::numeric_limits<I>::max())) r = std::numeric_limits<I>::max();
  else if (v <= static_cast<LD>(std::numeric_limits<I>::min())) r = std::numeric_limits<I>::min();
  else r = static_cast<I>(v);
  store<I>(p, r);
}

constexpr LD kHalfMax = 65504.0L;
const LD kBf16Max = std::ldexp(static_cast<LD>(0xff), 120);   // (2 - 2^-7) * 2^127
const LD kF32Max = static_cast<LD>(std::numeric_limits<float>::max());

// Converts one element. float -> float rounds to an integral value.
void convert_one(D dst, D src, RoundMode m, const uint8_t* in, uint8_t* out) {
  LD x = read_exact(src, in);
  if (src == D::I32 && dst == D::F16) {   // the deq path: the mode is ignored, SetDeqScale's factor applies
    m = RoundMode::CAST_RINT;
    x *= static_cast<LD>(cur().deq_scale);
  }
  switch (dst) {
    case D::F16: store<half>(out, half(static_cast<float>(round_to_format(x, 11, -14, kHalfMax, m)))); return;
    case D::BF16:
      store<bfloat16_t>(out, bfloat16_t(static_cast<float>(round_to_format(x, 8, -126, kBf16Max, m))));
      return;
    case D::F32: {
      LD r = src == D::F32 ? round_to_int(x, m) : round_to_format(x, 24, -126, kF32Max, m);
      store<float>(out, static_cast<float>(r));
      return;
    }
    case D::I8: write_int<int8_t>(round_to_int(x, m), out); return;
    case D::U8: write_int<uint8_t>(round_to_int(x, m), out); return;
    case D::I16: write_int<int16_t>(round_to_int(x, m), out); return;
    case D::I32: write_int<int32_t>(round_to_int(x, m), out); return;
    case D::I64: write_int<int64_t>(round_to_int(x, m), out); return;
    default: return;
  }
}

// Count-form loops; the exact widenings and float -> half/bf16 (RINT) get direct loops.
void convert_n(D dst, D src, RoundMode m, const uint8_t* in, uint8_t* out, uint64_t n) {
  uint32_t es = dtype_size(src), ed = dtype_size(dst);
  if (dst == D::F32 && (src == D::F16 || src == D::BF16 || src == D::I16)) {
    float* d = reinterpret_cast<float*>(out);
    for (uint64_t i = 0; i < n; ++i) d[i] = static_cast<float>(read_exact(src, in + i * es));
    return;
  }
  bool rint = m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT;
  if (src == D::F32 && (dst == D::F16 || dst == D::BF16) && rint) {
    const float* s = reinterpret_cast<const float*>(in);
    uint16_t* d = reinterpret_cast<uint16_t*>(out);
    for (uint64_t i = 0; i < n; ++i) {
      float f = s[i];
      uint16_t b = dst == D::F16 ? f32_to_f16_bits(f) : f32_to_bf16_bits(f);
      // IEEE rounding overflows to infinity; Cast saturates finite values to the largest finite one
      if ((b & 0x7fffu) == (dst == D::F16 ? 0x7c00u : 0x7f80u) && std::isfinite(f))
        b = static_cast<uint16_t>((b & 0x8000u) | (dst == D::F16 ? 0x7bffu : 0x7f7fu));
      d[i] = b;
    }
    return;
  }
  for (uint64_t i = 0; i < n; ++i) convert_one(dst, src, m, in + i * es, out + i * ed);
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void vec_cast(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, AscendC::RoundMode mode,
              uint64_t count, Loc loc) {
  const char* api = "Cast";
  check_cast(dt_dst, dt_src, mode, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  issue(kV);
  uint32_t es = dtype_size(dt_src), ed = dtype_size(dt_dst);
  LaneWise lanes;   // a lane read from never-written UB is garbage, not a fault (core.h LaneScope)
  const uint8_t* ps = touch_count(src, count, es, false, api, loc);
  uint8_t* pd = touch_count(dst, count, ed, true, api, loc);
  bool overlap = dst.pos == src.pos && static_cast<uint64_t>(dst.addr) < src.addr + count * es &&
                 static_cast<uint64_t>(src.addr) < dst.addr + count * ed;
  if (!computes(dt_dst) || !computes(dt_src)) {   // timing.h: no float values in a timing-only run
  } else if (overlap) {   // the unit reads a repeat before writing it; in-place narrowing must not see its own output
    std::vector<uint8_t> in(ps, ps + count * es);
    convert_n(dt_dst, dt_src, mode, in.data(), pd, count);
  } else {
    convert_n(dt_dst, dt_src, mode, ps, pd, count);
  }
  DType wide = ed >= es ? dt_dst : dt_src;
  trace_vec(api, wide, count, static_cast<uint32_t>((count * dtype_size(wide) + 255) / 256), &dst, &src, nullptr, loc);
}

void vec_cast_rep(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, AscendC::RoundMode mode,
                  const MaskArg& mask, uint8_t repeat, const AscendC::UnaryRepeatParams& p, Loc loc) {
  const char* api = "Cast";
  check_cast(dt_dst, dt_src, mode, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint32_t es = dtype_size(dt_src), ed = dtype_size(dt_dst);
  DType wide = ed >= es ? dt_dst : dt_src;
  RepeatWalk w = make_walk(mask, repeat, wide, api, loc);   // lanes and mask count elements of the wider type
  issue(kV);
  touch_lanes(src, w, es, p.srcBlkStride, p.srcRepStride, false, api, loc);
  touch_lanes(dst, w, ed, p.dstBlkStride, p.dstRepStride, true, api, loc);
  uint32_t R = lanes_per_repeat(w);
  uint8_t tmp[128 * 8];
  for (uint32_t r = 0; r < w.repeat && computes(dt_dst) && computes(dt_src); ++r) {   // per repeat: read every lane, then write
    Mask128 m = w.mask_for(r);
    for (uint32_t k = 0; k < R; ++k)
      if (m.test(k))
        convert_one(dt_dst, dt_src, mode, bs + src.addr + lane_offset(r, k, es, p.srcBlkStride, p.srcRepStride),
                    tmp + k * ed);
    for (uint32_t k = 0; k < R; ++k)
      if (m.test(k)) std::memcpy(bd + dst.addr + lane_offset(r, k, ed, p.dstBlkStride, p.dstRepStride), tmp + k * ed, ed);
  }
  trace_vec(api, wide, static_cast<uint64_t>(w.repeat) * R, w.repeat, &dst, &src, nullptr, loc);
}

void set_deq_scale(float scale, Loc loc) {
  issue(kS);
  cur().deq_scale = scale;
  trace_instr(kS, "SetDeqScale", DType::F16, 1, 2, 1, loc);
}
}  // namespace kgen::rt
