// High-level activation APIs: Sigmoid, Tanh and Gelu (tanh approximation) on floats, each with a sharedTmpBuffer;
// 4 cores, double buffering, checked against std:: math with the fp32 tolerance 1e-4 relative + 1e-4 absolute.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = 4096;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 1024;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;   // 4
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TMP_BYTES = 8 * 1024;                   // >= GetSigmoid/Tanh/GeluMaxMinTmpSize minimum

class KernelActivations {
 public:
  __aicore__ inline KernelActivations() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR sig, GM_ADDR th, GM_ADDR gelu) {
    int64_t offset = static_cast<int64_t>(BLOCK_LENGTH) * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, BLOCK_LENGTH);
    sigGm.SetGlobalBuffer((__gm__ float*)sig + offset, BLOCK_LENGTH);
    tanhGm.SetGlobalBuffer((__gm__ float*)th + offset, BLOCK_LENGTH);
    geluGm.SetGlobalBuffer((__gm__ float*)gelu + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueSig, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueTanh, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueGelu, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(tmpBuf, TMP_BYTES);
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueX.EnQue(xLocal);

      xLocal = inQueueX.DeQue<float>();
      AscendC::LocalTensor<float> sigLocal = outQueueSig.AllocTensor<float>();
      AscendC::LocalTensor<float> tanhLocal = outQueueTanh.AllocTensor<float>();
      AscendC::LocalTensor<float> geluLocal = outQueueGelu.AllocTensor<float>();
      AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
      AscendC::Sigmoid(sigLocal, xLocal, tmp, TILE_LENGTH);
      AscendC::PipeBarrier<PIPE_V>();                      // the three calls share tmp
      AscendC::Tanh(tanhLocal, xLocal, tmp, TILE_LENGTH);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Gelu(geluLocal, xLocal, tmp, TILE_LENGTH);
      outQueueSig.EnQue(sigLocal);
      outQueueTanh.EnQue(tanhLocal);
      outQueueGelu.EnQue(geluLocal);
      inQueueX.FreeTensor(xLocal);

      sigLocal = outQueueSig.DeQue<float>();
      tanhLocal = outQueueTanh.DeQue<float>();
      geluLocal = outQueueGelu.DeQue<float>();
      AscendC::DataCopy(sigGm[i * TILE_LENGTH], sigLocal, TILE_LENGTH);
      AscendC::DataCopy(tanhGm[i * TILE_LENGTH], tanhLocal, TILE_LENGTH);
      AscendC::DataCopy(geluGm[i * TILE_LENGTH], geluLocal, TILE_LENGTH);
      outQueueSig.FreeTensor(sigLocal);
      outQueueTanh.FreeTensor(tanhLocal);
      outQueueGelu.FreeTensor(geluLocal);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueSig, outQueueTanh, outQueueGelu;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
  AscendC::GlobalTensor<float> xGm, sigGm, tanhGm, geluGm;
};

extern "C" __global__ __aicore__ void activations(GM_ADDR x, GM_ADDR sig, GM_ADDR th, GM_ADDR gelu) {
  KernelActivations op;
  op.Init(x, sig, th, gelu);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

static bool close(float got, double want) { return std::fabs(got - want) <= 1e-4 * std::fabs(want) + 1e-4; }

int main() {
  size_t bytes = TOTAL_LENGTH * sizeof(float);
  float* x = (float*)AscendC::GmAlloc(bytes);
  float* sig = (float*)AscendC::GmAlloc(bytes);
  float* th = (float*)AscendC::GmAlloc(bytes);
  float* gelu = (float*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < TOTAL_LENGTH; ++i)
    x[i] = -6.0f + 12.0f * static_cast<float>((i * 97) % TOTAL_LENGTH) / TOTAL_LENGTH;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(activations, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)sig, (GM_ADDR)th, (GM_ADDR)gelu);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    double v = x[i];
    double wantSig = 1.0 / (1.0 + std::exp(-v));
    double wantTanh = std::tanh(v);
    double wantGelu = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    bad += !close(sig[i], wantSig) + !close(th[i], wantTanh) + !close(gelu[i], wantGelu);
  }
  std::printf("activations_highlevel: %d mismatches of %d\n", bad, 3 * TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(sig);
  AscendC::GmFree(th);
  AscendC::GmFree(gelu);
  return bad == 0 ? 0 : 1;
}
#endif
