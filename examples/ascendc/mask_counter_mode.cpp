// Counter mask mode: SetMaskCount + SetVectorMask<half, COUNTER>(1000) makes the level-0 Add/Mul (isSetMask =
// false, repeat 1) and the count-form Muls process exactly 1000 halves, no tail handling; then SetMaskNorm/ResetMask.
#include "kernel_operator.h"

constexpr int32_t LENGTH = 1000;                                     // not a multiple of 128 lanes
constexpr int32_t UB_LENGTH = (LENGTH * sizeof(half) + 31) / 32 * 32 / sizeof(half);   // 1008

class KernelCounterMode {
 public:
  __aicore__ inline KernelCounterMode() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ half*)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ half*)y, LENGTH);
    zGm.SetGlobalBuffer((__gm__ half*)z, LENGTH);
    pipe.InitBuffer(inQueueX, 1, UB_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueY, 1, UB_LENGTH * sizeof(half));
    pipe.InitBuffer(outQueueZ, 1, UB_LENGTH * sizeof(half));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
    AscendC::DataCopyExtParams copyParams{1, LENGTH * sizeof(half), 0, 0, 0};
    AscendC::DataCopyPadExtParams<half> padParams{false, 0, 0, static_cast<half>(0.0f)};
    AscendC::DataCopyPad(xLocal, xGm, copyParams, padParams);
    AscendC::DataCopyPad(yLocal, yGm, copyParams, padParams);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<half>();
    yLocal = inQueueY.DeQue<half>();
    AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();

    AscendC::SetMaskCount();
    AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(LENGTH);
    // repeatTime is ignored in counter mode (pass 1); the mask register holds the element count.
    AscendC::Add<half, false>(zLocal, xLocal, yLocal, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Mul<half, false>(zLocal, zLocal, xLocal, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls<half, false>(zLocal, zLocal, static_cast<half>(0.5f), 1);   // count argument unused here
    AscendC::SetMaskNorm();
    AscendC::ResetMask();

    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueueZ.DeQue<half>();
    AscendC::DataCopyPad(zGm, zLocal, copyParams);
    outQueueZ.FreeTensor(zLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
  AscendC::GlobalTensor<half> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void counter_mode(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelCounterMode op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  half* x = (half*)AscendC::GmAlloc(LENGTH * sizeof(half));
  half* y = (half*)AscendC::GmAlloc(LENGTH * sizeof(half));
  half* z = (half*)AscendC::GmAlloc(LENGTH * sizeof(half));
  for (int i = 0; i < LENGTH; ++i) { x[i] = half(0.0625f * (i % 40) - 1.0f); y[i] = half(0.5f * (i % 7)); }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(counter_mode, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  // Each op rounds to fp16; the reference does the same (exact match expected, tolerance 1e-3 relative).
  int bad = 0;
  for (int i = 0; i < LENGTH; ++i) {
    float xf = x[i], yf = y[i];
    float want = half(half(half(xf + yf) * xf) * 0.5f);
    float got = z[i];
    if (std::fabs(got - want) > 1e-3f * std::fmax(1.0f, std::fabs(want))) ++bad;
  }
  std::printf("mask_counter_mode: %d mismatches of %d\n", bad, LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
