// The GM access record keeps spans of equal history: a scalar GetValue/SetValue loop over GM must stay a few
// spans (not one per element), and merging must not hide a release (CrossCoreSetFlag) between two accesses.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/gm.h"
#include "sim/gm_races.h"
#include "sim/testing.h"
#include "sim/trace_io.h"
#include "tikicpulib.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
constexpr int kN = 4096;

void k_scalar_copy(GM_ADDR x, GM_ADDR y) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kN);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kN);
  for (int i = 0; i < kN; ++i) yg.SetValue(i, xg.GetValue(i) + 1.0f);
  for (int i = 0; i < kN; ++i) yg.SetValue(i, yg.GetValue(i) * 2.0f);   // read-modify-write, as index_add does
}

// Block 0 writes [0, 8) before its release and [8, 16) after it; block 1 reads [from, from + 8) after the wait.
template <int from>
void k_release_split(GM_ADDR ws) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
  GlobalTensor<int32_t> w;
  w.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws), 64);
  int64_t me = GetBlockIdx();
  if (me == 0)
    for (int i = 0; i < 8; ++i) w.SetValue(i, i);
  CrossCoreSetFlag<0, PIPE_MTE3>(1);
  if (me == 0)
    for (int i = 8; i < 16; ++i) w.SetValue(i, i);
  CrossCoreWaitFlag(1);
  int32_t s = 0;
  if (me == 1)
    for (int i = from; i < from + 8; ++i) s += w.GetValue(i);
  if (me == 1) w.SetValue(32, s);
}
}  // namespace

TEST(GmSpans, ScalarLoopStaysFewSpans) {
  kgen::sim::set_throw_on_error(true);
  float* x = static_cast<float*>(GmAlloc(kN * sizeof(float)));
  float* y = static_cast<float*>(GmAlloc(kN * sizeof(float)));
  for (int i = 0; i < kN; ++i) x[i] = static_cast<float>(i);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_scalar_copy, 1, (GM_ADDR)x, (GM_ADDR)y); }), "");
  for (int i = 0; i < kN; ++i) ASSERT_EQ(y[i], (static_cast<float>(i) + 1.0f) * 2.0f) << i;
  EXPECT_LE(kgen::sim::gm_span_count(), 4u);   // x and y: one span each (was 2 * kN)
  // The trace: one record per scalar line of the loop bodies, with the counts (was one per access in loop 2).
  const auto& t = kgen::sim::last_launch_trace();
  ASSERT_EQ(t.cores.size(), 1u);
  uint64_t gets = 0, sets = 0;
  size_t scalar_recs = 0;
  for (const auto& r : t.cores[0].recs) {
    if (r.kind != kgen::sim::TraceRec::Instr || r.pipe != kgen::sim::kS) continue;
    ++scalar_recs;
    (std::string(r.api) == "GlobalTensor::GetValue" ? gets : sets) += r.count;
  }
  EXPECT_EQ(gets, 2u * kN);
  EXPECT_EQ(sets, 2u * kN);
  EXPECT_LE(scalar_recs, 8u);
  GmFree(x);
  GmFree(y);
}

TEST(GmSpans, MergeKeepsAReleaseBetweenScalarWrites) {
  kgen::sim::set_throw_on_error(true);
  int32_t* ws = static_cast<int32_t*>(GmAlloc(64 * sizeof(int32_t)));
  kgen::sim::reset_kernel_modes();
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(k_release_split<0>, 2, (GM_ADDR)ws); }), "");
  EXPECT_EQ(ws[32], 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
  kgen::sim::reset_kernel_modes();
  std::string e = error_of([&] { ICPU_RUN_KF(k_release_split<8>, 2, (GM_ADDR)ws); });
  EXPECT_EQ(e.rfind("error[race]", 0), 0u) << e;
  kgen::sim::reset_kernel_modes();
  GmFree(ws);
}

namespace {
// Writes -1 (all 0xFF bytes, like the op runner's poison) to the even elements of y and nothing to the odd ones.
void k_write_even(GM_ADDR y) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<int32_t> yg;
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y), 64);
  for (int i = 0; i < 64; i += 2) yg.SetValue(i, -1);
}
}  // namespace

TEST(GmSpans, WrittenElementsFollowTheWritesNotTheValues) {
  kgen::sim::set_throw_on_error(true);
  auto* y = static_cast<int32_t*>(GmAlloc(64 * sizeof(int32_t)));
  std::memset(y, 0xFF, 64 * sizeof(int32_t));
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_write_even, 1, (GM_ADDR)y); }), "");
  std::vector<bool> w = kgen::sim::gm_written_elements(y, 64, sizeof(int32_t));
  ASSERT_EQ(w.size(), 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(w[i], i % 2 == 0) << i;
  // As bytes: a write to any byte of an element marks it; elements outside the launch's writes are not marked.
  std::vector<bool> wb = kgen::sim::gm_written_elements(y, 256, 1);
  EXPECT_TRUE(wb[0] && wb[3] && !wb[4] && wb[8]);
  GmFree(y);
}

namespace {
// One DataCopy of `n` floats from UB to GM (out) and one back (in): a kernel that moves a whole 32-byte block for
// a 1-element tensor, as MultiKernelBench's own reduce_sum example does for its 0-d result.
template <int n>
void k_block_store(GM_ADDR in, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, n * sizeof(float));
  LocalTensor<float> t = b.Get<float>();
  GlobalTensor<float> ig, og;
  ig.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), 1);
  og.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 1);
  DataCopy(t, ig, n);
  event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_MTE3));
  SetFlag<HardEvent::MTE2_MTE3>(e);
  WaitFlag<HardEvent::MTE2_MTE3>(e);
  DataCopy(og, t, n);
}
}  // namespace

TEST(GmGranule, DeviceRoundingAllowsWholeBlocks) {
  kgen::sim::set_throw_on_error(true);
  // A 4-byte tensor: without the device allocator's rounding a 32-byte DataCopy is out of bounds...
  float* in = static_cast<float*>(GmAlloc(sizeof(float)));
  float* out = static_cast<float*>(GmAlloc(sizeof(float)));
  in[0] = 3.5f;
  std::string e = error_of([&] { ICPU_RUN_KF(k_block_store<8>, 1, (GM_ADDR)in, (GM_ADDR)out); });
  EXPECT_NE(e.find("gm-out-of-bounds"), std::string::npos) << e;
  // ...with it (512 bytes, torch_npu's caching allocator) it is what the chip does; the padding reads as 0xFF.
  kgen::sim::gm_set_granule(in, 512);
  kgen::sim::gm_set_granule(out, 512);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(k_block_store<8>, 1, (GM_ADDR)in, (GM_ADDR)out); }), "");
  EXPECT_EQ(out[0], 3.5f);
  uint32_t pad;
  std::memcpy(&pad, reinterpret_cast<uint8_t*>(out) + 4, 4);
  EXPECT_EQ(pad, 0xFFFFFFFFu);   // the padding of `in`, copied: no tensor's data
  // Past the rounded size is still a fault, and the message says how much was allocated.
  e = error_of([&] { ICPU_RUN_KF(k_block_store<136>, 1, (GM_ADDR)in, (GM_ADDR)out); });
  EXPECT_NE(e.find("gm-out-of-bounds"), std::string::npos) << e;
  EXPECT_NE(e.find("512 bytes allocated"), std::string::npos) << e;
  GmFree(in);
  GmFree(out);
}

namespace {
// One float computed in UB (SetValue), stored with a whole 32-byte DataCopy: the other 7 floats of the block were
// never written.
void k_partial_store(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 32);
  LocalTensor<float> t = b.Get<float>();
  t.SetValue(0, 42.0f);
  GlobalTensor<float> og;
  og.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 8);
  event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
  SetFlag<HardEvent::S_MTE3>(e);
  WaitFlag<HardEvent::S_MTE3>(e);
  DataCopy(og, t, 8);
}
}  // namespace

TEST(GmGranule, GarbageMayFillOnlyThePadding) {
  kgen::sim::set_throw_on_error(true);
  // Into a 1-float tensor: the 7 garbage floats land in the allocation's rounding, which is no tensor's data.
  float* one = static_cast<float*>(GmAlloc(sizeof(float)));
  kgen::sim::gm_set_granule(one, 512);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(k_partial_store, 1, (GM_ADDR)one); }), "");
  EXPECT_EQ(one[0], 42.0f);
  // Into an 8-float tensor they would be its data: still an uninit-read.
  float* eight = static_cast<float*>(GmAlloc(8 * sizeof(float)));
  kgen::sim::gm_set_granule(eight, 512);
  std::string e = error_of([&] { ICPU_RUN_KF(k_partial_store, 1, (GM_ADDR)eight); });
  EXPECT_NE(e.find("uninit-read"), std::string::npos) << e;
  GmFree(one);
  GmFree(eight);
}

namespace {
constexpr int kTileF = 64, kTilesPerBlock = 64;
// Each block copies its kTilesPerBlock tiles of x to y through UB, reads and writes interleaved (the access record's
// hints follow two streams). With `overlap`, block 1's output starts half-way into block 0's: a race at its first
// store, at y's bytes [8192, 8448).
template <bool overlap>
void k_two_streams(GM_ADDR x, GM_ADDR y) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> in;
  pipe.InitBuffer(in, 1, kTileF * sizeof(float));
  const int64_t me = GetBlockIdx();
  const int64_t out_base = me * kTileF * kTilesPerBlock - (overlap && me == 1 ? kTileF * kTilesPerBlock / 2 : 0);
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + me * kTileF * kTilesPerBlock, kTileF * kTilesPerBlock);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + out_base, kTileF * kTilesPerBlock);
  for (int t = 0; t < kTilesPerBlock; ++t) {
    LocalTensor<float> a = in.AllocTensor<float>();
    DataCopy(a, xg[t * kTileF], kTileF);
    in.EnQue(a);
    LocalTensor<float> b = in.DeQue<float>();
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_MTE3));
    SetFlag<HardEvent::MTE2_MTE3>(e);
    WaitFlag<HardEvent::MTE2_MTE3>(e);
    DataCopy(yg[t * kTileF], b, kTileF);
    PipeBarrier<PIPE_ALL>();
    in.FreeTensor(b);
  }
}
}  // namespace

// A lookup through the hints finds the same history as a search of the whole record: a race in the middle of a long
// stream of tiles is found at its exact bytes, and disjoint streams pass.
TEST(GmSpans, StreamsOfTilesFindTheirRaces) {
  kgen::sim::set_throw_on_error(true);
  const size_t n = size_t(2) * kTileF * kTilesPerBlock;
  float* x = static_cast<float*>(GmAlloc(n * sizeof(float)));
  float* y = static_cast<float*>(GmAlloc(n * sizeof(float)));
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_two_streams<false>, 2, (GM_ADDR)x, (GM_ADDR)y); }), "");
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], static_cast<float>(i)) << i;
  std::string e = error_of([&] { ICPU_RUN_KF(k_two_streams<true>, 2, (GM_ADDR)x, (GM_ADDR)y); });
  EXPECT_EQ(e.rfind("error[race]", 0), 0u) << e;
  EXPECT_NE(e.find("block 1"), std::string::npos) << e;
  EXPECT_NE(e.find("bytes [8192, 8448)"), std::string::npos) << e;
  GmFree(x);
  GmFree(y);
}
