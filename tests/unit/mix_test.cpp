// Kernel types of the split architecture (AIV only, AIC only, MIX 1:1 / 1:2), core identities, cross-core flags,
// SyncAll across AIC and AIV, workspace, and the GM race detector's view of cross-core synchronisation.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/testing.h"
#include "sim/trace_io.h"
#include "tikicpulib.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
::testing::AssertionResult IsError(const std::string& e, const char* cat, const char* api) {
  std::string want = std::string("error[") + cat + "]";
  if (e.rfind(want, 0) != 0) return ::testing::AssertionFailure() << "expected " << want << ", got: '" << e << "'";
  if (e.find(std::string(" ") + api + ":") == std::string::npos)
    return ::testing::AssertionFailure() << "expected API " << api << " in: " << e;
  return ::testing::AssertionSuccess();
}

template <class T> struct Gm {
  T* p;
  explicit Gm(size_t count) : p(static_cast<T*>(GmAlloc(count * sizeof(T)))) {}
  ~Gm() { GmFree(p); }
  T& operator[](size_t i) { return p[i]; }
};

struct Fresh {   // every test starts from a host that never called SetKernelMode
  Fresh() {
    kgen::sim::set_throw_on_error(true);
    kgen::sim::reset_kernel_modes();
  }
  ~Fresh() { kgen::sim::reset_kernel_modes(); }
};

struct Ident {
  int64_t idx, num, sub, ratio;
  int8_t type;
  bool is_aic, is_aiv;
};
std::vector<Ident> g_ids;

std::vector<std::array<int64_t, 4>> g_builtins;   // bisheng's get_block_idx, get_block_num, get_subblockid, get_subblockdim

void record() {
  g_ids.push_back({GetBlockIdx(), GetBlockNum(), GetSubBlockIdx(), GetTaskRatio(), g_coreType, ASCEND_IS_AIC, ASCEND_IS_AIV});
  g_builtins.push_back({get_block_idx(), get_block_num(), get_subblockid(), get_subblockdim()});
}

void k_plain(GM_ADDR) { record(); }
void k_aiv_only(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); record(); }
void k_aic_only(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); record(); }
void k_mix12(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); record(); }
void k_mix11(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1); record(); }
void k_mix_aiv10(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0); record(); }
void k_mix_aic10(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_0); record(); }
void k_mix_vector_core(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_VECTOR_CORE); record(); }

// The identities the docs give (GetTaskRatio/GetSubBlockNum table, GetBlockIdx = block*ratio + sub on an AIV).
std::vector<Ident> expected(int blocks, int aic, int aiv) {
  std::vector<Ident> v;
  for (int b = 0; b < blocks; ++b) {
    if (aic) v.push_back({b, blocks, 0, 1, AscendC::AIC, true, false});
    for (int s = 0; s < aiv; ++s) v.push_back({b * aiv + s, blocks, s, aiv, AscendC::AIV, false, true});
  }
  return v;
}

void expect_ids(const std::vector<Ident>& want, const char* what) {
  ASSERT_EQ(g_ids.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    const Ident &g = g_ids[i], &w = want[i];
    EXPECT_EQ(g.idx, w.idx) << what << " core " << i << " GetBlockIdx";
    EXPECT_EQ(g.num, w.num) << what << " core " << i << " GetBlockNum";
    EXPECT_EQ(g.sub, w.sub) << what << " core " << i << " GetSubBlockIdx";
    EXPECT_EQ(g.ratio, w.ratio) << what << " core " << i << " GetTaskRatio";
    EXPECT_EQ(g.type, w.type) << what << " core " << i << " g_coreType";
    EXPECT_EQ(g.is_aic, w.is_aic) << what << " core " << i << " ASCEND_IS_AIC";
    EXPECT_EQ(g.is_aiv, w.is_aiv) << what << " core " << i << " ASCEND_IS_AIV";
    // the builtins: the block itself, blockDim, the sub-block, the ratio (asc-devkit's GetBlockIdxImpl)
    const std::array<int64_t, 4> b = g_builtins[i], wb = {(w.idx - w.sub) / w.ratio, w.num, w.sub, w.ratio};
    EXPECT_EQ(b, wb) << what << " core " << i << " get_block_idx/get_block_num/get_subblockid/get_subblockdim";
  }
  // the trace names each core's type and sub-block, in block order with the AIC first
  const auto& t = kgen::sim::last_launch_trace();
  ASSERT_EQ(t.cores.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_STREQ(t.cores[i].core_type, want[i].is_aic ? "AIC" : "AIV") << what << " trace core " << i;
    EXPECT_EQ(t.cores[i].sub_block, want[i].sub) << what << " trace core " << i;
  }
}

template <class K> void run_ids(K kernel, const char* name, int blocks) {
  Gm<uint8_t> gm(64);
  g_ids.clear();
  g_builtins.clear();
  std::string e = error_of([&] { kgen::rt::launch_fn(name, blocks, [&] { kernel(gm.p); }, kgen::rt::Loc::current()); });
  ASSERT_EQ(e, "") << name;
}
}  // namespace

TEST(Mix, IdentitiesPerKernelType) {
  Fresh f;
  run_ids(k_plain, "k_plain", 3);
  expect_ids(expected(3, 0, 1), "no type, no SetKernelMode (kgen default AIV only)");
  run_ids(k_aiv_only, "k_aiv_only", 3);
  expect_ids(expected(3, 0, 1), "KERNEL_TYPE_AIV_ONLY");
  run_ids(k_mix_aiv10, "k_mix_aiv10", 2);
  expect_ids(expected(2, 0, 1), "KERNEL_TYPE_MIX_AIV_1_0");
  run_ids(k_aic_only, "k_aic_only", 3);
  expect_ids(expected(3, 1, 0), "KERNEL_TYPE_AIC_ONLY");
  run_ids(k_mix_aic10, "k_mix_aic10", 2);
  expect_ids(expected(2, 1, 0), "KERNEL_TYPE_MIX_AIC_1_0");
  run_ids(k_mix12, "k_mix12", 3);
  expect_ids(expected(3, 1, 2), "KERNEL_TYPE_MIX_AIC_1_2");
  run_ids(k_mix11, "k_mix11", 2);
  expect_ids(expected(2, 1, 1), "KERNEL_TYPE_MIX_AIC_1_1");
  run_ids(k_mix12, "k_mix12", 3);   // a second launch starts in the learnt type
  expect_ids(expected(3, 1, 2), "KERNEL_TYPE_MIX_AIC_1_2 again");
  // a 310P kernel type: CANN's build for 910B ignores it (kernel_info_infer.py) and the code decides
  run_ids(k_mix_vector_core, "k_mix_vector_core", 3);
  expect_ids(expected(3, 0, 1), "KERNEL_TYPE_MIX_VECTOR_CORE on 910B (ignored)");
}

TEST(Mix, HostKernelMode) {
  Fresh f;
  SetKernelMode(KernelMode::MIX_MODE);   // CANN's default: 1 AIC + 2 AIV per block
  run_ids(k_plain, "k_plain_mix", 2);
  expect_ids(expected(2, 1, 2), "SetKernelMode(MIX_MODE)");
  SetKernelMode(KernelMode::AIC_MODE);
  run_ids(k_plain, "k_plain_aic", 2);
  expect_ids(expected(2, 1, 0), "SetKernelMode(AIC_MODE)");
  SetKernelMode(KernelMode::AIV_MODE);
  run_ids(k_plain, "k_plain_aiv", 2);
  expect_ids(expected(2, 0, 1), "SetKernelMode(AIV_MODE)");
  // the kernel's declaration wins over the host's mode (it is what the chip runs)
  run_ids(k_mix11, "k_mix11_on_aiv_host", 2);
  expect_ids(expected(2, 1, 1), "AIV_MODE host, KERNEL_TYPE_MIX_AIC_1_1 kernel");
  SetKernelMode(KernelMode::MIX_MODE);
  run_ids(k_aiv_only, "k_aiv_only_on_mix_host", 2);
  expect_ids(expected(2, 0, 1), "MIX_MODE host, KERNEL_TYPE_AIV_ONLY kernel");
}

namespace {
void k_late_type(GM_ADDR gm) {
  GlobalTensor<uint8_t> g;
  g.SetGlobalBuffer(gm, 64);
  g.SetValue(GetBlockIdx(), 1);
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
}
void k_mix_declared(GM_ADDR) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); }
}  // namespace

TEST(Mix, TypeDeclaredAfterGmWriteIsAnError) {
  Fresh f;
  Gm<uint8_t> gm(64);
  std::string e = error_of([&] { ICPU_RUN_KF(k_late_type, 2, gm.p); });
  EXPECT_TRUE(IsError(e, "param", "KERNEL_TASK_TYPE_DEFAULT")) << e;
  EXPECT_NE(e.find("first statement"), std::string::npos) << e;
}

TEST(Mix, MixBlockDimOverAicCount) {
  Fresh f;
  Gm<uint8_t> gm(64);
  std::string e = error_of([&] { ICPU_RUN_KF(k_mix_declared, 25, gm.p); });   // Ascend910B2: 24 AIC
  EXPECT_TRUE(IsError(e, "param", "KERNEL_TASK_TYPE_DEFAULT")) << e;
  EXPECT_NE(e.find("24"), std::string::npos) << e;
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(k_mix_declared, 24, gm.p); }), "");
  SetKernelMode(KernelMode::MIX_MODE);
  e = error_of([&] { ICPU_RUN_KF(k_plain, 25, gm.p); });
  EXPECT_TRUE(IsError(e, "param", "launch")) << e;
  EXPECT_NE(e.find("mix_test.cpp"), std::string::npos) << "points at the host's launch: " << e;
}

// ------------------------------------------------------------------------------------------------ cross-core
namespace {
constexpr int kN = 64;   // floats per AIV

// AIC -> AIV: the AIC fills the workspace (scalar GM writes), sets flag 3 in mode 2; each AIV waits, copies its
// half in, doubles it and writes it out.
template <bool kWait>
void k_aic_to_aiv(GM_ADDR ws, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GlobalTensor<float> w, o;
  w.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws), 2 * kN * 2);
  o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 2 * kN * 2);
  if ASCEND_IS_AIC {
    for (int i = 0; i < 2 * kN; ++i) w.SetValue(GetBlockIdx() * 2 * kN + i, static_cast<float>(GetBlockIdx() * 1000 + i));
    CrossCoreSetFlag<2, PIPE_MTE2>(3);
    return;
  }
  if (kWait) CrossCoreWaitFlag(3);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kN * sizeof(float));
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, w[GetBlockIdx() * kN], kN);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  Muls(t, t, 2.0f, kN);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(o[GetBlockIdx() * kN], t, kN);
}

// AIV -> AIC: each AIV copies its half to the workspace and sets flag 5 (mode 2) on `SetPipe`; the AIC waits for
// both and sums the whole block into out[block].
template <pipe_t SetPipe>
void k_aiv_to_aic(GM_ADDR in, GM_ADDR ws, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GlobalTensor<float> x, w, o;
  x.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), 4 * kN);
  w.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws), 4 * kN);
  o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 8);
  if ASCEND_IS_AIV {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kN * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, x[GetBlockIdx() * kN], kN);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(w[GetBlockIdx() * kN], t, kN);
    CrossCoreSetFlag<2, SetPipe>(5);
    return;
  }
  CrossCoreWaitFlag(5);
  float sum = 0;
  for (int i = 0; i < 2 * kN; ++i) sum += w.GetValue(GetBlockIdx() * 2 * kN + i);
  o.SetValue(GetBlockIdx(), sum);
}
}  // namespace

TEST(Mix, CrossCoreAicToAivThroughWorkspace) {
  Fresh f;
  Gm<float> ws(4 * kN), out(4 * kN);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_aic_to_aiv<true>, 2, (GM_ADDR)ws.p, (GM_ADDR)out.p); }), "");
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 2 * kN; ++i) ASSERT_EQ(out[b * 2 * kN + i], 2.0f * static_cast<float>(b * 1000 + i)) << b << " " << i;
  // the waits and sets are sync records of the trace
  int sets = 0, waits = 0;
  for (const auto& c : kgen::sim::last_launch_trace().cores)
    for (const auto& r : c.recs) {
      sets += r.kind == kgen::sim::TraceRec::CrossSet && r.id == 3 && r.event == 2;
      waits += r.kind == kgen::sim::TraceRec::CrossWait && r.id == 3;
    }
  EXPECT_EQ(sets, 2);
  EXPECT_EQ(waits, 4);
  // without the wait the AIV reads what the AIC wrote with nothing ordering them
  std::string e = error_of([&] { ICPU_RUN_KF(k_aic_to_aiv<false>, 2, (GM_ADDR)ws.p, (GM_ADDR)out.p); });
  EXPECT_TRUE(IsError(e, "race", "DataCopy")) << e;
  EXPECT_NE(e.find("block 0 AIC"), std::string::npos) << e;
}

TEST(Mix, CrossCoreAivToAicThroughWorkspace) {
  Fresh f;
  Gm<float> in(4 * kN), ws(4 * kN), out(8);
  for (int i = 0; i < 4 * kN; ++i) in[i] = static_cast<float>(i % 17);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_aiv_to_aic<PIPE_MTE3>, 2, (GM_ADDR)in.p, (GM_ADDR)ws.p, (GM_ADDR)out.p); }), "");
  for (int b = 0; b < 2; ++b) {
    float want = 0;
    for (int i = 0; i < 2 * kN; ++i) want += in[b * 2 * kN + i];
    EXPECT_EQ(out[b], want) << b;
  }
  // a flag set on MTE2 does not wait for the MTE3 copy before it: the AIC may read the workspace too early
  std::string e = error_of([&] { ICPU_RUN_KF(k_aiv_to_aic<PIPE_MTE2>, 2, (GM_ADDR)in.p, (GM_ADDR)ws.p, (GM_ADDR)out.p); });
  EXPECT_TRUE(IsError(e, "race", "GetValue")) << e;
}

namespace {
// Mode 0: all AIVs exchange slots through GM; mode 1: the two AIVs of a block swap halves.
void k_mode0(GM_ADDR ws, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
  GlobalTensor<int32_t> w, o;
  w.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws), 64);
  o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 64);
  int64_t me = GetBlockIdx(), n = GetBlockNum();
  w.SetValue(me * 8, static_cast<int32_t>(me + 1));
  CrossCoreSetFlag<0, PIPE_MTE3>(1);
  CrossCoreWaitFlag(1);
  int32_t s = 0;
  for (int64_t b = 0; b < n; ++b) s += w.GetValue(b * 8);
  o.SetValue(me * 8, s);
}
void k_mode1(GM_ADDR ws, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC { return; }
  GlobalTensor<int32_t> w, o;
  w.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws), 64);
  o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 64);
  int64_t me = GetBlockIdx();
  w.SetValue(me * 8, static_cast<int32_t>(100 + me));
  CrossCoreSetFlag<1, PIPE_MTE3>(2);
  CrossCoreWaitFlag(2);
  o.SetValue(me * 8, w.GetValue((me ^ 1) * 8));
}
}  // namespace

TEST(Mix, CrossCoreModes0And1) {
  Fresh f;
  Gm<int32_t> ws(64), out(64);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_mode0, 4, (GM_ADDR)ws.p, (GM_ADDR)out.p); }), "");
  for (int b = 0; b < 4; ++b) EXPECT_EQ(out[b * 8], 1 + 2 + 3 + 4) << b;
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_mode1, 2, (GM_ADDR)ws.p, (GM_ADDR)out.p); }), "");
  for (int v = 0; v < 4; ++v) EXPECT_EQ(out[v * 8], 100 + (v ^ 1)) << v;
}

namespace {
void k_missing_set(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIV { CrossCoreWaitFlag(4); }   // the AIC never sets flag 4
}
void k_too_many(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  if ASCEND_IS_AIC {
    for (int i = 0; i < 16; ++i) CrossCoreSetFlag<2, PIPE_FIX>(6);
  }
}
// The AIC runs 20 sets ahead of its AIV's 20 waits: on the chip the AIV takes them while the AIC runs, so the
// counter never holds 16 and the kernel passes; the emulator runs the AIC first and must let the AIV catch up.
void k_ahead(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  if ASCEND_IS_AIC {
    for (int i = 0; i < 20; ++i) CrossCoreSetFlag<2, PIPE_FIX>(6);
  } else {
    for (int i = 0; i < 20; ++i) CrossCoreWaitFlag(6);
  }
}
void k_mode2_in_aiv_kernel(GM_ADDR) { CrossCoreSetFlag<2, PIPE_MTE3>(0); }
void k_flag_11(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
  CrossCoreSetFlag<0, PIPE_MTE3>(11);
}
void k_set_on_s(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
  CrossCoreSetFlag<0, PIPE_S>(0);
}
void k_aiv_only_flags(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  CrossCoreSetFlag<0, PIPE_MTE3>(0);
}
}  // namespace

TEST(Mix, CrossCoreDeadlockOnMissingSet) {
  Fresh f;
  Gm<uint8_t> gm(64);
  std::string e = error_of([&] { ICPU_RUN_KF(k_missing_set, 1, gm.p); });
  EXPECT_TRUE(IsError(e, "deadlock", "CrossCoreWaitFlag")) << e;
  EXPECT_NE(e.find("mix_test.cpp:"), std::string::npos) << "points at the wait: " << e;
  EXPECT_NE(e.find("flag 4"), std::string::npos) << e;
}

// 16 sets no core ever waits for: the counter would pass 15, which the chip raises as an error; here the 16th set
// waits for room that never comes, and the deadlock report says why.
TEST(Mix, CrossCoreTooManyPendingSets) {
  Fresh f;
  Gm<uint8_t> gm(64);
  std::string e = error_of([&] { ICPU_RUN_KF(k_too_many, 1, gm.p); });
  EXPECT_TRUE(IsError(e, "deadlock", "CrossCoreSetFlag")) << e;
  EXPECT_NE(e.find("counts at most 15"), std::string::npos) << e;
  EXPECT_EQ(error_of([&] { ICPU_RUN_KF(k_ahead, 2, gm.p); }), "");
}

TEST(Mix, CrossCoreParams) {
  Fresh f;
  Gm<uint8_t> gm(64);
  EXPECT_TRUE(IsError(error_of([&] { ICPU_RUN_KF(k_mode2_in_aiv_kernel, 1, gm.p); }), "param", "CrossCoreSetFlag"));
  EXPECT_TRUE(IsError(error_of([&] { ICPU_RUN_KF(k_flag_11, 1, gm.p); }), "param", "CrossCoreSetFlag"));
  EXPECT_TRUE(IsError(error_of([&] { ICPU_RUN_KF(k_set_on_s, 1, gm.p); }), "param", "CrossCoreSetFlag"));
  EXPECT_TRUE(IsError(error_of([&] { ICPU_RUN_KF(k_aiv_only_flags, 1, gm.p); }), "param", "CrossCoreSetFlag"));
  // a single test core: mode 0 with itself works, a wait with nothing pending is a deadlock
  kgen::sim::TestCore tc;
  CrossCoreSetFlag<0, PIPE_MTE3>(7);
  EXPECT_EQ(error_of([&] { CrossCoreWaitFlag(7); }), "");
  EXPECT_TRUE(IsError(error_of([&] { CrossCoreWaitFlag(7); }), "deadlock", "CrossCoreWaitFlag"));
}

// ------------------------------------------------------------------------------------------------ SyncAll
namespace {
// The AIC writes, SyncAll<false> orders every core, the AIVs read; SyncAll<true> on the AIC does nothing.
void k_syncall_mix(GM_ADDR ws, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GlobalTensor<int32_t> w, o;
  w.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws), 64);
  o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 64);
  if ASCEND_IS_AIC { w.SetValue(GetBlockIdx() * 8, static_cast<int32_t>(7 + GetBlockIdx())); }
  SyncAll<true>();    // AIVs only
  SyncAll<false>();   // everyone
  if ASCEND_IS_AIV { o.SetValue(GetBlockIdx() * 8, w.GetValue(GetBlockIdx() / 2 * 8)); }
}
}  // namespace

TEST(Mix, SyncAllAcrossAicAndAiv) {
  Fresh f;
  Gm<int32_t> ws(64), out(64);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_syncall_mix, 2, (GM_ADDR)ws.p, (GM_ADDR)out.p); }), "");
  for (int v = 0; v < 4; ++v) EXPECT_EQ(out[v * 8], 7 + v / 2) << v;
}

// ------------------------------------------------------------------------------------------------ workspace
namespace {
uint8_t* g_sys = nullptr;
uint8_t* g_user = nullptr;
void k_workspace(GM_ADDR workspace) {
  SetSysWorkspace(workspace);
  g_sys = GetSysWorkSpacePtr();
  g_user = GetUserWorkspace(workspace);
  GlobalTensor<int32_t> s;
  s.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(GetSysWorkSpacePtr()), 16);
  s.SetValue(0, 1);   // the system workspace is GM the bounds checks know
}
void k_null_workspace(GM_ADDR) { GetUserWorkspace(nullptr); }
}  // namespace

TEST(Mix, Workspace) {
  Fresh f;
  Gm<uint8_t> ws(1024);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_workspace, 1, ws.p); }), "");
  EXPECT_NE(g_sys, nullptr);
  EXPECT_EQ(g_user, ws.p);
  EXPECT_TRUE(IsError(error_of([&] { ICPU_RUN_KF(k_null_workspace, 1, ws.p); }), "param", "GetUserWorkspace"));
}

// ------------------------------------------------------------------------------------------------ vector kernels
namespace {
void k_vector_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  GlobalTensor<float> xg, yg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + GetBlockIdx() * kN, kN);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + GetBlockIdx() * kN, kN);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + GetBlockIdx() * kN, kN);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> qx, qy;
  TQue<TPosition::VECOUT, 1> qz;
  pipe.InitBuffer(qx, 1, kN * sizeof(float));
  pipe.InitBuffer(qy, 1, kN * sizeof(float));
  pipe.InitBuffer(qz, 1, kN * sizeof(float));
  LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
  DataCopy(a, xg, kN);
  DataCopy(b, yg, kN);
  qx.EnQue(a);
  qy.EnQue(b);
  a = qx.DeQue<float>();
  b = qy.DeQue<float>();
  LocalTensor<float> c = qz.AllocTensor<float>();
  Add(c, a, b, kN);
  qz.EnQue(c);
  qx.FreeTensor(a);
  qy.FreeTensor(b);
  c = qz.DeQue<float>();
  DataCopy(zg, c, kN);
  qz.FreeTensor(c);
  SyncAll();
}
}  // namespace

TEST(Mix, PureVectorKernelUnchanged) {
  Fresh f;   // the host never calls SetKernelMode
  Gm<float> x(8 * kN), y(8 * kN), z(8 * kN);
  for (int i = 0; i < 8 * kN; ++i) x[i] = static_cast<float>(i), y[i] = static_cast<float>(3 * i);
  ASSERT_EQ(error_of([&] { ICPU_RUN_KF(k_vector_add, 8, (GM_ADDR)x.p, (GM_ADDR)y.p, (GM_ADDR)z.p); }), "");
  for (int i = 0; i < 8 * kN; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
  const auto& t = kgen::sim::last_launch_trace();
  ASSERT_EQ(t.cores.size(), 8u);
  for (int b = 0; b < 8; ++b) {
    EXPECT_EQ(t.cores[b].block, b);
    EXPECT_STREQ(t.cores[b].core_type, "AIV");
  }
}
