// Multi-core split with a tail core: 10003 floats over 8 cores, 1256 (32-byte aligned) per core and 1211 on the
// last; each core tiles its share by 512 and moves the unaligned last tile with DataCopyPad. z = x * y + x.
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 10003;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t ALIGN_ELEMS = 32 / sizeof(float);   // 8 floats per 32-byte block
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t BUFFER_NUM = 2;

class KernelTailCore {
 public:
  __aicore__ inline KernelTailCore() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    int32_t coreNum = AscendC::GetBlockNum();
    int32_t core = AscendC::GetBlockIdx();
    // Every core but the last takes ceil(total / cores) rounded up to whole 32-byte blocks.
    int32_t perCore = (TOTAL_LENGTH + coreNum - 1) / coreNum;
    perCore = (perCore + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    int32_t start = perCore * core;
    blockLength = (core == coreNum - 1) ? TOTAL_LENGTH - start : perCore;
    tileNum = (blockLength + TILE_LENGTH - 1) / TILE_LENGTH;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + start, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < tileNum; i++) {
      int32_t len = (i == tileNum - 1) ? blockLength - i * TILE_LENGTH : TILE_LENGTH;
      CopyIn(i, len);
      Compute(len);
      CopyOut(i, len);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress, int32_t len) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    if (len % ALIGN_ELEMS == 0) {
      AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], len);
      AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], len);
    } else {
      AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
      AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
      AscendC::DataCopyPad(xLocal, xGm[progress * TILE_LENGTH], params, pad);
      AscendC::DataCopyPad(yLocal, yGm[progress * TILE_LENGTH], params, pad);
    }
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t len) {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    AscendC::Mul(zLocal, xLocal, yLocal, len);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Add(zLocal, zLocal, xLocal, len);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress, int32_t len) {
    AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    if (len % ALIGN_ELEMS == 0) {
      AscendC::DataCopy(zGm[progress * TILE_LENGTH], zLocal, len);
    } else {
      AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
      AscendC::DataCopyPad(zGm[progress * TILE_LENGTH], zLocal, params);
    }
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  int32_t blockLength = 0;
  int32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void mul_add_tail_core(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelTailCore op;
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
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = 0.5f * (i % 41) - 10.0f; y[i] = 0.25f * (i % 9) + 1.0f; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(mul_add_tail_core, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    float prod = x[i] * y[i];      // two separately rounded float ops, like Mul then Add
    if (z[i] != prod + x[i]) ++bad;
  }
  std::printf("multicore_tail: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
