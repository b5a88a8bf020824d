// Cast: every A2 src -> dst pair with every allowed RoundMode against an independent reference written here
// (bracketing the value between its two neighbours in the target format and picking one by the mode's rule),
// exhaustive over all 16-bit sources; the mask/repeat form; the documented examples; dtype/mode errors; 310P table.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>

#include "vec_test_util.h"

using namespace vt;
using LD = long double;
using RM = RoundMode;

namespace {
const RM kRModes[] = {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC};

// Picks the result between the neighbours lo < x < hi (lo_even: lo's last significand bit is 0).
LD pick(LD x, LD lo, LD hi, bool lo_even, RM m) {
  bool neg = x < 0;
  LD dl = x - lo, dh = hi - x;
  switch (m) {
    case RM::CAST_FLOOR: return lo;
    case RM::CAST_CEIL: return hi;
    case RM::CAST_TRUNC: return neg ? hi : lo;
    case RM::CAST_ROUND: return dl < dh ? lo : dh < dl ? hi : (neg ? lo : hi);
    case RM::CAST_ODD: return lo_even ? hi : lo;
    default: return dl < dh ? lo : dh < dl ? hi : (lo_even ? lo : hi);   // NONE, RINT
  }
}

// All finite non-negative values of a 16-bit float format, sorted, with their bit patterns.
struct Lattice {
  std::vector<std::pair<LD, uint16_t>> pos;
  LD max;
  template <class F> explicit Lattice(F to_value, uint16_t exp_mask) {
    for (uint32_t b = 0; b < 0x8000u; ++b)
      if ((b & exp_mask) != exp_mask) pos.push_back({to_value(static_cast<uint16_t>(b)), static_cast<uint16_t>(b)});
    std::sort(pos.begin(), pos.end());
    max = pos.back().first;
  }
  // bits of x rounded into the format, saturating finite overflow; infinities and NaN keep their class
  uint16_t round(LD x, RM m, uint16_t inf_bits, uint16_t nan_bits) const {
    if (std::isnan(x)) return nan_bits;
    uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    if (std::isinf(x)) return sign | inf_bits;
    LD a = std::fabs(x);
    if (a > max) return sign | pos.back().second;
    // neighbours in value order of the signed number line
    auto it = std::lower_bound(pos.begin(), pos.end(), std::make_pair(a, uint16_t(0)));
    if (it->first == a) return (a == 0 ? sign : sign) | it->second;
    auto below = it - 1;   // magnitudes: below->first < a < it->first
    LD lo, hi;
    uint16_t lob, hib;
    if (!sign) { lo = below->first; hi = it->first; lob = below->second; hib = it->second; }
    else { lo = -it->first; hi = -below->first; lob = it->second; hib = below->second; }
    LD r = pick(x, lo, hi, (lob & 1) == 0, m);
    uint16_t mag = r == lo ? lob : hib;
    return sign | mag;
  }
};

const Lattice& half_lattice() {
  static Lattice l([](uint16_t b) { half h; h.val = b; return static_cast<LD>(static_cast<float>(h)); }, 0x7c00);
  return l;
}
const Lattice& bf16_lattice() {
  static Lattice l([](uint16_t b) { bfloat16_t h; h.val = b; return static_cast<LD>(static_cast<float>(h)); }, 0x7f80);
  return l;
}

LD round_int(LD x, RM m) {
  switch (m) {
    case RM::CAST_FLOOR: return std::floor(x);
    case RM::CAST_CEIL: return std::ceil(x);
    case RM::CAST_TRUNC: return std::trunc(x);
    case RM::CAST_ROUND: return std::round(x);
    default: {
      std::fesetround(FE_TONEAREST);
      return std::nearbyint(x);
    }
  }
}

template <class I> I saturate(LD v) {
  if (std::isnan(v)) return 0;
  if (v >= static_cast<LD>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  if (v <= static_cast<LD>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return static_cast<I>(v);
}

template <class S> LD exact(S x) {
  if constexpr (std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t>) return static_cast<float>(x);
  else return static_cast<LD>(x);
}

// The reference conversion.
template <class S, class D> D ref_cast(S x, RM m) {
  LD v = exact(x);
  D out;
  if constexpr (std::is_same_v<D, half>) {
    out.val = half_lattice().round(v, m, 0x7c00, 0x7e00);
  } else if constexpr (std::is_same_v<D, bfloat16_t>) {
    out.val = bf16_lattice().round(v, m, 0x7f80, 0x7fc0);
  } else if constexpr (std::is_same_v<D, float>) {
    if constexpr (std::is_same_v<S, float>) {
      out = std::isnan(v) || std::isinf(v) ? x : std::copysign(static_cast<float>(round_int(v, m)), x);
    } else {
      float f = static_cast<float>(v);
      if (std::isnan(v) || static_cast<LD>(f) == v) {
        out = f;
      } else {
        float lo = static_cast<LD>(f) < v ? f : std::nextafter(f, -INFINITY);
        float hi = static_cast<LD>(f) < v ? std::nextafter(f, INFINITY) : f;
        out = static_cast<float>(pick(v, lo, hi, (bits_of(lo) & 1) == 0, m));
      }
    }
  } else {
    out = saturate<D>(std::is_floating_point_v<S> || std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t>
                          ? round_int(v, m) : v);
  }
  return out;
}

template <class S, class D>
void check_pair(const std::vector<S>& xs, std::initializer_list<RM> modes, const char* what) {
  const uint32_t chunk = 4096;
  Env env(96 * 1024);
  auto src = env.at<S>(0, chunk);
  auto dst = env.at<D>(40960, chunk);
  for (size_t base = 0; base < xs.size(); base += chunk) {
    uint32_t n = static_cast<uint32_t>(std::min<size_t>(chunk, xs.size() - base));
    std::vector<S> part(xs.begin() + base, xs.begin() + base + n);
    fill(src, part);
    for (RM m : modes) {
      Cast(dst, src, m, n);
      auto got = read(dst, n);
      int bad = 0;
      for (uint32_t i = 0; i < n && bad < 5; ++i) {
        D want = ref_cast<S, D>(part[i], m);
        bool same = bits_of(got[i]) == bits_of(want);
        if constexpr (std::is_same_v<D, float>) same = same || (std::isnan(got[i]) && std::isnan(want));
        if (!same) {
          ++bad;
          ADD_FAILURE() << what << " mode " << static_cast<int>(m) << ": input bits 0x" << std::hex << bits_of(part[i])
                        << " got 0x" << bits_of(got[i]) << " want 0x" << bits_of(want);
        }
      }
    }
  }
}

template <class T> std::vector<T> all16() {
  std::vector<T> v(65536);
  for (uint32_t b = 0; b < 65536; ++b) { uint16_t u = static_cast<uint16_t>(b); std::memcpy(&v[b], &u, 2); }
  return v;
}

std::vector<float> float_inputs() {
  std::vector<float> v = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f,
                          65504.0f, -65504.0f, 65519.99f, 65520.0f, -65520.0f, 65536.0f, 1e10f, -1e10f, 1e30f,
                          3.4e38f, -3.4e38f, std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                          2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 32767.5f, 32768.0f,
                          -32768.5f, -32769.0f, 9.2233715e18f, -9.2233725e18f, 1e19f, 222.5f, 0.5f + 0x1p-12f,
                          0.5f + 0x1p-9f + 0x1p-11f, std::ldexp(1.0f, -24), std::ldexp(1.0f, -25),
                          std::ldexp(3.0f, -26), std::ldexp(1.0f, -26), -std::ldexp(1.0f, -25), 1.0f + 0x1p-11f,
                          1.0f + 3 * 0x1p-11f, 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, std::ldexp(1.0f, -14) * 1.5f};
  Rng rng(11);
  for (int i = 0; i < 3000; ++i) {
    uint32_t b = static_cast<uint32_t>(rng.next());
    int e = 127 + static_cast<int>(rng.next() % 90) - 45;   // around half's and int's ranges
    b = (b & 0x807fffffu) | (static_cast<uint32_t>(e) << 23);
    if (i % 3 == 0) b &= 0xffffe000u | (static_cast<uint32_t>(rng.next()) & 0x1fffu & (i % 2 ? 0x1000u : 0x1fffu));
    float f;
    std::memcpy(&f, &b, 4);
    v.push_back(f);
    v.push_back(std::round(f * 4) / 4);   // many ties
  }
  return v;
}

template <class I> std::vector<I> int_inputs() {
  std::vector<I> v = {0, 1, -1, std::numeric_limits<I>::max(), std::numeric_limits<I>::min(),
                      static_cast<I>(std::numeric_limits<I>::max() - 1), static_cast<I>((1 << 24) + 1),
                      static_cast<I>((1 << 25) + 3), static_cast<I>(-(1 << 25) - 3), static_cast<I>((1 << 24) + 3),
                      32767, -32768, 32768, -32769, 65504, 65520};
  if constexpr (sizeof(I) == 8) {
    v.push_back((1ll << 53) + 1);
    v.push_back(-(1ll << 62) - 12345);
    v.push_back((1ll << 40) + (1ll << 16));   // exact tie for float
    v.push_back((1ll << 40) + (3ll << 16));
  }
  Rng rng(5);
  for (int i = 0; i < 3000; ++i) {
    I x = static_cast<I>(rng.next());
    v.push_back(x);
    v.push_back(static_cast<I>(x >> (rng.next() % (sizeof(I) * 8))));
  }
  return v;
}
}  // namespace

TEST(VecCast, HalfSourcesExhaustive) {
  auto xs = all16<half>();
  check_pair<half, int32_t>(xs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "half->int32");
  check_pair<half, int16_t>(xs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "half->int16");
  check_pair<half, float>(xs, {RM::CAST_NONE}, "half->float");
  check_pair<half, int8_t>(xs, {RM::CAST_NONE, RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "half->int8");
  check_pair<half, uint8_t>(xs, {RM::CAST_NONE, RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "half->uint8");
}

TEST(VecCast, Bf16AndInt16SourcesExhaustive) {
  auto bs = all16<bfloat16_t>();
  check_pair<bfloat16_t, float>(bs, {RM::CAST_NONE}, "bf16->float");
  check_pair<bfloat16_t, int32_t>(bs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "bf16->int32");
  auto is = all16<int16_t>();
  check_pair<int16_t, half>(is, {RM::CAST_NONE, RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "int16->half");
  check_pair<int16_t, float>(is, {RM::CAST_NONE}, "int16->float");
  std::vector<int8_t> i8(256);
  std::vector<uint8_t> u8(256);
  for (int i = 0; i < 256; ++i) { i8[i] = static_cast<int8_t>(i); u8[i] = static_cast<uint8_t>(i); }
  check_pair<int8_t, half>(i8, {RM::CAST_NONE}, "int8->half");
  check_pair<uint8_t, half>(u8, {RM::CAST_NONE}, "uint8->half");
}

TEST(VecCast, FloatSources) {
  auto xs = float_inputs();
  check_pair<float, float>(xs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "float->float");
  check_pair<float, int32_t>(xs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "float->int32");
  check_pair<float, int64_t>(xs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "float->int64");
  check_pair<float, int16_t>(xs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "float->int16");
  check_pair<float, half>(xs, {RM::CAST_NONE, RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC, RM::CAST_ODD}, "float->half");
  check_pair<float, bfloat16_t>(xs, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "float->bf16");
}

TEST(VecCast, IntegerSources) {
  auto i32 = int_inputs<int32_t>();
  check_pair<int32_t, float>(i32, {RM::CAST_NONE, RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "int32->float");
  check_pair<int32_t, int16_t>(i32, {RM::CAST_NONE}, "int32->int16");
  check_pair<int32_t, int64_t>(i32, {RM::CAST_NONE}, "int32->int64");
  check_pair<int32_t, half>(i32, {RM::CAST_NONE}, "int32->half (deq scale 1)");
  auto i64 = int_inputs<int64_t>();
  check_pair<int64_t, int32_t>(i64, {RM::CAST_NONE}, "int64->int32");
  check_pair<int64_t, float>(i64, {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC}, "int64->float");
}

// SetDeqScale(half): Cast int32 -> half multiplies by the DEQSCALE factor (cann-ops' float -> int8 rounding sets 1.0
// explicitly); the default is 1.
TEST(VecCast, DeqScaleAppliesToInt32ToHalf) {
  Env env;
  auto i = env.at<int32_t>(0, 64);
  auto h = env.at<half>(512, 64);
  std::vector<int32_t> v(64);
  for (int k = 0; k < 64; ++k) v[k] = k * 3 - 90;
  fill(i, v);
  Cast(h, i, RoundMode::CAST_NONE, 64);
  for (int k = 0; k < 64; ++k) ASSERT_EQ(static_cast<float>(h.GetValue(k)), static_cast<float>(v[k])) << k;
  SetDeqScale(static_cast<half>(0.5f));
  Cast(h, i, RoundMode::CAST_NONE, 64);
  for (int k = 0; k < 64; ++k) ASSERT_EQ(static_cast<float>(h.GetValue(k)), static_cast<float>(v[k]) * 0.5f) << k;
  SetDeqScale(static_cast<half>(1.0f));
}

// The examples of the Cast doc's precision table.
TEST(VecCast, DocumentedExamples) {
  Env env;
  auto f = env.at<float>(0, 64), g = env.at<float>(256, 64);
  fill(f, std::vector<float>(64, 0.5f));
  const std::pair<RM, float> ff[] = {{RM::CAST_RINT, 0.0f}, {RM::CAST_FLOOR, 0.0f}, {RM::CAST_CEIL, 1.0f},
                                     {RM::CAST_ROUND, 1.0f}, {RM::CAST_TRUNC, 0.0f}};
  for (auto [m, want] : ff) {
    Cast(g, f, m, 64);
    EXPECT_EQ(read(g, 1)[0], want) << static_cast<int>(m);
  }
  auto i32 = env.at<int32_t>(512, 64);
  auto i16 = env.at<int16_t>(1024, 64);
  fill(i32, std::vector<int32_t>(64, 2147483647));
  Cast(i16, i32, RM::CAST_NONE, 64);
  EXPECT_EQ(read(i16, 1)[0], 32767);   // 2^31 - 1 -> 2^15 - 1 (saturation)
  fill(i16, std::vector<int16_t>(64, 32767));
  Cast(g, i16, RM::CAST_NONE, 64);
  EXPECT_EQ(read(g, 1)[0], 32767.0f);
  // float -> half: 0.5 + 2^-12 lies between 0.5 and 0.5 + 2^-11
  fill(f, std::vector<float>(64, 0.5f + 0x1p-12f));
  auto h = env.at<half>(2048, 64);
  Cast(h, f, RM::CAST_RINT, 64);
  EXPECT_EQ(static_cast<float>(read(h, 1)[0]), 0.5f);
  Cast(h, f, RM::CAST_ROUND, 64);
  EXPECT_EQ(static_cast<float>(read(h, 1)[0]), 0.5f + 0x1p-11f);
  Cast(h, f, RM::CAST_ODD, 64);
  EXPECT_EQ(static_cast<float>(read(h, 1)[0]), 0.5f + 0x1p-11f);
  Cast(h, f, RM::CAST_TRUNC, 64);
  EXPECT_EQ(static_cast<float>(read(h, 1)[0]), 0.5f);
  // overflow saturates ("溢出默认按照饱和处理")
  fill(f, std::vector<float>(64, 1e6f));
  Cast(h, f, RM::CAST_CEIL, 64);
  EXPECT_EQ(static_cast<float>(read(h, 1)[0]), 65504.0f);
  auto i = env.at<int32_t>(4096, 64);
  fill(f, std::vector<float>(64, -1e20f));
  Cast(i, f, RM::CAST_FLOOR, 64);
  EXPECT_EQ(read(i, 1)[0], std::numeric_limits<int32_t>::min());
}

TEST(VecCast, RepeatFormWiderTypeSetsLanes) {
  Env env;
  auto h = env.at<half>(0, 1024);
  auto i = env.at<int32_t>(4096, 1024);
  std::vector<half> x(1024);
  for (int k = 0; k < 1024; ++k) x[k] = half(static_cast<float>(k % 200) / 4.0f - 20.0f);
  fill(h, x);
  fill(i, std::vector<int32_t>(1024, -99));
  // docs "更多样例": mask 32, repeat 8, {1, 1, 8, 4}: the first 32 of each 64-element repeat
  Cast(i, h, RM::CAST_CEIL, static_cast<uint64_t>(32), 8, {1, 1, 8, 4});
  std::vector<int32_t> want(1024, -99);
  for (uint32_t r = 0; r < 8; ++r)
    for (uint32_t k = 0; k < 32; ++k)
      want[lane_index(r, k, 4, 1, 8)] = static_cast<int32_t>(std::ceil(static_cast<float>(x[lane_index(r, k, 2, 1, 4)])));
  EXPECT_EQ(read(i, 1024), want);
  EXPECT_EQ(env.last_v().repeats, 8u);
  EXPECT_EQ(env.last_v().dtype, static_cast<uint8_t>(kgen::DType::I32));
  // float -> half with a bit mask and strided source; the dst repeat stride 4 packs 64 halfs per repeat
  auto f = env.at<float>(8192, 1024);
  auto hd = env.at<half>(16384, 1024);
  std::vector<float> y(1024);
  for (int k = 0; k < 1024; ++k) y[k] = static_cast<float>(k) * 1.001f;
  fill(f, y);
  fill(hd, std::vector<half>(1024, half(0.0f)));
  uint64_t m[2] = {0xaaaaaaaa55555555ull, 0};
  Cast(hd, f, RM::CAST_ODD, m, 3, {1, 2, 4, 16});
  std::vector<half> wh(1024, half(0.0f));
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t k = 0; k < 64; ++k)
      if ((m[0] >> k) & 1) wh[lane_index(r, k, 2, 1, 4)] = ref_cast<float, half>(y[lane_index(r, k, 4, 2, 16)], RM::CAST_ODD);
  auto gh = read(hd, 1024);
  for (int k = 0; k < 1024; ++k) ASSERT_EQ(gh[k].val, wh[k].val) << k;
  // half -> int8 (wider type half: 128 lanes, mask[1] counts)
  auto i8 = env.at<int8_t>(24576, 512);
  fill(i8, std::vector<int8_t>(512, 0));
  uint64_t m2[2] = {0, 0x3ull};
  Cast(i8, h, RM::CAST_TRUNC, m2, 2, {1, 1, 4, 8});
  auto g8 = read(i8, 512);
  for (int k = 0; k < 512; ++k) {
    bool on = (k % 128 == 64 || k % 128 == 65) && k < 256;
    int8_t w = on ? saturate<int8_t>(std::trunc(static_cast<float>(x[k]))) : 0;
    EXPECT_EQ(g8[k], w) << k;
  }
}

TEST(VecCast, InPlaceNarrowing) {
  Env env;
  auto f = env.at<float>(0, 256);
  std::vector<float> y(256);
  for (int k = 0; k < 256; ++k) y[k] = k * 0.37f;
  fill(f, y);
  auto h = f.ReinterpretCast<half>();
  Cast(h, f, RM::CAST_RINT, 256);
  auto g = read(h, 256);
  for (int k = 0; k < 256; ++k) EXPECT_EQ(g[k].val, half(y[k]).val) << k;
}

TEST(VecCast, CounterMode) {
  Env env;
  auto h = env.at<half>(0, 256);
  auto f = env.at<float>(1024, 256);
  fill(h, std::vector<half>(256, half(1.5f)));
  fill(f, std::vector<float>(256, 0.0f));
  SetMaskCount();
  SetVectorMask<float, MaskMode::COUNTER>(100);
  Cast<float, half, false>(f, h, RM::CAST_NONE, MASK_PLACEHOLDER, 1, {1, 1, 8, 4});
  SetMaskNorm();
  ResetMask();
  auto g = read(f, 256);
  for (int k = 0; k < 256; ++k) EXPECT_EQ(g[k], k < 100 ? 1.5f : 0.0f) << k;
}

TEST(VecCast, DtypeAndModeErrors) {
  Env env;
  auto f = env.at<float>(0, 64);
  auto i = env.at<int32_t>(256, 64);
  auto h = env.at<half>(512, 64);
  auto i8 = env.at<int8_t>(768, 64);
  auto d = env.at<double>(1024, 64);
  fill(f, std::vector<float>(64, 1.0f));
  fill(h, std::vector<half>(64, half(1.0f)));
  std::string e = kgen::sim::error_of([&] { Cast(i, f, RM::CAST_NONE, 64); });
  EXPECT_TRUE(has_category(e, "dtype")) << e;
  EXPECT_NE(e.find("CAST_RINT/CAST_FLOOR/CAST_CEIL/CAST_ROUND/CAST_TRUNC"), std::string::npos) << e;
  EXPECT_ERROR("dtype", Cast(f, h, RM::CAST_RINT, 64));   // half -> float takes CAST_NONE only
  EXPECT_ERROR("dtype", Cast(h, f, static_cast<RM>(9), 64));
  e = kgen::sim::error_of([&] { Cast(i8, f, RM::CAST_RINT, 64); });   // no float -> int8 on A2
  EXPECT_TRUE(has_category(e, "dtype")) << e;
  EXPECT_NE(e.find("half (CAST_NONE/CAST_RINT"), std::string::npos) << e;
  EXPECT_ERROR("dtype", Cast(d, f, RM::CAST_NONE, 64));
  EXPECT_ERROR("dtype", Cast(f, f, RM::CAST_ODD, 64));
  EXPECT_ERROR("param", Cast(f, h, RM::CAST_NONE, static_cast<uint64_t>(65), 1, {1, 1, 8, 4}));   // 64 lanes max
  EXPECT_ERROR("align", Cast(f, h[1], RM::CAST_NONE, 8));
  EXPECT_ERROR("ub-overflow", Cast(f, h, RM::CAST_NONE, 100000));
}

TEST(VecCast, Table310P) {
  Env env(64 * 1024, "Ascend310P3");
  auto f = env.at<float>(0, 64);
  auto h = env.at<half>(256, 64);
  auto i16 = env.at<int16_t>(512, 64);
  auto i8 = env.at<int8_t>(1024, 64);
  fill(f, std::vector<float>(64, 2.5f));
  fill(h, std::vector<half>(64, half(2.5f)));
  Cast(i16, h, RM::CAST_RINT, 64);
  EXPECT_EQ(read(i16, 1)[0], 2);
  EXPECT_ERROR("dtype", Cast(i16, h, RM::CAST_FLOOR, 64));   // 310P: half -> int16 is RINT only
  Cast(i8, f, RM::CAST_NONE, 64);                               // float -> int8 exists on 310P
  EXPECT_EQ(read(i8, 1)[0], 2);
  EXPECT_ERROR("dtype", Cast(f, f, RM::CAST_RINT, 64));      // float -> float is an A2 pair
  EXPECT_ERROR("dtype", Cast(h, f, RM::CAST_RINT, 64));
}
