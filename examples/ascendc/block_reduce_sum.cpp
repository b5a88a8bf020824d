// BlockReduceSum: one sum per 32-byte block (8 floats), i.e. sum-pooling with window 8, 8 results per repeat;
// 8192 floats -> 1024 window sums on 2 cores, followed by BlockReduceMax on the same input for the window maxima.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 2;
constexpr int32_t WINDOW = 8;                                   // floats per 32-byte block
constexpr int32_t BLOCK_LENGTH = 4096;                          // input floats per core
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t OUT_PER_CORE = BLOCK_LENGTH / WINDOW;         // 512
constexpr int32_t REPEAT = BLOCK_LENGTH / 64;                   // 64 repeats of 64 floats

class KernelBlockReduce {
 public:
  __aicore__ inline KernelBlockReduce() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR sums, GM_ADDR maxs) {
    int64_t core = AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + core * BLOCK_LENGTH, BLOCK_LENGTH);
    sumGm.SetGlobalBuffer((__gm__ float*)sums + core * OUT_PER_CORE, OUT_PER_CORE);
    maxGm.SetGlobalBuffer((__gm__ float*)maxs + core * OUT_PER_CORE, OUT_PER_CORE);
    pipe.InitBuffer(inQueueX, 1, BLOCK_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueSum, 1, OUT_PER_CORE * sizeof(float));
    pipe.InitBuffer(outQueueMax, 1, OUT_PER_CORE * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, BLOCK_LENGTH);
    inQueueX.EnQue(xLocal);
    xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> sumLocal = outQueueSum.AllocTensor<float>();
    AscendC::LocalTensor<float> maxLocal = outQueueMax.AllocTensor<float>();
    // repeat, mask 64, dstRepStride 1 (unit: 8 results = 32 bytes for float), srcBlkStride 1, srcRepStride 8.
    AscendC::BlockReduceSum(sumLocal, xLocal, REPEAT, 64, 1, 1, 8);
    AscendC::BlockReduceMax(maxLocal, xLocal, REPEAT, 64, 1, 1, 8);
    outQueueSum.EnQue(sumLocal);
    outQueueMax.EnQue(maxLocal);
    inQueueX.FreeTensor(xLocal);
    sumLocal = outQueueSum.DeQue<float>();
    maxLocal = outQueueMax.DeQue<float>();
    AscendC::DataCopy(sumGm, sumLocal, OUT_PER_CORE);
    AscendC::DataCopy(maxGm, maxLocal, OUT_PER_CORE);
    outQueueSum.FreeTensor(sumLocal);
    outQueueMax.FreeTensor(maxLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueSum, outQueueMax;
  AscendC::GlobalTensor<float> xGm, sumGm, maxGm;
};

extern "C" __global__ __aicore__ void window_pool(GM_ADDR x, GM_ADDR sums, GM_ADDR maxs) {
  KernelBlockReduce op;
  op.Init(x, sums, maxs);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  const int outN = TOTAL_LENGTH / WINDOW;
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* sums = (float*)AscendC::GmAlloc(outN * sizeof(float));
  float* maxs = (float*)AscendC::GmAlloc(outN * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = 0.5f * static_cast<float>((i * 23) % 61) - 15.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(window_pool, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)sums, (GM_ADDR)maxs);
  int bad = 0;   // half-integers: window sums are exact in any order
  for (int w = 0; w < outN; ++w) {
    float s = 0.0f, m = x[w * WINDOW];
    for (int k = 0; k < WINDOW; ++k) {
      s += x[w * WINDOW + k];
      if (x[w * WINDOW + k] > m) m = x[w * WINDOW + k];
    }
    if (sums[w] != s || maxs[w] != m) ++bad;
  }
  std::printf("block_reduce_sum: %d mismatches of %d windows\n", bad, outN);
  AscendC::GmFree(x);
  AscendC::GmFree(sums);
  AscendC::GmFree(maxs);
  return bad == 0 ? 0 : 1;
}
#endif
