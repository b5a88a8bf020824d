// Cast between precisions: float -> half (CAST_RINT), half -> float (CAST_NONE, exact), bf16 -> float (CAST_NONE,
// exact) and float -> bf16 (CAST_RINT); results must match round-to-nearest-even conversions bit for bit.
#include "kernel_operator.h"

constexpr int32_t USE_CORE_NUM = 2;
constexpr int32_t BLOCK_LENGTH = 2048;
constexpr int32_t TOTAL_LENGTH = USE_CORE_NUM * BLOCK_LENGTH;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;   // 4

class KernelCast {
 public:
  __aicore__ inline KernelCast() {}
  __aicore__ inline void Init(GM_ADDR xf, GM_ADDR xh, GM_ADDR xb, GM_ADDR f2h, GM_ADDR h2f, GM_ADDR b2f, GM_ADDR f2b) {
    int64_t offset = static_cast<int64_t>(BLOCK_LENGTH) * AscendC::GetBlockIdx();
    xfGm.SetGlobalBuffer((__gm__ float*)xf + offset, BLOCK_LENGTH);
    xhGm.SetGlobalBuffer((__gm__ half*)xh + offset, BLOCK_LENGTH);
    xbGm.SetGlobalBuffer((__gm__ bfloat16_t*)xb + offset, BLOCK_LENGTH);
    f2hGm.SetGlobalBuffer((__gm__ half*)f2h + offset, BLOCK_LENGTH);
    h2fGm.SetGlobalBuffer((__gm__ float*)h2f + offset, BLOCK_LENGTH);
    b2fGm.SetGlobalBuffer((__gm__ float*)b2f + offset, BLOCK_LENGTH);
    f2bGm.SetGlobalBuffer((__gm__ bfloat16_t*)f2b + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueF, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueH, 1, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueB, 1, TILE_LENGTH * sizeof(bfloat16_t));
    pipe.InitBuffer(outQueueF2H, 1, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(outQueueH2F, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueB2F, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueF2B, 1, TILE_LENGTH * sizeof(bfloat16_t));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM; i++) {
      AscendC::LocalTensor<float> fIn = inQueueF.AllocTensor<float>();
      AscendC::LocalTensor<half> hIn = inQueueH.AllocTensor<half>();
      AscendC::LocalTensor<bfloat16_t> bIn = inQueueB.AllocTensor<bfloat16_t>();
      AscendC::DataCopy(fIn, xfGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(hIn, xhGm[i * TILE_LENGTH], TILE_LENGTH);
      AscendC::DataCopy(bIn, xbGm[i * TILE_LENGTH], TILE_LENGTH);
      inQueueF.EnQue(fIn);
      inQueueH.EnQue(hIn);
      inQueueB.EnQue(bIn);

      fIn = inQueueF.DeQue<float>();
      hIn = inQueueH.DeQue<half>();
      bIn = inQueueB.DeQue<bfloat16_t>();
      AscendC::LocalTensor<half> f2h = outQueueF2H.AllocTensor<half>();
      AscendC::LocalTensor<float> h2f = outQueueH2F.AllocTensor<float>();
      AscendC::LocalTensor<float> b2f = outQueueB2F.AllocTensor<float>();
      AscendC::LocalTensor<bfloat16_t> f2b = outQueueF2B.AllocTensor<bfloat16_t>();
      AscendC::Cast(f2h, fIn, AscendC::RoundMode::CAST_RINT, TILE_LENGTH);
      AscendC::Cast(h2f, hIn, AscendC::RoundMode::CAST_NONE, TILE_LENGTH);
      AscendC::Cast(b2f, bIn, AscendC::RoundMode::CAST_NONE, TILE_LENGTH);
      AscendC::Cast(f2b, fIn, AscendC::RoundMode::CAST_RINT, TILE_LENGTH);
      outQueueF2H.EnQue(f2h);
      outQueueH2F.EnQue(h2f);
      outQueueB2F.EnQue(b2f);
      outQueueF2B.EnQue(f2b);
      inQueueF.FreeTensor(fIn);
      inQueueH.FreeTensor(hIn);
      inQueueB.FreeTensor(bIn);

      f2h = outQueueF2H.DeQue<half>();
      h2f = outQueueH2F.DeQue<float>();
      b2f = outQueueB2F.DeQue<float>();
      f2b = outQueueF2B.DeQue<bfloat16_t>();
      AscendC::DataCopy(f2hGm[i * TILE_LENGTH], f2h, TILE_LENGTH);
      AscendC::DataCopy(h2fGm[i * TILE_LENGTH], h2f, TILE_LENGTH);
      AscendC::DataCopy(b2fGm[i * TILE_LENGTH], b2f, TILE_LENGTH);
      AscendC::DataCopy(f2bGm[i * TILE_LENGTH], f2b, TILE_LENGTH);
      outQueueF2H.FreeTensor(f2h);
      outQueueH2F.FreeTensor(h2f);
      outQueueB2F.FreeTensor(b2f);
      outQueueF2B.FreeTensor(f2b);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueF, inQueueH, inQueueB;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueF2H, outQueueH2F, outQueueB2F, outQueueF2B;
  AscendC::GlobalTensor<float> xfGm, h2fGm, b2fGm;
  AscendC::GlobalTensor<half> xhGm, f2hGm;
  AscendC::GlobalTensor<bfloat16_t> xbGm, f2bGm;
};

extern "C" __global__ __aicore__ void cast_precision(GM_ADDR xf, GM_ADDR xh, GM_ADDR xb, GM_ADDR f2h, GM_ADDR h2f,
                                                     GM_ADDR b2f, GM_ADDR f2b) {
  KernelCast op;
  op.Init(xf, xh, xb, f2h, h2f, b2f, f2b);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

static bool same_bits(const void* a, const void* b, size_t n) { return std::memcmp(a, b, n) == 0; }

int main() {
  const int n = TOTAL_LENGTH;
  float* xf = (float*)AscendC::GmAlloc(n * sizeof(float));
  half* xh = (half*)AscendC::GmAlloc(n * sizeof(half));
  bfloat16_t* xb = (bfloat16_t*)AscendC::GmAlloc(n * sizeof(bfloat16_t));
  half* f2h = (half*)AscendC::GmAlloc(n * sizeof(half));
  float* h2f = (float*)AscendC::GmAlloc(n * sizeof(float));
  float* b2f = (float*)AscendC::GmAlloc(n * sizeof(float));
  bfloat16_t* f2b = (bfloat16_t*)AscendC::GmAlloc(n * sizeof(bfloat16_t));
  for (int i = 0; i < n; ++i) {
    // values with more mantissa bits than half/bf16 keep, including ties and large magnitudes
    xf[i] = (static_cast<float>((i * 7919) % 20001) - 10000.0f) * 0.0123457f;
    xh[i] = half(0.001f * (i % 4001) - 2.0f);
    xb[i] = bfloat16_t(static_cast<float>((i * 131) % 1001) * 0.37f - 185.0f);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(cast_precision, USE_CORE_NUM, (GM_ADDR)xf, (GM_ADDR)xh, (GM_ADDR)xb, (GM_ADDR)f2h, (GM_ADDR)h2f,
              (GM_ADDR)b2f, (GM_ADDR)f2b);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    half wantH(xf[i]);                              // round to nearest even
    float wantHF = static_cast<float>(xh[i]);       // widening is exact
    float wantBF = static_cast<float>(xb[i]);
    bfloat16_t wantB(xf[i]);
    if (!same_bits(&f2h[i], &wantH, sizeof(half))) ++bad;
    if (h2f[i] != wantHF) ++bad;
    if (b2f[i] != wantBF) ++bad;
    if (!same_bits(&f2b[i], &wantB, sizeof(bfloat16_t))) ++bad;
  }
  std::printf("cast_precision: %d mismatches of %d\n", bad, 4 * n);
  AscendC::GmFree(xf);
  AscendC::GmFree(xh);
  AscendC::GmFree(xb);
  AscendC::GmFree(f2h);
  AscendC::GmFree(h2f);
  AscendC::GmFree(b2f);
  AscendC::GmFree(f2b);
  return bad == 0 ? 0 : 1;
}
#endif
