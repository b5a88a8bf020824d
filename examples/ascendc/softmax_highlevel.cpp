// Row softmax with the high-level SoftMax API: a [16, 128] float tile per call with sum/max outputs and a
// sharedTmpBuffer; the SoftMaxTiling travels from the host through GM (kernel-launch style), 4 cores x 64 rows.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t ROWS_PER_CORE = 64;
constexpr int32_t ROWS = USE_CORE_NUM * ROWS_PER_CORE;
constexpr int32_t COLS = 128;                  // srcK: 512 bytes, 32-byte aligned
constexpr int32_t TILE_ROWS = 16;              // srcM of one SoftMax call
constexpr int32_t TILE_NUM = ROWS_PER_CORE / TILE_ROWS;
constexpr int32_t REDUCE_K = 32 / sizeof(float);                 // sum/max rows are one 32-byte block
constexpr uint32_t TMP_BYTES = 16 * 1024;      // sharedTmpBuffer (>= GetSoftMaxMinTmpSize for this tile)

struct SoftmaxCustomTiling {
  uint32_t tileRows;
  uint32_t cols;
  SoftMaxTiling softmaxTiling;
};

class KernelSoftmaxApi {
 public:
  __aicore__ inline KernelSoftmaxApi() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm) {
    CopyTiling(tilingGm);
    int64_t offset = static_cast<int64_t>(ROWS_PER_CORE) * COLS * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, ROWS_PER_CORE * COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, ROWS_PER_CORE * COLS);
    pipe.InitBuffer(inQueueX, 2, TILE_ROWS * COLS * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, TILE_ROWS * COLS * sizeof(float));
    pipe.InitBuffer(sumBuf, TILE_ROWS * REDUCE_K * sizeof(float));
    pipe.InitBuffer(maxBuf, TILE_ROWS * REDUCE_K * sizeof(float));
    pipe.InitBuffer(tmpBuf, TMP_BYTES);
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_ROWS * COLS], TILE_ROWS * COLS);
      inQueueX.EnQue(xLocal);

      xLocal = inQueueX.DeQue<float>();
      AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
      AscendC::LocalTensor<float> sumLocal = sumBuf.Get<float>();
      AscendC::LocalTensor<float> maxLocal = maxBuf.Get<float>();
      AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
      AscendC::SoftMaxShapeInfo shape = {tiling.tileRows, tiling.cols, tiling.tileRows, tiling.cols};
      AscendC::SoftMax<float>(yLocal, sumLocal, maxLocal, xLocal, tmp, tiling.softmaxTiling, shape);
      outQueueY.EnQue(yLocal);
      inQueueX.FreeTensor(xLocal);

      yLocal = outQueueY.DeQue<float>();
      AscendC::DataCopy(yGm[i * TILE_ROWS * COLS], yLocal, TILE_ROWS * COLS);
      outQueueY.FreeTensor(yLocal);
    }
  }

 private:
  __aicore__ inline void CopyTiling(GM_ADDR tilingGm) {
    // Kernel-launch projects have no GET_TILING_DATA: copy the POD tiling word by word.
    uint32_t* dst = reinterpret_cast<uint32_t*>(&tiling);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(SoftmaxCustomTiling) / sizeof(uint32_t); i++) dst[i] = src[i];
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueueY;
  AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf, maxBuf, tmpBuf;
  AscendC::GlobalTensor<float> xGm, yGm;
  SoftmaxCustomTiling tiling;
};

extern "C" __global__ __aicore__ void softmax_api(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  KernelSoftmaxApi op;
  op.Init(x, y, tiling);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

// The fields SoftMaxTilingFunc computes for a [m, k] float tile processed in one pass (splitM = m).
static void FillSoftMaxTiling(SoftMaxTiling& t, uint32_t m, uint32_t k) {
  t.srcM = m; t.srcK = k; t.srcSize = m * k;
  t.outMaxM = m; t.outMaxK = REDUCE_K; t.outMaxSize = m * REDUCE_K;
  t.splitM = m; t.splitK = k; t.splitSize = m * k;
  t.reduceM = m; t.reduceK = REDUCE_K; t.reduceSize = m * REDUCE_K;
  t.rangeM = 1; t.tailM = 0; t.tailSplitSize = 0; t.tailReduceSize = 0;
}

int main() {
  float* x = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  auto* tiling = (SoftmaxCustomTiling*)AscendC::GmAlloc(sizeof(SoftmaxCustomTiling));
  tiling->tileRows = TILE_ROWS;
  tiling->cols = COLS;
  FillSoftMaxTiling(tiling->softmaxTiling, TILE_ROWS, COLS);
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = 0.03f * static_cast<float>((i * 41) % 331) - 5.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(softmax_api, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)tiling);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r) {
    const float* row = x + r * COLS;
    double m = row[0], s = 0.0;
    for (int c = 0; c < COLS; ++c) m = std::fmax(m, row[c]);
    for (int c = 0; c < COLS; ++c) s += std::exp(row[c] - m);
    for (int c = 0; c < COLS; ++c) {
      double want = std::exp(row[c] - m) / s;
      if (std::fabs(y[r * COLS + c] - want) > 1e-5 * want + 1e-7) ++bad;   // exp is approximate: 1e-5 relative
    }
  }
  std::printf("softmax_highlevel: %d mismatches of %d\n", bad, ROWS * COLS);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
