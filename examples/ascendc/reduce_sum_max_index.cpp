// Whole-tensor reductions: ReduceSum, ReduceMax with calIndex (value plus the first index of the maximum, stored as
// raw uint32 bits in a float slot) and ReduceMin over 4000 floats, with a sharedTmpBuffer as large as the source.
#include "kernel_operator.h"

constexpr int32_t LENGTH = 4000;                 // 62.5 repeats of 64 floats: the count form handles the remainder
constexpr int32_t SLOT = 8;                      // each result gets one 32-byte slot in the output
constexpr int32_t OUT_LENGTH = 3 * SLOT;         // [sum | max, index | min]

class KernelReduce {
 public:
  __aicore__ inline KernelReduce() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR out) {
    xGm.SetGlobalBuffer((__gm__ float*)x, LENGTH);
    outGm.SetGlobalBuffer((__gm__ float*)out, OUT_LENGTH);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, OUT_LENGTH * sizeof(float));
    pipe.InitBuffer(tmpBuf, LENGTH * sizeof(float));   // >= the minimum work size of every call below
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, LENGTH);
    inQueueX.EnQue(xLocal);
    xLocal = inQueueX.DeQue<float>();

    AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
    AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
    AscendC::Duplicate(outLocal, 0.0f, OUT_LENGTH);    // defined padding in the unused lanes of each slot
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum(outLocal, xLocal, tmp, LENGTH);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceMax(outLocal[SLOT], xLocal, tmp, LENGTH, true);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceMin(outLocal[2 * SLOT], xLocal, tmp, LENGTH);
    outQueue.EnQue(outLocal);
    inQueueX.FreeTensor(xLocal);

    outLocal = outQueue.DeQue<float>();
    AscendC::DataCopy(outGm, outLocal, OUT_LENGTH);
    outQueue.FreeTensor(outLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
  AscendC::GlobalTensor<float> xGm, outGm;
};

extern "C" __global__ __aicore__ void reduce_all(GM_ADDR x, GM_ADDR out) {
  KernelReduce op;
  op.Init(x, out);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  float* out = (float*)AscendC::GmAlloc(OUT_LENGTH * sizeof(float));
  for (int i = 0; i < LENGTH; ++i) x[i] = static_cast<float>((i * 37) % 199) - 99.0f;   // integers: exact sum
  x[2500] = 512.0f;                                                                     // a unique maximum
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(reduce_all, 1, (GM_ADDR)x, (GM_ADDR)out);
  float sum = 0.0f, mx = x[0], mn = x[0];
  uint32_t arg = 0;
  for (int i = 0; i < LENGTH; ++i) {
    sum += x[i];
    if (x[i] > mx) { mx = x[i]; arg = i; }
    if (x[i] < mn) mn = x[i];
  }
  uint32_t gotIndex;
  std::memcpy(&gotIndex, &out[SLOT + 1], sizeof(uint32_t));   // the index is stored as raw bits
  int bad = (out[0] != sum) + (out[SLOT] != mx) + (gotIndex != arg) + (out[2 * SLOT] != mn);
  std::printf("reduce_sum_max_index: sum %.1f max %.1f at %u min %.1f, %d mismatches\n", out[0], out[SLOT], gotIndex,
              out[2 * SLOT], bad);
  AscendC::GmFree(x);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
