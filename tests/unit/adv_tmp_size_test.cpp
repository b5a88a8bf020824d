// Host GetXxxMaxMinTmpSize of the elementwise high-level math APIs (tiling/tiling_api.h) against the emulator's
// kernel-side check: a sharedTmpBuffer of exactly the host's minimum is accepted, one byte less is refused with the
// emulator's sharedTmpBuffer error; the maximum is never below the minimum. Also the scalar conversions ToFloat /
// ToBfloat16 / ScalarCast and AscendC::IsSameType.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/testing.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
struct TmpUb {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  explicit TmpUb(const char* soc) : tc(soc) { pipe.InitBuffer(buf, 96 * 1024); }
  template <class T> LocalTensor<T> at(uint32_t byte_off, uint32_t elems) {
    LocalTensor<T> t = buf.Get<T>()[byte_off / sizeof(T)];
    t.SetSize(elems);
    return t;
  }
};

constexpr uint32_t kN = 256;                       // elements per call
constexpr uint32_t kSrc0 = 0, kSrc1 = 4096, kDst = 8192, kTmp = 16384;   // byte offsets in the UB buffer

// One API call on [kN] elements of T with a sharedTmpBuffer of `tmp_bytes`.
using Call = std::function<void(TmpUb&, uint32_t tmp_bytes)>;

template <class T> void fill(TmpUb& ub) {
  auto a = ub.at<T>(kSrc0, kN), b = ub.at<T>(kSrc1, kN);
  for (uint32_t i = 0; i < kN; ++i) {
    a.SetValue(i, T(0.5f + 1.5f * static_cast<float>(i) / kN));   // in (0, 2]: inside every API's domain
    b.SetValue(i, T(1.0f + static_cast<float>(i % 7) / 8));
  }
  PipeBarrier<PIPE_ALL>();
}

// Runs `call` with the minimum and with one byte less, on a fresh core of `soc` each time.
void expect_min_is_exact(const char* what, const char* soc, uint32_t mn, uint32_t mx, const Call& call) {
  SCOPED_TRACE(what);
  EXPECT_GE(mx, mn);
  {
    TmpUb ub(soc);
    std::string e = error_of([&] { call(ub, mn ? mn : 32); });
    EXPECT_EQ(e, "") << "the host's minimum " << mn << " is refused";
  }
  if (mn == 0) return;
  TmpUb ub(soc);
  std::string e = error_of([&] { call(ub, mn - 1); });
  EXPECT_NE(e.find("sharedTmpBuffer holds " + std::to_string(mn - 1) + " bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("at least " + std::to_string(mn) + " bytes"), std::string::npos) << e;
}

// A unary API with the (dst, src, sharedTmpBuffer, count) form.
#define KGEN_UNARY_CALL(API, T, ...)                                                                           \
  Call([](TmpUb& ub, uint32_t tb) {                                                                            \
    fill<T>(ub);                                                                                               \
    API<T __VA_ARGS__>(ub.at<T>(kDst, kN), ub.at<T>(kSrc0, kN), ub.at<uint8_t>(kTmp, tb), kN);                \
  })

using HostFn = void (*)(const ge::Shape&, const uint32_t, const bool, uint32_t&, uint32_t&);

template <class T> void unary_family(uint32_t ts) {
  const ge::Shape shape({static_cast<int64_t>(kN)});
  struct Case {
    const char* name;
    HostFn host;
    Call call;
  };
  const Case cases[] = {
      {"Tanh", GetTanhMaxMinTmpSize, KGEN_UNARY_CALL(Tanh, T)},
      {"Erf", GetErfMaxMinTmpSize, KGEN_UNARY_CALL(Erf, T)},
      {"Sin", GetSinMaxMinTmpSize, KGEN_UNARY_CALL(Sin, T)},
      {"Cos", GetCosMaxMinTmpSize, KGEN_UNARY_CALL(Cos, T)},
      {"Acos", GetAcosMaxMinTmpSize, KGEN_UNARY_CALL(Acos, T)},
      {"Asin", GetAsinMaxMinTmpSize, KGEN_UNARY_CALL(Asin, T)},
      {"Atan", GetAtanMaxMinTmpSize, KGEN_UNARY_CALL(Atan, T)},
      {"Cosh", GetCoshMaxMinTmpSize, KGEN_UNARY_CALL(Cosh, T)},
      {"Sinh", GetSinhMaxMinTmpSize, KGEN_UNARY_CALL(Sinh, T)},
      {"Tan", GetTanMaxMinTmpSize, KGEN_UNARY_CALL(Tan, T)},
      {"Erfc", GetErfcMaxMinTmpSize, KGEN_UNARY_CALL(Erfc, T)},
      {"Log2", GetLog2MaxMinTmpSize, KGEN_UNARY_CALL(Log2, T)},
      {"Floor", GetFloorMaxMinTmpSize, KGEN_UNARY_CALL(Floor, T)},
      {"Ceil", GetCeilMaxMinTmpSize, KGEN_UNARY_CALL(Ceil, T)},
      {"Trunc", GetTruncMaxMinTmpSize, KGEN_UNARY_CALL(Trunc, T)},
      {"Sign", GetSignMaxMinTmpSize, KGEN_UNARY_CALL(Sign, T)},
      {"Clamp (ClampMax)", GetClampMaxMinTmpSize, Call([](TmpUb& ub, uint32_t tb) {
         fill<T>(ub);
         ClampMax<T>(ub.at<T>(kDst, kN), ub.at<T>(kSrc0, kN), ub.at<uint8_t>(kTmp, tb), T(1.0f), kN);
       })},
      {"Clamp (ClampMin)", GetClampMaxMinTmpSize, Call([](TmpUb& ub, uint32_t tb) {
         fill<T>(ub);
         ClampMin<T>(ub.at<T>(kDst, kN), ub.at<T>(kSrc0, kN), ub.at<uint8_t>(kTmp, tb), T(1.0f), kN);
       })},
      {"Fmod", GetFmodMaxMinTmpSize, Call([](TmpUb& ub, uint32_t tb) {
         fill<T>(ub);
         Fmod<T>(ub.at<T>(kDst, kN), ub.at<T>(kSrc0, kN), ub.at<T>(kSrc1, kN), ub.at<uint8_t>(kTmp, tb), kN);
       })},
  };
  for (const Case& c : cases) {
    uint32_t mx = 0, mn = 0;
    c.host(shape, ts, false, mx, mn);
    expect_min_is_exact((std::string(c.name) + " typeSize " + std::to_string(ts)).c_str(), "Ascend910B2", mn, mx,
                        c.call);
  }
  // Sigmoid (its own prototype: a non-const isReuseSource), Exp (returns bool), Gelu (no isReuseSource)
  uint32_t mx = 0, mn = 0;
  GetSigmoidMaxMinTmpSize(shape, ts, false, mx, mn);
  expect_min_is_exact("Sigmoid", "Ascend910B2", mn, mx, KGEN_UNARY_CALL(Sigmoid, T));
  EXPECT_TRUE(GetExpMaxMinTmpSize(shape, ts, false, mx, mn));
  expect_min_is_exact("Exp", "Ascend910B2", mn, mx, KGEN_UNARY_CALL(Exp, T, , 10));
  GetGeluMaxMinTmpSize(shape, ts, mx, mn);
  EXPECT_EQ(mn, GetGeluMinTmpSize(shape, ts));
  EXPECT_EQ(mx, GetGeluMaxTmpSize(shape, ts));
  expect_min_is_exact("Gelu", "Ascend910B2", mn, mx, KGEN_UNARY_CALL(Gelu, T));
}
}  // namespace

TEST(AdvTmpSize, UnaryMinimumIsWhatTheKernelRequiresFloat) { unary_family<float>(4); }

// The inverse, hyperbolic and complementary functions: CANN's live-tensor factors (float / half) times one 256-byte
// repeat at the minimum, times the input at the maximum (asc-devkit impl/adv_api/tiling/math/*_tiling_impl.cpp, S74).
TEST(AdvTmpSize, InverseAndHyperbolicFactorsAreCanns) {
  struct Row {
    HostFn fn;
    uint32_t f32, f16;
  };
  const Row rows[] = {{GetAcosMaxMinTmpSize, 2, 6}, {GetAsinMaxMinTmpSize, 2, 6}, {GetAtanMaxMinTmpSize, 5, 12},
                      {GetCoshMaxMinTmpSize, 2, 6}, {GetSinhMaxMinTmpSize, 1, 4}, {GetTanMaxMinTmpSize, 4, 10},
                      {GetErfcMaxMinTmpSize, 7, 16}};
  const ge::Shape shape({1024});
  for (const Row& r : rows) {
    uint32_t mx = 0, mn = 0;
    r.fn(shape, 4, false, mx, mn);
    EXPECT_EQ(mn, r.f32 * 256);
    EXPECT_EQ(mx, r.f32 * 1024 * 4);
    r.fn(shape, 2, false, mx, mn);
    EXPECT_EQ(mn, r.f16 * 256);
    EXPECT_EQ(mx, r.f16 * 1024 * 2);
  }
}
TEST(AdvTmpSize, UnaryMinimumIsWhatTheKernelRequiresHalf) { unary_family<half>(2); }

// isReuseSource = true lowers CANN's float minimum of Sin, Cos (3 -> 2 tensors) and Exp; the kernel agrees.
TEST(AdvTmpSize, ReuseSourceFloat) {
  const ge::Shape shape({static_cast<int64_t>(kN)});
  uint32_t mx = 0, mn = 0, mn_plain = 0;
  GetSinMaxMinTmpSize(shape, 4, true, mx, mn);
  GetSinMaxMinTmpSize(shape, 4, false, mx, mn_plain);
  EXPECT_LT(mn, mn_plain);
  GetSinMaxMinTmpSize(shape, 4, true, mx, mn);
  expect_min_is_exact("Sin reuse", "Ascend910B2", mn, mx, KGEN_UNARY_CALL(Sin, float, , true));
  GetCosMaxMinTmpSize(shape, 4, true, mx, mn);
  expect_min_is_exact("Cos reuse", "Ascend910B2", mn, mx, KGEN_UNARY_CALL(Cos, float, , true));
  EXPECT_TRUE(GetExpMaxMinTmpSize(shape, 4, true, mx, mn));
  expect_min_is_exact("Exp reuse", "Ascend910B2", mn, mx, KGEN_UNARY_CALL(Exp, float, , 10, true));
}

// Round's minimum depends on the SoC (ascendcPlatform): the Atlas inference AI Core needs more.
TEST(AdvTmpSize, RoundFollowsThePlatform) {
  const ge::Shape shape({static_cast<int64_t>(kN)});
  for (const char* soc : {"Ascend910B2", "Ascend310P3"}) {
    platform_ascendc::PlatformAscendC plat(kgen::rt::platform_infos(soc));
    for (uint32_t ts : {2u, 4u}) {
      uint32_t mx = 0, mn = 0;
      GetRoundMaxMinTmpSize(plat, shape, ts, false, mx, mn);
      std::string what = std::string("Round ") + soc + " typeSize " + std::to_string(ts);
      if (ts == 2) expect_min_is_exact(what.c_str(), soc, mn, mx, KGEN_UNARY_CALL(Round, half));
      else expect_min_is_exact(what.c_str(), soc, mn, mx, KGEN_UNARY_CALL(Round, float));
    }
  }
}

// Power: tensor-tensor, tensor-scalar (srcShape2 {1}), scalar-tensor (srcShape1 {1}); half, float, int32_t.
TEST(AdvTmpSize, PowerForms) {
  const ge::Shape t({static_cast<int64_t>(kN)}), s({1});
  const char* soc = platform_ascendc::PlatformAscendCManager::GetInstance()->GetSocVersion() ==
                            platform_ascendc::SocVersion::ASCEND310P
                        ? "Ascend310P3"
                        : "Ascend910B2";
  auto forms = [&](auto tag, bool is_int) {
    using T = decltype(tag);
    uint32_t ts = sizeof(T), mx = 0, mn = 0;
    std::string ty = std::string(is_int ? "int32" : ts == 2 ? "half" : "float");
    GetPowerMaxMinTmpSize(t, t, is_int, ts, false, mx, mn);
    expect_min_is_exact(("Power tensor-tensor " + ty).c_str(), soc, mn, mx, Call([](TmpUb& ub, uint32_t tb) {
                          fill<T>(ub);
                          Power<T>(ub.at<T>(kDst, kN), ub.at<T>(kSrc0, kN), ub.at<T>(kSrc1, kN),
                                   ub.at<uint8_t>(kTmp, tb), kN);
                        }));
    GetPowerMaxMinTmpSize(t, s, is_int, ts, false, mx, mn);
    expect_min_is_exact(("Power tensor-scalar " + ty).c_str(), soc, mn, mx, Call([](TmpUb& ub, uint32_t tb) {
                          fill<T>(ub);
                          Power<T>(ub.at<T>(kDst, kN), ub.at<T>(kSrc0, kN), T(2), ub.at<uint8_t>(kTmp, tb), kN);
                        }));
    GetPowerMaxMinTmpSize(s, t, is_int, ts, false, mx, mn);
    expect_min_is_exact(("Power scalar-tensor " + ty).c_str(), soc, mn, mx, Call([](TmpUb& ub, uint32_t tb) {
                          fill<T>(ub);
                          Power<T>(ub.at<T>(kDst, kN), T(2), ub.at<T>(kSrc1, kN), ub.at<uint8_t>(kTmp, tb), kN);
                        }));
  };
  forms(float{}, false);
  forms(half{}, false);
  forms(int32_t{}, true);
}

namespace {
constexpr CumSumConfig kLastAxis = {true, false, false};
constexpr CumSumConfig kFirstAxis = {false, false, false};
template <class T, const CumSumConfig& cfg> Call cumsum_call(uint32_t outter, uint32_t inner) {
  return [outter, inner](TmpUb& ub, uint32_t tb) {
    fill<T>(ub);
    LocalTensor<T> dst = ub.at<T>(kDst, outter * inner), last = ub.at<T>(kSrc1, inner);
    LocalTensor<uint8_t> tmp = ub.at<uint8_t>(kTmp, tb);
    CumSum<T, cfg>(dst, last, ub.at<T>(kSrc0, outter * inner), tmp, CumSumInfo{outter, inner});
  };
}
}  // namespace

TEST(AdvTmpSize, CumSumBothAxes) {
  const uint32_t outter = 5, inner = 32;
  const ge::Shape shape({outter, inner});
  uint32_t mx = 0, mn = 0;
  GetCumSumMaxMinTmpSize(shape, 4, true, false, mx, mn);
  expect_min_is_exact("CumSum last float", "Ascend910B2", mn, mx, cumsum_call<float, kLastAxis>(outter, inner));
  GetCumSumMaxMinTmpSize(shape, 2, true, false, mx, mn);
  expect_min_is_exact("CumSum last half", "Ascend910B2", mn, mx, cumsum_call<half, kLastAxis>(outter, inner));
  GetCumSumMaxMinTmpSize(shape, 4, false, false, mx, mn);
  expect_min_is_exact("CumSum first float", "Ascend910B2", mn, mx, cumsum_call<float, kFirstAxis>(outter, inner));
  GetCumSumMaxMinTmpSize(shape, 2, false, false, mx, mn);
  expect_min_is_exact("CumSum first half", "Ascend910B2", mn, mx, cumsum_call<half, kFirstAxis>(outter, inner));
  // not 2-D / inner not 32-byte aligned: CANN logs an error and leaves the outputs as they were
  mx = mn = 12345;
  GetCumSumMaxMinTmpSize(ge::Shape({outter, 3}), 4, true, false, mx, mn);
  EXPECT_EQ(mn, 12345u);
  GetCumSumMaxMinTmpSize(ge::Shape({static_cast<int64_t>(outter * inner)}), 4, true, false, mx, mn);
  EXPECT_EQ(mx, 12345u);
}

// Log, Log10, Silu and Swish need no temporary space: the host says 0, the framework forms run with no UB left.
TEST(AdvTmpSize, NoTemporaryApis) {
  const ge::Shape shape({static_cast<int64_t>(kN)});
  for (uint32_t ts : {2u, 4u}) {
    uint32_t mx = 1, mn = 1;
    GetLogMaxMinTmpSize(shape, ts, false, mx, mn);
    EXPECT_EQ(mx + mn, 0u);
    mx = mn = 1;
    GetLog10MaxMinTmpSize(shape, ts, false, mx, mn);
    EXPECT_EQ(mx + mn, 0u);
    mx = mn = 1;
    GetSiluTmpSize(shape, ts, false, mx, mn);
    EXPECT_EQ(mx + mn, 0u);
    mx = mn = 1;
    GetSwishTmpSize(shape, ts, false, mx, mn);
    EXPECT_EQ(mx + mn, 0u);
  }
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  uint64_t ub = 0;
  platform_ascendc::PlatformAscendC(kgen::rt::platform_infos("Ascend910B2"))
      .GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  pipe.InitBuffer(buf, static_cast<uint32_t>(ub));   // the whole UB: nothing left for a framework temporary
  LocalTensor<float> src = buf.Get<float>(), dst = buf.Get<float>()[kN];
  for (uint32_t i = 0; i < kN; ++i) src.SetValue(i, 0.5f + static_cast<float>(i) / kN);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(error_of([&] {
              Log(dst, src, kN);
              Log10(dst, src, kN);
              Silu(dst, src, kN);
              Swish(dst, src, kN, 1.5f);
            }),
            "");
}

// The maximum grows with the input (more temporary space is used when given) and is never below the minimum.
TEST(AdvTmpSize, MaximumGrowsWithTheInput) {
  using Fn = void (*)(const ge::Shape&, const uint32_t, const bool, uint32_t&, uint32_t&);
  const Fn fns[] = {GetTanhMaxMinTmpSize,  GetErfMaxMinTmpSize,  GetSinMaxMinTmpSize,   GetCosMaxMinTmpSize,
                    GetLog2MaxMinTmpSize,  GetCeilMaxMinTmpSize, GetTruncMaxMinTmpSize, GetSignMaxMinTmpSize,
                    GetClampMaxMinTmpSize, GetFmodMaxMinTmpSize};
  for (Fn f : fns)
    for (uint32_t ts : {2u, 4u}) {
      uint32_t mx_small = 0, mn_small = 0, mx_big = 0, mn_big = 0;
      f(ge::Shape({8}), ts, false, mx_small, mn_small);
      f(ge::Shape({64, 1024}), ts, false, mx_big, mn_big);
      EXPECT_EQ(mn_small, mn_big);
      EXPECT_GE(mx_small, mn_small);
      if (mn_big) EXPECT_GT(mx_big, mx_small);
    }
}

// ---------------------------------------------------------------------------------------- scalar conversions
TEST(AdvTmpScalar, ToFloatAndToBfloat16) {
  for (uint32_t bits = 0; bits < 0x10000u; bits += 7) {
    bfloat16_t b;
    b.val = static_cast<uint16_t>(bits);
    uint32_t f32 = bits << 16;
    float ref;
    std::memcpy(&ref, &f32, 4);
    float got = ToFloat(b);
    if (std::isnan(ref)) {
      EXPECT_TRUE(std::isnan(got));
      continue;
    }
    EXPECT_EQ(std::memcmp(&got, &ref, 4), 0) << bits;
    EXPECT_EQ(ToBfloat16(got).val, b.val) << bits;   // exact values convert back unchanged
  }
  // a float between two bfloat16 neighbours goes to the nearer one
  for (float x : {1.0f + 1.0f / 512, 3.14159265f, -2.71828f, 1e-30f, 65504.0f, 123456.7f}) {
    float r = ToFloat(ToBfloat16(x));
    uint32_t u;
    std::memcpy(&u, &r, 4);
    float up, down;
    uint32_t uu = u + 0x10000u, ud = u - 0x10000u;
    std::memcpy(&up, &uu, 4);
    std::memcpy(&down, &ud, 4);
    EXPECT_LE(std::fabs(r - x), std::fabs(up - x)) << x;
    EXPECT_LE(std::fabs(r - x), std::fabs(down - x)) << x;
  }
}

TEST(AdvTmpScalar, ScalarCast) {
  // documented example: 2.5 with CAST_ROUND gives 3
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(2.5f)), 3);
  for (float x : {-3.5f, -2.5f, -1.2f, -0.5f, 0.0f, 0.5f, 1.5f, 2.5f, 2.7f, 1e6f + 0.5f, 3e9f, -3e9f}) {
    double d = x;
    auto sat = [](double r) {
      return r >= 2147483647.0 ? INT32_MAX : r <= -2147483648.0 ? INT32_MIN : static_cast<int32_t>(r);
    };
    EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(x)), sat(std::round(d))) << x;
    EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(x)), sat(std::floor(d))) << x;
    EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(x)), sat(std::ceil(d))) << x;
    double n = std::floor(d), f = d - n;   // RINT: ties to even
    double rint = f > 0.5 || (f == 0.5 && std::fmod(n, 2.0) != 0) ? n + 1 : n;
    EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_RINT>(x)), sat(rint)) << x;
  }
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_RINT>(std::nanf(""))), 0);
  // float -> half, round to odd: exact values stay; otherwise the odd one of the two bracketing halves
  for (float x : {1.0f, 0.5f, -2.0f, 1.0f + 1.0f / 4096, 1.0f + 3.0f / 4096, 3.14159265f, -1e-6f, 70000.0f, 1e-9f}) {
    half h = ScalarCast<float, half, RoundMode::CAST_ODD>(x);
    float r = static_cast<float>(h);
    if (std::fabs(x) >= 65504.0f) {
      EXPECT_EQ(std::fabs(r), 65504.0f) << x;   // saturates like Cast
      continue;
    }
    if (static_cast<float>(half(x)) == x) {
      EXPECT_EQ(r, x);
      continue;
    }
    // reference: the half of smaller magnitude next to x (L) and the one above it (L + 1 ulp); the odd one wins
    half l(x);
    if (std::fabs(static_cast<float>(l)) > std::fabs(x)) l.val = static_cast<uint16_t>(l.val - 1);
    half u;
    u.val = static_cast<uint16_t>(l.val + 1);
    ASSERT_LT(std::fabs(static_cast<float>(l)), std::fabs(x));
    ASSERT_GT(std::fabs(static_cast<float>(u)), std::fabs(x));
    EXPECT_EQ(h.val, (l.val & 1u) ? l.val : u.val) << x;
  }
}

TEST(AdvTmpScalar, IsSameType) {
  static_assert(IsSameType<float, float>::value);
  static_assert(!IsSameType<float, half>::value);
  static_assert(IsSameType<bfloat16_t, bfloat16_t>::value);
  static_assert(!IsSameType<int32_t, uint32_t>::value);
  constexpr bool v = IsSameType<half, float>::value;
  EXPECT_FALSE(v);
  EXPECT_TRUE((IsSameType<int8_t, int8_t>::value));
}
