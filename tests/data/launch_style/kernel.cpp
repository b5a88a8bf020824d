// Kernel of the kernel-launch style host test (main.cpp): z = x + y over blockDim cores, double-buffered.
#include "kernel_operator.h"

constexpr int32_t TILE_LENGTH = 256;
constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength) {
    blockLength_ = blockLength;
    xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * AscendC::GetBlockIdx(), blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * AscendC::GetBlockIdx(), blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + blockLength * AscendC::GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < blockLength_ / TILE_LENGTH; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueX.EnQue(xLocal);
      inQueueY.EnQue(yLocal);
      xLocal = inQueueX.DeQue<float>();
      yLocal = inQueueY.DeQue<float>();
      AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
      AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
      outQueueZ.EnQue<float>(zLocal);
      inQueueX.FreeTensor(xLocal);
      inQueueY.FreeTensor(yLocal);
      zLocal = outQueueZ.DeQue<float>();
      AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);   // KERNEL_STORE_LINE
      outQueueZ.FreeTensor(zLocal);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  uint32_t blockLength_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength) {
  KernelAdd op;
  op.Init(x, y, z, blockLength);
  op.Process();
}
