// Negative: a TBuf used as the input buffer with no synchronisation between DataCopy (MTE2) and Add (V). A TBuf has
// no queue, so nothing orders the two pipes: the vector unit can read the UB before the DMA has filled it.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 4096;
constexpr int32_t TILE_LENGTH = 1024;
constexpr int32_t TILE_NUM = TOTAL_LENGTH / TILE_LENGTH;

class KernelAddOne {
 public:
  __aicore__ inline KernelAddOne() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z, TOTAL_LENGTH);
    pipe.InitBuffer(xBuf, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(yBuf, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
    AscendC::LocalTensor<float> yLocal = yBuf.Get<float>();
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
      AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);  // EXPECT-ERROR: race
      outQueueZ.EnQue(zLocal);
      zLocal = outQueueZ.DeQue<float>();
      AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
      outQueueZ.FreeTensor(zLocal);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf, yBuf;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAddOne op;
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
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = 1.0f * i; y[i] = 1.0f; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += z[i] != x[i] + y[i];
  std::printf("race_tbuf_missing_sync: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
