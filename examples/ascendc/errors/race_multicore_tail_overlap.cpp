// Negative: 1000 floats over 4 cores, 250 each, scaled by the core's own factor, but every core copies its share in
// and out rounded up to a 32-byte multiple (256 floats): core k's output overlaps the first 6 floats of core k+1's
// with other values, so what GM ends with depends on which core writes last. (Had both written the same bytes, as a
// plain Relu of the same input does, GM would end the same either way, and that is no race.)
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 1000;
constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;    // 250
constexpr int32_t ALIGNED_LENGTH = (BLOCK_LENGTH + 7) / 8 * 8;   // 256: rounded up for DataCopy

class KernelRelu {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), ALIGNED_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), ALIGNED_LENGTH);
    pipe.InitBuffer(inQ, 1, ALIGNED_LENGTH * sizeof(float));
    pipe.InitBuffer(outQ, 1, ALIGNED_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> x = inQ.AllocTensor<float>();
    AscendC::DataCopy(x, xGm, ALIGNED_LENGTH);
    inQ.EnQue(x);
    x = inQ.DeQue<float>();
    AscendC::LocalTensor<float> y = outQ.AllocTensor<float>();
    AscendC::Muls(y, x, static_cast<float>(AscendC::GetBlockIdx() + 1), ALIGNED_LENGTH);
    outQ.EnQue(y);
    inQ.FreeTensor(x);
    y = outQ.DeQue<float>();
    AscendC::DataCopy(yGm, y, ALIGNED_LENGTH);  // EXPECT-ERROR: race
    outQ.FreeTensor(y);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y) {
  KernelRelu op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
int main() {
  // the buffers have room for the last core's rounded-up copy, so only the overlap between cores is wrong
  float* x = (float*)AscendC::GmAlloc((TOTAL_LENGTH + 8) * sizeof(float));
  float* y = (float*)AscendC::GmAlloc((TOTAL_LENGTH + 8) * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = i % 7 - 3.0f;
  ICPU_RUN_KF(relu_custom, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return 0;
}
#endif
