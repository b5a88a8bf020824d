// Negative: a core stores partial sums to a GM workspace (MTE3) and loads them back (MTE2) with no
// MTE3 -> MTE2 flag, so the load may read GM before the store has landed.
#include "kernel_operator.h"

constexpr int32_t N = 256;

extern "C" __global__ __aicore__ void partial_sums(GM_ADDR x, GM_ADDR workspace, GM_ADDR y) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * N * sizeof(float));
  AscendC::GlobalTensor<float> xGm, wsGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, N);
  wsGm.SetGlobalBuffer((__gm__ float*)workspace, N);
  yGm.SetGlobalBuffer((__gm__ float*)y, N);
  AscendC::LocalTensor<float> a = buf.Get<float>(N);
  AscendC::LocalTensor<float> b = buf.GetWithOffset<float>(N, N * sizeof(float));
  AscendC::DataCopy(a, xGm, N);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::Muls(a, a, 2.0f, N);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::DataCopy(wsGm, a, N);
  AscendC::DataCopy(b, wsGm, N);  // EXPECT-ERROR: race
  AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
  AscendC::DataCopy(yGm, b, N);
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
int main() {
  float* x = (float*)AscendC::GmAlloc(N * sizeof(float));
  float* ws = (float*)AscendC::GmAlloc(N * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) x[i] = float(i);
  ICPU_RUN_KF(partial_sums, 1, (GM_ADDR)x, (GM_ADDR)ws, (GM_ADDR)y);
  AscendC::GmFree(x);
  AscendC::GmFree(ws);
  AscendC::GmFree(y);
  return 0;
}
#endif
