// High-level normalisation APIs (CANN adv_api), second set: RmsNorm ([B, S, H]) and LogSoftMax (ND, row-wise over the
// last axis), with their tiling structs (namespace AscendC::tiling plus a global using, as CANN's kernel_tiling.h).
#pragma once
#include "kgen/adv_norm.h"
#include "kgen/tensor.h"

namespace AscendC {
namespace tiling {
// Filled on the host by GetRmsNormTilingInfo (CANN) or by hand; kgen's RmsNorm reads bLength, sLength, hLength,
// originalHLength, reciprocalOfHLength and mainBsLength (rows per pass, which sizes the temporary buffer).
struct RmsNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  float reciprocalOfHLength = 0;
  uint32_t mainBshLength = 0;
  uint32_t mainBsLength = 0;
  uint32_t mainBsLengthAlign = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailPos = 0;
  uint32_t tailBshLength = 0;
  uint32_t tailBsLength = 0;
};
// Filled on the host by LogSoftMaxTilingFunc (CANN) or by hand; kgen's LogSoftMax reads srcM/srcK (when no
// SoftMaxShapeInfo is passed) and splitM/srcK to size the temporary buffer.
struct LogSoftMaxTiling {
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
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::LogSoftMaxTiling;

namespace kgen::rt {
// tmp: nullptr for the framework-allocated form.
void rms_norm(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& gamma, const LocalRef* tmp,
              float epsilon, const RmsNormTiling& tiling, bool basic_block, Loc loc);
void log_softmax(DType dt, const LocalRef& dst, const LocalRef& sum, const LocalRef& max, const LocalRef& src,
                 const LocalRef& tmp, const LogSoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& shape, bool nz,
                 Loc loc);
}  // namespace kgen::rt

namespace AscendC {
// ---- RmsNorm: out = x / sqrt(mean(x^2) + epsilon) * gamma over the H axis of [B, S, H] ----
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
             kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::rms_norm(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal), kgen::TensorAccess::ref(srcLocal),
                     kgen::TensorAccess::ref(gammaLocal), &kgen::TensorAccess::ref(sharedTmpBuffer),
                     static_cast<float>(epsilon), tiling, isBasicBlock, loc);
}
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const T epsilon, const RmsNormTiling& tiling, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::rms_norm(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal), kgen::TensorAccess::ref(srcLocal),
                     kgen::TensorAccess::ref(gammaLocal), nullptr, static_cast<float>(epsilon), tiling, isBasicBlock,
                     loc);
}

// ---- LogSoftMax: dst = log10(softmax(src)) row-wise, with the row sum and max broadcast over 32 bytes ----
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling,
                const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::log_softmax(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(sum),
                        kgen::TensorAccess::ref(max), kgen::TensorAccess::ref(src),
                        kgen::TensorAccess::ref(sharedTmpBuffer), tiling, softmaxShapeInfo, isDataFormatNZ, loc);
}
}  // namespace AscendC
