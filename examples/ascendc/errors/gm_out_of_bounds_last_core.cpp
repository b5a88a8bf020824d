// Negative: reading past the end of GM on the last core. 16000 floats are split as ceil(16000 / 8) rounded up to
// whole 256-float tiles = 2048 per core, so core 7 reads [14336, 16384) of a 16000-float buffer (no tail handling).
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 16000;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t TILE_LENGTH = 256;
constexpr int32_t BLOCK_LENGTH =
    ((TOTAL_LENGTH + USE_CORE_NUM - 1) / USE_CORE_NUM + TILE_LENGTH - 1) / TILE_LENGTH * TILE_LENGTH;   // 2048
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelRelu {
 public:
  __aicore__ inline KernelRelu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, 2, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);  // EXPECT-ERROR: gm-out-of-bounds
      inQueueX.EnQue(xLocal);
      xLocal = inQueueX.DeQue<float>();
      AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
      AscendC::Relu(yLocal, xLocal, TILE_LENGTH);
      outQueueY.EnQue(yLocal);
      inQueueX.FreeTensor(xLocal);
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

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y) {
  KernelRelu op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = (i % 7) - 3.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(relu_custom, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += y[i] != (x[i] > 0.0f ? x[i] : 0.0f);
  std::printf("gm_out_of_bounds_last_core: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
