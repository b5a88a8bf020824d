// Duplicate-based fill: builds an output entirely in UB (no input tensor) — a 64 x 64 float matrix whose row r
// holds the value r — with the count form of Duplicate per row, plus the mask/repeat form for the last column block.
#include "kernel_operator.h"

constexpr int32_t ROWS = 64;
constexpr int32_t COLS = 64;
constexpr int32_t LENGTH = ROWS * COLS;
constexpr float CORNER = -1.0f;   // written by the repeat form into lanes 56..63 of every row

class KernelFill {
 public:
  __aicore__ inline KernelFill() {}
  __aicore__ inline void Init(GM_ADDR y) {
    yGm.SetGlobalBuffer((__gm__ float*)y, LENGTH);
    pipe.InitBuffer(outQueueY, 1, LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    for (int32_t r = 0; r < ROWS; r++) {
      AscendC::Duplicate(yLocal[r * COLS], static_cast<float>(r), COLS);
    }
    AscendC::PipeBarrier<PIPE_V>();
    // Bit mask for lanes 56..63 (the last 32-byte block of each row), one repeat per row (8 blocks apart).
    uint64_t mask[2] = {0xFF00000000000000ULL, 0};
    AscendC::Duplicate(yLocal, CORNER, mask, ROWS, 1, 8);
    outQueueY.EnQue(yLocal);
    yLocal = outQueueY.DeQue<float>();
    AscendC::DataCopy(yGm, yLocal, LENGTH);
    outQueueY.FreeTensor(yLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY;
  AscendC::GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void fill_rows(GM_ADDR y) {
  KernelFill op;
  op.Init(y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* y = (float*)AscendC::GmAlloc(LENGTH * sizeof(float));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(fill_rows, 1, (GM_ADDR)y);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) {
      float want = c >= 56 ? CORNER : static_cast<float>(r);
      if (y[r * COLS + c] != want) ++bad;
    }
  std::printf("duplicate_fill: %d mismatches of %d\n", bad, LENGTH);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
