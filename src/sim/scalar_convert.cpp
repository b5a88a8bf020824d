// Scalar conversions of kgen/scalar_convert.h (ScalarCast): the Cast rules for one float value.
#include <cmath>
#include <cstdint>
#include <limits>

#include "kgen/scalar_convert.h"

namespace kgen::rt {
uint16_t scalar_cast_f16_odd(float v) {
  uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  if (std::isnan(v)) return 0x7e00u;
  float a = std::fabs(v);
  if (std::isinf(a)) return static_cast<uint16_t>(sign | 0x7c00u);
  if (a >= 65504.0f) return static_cast<uint16_t>(sign | 0x7bffu);   // saturate, like Cast
  // quantum of the half grid at a: 2^-24 below 2^-14 (subnormals), else 2^(e - 10)
  int e;
  std::frexp(a, &e);   // a in [2^(e-1), 2^e)
  int q = e - 1 < -14 ? -24 : e - 1 - 10;
  double s = std::ldexp(static_cast<double>(a), -q);   // exact: a has 24 significant bits
  double n = std::floor(s);
  if (s > n && std::fmod(n, 2.0) == 0) n += 1;   // inexact: make the last kept bit 1 (round to odd)
  half h(static_cast<float>(std::ldexp(n, q)));   // exactly representable now
  return static_cast<uint16_t>(h.val | sign);
}

int32_t scalar_cast_s32(float v, AscendC::RoundMode mode) {
  if (std::isnan(v)) return 0;
  double x = v, r = x;
  switch (mode) {
    case AscendC::RoundMode::CAST_ROUND: r = std::round(x); break;   // half-way cases away from zero
    case AscendC::RoundMode::CAST_CEIL: r = std::ceil(x); break;
    case AscendC::RoundMode::CAST_FLOOR: r = std::floor(x); break;
    case AscendC::RoundMode::CAST_TRUNC: r = std::trunc(x); break;
    default: r = std::nearbyint(x); break;   // CAST_RINT: half-way cases to even (default FE_TONEAREST)
  }
  if (r >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (r <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(r);
}
}  // namespace kgen::rt
