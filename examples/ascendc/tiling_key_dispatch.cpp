// A kernel that takes its tiling as a GM blob (GET_TILING_DATA with a POD struct registered by
// REGISTER_TILING_DEFAULT) and picks its code path with TILING_KEY_IS, the key set by ICPU_SET_TILING_KEY.
#include "kernel_operator.h"

struct ScaleAddTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  float alpha;
};
REGISTER_TILING_DEFAULT(ScaleAddTiling);

constexpr int32_t USE_CORE_NUM = 4;

class KernelScaleAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ScaleAddTiling& t) {
    blockLength = t.totalLength / AscendC::GetBlockNum();
    tileLength = t.tileLength;
    alpha = t.alpha;
    uint64_t offset = blockLength * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + offset, blockLength);
    pipe.InitBuffer(inX, 2, tileLength * sizeof(float));
    pipe.InitBuffer(inY, 2, tileLength * sizeof(float));
    pipe.InitBuffer(outZ, 2, tileLength * sizeof(float));
  }
  // key 1: z = x + y;  key 2: z = alpha * x + y
  template <bool SCALED> __aicore__ inline void Process() {
    for (uint32_t i = 0; i < blockLength / tileLength; ++i) {
      AscendC::LocalTensor<float> x = inX.AllocTensor<float>();
      AscendC::LocalTensor<float> y = inY.AllocTensor<float>();
      AscendC::DataCopy(x, xGm[i * tileLength], tileLength);
      AscendC::DataCopy(y, yGm[i * tileLength], tileLength);
      inX.EnQue(x);
      inY.EnQue(y);
      x = inX.DeQue<float>();
      y = inY.DeQue<float>();
      AscendC::LocalTensor<float> z = outZ.AllocTensor<float>();
      if constexpr (SCALED) {
        AscendC::Muls(z, x, alpha, tileLength);
        AscendC::Add(z, z, y, tileLength);
      } else {
        AscendC::Add(z, x, y, tileLength);
      }
      outZ.EnQue(z);
      inX.FreeTensor(x);
      inY.FreeTensor(y);
      z = outZ.DeQue<float>();
      AscendC::DataCopy(zGm[i * tileLength], z, tileLength);
      outZ.FreeTensor(z);
    }
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inX, inY;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  uint32_t blockLength = 0, tileLength = 0;
  float alpha = 0;
};

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(tilingData, tiling);
  KernelScaleAdd op;
  op.Init(x, y, z, tilingData);
  if (TILING_KEY_IS(1)) {
    op.Process<false>();
  } else if (TILING_KEY_IS(2)) {
    op.Process<true>();
  }
}

#ifdef ASCENDC_CPU_DEBUG
#include <cmath>
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

int main() {
  const uint32_t n = USE_CORE_NUM * 4 * 256;
  ScaleAddTiling t{n, 256, 0.75f};
  float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
  float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
  float* z = (float*)AscendC::GmAlloc(n * sizeof(float));
  uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(sizeof t);
  std::memcpy(tiling, &t, sizeof t);
  for (uint32_t i = 0; i < n; ++i) { x[i] = 0.25f * (i % 97); y[i] = 3.0f - 0.5f * (i % 13); }
  int bad = 0;
  for (uint64_t key = 1; key <= 2; ++key) {
    std::memset(z, 0, n * sizeof(float));
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(scale_add, USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)nullptr, tiling);
    for (uint32_t i = 0; i < n; ++i) {
      float want = key == 1 ? x[i] + y[i] : t.alpha * x[i] + y[i];
      if (std::fabs(z[i] - want) > 1e-6f) ++bad;
    }
  }
  std::printf("tiling_key_dispatch: %d mismatches of %u (keys 1 and 2)\n", bad, 2 * n);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
