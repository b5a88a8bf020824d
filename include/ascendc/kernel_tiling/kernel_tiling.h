// Kernel-side tiling structs (CANN kernel_tiling/kernel_tiling.h): TCubeTiling, the Matmul tiling that the host
// fills with matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling::GetTiling. Plain data, int32 fields in
// CANN's order. SoftMaxTiling and LayerNormTiling live in kgen/adv_norm.h (one definition per struct).
#pragma once
#include <cstdint>

// X-macro of TCubeTiling's fields in CANN's order (kgen-internal: the host's optiling::TCubeTiling accessors).
#define KGEN_TCUBE_TILING_FIELDS(X)                                                                              \
  X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) X(baseK)  \
  X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size) \
  X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb)        \
  X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B) X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS)             \
  X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN)               \
  X(BLayoutInfoG) X(BLayoutInfoD) X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG)              \
  X(CLayoutInfoS2) X(BatchNum) X(mxTypePara)

namespace AscendC {
namespace tiling {
struct TCubeTiling {
#define KGEN_TCUBE_DECL(name) int32_t name = 0;
  KGEN_TCUBE_TILING_FIELDS(KGEN_TCUBE_DECL)
#undef KGEN_TCUBE_DECL
};
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::TCubeTiling;
