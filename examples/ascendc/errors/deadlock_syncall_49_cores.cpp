// Negative: SyncAll with blockDim 49 on a 48-vector-core Ascend910B2. Block 48 can only start after another block
// finishes, but every resident block waits in SyncAll for it: the chip hangs. Launch at most the physical core count.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 49;
constexpr int32_t BLOCK_LENGTH = 64;

class KernelTwoPhase {
 public:
  __aicore__ inline KernelTwoPhase() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR ws, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    wsGm.SetGlobalBuffer((__gm__ float*)ws, USE_CORE_NUM * BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, BLOCK_LENGTH);
    pipe.InitBuffer(queBind, 1, USE_CORE_NUM * BLOCK_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> t = queBind.AllocTensor<float>();
    AscendC::DataCopy(t, xGm, BLOCK_LENGTH);
    queBind.EnQue(t);
    t = queBind.DeQue<float>();
    AscendC::DataCopy(wsGm[BLOCK_LENGTH * AscendC::GetBlockIdx()], t, BLOCK_LENGTH);
    queBind.FreeTensor(t);
    AscendC::SyncAll();  // EXPECT-ERROR: deadlock
    if (AscendC::GetBlockIdx() != 0) return;
    t = queBind.AllocTensor<float>();
    AscendC::DataCopy(t, wsGm[BLOCK_LENGTH * (USE_CORE_NUM - 1)], BLOCK_LENGTH);
    queBind.EnQue(t);
    t = queBind.DeQue<float>();
    AscendC::DataCopy(yGm, t, BLOCK_LENGTH);
    queBind.FreeTensor(t);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> queBind;
  AscendC::GlobalTensor<float> xGm, wsGm, yGm;
};

extern "C" __global__ __aicore__ void last_block_copy(GM_ADDR x, GM_ADDR ws, GM_ADDR y) {
  KernelTwoPhase op;
  op.Init(x, ws, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(USE_CORE_NUM * BLOCK_LENGTH * sizeof(float));
  float* ws = (float*)AscendC::GmAlloc(USE_CORE_NUM * BLOCK_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(BLOCK_LENGTH * sizeof(float));
  for (int i = 0; i < USE_CORE_NUM * BLOCK_LENGTH; ++i) x[i] = 1.0f * i;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(last_block_copy, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)ws, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < BLOCK_LENGTH; ++i) bad += y[i] != x[(USE_CORE_NUM - 1) * BLOCK_LENGTH + i];
  std::printf("deadlock_syncall_49_cores: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(ws);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
