// A tail rounded up to whole repeats: z = (x < y) ? 1 : 0 over 1000 floats, one core, tiles of 256. The last tile has
// 232 elements; it is copied in with DataCopyPad (232 floats: 928 bytes, the UB rows padded to 32-byte blocks), but
// Compare needs a count of whole 256-byte repeats, so it and Select run over 256 lanes: the 24 lanes past the data
// hold whatever the UB held (garbage on the chip). Their results are garbage too and are never copied out, so the
// kernel is correct on the chip; the emulator computes them as garbage lanes, which would fail only if they reached
// GM (docs/emulator.md "Memory").
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 1000;
constexpr int32_t TILE_LENGTH = 256;                                          // 1 KB: 4 repeats of 64 floats
constexpr int32_t TILE_NUM = (TOTAL_LENGTH + TILE_LENGTH - 1) / TILE_LENGTH;  // 4, the last one 232 long
constexpr int32_t MASK_BYTES = TILE_LENGTH / 8;

class KernelLess {
 public:
  __aicore__ inline KernelLess() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z, TOTAL_LENGTH);
    pipe.InitBuffer(inQueueX, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(maskBuf, MASK_BYTES);
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      const uint32_t len = i + 1 < TILE_NUM ? TILE_LENGTH : TOTAL_LENGTH - i * TILE_LENGTH;
      CopyIn(i, len);
      Compute();
      CopyOut(i, len);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress, uint32_t len) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
    AscendC::DataCopyPad(xLocal, xGm[progress * TILE_LENGTH], params, pad);
    AscendC::DataCopyPad(yLocal, yGm[progress * TILE_LENGTH], params, pad);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    AscendC::LocalTensor<uint8_t> lt = maskBuf.Get<uint8_t>();
    AscendC::Compare(lt, xLocal, yLocal, AscendC::CMPMODE::LT, TILE_LENGTH);   // whole repeats, past the tail
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Duplicate(zLocal, 1.0f, TILE_LENGTH);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Select(zLocal, lt, zLocal, 0.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE_LENGTH);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress, uint32_t len) {
    AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(zGm[progress * TILE_LENGTH], zLocal, params);          // only the data's lanes
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
  AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void less_tail(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelLess op;
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
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = 0.5f * ((i * 31) % 97 - 48); y[i] = 0.25f * ((i * 7) % 89 - 44); }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(less_tail, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) bad += z[i] != (x[i] < y[i] ? 1.0f : 0.0f);
  std::printf("tail_compare_select: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
