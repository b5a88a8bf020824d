// Negative: a count given in bytes instead of elements. The two 64 KB tiles fill UB up to 128 KB; Muls is asked for
// LENGTH * sizeof(float) = 65536 floats (256 KB) instead of 16384, which runs past the end of UB itself. (A count that
// overran only its own buffer would, as on the chip, touch the next buffer's bytes: a warning, and wrong results only
// where live data is overwritten.)
#include "kernel_operator.h"

constexpr int32_t LENGTH = 16384;
constexpr uint32_t COUNT = LENGTH * sizeof(float);   // wrong: should be LENGTH

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
    AscendC::Muls(yLocal, xLocal, 2.0f, COUNT);  // EXPECT-ERROR: ub-overflow
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
  std::printf("ub_overflow_count_in_bytes: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
