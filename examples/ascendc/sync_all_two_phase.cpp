// Two-phase multi-core kernel with SyncAll: every core folds its 2048 floats into a 64-lane partial sum and writes
// it to a GM workspace; after SyncAll, core 0 reads all partials and combines them into the 64-lane result.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = 2048;                        // floats per core
constexpr int32_t LANES = 64;                                 // one float repeat, 256 bytes
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;

class KernelTwoPhaseSum {
 public:
  __aicore__ inline KernelTwoPhaseSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace) {
    xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    wsGm.SetGlobalBuffer((__gm__ float*)workspace, USE_CORE_NUM * LANES);
    yGm.SetGlobalBuffer((__gm__ float*)y, LANES);
    pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, LANES * sizeof(float));
  }
  __aicore__ inline void Process() {
    // Phase 1: partial sums of this core's block.
    AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, BLOCK_LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    FoldTo64(xLocal, BLOCK_LENGTH);
    AscendC::LocalTensor<float> partial = outQueue.AllocTensor<float>();
    AscendC::DataCopy(partial, xLocal, LANES);                 // UB -> UB on the vector pipe
    outQueue.EnQue(partial);
    inQueue.FreeTensor(xLocal);
    partial = outQueue.DeQue<float>();
    AscendC::DataCopy(wsGm[LANES * AscendC::GetBlockIdx()], partial, LANES);
    outQueue.FreeTensor(partial);

    AscendC::SyncAll();   // every core's partial is in GM after this point

    // Phase 2: core 0 combines the partials.
    if (AscendC::GetBlockIdx() != 0) return;
    AscendC::LocalTensor<float> parts = inQueue.AllocTensor<float>();
    AscendC::DataCopy(parts, wsGm, USE_CORE_NUM * LANES);
    inQueue.EnQue(parts);
    parts = inQueue.DeQue<float>();
    FoldTo64(parts, USE_CORE_NUM * LANES);
    AscendC::LocalTensor<float> result = outQueue.AllocTensor<float>();
    AscendC::DataCopy(result, parts, LANES);
    outQueue.EnQue(result);
    inQueue.FreeTensor(parts);
    result = outQueue.DeQue<float>();
    AscendC::DataCopy(yGm, result, LANES);
    outQueue.FreeTensor(result);
  }

 private:
  // Halves the live length until 64 lanes remain: lane l ends as the sum of all elements with index % 64 == l.
  __aicore__ inline void FoldTo64(const AscendC::LocalTensor<float>& t, int32_t length) {
    for (int32_t half = length / 2; half >= LANES; half /= 2) {
      AscendC::Add(t, t, t[half], half);
      AscendC::PipeBarrier<PIPE_V>();
    }
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::GlobalTensor<float> xGm, wsGm, yGm;
};

extern "C" __global__ __aicore__ void two_phase_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);   // hard SyncAll needs a mix kernel type
  KernelTwoPhaseSum op;
  op.Init(x, y, workspace);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(LANES * sizeof(float));
  float* ws = (float*)AscendC::GmAlloc(USE_CORE_NUM * LANES * sizeof(float));
  for (int i = 0; i < TOTAL_LENGTH; ++i) x[i] = static_cast<float>((i * 3) % 23) - 11.0f;   // integers: exact sums
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(two_phase_sum, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)ws);
  int bad = 0;
  for (int l = 0; l < LANES; ++l) {
    float want = 0.0f;
    for (int i = l; i < TOTAL_LENGTH; i += LANES) want += x[i];
    if (y[l] != want) ++bad;
  }
  std::printf("sync_all_two_phase: %d mismatches of %d lanes\n", bad, LANES);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(ws);
  return bad == 0 ? 0 : 1;
}
#endif
