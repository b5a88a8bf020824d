// Negative: WaitFlag without a matching SetFlag. The manual-sync loop waits for the previous iteration's V -> MTE2
// flag, but on the first iteration no SetFlag has happened yet (the `if (i != 0)` guard was forgotten).
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 4096;
constexpr int32_t TILE_LENGTH = 1024;
constexpr int32_t LOOP_COUNT = TOTAL_LENGTH / TILE_LENGTH;

class KernelManual {
 public:
  __aicore__ inline KernelManual() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z, TOTAL_LENGTH);
    pipe.InitBuffer(xBuf, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(zBuf, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
    AscendC::LocalTensor<float> zLocal = zBuf.Get<float>();
    for (int32_t i = 0; i < LOOP_COUNT; i++) {
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);  // EXPECT-ERROR: deadlock
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      if (i != 0) AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
      AscendC::Adds(zLocal, xLocal, 1.0f, TILE_LENGTH);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
      if (i != LOOP_COUNT - 1) AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf, zBuf;
  AscendC::GlobalTensor<float> xGm, zGm;
};

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR z) {
  KernelManual op;
  op.Init(x, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* z = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = 1.0f * i;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_one, 1, (GM_ADDR)x, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += z[i] != x[i] + 1.0f;
  std::printf("deadlock_waitflag_without_setflag: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
