// Negative: a base block too large for L0A. A 128 x 512 half tile is 128 KB, twice the 64 KB L0A (910B): the
// InitBuffer places it past the end, and filling it faults where a write leaves L0A (a buffer past the end that is
// never written there would not).
// Split K (or M) so that the tile fits.
#include "kernel_operator.h"

constexpr uint16_t M = 128, N = 16, K = 512;
constexpr uint16_t M_BLOCKS = M / 16, N_BLOCKS = N / 16, K_BLOCKS = K / 16;

class KernelCubeMatmul {
 public:
  __aicore__ inline KernelCubeMatmul() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ half*)c, M * N);
    pipe.InitBuffer(inQueueA1, 1, M * K * sizeof(half));
    pipe.InitBuffer(inQueueA2, 1, M * K * sizeof(half));   // 128 KB: past the end of L0A
    pipe.InitBuffer(inQueueB1, 1, K * N * sizeof(half));
    pipe.InitBuffer(inQueueB2, 1, K * N * sizeof(half));
    pipe.InitBuffer(outQueueCO1, 1, M * N * sizeof(float));
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
    AscendC::LocalTensor<half> a1 = inQueueA1.AllocTensor<half>();
    AscendC::LocalTensor<half> b1 = inQueueB1.AllocTensor<half>();
    // ND -> NZ: column blocks of 16 halves, each M (or K) rows high
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    inQueueA1.EnQue(a1);
    inQueueB1.EnQue(b1);
  }
  __aicore__ inline void SplitA() {
    AscendC::LocalTensor<half> a1 = inQueueA1.DeQue<half>();
    AscendC::LocalTensor<half> a2 = inQueueA2.AllocTensor<half>();
    AscendC::LoadData2DParams params;
    params.repeatTimes = M_BLOCKS;
    params.srcStride = 1;
    params.dstGap = K_BLOCKS - 1;
    for (int kb = 0; kb < K_BLOCKS; ++kb) AscendC::LoadData(a2[kb * 256], a1[kb * M * 16], params);  // EXPECT-ERROR: ub-overflow
    inQueueA2.EnQue(a2);
    inQueueA1.FreeTensor(a1);
  }
  __aicore__ inline void SplitB() {
    AscendC::LocalTensor<half> b1 = inQueueB1.DeQue<half>();
    AscendC::LocalTensor<half> b2 = inQueueB2.AllocTensor<half>();
    // B1 column block nb holds the fractals (kb, nb) one after the other; ZN orders them kb * N_BLOCKS + nb.
    for (int nb = 0; nb < N_BLOCKS; ++nb) {
      AscendC::LoadData2dTransposeParams params;
      params.startIndex = nb * K_BLOCKS;
      params.repeatTimes = K_BLOCKS;
      params.srcStride = 1;
      params.dstGap = N_BLOCKS - 1;
      AscendC::LoadDataWithTranspose(b2[nb * 256], b1, params);
    }
    inQueueB2.EnQue(b2);
    inQueueB1.FreeTensor(b1);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<half> a2 = inQueueA2.DeQue<half>();
    AscendC::LocalTensor<half> b2 = inQueueB2.DeQue<half>();
    AscendC::LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
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
    AscendC::LocalTensor<float> c1 = outQueueCO1.DeQue<float>();
    AscendC::FixpipeParamsV220 params;
    params.nSize = N;
    params.mSize = M;
    params.srcStride = M;    // rows of one NZ column block, in 16-element units
    params.dstStride = N;    // ND row length
    params.ndNum = 1;
    params.quantPre = QuantMode_t::F322F16;
    AscendC::Fixpipe(cGM, c1, params);
    outQueueCO1.FreeTensor(c1);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
  AscendC::TQue<AscendC::TPosition::A2, 2> inQueueA2;
  AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
  AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
  AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
  AscendC::GlobalTensor<half> aGM, bGM, cGM;
};

extern "C" __global__ __aicore__ void cube_l0a_overflow(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  if (g_coreType == AscendC::AIV) return;
  KernelCubeMatmul op;
  op.Init(a, b, c);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  half* a = (half*)AscendC::GmAlloc(M * K * sizeof(half));
  half* b = (half*)AscendC::GmAlloc(K * N * sizeof(half));
  half* c = (half*)AscendC::GmAlloc(M * N * sizeof(half));
  for (int i = 0; i < M * K; ++i) a[i] = half(((i * 37) % 17 - 8) / 8.0f);
  for (int i = 0; i < K * N; ++i) b[i] = half(((i * 29) % 13 - 6) / 6.0f);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(cube_l0a_overflow, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        ref += (double)(float)a[i * K + k] * (float)b[k * N + j];
        mag += std::fabs((double)(float)a[i * K + k] * (float)b[k * N + j]);
      }
      if (std::fabs((float)c[i * N + j] - ref) > 1e-3 * (mag + 1e-3)) ++bad;
    }
  std::printf("cube_l0a_overflow: %d x %d x %d, %d mismatches\n", M, N, K, bad);
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  return bad == 0 ? 0 : 1;
}
#endif
