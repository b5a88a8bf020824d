// Atomic accumulation in GM: 8 cores each reduce their 64 rows of a 512 x 256 float matrix to one row of column
// sums and add it into the same 256-float output with SetAtomicAdd; the host zero-initialises the output.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t ROWS = 512;
constexpr int32_t COLS = 256;
constexpr int32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;   // 64
constexpr int32_t TILE_ROWS = 32;
constexpr int32_t TILE_NUM = ROWS_PER_CORE / TILE_ROWS;  // 2
constexpr int32_t TILE_LENGTH = TILE_ROWS * COLS;        // 8192 floats = 32 KB
constexpr int32_t BUFFER_NUM = 2;

class KernelColumnSum {
 public:
  __aicore__ inline KernelColumnSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<int64_t>(ROWS_PER_CORE) * COLS * AscendC::GetBlockIdx(),
                        ROWS_PER_CORE * COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y, COLS);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(accBuf, COLS * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, COLS * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> acc = accBuf.Get<float>();
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueX.EnQue(xLocal);
      xLocal = inQueueX.DeQue<float>();
      // Fold the tile's rows pairwise until one row of column sums is left.
      for (int32_t rows = TILE_ROWS / 2; rows >= 1; rows /= 2) {
        AscendC::Add(xLocal, xLocal, xLocal[rows * COLS], rows * COLS);
        AscendC::PipeBarrier<PIPE_V>();
      }
      if (i == 0) {
        AscendC::DataCopy(acc, xLocal, COLS);
      } else {
        AscendC::Add(acc, acc, xLocal, COLS);
      }
      AscendC::PipeBarrier<PIPE_V>();
      inQueueX.FreeTensor(xLocal);
    }
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::DataCopy(yLocal, acc, COLS);
    outQueueY.EnQue(yLocal);
    yLocal = outQueueY.DeQue<float>();
    AscendC::SetAtomicAdd<float>();          // the MTE3 store below adds into GM instead of overwriting
    AscendC::DataCopy(yGm, yLocal, COLS);
    AscendC::SetAtomicNone();
    outQueueY.FreeTensor(yLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY;
  AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void column_sum_atomic(GM_ADDR x, GM_ADDR y) {
  KernelColumnSum op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(static_cast<size_t>(ROWS) * COLS * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(COLS * sizeof(float));
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = static_cast<float>((i * 11) % 31) - 15.0f;   // integers: exact
  std::memset(y, 0, COLS * sizeof(float));   // atomic add accumulates onto what is there
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(column_sum_atomic, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int c = 0; c < COLS; ++c) {
    float want = 0.0f;
    for (int r = 0; r < ROWS; ++r) want += x[r * COLS + c];
    if (y[c] != want) ++bad;
  }
  std::printf("atomic_add_column_sum: %d mismatches of %d\n", bad, COLS);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
