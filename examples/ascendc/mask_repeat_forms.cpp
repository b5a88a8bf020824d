// The mask/repeat ("level 0") forms: Add with a bit mask (even lanes only) and BinaryRepeatParams, then Muls with
// a contiguous mask (first 32 lanes) and UnaryRepeatParams; masked-off lanes keep their previous value.
#include "kernel_operator.h"

constexpr int32_t ROWS = 32;                                   // one repeat per row
constexpr int32_t COLS = 64;                                   // 64 floats = 256 bytes = one repeat
constexpr int32_t LENGTH = ROWS * COLS;
constexpr uint64_t EVEN_LANES = 0x5555555555555555ULL;         // bit k enables lane k
constexpr uint64_t FIRST_LANES = 32;                           // contiguous mask: lanes [0, 32)

class KernelMaskRepeat {
 public:
  __aicore__ inline KernelMaskRepeat() {}
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

    AscendC::DataCopy(zLocal, xLocal, LENGTH);                 // z = x everywhere first
    AscendC::PipeBarrier<PIPE_V>();
    uint64_t mask[2] = {EVEN_LANES, 0};                        // float: only mask[0] is used
    // repeat r covers row r: 8 blocks of 32 bytes each, consecutive blocks (blkStride 1), rows 8 blocks apart.
    AscendC::Add(zLocal, xLocal, yLocal, mask, ROWS, {1, 1, 1, 8, 8, 8});   // even lanes: z = x + y
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(zLocal, zLocal, 2.0f, FIRST_LANES, ROWS, {1, 1, 8, 8});   // lanes 0..31: z *= 2

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

extern "C" __global__ __aicore__ void mask_repeat(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelMaskRepeat op;
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
  for (int i = 0; i < LENGTH; ++i) { x[i] = static_cast<float>(i % 97); y[i] = 1000.0f + i; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(mask_repeat, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r)
    for (int lane = 0; lane < COLS; ++lane) {
      int i = r * COLS + lane;
      float want = (lane % 2 == 0) ? x[i] + y[i] : x[i];
      if (lane < static_cast<int>(FIRST_LANES)) want *= 2.0f;
      if (z[i] != want) ++bad;
    }
  std::printf("mask_repeat_forms: %d mismatches of %d\n", bad, LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
