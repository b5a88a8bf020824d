// High-level normalisation APIs (CANN adv_api): SoftMax (ND, row-wise over the last axis) and LayerNorm ([B,S,H]
// form with mean/variance outputs), with their tiling structs.
#pragma once
#include "kgen/tensor.h"

namespace AscendC {
namespace tiling {
// Filled on the host by SoftMaxTilingFunc (CANN) or by hand; kgen's SoftMax reads srcM/srcK (when no
// SoftMaxShapeInfo is passed) and splitM/srcK to size the temporary buffer.
struct SoftMaxTiling {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t srcSize = 0;
  uint32_t outMaxM = 0;
  uint32_t outMaxK = 0;
  uint32_t outMaxSize = 0;
  uint32_t splitM = 0;
  uint32_t splitK = 0;
  uint32_t splitSize = 0;
  uint32_t reduceM = 0;
  uint32_t reduceK = 0;
  uint32_t reduceSize = 0;
  uint32_t rangeM = 0;
  uint32_t tailM = 0;
  uint32_t tailSplitSize = 0;
  uint32_t tailReduceSize = 0;
};
// Filled on the host by GetLayerNormNDTilingInfo (CANN) or by hand; kgen's LayerNorm reads bLength, sLength,
// hLength, originalHLength, tmpBufSize and lastDimValueBack.
struct LayerNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t meanTmpTensorSize = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  float lastDimValueBack = 0.0;
};
}  // namespace tiling

struct SoftMaxShapeInfo {
  uint32_t srcM;
  uint32_t srcK;
  uint32_t oriSrcM;
  uint32_t oriSrcK;
};
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0};
}  // namespace AscendC
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::LayerNormTiling;

namespace kgen::rt {
// sum/max: nullptr for the form without them; red_dt: their element type. tmp: nullptr for framework-allocated.
// cfg_m/cfg_k: SoftmaxConfig's constant oriSrcM/oriSrcK (0 when unset).
void softmax(DType dt, DType red_dt, const LocalRef& dst, const LocalRef* sum, const LocalRef* max, const LocalRef& src,
             const LocalRef* tmp, const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& shape, bool nz,
             uint32_t cfg_m, uint32_t cfg_k, Loc loc);
void layer_norm(DType dt, const LocalRef& out, const LocalRef& mean, const LocalRef& var, const LocalRef& x,
                const LocalRef& gamma, const LocalRef& beta, const LocalRef* tmp, float epsilon,
                const LayerNormTiling& tiling, bool reuse_source, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
// ---- SoftMax: framework-allocated temporary space ----
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
             kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::softmax(kgen::dtype_of<T>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),
                    &kgen::TensorAccess::ref(sumTensor), &kgen::TensorAccess::ref(maxTensor),
                    kgen::TensorAccess::ref(srcTensor), nullptr, tiling, softmaxShapeInfo, isDataFormatNZ,
                    config.oriSrcM, config.oriSrcK, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::softmax(kgen::DType::F16, kgen::DType::F32, kgen::TensorAccess::ref(dstTensor),
                    &kgen::TensorAccess::ref(sumTensor), &kgen::TensorAccess::ref(maxTensor),
                    kgen::TensorAccess::ref(srcTensor), nullptr, tiling, softmaxShapeInfo, isDataFormatNZ,
                    config.oriSrcM, config.oriSrcK, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::softmax(kgen::dtype_of<T>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), nullptr, nullptr,
                    kgen::TensorAccess::ref(srcTensor), nullptr, tiling, softmaxShapeInfo, false, config.oriSrcM,
                    config.oriSrcK, loc);
}
// ---- SoftMax: sharedTmpBuffer ----
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::softmax(kgen::dtype_of<T>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),
                    &kgen::TensorAccess::ref(sumTensor), &kgen::TensorAccess::ref(maxTensor),
                    kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), tiling,
                    softmaxShapeInfo, isDataFormatNZ, config.oriSrcM, config.oriSrcK, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::softmax(kgen::DType::F16, kgen::DType::F32, kgen::TensorAccess::ref(dstTensor),
                    &kgen::TensorAccess::ref(sumTensor), &kgen::TensorAccess::ref(maxTensor),
                    kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), tiling,
                    softmaxShapeInfo, isDataFormatNZ, config.oriSrcM, config.oriSrcK, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::softmax(kgen::dtype_of<T>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), nullptr, nullptr,
                    kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), tiling,
                    softmaxShapeInfo, false, config.oriSrcM, config.oriSrcK, loc);
}

// ---- LayerNorm, [B, S, H] form with mean and variance outputs ----
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::layer_norm(kgen::dtype_of<T>(), kgen::TensorAccess::ref(output), kgen::TensorAccess::ref(outputMean),
                       kgen::TensorAccess::ref(outputVariance), kgen::TensorAccess::ref(inputX),
                       kgen::TensorAccess::ref(gamma), kgen::TensorAccess::ref(beta),
                       &kgen::TensorAccess::ref(sharedTmpBuffer), static_cast<float>(epsilon), tiling, isReuseSource,
                       loc);
}
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::layer_norm(kgen::dtype_of<T>(), kgen::TensorAccess::ref(output), kgen::TensorAccess::ref(outputMean),
                       kgen::TensorAccess::ref(outputVariance), kgen::TensorAccess::ref(inputX),
                       kgen::TensorAccess::ref(gamma), kgen::TensorAccess::ref(beta), nullptr,
                       static_cast<float>(epsilon), tiling, isReuseSource, loc);
}
}  // namespace AscendC
