// SoftmaxGrad and SoftmaxGradFront (CANN adv_api activation/softmaxgrad.h): per row of the softmax output x and its
// gradient g, s = sum over the row's oriSrcK elements of g * x; SoftmaxGrad writes (g - s) * x, or with isFront (and
// SoftmaxGradFront) s broadcast over one 32-byte block per row. Computed in float; half rounds the result once.
// Without sharedTmpBuffer the space is the UB the TPipe leaves free (CANN's PopStackBuffer).
#pragma once
#include "kgen/adv_norm.h"

namespace kgen::rt {
void softmax_grad(DType dt, const LocalRef& dst, const LocalRef& grad, const LocalRef& src, const LocalRef* tmp,
                  const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& shape, bool is_front,
                  bool front_api, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                 kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: kgen emulates the ND layout only");
  kgen::rt::softmax_grad(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(gradTensor),
                         kgen::TensorAccess::ref(srcTensor), nullptr, tiling, softmaxShapeInfo, isFront, false, loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: kgen emulates the ND layout only");
  kgen::rt::softmax_grad(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(gradTensor),
                         kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), tiling,
                         softmaxShapeInfo, isFront, false, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: kgen emulates the ND layout only");
  kgen::rt::softmax_grad(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(gradTensor),
                         kgen::TensorAccess::ref(srcTensor), nullptr, tiling, softmaxShapeInfo, true, true, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                      kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: kgen emulates the ND layout only");
  kgen::rt::softmax_grad(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(gradTensor),
                         kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), tiling,
                         softmaxShapeInfo, true, true, loc);
}
}  // namespace AscendC
