// High-level Matmul API (lib/matmul_intf.h) and the host tiling (tiling/tiling_api.h): results against a float64
// reference, the Iterate/GetTensorC block order, multi-core splits, and the TCubeTiling legality checks.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "lib/matmul_intf.h"
#include "sim/launch.h"
#include "sim/matmul_check.h"
#include "sim/testing.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using kgen::sim::error_of;
using kgen::sim::TestCore;

namespace {
template <class T> struct GmBuf {
  T* p;
  size_t n;
  explicit GmBuf(size_t count) : p(static_cast<T*>(GmAlloc(count * sizeof(T)))), n(count) {}
  ~GmBuf() { GmFree(p); }
  GlobalTensor<T> gt() const { GlobalTensor<T> g; g.SetGlobalBuffer(p, n); return g; }
};

template <class T> void fill(GmBuf<T>& b, uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  for (size_t i = 0; i < b.n; ++i) {
    if constexpr (std::is_same_v<T, int8_t>) b.p[i] = static_cast<int8_t>(static_cast<int>(d(g) * 127));
    else b.p[i] = T(d(g));
  }
}

// C = op(A) x op(B) (+ bias) in float64 from the stored (already rounded) inputs.
template <class TA, class TB, class TBias>
std::vector<double> reference(const TA* a, const TB* b, const TBias* bias, int M, int N, int K, bool ta, bool tb) {
  std::vector<double> c(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = bias ? double(float(bias[j])) : 0.0;
      for (int k = 0; k < K; ++k) {
        double av = double(float(ta ? a[size_t(k) * M + i] : a[size_t(i) * K + k]));
        double bv = double(float(tb ? b[size_t(j) * K + k] : b[size_t(k) * N + j]));
        s += av * bv;
      }
      c[size_t(i) * N + j] = s;
    }
  return c;
}

// A host tiling for one core; checks that GetTiling succeeds.
TCubeTiling host_tiling(int M, int N, int K, matmul_tiling::DataType in, matmul_tiling::DataType out, bool bias,
                        bool ta = false, bool tb = false, int baseM = -1, int baseN = -1, int baseK = -1) {
  matmul_tiling::MatmulApiTiling t;
  t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, ta);
  t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, tb);
  t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out);
  t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                in == matmul_tiling::DataType::DT_INT8 ? matmul_tiling::DataType::DT_INT32 : matmul_tiling::DataType::DT_FLOAT);
  t.SetShape(M, N, K);
  t.SetOrgShape(M, N, K);
  t.EnableBias(bias);
  t.SetBufferSpace(-1, -1, -1);
  if (baseM > 0 || baseN > 0 || baseK > 0) t.SetFixSplit(baseM, baseN, baseK);
  TCubeTiling tiling;
  EXPECT_EQ(t.GetTiling(tiling), 0);
  return tiling;
}

template <class T> double max_rel_err(const T* got, const std::vector<double>& ref) {
  double scale = 0, err = 0;
  for (double r : ref) scale = std::max(scale, std::fabs(r));
  for (size_t i = 0; i < ref.size(); ++i) err = std::max(err, std::fabs(double(float(got[i])) - ref[i]));
  return err / (scale > 0 ? scale : 1);
}

using AH = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using AHT = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using CF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CH = MatmulType<TPosition::GM, CubeFormat::ND, half>;
}  // namespace

TEST(MatmulTiling, LegalAndReasonable) {
  using matmul_tiling::DataType;
  struct Case { int M, N, K, dim; DataType dt; bool bias; };
  for (Case c : {Case{1024, 1024, 1024, 8, DataType::DT_FLOAT16, false}, Case{70, 90, 100, 1, DataType::DT_FLOAT16, true},
                 Case{4096, 512, 2048, 48, DataType::DT_FLOAT16, true}, Case{33, 4000, 7, 20, DataType::DT_FLOAT, false},
                 Case{512, 512, 4096, 24, DataType::DT_BF16, true}, Case{256, 300, 1000, 8, DataType::DT_INT8, true},
                 Case{1, 8192, 512, 48, DataType::DT_FLOAT16, false}}) {
    auto plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling t(*plat);
    t.SetDim(c.dim);
    DataType out = c.dt == DataType::DT_INT8 ? DataType::DT_INT32 : DataType::DT_FLOAT;
    DataType bdt = c.dt == DataType::DT_INT8 ? DataType::DT_INT32 : DataType::DT_FLOAT;
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, c.dt);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, c.dt);
    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out);
    t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, bdt);
    t.SetShape(c.M, c.N, c.K);
    t.SetOrgShape(c.M, c.N, c.K);
    t.EnableBias(c.bias);
    t.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling host;
    ASSERT_EQ(t.GetTiling(host), 0) << c.M << "x" << c.N << "x" << c.K;
    TCubeTiling k;
    ASSERT_EQ(t.GetTiling(k), 0);
    EXPECT_EQ(host.get_baseM(), k.baseM);
    EXPECT_EQ(host.get_usedCoreNum(), k.usedCoreNum);
    // legal by the kernel side's own checker
    kgen::sim::MmCheckInfo in;
    in.a_size = in.b_size = c.dt == DataType::DT_FLOAT ? 4 : c.dt == DataType::DT_INT8 ? 1 : 2;
    in.bias_size = 4;
    in.trans_known = true;
    in.max_cores = plat->GetCoreNumAiv();
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L1, in.l1);
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, in.l0a);
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, in.l0b);
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, in.l0c);
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::BT, in.bt);
    EXPECT_EQ(kgen::sim::mm_check_tiling(k, in), "");
    // reasonable: the cores are used, every core's block is covered, base blocks no larger than the work
    EXPECT_LE(k.usedCoreNum, c.dim);
    EXPECT_GE(k.usedCoreNum, std::min(c.dim, 2 * ((c.M + 15) / 16 > 1 ? 1 : 1)));
    EXPECT_GE(int64_t(k.singleCoreM) * ((c.M + k.singleCoreM - 1) / k.singleCoreM), c.M);
    EXPECT_LE(k.baseM, std::max(16, (k.singleCoreM + 15) / 16 * 16));
    EXPECT_LE(k.baseN, std::max(16, (k.singleCoreN + 15) / 16 * 16));
    EXPECT_EQ(k.singleCoreK, c.K);
    EXPECT_EQ(k.isBias, c.bias ? 1 : 0);
    int32_t dim, md, nd;
    t.GetCoreNum(dim, md, nd);
    EXPECT_EQ(dim, md * nd);
    EXPECT_EQ(dim, k.usedCoreNum);
  }
  // The best-practice base block for a large fp16 problem on one core
  TCubeTiling big = host_tiling(2048, 2048, 2048, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, false);
  EXPECT_EQ(big.baseM, 128);
  EXPECT_EQ(big.baseN, 256);
  EXPECT_EQ(big.baseK, 64);
  EXPECT_EQ(big.dbL0A, 2);
  EXPECT_EQ(big.dbL0B, 2);
  // A fixed split that cannot fit L0A is refused
  matmul_tiling::MatmulApiTiling bad;
  bad.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  bad.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  bad.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  bad.SetShape(512, 512, 512);
  bad.SetOrgShape(512, 512, 512);
  bad.SetFixSplit(256, 256, 128);
  TCubeTiling out;
  EXPECT_EQ(bad.GetTiling(out), -1);
}

TEST(MatmulApi, Fp16ToFloatWithBiasUnalignedShapes) {
  TestCore tc;
  const int M = 70, N = 90, K = 100;
  GmBuf<half> a(M * K), b(K * N);
  GmBuf<float> bias(N), c(M * N);
  fill(a, 1); fill(b, 2); fill(bias, 3);
  TCubeTiling tiling = host_tiling(M, N, K, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT,
                                   true, false, false, 32, 48, 32);   // several blocks along M, N and K, with tails
  TPipe pipe;
  Matmul<AH, AH, CF> mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);
  mm.SetTensorA(a.gt());
  mm.SetTensorB(b.gt());
  mm.SetBias(bias.gt());
  mm.IterateAll(c.gt());
  mm.End();
  auto ref = reference(a.p, b.p, bias.p, M, N, K, false, false);
  EXPECT_LT(max_rel_err(c.p, ref), 1e-5);
}

TEST(MatmulApi, TransposedAAndBHalfOutput) {
  TestCore tc;
  const int M = 40, N = 56, K = 72;
  GmBuf<half> a(K * M), b(N * K), c(M * N);
  fill(a, 4); fill(b, 5);
  TCubeTiling tiling = host_tiling(M, N, K, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT16,
                                   false, true, true, 16, 32, 32);
  TPipe pipe;
  Matmul<AHT, AHT, CH> mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);
  mm.SetTensorA(a.gt(), true);
  mm.SetTensorB(b.gt(), true);
  mm.IterateAll(c.gt());
  auto ref = reference(a.p, b.p, static_cast<const float*>(nullptr), M, N, K, true, true);
  // fp32 accumulation, one rounding to half at the output: within half an ulp of half
  for (size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(float(c.p[i]), ref[i], std::fabs(ref[i]) * 1e-3 + 1e-3) << i;
  // ISTRANS = false refuses a transpose
  Matmul<AH, AH, CH> plain;
  REGIST_MATMUL_OBJ(&pipe, nullptr, plain, &tiling);
  EXPECT_NE(error_of([&] { plain.SetTensorA(a.gt(), true); }).find("error[param]"), std::string::npos);
}

TEST(MatmulApi, IterateGetTensorCOrder) {
  for (int order : {0, 1}) {
    TestCore tc;
    const int M = 50, N = 70, K = 40;
    GmBuf<half> a(M * K), b(K * N);
    GmBuf<float> blk(32 * 32);
    fill(a, 6); fill(b, 7);
    TCubeTiling tiling = host_tiling(M, N, K, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT,
                                     false, false, false, 32, 32, 16);
    tiling.iterateOrder = order;
    TPipe pipe;
    Matmul<AH, AH, CF> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);
    mm.SetTensorA(a.gt());
    mm.SetTensorB(b.gt());
    auto ref = reference(a.p, b.p, static_cast<const float*>(nullptr), M, N, K, false, false);
    int mIter = 2, nIter = 3, n = 0;
    while (mm.Iterate()) {
      mm.GetTensorC(blk.gt(), 0, true);   // sequential write: the block packed as [baseM, baseN]
      int mi = order == 0 ? n % mIter : n / nIter, ni = order == 0 ? n / mIter : n % nIter;
      int cm = std::min(32, M - mi * 32), cn = std::min(32, N - ni * 32);
      for (int i = 0; i < cm; ++i)
        for (int j = 0; j < cn; ++j)
          ASSERT_NEAR(blk.p[i * 32 + j], ref[size_t(mi * 32 + i) * N + ni * 32 + j], 1e-4) << "block " << n;
      ++n;
    }
    EXPECT_EQ(n, mIter * nIter);
    EXPECT_NE(error_of([&] { mm.GetTensorC(blk.gt()); }).find("error[param]"), std::string::npos);
  }
}

TEST(MatmulApi, TensorCToUbAndSetTail) {
  TestCore tc;
  EXPECT_EQ(error_of([&] {
  const int M = 64, N = 64, K = 48;
  GmBuf<bfloat16_t> a(M * K), b(K * N);
  fill(a, 8); fill(b, 9);
  matmul_tiling::MatmulApiTiling t;
  t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_BF16);
  t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_BF16);
  t.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  t.SetShape(M, N, K);
  t.SetOrgShape(M, N, K);
  t.SetFixSplit(32, 32, 16);
  TCubeTiling tiling;
  ASSERT_EQ(t.GetTiling(tiling), 0);
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>, MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>,
         MatmulType<TPosition::VECIN, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 32 * 32 * sizeof(float));
  mm.SetTensorA(a.gt());
  mm.SetTensorB(b.gt());
  mm.SetTail(40, 20, K);   // this core's share is 40 x 20: blocks 32x20 and 8x20
  auto ref = reference(a.p, b.p, static_cast<const float*>(nullptr), M, N, K, false, false);
  int n = 0;
  while (mm.Iterate()) {
    LocalTensor<float> cl = q.AllocTensor<float>();
    mm.GetTensorC(cl);
    q.EnQue(cl);
    LocalTensor<float> got = q.DeQue<float>();
    int cm = n == 0 ? 32 : 8;
    for (int i = 0; i < cm; ++i)
      for (int j = 0; j < 20; ++j)   // rows of CeilAlign(20, 8) = 24 floats
        ASSERT_NEAR(got.GetValue(i * 24 + j), ref[size_t(n * 32 + i) * N + j], 1e-4) << n << " " << i << " " << j;
    q.FreeTensor(got);
    ++n;
  }
  EXPECT_EQ(n, 2);
  }), "");
}

TEST(MatmulApi, Int8ToInt32Exact) {
  TestCore tc;
  EXPECT_EQ(error_of([&] {
  const int M = 33, N = 47, K = 130;
  GmBuf<int8_t> a(M * K), b(K * N);
  GmBuf<int32_t> bias(N), c(M * N);
  fill(a, 10); fill(b, 11);
  for (int j = 0; j < N; ++j) bias.p[j] = j * 1000 - 7;
  TCubeTiling tiling = host_tiling(M, N, K, matmul_tiling::DataType::DT_INT8, matmul_tiling::DataType::DT_INT32, true);
  TPipe pipe;
  using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  Matmul<I8, I8, I32> mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);
  mm.SetTensorA(a.gt());
  mm.SetTensorB(b.gt());
  mm.SetBias(bias.gt());
  mm.IterateAll(c.gt());
  auto ref = reference(a.p, b.p, bias.p, M, N, K, false, false);
  for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(c.p[i], static_cast<int32_t>(ref[i])) << i;
  }), "");
}

TEST(MatmulApi, FloatInputs) {
  TestCore tc;
  const int M = 24, N = 40, K = 300;
  GmBuf<float> a(M * K), b(K * N), c(M * N);
  fill(a, 12); fill(b, 13);
  TCubeTiling tiling = host_tiling(M, N, K, matmul_tiling::DataType::DT_FLOAT, matmul_tiling::DataType::DT_FLOAT, false);
  TPipe pipe;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<F, F, F> mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);
  mm.SetTensorA(a.gt());
  mm.SetTensorB(b.gt());
  mm.IterateAll(c.gt());
  EXPECT_LT(max_rel_err(c.p, reference(a.p, b.p, static_cast<const float*>(nullptr), M, N, K, false, false)), 1e-5);
}

namespace {
GM_ADDR g_a;
GM_ADDR g_b;
GM_ADDR g_c;
TCubeTiling g_tiling;
// The CANN multi-core pattern: each core offsets A/B/C by its block of singleCoreM x singleCoreN, tails via SetTail.
void mm_multicore_kernel() {
  TPipe pipe;
  Matmul<AH, AH, CF> mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &g_tiling);
  const TCubeTiling& t = g_tiling;
  int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
  int mi = GetBlockIdx() % mBlocks, ni = GetBlockIdx() / mBlocks;
  int tailM = std::min(t.singleCoreM, t.M - mi * t.singleCoreM), tailN = std::min(t.singleCoreN, t.N - ni * t.singleCoreN);
  GlobalTensor<half> a, b;
  GlobalTensor<float> c;
  a.SetGlobalBuffer(reinterpret_cast<half*>(g_a) + size_t(mi) * t.singleCoreM * t.Ka);
  b.SetGlobalBuffer(reinterpret_cast<half*>(g_b) + size_t(ni) * t.singleCoreN);
  c.SetGlobalBuffer(reinterpret_cast<float*>(g_c) + size_t(mi) * t.singleCoreM * t.N + size_t(ni) * t.singleCoreN);
  mm.SetTail(tailM, tailN);
  mm.SetTensorA(a);
  mm.SetTensorB(b);
  mm.IterateAll(c);
  mm.End();
}
}  // namespace

TEST(MatmulApi, MultiCoreSplitOverMAndN) {
  const int M = 200, N = 330, K = 64;
  GmBuf<half> a(M * K), b(K * N);
  GmBuf<float> c(M * N);
  fill(a, 14); fill(b, 15);
  matmul_tiling::MultiCoreMatmulTiling t;
  t.SetDim(8);
  t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  t.SetShape(M, N, K);
  t.SetOrgShape(M, N, K);
  ASSERT_EQ(t.GetTiling(g_tiling), 0);
  ASSERT_GT(g_tiling.usedCoreNum, 1);
  int32_t dim, md, nd;
  t.GetCoreNum(dim, md, nd);
  EXPECT_GT(md, 1);
  EXPECT_GT(nd, 1);
  g_a = reinterpret_cast<GM_ADDR>(a.p); g_b = reinterpret_cast<GM_ADDR>(b.p); g_c = reinterpret_cast<GM_ADDR>(c.p);
  kgen::sim::set_throw_on_error(true);
  ICPU_RUN_KF(mm_multicore_kernel, g_tiling.usedCoreNum);
  EXPECT_LT(max_rel_err(c.p, reference(a.p, b.p, static_cast<const float*>(nullptr), M, N, K, false, false)), 1e-5);
  // Without SetTail the tail cores write past C (and read past A): caught by the GM checks
  // (covered in the examples; here the full-coverage run above is the point)
}

TEST(MatmulApi, IllegalTilingsAreParamErrors) {
  TestCore tc;
  TCubeTiling good = host_tiling(256, 256, 256, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, false);
  auto err = [&](auto edit) {
    TCubeTiling t = good;
    edit(t);
    TPipe pipe;
    Matmul<AH, AH, CF> mm;
    return error_of([&] { REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t); });
  };
  auto expect = [](const std::string& e, const char* what) {
    EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  EXPECT_EQ(err([](TCubeTiling&) {}), "");
  expect(err([](TCubeTiling& t) { t.baseM = 256; t.baseK = 128; t.dbL0A = 2; }), "exceeds L0A");
  expect(err([](TCubeTiling& t) { t.baseN = 256; t.baseK = 128; t.dbL0B = 2; }), "exceeds L0B");
  expect(err([](TCubeTiling& t) { t.baseM = 256; t.baseN = 256; t.baseK = 16; t.dbL0C = 1; }), "exceeds L0C");
  expect(err([](TCubeTiling& t) { t.depthA1 = t.stepM * t.stepKa * 2 + 1; }), "depthA1");
  expect(err([](TCubeTiling& t) { t.stepKa = t.stepKb = 64; t.depthA1 = t.depthB1 = 128; t.baseK = 64; }), "exceeds L1");
  expect(err([](TCubeTiling& t) { t.usedCoreNum = 100; }), "usedCoreNum");
  expect(err([](TCubeTiling& t) { t.baseM = 40; }), "baseM");
  expect(err([](TCubeTiling& t) { t.singleCoreK = 512; }), "singleCoreK");
  expect(err([](TCubeTiling& t) { t.dbL0C = 3; }), "dbL0C");
}

TEST(MatmulApi, RegistrationRules) {
  TestCore tc;
  TCubeTiling t = host_tiling(64, 64, 64, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, false);
  {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    Matmul<AH, AH, CF> mm;
    std::string e = error_of([&] { REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t); });
    EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
    EXPECT_NE(e.find("before the"), std::string::npos) << e;
  }
  {
    TPipe pipe;
    Matmul<AH, AH, CF> m1, m2, m3, m4, m5;
    EXPECT_EQ(error_of([&] { REGIST_MATMUL_OBJ(&pipe, nullptr, m1, &t, m2, &t, m3, &t, m4, &t); }), "");
    std::string e = error_of([&] { REGIST_MATMUL_OBJ(&pipe, nullptr, m5, &t); });
    EXPECT_NE(e.find("at most 4"), std::string::npos) << e;
  }
  {
    // an object used without registration or Init
    Matmul<AH, AH, CF> mm;
    GmBuf<half> a(64 * 64);
    EXPECT_NE(error_of([&] { mm.SetTensorA(a.gt()); }).find("error[param]"), std::string::npos);
  }
}

TEST(MatmulApi, OperandBoundsAndBiasChecks) {
  TestCore tc;
  TCubeTiling t = host_tiling(64, 64, 64, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, true);
  GmBuf<half> a(64 * 64 - 8), b(64 * 64);
  GmBuf<float> c(64 * 64), bias(64);
  TPipe pipe;
  Matmul<AH, AH, CF> mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
  mm.SetTensorA(a.gt());
  mm.SetTensorB(b.gt());
  std::string e = error_of([&] { mm.IterateAll(c.gt()); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;   // isBias = 1 but no SetBias
  EXPECT_NE(e.find("SetBias"), std::string::npos) << e;
  mm.SetBias(bias.gt());
  e = error_of([&] { mm.IterateAll(c.gt()); });
  EXPECT_NE(e.find("error[gm-out-of-bounds]"), std::string::npos) << e;   // A is 8 elements short
  GmBuf<half> a2(64 * 64);
  GmBuf<float> c2(64 * 63);
  mm.SetTensorA(a2.gt());
  e = error_of([&] { mm.IterateAll(c2.gt()); });
  EXPECT_NE(e.find("error[gm-out-of-bounds]"), std::string::npos) << e;   // C is a row short
}

// The bias type is checked when a bias is set: a BIAS_TYPE no combination takes is harmless while unused
// (NPUKernelBench's InplaceFusedMatmulSoftmaxGrad declares bfloat16 for bfloat16 x bfloat16 -> float, sets none).
TEST(MatmulApi, BiasTypeCheckedAtSetBias) {
  TestCore tc;
  using AB = MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>;
  using BiasI = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  TCubeTiling t = host_tiling(64, 64, 64, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, false);
  TPipe pipe;
  Matmul<AB, AB, CF, BiasI> mm;
  EXPECT_EQ(error_of([&] { REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t); }), "");
  GmBuf<int32_t> bias(64);
  std::string e = error_of([&] { mm.SetBias(bias.gt()); });
  EXPECT_NE(e.find("error[dtype]"), std::string::npos) << e;
  EXPECT_NE(e.find("a bias of int32_t"), std::string::npos) << e;
}

TEST(MatmulApi, TraceRecordsCubePipes) {
  TestCore tc;
  kgen::sim::g_trace_on = true;
  TCubeTiling t = host_tiling(64, 64, 128, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT,
                              false, false, false, 32, 64, 64);
  GmBuf<half> a(64 * 128), b(128 * 64);
  GmBuf<float> c(64 * 64);
  TPipe pipe;
  Matmul<AH, AH, CF> mm;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
  mm.SetTensorA(a.gt());
  mm.SetTensorB(b.gt());
  mm.IterateAll(c.gt());
  int mmad = 0, fix = 0, mte1 = 0;
  for (const auto& r : tc.core().trace) {
    if (r.kind != kgen::sim::TraceRec::Instr) continue;
    if (r.pipe == kgen::sim::kM) {
      ++mmad;
      EXPECT_EQ(r.cube_m, 32u);
      EXPECT_EQ(r.cube_n, 64u);
      EXPECT_EQ(r.cube_k, 64u);
      EXPECT_EQ(r.repeats, 2u * 4u * 4u);   // fractals: 2 x 4 x (64/16)
    }
    if (r.pipe == kgen::sim::kFIX) ++fix;
    if (r.pipe == kgen::sim::kMTE1) ++mte1;
  }
  EXPECT_EQ(mmad, 2 * 2);   // 2 blocks along M x 2 k blocks
  EXPECT_EQ(fix, 2);
  EXPECT_EQ(mte1, 2 * mmad);
  kgen::sim::g_trace_on = false;
}
