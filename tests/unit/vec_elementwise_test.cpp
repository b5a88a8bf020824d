// Unary (Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu, Not), tensor-scalar (Adds, Muls, Maxs, Mins, LeakyRelu,
// ShiftLeft, ShiftRight), Axpy, Duplicate, CreateVecIndex and the mask APIs: count form, mask/repeat form with
// strides, counter mode, checks. References are plain C++ in this file.
#include <cmath>
#include <functional>

#include "vec_test_util.h"

using namespace vt;

namespace {
float ref_unary(const char* op, float x) {
  std::string o = op;
  if (o == "Exp") return std::exp(x);
  if (o == "Ln") return std::log(x);
  if (o == "Abs") return std::fabs(x);
  if (o == "Reciprocal") return 1.0f / x;
  if (o == "Sqrt") return std::sqrt(x);
  if (o == "Rsqrt") return 1.0f / std::sqrt(x);
  if (o == "Relu") return x > 0 ? x : 0.0f;
  return x;
}

template <class T> void call_unary(const char* op, const LocalTensor<T>& d, const LocalTensor<T>& s, int32_t n) {
  std::string o = op;
  if (o == "Exp") Exp(d, s, n);
  else if (o == "Ln") Ln(d, s, n);
  else if (o == "Abs") Abs(d, s, n);
  else if (o == "Reciprocal") Reciprocal(d, s, n);
  else if (o == "Sqrt") Sqrt(d, s, n);
  else if (o == "Rsqrt") Rsqrt(d, s, n);
  else if (o == "Relu") Relu(d, s, n);
}

const char* kUnaryOps[] = {"Exp", "Ln", "Abs", "Reciprocal", "Sqrt", "Rsqrt", "Relu"};
}  // namespace

TEST(VecUnary, CountFormFloatAndHalfWithTail) {
  for (const char* op : kUnaryOps) {
    Env env;
    const int n = 300;   // 4 full float repeats + a 44-element tail; 2 half repeats + 44
    auto fs = env.at<float>(0, 512), fd = env.at<float>(4096, 512);
    auto hs = env.at<half>(8192, 512), hd = env.at<half>(12288, 512);
    Rng rng(7);
    std::vector<float> xf(n);
    std::vector<half> xh(n);
    for (int i = 0; i < n; ++i) {
      xf[i] = static_cast<float>(rng.uni(-4, 4));
      if (std::string(op) == "Ln" || std::string(op) == "Sqrt" || std::string(op) == "Rsqrt") xf[i] = std::fabs(xf[i]) + 0.01f;
      xh[i] = half(xf[i]);
    }
    fill(fs, xf);
    fill(hs, xh);
    fill(fd, std::vector<float>(512, -7.0f));   // sentinel past the count
    fill(hd, std::vector<half>(512, half(-7.0f)));
    call_unary<float>(op, fd, fs, n);
    call_unary<half>(op, hd, hs, n);
    auto rf = read(fd, 512);
    auto rh = read(hd, 512);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(bits_of(rf[i]), bits_of(ref_unary(op, xf[i]))) << op << " float " << i;
      EXPECT_EQ(bits_of(rh[i]), bits_of(half(ref_unary(op, static_cast<float>(xh[i]))))) << op << " half " << i;
    }
    for (int i = n; i < 512; ++i) {
      EXPECT_EQ(rf[i], -7.0f) << op << " wrote past count at " << i;
      EXPECT_EQ(static_cast<float>(rh[i]), -7.0f) << op << " wrote past count at " << i;
    }
    const auto& t = env.last_v();
    EXPECT_STREQ(t.api, op);
    EXPECT_EQ(t.elems, static_cast<uint64_t>(n));
    EXPECT_EQ(t.dtype, static_cast<uint8_t>(kgen::DType::F16));
    EXPECT_EQ(t.repeats, 3u);   // 600 bytes -> 3 repeats
    EXPECT_EQ(t.dst, 12288u);
    EXPECT_EQ(t.src0, 8192u);
  }
}

TEST(VecUnary, IntegerOps) {
  Env env;
  auto s16 = env.at<int16_t>(0, 128), d16 = env.at<int16_t>(1024, 128);
  auto su = env.at<uint16_t>(2048, 128), du = env.at<uint16_t>(3072, 128);
  auto s32 = env.at<int32_t>(4096, 64), d32 = env.at<int32_t>(5120, 64);
  std::vector<int16_t> a(100);
  std::vector<uint16_t> b(100);
  std::vector<int32_t> c(50);
  for (int i = 0; i < 100; ++i) { a[i] = static_cast<int16_t>(i * 977 - 30000); b[i] = static_cast<uint16_t>(i * 1311); }
  for (int i = 0; i < 50; ++i) c[i] = i * 100003 - 2500000;
  fill(s16, a); fill(su, b); fill(s32, c);
  Not(d16, s16, 100);
  Not(du, su, 100);
  Relu(d32, s32, 50);
  auto r16 = read(d16, 100);
  auto ru = read(du, 100);
  auto r32 = read(d32, 50);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(r16[i], static_cast<int16_t>(~a[i]));
    EXPECT_EQ(ru[i], static_cast<uint16_t>(~b[i]));
  }
  for (int i = 0; i < 50; ++i) EXPECT_EQ(r32[i], c[i] > 0 ? c[i] : 0);
}

// Mask/repeat form against the docs' walk: dst lane (r,k) = op(src lane (r,k)) where mask bit k is set.
TEST(VecUnary, RepeatFormMasksAndStrides) {
  struct Case { uint64_t lo, hi; bool bits; uint32_t cont; UnaryRepeatParams p; uint8_t rep; };
  const Case cases[] = {
      {0, 0, false, 128, {1, 1, 8, 8}, 3},                       // full mask, dense
      {0, 0, false, 77, {1, 1, 8, 8}, 2},                        // partial contiguous mask
      {0x00ff00ff00ff00ffull, 0x8000000000000001ull, true, 0, {2, 1, 16, 8}, 2},   // bit mask, dst block stride 2
      {~0ull, ~0ull, true, 0, {1, 1, 8, 0}, 3},                  // src repeat stride 0: re-reads the same 8 blocks
      {0, 0, false, 100, {1, 2, 8, 16}, 2},                      // strided read
      {0, 0, false, 128, {1, 0, 8, 1}, 2},                       // block stride 0, overlapping repeats
  };
  for (const Case& c : cases) {
    Env env;
    auto src = env.at<half>(0, 4096), dst = env.at<half>(16384, 4096);
    std::vector<half> x(4096), init(4096, half(-3.0f));
    for (int i = 0; i < 4096; ++i) x[i] = half(static_cast<float>((i % 97) - 40) / 8.0f);
    fill(src, x);
    fill(dst, init);
    if (c.bits) {
      uint64_t m[2] = {c.lo, c.hi};
      Abs(dst, src, m, c.rep, c.p);
    } else {
      Abs(dst, src, c.cont, c.rep, c.p);
    }
    std::vector<half> want = init;
    for (uint32_t r = 0; r < c.rep; ++r)
      for (uint32_t k = 0; k < 128; ++k) {
        bool on = c.bits ? mask_bit(c.lo, c.hi, k) : k < c.cont;
        if (!on) continue;
        want[lane_index(r, k, 2, c.p.dstBlkStride, c.p.dstRepStride)] =
            half(std::fabs(static_cast<float>(x[lane_index(r, k, 2, c.p.srcBlkStride, c.p.srcRepStride)])));
      }
    auto got = read(dst, 4096);
    for (int i = 0; i < 4096; ++i) ASSERT_EQ(got[i].val, want[i].val) << "element " << i;
    EXPECT_EQ(env.last_v().repeats, c.rep);
  }
}

TEST(VecUnary, FloatBitMaskUsesLowWordOnly) {
  Env env;
  auto src = env.at<float>(0, 128), dst = env.at<float>(1024, 128);
  std::vector<float> x(128);
  for (int i = 0; i < 128; ++i) x[i] = static_cast<float>(i) - 60.0f;
  fill(src, x);
  fill(dst, std::vector<float>(128, 9.0f));
  uint64_t m[2] = {0xf0f0f0f0f0f0f0f0ull, 0};
  Relu(dst, src, m, 2, {1, 1, 8, 8});
  auto got = read(dst, 128);
  for (int i = 0; i < 128; ++i) {
    bool on = (m[0] >> (i % 64)) & 1;
    EXPECT_EQ(got[i], on ? (x[i] > 0 ? x[i] : 0.0f) : 9.0f) << i;
  }
}

TEST(VecUnary, CounterModeViaSetMaskCount) {
  Env env;
  auto src = env.at<float>(0, 256), dst = env.at<float>(1024, 256);
  std::vector<float> x(256);
  for (int i = 0; i < 256; ++i) x[i] = -static_cast<float>(i);
  fill(src, x);
  fill(dst, std::vector<float>(256, 5.0f));
  SetMaskCount();
  SetVectorMask<float, MaskMode::COUNTER>(150);
  Abs<float, false>(dst, src, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
  SetMaskNorm();
  ResetMask();
  auto got = read(dst, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(got[i], i < 150 ? static_cast<float>(i) : 5.0f) << i;
  EXPECT_EQ(env.last_v().repeats, 3u);   // 150 floats -> 3 repeats
}

TEST(VecUnary, NormalModeExternalMask) {
  Env env;
  auto src = env.at<half>(0, 256), dst = env.at<half>(1024, 256);
  fill(src, std::vector<half>(256, half(-2.0f)));
  fill(dst, std::vector<half>(256, half(1.0f)));
  SetMaskNorm();
  SetVectorMask<half, MaskMode::NORMAL>(100);   // contiguous: 100 lanes per repeat
  Abs<half, false>(dst, src, MASK_PLACEHOLDER, 2, {1, 1, 8, 8});
  SetVectorMask<half>(0, 0x5ull);               // bit form: lanes 0 and 2 of each repeat
  Relu<half, false>(dst, src, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
  ResetMask();
  auto got = read(dst, 256);
  for (int i = 0; i < 256; ++i) {
    float want = (i % 128) < 100 ? 2.0f : 1.0f;
    if (i == 0 || i == 2) want = 0.0f;
    EXPECT_EQ(static_cast<float>(got[i]), want) << i;
  }
}

TEST(VecUnary, Errors) {
  {
    Env env;
    auto a = env.at<int32_t>(0, 64);
    fill(a, std::vector<int32_t>(64, 1));
    EXPECT_ERROR("dtype", Exp(a, a, 64));
    auto u = env.at<uint32_t>(256, 64);
    EXPECT_ERROR("dtype", Not(u, u, 64));
    auto b = env.at<bfloat16_t>(512, 64);
    EXPECT_ERROR("dtype", Sqrt(b, b, 64));
  }
  {
    Env env;
    auto a = env.at<float>(0, 256);
    fill(a, std::vector<float>(256, 1.0f));
    EXPECT_ERROR("param", Exp(a, a, 65, 1, {1, 1, 8, 8}));   // float mask max 64
    EXPECT_ERROR("param", Exp(a, a, static_cast<uint64_t>(0), 1, {1, 1, 8, 8}));
    uint64_t z[2] = {0, 0};
    EXPECT_ERROR("param", Exp(a, a, z, 1, {1, 1, 8, 8}));
    EXPECT_ERROR("param", Exp(a, a, -1));
    EXPECT_ERROR("align", Exp(a[1], a, 8));
    EXPECT_ERROR("ub-overflow", Exp(a, a, 64 * 1024));
  }
  {
    Env env;
    auto a = env.at<float>(0, 64), d = env.at<float>(256, 64);
    Exp(d, a, 64);                                               // count form: garbage in, garbage out (LaneScope)
    EXPECT_ERROR("uninit-read", d.GetValue(0));                  // until something uses it
    Exp(d, a, 64, 1, {1, 1, 8, 8});                              // the repeat form too (LaneWalk)
    EXPECT_ERROR("uninit-read", d.GetValue(0));
    auto full = env.at<float>(512, 64);
    fill(full, std::vector<float>(64, 1.0f));
    Exp(d, full, 32, 1, {1, 1, 8, 8});                           // the first 32 lanes computed from data: defined
    EXPECT_NEAR(d.GetValue(31), 2.7182817f, 1e-6);
    EXPECT_ERROR("uninit-read", d.GetValue(32));                 // the rest still garbage
  }
  {
    Env env;
    auto a = env.at<float>(0, 64);
    kgen::sim::cur().auto_sync_scalar = false;   // as built with --cce-auto-sync=off
    a.SetValue(0, 1.0f);   // scalar write, then a vector read with no barrier
    EXPECT_ERROR("race", Exp(a, a, 1));
  }
}

// ---------------- tensor-scalar ----------------
TEST(VecScalar, ArithmeticCountForm) {
  Env env;
  const int n = 200;
  auto fi = env.at<float>(0, 256), fo = env.at<float>(1024, 256);
  auto hi = env.at<half>(2048, 256), ho = env.at<half>(3072, 256);
  auto ii = env.at<int16_t>(4096, 256), io = env.at<int16_t>(5120, 256);
  auto ji = env.at<int32_t>(6144, 256), jo = env.at<int32_t>(7168, 256);
  std::vector<float> xf(n);
  std::vector<half> xh(n);
  std::vector<int16_t> xi(n);
  std::vector<int32_t> xj(n);
  Rng rng(3);
  for (int i = 0; i < n; ++i) {
    xf[i] = static_cast<float>(rng.uni(-100, 100));
    xh[i] = half(xf[i]);
    xi[i] = static_cast<int16_t>(rng.next());
    xj[i] = static_cast<int32_t>(rng.next());
  }
  fill(fi, xf); fill(hi, xh); fill(ii, xi); fill(ji, xj);
  struct Op { const char* name; std::function<float(float, float)> f; };
  for (int op = 0; op < 5; ++op) {
    float sf = -1.75f;
    half sh(3.5f);
    int16_t si = 12345;
    int32_t sj = -2000000001;
    switch (op) {
      case 0: Adds(fo, fi, sf, n); Adds(ho, hi, sh, n); Adds(io, ii, si, n); Adds(jo, ji, sj, n); break;
      case 1: Muls(fo, fi, sf, n); Muls(ho, hi, sh, n); Muls(io, ii, si, n); Muls(jo, ji, sj, n); break;
      case 2: Maxs(fo, fi, sf, n); Maxs(ho, hi, sh, n); Maxs(io, ii, si, n); Maxs(jo, ji, sj, n); break;
      case 3: Mins(fo, fi, sf, n); Mins(ho, hi, sh, n); Mins(io, ii, si, n); Mins(jo, ji, sj, n); break;
      case 4: LeakyRelu(fo, fi, sf, n); LeakyRelu(ho, hi, sh, n); break;
    }
    auto rf = read(fo, n);
    auto rh = read(ho, n);
    auto ri = read(io, n);
    auto rj = read(jo, n);
    auto f = [&](auto a, auto s) -> decltype(a + s) {
      switch (op) {
        case 0: return a + s;
        case 1: return a * s;
        case 2: return a > s ? a : s;
        case 3: return a < s ? a : s;
        default: return a >= 0 ? a : a * s;
      }
    };
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(bits_of(rf[i]), bits_of(static_cast<float>(f(xf[i], sf)))) << op << " " << i;
      EXPECT_EQ(rh[i].val, half(f(static_cast<float>(xh[i]), static_cast<float>(sh))).val) << op << " " << i;
      if (op < 4) {
        // integers wrap (two's complement)
        int64_t wi = f(static_cast<int64_t>(xi[i]), static_cast<int64_t>(si));
        int64_t wj = f(static_cast<int64_t>(xj[i]), static_cast<int64_t>(sj));
        EXPECT_EQ(ri[i], static_cast<int16_t>(static_cast<uint16_t>(wi))) << op << " " << i;
        EXPECT_EQ(rj[i], static_cast<int32_t>(static_cast<uint32_t>(wj))) << op << " " << i;
      }
    }
  }
  // the TensorTrait family: template <T, U> with U == T
  Adds<float, float>(fo, fi, 1.0f, n);
  EXPECT_EQ(read(fo, 1)[0], xf[0] + 1.0f);
}

TEST(VecScalar, RepeatFormStrides) {
  Env env;
  auto src = env.at<float>(0, 2048), dst = env.at<float>(8192, 2048);
  std::vector<float> x(2048);
  for (int i = 0; i < 2048; ++i) x[i] = static_cast<float>(i % 113) - 50.0f;
  fill(src, x);
  fill(dst, std::vector<float>(2048, 0.5f));
  UnaryRepeatParams p(2, 3, 20, 30);
  Muls(dst, src, 2.0f, 48, 3, p);
  uint64_t m[2] = {0x8000000000000101ull, 0};
  UnaryRepeatParams q(1, 1, 0, 8);   // dst repeat stride 0: later repeats overwrite the same blocks
  LeakyRelu(dst[1024], src, 0.25f, m, 2, q);
  std::vector<float> want(2048, 0.5f);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t k = 0; k < 48; ++k) want[lane_index(r, k, 4, 2, 20)] = 2.0f * x[lane_index(r, k, 4, 3, 30)];
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t k = 0; k < 64; ++k)
      if ((m[0] >> k) & 1) {
        float v = x[lane_index(r, k, 4, 1, 8)];
        want[1024 + lane_index(r, k, 4, 1, 0)] = v >= 0 ? v : v * 0.25f;
      }
  auto got = read(dst, 2048);
  for (int i = 0; i < 2048; ++i) ASSERT_EQ(got[i], want[i]) << i;
}

TEST(VecScalar, ShiftsAsDocumented) {
  std::string err = kgen::sim::error_of([&] {
  Env env;
  auto s16 = env.at<int16_t>(0, 128), d16 = env.at<int16_t>(256, 128);
  auto su = env.at<uint16_t>(512, 128), du = env.at<uint16_t>(768, 128);
  const int16_t pat = static_cast<int16_t>(0b1010101010101010);
  std::vector<int16_t> v16 = {pat, 17, -17, 32767, -32768, 1, -1, 0};
  std::vector<uint16_t> vu = {0b1010101010101010, 17, 65535, 1, 0x8000, 3, 0, 40000};
  v16.resize(128);
  vu.resize(128);
  fill(s16, v16);
  fill(su, vu);
  auto shl = [&](int16_t n) { ShiftLeft(d16, s16, n, 8); return read(d16, 8); };
  auto shr = [&](int16_t n) { ShiftRight(d16, s16, n, 8); return read(d16, 8); };
  // docs: int16 1010101010101010 << 1 = 1101010101010100, << 3 = 1101010101010000 (sign kept)
  EXPECT_EQ(static_cast<uint16_t>(shl(1)[0]), 0b1101010101010100);
  EXPECT_EQ(static_cast<uint16_t>(shl(3)[0]), 0b1101010101010000);
  // docs: >> 1 = 1101010101010101, >> 3 = 1111010101010101 (arithmetic)
  EXPECT_EQ(static_cast<uint16_t>(shr(1)[0]), 0b1101010101010101);
  EXPECT_EQ(static_cast<uint16_t>(shr(3)[0]), 0b1111010101010101);
  // docs: uint16 1010101010101010 << 1 = 0101010101010100
  ShiftLeft(du, su, static_cast<uint16_t>(1), 8);
  EXPECT_EQ(read(du, 1)[0], 0b0101010101010100);
  // full-width shifts (the documented range ends at 16)
  auto l16 = shl(16), r16 = shr(16);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(l16[i], static_cast<int16_t>(i == 0 || i == 2 || i == 4 || i == 6 ? -32768 : 0)) << i;
    EXPECT_EQ(r16[i], i == 0 || i == 2 || i == 4 || i == 6 ? -1 : 0) << i;
  }
  ShiftRight(du, su, static_cast<uint16_t>(16), 8);
  for (uint16_t v : read(du, 8)) EXPECT_EQ(v, 0);
  // general reference
  std::vector<int16_t> xs = {pat, 17, -17, 32767, -32768, 1, -1, 0};
  for (int16_t n = 0; n < 16; ++n) {
    auto l = shl(n), r = shr(n);
    for (int i = 0; i < 8; ++i) {
      uint16_t u = static_cast<uint16_t>(xs[i]);
      uint16_t wl = static_cast<uint16_t>((u & 0x8000u) | ((u << n) & 0x7fffu));
      EXPECT_EQ(static_cast<uint16_t>(l[i]), wl) << n << " " << i;
      EXPECT_EQ(r[i], static_cast<int16_t>(xs[i] >> n)) << n << " " << i;
    }
  }
  // roundEn (docs: 17 >> 5 with rounding = 1); only signed types round
  ShiftRight(d16, s16, static_cast<int16_t>(5), 128, 1, {1, 1, 8, 8}, true);
  auto rr = read(d16, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(rr[i], static_cast<int16_t>((xs[i] >> 5) + ((xs[i] >> 4) & 1))) << i;
  EXPECT_EQ(rr[1], 1);
  ShiftRight(du, su, static_cast<uint16_t>(1), 128, 1, {1, 1, 8, 8}, true);
  EXPECT_EQ(read(du, 2)[1], 8);   // 17 >> 1, no rounding for unsigned
  // 32-bit
  auto s32 = env.at<uint32_t>(1024, 64), d32 = env.at<uint32_t>(1280, 64);
  fill(s32, std::vector<uint32_t>{0x80000001u, 5u});
  ShiftLeft(d32, s32, 31u, 2);
  EXPECT_EQ(read(d32, 2), (std::vector<uint32_t>{0x80000000u, 0x80000000u}));
  ShiftRight(d32, s32, 32u, 2);
  EXPECT_EQ(read(d32, 2), (std::vector<uint32_t>{0u, 0u}));
  // range checks
  EXPECT_ERROR("param", ShiftLeft(d16, s16, static_cast<int16_t>(17), 8));
  EXPECT_ERROR("param", ShiftRight(d16, s16, static_cast<int16_t>(-1), 8));
  EXPECT_ERROR("param", ShiftRight(d32, s32, 33u, 2));
  });
  EXPECT_EQ(err, "");
}

TEST(VecScalar, ShiftNotOn310P) {
  Env env(64 * 1024, "Ascend310P3");
  auto a = env.at<int16_t>(0, 128);
  fill(a, std::vector<int16_t>(128, 1));
  EXPECT_ERROR("dtype", ShiftLeft(a, a, static_cast<int16_t>(1), 128));
  Adds(a, a, static_cast<int16_t>(1), 128);   // Adds exists there
}

TEST(VecScalar, CountFormWithExternalCounterMask) {
  Env env;
  auto src = env.at<half>(0, 256), dst = env.at<half>(1024, 256);
  fill(src, std::vector<half>(256, half(1.0f)));
  fill(dst, std::vector<half>(256, half(0.0f)));
  // docs example: SetMaskCount; SetVectorMask<half, COUNTER>(128); Adds<half, false>(dst, src, num, 1)
  SetMaskCount();
  SetVectorMask<half, MaskMode::COUNTER>(130);
  Adds<half, false>(dst, src, half(2.0f), 1);
  SetMaskNorm();
  ResetMask();
  auto got = read(dst, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(static_cast<float>(got[i]), i < 130 ? 3.0f : 0.0f) << i;
  // without counter mode the count of an isSetMask=false count form is undefined: an error
  EXPECT_ERROR("param", (Adds<half, false>(dst, src, half(2.0f), 1)));
}

TEST(VecScalar, DtypeErrors) {
  Env env;
  auto u = env.at<uint16_t>(0, 128);
  auto h = env.at<half>(256, 128);
  auto i = env.at<int32_t>(512, 64);
  fill(u, std::vector<uint16_t>(128, 1));
  fill(h, std::vector<half>(128, half(1.0f)));
  fill(i, std::vector<int32_t>(64, 1));
  EXPECT_ERROR("dtype", Adds(u, u, static_cast<uint16_t>(1), 128));
  EXPECT_ERROR("dtype", LeakyRelu(i, i, 1, 64));
  EXPECT_ERROR("dtype", ShiftLeft(h, h, half(1.0f), 128));
  EXPECT_ERROR("param", Maxs(h, h, half(1.0f), 129, 1, {1, 1, 8, 8}));
}

// ---------------- Axpy ----------------
TEST(VecAxpy, AllTypePairs) {
  Env env;
  const int n = 150;
  auto hs = env.at<half>(0, 256), hd = env.at<half>(1024, 256);
  auto fs = env.at<float>(2048, 256), fd = env.at<float>(4096, 256), fd2 = env.at<float>(6144, 256);
  std::vector<half> xh(n), yh(n);
  std::vector<float> xf(n), yf(n);
  for (int i = 0; i < n; ++i) {
    xh[i] = half(i * 0.125f - 9.0f);
    yh[i] = half(i * -0.5f + 3.0f);
    xf[i] = i * 0.3f - 7.0f;
    yf[i] = i * 1.7f;
  }
  fill(hs, xh); fill(hd, yh); fill(fs, xf); fill(fd, yf); fill(fd2, yf);
  Axpy(hd, hs, half(1.5f), n);
  Axpy(fd, fs, 2.5f, n);
  Axpy(fd2, hs, half(-0.75f), n);   // half -> float
  auto rh = read(hd, n);
  auto rf = read(fd, n);
  auto rf2 = read(fd2, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(rh[i].val, half(static_cast<float>(half(static_cast<float>(xh[i]) * 1.5f)) + static_cast<float>(yh[i])).val) << i;
    EXPECT_EQ(rf[i], xf[i] * 2.5f + yf[i]) << i;
    EXPECT_EQ(rf2[i], static_cast<float>(xh[i]) * -0.75f + yf[i]) << i;
  }
  EXPECT_EQ(env.last_v().dtype, static_cast<uint8_t>(kgen::DType::F32));
  EXPECT_ERROR("dtype", Axpy(hd, fs, 1.0f, n));   // float -> half is not a pair
}

// Half Axpy rounds the product to half before the add (S78): (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 becomes 1 + 2^-9,
// so adding -(1 + 2^-9) gives 0, where one rounding of the exact sum would give 2^-20.
TEST(VecAxpy, HalfRoundsTheProductFirst) {
  Env env;
  auto s = env.at<half>(0, 16), d = env.at<half>(1024, 16);
  fill(s, std::vector<half>(16, half(1.0f + 1.0f / 1024)));
  fill(d, std::vector<half>(16, half(-(1.0f + 1.0f / 512))));
  Axpy(d, s, half(1.0f + 1.0f / 1024), 16);
  auto r = read(d, 16);
  EXPECT_EQ(static_cast<float>(r[0]), 0.0f);
  EXPECT_EQ(static_cast<float>(r[15]), 0.0f);
}

TEST(VecAxpy, HalfToFloatRepeatFormUsesFourSourceBlocks) {
  Env env;
  auto hs = env.at<half>(0, 1024);
  auto fd = env.at<float>(4096, 1024);
  std::vector<half> x(1024);
  std::vector<float> y(1024);
  for (int i = 0; i < 1024; ++i) { x[i] = half(static_cast<float>(i % 50)); y[i] = static_cast<float>(i); }
  fill(hs, x);
  fill(fd, y);
  // docs: Axpy(dst, src, (half)2.0, 64, 8, {1, 1, 8, 4}) - each repeat takes the first 4 DataBlocks of src
  Axpy(fd, hs, half(2.0f), 40, 8, {1, 1, 8, 4});
  std::vector<float> want = y;
  for (uint32_t r = 0; r < 8; ++r)
    for (uint32_t k = 0; k < 40; ++k)
      want[lane_index(r, k, 4, 1, 8)] += 2.0f * static_cast<float>(x[lane_index(r, k, 2, 1, 4)]);
  auto got = read(fd, 1024);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(got[i], want[i]) << i;
}

// ---------------- Duplicate ----------------
TEST(VecDuplicate, CountAndRepeatForms) {
  Env env;
  auto f = env.at<float>(0, 512);
  auto b = env.at<bfloat16_t>(2048, 256);
  auto u = env.at<uint16_t>(4096, 1024);
  fill(f, std::vector<float>(512, 1.0f));
  Duplicate(f, 3.25f, 77);
  auto rf = read(f, 512);
  for (int i = 0; i < 512; ++i) EXPECT_EQ(rf[i], i < 77 ? 3.25f : 1.0f) << i;
  Duplicate(b, bfloat16_t(-2.0f), 256);   // bf16 is a Duplicate type on A2
  EXPECT_EQ(static_cast<float>(read(b, 256)[255]), -2.0f);
  EXPECT_EQ(env.last_v().elems, 256u);
  fill(u, std::vector<uint16_t>(1024, 7));
  Duplicate(u, static_cast<uint16_t>(0xbeef), 100, 2, 2, 24);   // 100 lanes, block stride 2, repeat stride 24
  uint64_t m[2] = {0x1ull, 0x8000000000000000ull};
  Duplicate(u[512], static_cast<uint16_t>(0x1234), m, 3, 0, 1);   // block stride 0: all 8 blocks land on one
  std::vector<uint16_t> want(1024, 7);
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t k = 0; k < 100; ++k) want[lane_index(r, k, 2, 2, 24)] = 0xbeef;
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t k = 0; k < 128; ++k)
      if (mask_bit(m[0], m[1], k)) want[512 + lane_index(r, k, 2, 0, 1)] = 0x1234;
  EXPECT_EQ(read(u, 1024), want);
}

TEST(VecDuplicate, DtypeRules) {
  {
    Env env;
    auto i8 = env.at<int8_t>(0, 64);
    EXPECT_ERROR("dtype", Duplicate(i8, static_cast<int8_t>(1), 64));
  }
  {
    Env env(64 * 1024, "Ascend310P3");
    auto b = env.at<bfloat16_t>(0, 64);
    EXPECT_ERROR("dtype", Duplicate(b, bfloat16_t(1.0f), 64));
    auto h = env.at<half>(256, 64);
    Duplicate(h, half(1.0f), 64);
  }
}

// ---------------- CreateVecIndex ----------------
TEST(VecCreateVecIndex, CountAndRepeatForms) {
  Env env;
  auto i32 = env.at<int32_t>(0, 256);
  auto h = env.at<half>(2048, 256);
  CreateVecIndex(i32, -10, 200);
  CreateVecIndex(h, half(0.0f), 128);   // docs: [0 1 2 ... 127]
  auto ri = read(i32, 200);
  auto rh = read(h, 128);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(ri[i], i - 10);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(static_cast<float>(rh[i]), static_cast<float>(i));
  auto f = env.at<float>(4096, 512);
  fill(f, std::vector<float>(512, -1.0f));
  CreateVecIndex(f, 5.0f, static_cast<uint64_t>(20), 2, 2, 16);
  std::vector<float> want(512, -1.0f);
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t k = 0; k < 20; ++k) want[lane_index(r, k, 4, 2, 16)] = 5.0f + static_cast<float>(r * 64 + k);
  EXPECT_EQ(read(f, 512), want);
  auto u = env.at<uint32_t>(8192, 64);
  EXPECT_ERROR("dtype", CreateVecIndex(u, 0u, 64));
}

// ---------------- mask API ----------------
TEST(VecMask, SetVectorMaskChecks) {
  Env env;
  auto all = env.at<float>(0, 16384);
  Duplicate(all, 1.0f, 16384);   // the whole 64 KB buffer
  auto a = env.at<float>(0, 64);
  EXPECT_ERROR("param", SetVectorMask<float>(65));   // normal mode: at most 64 lanes for float
  SetMaskCount();
  // in counter mode the NORMAL len form would write a bit pattern that the unit reads as a count
  EXPECT_ERROR("param", SetVectorMask<float>(64));
  SetVectorMask<float, MaskMode::COUNTER>(1000);
  // 1000 floats written at byte 64000 of a 64 KB buffer run past its end: into the UB after it, as on the chip
  Abs<float, false>(env.at<float>(64000, 16), a, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
  EXPECT_NE(kgen::sim::buffer_overrun_warning("k").find("Abs writes UB[64000, 68000)"), std::string::npos)
      << kgen::sim::buffer_overrun_warning("k");
  SetMaskNorm();
  ResetMask();
  Abs<float, false>(a, a, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});   // full mask again
  EXPECT_EQ(env.last_v().elems, 64u);
}

// A count-form instruction reading past its tensor's buffer, still inside UB: the chip reads the next bytes without a
// fault, so lanes from never-written bytes are garbage (an error only where used); writing past the buffer writes the
// next buffer's bytes; beyond UB is ub-overflow.
TEST(VecGarbage, ReadPastTheBufferIsGarbageNotAFault) {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> small, big;
  pipe.InitBuffer(small, 32);
  pipe.InitBuffer(big, 256);
  auto s = small.Get<float>();
  auto d = big.Get<float>();
  for (int i = 0; i < 8; ++i) s.SetValue(i, static_cast<float>(i));
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(kgen::sim::error_of([&] { Adds(d, s, 1.0f, 16); }), "");   // 16 floats from an 8-float buffer
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(d.GetValue(7), 8.0f);
  std::string e = kgen::sim::error_of([&] { (void)d.GetValue(12); });
  EXPECT_NE(e.find("error[uninit-read]"), std::string::npos) << e;
  EXPECT_NE(e.find(" Adds: "), std::string::npos) << "names the Adds that read past its buffer: " << e;
  Duplicate(d, 2.0f, 64);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(kgen::sim::error_of([&] { Adds(s, d, 1.0f, 16); }), "");   // lanes 8..15 land in big's first 32 bytes
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(d.GetValue(3), 3.0f);
  LocalTensor<float> last = big.GetWithOffset<float>(8, 224);
  e = kgen::sim::error_of([&] { Adds(last, d, 1.0f, 64 * 1024); });
  EXPECT_NE(e.find("error[ub-overflow]"), std::string::npos) << e;
  EXPECT_NE(e.find("beyond the 196608 bytes of UB"), std::string::npos) << e;
}

// FusedMulAdd (dst = src0 * dst + src1) and MulAddDst (dst = src0 * src1 + dst): the two binary APIs that read dst.
TEST(VecBinary, FusedMulAddAndMulAddDstReadDst) {
  vt::Env env;
  auto a = env.at<float>(0, 64), b = env.at<float>(256, 64), d = env.at<float>(512, 64);
  std::vector<float> av(64), bv(64), dv(64);
  for (int i = 0; i < 64; ++i) {
    av[i] = 0.5f * i;
    bv[i] = 1.0f + i;
    dv[i] = 2.0f;
  }
  vt::fill(a, av);
  vt::fill(b, bv);
  vt::fill(d, dv);
  FusedMulAdd(d, a, b, 64);
  std::vector<float> r = vt::read(d, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(r[i], av[i] * 2.0f + bv[i]) << i;
  MulAddDst(d, a, b, 64);
  std::vector<float> r2 = vt::read(d, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(r2[i], av[i] * bv[i] + r[i]) << i;
}
