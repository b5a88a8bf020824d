// Negative: Exp on int32_t. Exp (like Ln, Sqrt, Div) takes half or float only; an integer input must be cast to
// float first (Cast with RoundMode::CAST_NONE), exponentiated, and cast back if needed.
#include "kernel_operator.h"

constexpr int32_t LENGTH = 1024;

class KernelExpInt {
 public:
  __aicore__ inline KernelExpInt() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, LENGTH);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(int32_t));
    pipe.InitBuffer(outQueueY, 1, LENGTH * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<int32_t> xLocal = inQueueX.AllocTensor<int32_t>();
    AscendC::DataCopy(xLocal, xGm, LENGTH);
    inQueueX.EnQue(xLocal);
    xLocal = inQueueX.DeQue<int32_t>();
    AscendC::LocalTensor<int32_t> yLocal = outQueueY.AllocTensor<int32_t>();
    AscendC::Exp(yLocal, xLocal, LENGTH);  // EXPECT-ERROR: dtype
    outQueueY.EnQue(yLocal);
    inQueueX.FreeTensor(xLocal);
    yLocal = outQueueY.DeQue<int32_t>();
    AscendC::DataCopy(yGm, yLocal, LENGTH);
    outQueueY.FreeTensor(yLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY;
  AscendC::GlobalTensor<int32_t> xGm, yGm;
};

extern "C" __global__ __aicore__ void exp_int(GM_ADDR x, GM_ADDR y) {
  KernelExpInt op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  int32_t* x = (int32_t*)AscendC::GmAlloc(LENGTH * sizeof(int32_t));
  int32_t* y = (int32_t*)AscendC::GmAlloc(LENGTH * sizeof(int32_t));
  for (int i = 0; i < LENGTH; ++i) x[i] = i % 10;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(exp_int, 1, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < LENGTH; ++i) bad += y[i] != static_cast<int32_t>(std::exp(static_cast<float>(x[i])));
  std::printf("dtype_exp_int32: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
