// y = relu(x * w + bias) with the high-level Matmul API: C comes to the vector core's UB block by block
// (Iterate + GetTensorC into a VECIN queue), Relu runs on the vector unit, DataCopy writes the block to GM.
// Host tiling with MultiCoreMatmulTiling over 2 cores; M, N, K are not multiples of 16. CANN CPU-debug style.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

constexpr int32_t M = 90;
constexpr int32_t N = 200;
constexpr int32_t K = 100;

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = AscendC::MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;
using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

REGISTER_TILING_DEFAULT(TCubeTiling);

class MatmulBiasRelu {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const TCubeTiling& t) {
    tiling = t;
    int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int32_t mIdx = AscendC::GetBlockIdx() % mBlocks;
    int32_t nIdx = AscendC::GetBlockIdx() / mBlocks;
    tailM = t.M - mIdx * t.singleCoreM < t.singleCoreM ? t.M - mIdx * t.singleCoreM : t.singleCoreM;
    tailN = t.N - nIdx * t.singleCoreN < t.singleCoreN ? t.N - nIdx * t.singleCoreN : t.singleCoreN;
    xGm.SetGlobalBuffer((__gm__ half*)x + mIdx * t.singleCoreM * t.Ka);
    wGm.SetGlobalBuffer((__gm__ half*)w + nIdx * t.singleCoreN);
    biasGm.SetGlobalBuffer((__gm__ float*)bias + nIdx * t.singleCoreN);
    yGm.SetGlobalBuffer((__gm__ float*)y + mIdx * t.singleCoreM * t.N + nIdx * t.singleCoreN);
    pipe->InitBuffer(cQueue, 1, t.baseM * t.baseN * sizeof(float));
    pipe->InitBuffer(outQueue, 1, t.baseM * t.baseN * sizeof(float));
  }
  __aicore__ inline void Process() {
    mm.SetTail(tailM, tailN);
    mm.SetTensorA(xGm);
    mm.SetTensorB(wGm);
    mm.SetBias(biasGm);
    int32_t mIter = (tailM + tiling.baseM - 1) / tiling.baseM;
    int32_t nIter = (tailN + tiling.baseN - 1) / tiling.baseN;
    int32_t count = 0;
    while (mm.Iterate()) {
      // block order of iterateOrder 0: along M first
      int32_t mi = tiling.iterateOrder == 0 ? count % mIter : count / nIter;
      int32_t ni = tiling.iterateOrder == 0 ? count / mIter : count % nIter;
      int32_t rows = tailM - mi * tiling.baseM < tiling.baseM ? tailM - mi * tiling.baseM : tiling.baseM;
      int32_t cols = tailN - ni * tiling.baseN < tiling.baseN ? tailN - ni * tiling.baseN : tiling.baseN;
      int32_t stride = (cols + 7) / 8 * 8;   // the block arrives as rows of CeilAlign(cols, 32 B)
      AscendC::LocalTensor<float> cLocal = cQueue.AllocTensor<float>();
      mm.GetTensorC(cLocal);
      cQueue.EnQue(cLocal);
      cLocal = cQueue.DeQue<float>();
      AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
      AscendC::Relu(out, cLocal, rows * stride);
      outQueue.EnQue(out);
      cQueue.FreeTensor(cLocal);
      out = outQueue.DeQue<float>();
      AscendC::DataCopyParams p(rows, cols * sizeof(float) / 32, (stride - cols) * sizeof(float) / 32,
                                (tiling.N - cols) * sizeof(float) / 32);
      AscendC::DataCopy(yGm[mi * tiling.baseM * tiling.N + ni * tiling.baseN], out, p);
      outQueue.FreeTensor(out);
      ++count;
    }
    mm.End();
  }

  AscendC::TPipe* pipe = nullptr;
  AscendC::Matmul<AType, BType, CType, BiasType> mm;

 private:
  TCubeTiling tiling;
  int32_t tailM = 0, tailN = 0;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> cQueue;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
  AscendC::GlobalTensor<half> xGm, wGm;
  AscendC::GlobalTensor<float> biasGm, yGm;
};

extern "C" __global__ __aicore__ void matmul_bias_relu(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR tilingGm) {
  GET_TILING_DATA(tiling, tilingGm);
  if (AscendC::GetBlockIdx() >= tiling.usedCoreNum) return;
  AscendC::TPipe pipe;
  MatmulBiasRelu op;
  op.pipe = &pipe;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.mm, &tiling);   // before any InitBuffer
  op.Init(x, w, bias, y, tiling);
  op.Process();
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
  mt.SetDim(2);
  mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.EnableBias(true);
  mt.SetFixSplit(64, 64, -1);   // blocks small enough for two UB queues
  mt.SetBufferSpace(-1, -1, -1);
  TCubeTiling tiling;
  if (mt.GetTiling(tiling) == -1) { std::printf("matmul_api_bias_relu: GetTiling failed\n"); return 1; }

  half* x = (half*)AscendC::GmAlloc(M * K * sizeof(half));
  half* w = (half*)AscendC::GmAlloc(K * N * sizeof(half));
  float* bias = (float*)AscendC::GmAlloc(N * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(M * N * sizeof(float));
  uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(TCubeTiling));
  std::memcpy(t, &tiling, sizeof(TCubeTiling));
  for (int i = 0; i < M * K; ++i) x[i] = half(((i * 13) % 29 - 14) / 16.0f);
  for (int i = 0; i < K * N; ++i) w[i] = half(((i * 3) % 17 - 8) / 8.0f);
  for (int j = 0; j < N; ++j) bias[j] = (j % 11 - 5) * 0.75f;

  // A Matmul kernel is a MIX kernel: blockDim counts cube cores, each serving 2 vector cores.
  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  uint32_t blockDim = plat->CalcTschBlockDim(tiling.usedCoreNum, plat->GetCoreNumAic(), plat->GetCoreNumAiv());
  ICPU_RUN_KF(matmul_bias_relu, blockDim, (GM_ADDR)x, (GM_ADDR)w, (GM_ADDR)bias, (GM_ADDR)y, (GM_ADDR)t);

  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = bias[j];
      for (int k = 0; k < K; ++k) ref += double(float(x[i * K + k])) * double(float(w[k * N + j]));
      ref = ref > 0 ? ref : 0;
      worst = std::fmax(worst, std::fabs(y[i * N + j] - ref) / (std::fabs(ref) + 1.0));
    }
  std::printf("matmul_api_bias_relu: %d cores, base [%d, %d, %d], max rel err %.2e\n", tiling.usedCoreNum,
              tiling.baseM, tiling.baseN, tiling.baseK, worst);
  AscendC::GmFree(x);
  AscendC::GmFree(w);
  AscendC::GmFree(bias);
  AscendC::GmFree(y);
  AscendC::GmFree(t);
  return worst < 1e-4 ? 0 : 1;
}
#endif
