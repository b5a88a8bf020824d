// Negative: vector arithmetic directly on bfloat16_t. The 910B vector unit has no bf16 Add; cast to float
// (Cast with CAST_NONE), add in float, and cast back with CAST_RINT.
#include "kernel_operator.h"

constexpr int32_t LENGTH = 2048;

class KernelAddBf16 {
 public:
  __aicore__ inline KernelAddBf16() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ bfloat16_t*)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ bfloat16_t*)y, LENGTH);
    zGm.SetGlobalBuffer((__gm__ bfloat16_t*)z, LENGTH);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(bfloat16_t));
    pipe.InitBuffer(inQueueY, 1, LENGTH * sizeof(bfloat16_t));
    pipe.InitBuffer(outQueueZ, 1, LENGTH * sizeof(bfloat16_t));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<bfloat16_t> xLocal = inQueueX.AllocTensor<bfloat16_t>();
    AscendC::LocalTensor<bfloat16_t> yLocal = inQueueY.AllocTensor<bfloat16_t>();
    AscendC::DataCopy(xLocal, xGm, LENGTH);
    AscendC::DataCopy(yLocal, yGm, LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<bfloat16_t>();
    yLocal = inQueueY.DeQue<bfloat16_t>();
    AscendC::LocalTensor<bfloat16_t> zLocal = outQueueZ.AllocTensor<bfloat16_t>();
    AscendC::Add(zLocal, xLocal, yLocal, LENGTH);  // EXPECT-ERROR: dtype
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueueZ.DeQue<bfloat16_t>();
    AscendC::DataCopy(zGm, zLocal, LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
  AscendC::GlobalTensor<bfloat16_t> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_bf16(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAddBf16 op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t bytes = LENGTH * sizeof(bfloat16_t);
  bfloat16_t* x = (bfloat16_t*)AscendC::GmAlloc(bytes);
  bfloat16_t* y = (bfloat16_t*)AscendC::GmAlloc(bytes);
  bfloat16_t* z = (bfloat16_t*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < LENGTH; ++i) { x[i] = bfloat16_t(0.5f * (i % 64)); y[i] = bfloat16_t(1.0f); }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_bf16, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < LENGTH; ++i)
    bad += static_cast<float>(z[i]) != static_cast<float>(bfloat16_t(float(x[i]) + float(y[i])));
  std::printf("dtype_add_bfloat16: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
