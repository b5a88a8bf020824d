// Negative: a vector operand not on a 32-byte boundary. Skipping a 3-float header with xLocal[3] gives a UB address
// 12 bytes into a block; vector operands must be 32-byte aligned (drop the header with DataCopyPad instead).
#include "kernel_operator.h"

constexpr int32_t HEADER = 3;
constexpr int32_t PAYLOAD = 1024;
constexpr int32_t LENGTH = 1032;   // header + payload, padded to a multiple of 8

class KernelSkipHeader {
 public:
  __aicore__ inline KernelSkipHeader() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, PAYLOAD);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, PAYLOAD * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, LENGTH);
    inQueueX.EnQue(xLocal);
    xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::Abs(yLocal, xLocal[HEADER], PAYLOAD);  // EXPECT-ERROR: align
    outQueueY.EnQue(yLocal);
    inQueueX.FreeTensor(xLocal);
    yLocal = outQueueY.DeQue<float>();
    AscendC::DataCopy(yGm, yLocal, PAYLOAD);
    outQueueY.FreeTensor(yLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void abs_payload(GM_ADDR x, GM_ADDR y) {
  KernelSkipHeader op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(PAYLOAD * sizeof(float));
  for (int i = 0; i < LENGTH; ++i) x[i] = (i % 5) - 2.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(abs_payload, 1, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int i = 0; i < PAYLOAD; ++i) bad += y[i] != (x[HEADER + i] < 0 ? -x[HEADER + i] : x[HEADER + i]);
  std::printf("align_unaligned_tensor_view: %d mismatches\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
