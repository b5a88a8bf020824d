// fp16 elementwise chain: out = Max(x * y + z, x - z) / y on half tensors, 8 cores with double buffering; the
// intermediate lives in a TBuf and every step rounds to fp16 as on the chip (checked to 2e-3 relative).
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = 4096;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 1024;                      // 2 KB of half
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;   // 4
constexpr int32_t BUFFER_NUM = 2;

class KernelHalfChain {
 public:
  __aicore__ inline KernelHalfChain() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out) {
    int64_t offset = static_cast<int64_t>(BLOCK_LENGTH) * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ half*)x + offset, BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ half*)y + offset, BLOCK_LENGTH);
    zGm.SetGlobalBuffer((__gm__ half*)z + offset, BLOCK_LENGTH);
    outGm.SetGlobalBuffer((__gm__ half*)out + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(tmpBuf, TILE_LENGTH * sizeof(half));
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
    AscendC::LocalTensor<half> zLocal = inQueueZ.AllocTensor<half>();
    AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
    AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
    AscendC::DataCopy(zLocal, zGm[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    inQueueZ.EnQue(zLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
    AscendC::LocalTensor<half> zLocal = inQueueZ.DeQue<half>();
    AscendC::LocalTensor<half> outLocal = outQueue.AllocTensor<half>();
    AscendC::LocalTensor<half> tmp = tmpBuf.Get<half>();
    AscendC::Mul(outLocal, xLocal, yLocal, TILE_LENGTH);   // x * y
    AscendC::Sub(tmp, xLocal, zLocal, TILE_LENGTH);        // x - z
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Add(outLocal, outLocal, zLocal, TILE_LENGTH); // x * y + z
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Max(outLocal, outLocal, tmp, TILE_LENGTH);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Div(outLocal, outLocal, yLocal, TILE_LENGTH);
    outQueue.EnQue<half>(outLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    inQueueZ.FreeTensor(zLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<half> outLocal = outQueue.DeQue<half>();
    AscendC::DataCopy(outGm[progress * TILE_LENGTH], outLocal, TILE_LENGTH);
    outQueue.FreeTensor(outLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY, inQueueZ;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
  AscendC::GlobalTensor<half> xGm, yGm, zGm, outGm;
};

extern "C" __global__ __aicore__ void half_chain(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out) {
  KernelHalfChain op;
  op.Init(x, y, z, out);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t bytes = TOTAL_LENGTH * sizeof(half);
  half* x = (half*)AscendC::GmAlloc(bytes);
  half* y = (half*)AscendC::GmAlloc(bytes);
  half* z = (half*)AscendC::GmAlloc(bytes);
  half* out = (half*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    x[i] = half(0.01f * (i % 301) - 1.5f);
    y[i] = half(0.5f + 0.03125f * (i % 37));     // in [0.5, 1.625]: no division by zero
    z[i] = half(0.2f * (i % 11) - 1.0f);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(half_chain, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)out);
  // Reference rounds to fp16 after every step, like the vector unit; tolerance 2e-3 relative (2 fp16 ulp).
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    float xf = x[i], yf = y[i], zf = z[i];
    float t = half(half(xf * yf) + zf);
    float u = half(xf - zf);
    float want = half((t > u ? t : u) / yf);
    float got = out[i];
    if (std::fabs(got - want) > 2e-3f * std::fmax(1.0f, std::fabs(want))) ++bad;
  }
  std::printf("fp16_elementwise_chain: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
