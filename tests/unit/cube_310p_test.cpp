// The Ascend310P3 cube path (coupled AI Core: L1, L0A/B/C, cube and vector units in one core): GM -> L1 (Nd2Nz),
// L1 -> L0A/L0B (LoadData), Mmad, L0C -> UB with the enhanced DataCopy (guide 0327, CO1 -> CO2 on the vector pipe),
// UB -> GM. Results are checked against float64 references computed here. Also: the 910B rejection of that path, its
// parameter checks, and on 910B the same-type C1 -> C2 (bias table) DataCopy followed by Mmad with that bias.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
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
#define NO_SIM_ERROR(...) ASSERT_EQ(error_of([&] { __VA_ARGS__; }), "")
constexpr const char* kCo2 = "DataCopy(DataCopyEnhancedParams)";

template <class T> struct Gm {
  T* p;
  size_t n;
  explicit Gm(size_t count) : p(static_cast<T*>(GmAlloc(count * sizeof(T)))), n(count) {}
  ~Gm() { GmFree(p); }
  GlobalTensor<T> tensor() const { GlobalTensor<T> g; g.SetGlobalBuffer(p, n); return g; }
  T& operator[](size_t i) { return p[i]; }
};
uint32_t up(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }
void barrier() { PipeBarrier<PIPE_ALL>(); }
double rnd(uint32_t& s) { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xffff) / 32768.0 - 1.0; }

// One coupled 310P AI Core with its L1 / L0 buffers and UB buffers for the results.
struct Core310 {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B1> b1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  TBuf<TPosition::CO2> co2;
  TBuf<TPosition::VECCALC> calc;
  explicit Core310(const char* soc = "Ascend310P3") : tc(soc) {
    kgen::sim::gm_races_reset();
    pipe.InitBuffer(a1, 64 * 1024);
    pipe.InitBuffer(b1, 64 * 1024);
    pipe.InitBuffer(a2, 32 * 1024);
    pipe.InitBuffer(b2, 32 * 1024);
    pipe.InitBuffer(co1, 64 * 1024);
    pipe.InitBuffer(co2, 64 * 1024);
    pipe.InitBuffer(calc, 8 * 1024);
  }
  ~Core310() { kgen::sim::gm_races_reset(); }
};

// Half A (M x K) and B (K x N) through Nd2Nz / LoadData into L0A / L0B, then Mmad into CO1 (float, NZ).
struct HalfMm {
  uint32_t M, N, K, mB, nB, kB;
  std::vector<half> a, b;
  HalfMm(uint32_t m, uint32_t n, uint32_t k, uint32_t seed) : M(m), N(n), K(k), a(m * k), b(k * n) {
    mB = up(M, 16) / 16; nB = up(N, 16) / 16; kB = up(K, 16) / 16;
    for (auto& v : a) v = half(static_cast<float>(rnd(seed)));
    for (auto& v : b) v = half(static_cast<float>(rnd(seed)));
  }
  void load_and_mmad(Core310& c) {
    Gm<half> ga(a.size()), gbt(static_cast<size_t>(N) * K);
    for (size_t i = 0; i < a.size(); ++i) ga[i] = a[i];
    for (uint32_t k = 0; k < K; ++k)
      for (uint32_t j = 0; j < N; ++j) gbt[static_cast<size_t>(j) * K + k] = b[static_cast<size_t>(k) * N + j];
    auto A1 = c.a1.Get<half>(); auto B1 = c.b1.Get<half>();
    auto A2 = c.a2.Get<half>(); auto B2 = c.b2.Get<half>();
    DataCopy(A1, ga.tensor(), Nd2NzParams(1, M, K, 0, K, mB * 16, 1, 0));
    DataCopy(B1, gbt.tensor(), Nd2NzParams(1, N, K, 0, K, nB * 16, 1, 0));
    barrier();
    for (uint32_t kb = 0; kb < kB; ++kb)
      LoadData(A2[kb * 256], A1[kb * mB * 256],
               LoadData2DParams(0, static_cast<uint8_t>(mB), 1, 0, static_cast<uint16_t>(kB - 1), false, 0));
    LoadData(B2, B1, LoadData2DParams(0, static_cast<uint8_t>(kB * nB), 1, 0, 0, false, 0));
    barrier();
    MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    Mmad(c.co1.Get<float>(), A2, B2, mp);
    barrier();
  }
  double ref(uint32_t i, uint32_t j) const {
    double s = 0;
    for (uint32_t k = 0; k < K; ++k) s += static_cast<double>(a[i * K + k]) * static_cast<double>(b[k * N + j]);
    return s;
  }
  double mag(uint32_t i, uint32_t j) const {
    double s = 1e-30;
    for (uint32_t k = 0; k < K; ++k) s += std::fabs(static_cast<double>(a[i * K + k]) * static_cast<double>(b[k * N + j]));
    return s;
  }
};

DataCopyEnhancedParams enh(BlockMode m, DeqScale q = DeqScale::DEQ_NONE, uint64_t deq = 0, bool relu = false,
                           uint8_t sid = 0) {
  DataCopyEnhancedParams e;
  e.blockMode = m; e.deqScale = q; e.deqValue = deq; e.isRelu = relu; e.sidStoreMode = sid;
  return e;
}
}  // namespace

// GM -> L1 -> L0A/L0B -> Mmad -> L0C -> UB (BLOCK_MODE_MATRIX, float) -> GM (NZ -> ND by DataCopy per column block).
TEST(Cube310P, MatrixModeFullPipelineMatchesFloat64Reference) {
  Core310 c;
  HalfMm mm(40, 48, 64, 7);
  Gm<float> gc(static_cast<size_t>(mm.M) * mm.N);
  NO_SIM_ERROR({
    mm.load_and_mmad(c);
    auto ub = c.co2.Get<float>();
    DataCopy(ub, c.co1.Get<float>(), DataCopyParams(1, static_cast<uint16_t>(mm.mB * mm.nB), 0, 0),
             enh(BlockMode::BLOCK_MODE_MATRIX));
    barrier();
    for (uint32_t j = 0; j < mm.nB; ++j)   // rows of 16 floats (2 blocks), ND row gap (N - 16) floats
      DataCopy(gc.tensor()[j * 16], ub[j * mm.mB * 256],
               DataCopyParams(static_cast<uint16_t>(mm.M), 2, 0, static_cast<uint16_t>((mm.N - 16) * 4 / 32)));
    barrier();
  });
  double worst = 0;
  for (uint32_t i = 0; i < mm.M; ++i)
    for (uint32_t j = 0; j < mm.N; ++j)
      worst = std::max(worst, std::fabs(gc[i * mm.N + j] - mm.ref(i, j)) / mm.mag(i, j));
  EXPECT_LT(worst, 1e-3);
}

// float L0C -> half UB with ReLU, two blocks (one per column block) with a destination gap, then to GM.
TEST(Cube310P, FloatToHalfWithReluAndStrides) {
  Core310 c;
  HalfMm mm(32, 32, 48, 11);
  Gm<half> gc(static_cast<size_t>(mm.M) * mm.N);
  const uint32_t gap = 2;   // 32-byte blocks between the two half column blocks in UB
  NO_SIM_ERROR({
    mm.load_and_mmad(c);
    auto ub = c.co2.Get<half>();
    DataCopy(ub, c.co1.Get<float>(), DataCopyParams(static_cast<uint16_t>(mm.nB), static_cast<uint16_t>(mm.mB), 0, gap),
             enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, true));
    barrier();
    const uint32_t blk = mm.mB * 256 + gap * 16;   // halves from one column block to the next
    for (uint32_t j = 0; j < mm.nB; ++j)
      DataCopy(gc.tensor()[j * 16], ub[j * blk],
               DataCopyParams(static_cast<uint16_t>(mm.M), 1, 0, static_cast<uint16_t>((mm.N - 16) * 2 / 32)));
    barrier();
  });
  int neg = 0;
  for (uint32_t i = 0; i < mm.M; ++i)
    for (uint32_t j = 0; j < mm.N; ++j) {
      double r = mm.ref(i, j);
      if (r < 0) ++neg;
      double want = r < 0 ? 0.0 : r;
      EXPECT_LE(std::fabs(static_cast<float>(gc[i * mm.N + j]) - want), 1e-3 * mm.mag(i, j) + 1e-3 * std::fabs(want))
          << i << "," << j;
    }
  EXPECT_GT(neg, 0);   // the ReLU had something to do
}

// BLOCK_MODE_VECTOR: blockLen counts 1x16 rows; M = 40 rows of each column block land densely in UB (the 8 padding
// rows of the last fractal are skipped; the next block starts at the next column block's first fractal).
TEST(Cube310P, VectorModeCopiesOnlyTheValidRows) {
  Core310 c;
  HalfMm mm(40, 32, 32, 23);
  Gm<float> gc(static_cast<size_t>(mm.M) * mm.N);
  NO_SIM_ERROR({
    mm.load_and_mmad(c);
    auto ub = c.co2.Get<float>();
    DataCopy(ub, c.co1.Get<float>(), DataCopyParams(static_cast<uint16_t>(mm.nB), static_cast<uint16_t>(mm.M), 0, 0),
             enh(BlockMode::BLOCK_MODE_VECTOR));
    barrier();
    for (uint32_t j = 0; j < mm.nB; ++j)
      DataCopy(gc.tensor()[j * 16], ub[j * mm.M * 16],
               DataCopyParams(static_cast<uint16_t>(mm.M), 2, 0, static_cast<uint16_t>((mm.N - 16) * 4 / 32)));
    barrier();
  });
  double worst = 0;
  for (uint32_t i = 0; i < mm.M; ++i)
    for (uint32_t j = 0; j < mm.N; ++j)
      worst = std::max(worst, std::fabs(gc[i * mm.N + j] - mm.ref(i, j)) / mm.mag(i, j));
  EXPECT_LT(worst, 1e-3);
  // The trace has one record for the copy, on the vector pipe, with its rows.
  const auto& tr = c.tc.core().trace;
  int n = 0;
  for (const auto& r : tr)
    if (r.kind == kgen::sim::TraceRec::Instr && std::string(r.api) == kCo2) {
      ++n;
      EXPECT_EQ(r.pipe, kgen::sim::kV);
      EXPECT_EQ(r.elems, static_cast<uint64_t>(mm.nB) * mm.M * 16);
      EXPECT_EQ(r.cube_m, mm.nB * mm.M);
    }
  EXPECT_EQ(n, 1);
}

namespace {
// int8 A (16 x 32, one ZZ fractal) x int8 B (32 x 16, one ZN fractal) -> int32 C (one NZ fractal) in CO1.
struct IntMm {
  std::vector<int8_t> a = std::vector<int8_t>(16 * 32), bt = std::vector<int8_t>(16 * 32);   // bt[n][k]
  std::vector<int32_t> c = std::vector<int32_t>(256);
  explicit IntMm(uint32_t seed) {
    for (auto& v : a) v = static_cast<int8_t>(std::lround(rnd(seed) * 127));
    for (auto& v : bt) v = static_cast<int8_t>(std::lround(rnd(seed) * 127));
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        int32_t s = 0;
        for (int k = 0; k < 32; ++k) s += a[i * 32 + k] * bt[j * 32 + k];
        c[i * 16 + j] = s;
      }
  }
  void run(Core310& cc) {
    Gm<int8_t> ga(512), gb(512);
    for (int i = 0; i < 512; ++i) { ga[i] = a[i]; gb[i] = bt[i]; }
    auto A1 = cc.a1.Get<int8_t>(); auto B1 = cc.b1.Get<int8_t>();
    auto A2 = cc.a2.Get<int8_t>(); auto B2 = cc.b2.Get<int8_t>();
    DataCopy(A1, ga.tensor(), DataCopyParams(1, 16, 0, 0));
    DataCopy(B1, gb.tensor(), DataCopyParams(1, 16, 0, 0));
    barrier();
    LoadData(A2, A1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(B2, B1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    barrier();
    MmadParams mp;
    mp.m = 16; mp.n = 16; mp.k = 32;
    Mmad(cc.co1.Get<int32_t>(), A2, B2, mp);
    barrier();
  }
};
template <class T> const T* ub_ptr(const LocalTensor<T>& t) {
  return reinterpret_cast<const T*>(kgen::sim::mem_base(kgen::sim::Mem::UB) + t.GetPhyAddr());
}
uint16_t hbits(const LocalTensor<half>& t, int k) {
  uint16_t v;
  std::memcpy(&v, kgen::sim::mem_base(kgen::sim::Mem::UB) + t.GetPhyAddr() + k * 2, 2);
  return v;
}
uint16_t hb(double x) { return kgen::f32_to_f16_bits(static_cast<float>(x)); }
uint64_t deq_word(float m, uint32_t shift, bool mcb, int32_t offset, bool sign, bool relu) {
  uint32_t mb;
  std::memcpy(&mb, &m, 4);
  return mb | (static_cast<uint64_t>(shift - 1) << 32) | (static_cast<uint64_t>(mcb) << 36) |
         (static_cast<uint64_t>(offset & 0x1ff) << 37) | (static_cast<uint64_t>(sign) << 46) |
         (static_cast<uint64_t>(relu) << 47);
}
int32_t sat(double v, double lo, double hi) { double r = std::nearbyint(v); return static_cast<int32_t>(r < lo ? lo : r > hi ? hi : r); }
}  // namespace

// int32 L0C -> half / int16 / int8 with the documented quantisation modes, checked element by element.
TEST(Cube310P, Int32DequantModes) {
  Core310 c;
  IntMm mm(5);
  auto co1 = c.co1.Get<int32_t>();
  auto hub = c.co2.Get<half>();
  auto i16 = c.co2.Get<int16_t>();
  auto i8 = c.co2.Get<int8_t>();
  auto u8 = c.calc.Get<uint8_t>();   // VECCALC: the test fills it with SetValue
  auto i32 = c.co2.Get<int32_t>();
  const DataCopyParams one(1, 1, 0, 0);
  // quant vectors in UB (VECCALC): 16 half scales at 0, 16 uint64 words at 256
  auto vh = c.calc.Get<half>();
  auto vw = c.calc.Get<uint64_t>();
  for (int e = 0; e < 16; ++e) vh.SetValue(e, half(0.00390625f * (e + 1)));
  for (int e = 0; e < 16; ++e) vw.SetValue(32 + e, deq_word(0.01f * (e + 1), 1, false, e - 8, true, false));
  barrier();
  NO_SIM_ERROR(mm.run(c));
  // DEQ_NONE, int32 -> int32 with ReLU
  NO_SIM_ERROR(DataCopy(i32, co1, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, true)); barrier());
  for (int k = 0; k < 256; ++k) ASSERT_EQ(ub_ptr(i32)[k], std::max(0, mm.c[k])) << k;
  // DEQ: half scale 1/256 in the low 16 bits
  NO_SIM_ERROR(DataCopy(hub, co1, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ, hb(1.0 / 256)));
               barrier());
  for (int k = 0; k < 256; ++k)
    ASSERT_EQ(hbits(hub, k), hb(mm.c[k] / 256.0)) << k;
  // DEQ16 -> half with MCB: int16(x >> 3) * 0.5, ReLU (bit 47 and isRelu agree)
  NO_SIM_ERROR(DataCopy(hub, co1, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ16,
                                           deq_word(0.5f, 3, true, 0, false, true), true));
               barrier());
  for (int k = 0; k < 256; ++k) {
    double y = std::max(0.0, std::clamp(mm.c[k] >> 3, -32768, 32767) * 0.5);
    ASSERT_EQ(hbits(hub, k), hb(y)) << k;
  }
  // DEQ16 -> int16: shift by N = 4, M has no effect
  NO_SIM_ERROR(DataCopy(i16, co1, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ16,
                                           deq_word(123.0f, 4, false, 0, false, false)));
               barrier());
  for (int k = 0; k < 256; ++k) ASSERT_EQ(ub_ptr(i16)[k], std::clamp(mm.c[k] >> 4, -32768, 32767)) << k;
  // DEQ8 -> int8, dense (sidStoreMode 2): x * M + Offset, rounded and saturated
  NO_SIM_ERROR(DataCopy(i8, co1, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ8,
                                          deq_word(0.004f, 1, false, 5, true, false), false, 2));
               barrier());
  for (int k = 0; k < 256; ++k) ASSERT_EQ(ub_ptr(i8)[k], sat(mm.c[k] * static_cast<double>(0.004f) + 5, -128, 127)) << k;
  // DEQ8 -> uint8 with ReLU (Offset 0), sidStoreMode 1: each 16 results in the second half of a 32-byte block
  for (int k = 0; k < 1024; ++k) u8.SetValue(1024 + k, 0xAB);
  barrier();
  NO_SIM_ERROR(DataCopy(u8[1024], co1, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ8,
                                                deq_word(0.003f, 1, false, 0, false, true), true, 1));
               barrier());
  for (int k = 0; k < 256; ++k) {
    ASSERT_EQ(ub_ptr(u8)[1024 + (k / 16) * 32 + 16 + k % 16], sat(std::max(0.0, mm.c[k] * static_cast<double>(0.003f)), 0, 255)) << k;
    ASSERT_EQ(ub_ptr(u8)[1024 + (k / 16) * 32 + k % 16], 0xAB) << k;   // first halves untouched
  }
  // VDEQ: column e scaled by the e-th half of the vector
  DataCopyEnhancedParams v = enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::VDEQ);
  v.deqTensorAddr = vh.GetPhyAddr();
  NO_SIM_ERROR(DataCopy(hub, co1, one, v); barrier());
  for (int k = 0; k < 256; ++k)
    ASSERT_EQ(hbits(hub, k), hb(mm.c[k] * 0.00390625 * (k % 16 + 1))) << k;
  // VDEQ8: per-column words (M, Offset), signed result, dense
  DataCopyEnhancedParams v8 = enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::VDEQ8, 0, false, 2);
  v8.deqTensorAddr = vw[32].GetPhyAddr();
  NO_SIM_ERROR(DataCopy(i8, co1, one, v8); barrier());
  for (int k = 0; k < 256; ++k) {
    int e = k % 16;
    ASSERT_EQ(ub_ptr(i8)[k], sat(mm.c[k] * static_cast<double>(0.01f * (e + 1)) + (e - 8), -128, 127)) << k;
  }
}

TEST(Cube310P, RejectedOn910BWhereL0CGoesThroughFixpipe) {
  Core310 c("Ascend910B2");
  auto ub = c.co2.Get<float>();
  auto l0c = c.co1.Get<float>();
  std::string e = error_of([&] { DataCopy(ub, l0c, DataCopyParams(1, 1, 0, 0), enh(BlockMode::BLOCK_MODE_MATRIX)); });
  EXPECT_TRUE(IsError(e, "param", kCo2));
  EXPECT_NE(e.find("Fixpipe"), std::string::npos) << e;
  EXPECT_NE(e.find("Ascend910B2"), std::string::npos) << e;
  // the type-changing form too
  auto uh = c.co2.Get<half>();
  EXPECT_SIM_ERROR(DataCopy(uh, l0c, DataCopyParams(1, 1, 0, 0), enh(BlockMode::BLOCK_MODE_MATRIX)), "param", kCo2);
}

TEST(Cube310P, ParameterAndStateErrors) {
  Core310 c;
  HalfMm mm(16, 16, 16, 3);
  NO_SIM_ERROR(mm.load_and_mmad(c));
  auto l0c = c.co1.Get<float>();
  auto uf = c.co2.Get<float>();
  auto uh = c.co2.Get<half>();
  auto ui = c.co2.Get<int32_t>();
  const DataCopyParams one(1, 1, 0, 0);
  // the default blockMode (NORMAL) is not a CO1 -> CO2 mode
  DataCopyEnhancedParams def;
  EXPECT_SIM_ERROR(DataCopy(uf, l0c, one, def), "param", kCo2);
  EXPECT_SIM_ERROR(DataCopy(uf, l0c, one, enh(BlockMode::BLOCK_MODE_DEPTHWISE)), "param", kCo2);
  EXPECT_SIM_ERROR(DataCopy(uf, l0c, DataCopyParams(0, 1, 0, 0), enh(BlockMode::BLOCK_MODE_MATRIX)), "param", kCo2);
  EXPECT_SIM_ERROR(DataCopy(uf, l0c, DataCopyParams(1, 0, 0, 0), enh(BlockMode::BLOCK_MODE_MATRIX)), "param", kCo2);
  // pairs and modes
  EXPECT_SIM_ERROR(DataCopy(ui, l0c, one, enh(BlockMode::BLOCK_MODE_MATRIX)), "dtype", kCo2);   // float -> int32
  EXPECT_SIM_ERROR(DataCopy(uh, l0c, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ)), "dtype", kCo2);
  auto l0ci = c.co1.Get<int32_t>();
  EXPECT_SIM_ERROR(DataCopy(uh, l0ci, one, enh(BlockMode::BLOCK_MODE_MATRIX)), "dtype", kCo2);   // needs a deq mode
  EXPECT_SIM_ERROR(DataCopy(uh, l0ci, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ, 0x3c00, true)), "param", kCo2);
  EXPECT_SIM_ERROR(DataCopy(uh, l0ci, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ16, uint64_t{1} << 47, false)),
                   "param", kCo2);   // Relu flag without isRelu
  auto u8 = c.co2.Get<uint8_t>();
  EXPECT_SIM_ERROR(DataCopy(u8, l0ci, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ8, uint64_t{1} << 46, false, 2)),
                   "param", kCo2);   // Sign set for uint8
  DataCopyEnhancedParams pad = enh(BlockMode::BLOCK_MODE_MATRIX);
  pad.padMode = PAD_MODE1;
  EXPECT_SIM_ERROR(DataCopy(uf, l0c, one, pad), "param", kCo2);
  EXPECT_SIM_ERROR(DataCopy(uf, l0c, one, enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, false, 3)), "param", kCo2);
  DataCopyEnhancedParams vd = enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::VDEQ);
  vd.deqTensorAddr = 16;
  EXPECT_SIM_ERROR(DataCopy(uh, l0ci, one, vd), "align", kCo2);
  // destination position: L1 is not CO2
  EXPECT_SIM_ERROR(DataCopy(c.a1.Get<float>(), l0c, one, enh(BlockMode::BLOCK_MODE_MATRIX)), "param", kCo2);
  // bounds: 65 fractals of 1 KB from a 64 KB CO1 buffer read the L0C after it (never written here)
  EXPECT_SIM_ERROR(DataCopy(uf, l0c, DataCopyParams(1, 65, 0, 0), enh(BlockMode::BLOCK_MODE_MATRIX)), "uninit-read", kCo2);
  // never-written L0C
  EXPECT_SIM_ERROR(DataCopy(uf, l0c[4096], one, enh(BlockMode::BLOCK_MODE_MATRIX)), "uninit-read", kCo2);
}

TEST(Cube310P, MissingMToVSyncIsARace) {
  Core310 c;
  HalfMm mm(16, 16, 16, 9);
  NO_SIM_ERROR(mm.load_and_mmad(c));
  MmadParams mp;
  mp.m = 16; mp.n = 16; mp.k = 16;
  std::string e = error_of([&] {
    Mmad(c.co1.Get<float>(), c.a2.Get<half>(), c.b2.Get<half>(), mp);   // M writes L0C ...
    DataCopy(c.co2.Get<float>(), c.co1.Get<float>(), DataCopyParams(1, 1, 0, 0),
             enh(BlockMode::BLOCK_MODE_MATRIX));                          // ... and V reads it without a flag
  });
  EXPECT_TRUE(IsError(e, "race", kCo2));
}

// On other paths the enhanced parameters have no effect: UB -> UB is the basic copy (here on 910B).
TEST(Cube310P, EnhancedParamsHaveNoEffectOffCO1) {
  TestCore tc("Ascend910B2");
  TPipe pipe;
  TBuf<TPosition::VECIN> in;
  TBuf<TPosition::VECOUT> out;
  pipe.InitBuffer(in, 256);
  pipe.InitBuffer(out, 256);
  auto s = in.Get<float>();
  auto d = out.Get<float>();
  for (int i = 0; i < 64; ++i) s.SetValue(i, 1.5f * i);
  barrier();
  NO_SIM_ERROR(DataCopy(d, s, DataCopyParams(2, 1, 1, 1), enh(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ, 0, true));
               barrier());
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(d.GetValue(i), 1.5f * i);
    EXPECT_EQ(d.GetValue(16 + i), 1.5f * (16 + i));
  }
  auto dh = out.Get<half>();
  EXPECT_SIM_ERROR(DataCopy(dh, s, DataCopyParams(1, 1, 0, 0), enh(BlockMode::BLOCK_MODE_MATRIX)), "param", "DataCopy");
}

// 910B: float bias GM -> C1 (L1) -> C2 (bias table) by the same-type DataCopy, then Mmad with that bias.
TEST(CubeBias910B, SameTypeC1ToC2CopyThenMmadWithBias) {
  TestCore tc("Ascend910B2");
  tc.core().kind = kgen::sim::CoreKind::AIC;
  kgen::sim::gm_races_reset();
  TPipe pipe;
  TBuf<TPosition::A1> a1; TBuf<TPosition::B1> b1;
  TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  TBuf<TPosition::C1> c1;
  TBuf<TPosition::C2> c2;
  pipe.InitBuffer(a1, 32 * 1024); pipe.InitBuffer(b1, 32 * 1024);
  pipe.InitBuffer(a2, 32 * 1024); pipe.InitBuffer(b2, 32 * 1024);
  pipe.InitBuffer(co1, 64 * 1024);
  pipe.InitBuffer(c1, 1024);
  pipe.InitBuffer(c2, 1024);
  const uint32_t M = 32, N = 48, K = 32, mB = 2, nB = 3, kB = 2;
  uint32_t seed = 17;
  std::vector<half> a(M * K), b(K * N);
  std::vector<float> bias(N);
  for (auto& v : a) v = half(static_cast<float>(rnd(seed)));
  for (auto& v : b) v = half(static_cast<float>(rnd(seed)));
  for (auto& v : bias) v = static_cast<float>(rnd(seed) * 4);
  Gm<half> ga(M * K), gbt(N * K);
  Gm<float> gbias(N), gc(M * N);
  for (uint32_t i = 0; i < M * K; ++i) ga[i] = a[i];
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t j = 0; j < N; ++j) gbt[j * K + k] = b[k * N + j];
  for (uint32_t j = 0; j < N; ++j) gbias[j] = bias[j];
  NO_SIM_ERROR({
    auto A1 = a1.Get<half>(); auto B1 = b1.Get<half>(); auto A2 = a2.Get<half>(); auto B2 = b2.Get<half>();
    auto C1 = c1.Get<float>(); auto C2 = c2.Get<float>();
    DataCopy(A1, ga.tensor(), Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(B1, gbt.tensor(), Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    DataCopy(C1, gbias.tensor(), DataCopyParams(1, N * 4 / 32, 0, 0));
    barrier();
    DataCopy(C2, C1, DataCopyParams(1, N * 4 / 64, 0, 0));   // float -> float, blockLen in 64-byte units
    for (uint32_t kb = 0; kb < kB; ++kb)
      LoadData(A2[kb * 256], A1[kb * mB * 256], LoadData2DParams(0, mB, 1, 0, kB - 1, false, 0));
    LoadData(B2, B1, LoadData2DParams(0, kB * nB, 1, 0, 0, false, 0));
    barrier();
    MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    Mmad(co1.Get<float>(), A2, B2, C2, mp);
    barrier();
    FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
    Fixpipe(gc.tensor(), co1.Get<float>(), fp);
    barrier();
  });
  double worst = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      double r = bias[j], mag = std::fabs(bias[j]) + 1e-30;
      for (uint32_t k = 0; k < K; ++k) {
        r += static_cast<double>(a[i * K + k]) * static_cast<double>(b[k * N + j]);
        mag += std::fabs(static_cast<double>(a[i * K + k]) * static_cast<double>(b[k * N + j]));
      }
      worst = std::max(worst, std::fabs(gc[i * N + j] - r) / mag);
    }
  EXPECT_LT(worst, 1e-3);
  // the same-type copy is the bias-table copy: one record on MTE1
  int n = 0;
  for (const auto& r : tc.core().trace)
    if (r.kind == kgen::sim::TraceRec::Instr && r.pipe == kgen::sim::kMTE1 && std::string(r.api) == "DataCopy") ++n;
  EXPECT_EQ(n, 1);
  kgen::sim::gm_races_reset();
}
