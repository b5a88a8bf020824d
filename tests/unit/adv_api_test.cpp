// High-level APIs: Sigmoid, Tanh, Gelu, Erf, Sin, Cos, SoftMax, LayerNorm against plain C++ references (double).
// Tolerances: float results within 2e-6 absolute + 2e-6 relative of the double reference (the emulator computes in
// float); half results within one half ulp of the reference value plus 1e-4 absolute.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lib/math/kernel_operator_acos_intf.h"
#include "lib/math/kernel_operator_tan_intf.h"
#include "sim/testing.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
struct Ub {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  explicit Ub(uint32_t bytes = 128 * 1024) { pipe.InitBuffer(buf, bytes); }
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
double tol(bool h, double ref) {
  if (!h) return 2e-6 + 2e-6 * std::fabs(ref);
  double a = std::fabs(ref);
  double ulp = a < 6.1e-5 ? 5.96e-8 : std::ldexp(1.0, std::ilogb(a) - 10);
  return ulp + 1e-4;
}
double ref_math(int op, double x) {
  switch (op) {
    case 0: return 1.0 / (1.0 + std::exp(-x));
    case 1: return std::tanh(x);
    case 2: return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
    case 3: return std::erf(x);
    case 4: return std::sin(x);
    default: return std::cos(x);
  }
}
template <class T> void call_math(int op, const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& tmp,
                                  uint32_t n) {
  switch (op) {
    case 0: Sigmoid(d, s, tmp, n); break;
    case 1: Tanh(d, s, tmp, n); break;
    case 2: Gelu(d, s, tmp, n); break;
    case 3: Erf(d, s, tmp, n); break;
    case 4: Sin(d, s, tmp, n); break;
    default: Cos(d, s, tmp, n); break;
  }
}
// CANN's minimum temporary bytes (GetXxxMaxMinTmpSize) per op for half / float.
uint32_t min_tmp(int op, bool h) {
  const uint32_t t[6][2] = {{256, 256}, {1024, 256}, {768, 768}, {2048, 768}, {2048, 768}, {2048, 768}};
  return t[op][h ? 0 : 1];
}
}  // namespace

TEST(AdvApi, MathFloatAndHalfWithTmp) {
  const char* names[] = {"Sigmoid", "Tanh", "Gelu", "Erf", "Sin", "Cos"};
  const uint32_t n = 1000;   // not a multiple of a repeat: the tail is exact
  auto v = rnd(n, 5, -6, 6);
  for (int op = 0; op < 6; ++op) {
    Ub ub;
    auto sf = ub.at<float>(0, n), df = ub.at<float>(4096, n + 8);
    auto sh = ub.at<half>(8192, n), dh = ub.at<half>(12288, n + 16);
    auto tf = ub.at<uint8_t>(16384, min_tmp(op, false)), th = ub.at<uint8_t>(20480, min_tmp(op, true));
    fill(sf, v);
    fill(sh, v);
    df.SetValue(n, 42.f);
    PipeBarrier<PIPE_ALL>();
    call_math(op, df, sf, tf, n);
    call_math(op, dh, sh, th, n);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < n; ++i) {
      double rf = ref_math(op, static_cast<float>(v[i]));
      double rh = ref_math(op, static_cast<float>(half(v[i])));
      EXPECT_NEAR(df.GetValue(i), rf, tol(false, rf)) << names[op] << " " << i;
      EXPECT_NEAR(static_cast<float>(dh.GetValue(i)), rh, tol(true, rh)) << names[op] << " " << i;
    }
    EXPECT_EQ(df.GetValue(n), 42.f) << names[op];   // nothing past calCount is written
  }
}

TEST(AdvApi, MathWholeTensorAndFrameworkTmpForms) {
  Ub ub;
  auto s = ub.at<float>(0, 256), d = ub.at<float>(1024, 256), d2 = ub.at<float>(2048, 256);
  auto v = rnd(256, 8, -3, 3);
  fill(s, v);
  PipeBarrier<PIPE_ALL>();
  Tanh(d, s);            // framework-allocated tmp, count = src size
  Sigmoid(d2, s, 100u);  // framework-allocated tmp, calCount
  Gelu(s, s, 256);       // Gelu allows src == dst
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 256; ++i) {
    EXPECT_NEAR(d.GetValue(i), std::tanh(double(v[i])), tol(false, std::tanh(double(v[i]))));
    if (i < 100) EXPECT_NEAR(d2.GetValue(i), ref_math(0, v[i]), tol(false, ref_math(0, v[i])));
    EXPECT_NEAR(s.GetValue(i), ref_math(2, v[i]), tol(false, ref_math(2, v[i])));
  }
}

TEST(AdvApi, MathNegative) {
  Ub ub(120 * 1024);
  auto s = ub.at<half>(0, 256), d = ub.at<half>(1024, 256);
  fill(s, rnd(256, 2, -1, 1));
  PipeBarrier<PIPE_ALL>();
  auto small = ub.at<uint8_t>(4096, 512);
  std::string e = error_of([&] { Tanh(d, s, small, 256); });   // half Tanh needs 1024 bytes
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  EXPECT_NE(e.find("1024"), std::string::npos) << e;
  EXPECT_NE(error_of([&] { Sigmoid(s, s, ub.at<uint8_t>(4096, 256), 256); }).find("error[param]"), std::string::npos);
  EXPECT_NE(error_of([&] { Sigmoid(d, s, ub.at<uint8_t>(0, 256), 256); }).find("error[param]"), std::string::npos);
  auto i32 = ub.at<int32_t>(8192, 64);
  EXPECT_NE(error_of([&] { Sigmoid(i32, i32[32], 32u); }).find("error[dtype]"), std::string::npos);
  auto f = ub.at<float>(16384, 64), g = ub.at<float>(17408, 64);
  fill(f, std::vector<float>(64, 1e6f));
  PipeBarrier<PIPE_ALL>();
  EXPECT_NE(error_of([&] { Sin(g, f, ub.at<uint8_t>(20480, 768), 64); }).find("error[param]"), std::string::npos);
  // Tanh in place is correct on the chip (S77); a partial overlap is not allowed
  fill(f, std::vector<float>(64, 0.5f));
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(error_of([&] { Tanh(f, f, ub.at<uint8_t>(20480, 768), 64); }), "");
  PipeBarrier<PIPE_ALL>();
  EXPECT_NEAR(f.GetValue(5), std::tanh(0.5f), 1e-6);
  EXPECT_NE(error_of([&] { Tanh(f[8], f, ub.at<uint8_t>(20480, 768), 32); }).find("error[param]"), std::string::npos);
  // a never-written source is garbage lane by lane, as in the basic count-form APIs: no fault until the result is
  // used (here by the scalar unit), which names the Erf that read it
  EXPECT_EQ(error_of([&] { Erf(g, ub.at<float>(24576, 64), ub.at<uint8_t>(20480, 768), 64); }), "");
  PipeBarrier<PIPE_ALL>();
  std::string used = error_of([&] { (void)g.GetValue(3); });
  EXPECT_NE(used.find("error[uninit-read]"), std::string::npos) << used;
  EXPECT_NE(used.find("Erf"), std::string::npos) << used;
}

// Acos, Asin, Atan, Cosh, Sinh, Tan, Erfc: the float formula, in float and rounded once for half. Included through
// the per-API headers CANN 8.0 projects use.
TEST(AdvApi, InverseAndHyperbolicFunctions) {
  kgen::sim::TestCore tc;
  Ub ub(120 * 1024);
  auto s = ub.at<float>(0, 64), d = ub.at<float>(1024, 64);
  auto tmp = ub.at<uint8_t>(4096, 8192);
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i) x[i] = -0.95f + i * 0.03f;
  fill(s, x);
  PipeBarrier<PIPE_ALL>();
  struct Fn {
    const char* name;
    void (*api)(const LocalTensor<float>&, const LocalTensor<float>&, const LocalTensor<uint8_t>&, const uint32_t, kgen::rt::Loc);
    float (*ref)(float);
  };
  const Fn fns[] = {{"Acos", Acos<float, false>, [](float v) { return std::acos(v); }},
                    {"Asin", Asin<float, false>, [](float v) { return std::asin(v); }},
                    {"Atan", Atan<float, false>, [](float v) { return std::atan(v); }},
                    {"Cosh", Cosh<float, false>, [](float v) { return std::cosh(v); }},
                    {"Sinh", Sinh<float, false>, [](float v) { return std::sinh(v); }},
                    {"Tan", Tan<float, false>, [](float v) { return std::tan(v); }},
                    {"Erfc", Erfc<float, false>, [](float v) { return std::erfc(v); }}};
  for (const Fn& f : fns) {
    EXPECT_EQ(error_of([&] { f.api(d, s, tmp, 64, kgen::rt::Loc::current()); }), "") << f.name;
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 64; i += 7) EXPECT_FLOAT_EQ(d.GetValue(i), f.ref(x[i])) << f.name << " " << i;
  }
}

TEST(AdvApi, FrameworkTmpNeedsFreeUb) {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 192 * 1024 - 512);   // leaves 512 bytes; half Erf needs 2048
  auto s = a.Get<half>();
  auto d = s[256];
  for (int i = 0; i < 128; ++i) s.SetValue(i, half(0.5f));
  PipeBarrier<PIPE_ALL>();
  std::string e = error_of([&] { Erf(d, s, 128u); });
  EXPECT_NE(e.find("error[ub-overflow]"), std::string::npos) << e;
  EXPECT_EQ(error_of([&] { Sigmoid(d, s, 128u); }), "");   // 256 bytes fit
}

// ---------------- SoftMax ----------------
namespace {
void ref_softmax(const std::vector<float>& x, int M, int K, int oriK, std::vector<double>& y, std::vector<double>& sum,
                 std::vector<double>& mx) {
  y.assign(size_t(M) * K, 0);
  sum.assign(M, 0);
  mx.assign(M, 0);
  for (int m = 0; m < M; ++m) {
    double a = x[m * K];
    for (int k = 1; k < oriK; ++k) a = std::max(a, double(x[m * K + k]));
    double s = 0;
    for (int k = 0; k < oriK; ++k) s += std::exp(x[m * K + k] - a);
    for (int k = 0; k < K; ++k) y[m * K + k] = std::exp(x[m * K + k] - a) / s;
    sum[m] = s;
    mx[m] = a;
  }
}
}  // namespace

TEST(AdvApi, SoftMaxFloatWithSumMaxAndTiling) {
  Ub ub;
  const int M = 8, K = 64;
  auto v = rnd(M * K, 12, -5, 5);
  auto src = ub.at<float>(0, M * K), dst = ub.at<float>(4096, M * K);
  auto sum = ub.at<float>(8192, M * 8), mx = ub.at<float>(9216, M * 8);
  auto tmp = ub.at<uint8_t>(16384, 4352), small = ub.at<uint8_t>(24576, 4096);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  SoftMaxTiling t;   // what a host-side SoftMaxTilingFunc fills for [8, 64], float
  t.srcM = M; t.srcK = K; t.srcSize = M * K; t.outMaxM = M; t.outMaxK = 8; t.outMaxSize = M * 8;
  t.splitM = M; t.splitK = K; t.splitSize = M * K; t.reduceM = M; t.reduceK = 8; t.reduceSize = M * 8; t.rangeM = 1;
  SoftMax<float>(dst, sum, mx, src, tmp, t);   // shape from the tiling
  PipeBarrier<PIPE_ALL>();
  std::vector<double> y, s, a;
  ref_softmax(v, M, K, K, y, s, a);
  for (int i = 0; i < M * K; ++i) EXPECT_NEAR(dst.GetValue(i), y[i], 1e-6 + 1e-5 * y[i]) << i;
  for (int m = 0; m < M; ++m)
    for (int e = 0; e < 8; ++e) {   // each row's value broadcast over 32 bytes
      EXPECT_NEAR(sum.GetValue(m * 8 + e), s[m], 1e-5 * s[m]);
      EXPECT_EQ(mx.GetValue(m * 8 + e), float(a[m]));
    }
  // the tiling says 8 rows per pass: (8 + 64 + 64) * 4 * 8 = 4352 bytes of tmp are needed, 4096 are not enough
  std::string e = error_of([&] { SoftMax<float>(dst, sum, mx, src, small, t); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
}

TEST(AdvApi, SoftMaxHalfFloatStatsPaddedK) {
  Ub ub;
  const int M = 4, K = 32, oriK = 20;   // padded last axis: 32 halves = 64 bytes
  auto v = rnd(M * K, 13, -4, 4);
  for (auto& x : v) x = float(half(x));
  auto src = ub.at<half>(0, M * K), dst = ub.at<half>(1024, M * K);
  auto sum = ub.at<float>(2048, M * 8), mx = ub.at<float>(3072, M * 8);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  SoftMaxTiling t;
  SoftMaxShapeInfo shape{M, K, M, oriK};
  SoftMax<half>(dst, sum, mx, src, t, shape);
  PipeBarrier<PIPE_ALL>();
  std::vector<double> y, s, a;
  ref_softmax(v, M, K, oriK, y, s, a);
  for (int m = 0; m < M; ++m) {
    for (int k = 0; k < oriK; ++k) EXPECT_NEAR(float(dst.GetValue(m * K + k)), y[m * K + k], tol(true, y[m * K + k]));
    EXPECT_NEAR(sum.GetValue(m * 8), s[m], 1e-5 * s[m]);
    EXPECT_EQ(mx.GetValue(m * 8 + 7), float(a[m]));
  }
  // same-type form without sum/max
  auto d2 = ub.at<half>(4096, M * K);
  SoftMax<half>(d2, src, t, shape);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(float(d2.GetValue(5)), float(dst.GetValue(5)));
}

TEST(AdvApi, SoftMaxNegative) {
  Ub ub;
  auto src = ub.at<float>(0, 256), dst = ub.at<float>(1024, 256);
  auto sum = ub.at<float>(2048, 64), mx = ub.at<float>(3072, 64);
  fill(src, rnd(256, 1, -1, 1));
  PipeBarrier<PIPE_ALL>();
  SoftMaxTiling empty;
  std::string e = error_of([&] { SoftMax<float>(dst, sum, mx, src, empty); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  e = error_of([&] { SoftMax<float>(dst, sum, mx, src, empty, {4, 60, 4, 60}); });   // 240 bytes per row
  EXPECT_NE(e.find("error[align]"), std::string::npos) << e;
  e = error_of([&] { SoftMax<float>(dst, sum, mx, src, ub.at<uint8_t>(4096, 64), empty, {4, 64, 4, 64}); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  e = error_of([&] { SoftMax<float>(dst, sum, mx, src, ub.at<uint8_t>(0, 1024), empty, {4, 64, 4, 64}); });
  EXPECT_NE(e.find("overlaps"), std::string::npos) << e;
  EXPECT_NE(error_of([&] { SoftMax<float>(dst, sum, mx, src, empty, {4, 64, 4, 65}); }).find("error[param]"), std::string::npos);
}

// ---------------- LayerNorm ----------------
namespace {
void ref_layernorm(const std::vector<float>& x, const std::vector<float>& g, const std::vector<float>& b, int rows, int H,
                   int oriH, double eps, std::vector<double>& y, std::vector<double>& mean, std::vector<double>& var) {
  y.assign(size_t(rows) * H, 0);
  mean.assign(rows, 0);
  var.assign(rows, 0);
  for (int r = 0; r < rows; ++r) {
    double m = 0, v = 0;
    for (int h = 0; h < H; ++h) m += x[r * H + h];
    m /= oriH;
    for (int h = 0; h < H; ++h) v += (x[r * H + h] - m) * (x[r * H + h] - m);
    v /= oriH;
    for (int h = 0; h < H; ++h) y[r * H + h] = (x[r * H + h] - m) / std::sqrt(v + eps) * g[h] + b[h];
    mean[r] = m;
    var[r] = v;
  }
}
LayerNormTiling ln_tiling(uint32_t B, uint32_t S, uint32_t H, uint32_t oriH) {
  LayerNormTiling t;
  t.bLength = B; t.sLength = S; t.hLength = H; t.originalHLength = oriH;
  t.inputXSize = B * S * H; t.meanVarSize = B * S; t.lastDimValueBack = 1.0f / oriH;
  return t;
}
}  // namespace

TEST(AdvApi, LayerNormFloatAndHalf) {
  {
    Ub ub;
    const int B = 2, S = 4, H = 32;
    auto v = rnd(B * S * H, 21, -3, 3), g = rnd(H, 22, 0.5, 1.5), be = rnd(H, 23, -1, 1);
    auto x = ub.at<float>(0, B * S * H), out = ub.at<float>(4096, B * S * H);
    auto gm = ub.at<float>(8192, H), bt = ub.at<float>(8448, H);
    auto mean = ub.at<float>(8704, B * S), var = ub.at<float>(8960, B * S);
    auto tmp = ub.at<uint8_t>(16384, 3 * 128 + 2 * 32);   // CANN minimum: 3 * 32(H*4) + 2 * 32(B*S*4)
    fill(x, v); fill(gm, g); fill(bt, be);
    PipeBarrier<PIPE_ALL>();
    LayerNormTiling t = ln_tiling(B, S, H, H);
    LayerNorm<float>(out, mean, var, x, gm, bt, tmp, 1e-5f, t);
    PipeBarrier<PIPE_ALL>();
    std::vector<double> y, m, vv;
    ref_layernorm(v, g, be, B * S, H, H, 1e-5, y, m, vv);
    for (int i = 0; i < B * S * H; ++i) EXPECT_NEAR(out.GetValue(i), y[i], 2e-5 + 2e-5 * std::fabs(y[i])) << i;
    for (int r = 0; r < B * S; ++r) {
      EXPECT_NEAR(mean.GetValue(r), m[r], 1e-5);
      EXPECT_NEAR(var.GetValue(r), vv[r], 1e-5 * (1 + vv[r]));
    }
    std::string e = error_of([&] { LayerNorm<float>(out, mean, var, x, gm, bt, ub.at<uint8_t>(16384, 256), 1e-5f, t); });
    EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  }
  {
    Ub ub;
    const int B = 1, S = 3, H = 16, oriH = 12;   // H padded with zeros from 12 to 16 halves (32 bytes)
    auto v = rnd(B * S * H, 31, -2, 2), g = rnd(H, 32, 0.5, 1.5), be = rnd(H, 33, -1, 1);
    for (int r = 0; r < S; ++r) for (int h = oriH; h < H; ++h) v[r * H + h] = 0;
    for (auto* a : {&v, &g, &be}) for (auto& f : *a) f = float(half(f));
    auto x = ub.at<half>(0, S * H), out = ub.at<half>(1024, S * H);
    auto gm = ub.at<half>(2048, H), bt = ub.at<half>(2560, H);
    auto mean = ub.at<half>(3072, S), var = ub.at<half>(3584, S);
    fill(x, v); fill(gm, g); fill(bt, be);
    PipeBarrier<PIPE_ALL>();
    LayerNormTiling t = ln_tiling(B, S, H, oriH);
    LayerNorm<half>(out, mean, var, x, gm, bt, half(1e-5f), t);
    PipeBarrier<PIPE_ALL>();
    std::vector<double> y, m, vv;
    ref_layernorm(v, g, be, S, H, oriH, double(float(half(1e-5f))), y, m, vv);
    for (int r = 0; r < S; ++r) {
      for (int h = 0; h < oriH; ++h) EXPECT_NEAR(float(out.GetValue(r * H + h)), y[r * H + h], tol(true, y[r * H + h]));
      EXPECT_NEAR(float(mean.GetValue(r)), m[r], tol(true, m[r]));
      EXPECT_NEAR(float(var.GetValue(r)), vv[r], tol(true, vv[r]));
    }
  }
}

TEST(AdvApi, LayerNormNegative) {
  Ub ub;
  auto x = ub.at<float>(0, 64), out = ub.at<float>(1024, 64), gm = ub.at<float>(2048, 32), bt = ub.at<float>(2304, 32);
  auto mean = ub.at<float>(2560, 8), var = ub.at<float>(2816, 8);
  fill(x, rnd(64, 1, -1, 1)); fill(gm, rnd(32, 2, 0, 1)); fill(bt, rnd(32, 3, 0, 1));
  PipeBarrier<PIPE_ALL>();
  LayerNormTiling empty;
  EXPECT_NE(error_of([&] { LayerNorm<float>(out, mean, var, x, gm, bt, 1e-5f, empty); }).find("error[param]"), std::string::npos);
  LayerNormTiling wrong = ln_tiling(1, 2, 32, 32);
  wrong.lastDimValueBack = 1.0f / 64;
  EXPECT_NE(error_of([&] { LayerNorm<float>(out, mean, var, x, gm, bt, 1e-5f, wrong); }).find("error[param]"), std::string::npos);
  LayerNormTiling odd = ln_tiling(1, 2, 30, 30);   // 120-byte rows
  EXPECT_NE(error_of([&] { LayerNorm<float>(out, mean, var, x, gm, bt, 1e-5f, odd); }).find("error[align]"), std::string::npos);
  LayerNormTiling ok = ln_tiling(1, 2, 32, 32);
  std::string e = error_of([&] { LayerNorm<float>(out, x, var, x, gm, bt, 1e-5f, ok); });   // mean aliases inputX
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  EXPECT_EQ(error_of([&] { LayerNorm<float>(x, mean, var, x, gm, bt, 1e-5f, ok); }), "");   // output may alias inputX
}
