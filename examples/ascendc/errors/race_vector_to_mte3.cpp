// Negative: vector result copied to GM without V -> MTE3 synchronisation. The input goes through a queue correctly,
// but the result lives in a TBuf and DataCopy to GM (MTE3) may start before Muls (V) has written it.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 2 * 4096;
constexpr int32_t USE_CORE_NUM = 2;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_LENGTH = 1024;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelScale {
 public:
  __aicore__ inline KernelScale() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, 2, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(yBuf, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> yLocal = yBuf.Get<float>();
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueX.EnQue(xLocal);
      xLocal = inQueueX.DeQue<float>();
      AscendC::Muls(yLocal, xLocal, 0.5f, TILE_LENGTH);
      inQueueX.FreeTensor(xLocal);
      AscendC::DataCopy(yGm[i * TILE_LENGTH], yLocal, TILE_LENGTH);  // EXPECT-ERROR: race
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueueX;
  AscendC::TBuf<AscendC::TPosition::VECCALC> yBuf;
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
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = 1.0f * i;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(scale_custom, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += y[i] != 0.5f * x[i];
  std::printf("race_vector_to_mte3: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
