// The Broadcast high-level API (CANN docs: 高阶API/张量变换/Broadcast): a [m, 1] tensor to [m, k], a [1, k] one to
// [m, k], a [1] one to [k]; `BroadCast` is the name older CANN releases gave it, which NPUKernelBench answers call.
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
void adv_broadcast(DType dt, const LocalRef& dst, const LocalRef& src, const uint32_t* dst_shape,
                   const uint32_t* src_shape, int32_t dim, int32_t axis, const LocalRef* tmp, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert((dim == 1 || dim == 2) && (axis == 0 || axis == 1), "Broadcast: dim is 1 or 2, axis 0 or 1");
  kgen::rt::adv_broadcast(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal), kgen::TensorAccess::ref(srcLocal),
                          dstShape, srcShape, dim, axis, &kgen::TensorAccess::ref(sharedTmpBuffer), loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert((dim == 1 || dim == 2) && (axis == 0 || axis == 1), "Broadcast: dim is 1 or 2, axis 0 or 1");
  kgen::rt::adv_broadcast(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal), kgen::TensorAccess::ref(srcLocal),
                          dstShape, srcShape, dim, axis, nullptr, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, loc);
}
}  // namespace AscendC
