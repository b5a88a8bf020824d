// The emulator core: TPipe/TQue/TBuf, DataCopy/DataCopyPad semantics, SyncAll, atomics, the trace, and every
// check category the core raises (each test asserts the category and the API the message names), plus
// correct pipelines that must raise nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#include <unistd.h>

#include "kernel_operator.h"
#include "sim/gm.h"
#include "sim/int_div_trap.h"
#include "sim/stale_tensor.h"
#include "sim/testing.h"
#include "sim/trace_io.h"
#include "tikicpulib.h"

using namespace AscendC;
using kgen::sim::error_of;
using kgen::sim::TestCore;

namespace {
// The error line names the category as error[CAT] and the API as "... block B API: message".
::testing::AssertionResult IsError(const std::string& e, const char* cat, const char* api) {
  if (e.find(std::string("error[") + cat + "]") == std::string::npos)
    return ::testing::AssertionFailure() << "expected category " << cat << ", got: '" << e << "'";
  if (e.find(std::string(" ") + api + ": ") == std::string::npos)
    return ::testing::AssertionFailure() << "expected API " << api << ", got: '" << e << "'";
  return ::testing::AssertionSuccess();
}
#define EXPECT_SIM_ERROR(stmt, cat, api) EXPECT_TRUE(IsError(error_of([&] { stmt; }), cat, api))

// GM from GmAlloc, freed at scope end.
template <class T> struct Gm {
  T* p;
  size_t n;
  explicit Gm(size_t count) : p(static_cast<T*>(GmAlloc(count * sizeof(T)))), n(count) {}
  ~Gm() { GmFree(p); }
  GlobalTensor<T> tensor() const { GlobalTensor<T> g; g.SetGlobalBuffer(p, n); return g; }
  T& operator[](size_t i) { return p[i]; }
};

constexpr uint32_t K = 1024;
}  // namespace

// ---------------------------------------------------------------- ub-overflow
TEST(CoreChecks, InitBufferPastUbOn910B2) {
  TestCore tc("Ascend910B2");
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  TBuf<TPosition::VECCALC> b1, b2;
  EXPECT_EQ(error_of([&] { pipe.InitBuffer(q, 2, 64 * K); }), "");
  EXPECT_EQ(error_of([&] { pipe.InitBuffer(b1, 64 * K); }), "");   // exactly 192 KB
  // Past the end: neither the InitBuffer nor taking the buffer checks it, as on the chip; an access beyond UB is the
  // error, naming the InitBuffer's line.
  const int line = __LINE__ + 1;
  EXPECT_EQ(error_of([&] { pipe.InitBuffer(b2, 32); }), "");
  LocalTensor<float> past;
  EXPECT_EQ(error_of([&] { past = b2.Get<float>(); }), "");
  EXPECT_SIM_ERROR(Duplicate(past, 1.0f, 8), "ub-overflow", "Duplicate");
  const std::string e = error_of([&] { Duplicate(past, 1.0f, 8); });
  EXPECT_NE(e.find("InitBuffer at line " + std::to_string(line) + ": 1 x 32 bytes at UB offset 196608 end at 196640"),
            std::string::npos) << e;
  EXPECT_EQ(error_of([&] { b1.Get<float>(); }), "");   // the buffers inside UB still work
}

// PopStackBuffer (CANN's kernel_pop_stack_buffer.h): the UB after the TPipe's buffers up to the stack's end, which on
// arch 2201 leaves the last 128 bytes (one KfcMsg); DuplicateImpl works on its raw address (NPUKernelBench's GeGluV2).
TEST(CoreChecks, PopStackBufferIsTheUbAfterTheTPipesBuffers) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1000);   // rounded to 1024
  LocalTensor<int16_t> stack;
  ASSERT_TRUE((PopStackBuffer<int16_t, TPosition::LCM>(stack)));
  EXPECT_EQ(stack.GetPhyAddr(), 1024u);
  EXPECT_EQ(stack.GetSize() * sizeof(int16_t), 192u * 1024 - 128 - 1024);
  DuplicateImpl<int16_t>(reinterpret_cast<int16_t*>(stack.GetPhyAddr()), 7, 64);
  EXPECT_EQ(stack.GetValue(63), 7);
  EXPECT_EQ(static_cast<int64_t>(block_idx), 0);   // bisheng's built-in variables (S81)
  EXPECT_EQ(static_cast<int64_t>(block_num), 1);
  EXPECT_EQ(static_cast<int64_t>(sub_block_idx), 0);
}

// A TBuf never given InitBuffer hands out an unbound tensor, as on the chip; using it is the error.
TEST(CoreChecks, TBufWithoutInitBufferFaultsOnUse) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> never;
  LocalTensor<float> t;
  EXPECT_EQ(error_of([&] { t = never.Get<float>(); }), "");
  const std::string e = error_of([&] { Duplicate(t, 1.0f, 8); });
  EXPECT_TRUE(IsError(e, "param", "Duplicate")) << e;
  EXPECT_NE(e.find("never bound to a buffer"), std::string::npos) << e;
}

TEST(CoreChecks, InitBufferPastUbOn310P3) {
  TestCore tc("Ascend310P3");
  TPipe pipe;
  TBuf<TPosition::VECCALC> b1, b2, b3;
  EXPECT_EQ(error_of([&] { pipe.InitBuffer(b1, 192 * K); }), "");   // fits the 256 KB UB of 310P
  EXPECT_EQ(error_of([&] { pipe.InitBuffer(b2, 64 * K - 32); }), "");
  pipe.InitBuffer(b3, 33);   // rounded to 64 bytes, 32 remain
  LocalTensor<float> t = b3.Get<float>();
  EXPECT_EQ(error_of([&] { Duplicate(t, 1.0f, 8); }), "");   // the 32 bytes inside UB
  EXPECT_SIM_ERROR(Duplicate(t, 1.0f, 16), "ub-overflow", "Duplicate");
}

TEST(CoreChecks, InitBufferSingleBufferLargerThanUb) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 2, 96 * K + 32);   // the first buffer fits, the second ends 64 bytes past UB
  EXPECT_EQ(error_of([&] { q.AllocTensor<float>(); }), "");
  LocalTensor<float> second;
  EXPECT_EQ(error_of([&] { second = q.AllocTensor<float>(); }), "");   // taking it is no access
  EXPECT_SIM_ERROR(Duplicate(second, 0.0f, (96 * K + 32) / 4), "ub-overflow", "Duplicate");
  // Offsets that would leave the 32-bit address range are refused at once.
  TBuf<TPosition::VECCALC> huge[3];
  pipe.InitBuffer(huge[0], 0x7fffffe0u);
  EXPECT_SIM_ERROR(pipe.InitBuffer(huge[1], 0x7fffffe0u), "ub-overflow", "InitBuffer");
}

TEST(CoreChecks, MoreThan64Buffers) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> bufs[65];
  for (int i = 0; i < 64; ++i) ASSERT_EQ(error_of([&] { pipe.InitBuffer(bufs[i], 32); }), "") << i;
  EXPECT_SIM_ERROR(pipe.InitBuffer(bufs[64], 32), "ub-overflow", "InitBuffer");
}

// The chip checks no buffer bounds: an access past its tensor's buffer inside UB touches the next buffer's bytes
// (CANN's TBuf::Get asserts the length in CPU-debug builds only), counted as warning[buffer-overrun].
TEST(CoreChecks, AccessPastBufferEndTouchesTheNextBuffer) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  pipe.InitBuffer(tb, 64 * sizeof(float));   // right after q's buffer
  Gm<float> gm(256);
  for (int i = 0; i < 256; ++i) gm[i] = static_cast<float>(i);
  auto t = q.AllocTensor<float>();
  EXPECT_EQ(kgen::sim::buffer_overrun_warning("k"), "");
  EXPECT_EQ(error_of([&] { DataCopy(t, gm.tensor(), 128); }), "");
  const std::string w = kgen::sim::buffer_overrun_warning("k");
  EXPECT_NE(w.find("warning[buffer-overrun] kernel k: 1 access(es)"), std::string::npos) << w;
  EXPECT_NE(w.find("DataCopy writes UB[0, 512) past the end of its buffer UB[0, 256) by 256 bytes"), std::string::npos)
      << w;
  LocalTensor<float> next;
  EXPECT_EQ(error_of([&] { next = tb.Get<float>(); }), "");
  EXPECT_EQ(next.GetValue(3), 67.0f);       // the copy's elements 64.. landed in the next buffer
  EXPECT_EQ(t.GetValue(64), 64.0f);         // and read back through the first tensor
  t.SetValue(70, -1.0f);
  EXPECT_EQ(next.GetValue(6), -1.0f);
  EXPECT_EQ(error_of([&] { (void)tb.Get<float>(65); }), "");            // more than the TBuf holds: handed out
  EXPECT_EQ(error_of([&] { (void)tb.GetWithOffset<float>(64, 32); }), "");
  LocalTensor<float> big = tb.Get<float>(128);
  EXPECT_TRUE(IsError(error_of([&] { (void)big.GetValue(100); }), "uninit-read", "GetValue"));   // nothing wrote it
}

// A zero-length buffer is accepted, as on the chip (CANN checks len > 0 in CPU-debug builds only); it takes no UB, so
// a tensor from it writes the next buffer's bytes.
TEST(CoreChecks, ZeroLengthBufferRunsIntoTheNext) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> empty, other;
  EXPECT_EQ(error_of([&] { pipe.InitBuffer(empty, 0); }), "");
  EXPECT_EQ(error_of([&] { pipe.InitBuffer(other, 64); }), "");
  Gm<float> gm(64);
  gm[2] = 5.0f;
  auto t = empty.Get<float>(8);
  EXPECT_EQ(error_of([&] { DataCopy(t, gm.tensor(), 8); }), "");
  EXPECT_EQ(other.Get<float>().GetValue(2), 5.0f);
  EXPECT_NE(kgen::sim::buffer_overrun_warning("k"), "");
}

// TPipe::Destroy does not reset the memory pools (CANN's kernel_tpipe_impl.h): tensors taken before stay usable, and
// a new TPipe may start, allocating from offset 0 again. Two live TPipes are an error.
TEST(CoreChecks, DestroyKeepsTensorsAndAllowsANewPipe) {
  TestCore tc;
  Gm<float> gm(64);
  for (int i = 0; i < 64; ++i) gm.p[i] = static_cast<float>(i);
  TPipe first;
  TBuf<TPosition::VECCALC> tb;
  first.InitBuffer(tb, 64 * sizeof(float));
  auto t = tb.Get<float>();
  EXPECT_EQ(error_of([&] { first.Destroy(); }), "");
  EXPECT_EQ(error_of([&] { DataCopy(t, gm.tensor(), 64); PipeBarrier<PIPE_ALL>(); }), "");
  EXPECT_EQ(t.GetValue(5), 5.0f);
  std::string e = error_of([&] {
    TPipe second;
    TBuf<TPosition::VECCALC> tb2;
    second.InitBuffer(tb2, 32 * sizeof(float));
    auto u = tb2.Get<float>();
    EXPECT_EQ(u.GetValue(5), 5.0f);   // the same UB bytes as t's: the new pipe starts at offset 0
  });
  EXPECT_EQ(e, "");
  TestCore tc2;
  TPipe live;
  EXPECT_SIM_ERROR(TPipe other, "param", "TPipe");
}

// ---------------------------------------------------------------- align
TEST(CoreChecks, DataCopyCountNotMultipleOf32Bytes) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  Gm<float> gm(256);
  auto x = tb.Get<float>();
  EXPECT_SIM_ERROR(DataCopy(x, gm.tensor(), 7), "align", "DataCopy");
  Gm<half> gh(256);
  auto xh = tb.Get<half>();
  EXPECT_SIM_ERROR(DataCopy(xh, gh.tensor(), 24), "align", "DataCopy");   // 48 bytes
  EXPECT_EQ(error_of([&] { DataCopy(xh, gh.tensor(), 32); }), "");        // 64 bytes
}

TEST(CoreChecks, UnalignedTensorView) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  Gm<float> gm(256);
  auto x = tb.Get<float>();
  GlobalTensor<float> g = gm.tensor();
  EXPECT_SIM_ERROR(DataCopy(g, x[3], 8), "align", "DataCopy");
  EXPECT_SIM_ERROR(DataCopy(x[3], g, 8), "align", "DataCopy");
  EXPECT_SIM_ERROR(Add(x, x[3], x, 8), "align", "Add");
}

TEST(CoreChecks, GetWithOffsetUnaligned) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  EXPECT_SIM_ERROR(tb.GetWithOffset<float>(8, 16), "align", "GetWithOffset");
  EXPECT_EQ(error_of([&] { tb.GetWithOffset<float>(8, 64); }), "");
}

// ---------------------------------------------------------------- gm-out-of-bounds
TEST(CoreChecks, GmOutOfBounds) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  auto x = tb.Get<float>();
  Gm<float> gm(100);   // 400 bytes
  GlobalTensor<float> g = gm.tensor();
  EXPECT_EQ(error_of([&] { DataCopy(x, g[88], 8); }), "");      // ends at byte 384
  EXPECT_SIM_ERROR(DataCopy(x, g[96], 8), "gm-out-of-bounds", "DataCopy");
  PipeBarrier<PIPE_ALL>();
  EXPECT_SIM_ERROR(DataCopy(g[96], x, 8), "gm-out-of-bounds", "DataCopy");
  std::string e = error_of([&] { DataCopy(x, g[104], 8); });   // starts past the end
  EXPECT_TRUE(IsError(e, "gm-out-of-bounds", "DataCopy"));
  EXPECT_NE(e.find("16 bytes past the end of a 400-byte GM buffer"), std::string::npos) << e;
  EXPECT_SIM_ERROR(g.GetValue(100), "gm-out-of-bounds", "GetValue");
  EXPECT_SIM_ERROR(g.SetValue(101, 1.0f), "gm-out-of-bounds", "SetValue");
  DataCopyExtParams p(1, 20, 0, 0, 0);
  EXPECT_SIM_ERROR(DataCopyPad(x, g[96], p, DataCopyPadExtParams<float>()), "gm-out-of-bounds", "DataCopyPad");
}

TEST(CoreChecks, GmNullAndUnregistered) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  auto x = tb.Get<float>();
  GlobalTensor<float> never_set;
  std::string e = error_of([&] { DataCopy(x, never_set, 8); });
  EXPECT_TRUE(IsError(e, "gm-out-of-bounds", "DataCopy"));
  EXPECT_NE(e.find("null"), std::string::npos) << e;
  std::vector<float> host(64);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(host.data(), host.size());
  e = error_of([&] { DataCopy(x, g, 8); });
  EXPECT_TRUE(IsError(e, "gm-out-of-bounds", "DataCopy"));
  EXPECT_NE(e.find("not inside any GM buffer"), std::string::npos) << e;
}

// ---------------------------------------------------------------- queue
TEST(CoreChecks, DeQueOnEmpty) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 2, 256);
  EXPECT_SIM_ERROR(q.DeQue<float>(), "queue", "DeQue");
}

TEST(CoreChecks, AllocWithNoFreeBuffer) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  auto a = q.AllocTensor<float>();
  EXPECT_SIM_ERROR(q.AllocTensor<float>(), "queue", "AllocTensor");
  q.FreeTensor(a);
  EXPECT_EQ(error_of([&] { q.AllocTensor<float>(); }), "");
}

TEST(CoreChecks, DoubleEnQueAndEnQuePastDepth) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 2, 256);
  auto a = q.AllocTensor<float>();
  auto b = q.AllocTensor<float>();
  q.EnQue(a);
  EXPECT_SIM_ERROR(q.EnQue(a), "queue", "EnQue");
  EXPECT_SIM_ERROR(q.EnQue(b), "queue", "EnQue");   // depth 1 is full
  TQue<TPosition::VECIN, 2> q2;
  pipe.InitBuffer(q2, 2, 256);
  auto c = q2.AllocTensor<float>();
  auto d = q2.AllocTensor<float>();
  q2.EnQue(c);
  EXPECT_EQ(error_of([&] { q2.EnQue(d); }), "");   // depth 2 takes two
  EXPECT_EQ(q2.GetTensorCountInQue(), 2);
}

TEST(CoreChecks, MoreThan8LiveBuffersInOnePosition) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q1, q2;
  pipe.InitBuffer(q1, 5, 256);
  pipe.InitBuffer(q2, 5, 256);
  for (int i = 0; i < 5; ++i) q1.AllocTensor<float>();
  for (int i = 0; i < 3; ++i) q2.AllocTensor<float>();
  std::string e = error_of([&] { q2.AllocTensor<float>(); });
  EXPECT_TRUE(IsError(e, "queue", "AllocTensor"));
  EXPECT_NE(e.find("VECIN"), std::string::npos) << e;
}

TEST(CoreChecks, TensorOfTheWrongQueue) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q1, q2;
  TQue<TPosition::VECOUT, 1> out;
  pipe.InitBuffer(q1, 1, 256);
  pipe.InitBuffer(q2, 1, 256);
  pipe.InitBuffer(out, 1, 256);
  auto a = q1.AllocTensor<float>();
  EXPECT_SIM_ERROR(q2.EnQue(a), "queue", "EnQue");
  // FreeTensor through another queue between the same pipes frees the tensor's own buffer, as CANN's does (its
  // buffer check is CPU-debug only): q1 can allocate it again. Between other pipes it is the error.
  EXPECT_SIM_ERROR(out.FreeTensor(a), "queue", "FreeTensor");
  EXPECT_EQ(error_of([&] { q2.FreeTensor(a); }), "");
  EXPECT_EQ(error_of([&] { (void)q1.AllocTensor<float>(); }), "");
}

namespace {
void kernel_leaves_tensor_queued(GM_ADDR) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  auto a = q.AllocTensor<float>();
  a.SetValue(0, 1.0f);
  q.EnQue(a);
}
}  // namespace

TEST(CoreChecks, TensorStillQueuedAtKernelEnd) {
  kgen::sim::set_throw_on_error(true);
  Gm<uint8_t> gm(64);
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_leaves_tensor_queued, 1, gm.p); });
  EXPECT_TRUE(IsError(e, "queue", "EnQue"));
  EXPECT_NE(e.find("still in a queue"), std::string::npos) << e;
  EXPECT_NE(e.find("core_checks_test.cpp:"), std::string::npos) << "points at the kernel's EnQue: " << e;
}

namespace {
// A destructor that waits for a flag its constructor set (Catlass's ~BlockMmad): after an error elsewhere it waits
// for a flag nobody set, while the first error unwinds.
struct WaitsOnExit {
  WaitsOnExit() { SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1); }
  ~WaitsOnExit() {
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);   // never set: a second error, during the unwinding
  }
};
void kernel_error_then_destructor_error(GM_ADDR gm) {
  WaitsOnExit guard;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 256);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm), 16);
  DataCopy(tb.Get<float>(), g, 7);   // the first error: 28 bytes, not a multiple of 32
}
int32_t g_quotient = -1;
void kernel_divides_by_zero(GM_ADDR) {
  volatile int32_t zero = 0, seven = 7;
  g_quotient = seven / zero;
}
}  // namespace

// The first error is the one reported when a destructor fails again while it unwinds (not std::terminate).
TEST(CoreChecks, ErrorInADestructorWhileUnwindingKeepsTheFirst) {
  kgen::sim::set_throw_on_error(true);
  Gm<float> gm(16);
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_error_then_destructor_error, 2, (GM_ADDR)gm.p); });
  EXPECT_TRUE(IsError(e, "align", "DataCopy"));
}

// ---------------------------------------------------------------- GM through a plain pointer (guard on, as in kgen-oprun)
namespace {
// Each core reads the scale through a plain pointer (the chip's scalar unit loads it) and stores x * scale with the
// API; the read is traced as a scalar GM load.
void kernel_reads_scale_by_pointer(GM_ADDR scale, GM_ADDR y) {
  const float s = *reinterpret_cast<__gm__ float*>(scale);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
  g.SetValue(GetBlockIdx(), s * static_cast<float>(GetBlockIdx()));
}
void kernel_writes_by_pointer(GM_ADDR, GM_ADDR y) { *reinterpret_cast<__gm__ float*>(y) = 1.0f; }
// Core 1 reads through a pointer what core 0 writes with the API, with no SyncAll between: a race.
void kernel_reads_a_neighbours_write(GM_ADDR, GM_ADDR y) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 8);
  if (GetBlockIdx() == 0) g.SetValue(0, 5.0f);
  else g.SetValue(1, *reinterpret_cast<__gm__ float*>(y));
}
struct GuardOn {
  GuardOn() { kgen::sim::gm_guard(true); }
  ~GuardOn() { kgen::sim::gm_guard(false); }
};
}  // namespace

TEST(CoreChecks, ScalarGmReadThroughAPointerIsATracedLoad) {
  kgen::sim::set_throw_on_error(true);
  Gm<float> scale(8), y(8);
  scale[0] = 2.5f;
  GuardOn guard;
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_reads_scale_by_pointer, 4, (GM_ADDR)scale.p, (GM_ADDR)y.p); }), "");
  for (int b = 0; b < 4; ++b) EXPECT_EQ(y[b], 2.5f * b);
  uint64_t reads = 0;
  for (const auto& core : kgen::sim::last_launch_trace().cores)
    for (const auto& r : core.recs)
      if (r.api && std::string(r.api) == "GM scalar read through a pointer") reads += r.count;
  EXPECT_EQ(reads, 4u);
}

TEST(CoreChecksDeathTest, GmWriteThroughAPointerStaysAnError) {
  Gm<float> scale(8), y(8);
  EXPECT_EXIT(
      {
        GuardOn guard;
        ICPU_RUN_KF(kernel_writes_by_pointer, 1, (GM_ADDR)scale.p, (GM_ADDR)y.p);
      },
      ::testing::ExitedWithCode(3), "error\\[raw-gm-access\\].*writes");
}

TEST(CoreChecksDeathTest, GmReadThroughAPointerIsRaceChecked) {
  Gm<float> scale(8), y(8);
  EXPECT_EXIT(
      {
        GuardOn guard;
        ICPU_RUN_KF(kernel_reads_a_neighbours_write, 2, (GM_ADDR)scale.p, (GM_ADDR)y.p);
      },
      ::testing::ExitedWithCode(3), "error\\[race\\] [^ ]*:[0-9]+ block 1 GM scalar read through a pointer");
}

// An integer division by zero in kernel code does not trap, as on the AI Core: the quotient is 0 here.
TEST(CoreChecks, IntegerDivisionByZeroDoesNotTrap) {
  kgen::sim::set_throw_on_error(true);
  Gm<uint8_t> gm(64);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_divides_by_zero, 3, gm.p); }), "");
  EXPECT_EQ(g_quotient, 0);
  EXPECT_EQ(kgen::sim::IntDivNoTrap::count(), 3u);
}

// ---------------------------------------------------------------- use-after-free
// A tensor used after FreeTensor reads the bytes its buffer still holds, as on the chip (stale_tensor.h): counted and
// warned, not a fault; freeing it twice stays a queue error.
TEST(CoreChecks, TensorUsedAfterFreeReadsTheBytesStillThere) {
  TestCore tc;
  kgen::sim::reset_stale_uses();
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  auto a = q.AllocTensor<float>();
  a.SetValue(0, 1.5f);
  q.FreeTensor(a);
  EXPECT_EQ(a.GetValue(0), 1.5f);
  EXPECT_EQ(kgen::sim::stale_uses().count, 1u);
  EXPECT_NE(kgen::sim::stale_uses().first.find("GetValue"), std::string::npos);
  EXPECT_NE(kgen::sim::stale_use_warning("k").find("warning[use-after-free] kernel k: 1 use(s)"), std::string::npos);
  EXPECT_SIM_ERROR(q.FreeTensor(a), "use-after-free", "FreeTensor");
}

// What the chip does get wrong: the next AllocTensor's writer (MTE2) waits only for the FreeTensor, not for a vector
// read after it, so the copy may overwrite the bytes before the stale read: error[race] at the copy.
TEST(CoreChecks, TensorUsedAfterFreeRacesWithTheBuffersNextWriter) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> in;
  TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(in, 1, 256);
  pipe.InitBuffer(tmp, 256);
  Gm<float> gm(64);
  auto x = in.AllocTensor<float>();
  DataCopy(x, gm.tensor(), 64);
  in.EnQue(x);
  x = in.DeQue<float>();
  auto y = tmp.Get<float>();
  Abs(y, x, 64);
  in.FreeTensor(x);
  Abs(y, x, 64);   // after the free: fine by itself
  auto x2 = in.AllocTensor<float>();
  gm[0] = 7.0f;    // the next copy brings other bytes (copying the same ones again would be no race)
  EXPECT_SIM_ERROR(DataCopy(x2, gm.tensor(), 64), "race", "DataCopy");
}

TEST(CoreChecks, TensorUsedAfterPipeResetReadsTheBytesStillThere) {
  TestCore tc;
  kgen::sim::reset_stale_uses();
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 256);
  auto x = tb.Get<float>();
  x.SetValue(0, 2.0f);
  pipe.Reset();
  EXPECT_EQ(x.GetValue(0), 2.0f);
  EXPECT_EQ(kgen::sim::stale_uses().count, 1u);
}

// ---------------------------------------------------------------- uninit-read
TEST(CoreChecks, UninitRead) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  Gm<float> gm(64);
  auto a = q.AllocTensor<float>();
  EXPECT_SIM_ERROR(DataCopy(gm.tensor(), a, 8), "uninit-read", "DataCopy");
  EXPECT_SIM_ERROR(a.GetValue(3), "uninit-read", "GetValue");
  for (int i = 0; i < 8; ++i) a.SetValue(i, 1.0f);
  PipeBarrier<PIPE_ALL>();
  // a reduction mixes lanes: 8..15 were never written
  EXPECT_SIM_ERROR(WholeReduceSum(a[32], a, 16, 1, 1, 1, 8), "uninit-read", "WholeReduceSum");
}

// A count-form elementwise instruction over lanes nothing wrote computes garbage there, as the chip does, without a
// fault (a count rounded up to whole repeats past the data copied in); the error comes where those lanes are used:
// copied to GM, read by the scalar unit or by an instruction that mixes lanes, reported at the instruction where the
// garbage entered.
TEST(CoreChecks, GarbageLanesFailWhereTheyAreUsed) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 4096);
  Gm<float> gm(64);
  auto a = tb.Get<float>();
  auto b = a[64];
  auto m = a[128].ReinterpretCast<uint8_t>();
  auto z = a[192];
  for (int i = 0; i < 40; ++i) a.SetValue(i, static_cast<float>(i));
  PipeBarrier<PIPE_ALL>();
  const int line = __LINE__ + 1;
  Adds(b, a, 1.0f, 64);                                                   // lanes 40..63 are garbage
  CompareScalar(m, b, 20.0f, CMPMODE::LT, 64);                             // so are their mask bits
  Select(z, m, b, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);            // and their selections
  PipeBarrier<PIPE_ALL>();
  DataCopy(gm.tensor(), z, 40);                                            // the 40 lanes that hold data: fine
  for (int i = 0; i < 40; ++i) EXPECT_EQ(gm[i], i + 1 < 20 ? i + 1.0f : 0.0f) << i;
  // the garbage reaching GM fails, at the instruction where it entered
  const std::string e = error_of([&] { DataCopy(gm.tensor(), z, 64); });
  EXPECT_TRUE(IsError(e, "uninit-read", "Adds")) << e;
  EXPECT_NE(e.find(":" + std::to_string(line) + " block"), std::string::npos) << e;
  EXPECT_NE(e.find("reach DataCopy at line"), std::string::npos) << e;
  EXPECT_NE(e.find("last written by Select"), std::string::npos) << e;
  // so does the scalar unit's read of one
  EXPECT_SIM_ERROR(z.GetValue(50), "uninit-read", "Adds");
  EXPECT_EQ(z.GetValue(10), 11.0f);
}

// ---------------------------------------------------------------- race
namespace {
struct RaceRig {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  Gm<float> gm{256};
  LocalTensor<float> x, z;
  RaceRig() {
    pipe.InitBuffer(tb, 2 * 64 * sizeof(float));
    x = tb.Get<float>(64);
    z = tb.GetWithOffset<float>(64, 64 * sizeof(float));
    for (int i = 0; i < 256; ++i) gm[i] = static_cast<float>(i);
  }
};
}  // namespace

TEST(CoreChecks, RaceMissingMte2ToV) {
  TestCore tc;
  RaceRig r;
  DataCopy(r.x, r.gm.tensor(), 64);
  std::string e = error_of([&] { Add(r.z, r.x, r.x, 64); });
  EXPECT_TRUE(IsError(e, "race", "Add"));
  EXPECT_NE(e.find("MTE2_V"), std::string::npos) << e;
}

TEST(CoreChecks, RaceMissingVToMte3) {
  TestCore tc;
  RaceRig r;
  DataCopy(r.x, r.gm.tensor(), 64);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  Add(r.z, r.x, r.x, 64);
  std::string e = error_of([&] { DataCopy(r.gm.tensor(), r.z, 64); });
  EXPECT_TRUE(IsError(e, "race", "DataCopy"));
  EXPECT_NE(e.find("V_MTE3"), std::string::npos) << e;
}

TEST(CoreChecks, RaceWarVToMte2OnReuse) {
  TestCore tc;
  RaceRig r;
  DataCopy(r.x, r.gm.tensor(), 64);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  Add(r.z, r.x, r.x, 64);
  std::string e = error_of([&] { DataCopy(r.x, r.gm.tensor()[64], 64); });   // next tile into the same buffer
  EXPECT_TRUE(IsError(e, "race", "DataCopy"));
  EXPECT_NE(e.find("V_MTE2"), std::string::npos) << e;
}

// A write racing with another pipe's read stores what the bytes already hold: either order leaves the same bytes, so
// the chip cannot go wrong (NPUKernelBench's ForeachZeroInplace Duplicates zeros over zeros MTE3 still copies out).
// Another value there is the race.
TEST(CoreChecks, RacingWriteOfTheSameBytesIsHarmless) {
  TestCore tc;
  RaceRig r;
  Duplicate(r.z, 0.0f, 64);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(r.gm.tensor(), r.z, 64);
  EXPECT_EQ(error_of([&] { Duplicate(r.z, 0.0f, 64); }), "");   // no MTE3 -> V wait: harmless, same bytes
  std::string e = error_of([&] { Duplicate(r.z, 1.0f, 64); });
  EXPECT_TRUE(IsError(e, "race", "Duplicate")) << e;
  EXPECT_NE(e.find("MTE3"), std::string::npos) << e;
}

TEST(CoreChecks, RaceWarOnQueueBufferReuseWithoutFreeTensor) {
  TestCore tc;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> qin;
  TQue<TPosition::VECOUT, 1> qout;
  pipe.InitBuffer(qin, 1, 256);
  pipe.InitBuffer(qout, 1, 256);
  Gm<float> gm(128);
  for (int i = 0; i < 128; ++i) gm[i] = static_cast<float>(i);   // the second tile differs from the first
  auto x = qin.AllocTensor<float>();
  DataCopy(x, gm.tensor(), 64);
  qin.EnQue(x);
  auto xi = qin.DeQue<float>();
  auto z = qout.AllocTensor<float>();
  Add(z, xi, xi, 64);
  // xi is never freed: reloading it by DataCopy races with the Add still reading it
  EXPECT_SIM_ERROR(DataCopy(xi, gm.tensor()[64], 64), "race", "DataCopy");
}

// Scalar accesses are synchronised by the compiler's automatic sync (the default); these two tests build
// the kernel as with --cce-auto-sync=off (KGEN_AUTO_SYNC=0), where the guide requires the flags.
TEST(CoreChecks, ScalarAccessAutoSyncedByDefault) {
  TestCore tc;
  RaceRig r;
  DataCopy(r.x, r.gm.tensor(), 64);
  EXPECT_EQ(r.x.GetValue(5), 5.0f);
  for (int i = 0; i < 64; ++i) r.x.SetValue(i, 1.0f);
  EXPECT_EQ(error_of([&] { Add(r.z, r.x, r.x, 64); }), "");
}

TEST(CoreChecks, RaceScalarReadAfterDataCopy) {
  TestCore tc;
  tc.core().auto_sync_scalar = false;
  RaceRig r;
  DataCopy(r.x, r.gm.tensor(), 64);
  std::string e = error_of([&] { r.x.GetValue(5); });
  EXPECT_TRUE(IsError(e, "race", "GetValue"));
  EXPECT_NE(e.find("MTE2"), std::string::npos) << e;
  SetFlag<HardEvent::MTE2_S>(0);
  WaitFlag<HardEvent::MTE2_S>(0);
  EXPECT_EQ(r.x.GetValue(5), 5.0f);
}

TEST(CoreChecks, RaceScalarWriteThenVector) {
  TestCore tc;
  tc.core().auto_sync_scalar = false;
  RaceRig r;
  for (int i = 0; i < 64; ++i) r.x.SetValue(i, 1.0f);
  EXPECT_SIM_ERROR(Add(r.z, r.x, r.x, 64), "race", "Add");
  SetFlag<HardEvent::S_V>(0);
  WaitFlag<HardEvent::S_V>(0);
  EXPECT_EQ(error_of([&] { Add(r.z, r.x, r.x, 64); }), "");
}

// ---------------------------------------------------------------- no false alarms
TEST(CoreChecks, NoFalseAlarmTQueDoubleBuffering) {
  TestCore tc;
  constexpr int kTile = 256, kTiles = 40;
  Gm<float> x(kTile * kTiles), y(kTile * kTiles), z(kTile * kTiles);
  for (int i = 0; i < kTile * kTiles; ++i) { x[i] = 0.25f * i; y[i] = 3.0f - i; }
  std::string e = error_of([&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, 2, kTile * sizeof(float));
    pipe.InitBuffer(qy, 2, kTile * sizeof(float));
    pipe.InitBuffer(qz, 2, kTile * sizeof(float));
    GlobalTensor<float> gx = x.tensor(), gy = y.tensor(), gz = z.tensor();
    auto copy_in = [&](int t) {
      auto a = qx.AllocTensor<float>();
      auto b = qy.AllocTensor<float>();
      DataCopy(a, gx[t * kTile], kTile);
      DataCopy(b, gy[t * kTile], kTile);
      qx.EnQue(a);
      qy.EnQue(b);
    };
    auto compute = [&] {
      auto a = qx.DeQue<float>();
      auto b = qy.DeQue<float>();
      auto c = qz.AllocTensor<float>();
      Add(c, a, b, kTile);
      qz.EnQue(c);
      qx.FreeTensor(a);
      qy.FreeTensor(b);
    };
    auto copy_out = [&](int t) {
      auto c = qz.DeQue<float>();
      DataCopy(gz[t * kTile], c, kTile);
      qz.FreeTensor(c);
    };
    // software-pipelined: tile t+1 is loaded before tile t is computed, so both buffers are live
    copy_in(0);
    for (int t = 0; t < kTiles; ++t) {
      if (t + 1 < kTiles) copy_in(t + 1);
      compute();
      copy_out(t);
    }
  });
  EXPECT_EQ(e, "");
  for (int i = 0; i < kTile * kTiles; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
}

TEST(CoreChecks, NoFalseAlarmTBufWithFlags) {
  TestCore tc;
  constexpr int kTile = 128, kTiles = 16;
  Gm<float> x(kTile * kTiles), z(kTile * kTiles);
  for (int i = 0; i < kTile * kTiles; ++i) x[i] = 1.5f * i - 7;
  std::string e = error_of([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, kTile * sizeof(float));
    pipe.InitBuffer(bz, kTile * sizeof(float));
    auto lx = bx.Get<float>(), lz = bz.Get<float>();
    for (int t = 0; t < kTiles; ++t) {
      DataCopy(lx, x.tensor()[t * kTile], kTile);
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      Add(lz, lx, lx, kTile);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopy(z.tensor()[t * kTile], lz, kTile);
      SetFlag<HardEvent::V_MTE2>(0);   // next load may overwrite lx only after Add read it
      WaitFlag<HardEvent::V_MTE2>(0);
      SetFlag<HardEvent::MTE3_V>(0);   // next Add may overwrite lz only after the store read it
      WaitFlag<HardEvent::MTE3_V>(0);
    }
  });
  EXPECT_EQ(e, "");
  for (int i = 0; i < kTile * kTiles; ++i) ASSERT_EQ(z[i], 2 * x[i]) << i;
}

TEST(CoreChecks, NoFalseAlarmPipeBarrierAll) {
  TestCore tc;
  constexpr int kTile = 64, kTiles = 8;
  Gm<float> x(kTile * kTiles), z(kTile * kTiles);
  for (int i = 0; i < kTile * kTiles; ++i) x[i] = static_cast<float>(i % 17);
  std::string e = error_of([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2 * kTile * sizeof(float));
    auto lx = b.Get<float>(kTile), lz = b.GetWithOffset<float>(kTile, kTile * sizeof(float));
    for (int t = 0; t < kTiles; ++t) {
      DataCopy(lx, x.tensor()[t * kTile], kTile);
      PipeBarrier<PIPE_ALL>();
      lx.SetValue(0, lx.GetValue(0) + 100.0f);
      PipeBarrier<PIPE_ALL>();
      Add(lz, lx, lx, kTile);
      PipeBarrier<PIPE_ALL>();
      DataCopy(z.tensor()[t * kTile], lz, kTile);
      PipeBarrier<PIPE_ALL>();
    }
  });
  EXPECT_EQ(e, "");
  for (int i = 0; i < kTile * kTiles; ++i) ASSERT_EQ(z[i], 2 * (x[i] + (i % kTile == 0 ? 100.0f : 0.0f))) << i;
}

TEST(CoreChecks, NoFalseAlarmPreSetFlags) {
  TestCore tc;
  constexpr int kTile = 64, kTiles = 12;
  Gm<float> x(kTile * kTiles), z(kTile * kTiles);
  for (int i = 0; i < kTile * kTiles; ++i) x[i] = 0.5f * i;
  std::string e = error_of([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, kTile * sizeof(float));
    pipe.InitBuffer(bz, kTile * sizeof(float));
    auto lx = bx.Get<float>(), lz = bz.Get<float>();
    // the reverse edges are set once before the loop, waited at the top of each iteration, set again at the
    // bottom, and the last ones waited after the loop
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    for (int t = 0; t < kTiles; ++t) {
      WaitFlag<HardEvent::V_MTE2>(0);
      DataCopy(lx, x.tensor()[t * kTile], kTile);
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE3_V>(1);
      Add(lz, lx, lx, kTile);
      SetFlag<HardEvent::V_MTE2>(0);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopy(z.tensor()[t * kTile], lz, kTile);
      SetFlag<HardEvent::MTE3_V>(1);
    }
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::MTE3_V>(1);
  });
  EXPECT_EQ(e, "");
  for (int i = 0; i < kTile * kTiles; ++i) ASSERT_EQ(z[i], 2 * x[i]) << i;
}

// A second SetFlag on an id not yet waited: the flag counts, each WaitFlag takes the oldest set (NPUKernelBench's
// AddRmsNorm answer sets MTE2_V 0 after each of two loads and waits it twice). One wait orders only the first load.
TEST(CoreChecks, SetFlagTwiceCountsOldestFirst) {
  TestCore tc;
  RaceRig r;
  DataCopy(r.x, r.gm.tensor(), 64);
  SetFlag<HardEvent::MTE2_V>(0);
  DataCopy(r.z, r.gm.tensor()[64], 64);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  EXPECT_EQ(error_of([&] { Adds(r.x, r.x, 1.0f, 64); }), "");          // the first set covers the load of x
  std::string e = error_of([&] { Adds(r.z, r.z, 1.0f, 64); });          // z's load is ordered only by the second
  EXPECT_TRUE(IsError(e, "race", "Adds")) << e;
}

TEST(CoreChecks, SetFlagTwiceThenWaitTwice) {
  TestCore tc;
  RaceRig r;
  DataCopy(r.x, r.gm.tensor(), 64);
  SetFlag<HardEvent::MTE2_V>(0);
  DataCopy(r.z, r.gm.tensor()[64], 64);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  EXPECT_EQ(error_of([&] { Add(r.x, r.x, r.z, 64); }), "");
  EXPECT_SIM_ERROR(WaitFlag<HardEvent::MTE2_V>(0), "deadlock", "WaitFlag");   // both sets taken
}

// CANN's SetFlag/WaitFlag constraints: a PipeBarrier<PIPE_ALL> while one id is set twice hangs the chip.
TEST(CoreChecks, BarrierAllWhileSetTwiceHangs) {
  TestCore tc;
  SetFlag<HardEvent::MTE2_V>(3);
  SetFlag<HardEvent::MTE2_V>(3);
  std::string e = error_of([&] { PipeBarrier<PIPE_ALL>(); });
  EXPECT_TRUE(IsError(e, "deadlock", "PipeBarrier")) << e;
  EXPECT_NE(e.find("MTE2_V>(3) is set twice"), std::string::npos) << e;
  WaitFlag<HardEvent::MTE2_V>(3);
  EXPECT_EQ(error_of([&] { PipeBarrier<PIPE_ALL>(); }), "");   // one pending set: no hang
  WaitFlag<HardEvent::MTE2_V>(3);
}

// ---------------------------------------------------------------- deadlock
TEST(CoreChecks, WaitFlagWithoutSetFlag) {
  TestCore tc;
  EXPECT_SIM_ERROR(WaitFlag<HardEvent::MTE2_V>(0), "deadlock", "WaitFlag");
  SetFlag<HardEvent::MTE2_V>(1);
  EXPECT_SIM_ERROR(WaitFlag<HardEvent::MTE2_V>(0), "deadlock", "WaitFlag");   // id 1 is set, not 0
  EXPECT_SIM_ERROR(WaitFlag<HardEvent::V_MTE2>(1), "deadlock", "WaitFlag");   // other event
  EXPECT_EQ(error_of([&] { WaitFlag<HardEvent::MTE2_V>(1); }), "");
}

namespace {
void kernel_sync_all_skipped_by_block0(GM_ADDR) {
  if (GetBlockIdx() != 0) SyncAll();
}
void kernel_sync_all(GM_ADDR) { SyncAll(); }
}  // namespace

TEST(CoreChecks, SyncAllSkippedBySomeCores) {
  kgen::sim::set_throw_on_error(true);
  Gm<uint8_t> gm(64);
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_sync_all_skipped_by_block0, 4, gm.p); });
  EXPECT_TRUE(IsError(e, "deadlock", "SyncAll"));
  EXPECT_NE(e.find("core_checks_test.cpp:"), std::string::npos) << "points at the kernel's SyncAll: " << e;
  EXPECT_NE(e.find("3 of 4"), std::string::npos) << e;
}

TEST(CoreChecks, SyncAllWithMoreBlocksThanCores) {
  kgen::sim::set_throw_on_error(true);
  Gm<uint8_t> gm(64);
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_sync_all, 49, gm.p); });
  EXPECT_TRUE(IsError(e, "deadlock", "SyncAll"));
  EXPECT_NE(e.find("48"), std::string::npos) << e;
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_sync_all, 48, gm.p); }), "");
}

// ---------------------------------------------------------------- param
TEST(CoreChecks, FlagParams) {
  TestCore tc;
  EXPECT_SIM_ERROR(SetFlag<HardEvent::V_MTE3>(8), "param", "SetFlag");
  EXPECT_SIM_ERROR(WaitFlag<HardEvent::V_MTE3>(8), "param", "WaitFlag");
  EXPECT_SIM_ERROR(SetFlag<HardEvent::V_MTE3>(-1), "param", "SetFlag");
  EXPECT_SIM_ERROR(PipeBarrier<PIPE_S>(), "param", "PipeBarrier");
  EXPECT_EQ(error_of([&] { PipeBarrier<PIPE_V>(); PipeBarrier<PIPE_MTE2>(); }), "");
}

TEST(CoreChecks, DataCopyBlockCountLimits) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  Gm<float> gm(256);
  auto x = tb.Get<float>();
  DataCopyParams p(0, 1, 0, 0);
  EXPECT_SIM_ERROR(DataCopy(x, gm.tensor(), p), "param", "DataCopy");
  p.blockCount = 4096;
  EXPECT_SIM_ERROR(DataCopy(x, gm.tensor(), p), "param", "DataCopy");
  p.blockCount = 1;
  p.blockLen = 0;
  EXPECT_SIM_ERROR(DataCopy(x, gm.tensor(), p), "param", "DataCopy");
  DataCopyExtParams e(0, 32, 0, 0, 0);
  EXPECT_SIM_ERROR(DataCopyPad(x, gm.tensor(), e, DataCopyPadExtParams<float>()), "param", "DataCopyPad");
  e.blockCount = 4096;
  EXPECT_SIM_ERROR(DataCopyPad(x, gm.tensor(), e, DataCopyPadExtParams<float>()), "param", "DataCopyPad");
}

TEST(CoreChecks, DataCopyPadAbsentOn310P3) {
  TestCore tc("Ascend310P3");
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  Gm<float> gm(256);
  auto x = tb.Get<float>();
  DataCopyExtParams p(1, 20, 0, 0, 0);
  EXPECT_SIM_ERROR(DataCopyPad(x, gm.tensor(), p, DataCopyPadExtParams<float>()), "param", "DataCopyPad");
}

TEST(CoreChecks, SecondTPipe) {
  TestCore tc;
  TPipe pipe;
  EXPECT_SIM_ERROR(TPipe other, "param", "TPipe");
}

// ---------------------------------------------------------------- DataCopy semantics
namespace {
constexpr float kSentinel = -12345.0f;
// Fills a UB tensor with the sentinel through the scalar unit, then orders everything after it.
void fill_ub(const LocalTensor<float>& t, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) t.SetValue(i, kSentinel);
  PipeBarrier<PIPE_ALL>();
}
}  // namespace

TEST(DataCopySemantics, ParamsGmToUbWithGaps) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 4096);
  const uint16_t count = 3, len = 2, sgap = 1, dgap = 2;   // blockLen and gaps in 32-byte blocks
  Gm<float> gm(count * (len + sgap) * 8);
  for (size_t i = 0; i < gm.n; ++i) gm[i] = static_cast<float>(i) + 0.5f;
  auto x = tb.Get<float>();
  const uint32_t ub_n = count * (len + dgap) * 8;
  fill_ub(x, ub_n);
  DataCopy(x, gm.tensor(), DataCopyParams(count, len, sgap, dgap));
  PipeBarrier<PIPE_ALL>();
  std::vector<float> want(ub_n, kSentinel);
  for (int b = 0; b < count; ++b)
    for (int k = 0; k < len * 8; ++k) want[b * (len + dgap) * 8 + k] = gm[b * (len + sgap) * 8 + k];
  for (uint32_t i = 0; i < ub_n; ++i) ASSERT_EQ(x.GetValue(i), want[i]) << i;
}

TEST(DataCopySemantics, ParamsUbToGmWithGaps) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 4096);
  const uint16_t count = 4, len = 1, sgap = 2, dgap = 3;
  auto x = tb.Get<float>();
  const uint32_t ub_n = count * (len + sgap) * 8;
  for (uint32_t i = 0; i < ub_n; ++i) x.SetValue(i, static_cast<float>(i) * 2);
  PipeBarrier<PIPE_ALL>();
  Gm<float> gm(count * (len + dgap) * 8);
  for (size_t i = 0; i < gm.n; ++i) gm[i] = kSentinel;
  DataCopy(gm.tensor(), x, DataCopyParams(count, len, sgap, dgap));
  std::vector<float> want(gm.n, kSentinel);
  for (int b = 0; b < count; ++b)
    for (int k = 0; k < len * 8; ++k) want[b * (len + dgap) * 8 + k] = static_cast<float>(b * (len + sgap) * 8 + k) * 2;
  for (size_t i = 0; i < gm.n; ++i) ASSERT_EQ(gm[i], want[i]) << i;
}

TEST(DataCopySemantics, ParamsUbToUbOnVectorPipe) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> ta, tb;
  pipe.InitBuffer(ta, 2048);
  pipe.InitBuffer(tb, 2048);
  auto a = ta.Get<float>(), b = tb.Get<float>();
  for (int i = 0; i < 512; ++i) a.SetValue(i, static_cast<float>(i));
  fill_ub(b, 512);
  const uint16_t count = 5, len = 2, sgap = 1, dgap = 0;
  DataCopy(b, a, DataCopyParams(count, len, sgap, dgap));
  // the copy ran on PIPE_V: a vector op may read b without a flag
  EXPECT_EQ(error_of([&] { Add(b[count * len * 8], b, b, 8); }), "");
  PipeBarrier<PIPE_ALL>();
  for (int blk = 0; blk < count; ++blk)
    for (int k = 0; k < len * 8; ++k)
      ASSERT_EQ(b.GetValue(blk * len * 8 + k), static_cast<float>(blk * (len + sgap) * 8 + k)) << blk << " " << k;
  EXPECT_EQ(b.GetValue(count * len * 8 + 3), 2 * b.GetValue(3));
  EXPECT_EQ(b.GetValue(count * len * 8 + 8), kSentinel);
}

TEST(DataCopySemantics, PadGmToUbWithPaddingValue) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  auto x = tb.Get<float>();
  Gm<float> gm(64);
  for (int i = 0; i < 64; ++i) gm[i] = 10.0f + i;
  // 2 rows of 5 floats (20 bytes); GM stride 4 bytes (one float skipped); UB stride 1 block after each row.
  // Row footprint: ceil((1 + 5 + 1) * 4 / 32) * 32 = 32 bytes: pad, 5 values, pad, one dummy element.
  const int left = 1, right = 1, row_elems = 8, ustep = row_elems + 8, gstep = 6;
  fill_ub(x, 2 * ustep);
  DataCopyPad(x, gm.tensor(), DataCopyExtParams(2, 20, 4, 1, 0), DataCopyPadExtParams<float>(true, left, right, -1.0f));
  PipeBarrier<PIPE_ALL>();
  for (int r = 0; r < 2; ++r) {
    for (int k = 0; k < row_elems; ++k) {
      float want = (k >= left && k < left + 5) ? gm[r * gstep + k - left] : -1.0f;   // pads and dummy: padding value
      ASSERT_EQ(x.GetValue(r * ustep + k), want) << r << " " << k;
    }
    for (int k = row_elems; k < ustep; ++k) ASSERT_EQ(x.GetValue(r * ustep + k), kSentinel) << "stride gap " << k;
  }
}

TEST(DataCopySemantics, PadGmToUbWithoutPadValue) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  auto h = tb.Get<half>();
  Gm<half> gm(64);
  for (int i = 0; i < 64; ++i) gm[i] = static_cast<float>(i);
  // isPad false: pads are garbage; the data lands after `left` elements of each row.
  const int left = 3, right = 2, n = 9;   // (3 + 9 + 2) halves = 28 bytes -> 32-byte rows
  DataCopyPad(h, gm.tensor(), DataCopyExtParams(3, n * 2, 0, 0, 0), DataCopyPadExtParams<half>(false, left, right, half(0.0f)));
  PipeBarrier<PIPE_ALL>();
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < n; ++k) ASSERT_EQ(static_cast<float>(h.GetValue(r * 16 + left + k)), static_cast<float>(gm[r * n + k]));
}

TEST(DataCopySemantics, PadDummyIsFirstElementWhenNoPadding) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  auto x = tb.Get<float>();
  Gm<float> gm(64);
  for (int i = 0; i < 64; ++i) gm[i] = 100.0f + i;
  for (bool is_pad : {false, true}) {
    // 3 rows of 3 floats (12 bytes): each 32-byte row holds the data and 5 dummy copies of the row's first element
    DataCopyPad(x, gm.tensor(), DataCopyExtParams(3, 12, 8, 0, 0), DataCopyPadExtParams<float>(is_pad, 0, 0, -7.0f));
    PipeBarrier<PIPE_ALL>();
    for (int r = 0; r < 3; ++r) {
      const int g0 = r * 5;   // GM stride: 12 + 8 bytes = 5 floats
      for (int k = 0; k < 8; ++k)
        ASSERT_EQ(x.GetValue(r * 8 + k), k < 3 ? gm[g0 + k] : gm[g0]) << "isPad " << is_pad << " row " << r << " k " << k;
    }
    PipeBarrier<PIPE_ALL>();   // the next load overwrites what the scalar unit just read
  }
}

TEST(DataCopySemantics, PadUbToGmWritesOnlyBlockLen) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  auto x = tb.Get<float>();
  // UB rows of 5 floats at a 32-byte pitch plus a 1-block stride; only the 5 data elements are written to UB,
  // so reading the rest would be an uninit-read: the store must touch exactly blockLen bytes per row.
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 5; ++k) x.SetValue(r * 16 + k, static_cast<float>(r * 10 + k));
  PipeBarrier<PIPE_ALL>();
  Gm<float> gm(32);
  for (int i = 0; i < 32; ++i) gm[i] = kSentinel;
  DataCopyPad(gm.tensor(), x, DataCopyExtParams(3, 20, 1, 8, 0));   // GM stride 8 bytes = 2 floats
  std::vector<float> want(32, kSentinel);
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 5; ++k) want[r * 7 + k] = static_cast<float>(r * 10 + k);
  for (int i = 0; i < 32; ++i) ASSERT_EQ(gm[i], want[i]) << i;
}

TEST(DataCopySemantics, PadLegacyParamsForms) {
  TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  auto x = tb.Get<int32_t>();
  Gm<int32_t> gm(32), out(32);
  for (int i = 0; i < 32; ++i) { gm[i] = i * 3; out[i] = -1; }
  DataCopyPad(x, gm.tensor(), DataCopyParams(2, 24, 0, 0), DataCopyPadParams(true, 0, 2, 9));
  PipeBarrier<PIPE_ALL>();
  for (int r = 0; r < 2; ++r) {
    for (int k = 0; k < 6; ++k) ASSERT_EQ(x.GetValue(r * 8 + k), gm[r * 6 + k]);
    for (int k = 6; k < 8; ++k) ASSERT_EQ(x.GetValue(r * 8 + k), 9);
  }
  DataCopyPad(out.tensor(), x, DataCopyParams(2, 24, 0, 0));
  for (int i = 0; i < 12; ++i) ASSERT_EQ(out[i], gm[i]);
  ASSERT_EQ(out[12], -1);
}

// ---------------------------------------------------------------- multi-core: atomics, SyncAll, trace
namespace {
constexpr int kAtomicN = 64;
void kernel_atomic_add(GM_ADDR in, GM_ADDR out) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, kAtomicN * sizeof(float));
  auto x = tb.Get<float>();
  GlobalTensor<float> gin, gout;
  gin.SetGlobalBuffer(reinterpret_cast<float*>(in) + GetBlockIdx() * kAtomicN, kAtomicN);
  gout.SetGlobalBuffer(reinterpret_cast<float*>(out), kAtomicN);
  DataCopy(x, gin, kAtomicN);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  SetAtomicAdd<float>();
  DataCopy(gout, x, kAtomicN);
  SetAtomicNone();
}

constexpr int kSyncCores = 8;
void kernel_sync_exchange(GM_ADDR buf, GM_ADDR out) {
  // Each core writes its block of 8 floats, SyncAll, then reads its right neighbour's block.
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 64);
  auto x = tb.Get<float>(8), y = tb.GetWithOffset<float>(8, 32);
  int64_t me = GetBlockIdx(), next = (me + 1) % GetBlockNum();
  GlobalTensor<float> g, o;
  g.SetGlobalBuffer(reinterpret_cast<float*>(buf), kSyncCores * 8);
  o.SetGlobalBuffer(reinterpret_cast<float*>(out), kSyncCores * 8);
  for (int i = 0; i < 8; ++i) x.SetValue(i, static_cast<float>(me * 100 + i));
  PipeBarrier<PIPE_ALL>();
  DataCopy(g[me * 8], x, 8);
  SyncAll();
  DataCopy(y, g[next * 8], 8);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopy(o[me * 8], y, 8);
}

// The exchange with SyncAll's software form (RmsNormGrad's): GM and UB workspaces of GetBlockNum() * 32 bytes.
// `ws_ints`: the GM workspace's int32 count (too small: the error).
void kernel_sync_exchange_soft(GM_ADDR buf, GM_ADDR out, GM_ADDR ws, uint32_t ws_ints) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb, flags;
  pipe.InitBuffer(tb, 64);
  pipe.InitBuffer(flags, kSyncCores * 32);
  auto x = tb.Get<float>(8), y = tb.GetWithOffset<float>(8, 32);
  int64_t me = GetBlockIdx(), next = (me + 1) % GetBlockNum();
  GlobalTensor<float> g, o;
  GlobalTensor<int32_t> w;
  g.SetGlobalBuffer(reinterpret_cast<float*>(buf), kSyncCores * 8);
  o.SetGlobalBuffer(reinterpret_cast<float*>(out), kSyncCores * 8);
  w.SetGlobalBuffer(reinterpret_cast<int32_t*>(ws), ws_ints);
  for (int i = 0; i < 8; ++i) x.SetValue(i, static_cast<float>(me * 100 + i));
  PipeBarrier<PIPE_ALL>();
  DataCopy(g[me * 8], x, 8);
  SyncAll(w, flags.Get<int32_t>());
  DataCopy(y, g[next * 8], 8);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopy(o[me * 8], y, 8);
}
void kernel_sync_soft_ok(GM_ADDR b, GM_ADDR o, GM_ADDR w) { kernel_sync_exchange_soft(b, o, w, kSyncCores * 8); }
void kernel_sync_soft_small(GM_ADDR b, GM_ADDR o, GM_ADDR w) { kernel_sync_exchange_soft(b, o, w, kSyncCores * 8 - 1); }

// The same exchange with the SyncAll forgotten: a core reads its neighbour's block in the same phase as the
// neighbour writes it.
void kernel_exchange_without_sync(GM_ADDR buf, GM_ADDR out) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 64);
  auto x = tb.Get<float>(8), y = tb.GetWithOffset<float>(8, 32);
  int64_t me = GetBlockIdx(), next = (me + 1) % GetBlockNum();
  GlobalTensor<float> g, o;
  g.SetGlobalBuffer(reinterpret_cast<float*>(buf), kSyncCores * 8);
  o.SetGlobalBuffer(reinterpret_cast<float*>(out), kSyncCores * 8);
  for (int i = 0; i < 8; ++i) x.SetValue(i, static_cast<float>(me * 100 + i));
  PipeBarrier<PIPE_ALL>();
  DataCopy(g[me * 8], x, 8);
  DataCopy(y, g[next * 8], 8);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopy(o[me * 8], y, 8);
}

// A copy whose 32-byte blocks overrun its range: core k copies in[16k, 16k + 24) to out at the same offsets, so the
// last 8 floats it writes are core k + 1's first 8. With `shift` 0 both write the input's bytes there (no race:
// GM ends the same whichever lands last); with `shift` 1 core k writes its own index into them (a race).
void kernel_overlapping_copies(GM_ADDR in, GM_ADDR out, int shift) {
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 24 * sizeof(float));
  const int64_t me = GetBlockIdx();
  GlobalTensor<float> gi, go;
  gi.SetGlobalBuffer(reinterpret_cast<float*>(in) + me * 16, 24);
  go.SetGlobalBuffer(reinterpret_cast<float*>(out) + me * 16, 24);
  auto t = q.AllocTensor<float>();
  DataCopy(t, gi, 24);
  q.EnQue(t);
  t = q.DeQue<float>();
  if (shift) {
    for (int i = 16; i < 24; ++i) t.SetValue(i, static_cast<float>(me));
    PipeBarrier<PIPE_ALL>();
  }
  DataCopy(go, t, 24);
  q.FreeTensor(t);
}
// A flag every core sets with a scalar store: the same value is no race (NPUKernelBench's NonFiniteCheckOp), each
// core's own is.
void kernel_flag(GM_ADDR out, int own) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<float*>(out), 8);
  g.SetValue(0, own ? static_cast<float>(GetBlockIdx()) : 1.0f);
}
void kernel_flag_same(GM_ADDR out) { kernel_flag(out, 0); }
void kernel_flag_own(GM_ADDR out) { kernel_flag(out, 1); }
void kernel_overlapping_same(GM_ADDR in, GM_ADDR out) { kernel_overlapping_copies(in, out, 0); }
void kernel_overlapping_different(GM_ADDR in, GM_ADDR out) { kernel_overlapping_copies(in, out, 1); }

// InitOutput: each core sets its slice of GM to a value through its stack buffer (a slice longer than one 255-block
// round), without touching the TPipe's UB.
constexpr int kInitN = 4000;
void kernel_init_output(GM_ADDR out) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<float*>(out) + GetBlockIdx() * kInitN, kInitN);
  InitOutput<float>(g, kInitN, static_cast<float>(GetBlockIdx()) + 0.25f);
}

// Every core reads the whole input (a broadcast operand) and writes its own slice: no race.
void kernel_shared_input(GM_ADDR in, GM_ADDR out) {
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;   // GM -> UB -> GM: EnQue/DeQue order MTE2 before MTE3
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> gi, go;
  gi.SetGlobalBuffer(reinterpret_cast<float*>(in), 64);
  go.SetGlobalBuffer(reinterpret_cast<float*>(out) + GetBlockIdx() * 64, 64);
  auto t = q.AllocTensor<float>();
  DataCopy(t, gi, 64);
  q.EnQue(t);
  t = q.DeQue<float>();
  DataCopy(go, t, 64);
  q.FreeTensor(t);
}

int g_trace_add_line = 0;
void kernel_traced(GM_ADDR x, GM_ADDR z) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> qin;
  TBuf<TPosition::VECCALC> tz;
  pipe.InitBuffer(qin, 1, 64 * sizeof(float));
  pipe.InitBuffer(tz, 64 * sizeof(float));
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<float*>(x) + GetBlockIdx() * 64, 64);
  gz.SetGlobalBuffer(reinterpret_cast<float*>(z) + GetBlockIdx() * 64, 64);
  auto a = qin.AllocTensor<float>();
  DataCopy(a, gx, 64);
  qin.EnQue(a);
  auto b = qin.DeQue<float>();
  auto c = tz.Get<float>();
  g_trace_add_line = __LINE__; Add(c, b, b, 64);
  SetFlag<HardEvent::V_MTE3>(3);
  WaitFlag<HardEvent::V_MTE3>(3);
  DataCopy(gz, c, 64);
  qin.FreeTensor(b);
}
}  // namespace

TEST(MultiCore, AtomicAddAccumulatesAcrossCores) {
  kgen::sim::set_throw_on_error(true);
  constexpr int kCores = 6;
  Gm<float> in(kCores * kAtomicN), out(kAtomicN);
  std::vector<float> want(kAtomicN);
  for (int i = 0; i < kAtomicN; ++i) { out[i] = 1000.0f; want[i] = 1000.0f; }   // atomics add onto what is there
  for (int c = 0; c < kCores; ++c)
    for (int i = 0; i < kAtomicN; ++i) {
      in[c * kAtomicN + i] = static_cast<float>((c + 1) * (i + 1));
      want[i] += in[c * kAtomicN + i];
    }
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_atomic_add, kCores, (GM_ADDR)in.p, (GM_ADDR)out.p); }), "");
  for (int i = 0; i < kAtomicN; ++i) ASSERT_EQ(out[i], want[i]) << i;
}

TEST(MultiCore, SyncAllOrdersWritesBeforeReads) {
  kgen::sim::set_throw_on_error(true);
  Gm<float> buf(kSyncCores * 8), out(kSyncCores * 8);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_sync_exchange, kSyncCores, (GM_ADDR)buf.p, (GM_ADDR)out.p); }), "");
  for (int me = 0; me < kSyncCores; ++me)
    for (int i = 0; i < 8; ++i) ASSERT_EQ(out[me * 8 + i], static_cast<float>(((me + 1) % kSyncCores) * 100 + i)) << me;
}

TEST(MultiCore, SoftwareSyncAllOrdersWritesBeforeReads) {
  kgen::sim::set_throw_on_error(true);
  Gm<float> buf(kSyncCores * 8), out(kSyncCores * 8);
  Gm<int32_t> ws(kSyncCores * 8);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_sync_soft_ok, kSyncCores, (GM_ADDR)buf.p, (GM_ADDR)out.p, (GM_ADDR)ws.p); }), "");
  for (int me = 0; me < kSyncCores; ++me) ASSERT_EQ(out[me * 8 + 3], static_cast<float>(((me + 1) % kSyncCores) * 100 + 3));
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_sync_soft_small, kSyncCores, (GM_ADDR)buf.p, (GM_ADDR)out.p, (GM_ADDR)ws.p); });
  EXPECT_TRUE(IsError(e, "param", "SyncAll"));
  EXPECT_NE(e.find("GetBlockNum() * 32"), std::string::npos) << e;
}

TEST(MultiCore, InitOutputFillsEachCoresSlice) {
  kgen::sim::set_throw_on_error(true);
  constexpr int kCores = 3;
  Gm<float> out(kCores * kInitN);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_init_output, kCores, (GM_ADDR)out.p); }), "");
  for (int c = 0; c < kCores; ++c)
    for (int i = 0; i < kInitN; ++i) ASSERT_EQ(out[c * kInitN + i], c + 0.25f) << c << " " << i;
}

TEST(MultiCore, UnorderedWritesOfTheSameBytesAreNoRace) {
  kgen::sim::set_throw_on_error(true);
  constexpr int kCores = 4;
  Gm<float> in(kCores * 16 + 8), out(kCores * 16 + 8);
  for (int i = 0; i < kCores * 16 + 8; ++i) in[i] = static_cast<float>(i) * 0.5f;
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_overlapping_same, kCores, (GM_ADDR)in.p, (GM_ADDR)out.p); }), "");
  for (int i = 0; i < kCores * 16 + 8; ++i) ASSERT_EQ(out[i], in[i]) << i;
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_overlapping_different, kCores, (GM_ADDR)in.p, (GM_ADDR)out.p); });
  EXPECT_TRUE(IsError(e, "race", "DataCopy")) << e;
  EXPECT_NE(e.find("no SyncAll between them"), std::string::npos) << e;
  Gm<float> flag(8);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_flag_same, kCores, (GM_ADDR)flag.p); }), "");
  EXPECT_EQ(flag[0], 1.0f);
  e = error_of([&] { ICPU_RUN_KF(kernel_flag_own, kCores, (GM_ADDR)flag.p); });
  EXPECT_TRUE(IsError(e, "race", "SetValue")) << e;
}

TEST(MultiCore, GmExchangeWithoutSyncAllIsARace) {
  kgen::sim::set_throw_on_error(true);
  Gm<float> buf(kSyncCores * 8), out(kSyncCores * 8);
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_exchange_without_sync, kSyncCores, (GM_ADDR)buf.p, (GM_ADDR)out.p); });
  EXPECT_TRUE(IsError(e, "race", "DataCopy")) << e;
  EXPECT_NE(e.find("no SyncAll between them"), std::string::npos) << e;
}

TEST(MultiCore, CoresSharingAnInputDoNotRace) {
  kgen::sim::set_throw_on_error(true);
  Gm<float> in(64), out(4 * 64);
  for (int i = 0; i < 64; ++i) in[i] = static_cast<float>(i);
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(kernel_shared_input, 4, (GM_ADDR)in.p, (GM_ADDR)out.p); }), "");
  EXPECT_EQ(out[3 * 64 + 5], 5.0f);
}

TEST(MultiCore, TraceJsonHasInstructionsAndSyncRecords) {
  kgen::sim::set_throw_on_error(true);
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("kgen_core_trace_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string base = (dir / "trace.json").string();
  Gm<float> x(128), z(128);
  for (int i = 0; i < 128; ++i) x[i] = static_cast<float>(i);
  setenv("KGEN_TRACE", base.c_str(), 1);
  std::string e = error_of([&] { ICPU_RUN_KF(kernel_traced, 2, (GM_ADDR)x.p, (GM_ADDR)z.p); });
  unsetenv("KGEN_TRACE");
  ASSERT_EQ(e, "");
  for (int i = 0; i < 128; ++i) ASSERT_EQ(z[i], 2.0f * i);
  // Later launches in one process write FILE.N; take whichever this launch wrote.
  std::vector<fs::path> files;
  for (const auto& ent : fs::directory_iterator(dir)) files.push_back(ent.path());
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  nlohmann::json j = nlohmann::json::parse(in);   // throws (fails the test) if not valid JSON
  fs::remove_all(dir);
  EXPECT_EQ(j["kgen_trace"], 1);
  EXPECT_EQ(j["kernel"], "kernel_traced");
  EXPECT_EQ(j["soc"], "Ascend910B2");
  EXPECT_EQ(j["block_dim"], 2);
  ASSERT_EQ(j["cores"].size(), 2u);
  for (int b = 0; b < 2; ++b) {
    const auto& core = j["cores"][b];
    EXPECT_EQ(core["block"], b);
    int loads = 0, stores = 0, adds = 0, enq = 0, deq = 0, set = 0, wait = 0, alloc = 0, freed = 0;
    for (const auto& r : core["records"]) {
      std::string k = r["k"];
      if (k == "instr" && r["api"] == "DataCopy" && r["pipe"] == "MTE2") {
        ++loads;
        EXPECT_EQ(r["bytes"], 256);
        EXPECT_EQ(r["dtype"], "float");
      }
      if (k == "instr" && r["api"] == "DataCopy" && r["pipe"] == "MTE3") ++stores;
      if (k == "instr" && r["api"] == "Add") {
        ++adds;
        EXPECT_EQ(r["pipe"], "V");
        EXPECT_EQ(r["elems"], 64);
        EXPECT_EQ(r["line"], g_trace_add_line);
      }
      if (k == "enque") { ++enq; EXPECT_EQ(r["src"], "MTE2"); EXPECT_EQ(r["dst"], "V"); }
      if (k == "deque") ++deq;
      if (k == "alloc") ++alloc;
      if (k == "free") ++freed;
      if (k == "set_flag" || k == "wait_flag") {
        (k == "set_flag" ? set : wait)++;
        EXPECT_EQ(r["event"], "V_MTE3");
        EXPECT_EQ(r["id"], 3);
        EXPECT_EQ(r["src"], "V");
        EXPECT_EQ(r["dst"], "MTE3");
      }
    }
    EXPECT_EQ(loads, 1);
    EXPECT_EQ(stores, 1);
    EXPECT_EQ(adds, 1);
    EXPECT_EQ(enq, 1);
    EXPECT_EQ(deq, 1);
    EXPECT_EQ(alloc, 1);
    EXPECT_EQ(freed, 1);
    EXPECT_EQ(set, 1);
    EXPECT_EQ(wait, 1);
  }
}
