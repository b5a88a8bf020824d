// Negative: DataCopy of 100 floats (400 bytes). DataCopy moves whole 32-byte blocks, so the chip silently drops the
// last 16 bytes; the tail needs DataCopyPad (or a count rounded to a multiple of 8 floats).
#include "kernel_operator.h"

constexpr int32_t LENGTH = 100;

class KernelScale {
 public:
  __aicore__ inline KernelScale() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, LENGTH);
    pipe.InitBuffer(inQueueX, 1, 128 * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, 128 * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, LENGTH);  // EXPECT-ERROR: align
    inQueueX.EnQue(xLocal);
    xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::Muls(yLocal, xLocal, 3.0f, LENGTH);
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
  for (int i = 0; i < LENGTH; ++i) bad += y[i] != 3.0f * x[i];
  std::printf("align_datacopy_100_floats: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
