// Transcendental vector ops: y = Ln(Exp(x) + 1) (softplus) and z = Exp(x) on floats with Exp, Adds and Ln;
// checked against std::exp/log1p to 1e-5 relative + 1e-6 absolute (the chip's Exp/Ln are approximations).
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = 2048;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;   // 4
constexpr int32_t BUFFER_NUM = 2;

class KernelExpLn {
 public:
  __aicore__ inline KernelExpLn() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    int64_t offset = static_cast<int64_t>(BLOCK_LENGTH) * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, BLOCK_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueX.EnQue(xLocal);

      xLocal = inQueueX.DeQue<float>();
      AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
      AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
      AscendC::Exp(zLocal, xLocal, TILE_LENGTH);            // z = e^x
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Adds(yLocal, zLocal, 1.0f, TILE_LENGTH);     // 1 + e^x
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Ln(yLocal, yLocal, TILE_LENGTH);             // ln(1 + e^x)
      outQueueY.EnQue(yLocal);
      outQueueZ.EnQue(zLocal);
      inQueueX.FreeTensor(xLocal);

      yLocal = outQueueY.DeQue<float>();
      zLocal = outQueueZ.DeQue<float>();
      AscendC::DataCopy(yGm[i * TILE_LENGTH], yLocal, TILE_LENGTH);
      AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
      outQueueY.FreeTensor(yLocal);
      outQueueZ.FreeTensor(zLocal);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY, outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void softplus_exp(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelExpLn op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* z = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = -8.0f + 16.0f * static_cast<float>(i) / TOTAL_LENGTH;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(softplus_exp, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    double e = std::exp(static_cast<double>(x[i]));
    double sp = std::log1p(e);
    if (std::fabs(z[i] - e) > 1e-5 * std::fabs(e) + 1e-6) ++bad;
    if (std::fabs(y[i] - sp) > 1e-5 * std::fabs(sp) + 1e-6) ++bad;
  }
  std::printf("exp_ln: %d mismatches of %d\n", bad, 2 * TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
