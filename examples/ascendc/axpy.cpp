// Axpy (dst += scalar * src): out = y + 0.75 * x + 1.5 * h with a float/float Axpy and a mixed half->float Axpy
// that accumulates fp16 input into a float result; 4 cores, double buffering.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = 4096;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;   // 8
constexpr int32_t BUFFER_NUM = 2;
constexpr float ALPHA = 0.75f;
constexpr float BETA = 1.5f;

class KernelAxpy {
 public:
  __aicore__ inline KernelAxpy() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR h, GM_ADDR y, GM_ADDR out) {
    int64_t offset = static_cast<int64_t>(BLOCK_LENGTH) * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, BLOCK_LENGTH);
    hGm.SetGlobalBuffer((__gm__ half*)h + offset, BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, BLOCK_LENGTH);
    outGm.SetGlobalBuffer((__gm__ float*)out + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueH, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
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
    AscendC::LocalTensor<half> hLocal = inQueueH.AllocTensor<half>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
    AscendC::DataCopy(hLocal, hGm[progress * TILE_LENGTH], TILE_LENGTH);
    AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueH.EnQue(hLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<half> hLocal = inQueueH.DeQue<half>();
    AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
    AscendC::DataCopy(outLocal, yLocal, TILE_LENGTH);          // out = y (UB -> UB)
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Axpy(outLocal, xLocal, ALPHA, TILE_LENGTH);       // out += 0.75 * x        (float, float)
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Axpy(outLocal, hLocal, static_cast<half>(BETA), TILE_LENGTH);   // out += 1.5 * h (half -> float)
    outQueue.EnQue<float>(outLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueH.FreeTensor(hLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<float> outLocal = outQueue.DeQue<float>();
    AscendC::DataCopy(outGm[progress * TILE_LENGTH], outLocal, TILE_LENGTH);
    outQueue.FreeTensor(outLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueH, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
  AscendC::GlobalTensor<float> xGm, yGm, outGm;
  AscendC::GlobalTensor<half> hGm;
};

extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR h, GM_ADDR y, GM_ADDR out) {
  KernelAxpy op;
  op.Init(x, h, y, out);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  half* h = (half*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(half));
  float* y = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* out = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    x[i] = 0.01f * (i % 313) - 1.5f;
    h[i] = half(0.125f * (i % 29) - 1.75f);
    y[i] = 3.0f - 0.002f * (i % 1009);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(axpy_custom, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)h, (GM_ADDR)y, (GM_ADDR)out);
  // float math, two fused-or-not multiply-adds: tolerance 1e-5 relative.
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    float want = (y[i] + ALPHA * x[i]) + BETA * static_cast<float>(h[i]);
    if (std::fabs(out[i] - want) > 1e-5f * std::fmax(1.0f, std::fabs(want))) ++bad;
  }
  std::printf("axpy: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(h);
  AscendC::GmFree(y);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
