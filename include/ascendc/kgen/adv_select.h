// SelectWithBytesMask (CANN docs: 高阶API/数据过滤/Select; the newer name Select takes the same arguments): each
// element from the tensor operand where its byte-wide mask element is 0 (or, scalar first, where it is not) and the
// scalar elsewhere; mask rows of maskLastAxis elements, of which the first srcLastAxis count.
#pragma once
#include "kgen/tensor.h"

namespace AscendC {
struct SelectWithBytesMaskShapeInfo {
  SelectWithBytesMaskShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};
}  // namespace AscendC

namespace kgen::rt {
// scalar_first: the (dst, T src0, LocalTensor src1, ...) form, which takes the scalar where the mask is 0.
void adv_select_bytes_mask(DType dt, DType mask_dt, const LocalRef& dst, const LocalRef& src, Scalar scalar,
                           bool scalar_first, const LocalRef& mask, const LocalRef& tmp, uint32_t first_axis,
                           uint32_t src_last, uint32_t mask_last, bool reuse_mask, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                         const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
                         kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_select_bytes_mask(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                                  kgen::TensorAccess::ref(src0), kgen::rt::scalar_of<T>(src1), false,
                                  kgen::TensorAccess::ref(mask), kgen::TensorAccess::ref(sharedTmpBuffer),
                                  info.firstAxis, info.srcLastAxis, info.maskLastAxis, isReuseMask, loc);
}
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                         const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
                         kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_select_bytes_mask(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                                  kgen::TensorAccess::ref(src1), kgen::rt::scalar_of<T>(src0), true,
                                  kgen::TensorAccess::ref(mask), kgen::TensorAccess::ref(sharedTmpBuffer),
                                  info.firstAxis, info.srcLastAxis, info.maskLastAxis, isReuseMask, loc);
}
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}
}  // namespace AscendC
