// Tails with DataCopyPad: z = x + y over 3001 floats in 1024-element tiles; the last tile (953 floats,
// 3812 bytes, not a multiple of 32) is moved with DataCopyPad, whose lengths count bytes, not 32-byte blocks.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 3001;
constexpr int32_t TILE_LENGTH = 1024;                                       // 4 KB, 32-byte multiple
constexpr int32_t TILE_NUM = (TOTAL_LENGTH + TILE_LENGTH - 1) / TILE_LENGTH;  // 3
constexpr int32_t BUFFER_NUM = 2;

class KernelTailAdd {
 public:
  __aicore__ inline KernelTailAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z, TOTAL_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      int32_t len = (i == TILE_NUM - 1) ? TOTAL_LENGTH - i * TILE_LENGTH : TILE_LENGTH;
      CopyIn(i, len);
      Compute(len);
      CopyOut(i, len);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress, int32_t len) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    if (len == TILE_LENGTH) {
      AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
    } else {
      // One block of len*4 bytes; UB side is padded up to the next 32 bytes (no pad values needed here).
      AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
      AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
      AscendC::DataCopyPad(xLocal, xGm[progress * TILE_LENGTH], copyParams, padParams);
      AscendC::DataCopyPad(yLocal, yGm[progress * TILE_LENGTH], copyParams, padParams);
    }
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t len) {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    AscendC::Add(zLocal, xLocal, yLocal, len);   // the count form takes any element count
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress, int32_t len) {
    AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    if (len == TILE_LENGTH) {
      AscendC::DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
    } else {
      AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
      AscendC::DataCopyPad(zGm[progress * TILE_LENGTH], zLocal, copyParams);   // writes exactly len floats
    }
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void tail_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelTailAdd op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t bytes = TOTAL_LENGTH * sizeof(float);
  float* x = (float*)AscendC::GmAlloc(bytes);
  float* y = (float*)AscendC::GmAlloc(bytes);
  float* z = (float*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = 0.125f * (i % 97); y[i] = -3.0f + (i % 13); }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(tail_add, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i)
    if (z[i] != x[i] + y[i]) ++bad;
  std::printf("tail_data_copy_pad: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
