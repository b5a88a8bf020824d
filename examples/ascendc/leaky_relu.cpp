// Leaky ReLU (y = x >= 0 ? x : 0.01 * x) on 32768 floats over 8 cores with double buffering, using the
// count form of LeakyRelu with a scalar slope.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t TOTAL_LENGTH = 8 * 4096;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;   // 4096
constexpr int32_t TILE_NUM = 8;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;   // 256
constexpr float NEGATIVE_SLOPE = 0.01f;

class KernelLeakyRelu {
 public:
  __aicore__ inline KernelLeakyRelu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::LeakyRelu(yLocal, xLocal, NEGATIVE_SLOPE, TILE_LENGTH);
    outQueueY.EnQue<float>(yLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
    AscendC::DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
    outQueueY.FreeTensor(yLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y) {
  KernelLeakyRelu op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t bytes = TOTAL_LENGTH * sizeof(float);
  float* x = (float*)AscendC::GmAlloc(bytes);
  float* y = (float*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = 0.37f * static_cast<float>((i * 17) % 211 - 105);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(leaky_relu_custom, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    float want = x[i] >= 0.0f ? x[i] : x[i] * NEGATIVE_SLOPE;   // one float multiply: exact match
    if (y[i] != want) ++bad;
  }
  std::printf("leaky_relu: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
