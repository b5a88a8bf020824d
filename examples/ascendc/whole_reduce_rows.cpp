// Per-row reductions with one instruction each: WholeReduceSum gives one sum per repeat (= per 64-float row) and
// WholeReduceMax gives (max, index-in-row) pairs; 4 cores x 128 rows, results written contiguously.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t COLS = 64;                               // one float repeat per row
constexpr int32_t ROWS_PER_CORE = 128;
constexpr int32_t ROWS = USE_CORE_NUM * ROWS_PER_CORE;
constexpr int32_t TILE_LENGTH = ROWS_PER_CORE * COLS;      // 8192 floats

class KernelRowReduce {
 public:
  __aicore__ inline KernelRowReduce() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR sums, GM_ADDR maxPairs) {
    int64_t core = AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + core * TILE_LENGTH, TILE_LENGTH);
    sumGm.SetGlobalBuffer((__gm__ float*)sums + core * ROWS_PER_CORE, ROWS_PER_CORE);
    maxGm.SetGlobalBuffer((__gm__ float*)maxPairs + core * ROWS_PER_CORE * 2, ROWS_PER_CORE * 2);
    pipe.InitBuffer(inQueueX, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueSum, 1, ROWS_PER_CORE * sizeof(float));
    pipe.InitBuffer(outQueueMax, 1, ROWS_PER_CORE * 2 * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    xLocal = inQueueX.DeQue<float>();

    AscendC::LocalTensor<float> sumLocal = outQueueSum.AllocTensor<float>();
    AscendC::LocalTensor<float> maxLocal = outQueueMax.AllocTensor<float>();
    // mask 64 (whole row), repeat = rows, dstRepStride 1 result, srcBlkStride 1, srcRepStride 8 blocks (one row).
    AscendC::WholeReduceSum(sumLocal, xLocal, COLS, ROWS_PER_CORE, 1, 1, 8);
    AscendC::WholeReduceMax(maxLocal, xLocal, COLS, ROWS_PER_CORE, 1, 1, 8, AscendC::ReduceOrder::ORDER_VALUE_INDEX);
    outQueueSum.EnQue(sumLocal);
    outQueueMax.EnQue(maxLocal);
    inQueueX.FreeTensor(xLocal);

    sumLocal = outQueueSum.DeQue<float>();
    maxLocal = outQueueMax.DeQue<float>();
    AscendC::DataCopy(sumGm, sumLocal, ROWS_PER_CORE);
    AscendC::DataCopy(maxGm, maxLocal, ROWS_PER_CORE * 2);
    outQueueSum.FreeTensor(sumLocal);
    outQueueMax.FreeTensor(maxLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueSum, outQueueMax;
  AscendC::GlobalTensor<float> xGm, sumGm, maxGm;
};

extern "C" __global__ __aicore__ void row_reduce(GM_ADDR x, GM_ADDR sums, GM_ADDR maxPairs) {
  KernelRowReduce op;
  op.Init(x, sums, maxPairs);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  float* sums = (float*)AscendC::GmAlloc(ROWS * sizeof(float));
  float* maxPairs = (float*)AscendC::GmAlloc(ROWS * 2 * sizeof(float));
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = 0.25f * static_cast<float>((i * 29) % 113) - 14.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(row_reduce, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)sums, (GM_ADDR)maxPairs);
  // Sums of quarter-integers below 2^20 are exact in any order; the index is the first maximum in its row.
  int bad = 0;
  for (int r = 0; r < ROWS; ++r) {
    const float* row = x + r * COLS;
    float s = 0.0f, m = row[0];
    uint32_t arg = 0;
    for (int c = 0; c < COLS; ++c) {
      s += row[c];
      if (row[c] > m) { m = row[c]; arg = c; }
    }
    uint32_t gotIndex;
    std::memcpy(&gotIndex, &maxPairs[2 * r + 1], sizeof(uint32_t));
    if (std::fabs(sums[r] - s) > 1e-6f * std::fabs(s)) ++bad;
    if (maxPairs[2 * r] != m || gotIndex != arg) ++bad;
  }
  std::printf("whole_reduce_rows: %d mismatches of %d rows x 2\n", bad, ROWS);
  AscendC::GmFree(x);
  AscendC::GmFree(sums);
  AscendC::GmFree(maxPairs);
  return bad == 0 ? 0 : 1;
}
#endif
