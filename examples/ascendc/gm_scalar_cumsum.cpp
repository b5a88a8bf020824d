// Scalar GM loop: each core computes the running (cumulative) sum of one 320-float row with GlobalTensor
// GetValue/SetValue on the scalar unit, then flushes the DCache so the scalar writes reach GM.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t COLS = 320;   // 1280 bytes per row: a multiple of the 64-byte cache line, so cores never share a line

class KernelCumsum {
 public:
  __aicore__ inline KernelCumsum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + COLS * AscendC::GetBlockIdx(), COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y + COLS * AscendC::GetBlockIdx(), COLS);
  }
  __aicore__ inline void Process() {
    float acc = 0.0f;
    for (int32_t i = 0; i < COLS; i++) {
      acc += xGm.GetValue(i);
      yGm.SetValue(i, acc);
    }
    // SetValue only dirties this core's DCache; write the lines back to GM before the kernel ends.
    AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                      AscendC::DcciDst::CACHELINE_OUT>(yGm);
  }

 private:
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void cumsum_rows(GM_ADDR x, GM_ADDR y) {
  KernelCumsum op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  const int n = USE_CORE_NUM * COLS;
  float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>((i * 5) % 19) - 9.0f;   // small integers: sums are exact
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(cumsum_rows, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int r = 0; r < USE_CORE_NUM; ++r) {
    float acc = 0.0f;
    for (int c = 0; c < COLS; ++c) {
      acc += x[r * COLS + c];
      if (y[r * COLS + c] != acc) ++bad;
    }
  }
  std::printf("gm_scalar_cumsum: %d mismatches of %d\n", bad, n);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
