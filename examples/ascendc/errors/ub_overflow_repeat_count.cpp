// Negative: a repeat count that runs past the tensor. The level-0 Muls covers 64 floats per repeat, but the repeat
// count was computed from the byte size (1024 * 4 / 64 = 64 repeats = 4096 floats) instead of 1024 / 64 = 16.
#include "kernel_operator.h"

constexpr int32_t LENGTH = 1024;
constexpr uint8_t REPEAT = LENGTH * sizeof(float) / 64;   // wrong: should be LENGTH / 64

class KernelScale {
 public:
  __aicore__ inline KernelScale() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, LENGTH);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, LENGTH);
    inQueueX.EnQue(xLocal);
    xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::Muls(yLocal, xLocal, 2.0f, 64, REPEAT, {1, 1, 8, 8});  // EXPECT-ERROR: ub-overflow
    outQueueY.EnQue(yLocal);
    inQueueX.FreeTensor(xLocal);
    yLocal = outQueueY.DeQue<float>();
    AscendC::DataCopy(yGm, yLocal, LENGTH);
    outQueueY.FreeTensor(yLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y) {
  KernelScale op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  for (int i = 0; i < LENGTH; ++i) x[i] = 1.0f * i;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(scale_custom, 1, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < LENGTH; ++i) bad += y[i] != 2.0f * x[i];
  std::printf("ub_overflow_repeat_count: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
