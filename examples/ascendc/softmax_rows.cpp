// Row softmax written by hand: per row, ReduceMax -> V_S flag, GetValue, S_V flag -> Adds(-max) -> Exp -> ReduceSum ->
// GetValue -> Duplicate + Div; 8 cores x 16 rows x 256 floats, checked against std::exp to 1e-5 relative.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t ROWS_PER_CORE = 16;
constexpr int32_t ROWS = USE_CORE_NUM * ROWS_PER_CORE;
constexpr int32_t COLS = 256;
constexpr int32_t BUFFER_NUM = 2;

class KernelSoftmax {
 public:
  __aicore__ inline KernelSoftmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    int64_t offset = static_cast<int64_t>(ROWS_PER_CORE) * COLS * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, ROWS_PER_CORE * COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, ROWS_PER_CORE * COLS);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, COLS * sizeof(float));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, COLS * sizeof(float));
    pipe.InitBuffer(workBuf, COLS * sizeof(float));      // ReduceMax/ReduceSum shared tmp
    pipe.InitBuffer(reduceBuf, 32);                      // reduction result (one 32-byte block)
    pipe.InitBuffer(denomBuf, COLS * sizeof(float));     // the row sum broadcast for Div
  }
  __aicore__ inline void Process() {
    for (int32_t r = 0; r < ROWS_PER_CORE; r++) {
      CopyIn(r);
      Compute();
      CopyOut(r);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t row) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[row * COLS], COLS);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline float ReadResult(const AscendC::LocalTensor<float>& t) {
    // The scalar unit reads what the vector unit just wrote: wait for PIPE_V first; then make later vector
    // instructions (which use the value and rewrite t) wait for the scalar read.
    event_t eventVS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
    AscendC::SetFlag<AscendC::HardEvent::V_S>(eventVS);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventVS);
    float value = t.GetValue(0);
    event_t eventSV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(eventSV);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(eventSV);
    return value;
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::LocalTensor<float> work = workBuf.Get<float>();
    AscendC::LocalTensor<float> red = reduceBuf.Get<float>();
    AscendC::LocalTensor<float> denom = denomBuf.Get<float>();

    AscendC::ReduceMax(red, xLocal, work, COLS);
    float rowMax = ReadResult(red);
    AscendC::Adds(yLocal, xLocal, -rowMax, COLS);        // x - max: exp never overflows
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Exp(yLocal, yLocal, COLS);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum(red, yLocal, work, COLS);
    float rowSum = ReadResult(red);
    AscendC::Duplicate(denom, rowSum, COLS);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Div(yLocal, yLocal, denom, COLS);

    outQueueY.EnQue<float>(yLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(int32_t row) {
    AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
    AscendC::DataCopy(yGm[row * COLS], yLocal, COLS);
    outQueueY.FreeTensor(yLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf, reduceBuf, denomBuf;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y) {
  KernelSoftmax op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

int main() {
  float* x = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = 0.05f * static_cast<float>((i * 37) % 241) - 6.0f + (i / COLS) * 0.5f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(softmax_rows, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y);
  int bad = 0;
  for (int r = 0; r < ROWS; ++r) {
    const float* row = x + r * COLS;
    double m = row[0], s = 0.0;
    for (int c = 0; c < COLS; ++c) m = std::fmax(m, row[c]);
    for (int c = 0; c < COLS; ++c) s += std::exp(row[c] - m);
    for (int c = 0; c < COLS; ++c) {
      double want = std::exp(row[c] - m) / s;
      if (std::fabs(y[r * COLS + c] - want) > 1e-5 * want + 1e-7) ++bad;   // exp is approximate on the chip
    }
  }
  std::printf("softmax_rows: %d mismatches of %d\n", bad, ROWS * COLS);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
