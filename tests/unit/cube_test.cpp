// The low-level cube path: DataCopy with Nd2NzParams, LoadData / LoadDataWithTranspose, Mmad, Fixpipe, and the
// bias-table copy. Results are compared against a float64 reference computed here; every negative category the
// cube files raise has a test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/gm_races.h"
#include "sim/testing.h"
#include "tikicpulib.h"

using namespace AscendC;
using kgen::sim::error_of;
using kgen::sim::TestCore;

namespace {
::testing::AssertionResult IsError(const std::string& e, const char* cat, const char* api) {
  if (e.find(std::string("error[") + cat + "]") == std::string::npos)
    return ::testing::AssertionFailure() << "expected category " << cat << ", got: '" << e << "'";
  if (e.find(std::string(" ") + api + ": ") == std::string::npos)
    return ::testing::AssertionFailure() << "expected API " << api << ", got: '" << e << "'";
  return ::testing::AssertionSuccess();
}
#define EXPECT_SIM_ERROR(stmt, cat, api) EXPECT_TRUE(IsError(error_of([&] { stmt; }), cat, api))
// Runs a correct pipeline: any emulator error fails the test with its line.
#define NO_SIM_ERROR(...) ASSERT_EQ(error_of([&] { __VA_ARGS__; }), "")

template <class T> struct Gm {
  T* p;
  size_t n;
  explicit Gm(size_t count) : p(static_cast<T*>(GmAlloc(count * sizeof(T)))), n(count) {}
  ~Gm() { GmFree(p); }
  GlobalTensor<T> tensor() const { GlobalTensor<T> g; g.SetGlobalBuffer(p, n); return g; }
  T& operator[](size_t i) { return p[i]; }
};

uint32_t up(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

// A cube core with L1 / L0A / L0B / L0C / bias-table buffers.
struct Cube {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B1> b1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  TBuf<TPosition::C1> c1;
  TBuf<TPosition::C2> c2;
  explicit Cube(const char* soc = "Ascend910B2") : tc(soc) {
    tc.core().kind = kgen::sim::CoreKind::AIC;
    kgen::sim::gm_races_reset();   // GM allocations of earlier tests may reuse these addresses
    pipe.InitBuffer(a1, 128 * 1024);
    pipe.InitBuffer(b1, 128 * 1024);
    pipe.InitBuffer(a2, 64 * 1024);
    pipe.InitBuffer(b2, 64 * 1024);
    pipe.InitBuffer(co1, 128 * 1024);
    pipe.InitBuffer(c1, 4 * 1024);
    pipe.InitBuffer(c2, 1024);
  }
  ~Cube() { kgen::sim::gm_races_reset(); }   // leave no GM history for later tests
};
void barrier() { PipeBarrier<PIPE_ALL>(); }

// Deterministic pseudo-random values in [-1, 1) or small integers.
double rnd(uint32_t& s) { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xffff) / 32768.0 - 1.0; }

// C[M x N] = A[M x K] * B[K x N] in float64 from the values as stored (after rounding to T).
template <class T> std::vector<double> ref_mm(const std::vector<T>& a, const std::vector<T>& b, uint32_t M, uint32_t N,
                                              uint32_t K) {
  std::vector<double> c(static_cast<size_t>(M) * N, 0.0);
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      double s = 0;
      for (uint32_t k = 0; k < K; ++k) s += static_cast<double>(a[i * K + k]) * static_cast<double>(b[k * N + j]);
      c[i * N + j] = s;
    }
  return c;
}

// Runs GM(A, ND M x K) -> A1 (Nd2Nz) -> A2 (LoadData per k-block) and GM(B^T, ND N x K) -> B1 (Nd2Nz) -> B2
// (one LoadData): B^T in NZ is already B's ZN fractal order. Then Mmad and Fixpipe (ND) to C.
template <class T, class TC, class TO>
void run_mm(Cube& cu, const std::vector<T>& a, const std::vector<T>& b, uint32_t M, uint32_t N, uint32_t K,
            std::vector<TO>& out, QuantMode_t q, uint64_t deq = 0, bool relu = false) {
  const uint32_t c0 = 32 / sizeof(T);
  const uint32_t mB = up(M, 16) / 16, nB = up(N, 16) / 16, kB = up(K, c0) / c0;
  Gm<T> ga(a.size()), gbt(static_cast<size_t>(N) * K);
  for (size_t i = 0; i < a.size(); ++i) ga[i] = a[i];
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t j = 0; j < N; ++j) gbt[static_cast<size_t>(j) * K + k] = b[static_cast<size_t>(k) * N + j];
  Gm<TO> gc(static_cast<size_t>(M) * N);
  auto A1 = cu.a1.Get<T>();
  auto B1 = cu.b1.Get<T>();
  auto A2 = cu.a2.Get<T>();
  auto B2 = cu.b2.Get<T>();
  auto C = cu.co1.Get<TC>();
  DataCopy(A1, ga.tensor(), Nd2NzParams(1, M, K, 0, K, mB * 16, 1, 0));
  DataCopy(B1, gbt.tensor(), Nd2NzParams(1, N, K, 0, K, nB * 16, 1, 0));
  barrier();
  for (uint32_t kb = 0; kb < kB; ++kb)
    LoadData(A2[kb * 512 / sizeof(T)], A1[kb * mB * 512 / sizeof(T)],
             LoadData2DParams(0, static_cast<uint8_t>(mB), 1, 0, static_cast<uint16_t>(kB - 1), false, 0));
  LoadData(B2, B1, LoadData2DParams(0, static_cast<uint8_t>(kB * nB), 1, 0, 0, false, 0));
  barrier();
  MmadParams mp;
  mp.m = M; mp.n = N; mp.k = K;
  Mmad(C, A2, B2, mp);
  barrier();
  FixpipeParamsV220 fp;
  fp.nSize = N; fp.mSize = M; fp.srcStride = mB * 16; fp.dstStride = N; fp.quantPre = q; fp.deqScalar = deq;
  fp.reluEn = relu;
  Fixpipe(gc.tensor(), C, fp);
  barrier();
  out.assign(gc.p, gc.p + static_cast<size_t>(M) * N);
  kgen::sim::gm_races_reset();
}

// max |c - ref| / (sum_k |a||b| + tiny): the error scale of a float accumulation.
template <class T, class TO>
double max_rel_err(const std::vector<TO>& c, const std::vector<T>& a, const std::vector<T>& b, uint32_t M, uint32_t N,
                   uint32_t K) {
  std::vector<double> r = ref_mm(a, b, M, N, K);
  double worst = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      double mag = 1e-30;
      for (uint32_t k = 0; k < K; ++k)
        mag += std::fabs(static_cast<double>(a[i * K + k]) * static_cast<double>(b[k * N + j]));
      worst = std::max(worst, std::fabs(static_cast<double>(c[i * N + j]) - r[i * N + j]) / mag);
    }
  return worst;
}

template <class T> std::vector<T> rand_mat(size_t n, uint32_t seed, double scale = 1.0) {
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rnd(seed) * scale);
  return v;
}
}  // namespace

// ---------------------------------------------------------------- numbers
TEST(Cube, HalfAligned) {
  Cube cu;
  const uint32_t M = 32, N = 48, K = 64;
  auto a = rand_mat<half>(M * K, 1), b = rand_mat<half>(K * N, 2);
  std::vector<float> c;
  NO_SIM_ERROR(run_mm<half, float>(cu, a, b, M, N, K, c, NoQuant));
  EXPECT_LT(max_rel_err(c, a, b, M, N, K), 1e-6);
}

TEST(Cube, HalfUnalignedMNK) {
  Cube cu;
  const uint32_t M = 30, N = 40, K = 70;   // the guide's padding example
  auto a = rand_mat<half>(M * K, 3), b = rand_mat<half>(K * N, 4);
  std::vector<float> c;
  NO_SIM_ERROR(run_mm<half, float>(cu, a, b, M, N, K, c, NoQuant));
  EXPECT_LT(max_rel_err(c, a, b, M, N, K), 1e-6);
}

TEST(Cube, HalfToHalfOutputF322F16) {
  Cube cu;
  const uint32_t M = 16, N = 32, K = 48;
  auto a = rand_mat<half>(M * K, 5), b = rand_mat<half>(K * N, 6);
  std::vector<half> c;
  NO_SIM_ERROR(run_mm<half, float>(cu, a, b, M, N, K, c, F322F16));
  EXPECT_LT(max_rel_err(c, a, b, M, N, K), 1e-3);   // fp16 output: ~2^-11 relative
}

TEST(Cube, Bf16Float) {
  Cube cu;
  const uint32_t M = 20, N = 17, K = 33;
  auto a = rand_mat<bfloat16_t>(M * K, 7), b = rand_mat<bfloat16_t>(K * N, 8);
  std::vector<float> c;
  NO_SIM_ERROR(run_mm<bfloat16_t, float>(cu, a, b, M, N, K, c, NoQuant));
  EXPECT_LT(max_rel_err(c, a, b, M, N, K), 1e-6);
  std::vector<bfloat16_t> cb;
  NO_SIM_ERROR(run_mm<bfloat16_t, float>(cu, a, b, M, N, K, cb, F322BF16));
  EXPECT_LT(max_rel_err(cb, a, b, M, N, K), 8e-3);
}

TEST(Cube, FloatFloat) {
  Cube cu;
  const uint32_t M = 17, N = 33, K = 21;   // k0 = 8 for float
  auto a = rand_mat<float>(M * K, 9), b = rand_mat<float>(K * N, 10);
  std::vector<float> c;
  NO_SIM_ERROR(run_mm<float, float>(cu, a, b, M, N, K, c, NoQuant));
  EXPECT_LT(max_rel_err(c, a, b, M, N, K), 1e-6);
}

TEST(Cube, Int8ExactAndRelu) {
  Cube cu;
  const uint32_t M = 16, N = 32, K = 40;   // k0 = 32 for int8
  std::vector<int8_t> a(M * K), b(K * N);
  uint32_t s = 11;
  for (auto& x : a) x = static_cast<int8_t>(static_cast<int>(rnd(s) * 127));
  for (auto& x : b) x = static_cast<int8_t>(static_cast<int>(rnd(s) * 127));
  std::vector<int32_t> c;
  NO_SIM_ERROR(run_mm<int8_t, int32_t>(cu, a, b, M, N, K, c, NoQuant));
  auto r = ref_mm(a, b, M, N, K);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], static_cast<int32_t>(r[i])) << i;
  NO_SIM_ERROR(run_mm<int8_t, int32_t>(cu, a, b, M, N, K, c, NoQuant, 0, true));
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], std::max(0, static_cast<int32_t>(r[i]))) << i;
}

TEST(Cube, Int8DeqF16Scalar) {
  Cube cu;
  const uint32_t M = 16, N = 16, K = 32;
  std::vector<int8_t> a(M * K), b(K * N);
  uint32_t s = 12;
  for (auto& x : a) x = static_cast<int8_t>(static_cast<int>(rnd(s) * 20));
  for (auto& x : b) x = static_cast<int8_t>(static_cast<int>(rnd(s) * 20));
  float scale = 0.5f;
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  std::vector<half> c;
  NO_SIM_ERROR(run_mm<int8_t, int32_t>(cu, a, b, M, N, K, c, DEQF16, bits));
  auto r = ref_mm(a, b, M, N, K);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(static_cast<float>(c[i]), static_cast<float>(half(r[i] * 0.5))) << i;
}

// The guide's pipeline (0352 example 1): B as ND K x N through LoadDataWithTranspose (b16).
TEST(Cube, HalfLoadDataWithTranspose) {
  Cube cu;
  const uint32_t M = 32, N = 32, K = 32, mB = 2, nB = 2, kB = 2;
  auto a = rand_mat<half>(M * K, 13), b = rand_mat<half>(K * N, 14);
  Gm<half> ga(M * K), gb(K * N);
  Gm<half> gc(M * N);
  for (uint32_t i = 0; i < M * K; ++i) ga[i] = a[i];
  for (uint32_t i = 0; i < K * N; ++i) gb[i] = b[i];
  auto A1 = cu.a1.Get<half>();
  auto B1 = cu.b1.Get<half>();
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  auto C = cu.co1.Get<float>();
  DataCopy(A1, ga.tensor(), Nd2NzParams(1, M, K, 0, K, M, 1, 0));
  DataCopy(B1, gb.tensor(), Nd2NzParams(1, K, N, 0, N, K, 1, 0));
  barrier();
  LoadData2dParams la;
  la.repeatTimes = mB; la.srcStride = 1; la.dstGap = kB - 1;
  for (uint32_t i = 0; i < kB; ++i) LoadData(A2[i * 256], A1[i * M * 16], la);
  // B1 column block nb holds fractals (kb, nb) at nb*kB + kb; ZN wants kb*nB + nb.
  for (uint32_t nb = 0; nb < nB; ++nb) {
    LoadData2dTransposeParams t;
    t.startIndex = nb * kB; t.repeatTimes = kB; t.srcStride = 1; t.dstGap = nB - 1;
    LoadDataWithTranspose(B2[nb * 256], B1, t);
  }
  barrier();
  Mmad(C, A2, B2, MmadParams(M, N, K, 0, false, true));
  barrier();
  FixpipeParamsV220 fp(N, M, M, N, false);
  fp.quantPre = QuantMode_t::F322F16;
  Fixpipe(gc.tensor(), C, fp);
  std::vector<half> c(gc.p, gc.p + M * N);
  EXPECT_LT(max_rel_err(c, a, b, M, N, K), 1e-3);
}

// b32 transpose (asc-devkit sample load_data_with_transpose_b32: m, n, k = 16, 32, 16).
TEST(Cube, FloatLoadDataWithTranspose) {
  Cube cu;
  const uint32_t M = 16, N = 32, K = 16;
  auto a = rand_mat<float>(M * K, 15), b = rand_mat<float>(K * N, 16);
  Gm<float> ga(M * K), gb(K * N), gc(M * N);
  for (uint32_t i = 0; i < M * K; ++i) ga[i] = a[i];
  for (uint32_t i = 0; i < K * N; ++i) gb[i] = b[i];
  auto A1 = cu.a1.Get<float>();
  auto B1 = cu.b1.Get<float>();
  auto A2 = cu.a2.Get<float>();
  auto B2 = cu.b2.Get<float>();
  auto C = cu.co1.Get<float>();
  DataCopy(A1, ga.tensor(), Nd2NzParams(1, M, K, 0, K, M, 1, 0));
  DataCopy(B1, gb.tensor(), Nd2NzParams(1, K, N, 0, N, K, 1, 0));
  barrier();
  LoadData2DParams la;
  la.repeatTimes = M * K * 4 / 512; la.srcStride = 1;
  LoadData(A2, A1, la);   // M = 16: A1's NZ column blocks are exactly ZZ's fractal order
  LoadData2dTransposeParams t;
  t.repeatTimes = N / 16; t.srcStride = 1; t.dstGap = 0; t.dstFracGap = N / 16 - 1;
  LoadDataWithTranspose(B2, B1, t);
  barrier();
  Mmad(C, A2, B2, MmadParams(M, N, K, 0, false, true));
  barrier();
  Fixpipe(gc.tensor(), C, FixpipeParamsV220(N, M, M, N, false));
  std::vector<float> c(gc.p, gc.p + M * N);
  EXPECT_LT(max_rel_err(c, a, b, M, N, K), 1e-6);
}

// b8 transpose (guide 0342 example 1: m, k, n = 16, 32, 64).
TEST(Cube, Int8LoadDataWithTranspose) {
  Cube cu;
  const uint32_t M = 16, N = 64, K = 32;
  std::vector<int8_t> a(M * K), b(K * N);
  uint32_t s = 17;
  for (auto& x : a) x = static_cast<int8_t>(static_cast<int>(rnd(s) * 100));
  for (auto& x : b) x = static_cast<int8_t>(static_cast<int>(rnd(s) * 100));
  Gm<int8_t> ga(M * K), gb(K * N);
  Gm<int32_t> gc(M * N);
  for (uint32_t i = 0; i < M * K; ++i) ga[i] = a[i];
  for (uint32_t i = 0; i < K * N; ++i) gb[i] = b[i];
  auto A1 = cu.a1.Get<int8_t>();
  auto B1 = cu.b1.Get<int8_t>();
  auto A2 = cu.a2.Get<int8_t>();
  auto B2 = cu.b2.Get<int8_t>();
  auto C = cu.co1.Get<int32_t>();
  DataCopy(A1, ga.tensor(), Nd2NzParams(1, M, K, 0, K, M, 1, 0));
  DataCopy(B1, gb.tensor(), Nd2NzParams(1, K, N, 0, N, K, 1, 0));
  barrier();
  LoadData2DParams la;
  la.repeatTimes = M * K / 512; la.srcStride = 1;
  LoadData(A2, A1, la);
  LoadData2dTransposeParams t;
  t.repeatTimes = N / 32; t.srcStride = 1; t.dstGap = 1; t.dstFracGap = 0;
  LoadDataWithTranspose(B2, B1, t);
  barrier();
  Mmad(C, A2, B2, MmadParams(M, N, K, 0, false, true));
  barrier();
  Fixpipe(gc.tensor(), C, FixpipeParamsV220(N, M, M, N, false));
  auto r = ref_mm(a, b, M, N, K);
  for (uint32_t i = 0; i < M * N; ++i) ASSERT_EQ(gc[i], static_cast<int32_t>(r[i])) << i;
}

TEST(Cube, GemvReadsAAsNd) {
  Cube cu;
  const uint32_t N = 32, K = 48;
  auto a = rand_mat<half>(K, 18), b = rand_mat<half>(K * N, 19);
  Gm<half> gbt(N * K);
  Gm<float> gc(N);
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t j = 0; j < N; ++j) gbt[j * K + k] = b[k * N + j];
  auto A2 = cu.a2.Get<half>();
  auto B1 = cu.b1.Get<half>();
  auto B2 = cu.b2.Get<half>();
  auto C = cu.co1.Get<float>();
  // A as ND in L0A, written through GM -> A2 Load2D (one fractal holds K = 48 halves).
  Gm<half> ga(256);
  for (uint32_t k = 0; k < 256; ++k) ga[k] = k < K ? a[k] : half(0);
  LoadData(A2, ga.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  DataCopy(B1, gbt.tensor(), Nd2NzParams(1, N, K, 0, K, N, 1, 0));
  barrier();
  LoadData(B2, B1, LoadData2DParams(0, 3 * 2, 1, 0, 0, false, 0));
  barrier();
  Mmad(C, A2, B2, MmadParams(1, N, K, 0, false, true));
  barrier();
  Fixpipe(gc.tensor(), C, FixpipeParamsV220(N, 1, 16, N, false));
  std::vector<float> c(gc.p, gc.p + N);
  EXPECT_LT(max_rel_err(c, a, b, 1, N, K), 1e-6);
}

TEST(Cube, AccumulateOverKAndBias) {
  std::string err = error_of([&] {
  Cube cu;
  const uint32_t M = 16, N = 16, K = 64;
  auto a = rand_mat<half>(M * K, 20), b = rand_mat<half>(K * N, 21);
  std::vector<float> full;
  NO_SIM_ERROR(run_mm<half, float>(cu, a, b, M, N, K, full, NoQuant));
  // Two k halves through ZZ/ZN views: A2 fractals (0, kb), B2 fractals (kb, 0).
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  auto C = cu.co1.Get<float>();
  Gm<float> gc(M * N);
  MmadParams p(M, N, 32, 0, false, true);
  Mmad(C, A2, B2, p);
  MmadParams p2(M, N, 32, 0, false, false);   // cmatrixInitVal = false: accumulate onto CO1
  barrier();
  Mmad(C, A2[512], B2[512], p2);
  barrier();
  Fixpipe(gc.tensor(), C, FixpipeParamsV220(N, M, 16, N, false));
  for (uint32_t i = 0; i < M * N; ++i) EXPECT_NEAR(gc[i], full[i], 1e-4 * (1 + std::fabs(full[i])));
  // bias in C2 (half in C1 converted to float by DataCopy C1 -> C2)
  Gm<half> gbias(32);   // one 64-byte block of the source: 32 halves
  for (uint32_t j = 0; j < 32; ++j) gbias[j] = half(0.25f * j - 1);
  auto C1 = cu.c1.Get<half>();
  auto C2 = cu.c2.Get<float>();
  DataCopy(C1, gbias.tensor(), 32);
  barrier();
  DataCopy(C2, C1, DataCopyParams(1, 1, 0, 0));
  barrier();
  Mmad(C, A2, B2, C2, MmadParams(M, N, K, 0, false, true));
  barrier();
  Fixpipe(gc.tensor(), C, FixpipeParamsV220(N, M, 16, N, false));
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j)
      EXPECT_NEAR(gc[i * N + j], full[i * N + j] + (0.25f * j - 1), 1e-4 * (1 + std::fabs(full[i * N + j])));
  });
  EXPECT_EQ(err, "");
}

TEST(Cube, FixpipeNzAndNdNum) {
  Cube cu;
  const uint32_t M = 32, N = 32, K = 16;
  auto a = rand_mat<half>(M * K, 22), b = rand_mat<half>(K * N, 23);
  std::vector<float> full;
  NO_SIM_ERROR(run_mm<half, float>(cu, a, b, M, N, K, full, NoQuant));
  auto C = cu.co1.Get<float>();
  // CFG_NZ: column blocks of M x 16 floats, dstStride in 32-byte units (M * 16 * 4 / 32 = 64)
  Gm<float> nz(M * N);
  FixpipeParamsV220 fp(N, M, 32, M * 16 * 4 / 32, false);
  Fixpipe<float, float, CFG_NZ>(nz.tensor(), C, fp);
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) ASSERT_EQ(nz[(j / 16) * M * 16 + i * 16 + j % 16], full[i * N + j]);
  // ndNum = 2: the two 16-row halves as separate ND matrices? Use two column blocks instead: srcNdStride = M*16*4/1024.
  Gm<float> two(2 * M * 16);
  FixpipeParamsV220 f2(16, M, 32, 16, false);
  f2.ndNum = 2; f2.srcNdStride = M * 16 * 4 / 1024; f2.dstNdStride = M * 16;
  Fixpipe(two.tensor(), C, f2);
  for (uint32_t t = 0; t < 2; ++t)
    for (uint32_t i = 0; i < M; ++i)
      for (uint32_t j = 0; j < 16; ++j) ASSERT_EQ(two[t * M * 16 + i * 16 + j], full[i * N + t * 16 + j]);
}

// A kernel that skips the ZZ reordering (one LoadData of A1's NZ fractals straight into A2) gets the numbers the
// chip computes from that layout, which are not A x B.
TEST(Cube, WrongLayoutGivesWrongNumbers) {
  Cube cu;
  const uint32_t M = 32, N = 16, K = 32, mB = 2, kB = 2;
  auto a = rand_mat<half>(M * K, 24), b = rand_mat<half>(K * N, 25);
  Gm<half> ga(M * K), gbt(N * K);
  Gm<float> gc(M * N);
  for (uint32_t i = 0; i < M * K; ++i) ga[i] = a[i];
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t j = 0; j < N; ++j) gbt[j * K + k] = b[k * N + j];
  auto A1 = cu.a1.Get<half>();
  auto B1 = cu.b1.Get<half>();
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  auto C = cu.co1.Get<float>();
  DataCopy(A1, ga.tensor(), Nd2NzParams(1, M, K, 0, K, M, 1, 0));
  DataCopy(B1, gbt.tensor(), Nd2NzParams(1, N, K, 0, K, N, 1, 0));
  barrier();
  LoadData(A2, A1, LoadData2DParams(0, mB * kB, 1, 0, 0, false, 0));   // NZ order, not ZZ
  LoadData(B2, B1, LoadData2DParams(0, kB, 1, 0, 0, false, 0));
  barrier();
  Mmad(C, A2, B2, MmadParams(M, N, K, 0, false, true));
  barrier();
  Fixpipe(gc.tensor(), C, FixpipeParamsV220(N, M, M, N, false));
  std::vector<float> c(gc.p, gc.p + M * N);
  EXPECT_GT(max_rel_err(c, a, b, M, N, K), 0.05);
  // what the chip computes: A2 fractal f holds A1 fractal f = (mb = f % mB, kb = f / mB), read as ZZ (f / kB, f % kB)
  std::vector<half> aw(M * K);
  for (uint32_t f = 0; f < mB * kB; ++f)
    for (uint32_t r = 0; r < 16; ++r)
      for (uint32_t cc = 0; cc < 16; ++cc)
        aw[((f / kB) * 16 + r) * K + (f % kB) * 16 + cc] = a[((f % mB) * 16 + r) * K + (f / mB) * 16 + cc];
  EXPECT_LT(max_rel_err(c, aw, b, M, N, K), 1e-6);
}

TEST(Cube, TraceRecordsShape) {
  Cube cu;
  auto& tr = cu.tc.core().trace;
  auto a = rand_mat<half>(32 * 32, 26), b = rand_mat<half>(32 * 16, 27);
  std::vector<float> c;
  size_t before = tr.size();
  NO_SIM_ERROR(run_mm<half, float>(cu, a, b, 32, 16, 32, c, NoQuant));
  bool saw_m = false, saw_fix = false, saw_mte1 = false;
  for (size_t i = before; i < tr.size(); ++i) {
    const auto& r = tr[i];
    if (r.kind != kgen::sim::TraceRec::Instr) continue;
    if (r.pipe == kgen::sim::kM) {
      saw_m = true;
      EXPECT_EQ(r.cube_m, 32u); EXPECT_EQ(r.cube_n, 16u); EXPECT_EQ(r.cube_k, 32u);
      EXPECT_EQ(r.elems, 32u * 16 * 32);
      EXPECT_EQ(r.repeats, 2u * 1 * 2);
    }
    if (r.pipe == kgen::sim::kFIX) { saw_fix = true; EXPECT_EQ(r.bytes, 32u * 16 * 4); }
    if (r.pipe == kgen::sim::kMTE1) { saw_mte1 = true; EXPECT_EQ(r.bytes % 512, 0u); }
  }
  EXPECT_TRUE(saw_m && saw_fix && saw_mte1);
}

TEST(Cube, Nd2NzDocExample) {
  // Guide 0329 result example: {1, 32, 32, 0, 32, 32, 1, 0} on 1..1024 gives 1..16, 33..48, 65..80, ...
  TestCore tc;
  kgen::sim::gm_races_reset();
  TPipe pipe;
  TBuf<TPosition::VECIN> ub;
  pipe.InitBuffer(ub, 1024 * 2);
  Gm<half> g(1024);
  for (int i = 0; i < 1024; ++i) g[i] = half(i + 1);
  auto t = ub.Get<half>();
  DataCopy(t, g.tensor(), Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
  barrier();
  EXPECT_EQ(static_cast<float>(t.GetValue(0)), 1.0f);
  EXPECT_EQ(static_cast<float>(t.GetValue(16)), 33.0f);
  EXPECT_EQ(static_cast<float>(t.GetValue(32)), 65.0f);
  EXPECT_EQ(static_cast<float>(t.GetValue(512)), 17.0f);   // second column block
  // dValue not 32-byte aligned: the block tail is zero
  DataCopy(t, g.tensor(), Nd2NzParams{1, 2, 24, 0, 48, 2, 1, 0});
  barrier();
  EXPECT_EQ(static_cast<float>(t.GetValue(16 * 2 + 8)), 0.0f);
  EXPECT_EQ(static_cast<float>(t.GetValue(16 * 2 + 7)), 24.0f);
}

// ---------------------------------------------------------------- checks
TEST(CubeChecks, CubeOnVectorCore) {
  Cube cu;
  cu.tc.core().kind = kgen::sim::CoreKind::AIV;
  auto C = cu.co1.Get<float>();
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  std::string e = error_of([&] { Mmad(C, A2, B2, MmadParams(16, 16, 16, 0, false, true)); });
  EXPECT_TRUE(IsError(e, "param", "Mmad"));
  EXPECT_NE(e.find("ASCEND_IS_AIC"), std::string::npos) << e;
}

TEST(CubeChecks, Alignment) {
  Cube cu;
  auto C = cu.co1.Get<float>();
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  EXPECT_SIM_ERROR(Mmad(C, A2[16], B2, MmadParams(16, 16, 16, 0, false, true)), "align", "Mmad");
  EXPECT_SIM_ERROR(Mmad(C[16], A2, B2, MmadParams(16, 16, 16, 0, false, true)), "align", "Mmad");
  auto A1 = cu.a1.Get<half>();
  EXPECT_SIM_ERROR(LoadData(A2[8], A1, LoadData2DParams(0, 1, 1, 0, 0, false, 0)), "align", "LoadData");
}

TEST(CubeChecks, L0AOverflow) {
  TestCore tc;
  tc.core().kind = kgen::sim::CoreKind::AIC;
  TPipe pipe;
  TQue<TPosition::A2, 1> q;
  TBuf<TPosition::A1> a1;
  pipe.InitBuffer(q, 2, 48 * 1024);   // 96 KB of the 64 KB L0A: the first buffer fits, the second does not
  pipe.InitBuffer(a1, 48 * 1024);
  EXPECT_EQ(error_of([&] { q.AllocTensor<half>(); }), "");
  LocalTensor<half> second;
  EXPECT_EQ(error_of([&] { second = q.AllocTensor<half>(); }), "");   // taking it is no access, as on the chip
  Gm<half> g(24 * 1024);
  auto A1 = a1.Get<half>();
  DataCopy(A1, g.tensor(), 24 * 1024);
  barrier();
  // 96 fractals of 512 bytes from L0A offset 48 KB: the load leaves L0A
  EXPECT_SIM_ERROR(LoadData(second, A1, LoadData2DParams(0, 96, 1, 0, 0, false, 0)), "ub-overflow", "LoadData");
}

TEST(CubeChecks, LoadPastBuffer) {
  Cube cu;
  auto A1 = cu.a1.Get<half>();
  auto A2 = cu.a2.Get<half>();
  Gm<half> g(1024);
  DataCopy(A1, g.tensor(), 1024);
  barrier();
  EXPECT_SIM_ERROR(LoadData(A2, A1, LoadData2DParams(0, 255, 1, 0, 0, false, 0)), "ub-overflow", "LoadData");
}

TEST(CubeChecks, Params) {
  Cube cu;
  auto C = cu.co1.Get<float>();
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  auto A1 = cu.a1.Get<half>();
  EXPECT_SIM_ERROR(Mmad(C, A2, B2, MmadParams(4096, 16, 16, 0, false, true)), "param", "Mmad");
  EXPECT_SIM_ERROR(LoadData(A2, A1, LoadData2DParams(0, 0, 1, 0, 0, false, 0)), "param", "LoadData");
  Gm<float> g(256);
  FixpipeParamsV220 fp(16, 16, 16, 0, false);   // dstStride 0
  EXPECT_SIM_ERROR(Fixpipe(g.tensor(), C, fp), "param", "Fixpipe");
  Gm<half> gh(64);
  EXPECT_SIM_ERROR(DataCopy(A1, gh.tensor(), Nd2NzParams(1, 2, 32, 0, 16, 2, 1, 0)), "param", "DataCopy(Nd2NzParams)");
  EXPECT_EQ(error_of([&] { Mmad(C, A2, B2, MmadParams(0, 16, 16, 0, false, true)); }), "");   // m = 0: no-op
}

TEST(CubeChecks, DtypeCombos) {
  Cube cu;
  auto C = cu.co1.Get<float>();
  auto Ci = cu.co1.Get<int32_t>();
  auto A2 = cu.a2.Get<half>();
  auto B2f = cu.b2.Get<float>();
  auto A2i = cu.a2.Get<int8_t>();
  auto B2i = cu.b2.Get<int8_t>();
  EXPECT_SIM_ERROR(Mmad(C, A2, B2f, MmadParams(16, 16, 16, 0, false, true)), "dtype", "Mmad");
  EXPECT_SIM_ERROR(Mmad(C, A2i, B2i, MmadParams(16, 16, 32, 0, false, true)), "dtype", "Mmad");
  Gm<half> gh(256);
  FixpipeParamsV220 fp(16, 16, 16, 16, false);   // NoQuant float -> half
  std::string e = error_of([&] { Fixpipe(gh.tensor(), C, fp); });
  EXPECT_TRUE(IsError(e, "dtype", "Fixpipe"));
  EXPECT_NE(e.find("F322F16"), std::string::npos) << e;
  (void)Ci;
  auto A1 = cu.a1.Get<float>();
  auto A2f = cu.a2.Get<float>();
  EXPECT_SIM_ERROR(LoadData(A2f, A1, LoadData2DParams(0, 1, 1, 0, 0, true, 0)), "dtype", "LoadData");
}

TEST(CubeChecks, UninitAndRace) {
  Cube cu;
  auto C = cu.co1.Get<float>();
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  // Garbage in is garbage out, not a fault: the Mmad runs; moving its C out is the error, named at the Mmad.
  NO_SIM_ERROR(Mmad(C, A2, B2, MmadParams(16, 16, 16, 0, false, true)));
  barrier();
  Gm<float> garbage(256);
  EXPECT_SIM_ERROR(Fixpipe(garbage.tensor(), C, FixpipeParamsV220(16, 16, 16, 16, false)), "uninit-read", "Mmad");
  // fill A2/B2 from GM and compute without an M -> FIX flag
  Gm<half> g(512);
  for (int i = 0; i < 512; ++i) g[i] = half(1);
  Cube cu2;
  auto C2 = cu2.co1.Get<float>();
  auto A = cu2.a2.Get<half>();
  auto B = cu2.b2.Get<half>();
  LoadData(A, g.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  LoadData(B, g.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  barrier();
  Mmad(C2, A, B, MmadParams(16, 16, 16, 0, false, true));
  Gm<float> out(256);
  EXPECT_SIM_ERROR(Fixpipe(out.tensor(), C2, FixpipeParamsV220(16, 16, 16, 16, false)), "race", "Fixpipe");
}

TEST(CubeChecks, MissingMte1ToMSync) {
  Cube cu;
  Gm<half> g(512);
  for (int i = 0; i < 512; ++i) g[i] = half(1);
  auto A1 = cu.a1.Get<half>();
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  auto C = cu.co1.Get<float>();
  DataCopy(A1, g.tensor(), 256);
  LoadData(B2, g.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  barrier();
  LoadData(A2, A1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  EXPECT_SIM_ERROR(Mmad(C, A2, B2, MmadParams(16, 16, 16, 0, false, true)), "race", "Mmad");
}

TEST(CubeChecks, FixpipeGmOutOfBounds) {
  Cube cu;
  Gm<half> g(512);
  for (int i = 0; i < 512; ++i) g[i] = half(1);
  auto A = cu.a2.Get<half>();
  auto B = cu.b2.Get<half>();
  auto C = cu.co1.Get<float>();
  LoadData(A, g.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  LoadData(B, g.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  barrier();
  Mmad(C, A, B, MmadParams(16, 16, 16, 0, false, true));
  barrier();
  Gm<float> out(255);
  EXPECT_SIM_ERROR(Fixpipe(out.tensor(), C, FixpipeParamsV220(16, 16, 16, 16, false)), "gm-out-of-bounds", "Fixpipe");
}

TEST(CubeChecks, FixpipeNotOn310P) {
  Cube cu("Ascend310P3");
  auto C = cu.co1.Get<float>();
  Gm<float> out(256);
  EXPECT_SIM_ERROR(Fixpipe(out.tensor(), C, FixpipeParamsV220(16, 16, 16, 16, false)), "param", "Fixpipe");
}

// ---------------------------------------------------------------- garbage past a matrix's edge, unit flags
namespace {
// A fractal of ones whose first `rows` rows (32 bytes each) were copied into L1 and the rest never written, moved
// whole into `dst` (L0A or L0B): its rows past `rows` are garbage there.
template <class Dst> void load_rows(Cube& cu, Dst dst, uint32_t rows, Gm<half>& g) {
  for (int i = 0; i < 512; ++i) g[i] = half(1);
  auto A1 = cu.a1.Get<half>();
  DataCopy(A1, g.tensor(), rows * 16);
  barrier();
  LoadData(dst, A1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  barrier();
}
// A: `rows` rows of ones in L0A (a 16 x 16 fractal); B: a whole fractal of ones.
void load_partial(Cube& cu, uint32_t rows, Gm<half>& g) {
  load_rows(cu, cu.a2.Get<half>(), rows, g);
  LoadData(cu.b2.Get<half>(), g.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  barrier();
}
}  // namespace

// Catlass computes whole tiles over a matrix's edge: the rows of C computed from A's garbage rows are garbage, and
// are no fault as long as Fixpipe does not move them out.
TEST(Cube, GarbageRowsPastTheEdgeStayInL0C) {
  Cube cu;
  Gm<half> g(512);
  load_partial(cu, 10, g);
  auto C = cu.co1.Get<float>();
  NO_SIM_ERROR(Mmad(C, cu.a2.Get<half>(), cu.b2.Get<half>(), MmadParams(16, 16, 16, 0, false, true)));
  barrier();
  Gm<float> out(16 * 16);
  NO_SIM_ERROR(Fixpipe(out.tensor(), C, FixpipeParamsV220(16, 10, 16, 16, false)));   // nSize 16, mSize 10
  barrier();
  for (int i = 0; i < 10 * 16; ++i) ASSERT_EQ(out[i], 16.0f) << i;
  EXPECT_SIM_ERROR(Fixpipe(out.tensor(), C, FixpipeParamsV220(16, 11, 16, 16, false)), "uninit-read", "Mmad");
}

// Garbage columns of B past N: Fixpipe reads only the columns up to nSize of the last 16-column block.
TEST(Cube, FixpipeReadsTheLastBlockUpToNSize) {
  Cube cu;
  Gm<half> g(512);
  for (int i = 0; i < 512; ++i) g[i] = half(1);
  auto A2 = cu.a2.Get<half>();
  auto B2 = cu.b2.Get<half>();
  load_rows(cu, B2, 12, g);   // B's fractal: a row of 16 k per column n, 12 of the 16 written
  LoadData(A2, g.tensor(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  barrier();
  auto C = cu.co1.Get<float>();
  NO_SIM_ERROR(Mmad(C, A2, B2, MmadParams(16, 16, 16, 0, false, true)));
  barrier();
  Gm<float> out(16 * 12);
  NO_SIM_ERROR(Fixpipe(out.tensor(), C, FixpipeParamsV220(12, 16, 16, 12, false)));
  barrier();
  for (int i = 0; i < 16 * 12; ++i) ASSERT_EQ(out[i], 16.0f) << i;
  Gm<float> out13(16 * 13);
  EXPECT_SIM_ERROR(Fixpipe(out13.tensor(), C, FixpipeParamsV220(13, 16, 16, 13, false)), "uninit-read", "Mmad");
}

// unitFlag 3 on Mmad and Fixpipe orders them through L0C's unit flags, with no SetFlag/WaitFlag: the Fixpipe waits
// for the Mmad's blocks, the next Mmad for the Fixpipe's. Without the flags, the same program races both ways.
TEST(CubeChecks, UnitFlagsOrderMmadAndFixpipe) {
  for (uint8_t flag : {uint8_t(3), uint8_t(0)}) {
    Cube cu;
    Gm<half> g(512);
    load_partial(cu, 16, g);
    auto C = cu.co1.Get<float>();
    auto A2 = cu.a2.Get<half>();
    auto B2 = cu.b2.Get<half>();
    Gm<float> out(256);
    FixpipeParamsV220 fp(16, 16, 16, 16, false);
    fp.unitFlag = flag;
    NO_SIM_ERROR(Mmad(C, A2, B2, MmadParams(16, 16, 16, flag, false, true)));
    if (flag == 3) {
      NO_SIM_ERROR(Fixpipe(out.tensor(), C, fp));
      NO_SIM_ERROR(Mmad(C, A2, B2, MmadParams(16, 16, 16, flag, false, true)));   // overwrites what FIX read
      NO_SIM_ERROR(Fixpipe(out.tensor(), C, fp));
      barrier();
      for (int i = 0; i < 256; ++i) ASSERT_EQ(out[i], 16.0f) << i;
    } else {
      EXPECT_SIM_ERROR(Fixpipe(out.tensor(), C, fp), "race", "Fixpipe");
    }
  }
}
