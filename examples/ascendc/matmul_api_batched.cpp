// Batched matmul C[b] = A[b] x B[b] with the high-level Matmul API: each vector core takes every (cores)-th batch and
// loops over them, re-pointing the one Matmul object with SetTensorA/SetTensorB. fp16 in, fp16 out (one rounding
// of the fp32 accumulator). Host tiling with MatmulApiTiling for one [M, N, K] problem. CANN CPU-debug style.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

constexpr int32_t BATCH = 6;
constexpr int32_t M = 48;
constexpr int32_t N = 72;
constexpr int32_t K = 80;
constexpr int32_t CORES = 2;   // vector cores: one cube core serving two

using HalfND = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;

REGISTER_TILING_DEFAULT(TCubeTiling);

extern "C" __global__ __aicore__ void matmul_batched(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
  GET_TILING_DATA(tiling, tilingGm);
  AscendC::TPipe pipe;
  AscendC::Matmul<HalfND, HalfND, HalfND> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<half> aGm, bGm, cGm;
  aGm.SetGlobalBuffer((__gm__ half*)a, BATCH * M * K);
  bGm.SetGlobalBuffer((__gm__ half*)b, BATCH * K * N);
  cGm.SetGlobalBuffer((__gm__ half*)c, BATCH * M * N);
  for (int32_t batch = AscendC::GetBlockIdx(); batch < BATCH; batch += AscendC::GetBlockNum() * AscendC::GetTaskRatio()) {
    mm.SetTensorA(aGm[batch * M * K]);
    mm.SetTensorB(bGm[batch * K * N]);
    mm.IterateAll(cGm[batch * M * N]);
  }
  mm.End();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

int main() {
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  matmul_tiling::MatmulApiTiling mt(*plat);
  mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  TCubeTiling tiling;
  if (mt.GetTiling(tiling) == -1) { std::printf("matmul_api_batched: GetTiling failed\n"); return 1; }

  half* a = (half*)AscendC::GmAlloc(BATCH * M * K * sizeof(half));
  half* b = (half*)AscendC::GmAlloc(BATCH * K * N * sizeof(half));
  half* c = (half*)AscendC::GmAlloc(BATCH * M * N * sizeof(half));
  uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(TCubeTiling));
  std::memcpy(t, &tiling, sizeof(TCubeTiling));
  for (int i = 0; i < BATCH * M * K; ++i) a[i] = half(((i * 7) % 31 - 15) / 32.0f);
  for (int i = 0; i < BATCH * K * N; ++i) b[i] = half(((i * 11) % 13 - 6) / 4.0f);

  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(matmul_batched, plat->CalcTschBlockDim(CORES, plat->GetCoreNumAic(), plat->GetCoreNumAiv()), (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c, (GM_ADDR)t);

  double worst = 0;
  for (int bt = 0; bt < BATCH; ++bt)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double ref = 0;
        for (int k = 0; k < K; ++k)
          ref += double(float(a[(bt * M + i) * K + k])) * double(float(b[(bt * K + k) * N + j]));
        worst = std::fmax(worst, std::fabs(float(c[(bt * M + i) * N + j]) - ref) / (std::fabs(ref) + 1.0));
      }
  std::printf("matmul_api_batched: %d batches of %dx%dx%d on %d cores, max rel err %.2e\n", BATCH, M, N, K, CORES,
              worst);
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  AscendC::GmFree(t);
  return worst < 2e-3 ? 0 : 1;   // fp16 output: half an ulp of half
}
#endif
