// Rows whose length is not a 32-byte multiple: a 120 x 37 half matrix moved with one multi-row DataCopyPad
// per tile (each 74-byte row lands on its own 96-byte UB row), multiplied elementwise, and written back row by row.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t ROWS = 120;
constexpr int32_t COLS = 37;                                            // 74 bytes per row
constexpr int32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;                  // 30
constexpr int32_t TILE_ROWS = 10;
constexpr int32_t TILE_NUM = ROWS_PER_CORE / TILE_ROWS;                 // 3
constexpr int32_t ROW_PITCH = (COLS * sizeof(half) + 31) / 32 * 32 / sizeof(half);   // 48 halves on UB
constexpr int32_t TILE_UB_LENGTH = TILE_ROWS * ROW_PITCH;               // 480 halves = 960 bytes
constexpr int32_t BUFFER_NUM = 2;

class KernelPaddedRows {
 public:
  __aicore__ inline KernelPaddedRows() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    int64_t offset = static_cast<int64_t>(ROWS_PER_CORE) * COLS * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ half*)x + offset, ROWS_PER_CORE * COLS);
    yGm.SetGlobalBuffer((__gm__ half*)y + offset, ROWS_PER_CORE * COLS);
    zGm.SetGlobalBuffer((__gm__ half*)z + offset, ROWS_PER_CORE * COLS);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_UB_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_UB_LENGTH * sizeof(half));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_UB_LENGTH * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
    // TILE_ROWS blocks of 74 bytes, contiguous in GM (srcStride 0 bytes); the pad area of each UB row is
    // filled with 1.0 so the whole padded tile is defined and can be computed in one instruction.
    AscendC::DataCopyExtParams copyParams{TILE_ROWS, COLS * sizeof(half), 0, 0, 0};
    AscendC::DataCopyPadExtParams<half> padParams{true, 0, ROW_PITCH - COLS, static_cast<half>(1.0f)};
    AscendC::DataCopyPad(xLocal, xGm[progress * TILE_ROWS * COLS], copyParams, padParams);
    AscendC::DataCopyPad(yLocal, yGm[progress * TILE_ROWS * COLS], copyParams, padParams);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
    AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    AscendC::Mul(zLocal, xLocal, yLocal, TILE_UB_LENGTH);
    outQueueZ.EnQue<half>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
    // UB rows are read at their 96-byte pitch; only the 74 data bytes of each row reach GM.
    AscendC::DataCopyExtParams copyParams{TILE_ROWS, COLS * sizeof(half), 0, 0, 0};
    AscendC::DataCopyPad(zGm[progress * TILE_ROWS * COLS], zLocal, copyParams);
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<half> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void padded_rows_mul(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelPaddedRows op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  const int n = ROWS * COLS;
  half* x = (half*)AscendC::GmAlloc(n * sizeof(half));
  half* y = (half*)AscendC::GmAlloc(n * sizeof(half));
  half* z = (half*)AscendC::GmAlloc(n * sizeof(half));
  for (int i = 0; i < n; ++i) { x[i] = half(0.5f + (i % 17) * 0.25f); y[i] = half(-2.0f + (i % 11) * 0.375f); }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(padded_rows_mul, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  // fp16 multiply rounds once: the reference rounds the float product to half the same way (exact match).
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (static_cast<float>(z[i]) != static_cast<float>(half(static_cast<float>(x[i]) * static_cast<float>(y[i]))))
      ++bad;
  std::printf("padded_rows_data_copy_pad: %d mismatches of %d\n", bad, n);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
