// Strided DataCopyParams: read the column block [64, 128) of a 256-column float matrix (blockCount = rows,
// srcStride = the skipped blocks per row), square it, and write it into columns [128, 192) of the output matrix.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t ROWS = 128;
constexpr int32_t COLS = 256;
constexpr int32_t SRC_COL = 64;                                   // first column read
constexpr int32_t DST_COL = 128;                                  // first column written
constexpr int32_t BLOCK_COLS = 64;                                // width of the column block
constexpr int32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;            // 32
constexpr int32_t TILE_LENGTH = ROWS_PER_CORE * BLOCK_COLS;       // 2048 floats, compact on UB
constexpr uint16_t BLOCK_LEN = BLOCK_COLS * sizeof(float) / 32;   // 8 blocks of 32 bytes per row
constexpr uint16_t GAP = (COLS - BLOCK_COLS) * sizeof(float) / 32;  // 24 blocks skipped between rows

class KernelColumnBlock {
 public:
  __aicore__ inline KernelColumnBlock() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z) {
    int64_t offset = static_cast<int64_t>(ROWS_PER_CORE) * COLS * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, ROWS_PER_CORE * COLS);
    zGm.SetGlobalBuffer((__gm__ float*)z + offset, ROWS_PER_CORE * COLS);
    pipe.InitBuffer(inQueueX, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    // ROWS_PER_CORE blocks of BLOCK_LEN 32-byte units; after each, skip GAP units in GM, none on UB.
    AscendC::DataCopyParams inParams{ROWS_PER_CORE, BLOCK_LEN, GAP, 0};
    AscendC::DataCopy(xLocal, xGm[SRC_COL], inParams);
    inQueueX.EnQue(xLocal);

    xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    AscendC::Mul(zLocal, xLocal, xLocal, TILE_LENGTH);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);

    zLocal = outQueueZ.DeQue<float>();
    AscendC::DataCopyParams outParams{ROWS_PER_CORE, BLOCK_LEN, 0, GAP};   // now the gap is on the GM side
    AscendC::DataCopy(zGm[DST_COL], zLocal, outParams);
    outQueueZ.FreeTensor(zLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
  AscendC::GlobalTensor<float> xGm, zGm;
};

extern "C" __global__ __aicore__ void column_block_square(GM_ADDR x, GM_ADDR z) {
  KernelColumnBlock op;
  op.Init(x, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

int main() {
  size_t bytes = static_cast<size_t>(ROWS) * COLS * sizeof(float);
  float* x = (float*)AscendC::GmAlloc(bytes);
  float* z = (float*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = static_cast<float>(i % 29) - 14.0f + 0.5f * (i % 3);
  const float sentinel = -7.0f;
  for (int i = 0; i < ROWS * COLS; ++i) z[i] = sentinel;   // columns outside the block must stay untouched
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(column_block_square, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)z);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) {
      float want = sentinel;
      if (c >= DST_COL && c < DST_COL + BLOCK_COLS) {
        float v = x[r * COLS + SRC_COL + (c - DST_COL)];
        want = v * v;
      }
      if (z[r * COLS + c] != want) ++bad;
    }
  std::printf("strided_column_block: %d mismatches of %d\n", bad, ROWS * COLS);
  AscendC::GmFree(x);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
