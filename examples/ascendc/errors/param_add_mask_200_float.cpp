// Negative: Add with a contiguous mask of 200 on float. One repeat covers 256 bytes = 64 floats, so the mask must be
// in [1, 64] for 32-bit types (128 is the half limit); process 200 floats as 3 full repeats plus a mask-8 repeat.
#include "kernel_operator.h"

constexpr int32_t LENGTH = 256;

class KernelAddMask {
 public:
  __aicore__ inline KernelAddMask() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ float*)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z, LENGTH);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, LENGTH);
    AscendC::DataCopy(yLocal, yGm, LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<float>();
    yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    AscendC::Duplicate(zLocal, 0.0f, LENGTH);
    AscendC::PipeBarrier<PIPE_V>();
    uint64_t mask = 200;   // meant: the first 200 elements
    AscendC::Add(zLocal, xLocal, yLocal, mask, 1, {1, 1, 1, 8, 8, 8});  // EXPECT-ERROR: param
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueueZ.DeQue<float>();
    AscendC::DataCopy(zGm, zLocal, LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_mask(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAddMask op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  float* z = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  for (int i = 0; i < LENGTH; ++i) { x[i] = 1.0f * i; y[i] = 2.0f; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_mask, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < LENGTH; ++i) bad += z[i] != (i < 200 ? x[i] + y[i] : 0.0f);
  std::printf("param_add_mask_200_float: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
