// TBuf buffers synchronised by hand: z = (x + y) * x with explicit SetFlag/WaitFlag for the forward dependencies
// (MTE2->V, V->MTE3) and the loop-carried reverse ones (V->MTE2, MTE3->V), event ids from TPipe::AllocEventID.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t BLOCK_LENGTH = 8192;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 1024;
constexpr int32_t LOOP_COUNT = BLOCK_LENGTH / TILE_LENGTH;   // 8

class KernelManualSync {
 public:
  __aicore__ inline KernelManualSync() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(xBuf, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(yBuf, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(zBuf, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
    AscendC::LocalTensor<float> yLocal = yBuf.Get<float>();
    AscendC::LocalTensor<float> zLocal = zBuf.Get<float>();
    int8_t evMte2V = pipe.AllocEventID<AscendC::HardEvent::MTE2_V>();
    int8_t evVMte3 = pipe.AllocEventID<AscendC::HardEvent::V_MTE3>();
    int8_t evVMte2 = pipe.AllocEventID<AscendC::HardEvent::V_MTE2>();
    int8_t evMte3V = pipe.AllocEventID<AscendC::HardEvent::MTE3_V>();
    for (int32_t i = 0; i < LOOP_COUNT; i++) {
      if (i != 0) AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(evVMte2);   // last compute done reading x, y
      AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(evMte2V);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(evMte2V);
      if (i != 0) AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(evMte3V);   // last copy-out done reading z
      AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Mul(zLocal, zLocal, xLocal, TILE_LENGTH);
      if (i != LOOP_COUNT - 1) AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(evVMte2);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(evVMte3);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(evVMte3);
      AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
      if (i != LOOP_COUNT - 1) AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(evMte3V);
    }
    pipe.ReleaseEventID<AscendC::HardEvent::MTE2_V>(evMte2V);
    pipe.ReleaseEventID<AscendC::HardEvent::V_MTE3>(evVMte3);
    pipe.ReleaseEventID<AscendC::HardEvent::V_MTE2>(evVMte2);
    pipe.ReleaseEventID<AscendC::HardEvent::MTE3_V>(evMte3V);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf, yBuf, zBuf;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_mul_manual_sync(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelManualSync op;
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
  for (int i = 0; i < TOTAL_LENGTH; ++i) { x[i] = 0.25f * (i % 53) - 6.0f; y[i] = 1.5f - 0.125f * (i % 17); }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_mul_manual_sync, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    float s = x[i] + y[i];
    if (z[i] != s * x[i]) ++bad;
  }
  std::printf("tbuf_manual_flags: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad == 0 ? 0 : 1;
}
#endif
