// Broadcast: add a bias row vector to every row of a float matrix (out[i][j] = x[i][j] + b[j]) on 8 cores,
// using the repeat form of Add with src1RepStride = 0 so every repeat (one matrix row) re-reads the same bias.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t ROWS = 512;                                  // matrix rows
constexpr int32_t COLS = 256;                                  // matrix columns (floats per row)
constexpr int32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;         // 64
constexpr int32_t TILE_ROWS = 16;                              // rows per tile (one repeat per row)
constexpr int32_t TILE_NUM = ROWS_PER_CORE / TILE_ROWS;        // 4
constexpr int32_t TILE_LENGTH = TILE_ROWS * COLS;              // 4096 floats = 16 KB
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t FLOATS_PER_REPEAT = 256 / sizeof(float);     // 64
constexpr uint8_t ROW_BLOCKS = COLS * sizeof(float) / 32;      // 32 blocks between consecutive rows

class KernelBroadcastAdd {
 public:
  __aicore__ inline KernelBroadcastAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR z) {
    int64_t rowOffset = static_cast<int64_t>(ROWS_PER_CORE) * COLS * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + rowOffset, ROWS_PER_CORE * COLS);
    zGm.SetGlobalBuffer((__gm__ float*)z + rowOffset, ROWS_PER_CORE * COLS);
    bGm.SetGlobalBuffer((__gm__ float*)b, COLS);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueB, 1, COLS * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    // The bias row is loaded once and stays resident for all tiles.
    AscendC::LocalTensor<float> bIn = inQueueB.AllocTensor<float>();
    AscendC::DataCopy(bIn, bGm, COLS);
    inQueueB.EnQue(bIn);
    AscendC::LocalTensor<float> bLocal = inQueueB.DeQue<float>();
    for (int32_t i = 0; i < TILE_NUM; i++) {
      CopyIn(i);
      Compute(bLocal);
      CopyOut(i);
    }
    inQueueB.FreeTensor(bLocal);
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute(const AscendC::LocalTensor<float>& bLocal) {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    // One call per 64-column strip: repeat r handles row r; dst/src0 advance one row (ROW_BLOCKS blocks) per
    // repeat, src1 (the bias strip) advances 0 blocks, i.e. it is broadcast over the rows.
    AscendC::BinaryRepeatParams params(1, 1, 1, ROW_BLOCKS, ROW_BLOCKS, 0);
    for (int32_t c = 0; c < COLS; c += FLOATS_PER_REPEAT) {
      AscendC::Add(zLocal[c], xLocal[c], bLocal[c], FLOATS_PER_REPEAT, TILE_ROWS, params);
    }
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    AscendC::DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueB;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<float> xGm, bGm, zGm;
};

extern "C" __global__ __aicore__ void broadcast_row_add(GM_ADDR x, GM_ADDR b, GM_ADDR z) {
  KernelBroadcastAdd op;
  op.Init(x, b, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t matBytes = static_cast<size_t>(ROWS) * COLS * sizeof(float);
  float* x = (float*)AscendC::GmAlloc(matBytes);
  float* b = (float*)AscendC::GmAlloc(COLS * sizeof(float));
  float* z = (float*)AscendC::GmAlloc(matBytes);
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = static_cast<float>((i * 7) % 101) - 50.0f;
  for (int j = 0; j < COLS; ++j) b[j] = 0.25f * j;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(broadcast_row_add, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)b, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j)
      if (z[i * COLS + j] != x[i * COLS + j] + b[j]) ++bad;   // exact: one float add
  std::printf("broadcast_row_add: %d mismatches of %d\n", bad, ROWS * COLS);
  AscendC::GmFree(x);
  AscendC::GmFree(b);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
