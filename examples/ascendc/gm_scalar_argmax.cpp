// Scalar GM loop: argmax of a short float vector read with GlobalTensor::GetValue; the result (value, index)
// is stored into UB with LocalTensor::SetValue and sent to GM by DataCopyPad after an S->MTE3 flag.
#include "kernel_operator.h"

constexpr int32_t LENGTH = 777;

class KernelArgmax {
 public:
  __aicore__ inline KernelArgmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR maxValue, GM_ADDR maxIndex) {
    xGm.SetGlobalBuffer((__gm__ float*)x, LENGTH);
    valueGm.SetGlobalBuffer((__gm__ float*)maxValue, 1);
    indexGm.SetGlobalBuffer((__gm__ int32_t*)maxIndex, 1);
    pipe.InitBuffer(outBuf, 64);   // two 32-byte slots: value, index
  }
  __aicore__ inline void Process() {
    float best = xGm.GetValue(0);
    int32_t bestIndex = 0;
    for (int32_t i = 1; i < LENGTH; i++) {
      float v = xGm.GetValue(i);
      if (v > best) { best = v; bestIndex = i; }
    }
    AscendC::LocalTensor<float> valueLocal = outBuf.Get<float>();
    AscendC::LocalTensor<int32_t> indexLocal = outBuf.GetWithOffset<int32_t>(8, 32);
    valueLocal.SetValue(0, best);
    indexLocal.SetValue(0, bestIndex);
    // The scalar unit wrote UB; MTE3 must not read it before those stores are done.
    event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_MTE3));
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(eventId);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(eventId);
    AscendC::DataCopyExtParams oneFloat{1, sizeof(float), 0, 0, 0};
    AscendC::DataCopyExtParams oneInt{1, sizeof(int32_t), 0, 0, 0};
    AscendC::DataCopyPad(valueGm, valueLocal, oneFloat);
    AscendC::DataCopyPad(indexGm, indexLocal, oneInt);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> outBuf;
  AscendC::GlobalTensor<float> xGm, valueGm;
  AscendC::GlobalTensor<int32_t> indexGm;
};

extern "C" __global__ __aicore__ void argmax_scalar(GM_ADDR x, GM_ADDR maxValue, GM_ADDR maxIndex) {
  KernelArgmax op;
  op.Init(x, maxValue, maxIndex);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  float* maxValue = (float*)AscendC::GmAlloc(sizeof(float));
  int32_t* maxIndex = (int32_t*)AscendC::GmAlloc(sizeof(int32_t));
  for (int i = 0; i < LENGTH; ++i) x[i] = static_cast<float>((i * 37) % 501) * 0.5f - 100.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(argmax_scalar, 1, (GM_ADDR)x, (GM_ADDR)maxValue, (GM_ADDR)maxIndex);
  int refIndex = 0;
  for (int i = 1; i < LENGTH; ++i)
    if (x[i] > x[refIndex]) refIndex = i;   // first index of the maximum, like the kernel
  int bad = (*maxIndex != refIndex) + (*maxValue != x[refIndex]);
  std::printf("gm_scalar_argmax: max %.2f at %d (expected %.2f at %d), %d mismatches\n", *maxValue, *maxIndex,
              x[refIndex], refIndex, bad);
  AscendC::GmFree(x);
  AscendC::GmFree(maxValue);
  AscendC::GmFree(maxIndex);
  return bad == 0 ? 0 : 1;
}
#endif
