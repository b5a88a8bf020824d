// Gather by index (an embedding-style lookup): out[i] = table[idx[i]] with a 1024-float table held in UB; the
// int32 element indices are turned into the byte offsets Gather expects with ShiftLeft by 2. 2 cores x 2048.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 2;
constexpr int32_t TABLE_LENGTH = 1024;
constexpr int32_t BLOCK_LENGTH = 2048;                       // lookups per core
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;

class KernelGather {
 public:
  __aicore__ inline KernelGather() {}
  __aicore__ inline void Init(GM_ADDR table, GM_ADDR idx, GM_ADDR out) {
    int64_t offset = static_cast<int64_t>(BLOCK_LENGTH) * AscendC::GetBlockIdx();
    tableGm.SetGlobalBuffer((__gm__ float*)table, TABLE_LENGTH);
    idxGm.SetGlobalBuffer((__gm__ int32_t*)idx + offset, BLOCK_LENGTH);
    outGm.SetGlobalBuffer((__gm__ float*)out + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueTable, 1, TABLE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueIdx, 1, BLOCK_LENGTH * sizeof(int32_t));
    pipe.InitBuffer(outQueue, 1, BLOCK_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> tableLocal = inQueueTable.AllocTensor<float>();
    AscendC::LocalTensor<int32_t> idxLocal = inQueueIdx.AllocTensor<int32_t>();
    AscendC::DataCopy(tableLocal, tableGm, TABLE_LENGTH);
    AscendC::DataCopy(idxLocal, idxGm, BLOCK_LENGTH);
    inQueueTable.EnQue(tableLocal);
    inQueueIdx.EnQue(idxLocal);
    tableLocal = inQueueTable.DeQue<float>();
    idxLocal = inQueueIdx.DeQue<int32_t>();
    AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();

    AscendC::ShiftLeft(idxLocal, idxLocal, static_cast<int32_t>(2), BLOCK_LENGTH);   // element index -> byte offset
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::LocalTensor<uint32_t> offsets = idxLocal.ReinterpretCast<uint32_t>();
    AscendC::Gather(outLocal, tableLocal, offsets, static_cast<uint32_t>(0), BLOCK_LENGTH);

    outQueue.EnQue(outLocal);
    inQueueTable.FreeTensor(tableLocal);
    inQueueIdx.FreeTensor(idxLocal);
    outLocal = outQueue.DeQue<float>();
    AscendC::DataCopy(outGm, outLocal, BLOCK_LENGTH);
    outQueue.FreeTensor(outLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueTable, inQueueIdx;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::GlobalTensor<float> tableGm, outGm;
  AscendC::GlobalTensor<int32_t> idxGm;
};

extern "C" __global__ __aicore__ void gather_lookup(GM_ADDR table, GM_ADDR idx, GM_ADDR out) {
  KernelGather op;
  op.Init(table, idx, out);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* table = (float*)AscendC::GmAlloc(TABLE_LENGTH * sizeof(float));
  int32_t* idx = (int32_t*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(int32_t));
  float* out = (float*)AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float));
  for (int i = 0; i < TABLE_LENGTH; ++i) table[i] = 0.5f * i - 100.0f;
  for (int i = 0; i < TOTAL_LENGTH; ++i) idx[i] = (i * 389 + 17) % TABLE_LENGTH;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(gather_lookup, USE_CORE_NUM, (GM_ADDR)table, (GM_ADDR)idx, (GM_ADDR)out);
  int bad = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i)
    if (out[i] != table[idx[i]]) ++bad;
  std::printf("gather_by_index: %d mismatches of %d\n", bad, TOTAL_LENGTH);
  AscendC::GmFree(table);
  AscendC::GmFree(idx);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
