// Mixed precision: fp16 inputs are cast up to float, computed in float (out = x * y + z, then scaled by 1/(1 + |z|)),
// and cast back down to fp16 with CAST_RINT — the pattern for fp16 ops that need fp32 accuracy.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = 4096;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 1024;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;   // 4
constexpr int32_t BUFFER_NUM = 2;

class KernelMixed {
 public:
  __aicore__ inline KernelMixed() {}
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
    pipe.InitBuffer(fp32Buf, 3 * TILE_LENGTH * sizeof(float));   // three float work tensors
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
    AscendC::LocalTensor<float> xf = fp32Buf.Get<float>();
    AscendC::LocalTensor<float> yf = xf[TILE_LENGTH];
    AscendC::LocalTensor<float> zf = xf[2 * TILE_LENGTH];

    AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, TILE_LENGTH);
    AscendC::Cast(yf, yLocal, AscendC::RoundMode::CAST_NONE, TILE_LENGTH);
    AscendC::Cast(zf, zLocal, AscendC::RoundMode::CAST_NONE, TILE_LENGTH);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Mul(xf, xf, yf, TILE_LENGTH);            // x * y (exact in float for fp16 inputs)
    AscendC::Abs(yf, zf, TILE_LENGTH);                // |z|
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Add(xf, xf, zf, TILE_LENGTH);            // x * y + z
    AscendC::Adds(yf, yf, 1.0f, TILE_LENGTH);         // 1 + |z|
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Div(xf, xf, yf, TILE_LENGTH);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(outLocal, xf, AscendC::RoundMode::CAST_RINT, TILE_LENGTH);

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
  AscendC::TBuf<AscendC::TPosition::VECCALC> fp32Buf;
  AscendC::GlobalTensor<half> xGm, yGm, zGm, outGm;
};

extern "C" __global__ __aicore__ void mixed_precision(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out) {
  KernelMixed op;
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
    x[i] = half(0.013f * (i % 503) - 3.0f);
    y[i] = half(2.0f - 0.007f * (i % 601));
    z[i] = half(0.05f * (i % 121) - 3.0f);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(mixed_precision, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)out);
  // Reference in float, rounded once to fp16 at the end; tolerance 1 fp16 ulp (1e-3 relative, 1e-4 absolute).
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    float xf = x[i], yf = y[i], zf = z[i];
    float want = static_cast<float>(half((xf * yf + zf) / (1.0f + std::fabs(zf))));
    float got = out[i];
    if (std::fabs(got - want) > 1e-3f * std::fabs(want) + 1e-4f) ++bad;
  }
  std::printf("mixed_precision_fp32_compute: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
