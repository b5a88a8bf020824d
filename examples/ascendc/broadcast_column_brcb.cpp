// Column broadcast with Brcb: out[i][j] = x[i][j] - v[i]. Brcb turns each v[i] into a 32-byte block of 8 copies;
// Sub then reads that block for all 8 blocks of row i (src1BlkStride 0, src1RepStride 1); 4 cores x 64 rows.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t ROWS_PER_CORE = 64;
constexpr int32_t ROWS = USE_CORE_NUM * ROWS_PER_CORE;
constexpr int32_t COLS = 64;                                  // one float repeat per row
constexpr int32_t TILE_LENGTH = ROWS_PER_CORE * COLS;
constexpr int32_t PER_BLOCK = 32 / sizeof(float);             // 8

class KernelBrcb {
 public:
  __aicore__ inline KernelBrcb() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR v, GM_ADDR out) {
    int64_t core = AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + core * TILE_LENGTH, TILE_LENGTH);
    vGm.SetGlobalBuffer((__gm__ float*)v + core * ROWS_PER_CORE, ROWS_PER_CORE);
    outGm.SetGlobalBuffer((__gm__ float*)out + core * TILE_LENGTH, TILE_LENGTH);
    pipe.InitBuffer(inQueueX, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueV, 1, ROWS_PER_CORE * sizeof(float));
    pipe.InitBuffer(outQueue, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(brcbBuf, ROWS_PER_CORE * PER_BLOCK * sizeof(float));   // one block per row
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> vLocal = inQueueV.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, TILE_LENGTH);
    AscendC::DataCopy(vLocal, vGm, ROWS_PER_CORE);
    inQueueX.EnQue(xLocal);
    inQueueV.EnQue(vLocal);
    xLocal = inQueueX.DeQue<float>();
    vLocal = inQueueV.DeQue<float>();
    AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
    AscendC::LocalTensor<float> blocks = brcbBuf.Get<float>();

    // Each repeat consumes 8 source elements and writes 8 blocks (dstBlkStride 1, dstRepStride 8).
    AscendC::Brcb(blocks, vLocal, ROWS_PER_CORE / PER_BLOCK, {1, 8});
    AscendC::PipeBarrier<PIPE_V>();
    // repeat r = row r; src1 stays on block r for all 8 blocks of the row and advances one block per row.
    AscendC::Sub(outLocal, xLocal, blocks, COLS, ROWS_PER_CORE, {1, 1, 0, 8, 8, 1});

    outQueue.EnQue(outLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueV.FreeTensor(vLocal);
    outLocal = outQueue.DeQue<float>();
    AscendC::DataCopy(outGm, outLocal, TILE_LENGTH);
    outQueue.FreeTensor(outLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueV;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> brcbBuf;
  AscendC::GlobalTensor<float> xGm, vGm, outGm;
};

extern "C" __global__ __aicore__ void sub_row_value(GM_ADDR x, GM_ADDR v, GM_ADDR out) {
  KernelBrcb op;
  op.Init(x, v, out);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  float* v = (float*)AscendC::GmAlloc(ROWS * sizeof(float));
  float* out = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = 0.5f * ((i * 13) % 71);
  for (int r = 0; r < ROWS; ++r) v[r] = 3.0f * r - 100.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(sub_row_value, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)v, (GM_ADDR)out);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c)
      if (out[r * COLS + c] != x[r * COLS + c] - v[r]) ++bad;
  std::printf("broadcast_column_brcb: %d mismatches of %d\n", bad, ROWS * COLS);
  AscendC::GmFree(x);
  AscendC::GmFree(v);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
