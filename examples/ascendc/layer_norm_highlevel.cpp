// LayerNorm with the high-level API on [B=1, S=8, H=256] float tiles: outputs y, per-row mean and variance, using
// a sharedTmpBuffer and a LayerNormTiling passed from the host through GM; 4 cores x 32 rows, 1e-4 tolerance.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 4;
constexpr int32_t ROWS_PER_CORE = 32;
constexpr int32_t ROWS = USE_CORE_NUM * ROWS_PER_CORE;
constexpr int32_t H = 256;
constexpr int32_t TILE_ROWS = 8;                            // S of one call (B = 1)
constexpr int32_t TILE_NUM = ROWS_PER_CORE / TILE_ROWS;     // 4
constexpr uint32_t TMP_BYTES = 8 * 1024;                    // >= GetLayerNormMaxMinTmpSize minimum for this tile
constexpr float EPS = 1e-5f;

class KernelLayerNormApi {
 public:
  __aicore__ inline KernelLayerNormApi() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR var,
                              GM_ADDR tilingGm) {
    uint32_t* dst = reinterpret_cast<uint32_t*>(&tiling);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(LayerNormTiling) / sizeof(uint32_t); i++) dst[i] = src[i];
    int64_t core = AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + core * ROWS_PER_CORE * H, ROWS_PER_CORE * H);
    yGm.SetGlobalBuffer((__gm__ float*)y + core * ROWS_PER_CORE * H, ROWS_PER_CORE * H);
    meanGm.SetGlobalBuffer((__gm__ float*)mean + core * ROWS_PER_CORE, ROWS_PER_CORE);
    varGm.SetGlobalBuffer((__gm__ float*)var + core * ROWS_PER_CORE, ROWS_PER_CORE);
    gammaGm.SetGlobalBuffer((__gm__ float*)gamma, H);
    betaGm.SetGlobalBuffer((__gm__ float*)beta, H);
    pipe.InitBuffer(inQueueX, 1, TILE_ROWS * H * sizeof(float));
    pipe.InitBuffer(inQueueGamma, 1, H * sizeof(float));
    pipe.InitBuffer(inQueueBeta, 1, H * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, TILE_ROWS * H * sizeof(float));
    pipe.InitBuffer(outQueueMean, 1, TILE_ROWS * sizeof(float));
    pipe.InitBuffer(outQueueVar, 1, TILE_ROWS * sizeof(float));
    pipe.InitBuffer(tmpBuf, TMP_BYTES);
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> gammaLocal = inQueueGamma.AllocTensor<float>();
    AscendC::LocalTensor<float> betaLocal = inQueueBeta.AllocTensor<float>();
    AscendC::DataCopy(gammaLocal, gammaGm, H);
    AscendC::DataCopy(betaLocal, betaGm, H);
    inQueueGamma.EnQue(gammaLocal);
    inQueueBeta.EnQue(betaLocal);
    gammaLocal = inQueueGamma.DeQue<float>();
    betaLocal = inQueueBeta.DeQue<float>();
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[i * TILE_ROWS * H], TILE_ROWS * H);
      inQueueX.EnQue(xLocal);

      xLocal = inQueueX.DeQue<float>();
      AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
      AscendC::LocalTensor<float> meanLocal = outQueueMean.AllocTensor<float>();
      AscendC::LocalTensor<float> varLocal = outQueueVar.AllocTensor<float>();
      AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
      AscendC::LayerNorm<float>(yLocal, meanLocal, varLocal, xLocal, gammaLocal, betaLocal, tmp, EPS, tiling);
      outQueueY.EnQue(yLocal);
      outQueueMean.EnQue(meanLocal);
      outQueueVar.EnQue(varLocal);
      inQueueX.FreeTensor(xLocal);

      yLocal = outQueueY.DeQue<float>();
      meanLocal = outQueueMean.DeQue<float>();
      varLocal = outQueueVar.DeQue<float>();
      AscendC::DataCopy(yGm[i * TILE_ROWS * H], yLocal, TILE_ROWS * H);
      AscendC::DataCopy(meanGm[i * TILE_ROWS], meanLocal, TILE_ROWS);
      AscendC::DataCopy(varGm[i * TILE_ROWS], varLocal, TILE_ROWS);
      outQueueY.FreeTensor(yLocal);
      outQueueMean.FreeTensor(meanLocal);
      outQueueVar.FreeTensor(varLocal);
    }
    inQueueGamma.FreeTensor(gammaLocal);
    inQueueBeta.FreeTensor(betaLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueGamma, inQueueBeta;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY, outQueueMean, outQueueVar;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
  AscendC::GlobalTensor<float> xGm, gammaGm, betaGm, yGm, meanGm, varGm;
  LayerNormTiling tiling;
};

extern "C" __global__ __aicore__ void layer_norm_api(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                                     GM_ADDR var, GM_ADDR tiling) {
  KernelLayerNormApi op;
  op.Init(x, gamma, beta, y, mean, var, tiling);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(ROWS * H * sizeof(float));
  float* gamma = (float*)AscendC::GmAlloc(H * sizeof(float));
  float* beta = (float*)AscendC::GmAlloc(H * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(ROWS * H * sizeof(float));
  float* mean = (float*)AscendC::GmAlloc(ROWS * sizeof(float));
  float* var = (float*)AscendC::GmAlloc(ROWS * sizeof(float));
  auto* tiling = (LayerNormTiling*)AscendC::GmAlloc(sizeof(LayerNormTiling));
  // The shape part of what GetLayerNormNDTilingInfo fills for x = [1, 8, 256] float and an 8 KB tmp buffer.
  tiling->bLength = 1;
  tiling->sLength = TILE_ROWS;
  tiling->hLength = H;
  tiling->originalHLength = H;
  tiling->inputXSize = TILE_ROWS * H;
  tiling->meanVarSize = TILE_ROWS;
  tiling->tmpBufSize = TMP_BYTES / sizeof(float);
  tiling->loopRound = 1;
  tiling->inputRoundSize = TILE_ROWS * H;
  tiling->meanVarRoundSize = TILE_ROWS;
  tiling->bshCurLength = TILE_ROWS * H;
  tiling->bsCurLength = TILE_ROWS;
  tiling->lastDimValueBack = 1.0f / H;
  for (int i = 0; i < ROWS * H; ++i) x[i] = 0.02f * static_cast<float>((i * 61) % 199) - 1.5f + 0.05f * (i / H);
  for (int j = 0; j < H; ++j) { gamma[j] = 1.0f - 0.001f * j; beta[j] = 0.003f * j - 0.2f; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(layer_norm_api, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)gamma, (GM_ADDR)beta, (GM_ADDR)y, (GM_ADDR)mean,
              (GM_ADDR)var, (GM_ADDR)tiling);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r) {
    const float* row = x + r * H;
    double m = 0.0, v = 0.0;
    for (int j = 0; j < H; ++j) m += row[j];
    m /= H;
    for (int j = 0; j < H; ++j) v += (row[j] - m) * (row[j] - m);
    v /= H;
    if (std::fabs(mean[r] - m) > 1e-4 * std::fabs(m) + 1e-5 || std::fabs(var[r] - v) > 1e-4 * v + 1e-6) ++bad;
    for (int j = 0; j < H; ++j) {
      double want = (row[j] - m) / std::sqrt(v + EPS) * gamma[j] + beta[j];
      if (std::fabs(y[r * H + j] - want) > 1e-4 * std::fabs(want) + 1e-4) ++bad;
    }
  }
  std::printf("layer_norm_highlevel: %d mismatches of %d\n", bad, ROWS * (H + 1));
  AscendC::GmFree(x);
  AscendC::GmFree(gamma);
  AscendC::GmFree(beta);
  AscendC::GmFree(y);
  AscendC::GmFree(mean);
  AscendC::GmFree(var);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
