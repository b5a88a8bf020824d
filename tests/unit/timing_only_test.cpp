// Timing-only runs (sim/timing.h): a kernel over GM reservations gives the full run's trace record for record,
// moves and computes no float values, keeps integer work, counts scalar reads of values it lacks, and
// first_difference names the record where two traces part.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "perf/ktrace_io.h"
#include "perf/model.h"
#include "perf/trace_diff.h"
#include "sim/gm.h"
#include "sim/testing.h"
#include "sim/timing.h"
#include "sim/trace_io.h"
#include "tikicpulib.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
constexpr int kTile = 1024, kTiles = 8;

// y = x * 2 + 1 over kTiles tiles per core, double-buffered through queues.
void k_affine(GM_ADDR x, GM_ADDR y) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> in;
  TQue<QuePosition::VECOUT, 2> out;
  pipe.InitBuffer(in, 2, kTile * sizeof(float));
  pipe.InitBuffer(out, 2, kTile * sizeof(float));
  GlobalTensor<float> xg, yg;
  const int64_t base = GetBlockIdx() * kTile * kTiles;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + base, kTile * kTiles);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + base, kTile * kTiles);
  for (int t = 0; t < kTiles; ++t) {
    LocalTensor<float> a = in.AllocTensor<float>();
    DataCopy(a, xg[t * kTile], kTile);
    in.EnQue(a);
    LocalTensor<float> b = in.DeQue<float>();
    LocalTensor<float> c = out.AllocTensor<float>();
    Muls(c, b, 2.0f, kTile);
    Adds(c, c, 1.0f, kTile);
    out.EnQue(c);
    in.FreeTensor(b);
    LocalTensor<float> d = out.DeQue<float>();
    DataCopy(yg[t * kTile], d, kTile);
    out.FreeTensor(d);
  }
}

// Stops early when the first element is 0: control flow that reads data.
void k_peek(GM_ADDR x, GM_ADDR y) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> xg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kTile);
  if (xg.GetValue(0) == 0.0f) return;
  k_affine(x, y);
}

constexpr int kBlocks = 2;
constexpr size_t kBytes = size_t(kBlocks) * kTiles * kTile * sizeof(float);

std::string run_full(void (*k)(GM_ADDR, GM_ADDR)) {
  float* x = static_cast<float*>(GmAlloc(kBytes));
  float* y = static_cast<float*>(GmAlloc(kBytes));
  for (size_t i = 0; i < kBytes / 4; ++i) x[i] = static_cast<float>(i % 97) + 1.0f;
  std::string err = error_of([&] { ICPU_RUN_KF(k, kBlocks, (GM_ADDR)x, (GM_ADDR)y); });
  EXPECT_EQ(err, "");
  EXPECT_EQ(y[5], (6.0f) * 2.0f + 1.0f);   // the values were computed
  std::string t = kgen::perf::encode_launch(kgen::sim::last_launch_trace(), &kgen::sim::gm_locate);
  GmFree(x);
  GmFree(y);
  return t;
}

std::string run_timing(void (*k)(GM_ADDR, GM_ADDR)) {
  void* x = kgen::sim::gm_reserve(kBytes);
  void* y = kgen::sim::gm_reserve(kBytes);
  EXPECT_NE(x, nullptr);
  EXPECT_FALSE(kgen::sim::gm_has_values(x));
  kgen::sim::reset_value_reads();
  kgen::sim::set_timing_only(true);
  std::string err = error_of([&] { ICPU_RUN_KF(k, kBlocks, (GM_ADDR)x, (GM_ADDR)y); });
  kgen::sim::set_timing_only(false);
  EXPECT_EQ(err, "");
  std::string t = kgen::perf::encode_launch(kgen::sim::last_launch_trace(), &kgen::sim::gm_locate);
  GmFree(x);
  GmFree(y);
  return t;
}
}  // namespace

TEST(TimingOnly, SameTraceAsTheFullRun) {
  kgen::sim::set_throw_on_error(true);
  const std::string full = run_full(k_affine);
  const std::string timing = run_timing(k_affine);   // the reservations are PROT_NONE: any byte moved would fault
  EXPECT_EQ(kgen::perf::first_difference(full, timing), "");
  EXPECT_EQ(full, timing);
  EXPECT_EQ(kgen::sim::value_reads().count, 0u);
}

TEST(TimingOnly, DataDependentControlFlowIsFoundAndCounted) {
  kgen::sim::set_throw_on_error(true);
  const std::string full = run_full(k_peek);
  const std::string timing = run_timing(k_peek);   // GetValue reads 0: the kernel returns at once
  const std::string diff = kgen::perf::first_difference(full, timing);
  EXPECT_NE(diff.find("records in the full run"), std::string::npos) << diff;
  EXPECT_GE(kgen::sim::value_reads().count, 1u);
  EXPECT_NE(kgen::sim::value_reads().first.find("timing_only_test.cpp:"), std::string::npos) << kgen::sim::value_reads().first;
  EXPECT_NE(kgen::sim::value_reads().first.find("GlobalTensor::GetValue"), std::string::npos);
}

TEST(TimingOnly, FirstDifferenceNamesTheRecord) {
  kgen::perf::KTrace a;
  a.block_dim = 1;
  a.apis = {"", "DataCopy"};
  kgen::perf::KCore c;
  kgen::perf::Op op;
  op.api = 1;
  op.line = 40;
  op.elems = 2048;
  c.ops = {op, op};
  a.cores = {c};
  kgen::perf::KTrace b = a;
  EXPECT_EQ(kgen::perf::first_difference(a, b), "");
  b.cores[0].ops[1].elems = 1024;
  const std::string d = kgen::perf::first_difference(a, b);
  EXPECT_NE(d.find("core 0 (block 0 AIV 0), record 1"), std::string::npos) << d;
  EXPECT_NE(d.find("elems 2048"), std::string::npos) << d;
  EXPECT_NE(d.find("elems 1024"), std::string::npos) << d;
  b = a;
  b.apis[1] = "DataCopyPad";   // the same index, another name: compared by name
  EXPECT_NE(kgen::perf::first_difference(a, b), "");
  EXPECT_NE(kgen::perf::first_difference(std::string("junk"), std::string("junk")).find("does not decode"), std::string::npos);
}

TEST(TimingOnly, IntegerWorkStillComputes) {
  EXPECT_TRUE(kgen::sim::computes(kgen::DType::F32));
  kgen::sim::set_timing_only(true);
  EXPECT_FALSE(kgen::sim::computes(kgen::DType::F32));
  EXPECT_FALSE(kgen::sim::computes(kgen::DType::BF16));
  EXPECT_TRUE(kgen::sim::computes(kgen::DType::I32));
  kgen::sim::set_timing_only(false);
}

namespace {
// Many small tiles: tens of thousands of records per core, past the streamed encoder's chunk of records.
void k_small_tiles(GM_ADDR x, GM_ADDR y) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  constexpr int kSmall = 64, kCount = 2500;
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> in;
  pipe.InitBuffer(in, 2, kSmall * sizeof(float));
  GlobalTensor<float> xg, yg;
  const int64_t base = GetBlockIdx() * kSmall * kCount;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + base, kSmall * kCount);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + base, kSmall * kCount);
  for (int t = 0; t < kCount; ++t) {
    LocalTensor<float> a = in.AllocTensor<float>();
    DataCopy(a, xg[t * kSmall], kSmall);
    in.EnQue(a);
    LocalTensor<float> b = in.DeQue<float>();
    Muls(b, b, 3.0f, kSmall);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg[t * kSmall], b, kSmall);
    PipeBarrier<PIPE_ALL>();
    in.FreeTensor(b);
  }
}
}  // namespace

// kgen-oprun streams a trace in pieces (a chunk of records at a time); the bytes must be exactly those of the whole
// trace encoded at once, whatever the chunking.
TEST(TimingOnly, StreamedTraceEqualsTheWholeEncoding) {
  kgen::sim::set_throw_on_error(true);
  constexpr int kBlocks3 = 3;
  const size_t bytes = size_t(kBlocks3) * 64 * 2500 * sizeof(float);
  void* x = kgen::sim::gm_reserve(bytes);
  void* y = kgen::sim::gm_reserve(bytes);
  kgen::sim::set_timing_only(true);
  std::string err = error_of([&] { ICPU_RUN_KF(k_small_tiles, kBlocks3, (GM_ADDR)x, (GM_ADDR)y); });
  kgen::sim::set_timing_only(false);
  ASSERT_EQ(err, "");
  const kgen::sim::LaunchTrace& t = kgen::sim::last_launch_trace();
  ASSERT_EQ(t.cores.size(), 3u);
  ASSERT_GT(t.cores[0].recs.size(), 20000u);
  const std::string whole = kgen::perf::encode_ktrace(kgen::perf::from_launch(t, &kgen::sim::gm_locate));
  std::string streamed;
  uint64_t announced = 0;
  int pieces = 0;
  ASSERT_TRUE(kgen::perf::encode_launch(
      t, &kgen::sim::gm_locate, [&](uint64_t n) { announced = n; return true; },
      [&](const std::string& p) { streamed += p; ++pieces; return true; }));
  EXPECT_EQ(announced, whole.size());
  EXPECT_GT(pieces, 3 * 2 + 1);   // more than a head and one piece per core
  EXPECT_EQ(streamed, whole);
  kgen::perf::KTrace back;
  std::string derr;
  ASSERT_TRUE(kgen::perf::decode_ktrace(streamed, back, derr)) << derr;
  EXPECT_EQ(back.cores[2].ops.size(), t.cores[2].recs.size());
  GmFree(x);
  GmFree(y);
}
