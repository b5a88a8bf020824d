// Pure-cube int8 matmul with int32 accumulation (guide 0342 example 1, grown to 32 x 64 x 64): int8 fractals are
// 16 x 32 on A and 32 x 16 on B. LoadDataWithTranspose turns each 32 x 32 square of B1 into two ZN fractals.
// Fixpipe writes the int32 result (NoQuant) as ND.
#include "kernel_operator.h"

constexpr uint16_t M = 32, N = 64, K = 64;
constexpr uint16_t M_BLOCKS = M / 16, N_BLOCKS = N / 16, K_BLOCKS = K / 32;   // k0 = 32 for int8

class KernelCubeMatmul {
 public:
  __aicore__ inline KernelCubeMatmul() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ int8_t*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ int8_t*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
    pipe.InitBuffer(inQueueA1, 1, M * K * sizeof(int8_t));
    pipe.InitBuffer(inQueueA2, 1, M * K * sizeof(int8_t));
    pipe.InitBuffer(inQueueB1, 1, K * N * sizeof(int8_t));
    pipe.InitBuffer(inQueueB2, 1, K * N * sizeof(int8_t));
    pipe.InitBuffer(outQueueCO1, 1, M * N * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    CopyIn();
    SplitA();
    SplitB();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    AscendC::LocalTensor<int8_t> a1 = inQueueA1.AllocTensor<int8_t>();
    AscendC::LocalTensor<int8_t> b1 = inQueueB1.AllocTensor<int8_t>();
    // ND -> NZ: column blocks of 32 int8, each M (or K) rows high
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    inQueueA1.EnQue(a1);
    inQueueB1.EnQue(b1);
  }
  __aicore__ inline void SplitA() {
    AscendC::LocalTensor<int8_t> a1 = inQueueA1.DeQue<int8_t>();
    AscendC::LocalTensor<int8_t> a2 = inQueueA2.AllocTensor<int8_t>();
    AscendC::LoadData2DParams params;
    params.repeatTimes = M_BLOCKS;
    params.srcStride = 1;
    params.dstGap = K_BLOCKS - 1;
    for (int kb = 0; kb < K_BLOCKS; ++kb) AscendC::LoadData(a2[kb * 512], a1[kb * M * 32], params);
    inQueueA2.EnQue(a2);
    inQueueA1.FreeTensor(a1);
  }
  __aicore__ inline void SplitB() {
    AscendC::LocalTensor<int8_t> b1 = inQueueB1.DeQue<int8_t>();
    AscendC::LocalTensor<int8_t> b2 = inQueueB2.AllocTensor<int8_t>();
    // B1 column block j (32 columns, K rows) holds K / 32 squares of 32 x 32; square (kb, j) becomes the ZN
    // fractals (kb, 2j) and (kb, 2j + 1), at kb * N_BLOCKS + 2j and the next one.
    for (int j = 0; j < N / 32; ++j) {
      AscendC::LoadData2dTransposeParams params;
      params.startIndex = j * K_BLOCKS;
      params.repeatTimes = K_BLOCKS;
      params.srcStride = 1;
      params.dstGap = N_BLOCKS - 1;
      params.dstFracGap = 0;
      AscendC::LoadDataWithTranspose(b2[2 * j * 512], b1, params);
    }
    inQueueB2.EnQue(b2);
    inQueueB1.FreeTensor(b1);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<int8_t> a2 = inQueueA2.DeQue<int8_t>();
    AscendC::LocalTensor<int8_t> b2 = inQueueB2.DeQue<int8_t>();
    AscendC::LocalTensor<int32_t> c1 = outQueueCO1.AllocTensor<int32_t>();
    AscendC::MmadParams params;
    params.m = M;
    params.n = N;
    params.k = K;
    AscendC::Mmad(c1, a2, b2, params);
    outQueueCO1.EnQue(c1);
    inQueueA2.FreeTensor(a2);
    inQueueB2.FreeTensor(b2);
  }
  __aicore__ inline void CopyOut() {
    AscendC::LocalTensor<int32_t> c1 = outQueueCO1.DeQue<int32_t>();
    AscendC::FixpipeParamsV220 params;
    params.nSize = N;
    params.mSize = M;
    params.srcStride = M;    // rows of one NZ column block, in 16-element units
    params.dstStride = N;    // ND row length
    params.ndNum = 1;
    AscendC::Fixpipe(cGM, c1, params);
    outQueueCO1.FreeTensor(c1);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
  AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
  AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
  AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
  AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
  AscendC::GlobalTensor<int8_t> aGM, bGM;
  AscendC::GlobalTensor<int32_t> cGM;
};

extern "C" __global__ __aicore__ void cube_mmad_int8(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  if (g_coreType == AscendC::AIV) return;
  KernelCubeMatmul op;
  op.Init(a, b, c);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include "tikicpulib.h"

int main() {
  int8_t* a = (int8_t*)AscendC::GmAlloc(M * K);
  int8_t* b = (int8_t*)AscendC::GmAlloc(K * N);
  int32_t* c = (int32_t*)AscendC::GmAlloc(M * N * sizeof(int32_t));
  for (int i = 0; i < M * K; ++i) a[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < K * N; ++i) b[i] = (int8_t)((i * 29) % 201 - 100);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(cube_mmad_int8, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t ref = 0;
      for (int k = 0; k < K; ++k) ref += a[i * K + k] * b[k * N + j];
      bad += c[i * N + j] != ref;
    }
  std::printf("cube_mmad_int8: %d x %d x %d, %d mismatches\n", M, N, K, bad);
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  return bad == 0 ? 0 : 1;
}
#endif
