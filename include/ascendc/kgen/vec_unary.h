// Elementwise unary vector APIs: Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu, Not; and Copy.
// Each has the count form and the two mask/repeat forms (bit mask, contiguous mask) with UnaryRepeatParams.
#pragma once
#include "kgen/tensor.h"

#define KGEN_VEC_UNARY(NAME)                                                                                        \
  template <typename T>                                                                                             \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,                             \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::vec_unary(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                      \
                        kgen::TensorAccess::ref(src), static_cast<uint64_t>(static_cast<int64_t>(count)), loc);     \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[], const uint8_t repeatTime,        \
            const UnaryRepeatParams& repeatParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                  \
    kgen::rt::vec_unary_rep(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                  \
                            kgen::TensorAccess::ref(src), kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), \
                            repeatTime, repeatParams, loc);                                                         \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,          \
            const UnaryRepeatParams& repeatParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                  \
    kgen::rt::vec_unary_rep(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                  \
                            kgen::TensorAccess::ref(src), kgen::rt::mask_contiguous(mask, isSetMask), repeatTime,    \
                            repeatParams, loc);                                                                     \
  }

namespace AscendC {
KGEN_VEC_UNARY(Exp)
KGEN_VEC_UNARY(Ln)
KGEN_VEC_UNARY(Abs)
KGEN_VEC_UNARY(Reciprocal)
KGEN_VEC_UNARY(Sqrt)
KGEN_VEC_UNARY(Rsqrt)
KGEN_VEC_UNARY(Relu)
KGEN_VEC_UNARY(Not)

// Copy: a UB -> UB copy on the vector unit, mask/repeat form only on Atlas A2 (the count form is Ascend 950's).
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_copy_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                         kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime,
                         repeatParams.dstStride, repeatParams.srcStride, repeatParams.dstRepeatSize,
                         repeatParams.srcRepeatSize, loc);
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_copy_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                         kgen::rt::mask_contiguous(mask, isSetMask), repeatTime, repeatParams.dstStride,
                         repeatParams.srcStride, repeatParams.dstRepeatSize, repeatParams.srcRepeatSize, loc);
}
}  // namespace AscendC
#undef KGEN_VEC_UNARY
