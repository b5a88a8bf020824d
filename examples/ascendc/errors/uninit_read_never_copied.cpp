// Negative: computing on a tensor that was never copied in. A copy-paste slip loads y's data into xLocal a second
// time, so yLocal still holds whatever the UB contained before (garbage on the chip) when Add reads it.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 2048;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t TILE_NUM = TOTAL_LENGTH / TILE_LENGTH;

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z, TOTAL_LENGTH);
    pipe.InitBuffer(inQueueX, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(xLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);   // should have been yLocal
      inQueueX.EnQue(xLocal);
      inQueueY.EnQue(yLocal);

      xLocal = inQueueX.DeQue<float>();
      yLocal = inQueueY.DeQue<float>();
      AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
      AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);  // EXPECT-ERROR: uninit-read
      outQueueZ.EnQue(zLocal);
      inQueueX.FreeTensor(xLocal);
      inQueueY.FreeTensor(yLocal);

      zLocal = outQueueZ.DeQue<float>();
      AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
      outQueueZ.FreeTensor(zLocal);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAdd op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t bytes = TOTAL_LENGTH * sizeof(float);
  float* x = (float*)AscendC::GmAlloc(bytes);
  float* y = (float*)AscendC::GmAlloc(bytes);
  float* z = (float*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = 1.0f * i; y[i] = -0.5f * i; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += z[i] != x[i] + y[i];
  std::printf("uninit_read_never_copied: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
