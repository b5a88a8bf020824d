// High-level APIs, second set: Log/Log2/Log10, Power, Silu, Swish, Exp<T, taylorExpandLevel>, Floor, Ceil, Round,
// Trunc, Sign, ClampMax, ClampMin, Fmod, CumSum, RmsNorm, LogSoftMax and the pattern reduces, against plain C++
// references (double, or exact where the result is an integer). Tolerances: float within 4e-6 absolute + 4e-6
// relative; half within one half ulp of the reference plus 1e-4.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "sim/testing.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
struct Ub {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  explicit Ub(uint32_t bytes = 128 * 1024, const char* soc = "Ascend910B2") : tc(soc) { pipe.InitBuffer(buf, bytes); }
  template <class T> LocalTensor<T> at(uint32_t byte_off, uint32_t elems) {
    LocalTensor<T> t = buf.Get<T>()[byte_off / sizeof(T)];
    t.SetSize(elems);
    return t;
  }
};
std::vector<float> rnd(size_t n, uint32_t seed, float lo, float hi) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (auto& x : v) { s = s * 1664525u + 1013904223u; x = lo + (hi - lo) * ((s >> 8) / 16777216.0f); }
  return v;
}
template <class T> void fill(const LocalTensor<T>& t, const std::vector<float>& v) {
  for (size_t i = 0; i < v.size(); ++i) t.SetValue(i, T(v[i]));
}
template <class T> float get(const LocalTensor<T>& t, uint32_t i) { return static_cast<float>(t.GetValue(i)); }
double tol(bool h, double ref) {
  if (!h) return 4e-6 + 4e-6 * std::fabs(ref);
  double a = std::fabs(ref);
  double ulp = a < 6.1e-5 ? 5.96e-8 : std::ldexp(1.0, std::ilogb(a) - 10);
  return ulp + 1e-4;
}
bool has(const std::string& e, const char* what) { return e.find(what) != std::string::npos; }
// The value a kernel's input holds after conversion to T.
float as_t(bool h, float x) { return h ? float(half(x)) : x; }
double taylor_exp(double x, int level) {   // e^floor(x) * sum_{n=0..level} d^n / n!
  double fl = std::floor(x), d = x - fl, term = 1, s = 1;
  for (int n = 1; n <= level; ++n) { term *= d / n; s += term; }
  return std::exp(fl) * s;
}
}  // namespace

// ---------------- elementwise unary ----------------
TEST(AdvApi2, UnaryFloatAndHalfWithMinimumTmp) {
  struct Case {
    const char* name;
    float lo, hi;
    uint32_t tmp_h, tmp_f;   // CANN minimum temporary bytes (GetXxxMaxMinTmpSize) for half / float
    std::function<double(double)> ref;
    bool exact;              // integer-valued result: compare exactly
  };
  const double beta = 1.5;
  std::vector<Case> cases = {
      {"Log2", 0.01f, 100.f, 256, 0, [](double x) { return std::log2(x); }, false},
      {"Floor", -50.f, 50.f, 512, 0, [](double x) { return std::floor(x); }, true},
      {"Ceil", -50.f, 50.f, 512, 256, [](double x) { return std::ceil(x); }, true},
      {"Round", -50.f, 50.f, 256, 0, [](double x) { return std::nearbyint(x); }, true},
      {"Trunc", -50.f, 50.f, 512, 256, [](double x) { return std::trunc(x); }, true},
      {"Sign", -2.f, 2.f, 768, 768, [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }, true},
      {"ClampMax", -4.f, 4.f, 128, 64, [](double x) { return std::min(x, 0.75); }, true},
      {"ClampMin", -4.f, 4.f, 128, 64, [](double x) { return std::max(x, -0.75); }, true},
      {"Exp12", -8.f, 8.f, 1024, 768, [](double x) { return taylor_exp(x, 12); }, false},
      {"Exp3", -4.f, 4.f, 1024, 768, [](double x) { return taylor_exp(x, 3); }, false},
  };
  const uint32_t n = 1000;   // not a multiple of a repeat
  for (const Case& c : cases) {
    for (bool h : {false, true}) {
      Ub ub;
      auto v = rnd(n, 7, c.lo, c.hi);
      v[0] = 2.5f; v[1] = -2.5f; v[2] = 0.5f; v[3] = 0.0f; v[4] = -0.0f;   // half-way and signed-zero cases
      if (std::string(c.name) == "Log2") v[1] = v[3] = v[4] = 1.0f;
      std::string nm = std::string(c.name) + (h ? " half" : " float");
      uint32_t tb = h ? c.tmp_h : c.tmp_f;
      auto run = [&](auto tag) {
        using T = decltype(tag);
        auto s = ub.at<T>(0, n), d = ub.at<T>(8192, n + 16);
        auto tmp = ub.at<uint8_t>(16384, tb ? tb : 32);
        fill(s, v);
        d.SetValue(n, T(42.f));
        PipeBarrier<PIPE_ALL>();
        std::string name = c.name;
        if (name == "Log2") Log2(d, s, tmp, n);
        else if (name == "Floor") Floor(d, s, tmp, n);
        else if (name == "Ceil") Ceil(d, s, tmp, n);
        else if (name == "Round") Round(d, s, tmp, n);
        else if (name == "Trunc") Trunc(d, s, tmp, n);
        else if (name == "Sign") Sign(d, s, tmp, n);
        else if (name == "ClampMax") ClampMax(d, s, tmp, T(0.75f), n);
        else if (name == "ClampMin") ClampMin(d, s, tmp, T(-0.75f), n);
        else if (name == "Exp12") Exp<T, 12>(d, s, tmp, n);
        else Exp<T, 3>(d, s, tmp, n);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < n; ++i) {
          double r = c.ref(as_t(h, v[i]));
          if (c.exact) EXPECT_EQ(get(d, i), h ? float(half(float(r))) : float(r)) << nm << " " << i << " x=" << v[i];
          else EXPECT_NEAR(get(d, i), r, h ? tol(true, r) : 1e-5 * (1 + std::fabs(r))) << nm << " " << i;
        }
        EXPECT_EQ(get(d, n), 42.f) << nm;   // nothing past calCount is written
        if (tb > 32) {   // one byte less than CANN's minimum is reported
          std::string e = error_of([&] {
            auto small = ub.at<uint8_t>(16384, tb - 32);
            if (name == "Log2") Log2(d, s, small, n);
            else if (name == "Floor") Floor(d, s, small, n);
            else if (name == "Ceil") Ceil(d, s, small, n);
            else if (name == "Round") Round(d, s, small, n);
            else if (name == "Trunc") Trunc(d, s, small, n);
            else if (name == "Sign") Sign(d, s, small, n);
            else if (name == "ClampMax") ClampMax(d, s, small, T(0.75f), n);
            else if (name == "ClampMin") ClampMin(d, s, small, T(-0.75f), n);
            else if (name == "Exp12") Exp<T, 12>(d, s, small, n);
            else Exp<T, 3>(d, s, small, n);
          });
          EXPECT_TRUE(has(e, "error[param]") && has(e, std::to_string(tb).c_str())) << nm << ": " << e;
        }
      };
      if (h) run(half{}); else run(float{});
    }
  }
}

TEST(AdvApi2, LogSiluSwishAndForms) {
  Ub ub;
  const uint32_t n = 300;
  auto v = rnd(n, 3, 0.05f, 40.f), w = rnd(n, 4, -6.f, 6.f);
  auto s = ub.at<float>(0, n), d1 = ub.at<float>(2048, n), d2 = ub.at<float>(4096, n), d3 = ub.at<float>(6144, n);
  auto sw = ub.at<float>(8192, n), d4 = ub.at<float>(10240, n), d5 = ub.at<float>(12288, n);
  auto sh = ub.at<half>(14336, n), dh = ub.at<half>(15360, n);
  fill(s, v); fill(sw, w); fill(sh, w);
  PipeBarrier<PIPE_ALL>();
  Log(d1, s);            // whole tensor, framework tmp
  Log10(d2, s, 200u);    // calCount
  Log2(d3, s);
  Silu(d4, sw, n);
  Swish(d5, sw, n, 1.5f);
  Swish(dh, sh, n, half(2.0f));
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < n; ++i) {
    double x = v[i], y = w[i], yh = float(half(w[i]));
    EXPECT_NEAR(get(d1, i), std::log(x), tol(false, std::log(x))) << i;
    if (i < 200) EXPECT_NEAR(get(d2, i), std::log10(x), tol(false, std::log10(x))) << i;
    EXPECT_NEAR(get(d3, i), std::log2(x), tol(false, std::log2(x))) << i;
    EXPECT_NEAR(get(d4, i), y / (1 + std::exp(-y)), tol(false, y)) << i;
    EXPECT_NEAR(get(d5, i), y / (1 + std::exp(-1.5 * y)), tol(false, y)) << i;
    EXPECT_NEAR(get(dh, i), yh / (1 + std::exp(-2.0 * yh)), tol(true, yh / (1 + std::exp(-2.0 * yh)))) << i;
  }
  // in-place Log (dst == src) works element by element, as CANN's implementation does; partial overlap is reported
  Log(s, s, n);
  PipeBarrier<PIPE_ALL>();
  EXPECT_NEAR(get(s, 7), std::log(double(v[7])), tol(false, std::log(double(v[7]))));
  EXPECT_TRUE(has(error_of([&] { Log(s[8], s, 64u); }), "overlaps"));
  EXPECT_TRUE(has(error_of([&] { Silu(sw, sw, n); }), "error[param]"));   // Silu does not allow dst == src
  // Trunc and Round document src/dst overlap as allowed
  Trunc(sw, sw, ub.at<uint8_t>(20480, 256), n);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(get(sw, 5), std::trunc(w[5]));
  // Sign, whole-tensor framework form on the documented example
  auto sg = ub.at<float>(22528, 8), dg = ub.at<float>(23552, 8);
  float ex[8] = {-INFINITY, -2.0f, -0.0f, 0.0f, NAN, -NAN, 2.0f, INFINITY};
  for (int i = 0; i < 8; ++i) sg.SetValue(i, ex[i]);
  PipeBarrier<PIPE_ALL>();
  Sign(dg, sg);
  PipeBarrier<PIPE_ALL>();
  float want[8] = {-1, -1, 0, 0, 0, 0, 1, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(get(dg, i), want[i]) << i;
}

TEST(AdvApi2, ExpHighLevelCoexistsWithBasicExp) {
  Ub ub;
  auto s = ub.at<float>(0, 64), d1 = ub.at<float>(512, 64), d2 = ub.at<float>(1024, 64);
  fill(s, rnd(64, 9, -3, 3));
  PipeBarrier<PIPE_ALL>();
  Exp(d1, s, 64);              // basic Exp (vec_unary.h)
  Exp<float, 0>(d2, s, 64u);   // high-level, level 0 = plain exp, framework tmp
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 64; ++i) EXPECT_NEAR(get(d2, i), get(d1, i), 1e-6 * get(d1, i));
  Exp<float, 10, true>(d2, s, ub.at<uint8_t>(2048, 512), 64);   // isReuseSource: float needs 2 * 256 bytes
  PipeBarrier<PIPE_ALL>();
  EXPECT_NEAR(get(d2, 3), taylor_exp(get(s, 3), 10), 1e-5 * get(d2, 3));
}

// ---------------- Power ----------------
TEST(AdvApi2, PowerThreeFormsFloatHalfInt) {
  Ub ub;
  const uint32_t n = 200;
  auto base = rnd(n, 11, 0.1f, 3.f), ex = rnd(n, 12, -2.f, 3.f);
  auto b = ub.at<float>(0, n), e = ub.at<float>(1024, n), d = ub.at<float>(2048, n), d2 = ub.at<float>(3072, n),
       d3 = ub.at<float>(4096, n);
  fill(b, base); fill(e, ex);
  PipeBarrier<PIPE_ALL>();
  Power(d, b, e, ub.at<uint8_t>(8192, 1280), n);        // tensor-tensor, float minimum 4*256+256
  Power(d2, b, 2.5f, ub.at<uint8_t>(8192, 1536), n);    // tensor-scalar, 5*256+256
  Power(d3, 1.7f, e, n);                                // scalar-tensor, framework tmp
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < n; ++i) {
    double r1 = std::pow(double(base[i]), double(ex[i])), r2 = std::pow(double(base[i]), 2.5),
           r3 = std::pow(1.7, double(ex[i]));
    EXPECT_NEAR(get(d, i), r1, 1e-5 * (1 + r1)) << i;
    EXPECT_NEAR(get(d2, i), r2, 1e-5 * (1 + r2)) << i;
    EXPECT_NEAR(get(d3, i), r3, 1e-5 * (1 + r3)) << i;
  }
  std::string err = error_of([&] { Power(d, b, e, ub.at<uint8_t>(8192, 1248), n); });
  EXPECT_TRUE(has(err, "error[param]") && has(err, "1280")) << err;
  err = error_of([&] { Power(d, b, e, ub.at<uint8_t>(2048 + 512, 1280), n); });   // tmp overlaps dst
  EXPECT_TRUE(has(err, "overlaps")) << err;
  // half: whole-tensor forms, minimum 14*256/2+256 = 2048
  auto bh = ub.at<half>(12288, 64), dh = ub.at<half>(12800, 64);
  fill(bh, rnd(64, 13, 0.5f, 2.f));
  PipeBarrier<PIPE_ALL>();
  Power(dh, bh, half(3.0f), ub.at<uint8_t>(16384, 2048));
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 64; ++i) {
    double r = std::pow(double(get(bh, i)), 3.0);
    EXPECT_NEAR(get(dh, i), r, tol(true, r)) << i;
  }
  // int32: exact integer power, minimum 6*256 (tensor-tensor) / 7*256 (with a scalar)
  auto bi = ub.at<int32_t>(20480, 64), ei = ub.at<int32_t>(20736, 64), di = ub.at<int32_t>(20992, 64);
  for (int i = 0; i < 64; ++i) { bi.SetValue(i, i % 9 - 4); ei.SetValue(i, i % 7); }
  PipeBarrier<PIPE_ALL>();
  Power(di, bi, ei, ub.at<uint8_t>(24576, 1536), 64);
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 64; ++i) {
    int64_t r = 1;
    for (int k = 0; k < i % 7; ++k) r *= (i % 9 - 4);
    EXPECT_EQ(di.GetValue(i), static_cast<int32_t>(r)) << i;
  }
  err = error_of([&] { Power(di, bi, int32_t(3), ub.at<uint8_t>(24576, 1536), 64); });
  EXPECT_TRUE(has(err, "1792")) << err;
  // overlap of dst and a source is not allowed
  EXPECT_TRUE(has(error_of([&] { Power(b, b, e, n); }), "overlaps"));
}

// ---------------- Fmod ----------------
TEST(AdvApi2, FmodFloatHalf) {
  Ub ub;
  const uint32_t n = 256;
  auto a = rnd(n, 21, -20.f, 20.f), bb = rnd(n, 22, 0.3f, 4.f);
  a[0] = 2.0f; bb[0] = 1.5f; a[1] = -3.0f; bb[1] = 1.1f;   // documented examples: 0.5, -0.8
  for (uint32_t i = 2; i < n; i += 2) bb[i] = -bb[i];
  auto s0 = ub.at<float>(0, n), s1 = ub.at<float>(1024, n), d = ub.at<float>(2048, n);
  auto h0 = ub.at<half>(4096, n), h1 = ub.at<half>(4608, n), dh = ub.at<half>(5120, n);
  fill(s0, a); fill(s1, bb); fill(h0, a); fill(h1, bb);
  PipeBarrier<PIPE_ALL>();
  Fmod(d, s0, s1, ub.at<uint8_t>(8192, 256), n);
  Fmod(dh, h0, h1, ub.at<uint8_t>(8192, 2048));
  PipeBarrier<PIPE_ALL>();
  EXPECT_NEAR(get(d, 0), 0.5, 1e-6);
  EXPECT_NEAR(get(d, 1), -0.8, 1e-6);
  for (uint32_t i = 0; i < n; ++i) {
    double r = std::fmod(double(a[i]), double(bb[i]));
    double x = float(half(a[i])), y = float(half(bb[i])), rh = std::fmod(x, y);
    EXPECT_NEAR(get(d, i), r, 1e-5 * (1 + std::fabs(a[i]))) << i;
    EXPECT_NEAR(get(dh, i), rh, tol(true, rh) + 2e-3) << i;
  }
  std::string e = error_of([&] { Fmod(dh, h0, h1, ub.at<uint8_t>(8192, 1024), n); });
  EXPECT_TRUE(has(e, "error[param]") && has(e, "2048")) << e;
  e = error_of([&] { Fmod(d, s0, ub.at<float>(1024, n / 2), n / 2); });
  EXPECT_TRUE(has(e, "same length")) << e;
}

// ---------------- CumSum ----------------
TEST(AdvApi2, CumSumBothAxes) {
  static constexpr CumSumConfig kFirst = {false, false, true};
  static constexpr CumSumConfig kLastNoRow = {true, false, false};
  const uint32_t O = 5, I = 16;
  auto v = rnd(O * I, 31, -2, 2);
  for (bool h : {false, true}) {
    Ub ub;
    auto run = [&](auto tag) {
      using T = decltype(tag);
      auto src = ub.at<T>(0, O * I), dst = ub.at<T>(1024, O * I), row = ub.at<T>(2048, I), dst2 = ub.at<T>(3072, O * I);
      fill(src, v);
      PipeBarrier<PIPE_ALL>();
      uint32_t need_last = h ? I * 16 * 2 + 16 * I * 2 * 2 : 16 * I * 4 * 2;   // GetCumSumMaxMinTmpSize minimum
      auto tmp = ub.at<uint8_t>(8192, need_last);
      CumSum<T>(dst, row, src, tmp, {O, I});
      auto tmp2 = ub.at<uint8_t>(32768, h ? O * I * 4 : 32);
      CumSum<T, kFirst>(dst2, row, src, tmp2, {O, I});
      PipeBarrier<PIPE_ALL>();
      for (uint32_t r = 0; r < O; ++r) {
        double acc = 0;
        for (uint32_t k = 0; k < I; ++k) {
          acc += as_t(h, v[r * I + k]);
          EXPECT_NEAR(get(dst, r * I + k), acc, tol(h, acc) + 1e-6) << h << " " << r << " " << k;
          double col = 0;
          for (uint32_t q = 0; q <= r; ++q) col += as_t(h, v[q * I + k]);
          EXPECT_NEAR(get(dst2, r * I + k), col, tol(h, col) + 1e-6) << h << " " << r << " " << k;
          if (r == O - 1) EXPECT_EQ(get(row, k), get(dst2, r * I + k));   // last row of the first-axis result
        }
      }
      auto small = ub.at<uint8_t>(8192, need_last - 32);
      std::string e = error_of([&] { CumSum<T>(dst, row, src, small, {O, I}); });
      EXPECT_TRUE(has(e, "error[param]") && has(e, std::to_string(need_last).c_str())) << e;
      e = error_of([&] { CumSum<T, kLastNoRow>(dst, row, src, tmp, {O, 3}); });   // unaligned inner
      EXPECT_TRUE(has(e, "error[align]")) << e;
      e = error_of([&] { CumSum<T>(dst, row, src, tmp, {O * 100, I}); });
      EXPECT_TRUE(has(e, "error[param]")) << e;
    };
    if (h) run(half{}); else run(float{});
  }
}

// ---------------- RmsNorm ----------------
namespace {
RmsNormTiling rms_tiling(uint32_t B, uint32_t S, uint32_t H, uint32_t oriH) {
  RmsNormTiling t;
  t.bLength = B; t.sLength = S; t.hLength = H; t.originalHLength = oriH; t.reciprocalOfHLength = 1.0f / oriH;
  t.mainBsLength = 1; t.mainBshLength = H;
  return t;
}
}  // namespace

TEST(AdvApi2, RmsNormFloatHalf) {
  const uint32_t B = 2, S = 3, H = 32;
  for (bool h : {false, true}) {
    Ub ub;
    uint32_t oriH = h ? 20 : 32;   // half: H padded with zeros from 20 to 32
    auto v = rnd(B * S * H, 41, -3, 3), g = rnd(H, 42, 0.5f, 1.5f);
    for (uint32_t r = 0; r < B * S; ++r) for (uint32_t k = oriH; k < H; ++k) v[r * H + k] = 0;
    auto run = [&](auto tag) {
      using T = decltype(tag);
      auto x = ub.at<T>(0, B * S * H), out = ub.at<T>(1024, B * S * H), gm = ub.at<T>(2048, H);
      fill(x, v); fill(gm, g);
      PipeBarrier<PIPE_ALL>();
      uint32_t need = (h ? 2 * H + 8 : H + 8) * 4;   // GetRmsNormMaxMinTmpSize minimum
      RmsNormTiling t = rms_tiling(B, S, H, oriH);
      RmsNorm<T>(out, x, gm, ub.at<uint8_t>(8192, need), T(1e-5f), t);
      PipeBarrier<PIPE_ALL>();
      for (uint32_t r = 0; r < B * S; ++r) {
        double ss = 0;
        for (uint32_t k = 0; k < H; ++k) ss += double(as_t(h, v[r * H + k])) * as_t(h, v[r * H + k]);
        double rstd = 1 / std::sqrt(ss / oriH + double(as_t(h, 1e-5f)));
        for (uint32_t k = 0; k < oriH; ++k) {
          double y = as_t(h, v[r * H + k]) * rstd * as_t(h, g[k]);
          EXPECT_NEAR(get(out, r * H + k), y, h ? tol(true, y) : 2e-5 * (1 + std::fabs(y))) << h << " " << r << " " << k;
        }
      }
      std::string e = error_of([&] { RmsNorm<T>(out, x, gm, ub.at<uint8_t>(8192, need - 32), T(1e-5f), t); });
      EXPECT_TRUE(has(e, "error[param]") && has(e, std::to_string(need).c_str())) << e;
      RmsNorm<T>(x, x, gm, T(1e-5f), t);   // src and dst may be the same tensor; framework tmp
      PipeBarrier<PIPE_ALL>();
      EXPECT_EQ(get(x, 3), get(out, 3));
    };
    if (h) run(half{}); else run(float{});
  }
  Ub ub;
  auto x = ub.at<float>(0, 64), out = ub.at<float>(1024, 64), gm = ub.at<float>(2048, 32);
  fill(x, rnd(64, 1, -1, 1)); fill(gm, rnd(32, 2, 0, 1));
  PipeBarrier<PIPE_ALL>();
  EXPECT_TRUE(has(error_of([&] { RmsNorm<float>(out, x, gm, 1e-5f, RmsNormTiling{}); }), "error[param]"));
  EXPECT_TRUE(has(error_of([&] { RmsNorm<float>(out, x, gm, 1e-5f, rms_tiling(1, 2, 30, 30)); }), "error[align]"));
  RmsNormTiling wrong = rms_tiling(1, 2, 32, 32);
  wrong.reciprocalOfHLength = 1.0f / 64;
  EXPECT_TRUE(has(error_of([&] { RmsNorm<float>(out, x, gm, 1e-5f, wrong); }), "reciprocalOfHLength"));
  RmsNormTiling big = rms_tiling(1, 2, 32, 32);
  big.mainBsLength = 2;   // a tiling made for two rows per pass needs (2*32 + 8) * 4 bytes
  std::string e = error_of([&] { RmsNorm<float>(out, x, gm, ub.at<uint8_t>(4096, 160), 1e-5f, big); });
  EXPECT_TRUE(has(e, "288")) << e;
  EXPECT_TRUE(has(error_of([&] { RmsNorm<float, true>(out, x, gm, 1e-5f, rms_tiling(1, 2, 32, 32)); }), "isBasicBlock"));
}

// ---------------- LogSoftMax ----------------
TEST(AdvApi2, LogSoftMaxFloatHalf) {
  {
    Ub ub;
    const uint32_t M = 8, K = 64;
    auto v = rnd(M * K, 51, -5, 5);
    auto src = ub.at<float>(0, M * K), dst = ub.at<float>(4096, M * K);
    auto sum = ub.at<float>(8192, M * 8), mx = ub.at<float>(9216, M * 8);
    fill(src, v);
    PipeBarrier<PIPE_ALL>();
    LogSoftMaxTiling t;   // what LogSoftMaxTilingFunc fills for [8, 64] float with room for all rows
    t.srcM = M; t.srcK = K; t.srcSize = M * K; t.splitM = M; t.splitK = K; t.splitSize = M * K;
    t.reduceM = M; t.reduceK = 8; t.rangeM = 1;
    uint32_t need = (8 + K + 64) * 4 * M;
    LogSoftMax<float>(dst, sum, mx, src, ub.at<uint8_t>(16384, need), t);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t m = 0; m < M; ++m) {
      double a = v[m * K];
      for (uint32_t k = 1; k < K; ++k) a = std::max(a, double(v[m * K + k]));
      double s = 0;
      for (uint32_t k = 0; k < K; ++k) s += std::exp(v[m * K + k] - a);
      for (uint32_t k = 0; k < K; ++k) {
        double y = std::log10(std::exp(v[m * K + k] - a) / s);   // CANN's LogSoftMax is base 10
        EXPECT_NEAR(get(dst, m * K + k), y, 2e-5 * (1 + std::fabs(y))) << m << " " << k;
      }
      for (uint32_t e = 0; e < 8; ++e) {
        EXPECT_NEAR(get(sum, m * 8 + e), s, 1e-5 * s);
        EXPECT_EQ(get(mx, m * 8 + e), float(a));
      }
    }
    std::string e = error_of([&] { LogSoftMax<float>(dst, sum, mx, src, ub.at<uint8_t>(16384, need - 32), t); });
    EXPECT_TRUE(has(e, "error[param]") && has(e, std::to_string(need).c_str())) << e;
    e = error_of([&] { LogSoftMax<float, false, true>(dst, sum, mx, src, ub.at<uint8_t>(16384, need), t); });
    EXPECT_TRUE(has(e, "NZ")) << e;
    e = error_of([&] { LogSoftMax<float>(dst, sum, mx, src, ub.at<uint8_t>(16384, need), LogSoftMaxTiling{}); });
    EXPECT_TRUE(has(e, "error[param]")) << e;
  }
  {
    Ub ub;
    const uint32_t M = 3, K = 32, oriK = 20;   // padded last axis, shape from SoftMaxShapeInfo
    auto v = rnd(M * K, 52, -4, 4);
    auto src = ub.at<half>(0, M * K), dst = ub.at<half>(1024, M * K);
    auto sum = ub.at<half>(2048, M * 16), mx = ub.at<half>(3072, M * 16);
    fill(src, v);
    PipeBarrier<PIPE_ALL>();
    LogSoftMax<half>(dst, sum, mx, src, ub.at<uint8_t>(8192, (16 + K + 64) * 4), LogSoftMaxTiling{}, {M, K, M, oriK});
    PipeBarrier<PIPE_ALL>();
    for (uint32_t m = 0; m < M; ++m) {
      double a = as_t(true, v[m * K]);
      for (uint32_t k = 1; k < oriK; ++k) a = std::max(a, double(as_t(true, v[m * K + k])));
      double s = 0;
      for (uint32_t k = 0; k < oriK; ++k) s += std::exp(as_t(true, v[m * K + k]) - a);
      for (uint32_t k = 0; k < oriK; ++k) {
        double y = std::log10(std::exp(as_t(true, v[m * K + k]) - a) / s);
        EXPECT_NEAR(get(dst, m * K + k), y, tol(true, y)) << m << " " << k;
      }
      EXPECT_NEAR(get(sum, m * 16 + 15), s, tol(true, s));
      EXPECT_EQ(get(mx, m * 16), float(a));
    }
  }
}

// ---------------- pattern reduces ----------------
TEST(AdvApi2, PatternReducesArRa) {
  Ub ub;
  const uint32_t first = 6, last = 100, pad = 104;   // float inner axis padded to 32 bytes
  auto v = rnd(first * pad, 61, 0.5f, 1.5f);
  auto src = ub.at<float>(0, first * pad);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  uint32_t shape[2] = {first, last};
  auto x = [&](uint32_t r, uint32_t c) { return double(v[r * pad + c]); };
  // ReduceSum AR: min tmp = first * 64 * 4 (k = 64 for last = 100)
  auto dar = ub.at<float>(4096, 8), dra = ub.at<float>(4352, 104), dmean = ub.at<float>(4864, 8);
  auto dmax = ub.at<float>(5120, 104), dprod = ub.at<float>(5632, 8), dmin = ub.at<float>(5888, 8);
  ReduceSum<float, Pattern::Reduce::AR>(dar, src, ub.at<uint8_t>(8192, first * 64 * 4), shape, true);
  // RA: k = FindK(6) = 4, times the padded inner axis: 4 * 104 * 4
  ReduceSum<float, Pattern::Reduce::RA>(dra, src, ub.at<uint8_t>(8192, 4 * 104 * 4), shape, true);
  ReduceMean<float, Pattern::Reduce::AR>(dmean, src, shape, true);
  ReduceMax<float, Pattern::Reduce::RA>(dmax, src, ub.at<uint8_t>(8192, 4 * 416), shape, true);
  ReduceMin<float, Pattern::Reduce::AR, true>(dmin, src, shape, true);   // isReuseSource: no tmp
  // ReduceProd AR: (max(8, 64) + 6 * 8) * 4 + 256
  ReduceProd<float, Pattern::Reduce::AR>(dprod, src, ub.at<uint8_t>(8192, (64 + 48) * 4 + 256), shape, true);
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < first; ++r) {
    double s = 0, p = 1, mn = 1e9;
    for (uint32_t c = 0; c < last; ++c) { s += x(r, c); p *= x(r, c); mn = std::min(mn, x(r, c)); }
    EXPECT_NEAR(get(dar, r), s, 1e-5 * s) << r;
    EXPECT_NEAR(get(dmean, r), s / last, 1e-5 * s / last) << r;
    EXPECT_NEAR(get(dprod, r), p, 1e-4 * std::fabs(p)) << r;
    EXPECT_EQ(get(dmin, r), float(mn)) << r;
  }
  for (uint32_t c = 0; c < last; ++c) {
    double s = 0, m = -1e9;
    for (uint32_t r = 0; r < first; ++r) { s += x(r, c); m = std::max(m, x(r, c)); }
    EXPECT_NEAR(get(dra, c), s, 1e-5 * s) << c;
    EXPECT_EQ(get(dmax, c), float(m)) << c;
  }
  // tmp minimums, shape and pad checks
  std::string e = error_of([&] { ReduceSum<float, Pattern::Reduce::AR>(dar, src, ub.at<uint8_t>(8192, 1024), shape, true); });
  EXPECT_TRUE(has(e, "error[param]") && has(e, "1536") && has(e, "ReduceSum<pattern>")) << e;
  e = error_of([&] { ReduceSum<float, Pattern::Reduce::AR>(dar, src, ub.at<uint8_t>(8192, 1536), shape, false); });
  EXPECT_TRUE(has(e, "srcInnerPad")) << e;
  e = error_of([&] { ReduceSum<float, Pattern::Reduce::RA>(dar, src, ub.at<uint8_t>(8192, 2048), shape, true); });
  EXPECT_TRUE(has(e, "dstTensor must hold")) << e;   // RA writes 100 elements, dst holds 8
  uint32_t too_big[2] = {first + 1, last};
  e = error_of([&] { ReduceMax<float, Pattern::Reduce::AR>(dar, src, ub.at<uint8_t>(8192, 2048), too_big, true); });
  EXPECT_TRUE(has(e, "error[param]")) << e;
  e = error_of([&] { ReduceSum<float, Pattern::Reduce::AR>(src, src, ub.at<uint8_t>(8192, 2048), shape, true); });
  EXPECT_TRUE(has(e, "overlaps")) << e;
}

TEST(AdvApi2, PatternReducesHalfAnyAllAndBasicCoexist) {
  Ub ub;
  // ReduceMax on half, AR with last = 40 (< 128 per repeat): min tmp = first * 16 * 2
  const uint32_t first = 4, last = 40, pad = 48;
  auto v = rnd(first * pad, 71, -10, 10);
  auto src = ub.at<half>(0, first * pad), d = ub.at<half>(1024, 16);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  uint32_t shape[2] = {first, last};
  ReduceMax<half, Pattern::Reduce::AR>(d, src, ub.at<uint8_t>(4096, first * 16 * 2), shape, true);
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < first; ++r) {
    float m = -1e9f;
    for (uint32_t c = 0; c < last; ++c) m = std::max(m, float(half(v[r * pad + c])));
    EXPECT_EQ(get(d, r), m) << r;
  }
  EXPECT_TRUE(has(error_of([&] { ReduceSum<half, Pattern::Reduce::AR>(d, src, shape, true); }), "error[dtype]"));
  // ReduceAny / ReduceAll on uint8_t (0/1 inputs), RA and AR
  auto u = ub.at<uint8_t>(8192, 3 * 32), ua = ub.at<uint8_t>(8448, 32), ub2 = ub.at<uint8_t>(8704, 32);
  for (uint32_t i = 0; i < 96; ++i) u.SetValue(i, (i % 5 == 0 || i % 32 == 7) ? 1 : 0);
  for (uint32_t c = 0; c < 32; ++c) u.SetValue(64 + c, c == 7 || c < 3 ? 1 : u.GetValue(64 + c));
  PipeBarrier<PIPE_ALL>();
  uint32_t us[2] = {3, 32};
  ReduceAny<uint8_t, Pattern::Reduce::RA>(ua, u, us, true);
  ReduceAll<uint8_t, Pattern::Reduce::AR>(ub2, u, ub.at<uint8_t>(12288, 32 * 2 + 3 * 32), us, true);
  PipeBarrier<PIPE_ALL>();
  for (uint32_t c = 0; c < 32; ++c) {
    int any = 0;
    for (uint32_t r = 0; r < 3; ++r) any |= u.GetValue(r * 32 + c);
    EXPECT_EQ(ua.GetValue(c), any) << c;
  }
  for (uint32_t r = 0; r < 3; ++r) {
    int all = 1;
    for (uint32_t c = 0; c < 32; ++c) all &= u.GetValue(r * 32 + c);
    EXPECT_EQ(ub2.GetValue(r), all) << r;
  }
  u.SetValue(5, 2);
  PipeBarrier<PIPE_ALL>();
  EXPECT_TRUE(has(error_of([&] { ReduceAny<uint8_t, Pattern::Reduce::RA>(ua, u, us, true); }), "only 0 and 1"));
  // the basic ReduceSum / ReduceMax (kgen/vec_reduce.h) still resolve and run next to the pattern forms
  auto f = ub.at<float>(16384, 64), fd = ub.at<float>(16640, 8), ft = ub.at<float>(16896, 64);
  fill(f, rnd(64, 5, 0, 1));
  PipeBarrier<PIPE_ALL>();
  ReduceSum<float>(fd, f, ft, 64);
  ReduceMax(fd[2], f, ft, 64);
  PipeBarrier<PIPE_ALL>();
  double s = 0, m = 0;
  for (int i = 0; i < 64; ++i) { s += get(f, i); m = std::max(m, double(get(f, i))); }
  EXPECT_NEAR(get(fd, 0), s, 1e-5 * s);
  EXPECT_EQ(get(fd, 2), float(m));
}

// ---------------- dtype rules and the 310P ----------------
TEST(AdvApi2, DtypeAndSocRules) {
  {
    Ub ub;
    auto i = ub.at<int32_t>(0, 64), j = ub.at<int32_t>(256, 64);
    EXPECT_TRUE(has(error_of([&] { Log(j, i, 64u); }), "error[dtype]"));
    EXPECT_TRUE(has(error_of([&] { Silu(j, i, 64u); }), "error[dtype]"));
  }
  {
    Ub ub(128 * 1024, "Ascend310P3");
    auto s = ub.at<float>(0, 64), d = ub.at<float>(256, 64);
    fill(s, rnd(64, 3, -1, 1));
    PipeBarrier<PIPE_ALL>();
    std::string e = error_of([&] { Exp<float, 10>(d, s, ub.at<uint8_t>(4096, 768), 64); });
    EXPECT_TRUE(has(e, "error[dtype]") && has(e, "Exp<taylorExpandLevel>")) << e;
    uint32_t shape[2] = {8, 8};
    EXPECT_TRUE(has(error_of([&] { ReduceSum<float, Pattern::Reduce::AR>(d, s, shape, true); }), "error[dtype]"));
    // Round on float needs 256 bytes of tmp on 310P (none on 910B)
    e = error_of([&] { Round(d, s, ub.at<uint8_t>(4096, 32), 64); });
    EXPECT_TRUE(has(e, "256")) << e;
    // Floor's input range on the 310P AI Core
    s.SetValue(3, 3e9f);
    PipeBarrier<PIPE_ALL>();
    e = error_of([&] { Floor(d, s, ub.at<uint8_t>(4096, 256), 64); });
    EXPECT_TRUE(has(e, "2147483647")) << e;
  }
}

// Broadcast (and its older name BroadCast): [m, 1] -> [m, k] along axis 1, [1, k] -> [m, k] along axis 0, [1] -> [k];
// in place as NPUKernelBench's InplaceAddRmsNorm does; shapes that do not broadcast and axis-0 rows off 32 bytes.
TEST(AdvApi2, Broadcast) {
  Ub ub;
  auto src = ub.at<float>(0, 16), dst = ub.at<float>(1024, 16 * 24);
  std::vector<float> v = rnd(16, 7, -2.f, 2.f);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  const uint32_t col_src[2] = {16, 1}, col_dst[2] = {16, 24};
  ASSERT_EQ(error_of([&] { Broadcast<float, 2, 1>(dst, src, col_dst, col_src); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 24; ++j) ASSERT_EQ(get(dst, i * 24 + j), v[i]) << i << "," << j;
  const uint32_t row_src[2] = {1, 16}, row_dst[2] = {5, 16};
  auto tmp = ub.at<uint8_t>(8192, 1024);
  ASSERT_EQ(error_of([&] { BroadCast<float, 2, 0>(dst, src, row_dst, row_src, tmp); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < 5; ++i)
    for (uint32_t j = 0; j < 16; ++j) ASSERT_EQ(get(dst, i * 16 + j), v[j]) << i << "," << j;
  const uint32_t one[1] = {1}, many[1] = {40};
  auto hs = ub.at<half>(16384, 16), hd = ub.at<half>(16384, 40);   // in place: the destination starts at the source
  hs.SetValue(0, half(3.5f));
  PipeBarrier<PIPE_ALL>();
  ASSERT_EQ(error_of([&] { Broadcast<half, 1, 0>(hd, hs, many, one); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t j = 0; j < 40; ++j) ASSERT_EQ(get(hd, j), 3.5f) << j;
  const uint32_t bad_src[2] = {16, 2};
  EXPECT_TRUE(has(error_of([&] { Broadcast<float, 2, 1>(dst, src, col_dst, bad_src); }), "does not broadcast"));
  const uint32_t odd_src[2] = {1, 6}, odd_dst[2] = {4, 6};
  EXPECT_TRUE(has(error_of([&] { Broadcast<float, 2, 0>(dst, src, odd_dst, odd_src); }), "error[align]"));
}

// SelectWithBytesMask: the tensor's element where the byte mask is 0, the scalar elsewhere (scalar first: the other
// way round); mask rows of 32 for source rows of 16 are compacted in place first (isReuseMask). The host's
// GetSelectWithBytesMaskMaxMinTmpSize is CANN's: max(1024, 32 * 2 + 512), plus the compacted mask when not reused.
TEST(AdvApi2, SelectWithBytesMaskRowsOfALongerMask) {
  Ub ub;
  auto src = ub.at<float>(0, 32), dst = ub.at<float>(1024, 32);
  auto mask = ub.at<bool>(2048, 64);
  auto tmp = ub.at<uint8_t>(4096, 1024);
  for (uint32_t i = 0; i < 32; ++i) src.SetValue(i, static_cast<float>(i));
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t k = 0; k < 32; ++k) mask.SetValue(r * 32 + k, k < 16 ? (k % 3 == 0) : true);
  PipeBarrier<PIPE_ALL>();
  SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 16;
  info.maskLastAxis = 32;
  ASSERT_EQ(error_of([&] { SelectWithBytesMask(dst, src, -1.0f, mask, tmp, info); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(get(dst, i), i % 16 % 3 == 0 ? -1.0f : static_cast<float>(i)) << i;
  EXPECT_EQ(mask.GetValue(16), true);   // row 1's first element, compacted into row 0's tail
  ASSERT_EQ(error_of([&] { Select(dst, -1.0f, src, mask, tmp, info); }), "");   // scalar first, the mask now compact
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(get(dst, i), i % 16 % 3 == 0 ? static_cast<float>(i) : -1.0f) << i;
  info.maskLastAxis = 8;
  EXPECT_TRUE(has(error_of([&] { SelectWithBytesMask(dst, src, -1.0f, mask, tmp, info); }), "at least srcLastAxis"));
  uint32_t mx = 0, mn = 0;
  AscendC::GetSelectWithBytesMaskMaxMinTmpSize(ge::Shape({2, 16}), ge::Shape({1}), 4, ge::Shape({2, 32}), 1, false,
                                               mx, mn);
  EXPECT_EQ(mn, 1024u + 32u);
  EXPECT_EQ(mx, mn);
}

// SoftmaxGrad: (g - sum(g * x)) * x per row; isFront writes the row sums over one 32-byte block per row. Its
// temporary space is CANN's GetSoftMaxGradMinTmpSize (one row: 2 blocks + K + 64 floats for float).
TEST(AdvApi2, SoftmaxGradRows) {
  Ub ub;
  auto g = ub.at<float>(0, 32), x = ub.at<float>(256, 32), dst = ub.at<float>(512, 32);
  auto tmp = ub.at<uint8_t>(1024, 512);
  std::vector<float> gv = rnd(32, 31, -1.f, 1.f), xv = rnd(32, 32, 0.f, 1.f);
  for (uint32_t i = 0; i < 32; ++i) {
    if (i % 16 >= 12) continue;   // the padding of each row is never written
    g.SetValue(i, gv[i]);
    x.SetValue(i, xv[i]);
  }
  PipeBarrier<PIPE_ALL>();
  SoftMaxTiling tiling;
  AscendC::SoftMaxGradTilingFunc(ge::Shape({2, 16}), 4, 512, tiling);
  EXPECT_EQ(tiling.srcM, 2u);
  EXPECT_EQ(tiling.splitM, 1u);   // 512 bytes hold one row of 384
  EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({2, 16}), 4, false, false), 384u);
  EXPECT_EQ(AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({2, 16}), 4, false, false), 768u);
  SoftMaxShapeInfo shape{2, 16, 2, 12};   // only the first 12 of each row count in the sum
  ASSERT_EQ(error_of([&] { SoftmaxGrad<float>(dst, g, x, tmp, tiling, false, shape); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < 2; ++r) {
    double s = 0;
    for (uint32_t k = 0; k < 12; ++k) s += static_cast<double>(gv[r * 16 + k]) * xv[r * 16 + k];
    for (uint32_t k = 0; k < 12; ++k)
      EXPECT_NEAR(get(dst, r * 16 + k), (gv[r * 16 + k] - s) * xv[r * 16 + k], 1e-5) << r << " " << k;
  }
  // the padding lanes were garbage in, so they are garbage out: an error only where used
  EXPECT_TRUE(has(error_of([&] { (void)dst.GetValue(14); }), "error[uninit-read]"));
  ASSERT_EQ(error_of([&] { SoftmaxGradFront<float>(dst, g, x, tmp, tiling, shape); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < 2; ++r) {
    double s = 0;
    for (uint32_t k = 0; k < 12; ++k) s += static_cast<double>(gv[r * 16 + k]) * xv[r * 16 + k];
    for (uint32_t e = 0; e < 8; ++e) EXPECT_NEAR(get(dst, r * 8 + e), s, 1e-5) << r;
  }
  auto small = ub.at<uint8_t>(1024, 256);
  EXPECT_TRUE(has(error_of([&] { SoftmaxGrad<float>(dst, g, x, small, tiling, false, shape); }),
                  "needs at least 384 bytes"));
}

// Mean (MeanParams {outter, inner, n}): Sum's row sums times 1/n in accType; half summed in half rounds, half with
// accType float is summed in float and cast back. Its sharedTmpBuffer is CANN's GetMeanMaxMinTmpSize (mean_tiling.cpp)
// at least: 32 bytes for 300 halves summed in half, 32 + 304 * 4 summed in float.
TEST(AdvApi2, MeanRowsInAccType) {
  Ub ub;
  auto src = ub.at<half>(0, 2 * 304), dst = ub.at<half>(2048, 16);
  auto tmp = ub.at<uint8_t>(4096, 2048);
  std::vector<float> v = rnd(2 * 304, 21, 0.5f, 1.5f);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  MeanParams p;
  p.outter = 2;
  p.inner = 304;
  p.n = 300;
  ASSERT_EQ(error_of([&] { Mean<half, float>(dst, src, tmp, p); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < 2; ++r) {
    double ref = 0;
    for (uint32_t k = 0; k < 300; ++k) ref += as_t(true, v[r * 304 + k]);
    ref /= 300;
    EXPECT_NEAR(get(dst, r), ref, 1e-3) << r;                 // float accumulation: one half rounding at the end
    EXPECT_EQ(get(dst, r), static_cast<float>(half(static_cast<float>(get(dst, r))))) << r;
  }
  ASSERT_EQ(error_of([&] { Mean<half>(dst, src, tmp, p); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < 2; ++r) {
    double ref = 0;
    for (uint32_t k = 0; k < 300; ++k) ref += as_t(true, v[r * 304 + k]);
    EXPECT_NEAR(get(dst, r), ref / 300, 2e-2) << r;          // half sums round at every step
  }
  uint32_t mx = 0, mn = 0;
  AscendC::GetMeanMaxMinTmpSize(300, 2, 4, false, mx, mn);
  EXPECT_EQ(mn, 32u + 304u * 4);
  EXPECT_EQ(mx, mn);
  AscendC::GetMeanMaxMinTmpSize(300, 2, 2, false, mx, mn);
  EXPECT_EQ(mn, 32u);
  auto small = ub.at<uint8_t>(4096, 1024);   // less than 32 + 1216 bytes
  EXPECT_TRUE(has(error_of([&] { Mean<half, float>(dst, src, small, p); }), "needs at least 1248 bytes"));
}

// Sum (SumParams {outter, inner, n}): each row's first n elements, rows inner apart; the padding is never read (left
// unwritten here, which would be uninit-read if it were); inner must be n padded to 32 bytes.
TEST(AdvApi2, SumRowsOfPaddedInner) {
  Ub ub;
  auto src = ub.at<float>(0, 3 * 8), dst = ub.at<float>(1024, 8);
  std::vector<float> v = rnd(24, 11, -1.f, 1.f);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t k = 0; k < 5; ++k) src.SetValue(r * 8 + k, v[r * 8 + k]);
  PipeBarrier<PIPE_ALL>();
  SumParams p;
  p.outter = 3;
  p.inner = 8;
  p.n = 5;
  ASSERT_EQ(error_of([&] { Sum(dst, src, p); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < 3; ++r) {
    double ref = 0;
    for (uint32_t k = 0; k < 5; ++k) ref += v[r * 8 + k];
    EXPECT_NEAR(get(dst, r), ref, tol(false, ref)) << r;
  }
  auto hs = ub.at<half>(2048, 2 * 32), hd = ub.at<half>(4096, 16), tmp = ub.at<half>(8192, 64);
  std::vector<float> hv = rnd(64, 12, -1.f, 1.f);
  fill(hs, hv);
  PipeBarrier<PIPE_ALL>();
  SumParams ph;
  ph.outter = 2;
  ph.inner = 32;
  ph.n = 20;
  auto bytes = tmp.ReinterpretCast<uint8_t>();
  ASSERT_EQ(error_of([&] { Sum(hd, hs, bytes, ph); }), "");
  PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < 2; ++r) {
    double ref = 0;
    for (uint32_t k = 0; k < 20; ++k) ref += as_t(true, hv[r * 32 + k]);
    EXPECT_NEAR(get(hd, r), ref, 2e-2) << r;
  }
  p.inner = 16;   // not n padded to 32 bytes
  EXPECT_TRUE(has(error_of([&] { Sum(dst, src, p); }), "must be n padded to 32 bytes"));
}
