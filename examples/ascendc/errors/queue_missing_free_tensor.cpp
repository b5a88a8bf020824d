// Negative: a queue buffer that is never freed. The input tensor is not released with FreeTensor after Compute, so
// the double-buffered queue runs out on the third tile: AllocTensor would wait forever on the chip.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 4096;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t TILE_NUM = TOTAL_LENGTH / TILE_LENGTH;

class KernelNeg {
 public:
  __aicore__ inline KernelNeg() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL_LENGTH);
    pipe.InitBuffer(inQueueX, 2, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();  // EXPECT-ERROR: queue
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueX.EnQue(xLocal);
      xLocal = inQueueX.DeQue<float>();
      AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
      AscendC::Muls(yLocal, xLocal, -1.0f, TILE_LENGTH);
      outQueueY.EnQue(yLocal);
      yLocal = outQueueY.DeQue<float>();
      AscendC::DataCopy(yGm[i * TILE_LENGTH], yLocal, TILE_LENGTH);
      outQueueY.FreeTensor(yLocal);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueueY;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void neg_custom(GM_ADDR x, GM_ADDR y) {
  KernelNeg op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = 1.0f * i;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(neg_custom, 1, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += y[i] != -x[i];
  std::printf("queue_missing_free_tensor: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
