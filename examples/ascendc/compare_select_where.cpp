// Compare + Select: where(x > y, x, y) with Compare (bit mask into a uint8 tensor) and tensor-tensor Select, and
// ReLU with CompareScalar against 0 and tensor-scalar Select; 4 cores, tiles of 1024 floats (a 256-byte multiple).
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = 4096;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 1024;                       // Compare needs count * 4 bytes to be a multiple of 256
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;    // 4
constexpr int32_t MASK_BYTES = TILE_LENGTH / 8;             // one bit per element: 128 bytes
constexpr int32_t BUFFER_NUM = 2;

class KernelWhere {
 public:
  __aicore__ inline KernelWhere() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR maxOut, GM_ADDR reluOut) {
    int64_t offset = static_cast<int64_t>(BLOCK_LENGTH) * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, BLOCK_LENGTH);
    maxGm.SetGlobalBuffer((__gm__ float*)maxOut + offset, BLOCK_LENGTH);
    reluGm.SetGlobalBuffer((__gm__ float*)reluOut + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueMax, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueRelu, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(maskBuf, 2 * MASK_BYTES);
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
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
    AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> maxLocal = outQueueMax.AllocTensor<float>();
    AscendC::LocalTensor<float> reluLocal = outQueueRelu.AllocTensor<float>();
    AscendC::LocalTensor<uint8_t> gtMask = maskBuf.Get<uint8_t>(MASK_BYTES);
    AscendC::LocalTensor<uint8_t> posMask = maskBuf.GetWithOffset<uint8_t>(MASK_BYTES, MASK_BYTES);

    AscendC::Compare(gtMask, xLocal, yLocal, AscendC::CMPMODE::GT, TILE_LENGTH);          // bit i = x[i] > y[i]
    AscendC::CompareScalar(posMask, xLocal, 0.0f, AscendC::CMPMODE::GT, TILE_LENGTH);     // bit i = x[i] > 0
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Select(maxLocal, gtMask, xLocal, yLocal, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, TILE_LENGTH);
    AscendC::Select(reluLocal, posMask, xLocal, 0.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE_LENGTH);

    outQueueMax.EnQue(maxLocal);
    outQueueRelu.EnQue(reluLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<float> maxLocal = outQueueMax.DeQue<float>();
    AscendC::LocalTensor<float> reluLocal = outQueueRelu.DeQue<float>();
    AscendC::DataCopy(maxGm[progress * TILE_LENGTH], maxLocal, TILE_LENGTH);
    AscendC::DataCopy(reluGm[progress * TILE_LENGTH], reluLocal, TILE_LENGTH);
    outQueueMax.FreeTensor(maxLocal);
    outQueueRelu.FreeTensor(reluLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueMax, outQueueRelu;
  AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf;
  AscendC::GlobalTensor<float> xGm, yGm, maxGm, reluGm;
};

extern "C" __global__ __aicore__ void where_relu(GM_ADDR x, GM_ADDR y, GM_ADDR maxOut, GM_ADDR reluOut) {
  KernelWhere op;
  op.Init(x, y, maxOut, reluOut);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  size_t bytes = TOTAL_LENGTH * sizeof(float);
  float* x = (float*)AscendC::GmAlloc(bytes);
  float* y = (float*)AscendC::GmAlloc(bytes);
  float* mx = (float*)AscendC::GmAlloc(bytes);
  float* relu = (float*)AscendC::GmAlloc(bytes);
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = 0.5f * ((i * 31) % 97 - 48); y[i] = 0.25f * ((i * 7) % 89 - 44); }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(where_relu, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)mx, (GM_ADDR)relu);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    if (mx[i] != (x[i] > y[i] ? x[i] : y[i])) ++bad;
    if (relu[i] != (x[i] > 0.0f ? x[i] : 0.0f)) ++bad;
  }
  std::printf("compare_select_where: %d mismatches of %d\n", bad, 2 * TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(mx);
  AscendC::GmFree(relu);
  return bad == 0 ? 0 : 1;
}
#endif
