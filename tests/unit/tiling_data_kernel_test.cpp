// Kernel side of tiling_data_test.cpp: the tiling classes of tiling_data_test_defs.h compiled in a kernel TU
// (kernel_operator.h first), read with GET_TILING_DATA in a kernel launched with ICPU_RUN_KF.
#include <cstddef>
#include <cstring>
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"
#include "register/tilingdata_base.h"
#include "tiling_data_test_shared.h"

namespace optiling {
#include "tiling_data_test_defs.h"
// Kernel side only: CANN's high-level-API tiling structs named in a tiling class become the kernel structs.
BEGIN_TILING_DATA_DEF(KtSoftmax)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTilingData);
TILING_DATA_FIELD_DEF_STRUCT(LogSoftMaxTiling, logSoftmaxTilingData);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rmsNormTilingData);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KtSoftmaxOp, KtSoftmax)
}  // namespace optiling

static_assert(std::is_same_v<decltype(optiling::KtSoftmax{}.softmaxTilingData), AscendC::tiling::SoftMaxTiling>);
static_assert(std::is_same_v<decltype(optiling::KtSoftmax{}.logSoftmaxTilingData), AscendC::tiling::LogSoftMaxTiling>);
static_assert(std::is_same_v<decltype(optiling::KtSoftmax{}.rmsNormTilingData), AscendC::tiling::RmsNormTiling>);
static_assert(std::is_trivially_copyable_v<optiling::KtTiling>);
static_assert(std::is_same_v<decltype(optiling::KtTiling{}.cube), AscendC::tiling::TCubeTiling>);

static kgen_tiling_test::Seen g_seen;

extern "C" __global__ __aicore__ void kt_tiling_kernel(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  static_assert(std::is_same_v<decltype(tilingData), optiling::KtTiling>, "the default registration is KtTiling");
  if (AscendC::GetBlockIdx() != 0) return;
  g_seen.c = tilingData.c;
  g_seen.total = tilingData.total;
  g_seen.big = tilingData.big;
  for (int i = 0; i < 5; ++i) g_seen.arr[i] = tilingData.arr[i];
  g_seen.f = tilingData.f;
  g_seen.a = tilingData.inner.a;
  for (int i = 0; i < 3; ++i) g_seen.b[i] = tilingData.inner.b[i];
  g_seen.s8 = tilingData.s8;
  g_seen.cubeM = tilingData.cube.M;
  g_seen.cubeBaseK = tilingData.cube.baseK;
  g_seen.cubeMx = tilingData.cube.mxTypePara;
  g_seen.last = tilingData.last;
  g_seen.tail = tilingData.tail;
}

namespace kgen_tiling_test {
Layout kernel_layout() {
  using T = optiling::KtTiling;
  Layout l;
  l.size = sizeof(T);
  l.inner_size = sizeof(optiling::KtInner);
  l.key1_size = sizeof(optiling::KtKey1);
  l.off_c = offsetof(T, c);
  l.off_total = offsetof(T, total);
  l.off_big = offsetof(T, big);
  l.off_arr = offsetof(T, arr);
  l.off_f = offsetof(T, f);
  l.off_inner = offsetof(T, inner);
  l.off_inner_b = offsetof(optiling::KtInner, b);
  l.off_s8 = offsetof(T, s8);
  l.off_cube = offsetof(T, cube);
  l.off_last = offsetof(T, last);
  l.off_tail = offsetof(T, tail);
  return l;
}
Seen read_through_kernel_struct(const void* blob) {
  optiling::KtTiling t;
  std::memcpy(&t, blob, sizeof(t));
  Seen s{};
  s.c = t.c; s.total = t.total; s.big = t.big;
  for (int i = 0; i < 5; ++i) s.arr[i] = t.arr[i];
  s.f = t.f; s.a = t.inner.a;
  for (int i = 0; i < 3; ++i) s.b[i] = t.inner.b[i];
  s.s8 = t.s8; s.cubeM = t.cube.M; s.cubeBaseK = t.cube.baseK; s.cubeMx = t.cube.mxTypePara;
  s.last = t.last; s.tail = t.tail;
  return s;
}
Seen run_kernel(uint8_t* gmTiling, uint32_t blockDim) {
  g_seen = Seen{};
  uint8_t* x = static_cast<uint8_t*>(AscendC::GmAlloc(64));
  uint8_t* ws = static_cast<uint8_t*>(AscendC::GmAlloc(64));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(kt_tiling_kernel, blockDim, x, ws, gmTiling);
  AscendC::GmFree(x);
  AscendC::GmFree(ws);
  return g_seen;
}
}  // namespace kgen_tiling_test
