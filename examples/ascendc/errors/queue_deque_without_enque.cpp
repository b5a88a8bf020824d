// Negative: DeQue without EnQue. CopyIn fills the tensor but forgets inQueueX.EnQue, so Compute's DeQue waits on
// an empty queue: on the chip the vector pipe hangs waiting for an MTE2 flag that is never set.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 4 * 2048;
constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelAbs {
 public:
  __aicore__ inline KernelAbs() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, 2, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();  // EXPECT-ERROR: queue
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::Abs(yLocal, xLocal, TILE_LENGTH);
    outQueueY.EnQue(yLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
    AscendC::DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
    outQueueY.FreeTensor(yLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueueY;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y) {
  KernelAbs op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = (i % 9) - 4.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(abs_custom, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += y[i] != (x[i] < 0.0f ? -x[i] : x[i]);
  std::printf("queue_deque_without_enque: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
