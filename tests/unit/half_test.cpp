// Exhaustive checks of half and bfloat16_t conversions (include/ascendc/kgen/types.h) against references
// written here from the IEEE definitions, over all 65536 bit patterns of each type.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kgen/types.h"

namespace {
uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
float float_of(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// binary16: sign * 2^(e-15) * (1 + m/1024) for 1 <= e <= 30; sign * 2^-14 * (m/1024) for e = 0;
// e = 31: infinity (m = 0) or NaN.
double half_ref(uint16_t h) {
  int sign = (h >> 15) ? -1 : 1;
  int e = (h >> 10) & 0x1f;
  int m = h & 0x3ff;
  if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (e == 0) return sign * std::ldexp(m / 1024.0, -14);
  return sign * std::ldexp(1.0 + m / 1024.0, e - 15);
}
bool half_is_nan(uint16_t h) { return ((h >> 10) & 0x1f) == 31 && (h & 0x3ff) != 0; }
bool bf16_is_nan(uint16_t b) { return ((b >> 7) & 0xff) == 255 && (b & 0x7f) != 0; }

half half_from_bits(uint16_t b) { half h; h.val = b; return h; }
bfloat16_t bf16_from_bits(uint16_t b) { bfloat16_t h; h.val = b; return h; }
}  // namespace

TEST(HalfConv, ToFloatMatchesReferenceForAllPatterns) {
  for (uint32_t u = 0; u < 65536; ++u) {
    uint16_t h = static_cast<uint16_t>(u);
    float got = static_cast<float>(half_from_bits(h));
    double want = half_ref(h);
    if (half_is_nan(h)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << u;
      ASSERT_EQ(std::signbit(got), (h >> 15) != 0) << std::hex << u;
      continue;
    }
    ASSERT_EQ(static_cast<double>(got), want) << std::hex << u;
    ASSERT_EQ(std::signbit(got), (h >> 15) != 0) << std::hex << u;   // -0 stays -0
  }
}

TEST(HalfConv, RoundTripsEveryPattern) {
  for (uint32_t u = 0; u < 65536; ++u) {
    uint16_t h = static_cast<uint16_t>(u);
    half back = static_cast<float>(half_from_bits(h));
    if (half_is_nan(h)) {
      ASSERT_TRUE(half_is_nan(back.val)) << std::hex << u;
      ASSERT_EQ(back.val & 0x8000, h & 0x8000) << std::hex << u;
    } else {
      ASSERT_EQ(back.val, h) << std::hex << u;
    }
  }
}

// Between consecutive finite halves a < b (same sign), the exact midpoint goes to the one with an even
// significand; one float ulp above goes to b, one below to a. The midpoint of the largest finite half and the
// next power (65520) rounds to infinity, whose pattern 0x7c00 is even.
TEST(HalfConv, RoundsToNearestEvenAtMidpoints) {
  for (uint32_t sign = 0; sign <= 0x8000; sign += 0x8000) {
    for (uint32_t a = 0; a < 0x7c00; ++a) {
      uint32_t b = a + 1;
      double va = std::fabs(half_ref(static_cast<uint16_t>(a)));
      double vb = b == 0x7c00 ? 65536.0 : std::fabs(half_ref(static_cast<uint16_t>(b)));
      double mid_d = (va + vb) / 2;
      float mid = static_cast<float>(mid_d);
      ASSERT_EQ(static_cast<double>(mid), mid_d) << "midpoint not exact in float at " << a;
      float s = sign ? -1.0f : 1.0f;
      uint16_t even = static_cast<uint16_t>(sign | ((a & 1) ? b : a));
      ASSERT_EQ(half(s * mid).val, even) << std::hex << a;
      ASSERT_EQ(half(s * std::nextafter(mid, std::numeric_limits<float>::infinity())).val,
                static_cast<uint16_t>(sign | b)) << std::hex << a;
      ASSERT_EQ(half(s * std::nextafter(mid, 0.0f)).val, static_cast<uint16_t>(sign | a)) << std::hex << a;
    }
  }
}

TEST(HalfConv, OverflowInfinityAndNaN) {
  EXPECT_EQ(half(65504.0f).val, 0x7bff);
  EXPECT_EQ(half(65519.99f).val, 0x7bff);
  EXPECT_EQ(half(65520.0f).val, 0x7c00);
  EXPECT_EQ(half(-65520.0f).val, 0xfc00);
  EXPECT_EQ(half(1e10f).val, 0x7c00);
  EXPECT_EQ(half(std::numeric_limits<float>::max()).val, 0x7c00);
  EXPECT_EQ(half(std::numeric_limits<float>::infinity()).val, 0x7c00);
  EXPECT_EQ(half(-std::numeric_limits<float>::infinity()).val, 0xfc00);
  EXPECT_TRUE(half_is_nan(half(std::numeric_limits<float>::quiet_NaN()).val));
  EXPECT_TRUE(half_is_nan(half(-std::numeric_limits<float>::quiet_NaN()).val));
  EXPECT_TRUE(half_is_nan(half(float_of(0x7f800001u)).val));   // signalling NaN with a payload only in low bits
  EXPECT_TRUE(std::isnan(static_cast<float>(half(std::nanf("")))));
  // values far below the smallest subnormal flush to signed zero
  EXPECT_EQ(half(1e-30f).val, 0x0000);
  EXPECT_EQ(half(-1e-30f).val, 0x8000);
  EXPECT_EQ(half(float_of(1)).val, 0x0000);   // smallest float subnormal
  EXPECT_EQ(half(-0.0f).val, 0x8000);
}

// Arithmetic goes through float and rounds once on assignment.
TEST(HalfConv, ArithmeticRoundsOnce) {
  half a = 1.0f, b = float_of(0x33800000u);   // 2^-24 is far below half an ulp of 1.0 (2^-11)
  half c = a;
  c += b;
  EXPECT_EQ(c.val, a.val);
  half d = 2048.0f;
  d += 1.0f;   // 2049 is a tie between 2048 and 2050 -> 2048 (even)
  EXPECT_EQ(static_cast<float>(d), 2048.0f);
  d = 2050.0f;
  d += 1.0f;   // 2051 ties between 2050 and 2052 -> 2052 (even significand)
  EXPECT_EQ(static_cast<float>(d), 2052.0f);
  EXPECT_EQ((-half(3.0f)).val, half(-3.0f).val);
}

TEST(Bf16Conv, RoundTripsEveryPattern) {
  for (uint32_t u = 0; u < 65536; ++u) {
    uint16_t b = static_cast<uint16_t>(u);
    float f = static_cast<float>(bf16_from_bits(b));
    ASSERT_EQ(bits_of(f), u << 16) << std::hex << u;   // bf16 -> float is exact: the high half of a float
    bfloat16_t back = f;
    if (bf16_is_nan(b)) {
      ASSERT_TRUE(bf16_is_nan(back.val)) << std::hex << u;
      ASSERT_EQ(back.val & 0x8000, b & 0x8000) << std::hex << u;
    } else {
      ASSERT_EQ(back.val, b) << std::hex << u;
    }
  }
}

TEST(Bf16Conv, RoundsToNearestEvenAtMidpoints) {
  for (uint32_t sign = 0; sign <= 0x8000; sign += 0x8000) {
    for (uint32_t a = 0; a < 0x7f80; ++a) {   // every finite magnitude; a + 1 == 0x7f80 is infinity
      uint32_t b = a + 1;
      float lo = float_of((sign | a) << 16), hi = float_of((sign | b) << 16);
      float mid = float_of(((sign | a) << 16) | 0x8000u);
      if (b != 0x7f80) ASSERT_EQ(static_cast<double>(mid), (static_cast<double>(lo) + hi) / 2) << std::hex << a;
      uint16_t even = static_cast<uint16_t>(sign | ((a & 1) ? b : a));
      ASSERT_EQ(bfloat16_t(mid).val, even) << std::hex << a;
      ASSERT_EQ(bfloat16_t(float_of(((sign | a) << 16) | 0x8001u)).val, static_cast<uint16_t>(sign | b)) << std::hex << a;
      ASSERT_EQ(bfloat16_t(float_of(((sign | a) << 16) | 0x7fffu)).val, static_cast<uint16_t>(sign | a)) << std::hex << a;
    }
  }
  EXPECT_EQ(bfloat16_t(std::numeric_limits<float>::max()).val, 0x7f80);   // above the last midpoint: infinity
  EXPECT_EQ(bfloat16_t(std::numeric_limits<float>::infinity()).val, 0x7f80);
  EXPECT_TRUE(bf16_is_nan(bfloat16_t(std::numeric_limits<float>::quiet_NaN()).val));
  EXPECT_TRUE(bf16_is_nan(bfloat16_t(float_of(0x7f800001u)).val));   // NaN payload only in dropped bits
  EXPECT_TRUE(bf16_is_nan(bfloat16_t(float_of(0xff800001u)).val));
  EXPECT_EQ(bfloat16_t(half(1.5f)).val, bfloat16_t(1.5f).val);
}
