// Pure-cube matmul C[M x N] = A[M x K] * B[K x N] (half in, float accumulation, half out) written for the Atlas
// inference series (Ascend310P3, __NPU_ARCH__ 2002), where one coupled AI Core holds L1, L0A/L0B/L0C, the cube unit,
// UB and the vector unit: L0C results reach UB through the vector pipe with the enhanced DataCopy (CO1 -> CO2,
// DataCopyEnhancedParams, BLOCK_MODE_MATRIX, float -> half on the way), then UB -> GM with DataCopy, one NZ column
// block at a time (NZ -> ND). On 910B (__NPU_ARCH__ 2201) that path does not exist: the same kernel, compiled for it,
// sends L0C to GM through Fixpipe (F322F16, NZ -> ND) on a cube core instead.
//   kgen examples run --soc Ascend310P3 --filter cube_mmad_310p   (CO1 -> CO2 path)
//   kgen examples run --filter cube_mmad_310p                      (default Ascend910B2: Fixpipe path)
#include "kernel_operator.h"

constexpr uint16_t M = 48, N = 32, K = 64;
constexpr uint16_t M_BLOCKS = M / 16, N_BLOCKS = N / 16, K_BLOCKS = K / 16;

class KernelCubeMatmul310P {
 public:
  __aicore__ inline KernelCubeMatmul310P() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ half*)c, M * N);
    pipe.InitBuffer(inQueueA1, 1, M * K * sizeof(half));
    pipe.InitBuffer(inQueueA2, 1, M * K * sizeof(half));
    pipe.InitBuffer(inQueueB1, 1, K * N * sizeof(half));
    pipe.InitBuffer(inQueueB2, 1, K * N * sizeof(half));
    pipe.InitBuffer(outQueueCO1, 1, M * N * sizeof(float));
#if __NPU_ARCH__ == 2002
    pipe.InitBuffer(outQueueCO2, 1, M * N * sizeof(half));
#endif
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
    // ND -> NZ: column blocks of 16 halves, M (or K) rows high
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    inQueueA1.EnQue(a1);
    inQueueB1.EnQue(b1);
  }
  __aicore__ inline void SplitA() {
    AscendC::LocalTensor<half> a1 = inQueueA1.DeQue<half>();
    AscendC::LocalTensor<half> a2 = inQueueA2.AllocTensor<half>();
    AscendC::LoadData2DParams params;   // ZZ: the M_BLOCKS fractals of one k-block go K_BLOCKS apart
    params.repeatTimes = M_BLOCKS;
    params.srcStride = 1;
    params.dstGap = K_BLOCKS - 1;
    for (int kb = 0; kb < K_BLOCKS; ++kb) AscendC::LoadData(a2[kb * 256], a1[kb * M * 16], params);
    inQueueA2.EnQue(a2);
    inQueueA1.FreeTensor(a1);
  }
  __aicore__ inline void SplitB() {
    AscendC::LocalTensor<half> b1 = inQueueB1.DeQue<half>();
    AscendC::LocalTensor<half> b2 = inQueueB2.AllocTensor<half>();
    // B1 holds B's fractal (kb, nb) at nb * K_BLOCKS + kb, row-major (k rows); ZN wants kb * N_BLOCKS + nb with each
    // fractal transposed: LoadData with ifTranspose (16-bit types; both SoCs).
    AscendC::LoadData2DParams params;
    params.repeatTimes = N_BLOCKS;
    params.srcStride = K_BLOCKS;
    params.ifTranspose = true;
    for (int kb = 0; kb < K_BLOCKS; ++kb) AscendC::LoadData(b2[kb * N_BLOCKS * 256], b1[kb * 256], params);
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
#if __NPU_ARCH__ == 2002
    // CO1 -> CO2 (L0C -> UB) on the vector pipe: all M_BLOCKS * N_BLOCKS 16x16 fractals in one block, float -> half
    AscendC::LocalTensor<half> c2 = outQueueCO2.AllocTensor<half>();
    AscendC::DataCopyParams params;
    params.blockCount = 1;
    params.blockLen = M_BLOCKS * N_BLOCKS;   // BLOCK_MODE_MATRIX: 1024-byte float fractals (512 bytes on the half side)
    AscendC::DataCopyEnhancedParams enhancedParams;
    enhancedParams.blockMode = AscendC::BlockMode::BLOCK_MODE_MATRIX;
    AscendC::DataCopy(c2, c1, params, enhancedParams);
    outQueueCO2.EnQue(c2);
    outQueueCO1.FreeTensor(c1);
    // CO2 -> GM, NZ -> ND: column block nb is M rows of 16 halves (one 32-byte block each)
    c2 = outQueueCO2.DeQue<half>();
    for (int nb = 0; nb < N_BLOCKS; ++nb)
      AscendC::DataCopy(cGM[nb * 16], c2[nb * M * 16], AscendC::DataCopyParams(M, 1, 0, (N - 16) * sizeof(half) / 32));
    outQueueCO2.FreeTensor(c2);
#else
    // 910B: L0C -> GM through Fixpipe with float -> half and NZ -> ND
    AscendC::FixpipeParamsV220 params;
    params.nSize = N;
    params.mSize = M;
    params.srcStride = M;
    params.dstStride = N;
    params.quantPre = QuantMode_t::F322F16;
    AscendC::Fixpipe(cGM, c1, params);
    outQueueCO1.FreeTensor(c1);
#endif
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
  AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
  AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
  AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
  AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
#if __NPU_ARCH__ == 2002
  AscendC::TQue<AscendC::TPosition::CO2, 1> outQueueCO2;
#endif
  AscendC::GlobalTensor<half> aGM, bGM, cGM;
};

extern "C" __global__ __aicore__ void cube_mmad_310p(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
#if __NPU_ARCH__ != 2002
  if (g_coreType == AscendC::AIV) return;   // 910B: the cube work runs on the AIC cores only
#endif
  KernelCubeMatmul310P op;
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
#if __NPU_ARCH__ == 2002
  const char* path = "CO1 -> CO2 (DataCopyEnhancedParams) -> GM";   // coupled AI Core: no kernel mode to set
#else
  const char* path = "Fixpipe CO1 -> GM";
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
#endif
  ICPU_RUN_KF(cube_mmad_310p, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
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
  std::printf("cube_mmad_310p (arch %d, %s): %d x %d x %d, %d mismatches\n", __NPU_ARCH__, path, M, N, K, bad);
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  return bad == 0 ? 0 : 1;
}
#endif
