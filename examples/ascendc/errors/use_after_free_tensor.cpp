// Negative: using a tensor after FreeTensor. Compute releases the input early (to "free UB sooner") and then
// reads it. That read alone is no fault on the chip (the buffer keeps its bytes: kgen warns), but the AllocTensor
// that takes this buffer again two tiles later waits only for the FreeTensor, so its DMA may refill the buffer
// before the late read: a race, reported at the refill.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 4 * 2048;
constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelSquarePlus {
 public:
  __aicore__ inline KernelSquarePlus() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, 2, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);  // EXPECT-ERROR: race
      inQueueX.EnQue(xLocal);

      xLocal = inQueueX.DeQue<float>();
      AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
      AscendC::Mul(yLocal, xLocal, xLocal, TILE_LENGTH);
      inQueueX.FreeTensor(xLocal);
      AscendC::Add(yLocal, yLocal, xLocal, TILE_LENGTH);  // read after its FreeTensor
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

extern "C" __global__ __aicore__ void square_plus(GM_ADDR x, GM_ADDR y) {
  KernelSquarePlus op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = 0.5f * (i % 11);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(square_plus, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += y[i] != x[i] * x[i] + x[i];
  std::printf("use_after_free_tensor: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
