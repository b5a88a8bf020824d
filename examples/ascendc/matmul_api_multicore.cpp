// High-level Matmul API split over cores along M and N: the host's MultiCoreMatmulTiling picks singleCoreM x
// singleCoreN blocks, each core offsets A, B and C to its block and sets its tail with SetTail. fp16 inputs,
// fp32 output, shapes that are not multiples of 16. CANN CPU-debug style.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

constexpr int32_t M = 300;
constexpr int32_t N = 520;
constexpr int32_t K = 136;

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

REGISTER_TILING_DEFAULT(TCubeTiling);

extern "C" __global__ __aicore__ void matmul_multicore(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
  GET_TILING_DATA(tiling, tilingGm);
  if (AscendC::GetBlockIdx() >= tiling.usedCoreNum) return;

  AscendC::TPipe pipe;
  AscendC::Matmul<AType, BType, CType> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);

  int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  int32_t mIdx = AscendC::GetBlockIdx() % mBlocks;
  int32_t nIdx = AscendC::GetBlockIdx() / mBlocks;
  int32_t tailM = tiling.M - mIdx * tiling.singleCoreM;
  int32_t tailN = tiling.N - nIdx * tiling.singleCoreN;
  tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
  tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;

  AscendC::GlobalTensor<half> aGm, bGm;
  AscendC::GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer((__gm__ half*)a + mIdx * tiling.singleCoreM * tiling.Ka);
  bGm.SetGlobalBuffer((__gm__ half*)b + nIdx * tiling.singleCoreN);
  cGm.SetGlobalBuffer((__gm__ float*)c + mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN);

  mm.SetTail(tailM, tailN);
  mm.SetTensorA(aGm);
  mm.SetTensorB(bGm);
  mm.IterateAll(cGm);
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
  matmul_tiling::MultiCoreMatmulTiling mt(*plat);
  mt.SetDim(8);
  mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  TCubeTiling tiling;
  if (mt.GetTiling(tiling) == -1) { std::printf("matmul_api_multicore: GetTiling failed\n"); return 1; }
  int32_t dim, mDim, nDim;
  mt.GetCoreNum(dim, mDim, nDim);

  half* a = (half*)AscendC::GmAlloc(M * K * sizeof(half));
  half* b = (half*)AscendC::GmAlloc(K * N * sizeof(half));
  float* c = (float*)AscendC::GmAlloc(M * N * sizeof(float));
  uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(TCubeTiling));
  std::memcpy(t, &tiling, sizeof(TCubeTiling));
  for (int i = 0; i < M * K; ++i) a[i] = half(((i * 7) % 23 - 11) / 16.0f);
  for (int i = 0; i < K * N; ++i) b[i] = half(((i * 5) % 19 - 9) / 8.0f);

  // A Matmul kernel is a MIX kernel: blockDim counts cube cores, each serving 2 vector cores (GetBlockIdx < dim).
  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  uint32_t blockDim = plat->CalcTschBlockDim(dim, plat->GetCoreNumAic(), plat->GetCoreNumAiv());
  ICPU_RUN_KF(matmul_multicore, blockDim, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c, (GM_ADDR)t);

  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += double(float(a[i * K + k])) * double(float(b[k * N + j]));
      worst = std::fmax(worst, std::fabs(c[i * N + j] - ref) / (std::fabs(ref) + 1.0));
    }
  std::printf("matmul_api_multicore: %d cores (%d x %d), base [%d, %d, %d], max rel err %.2e\n", dim, mDim, nDim,
              tiling.baseM, tiling.baseN, tiling.baseK, worst);
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  AscendC::GmFree(t);
  return worst < 1e-4 && mDim > 1 && nDim > 1 ? 0 : 1;
}
#endif
