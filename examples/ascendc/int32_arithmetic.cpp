// int32 vector arithmetic: r = Min(Max(x * y - x, x + y), 5000) elementwise with Mul/Sub/Add/Max/Min on int32_t,
// using a TBuf scratch tensor for the intermediate and a clamp row held in UB; 4 cores, 2 tiles each.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t TOTAL_LENGTH = 4 * 4096;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;   // 4096
constexpr int32_t TILE_LENGTH = 2048;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;        // 2
constexpr int32_t CLAMP = 5000;

class KernelInt32 {
 public:
  __aicore__ inline KernelInt32() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR clampRow, GM_ADDR r) {
    xGm.SetGlobalBuffer((__gm__ int32_t*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    rGm.SetGlobalBuffer((__gm__ int32_t*)r + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    cGm.SetGlobalBuffer((__gm__ int32_t*)clampRow, TILE_LENGTH);
    pipe.InitBuffer(inQueueX, 2, TILE_LENGTH * sizeof(int32_t));
    pipe.InitBuffer(inQueueY, 2, TILE_LENGTH * sizeof(int32_t));
    pipe.InitBuffer(inQueueC, 1, TILE_LENGTH * sizeof(int32_t));
    pipe.InitBuffer(outQueueR, 2, TILE_LENGTH * sizeof(int32_t));
    pipe.InitBuffer(tmpBuf, TILE_LENGTH * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<int32_t> cIn = inQueueC.AllocTensor<int32_t>();
    AscendC::DataCopy(cIn, cGm, TILE_LENGTH);
    inQueueC.EnQue(cIn);
    AscendC::LocalTensor<int32_t> clampLocal = inQueueC.DeQue<int32_t>();
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<int32_t> xLocal = inQueueX.AllocTensor<int32_t>();
      AscendC::LocalTensor<int32_t> yLocal = inQueueY.AllocTensor<int32_t>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueX.EnQue(xLocal);
      inQueueY.EnQue(yLocal);

      xLocal = inQueueX.DeQue<int32_t>();
      yLocal = inQueueY.DeQue<int32_t>();
      AscendC::LocalTensor<int32_t> rLocal = outQueueR.AllocTensor<int32_t>();
      AscendC::LocalTensor<int32_t> tmp = tmpBuf.Get<int32_t>();
      AscendC::Mul(tmp, xLocal, yLocal, TILE_LENGTH);       // x * y
      AscendC::Add(rLocal, xLocal, yLocal, TILE_LENGTH);    // x + y
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Sub(tmp, tmp, xLocal, TILE_LENGTH);          // x * y - x
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Max(rLocal, tmp, rLocal, TILE_LENGTH);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Min(rLocal, rLocal, clampLocal, TILE_LENGTH);
      outQueueR.EnQue(rLocal);
      inQueueX.FreeTensor(xLocal);
      inQueueY.FreeTensor(yLocal);

      rLocal = outQueueR.DeQue<int32_t>();
      AscendC::DataCopy(rGm[i * TILE_LENGTH], rLocal, TILE_LENGTH);
      outQueueR.FreeTensor(rLocal);
    }
    inQueueC.FreeTensor(clampLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueC;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueueR;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
  AscendC::GlobalTensor<int32_t> xGm, yGm, cGm, rGm;
};

extern "C" __global__ __aicore__ void int32_arith(GM_ADDR x, GM_ADDR y, GM_ADDR clampRow, GM_ADDR r) {
  KernelInt32 op;
  op.Init(x, y, clampRow, r);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t bytes = TOTAL_LENGTH * sizeof(int32_t);
  int32_t* x = (int32_t*)AscendC::GmAlloc(bytes);
  int32_t* y = (int32_t*)AscendC::GmAlloc(bytes);
  int32_t* c = (int32_t*)AscendC::GmAlloc(TILE_LENGTH * sizeof(int32_t));
  int32_t* r = (int32_t*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = (i * 13) % 201 - 100; y[i] = (i * 7) % 151 - 75; }
  for (int i = 0; i < TILE_LENGTH; ++i) c[i] = CLAMP;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(int32_arith, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)c, (GM_ADDR)r);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    int32_t a = x[i] * y[i] - x[i], b = x[i] + y[i];
    int32_t want = a > b ? a : b;
    if (want > CLAMP) want = CLAMP;
    if (r[i] != want) ++bad;
  }
  std::printf("int32_arithmetic: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(c);
  AscendC::GmFree(r);
  return bad == 0 ? 0 : 1;
}
#endif
