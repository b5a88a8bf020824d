// LayerNorm written by hand over rows of 256 floats: mean and variance by ReduceSum, centring with Adds, std by
// Sqrt on a broadcast value, then Div, Mul(gamma), Add(beta); 8 cores x 16 rows, checked to 1e-4 against double.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t ROWS_PER_CORE = 16;
constexpr int32_t ROWS = USE_CORE_NUM * ROWS_PER_CORE;
constexpr int32_t H = 256;
constexpr float EPS = 1e-5f;
constexpr int32_t BUFFER_NUM = 2;

class KernelLayerNorm {
 public:
  __aicore__ inline KernelLayerNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y) {
    int64_t offset = static_cast<int64_t>(ROWS_PER_CORE) * H * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, ROWS_PER_CORE * H);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, ROWS_PER_CORE * H);
    gammaGm.SetGlobalBuffer((__gm__ float*)gamma, H);
    betaGm.SetGlobalBuffer((__gm__ float*)beta, H);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, H * sizeof(float));
    pipe.InitBuffer(inQueueParams, 1, 2 * H * sizeof(float));   // gamma | beta
    pipe.InitBuffer(outQueueY, BUFFER_NUM, H * sizeof(float));
    pipe.InitBuffer(workBuf, H * sizeof(float));
    pipe.InitBuffer(sqBuf, H * sizeof(float));
    pipe.InitBuffer(reduceBuf, 32);
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> params = inQueueParams.AllocTensor<float>();
    AscendC::DataCopy(params, gammaGm, H);
    AscendC::DataCopy(params[H], betaGm, H);
    inQueueParams.EnQue(params);
    params = inQueueParams.DeQue<float>();
    for (int32_t r = 0; r < ROWS_PER_CORE; r++) {
      AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      AscendC::DataCopy(xLocal, xGm[r * H], H);
      inQueueX.EnQue(xLocal);
      Compute(params);
      AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
      AscendC::DataCopy(yGm[r * H], yLocal, H);
      outQueueY.FreeTensor(yLocal);
    }
    inQueueParams.FreeTensor(params);
  }

 private:
  __aicore__ inline float ReadResult(const AscendC::LocalTensor<float>& t) {
    event_t eventVS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
    AscendC::SetFlag<AscendC::HardEvent::V_S>(eventVS);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventVS);
    float value = t.GetValue(0);
    event_t eventSV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(eventSV);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(eventSV);
    return value;
  }
  __aicore__ inline void Compute(const AscendC::LocalTensor<float>& params) {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::LocalTensor<float> work = workBuf.Get<float>();
    AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
    AscendC::LocalTensor<float> red = reduceBuf.Get<float>();
    const float invH = 1.0f / H;

    AscendC::ReduceSum(red, xLocal, work, H);
    float mean = ReadResult(red) * invH;
    AscendC::Adds(yLocal, xLocal, -mean, H);                  // centred row
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Mul(sq, yLocal, yLocal, H);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum(red, sq, work, H);
    float variance = ReadResult(red) * invH;
    AscendC::Duplicate(red, variance + EPS, 8);               // one block holding var + eps
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Sqrt(red, red, 8);
    float stddev = ReadResult(red);
    AscendC::Duplicate(sq, stddev, H);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Div(yLocal, yLocal, sq, H);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Mul(yLocal, yLocal, params, H);                  // * gamma
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Add(yLocal, yLocal, params[H], H);               // + beta

    outQueueY.EnQue<float>(yLocal);
    inQueueX.FreeTensor(xLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueParams;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf, sqBuf, reduceBuf;
  AscendC::GlobalTensor<float> xGm, gammaGm, betaGm, yGm;
};

extern "C" __global__ __aicore__ void layer_norm_rows(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y) {
  KernelLayerNorm op;
  op.Init(x, gamma, beta, y);
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
  for (int i = 0; i < ROWS * H; ++i) x[i] = 0.01f * static_cast<float>((i * 53) % 307) + 0.1f * (i / H) - 2.0f;
  for (int j = 0; j < H; ++j) { gamma[j] = 0.5f + 0.004f * j; beta[j] = 0.25f - 0.002f * j; }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(layer_norm_rows, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)gamma, (GM_ADDR)beta, (GM_ADDR)y);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r) {
    const float* row = x + r * H;
    double mean = 0.0, var = 0.0;
    for (int j = 0; j < H; ++j) mean += row[j];
    mean /= H;
    for (int j = 0; j < H; ++j) var += (row[j] - mean) * (row[j] - mean);
    var /= H;
    for (int j = 0; j < H; ++j) {
      double want = (row[j] - mean) / std::sqrt(var + EPS) * gamma[j] + beta[j];
      if (std::fabs(y[r * H + j] - want) > 1e-4 * std::fabs(want) + 1e-4) ++bad;
    }
  }
  std::printf("layer_norm_rows: %d mismatches of %d\n", bad, ROWS * H);
  AscendC::GmFree(x);
  AscendC::GmFree(gamma);
  AscendC::GmFree(beta);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
