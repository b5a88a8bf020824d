// GatherMask with built-in patterns: split 1024 interleaved (re, im) float pairs into separate re and im arrays
// (pattern 1 keeps even lanes, pattern 2 odd lanes) in normal mode; rsvdCnt reports how many elements were kept.
#include "kernel_operator.h"

constexpr int32_t PAIRS = 1024;
constexpr int32_t LENGTH = 2 * PAIRS;                    // 2048 interleaved floats
constexpr uint16_t REPEAT = LENGTH * sizeof(float) / 256;   // 32 repeats of 256 bytes

class KernelDeinterleave {
 public:
  __aicore__ inline KernelDeinterleave() {}
  __aicore__ inline void Init(GM_ADDR z, GM_ADDR re, GM_ADDR im) {
    zGm.SetGlobalBuffer((__gm__ float*)z, LENGTH);
    reGm.SetGlobalBuffer((__gm__ float*)re, PAIRS);
    imGm.SetGlobalBuffer((__gm__ float*)im, PAIRS);
    pipe.InitBuffer(inQueueZ, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueRe, 1, PAIRS * sizeof(float));
    pipe.InitBuffer(outQueueIm, 1, PAIRS * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> zLocal = inQueueZ.AllocTensor<float>();
    AscendC::DataCopy(zLocal, zGm, LENGTH);
    inQueueZ.EnQue(zLocal);
    zLocal = inQueueZ.DeQue<float>();
    AscendC::LocalTensor<float> reLocal = outQueueRe.AllocTensor<float>();
    AscendC::LocalTensor<float> imLocal = outQueueIm.AllocTensor<float>();

    uint64_t keptRe = 0, keptIm = 0;
    // normal mode (reduceMode false, mask unused): each repeat reads 8 blocks of src0, consecutive repeats 8 apart.
    AscendC::GatherMaskParams params{1, REPEAT, 8, 0};
    AscendC::GatherMask(reLocal, zLocal, static_cast<uint8_t>(1), false, 0, params, keptRe);
    AscendC::GatherMask(imLocal, zLocal, static_cast<uint8_t>(2), false, 0, params, keptIm);

    outQueueRe.EnQue(reLocal);
    outQueueIm.EnQue(imLocal);
    inQueueZ.FreeTensor(zLocal);
    reLocal = outQueueRe.DeQue<float>();
    imLocal = outQueueIm.DeQue<float>();
    AscendC::DataCopy(reGm, reLocal, static_cast<uint32_t>(keptRe));   // 1024: a 32-byte multiple
    AscendC::DataCopy(imGm, imLocal, static_cast<uint32_t>(keptIm));
    outQueueRe.FreeTensor(reLocal);
    outQueueIm.FreeTensor(imLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueZ;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueRe, outQueueIm;
  AscendC::GlobalTensor<float> zGm, reGm, imGm;
};

extern "C" __global__ __aicore__ void deinterleave(GM_ADDR z, GM_ADDR re, GM_ADDR im) {
  KernelDeinterleave op;
  op.Init(z, re, im);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* z = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  float* re = (float*)AscendC::GmAlloc(PAIRS * sizeof(float));
  float* im = (float*)AscendC::GmAlloc(PAIRS * sizeof(float));
  for (int k = 0; k < PAIRS; ++k) { z[2 * k] = 1.0f + k; z[2 * k + 1] = -0.5f * k; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(deinterleave, 1, (GM_ADDR)z, (GM_ADDR)re, (GM_ADDR)im);
  int bad = 0;
  for (int k = 0; k < PAIRS; ++k)
    if (re[k] != z[2 * k] || im[k] != z[2 * k + 1]) ++bad;
  std::printf("gather_mask_deinterleave: %d mismatches of %d pairs\n", bad, PAIRS);
  AscendC::GmFree(z);
  AscendC::GmFree(re);
  AscendC::GmFree(im);
  return bad == 0 ? 0 : 1;
}
#endif
