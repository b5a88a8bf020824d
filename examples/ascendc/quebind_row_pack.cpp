// TQueBind<VECIN, VECOUT>: a pure data-movement kernel (no vector compute) that packs the even rows of a
// 256 x 128 float matrix; MTE2 fills the bound buffer, EnQue/DeQue hand it straight to MTE3.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t ROWS = 256;
constexpr int32_t COLS = 128;
constexpr int32_t OUT_ROWS = ROWS / 2;
constexpr int32_t OUT_ROWS_PER_CORE = OUT_ROWS / USE_CORE_NUM;   // 32
constexpr int32_t TILE_ROWS = 8;                                 // output rows per tile
constexpr int32_t TILE_NUM = OUT_ROWS_PER_CORE / TILE_ROWS;      // 4
constexpr uint16_t ROW_BLOCKS = COLS * sizeof(float) / 32;       // 16
constexpr int32_t BUFFER_NUM = 2;

class KernelRowPack {
 public:
  __aicore__ inline KernelRowPack() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    int64_t core = AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + core * OUT_ROWS_PER_CORE * 2 * COLS, OUT_ROWS_PER_CORE * 2 * COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y + core * OUT_ROWS_PER_CORE * COLS, OUT_ROWS_PER_CORE * COLS);
    pipe.InitBuffer(bindQueue, BUFFER_NUM, TILE_ROWS * COLS * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> buf = bindQueue.AllocTensor<float>();
      // Read TILE_ROWS rows, skipping one row (ROW_BLOCKS blocks) after each.
      AscendC::DataCopyParams inParams{TILE_ROWS, ROW_BLOCKS, ROW_BLOCKS, 0};
      AscendC::DataCopy(buf, xGm[i * TILE_ROWS * 2 * COLS], inParams);
      bindQueue.EnQue(buf);               // MTE2 -> MTE3 hand-off
      buf = bindQueue.DeQue<float>();
      AscendC::DataCopy(yGm[i * TILE_ROWS * COLS], buf, TILE_ROWS * COLS);
      bindQueue.FreeTensor(buf);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> bindQueue;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void row_pack(GM_ADDR x, GM_ADDR y) {
  KernelRowPack op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(OUT_ROWS * COLS * sizeof(float));
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = static_cast<float>(i) * 0.5f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(row_pack, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int r = 0; r < OUT_ROWS; ++r)
    for (int c = 0; c < COLS; ++c)
      if (y[r * COLS + c] != x[(2 * r) * COLS + c]) ++bad;
  std::printf("quebind_row_pack: %d mismatches of %d\n", bad, OUT_ROWS * COLS);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
