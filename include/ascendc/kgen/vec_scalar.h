// Tensor-scalar vector APIs: Adds, Muls, Maxs, Mins, LeakyRelu, ShiftLeft, ShiftRight.
// Each has CANN's two prototype families: `const T& scalarValue` and `const U& scalarValue` with U == T enforced
// (the TensorTrait family), in the count form and the two mask/repeat forms with UnaryRepeatParams.
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
// Count form called with isSetMask = false: the element count is the one set by SetMaskCount + SetVectorMask.
uint64_t vec_external_count(VOp op, Loc loc);
// ShiftRight's mask/repeat form with roundEn.
void vec_shift_right_rep(DType dt, const LocalRef& dst, const LocalRef& src, Scalar s, const MaskArg& mask,
                         uint8_t repeat, const AscendC::UnaryRepeatParams& p, bool roundEn, Loc loc);
}  // namespace kgen::rt

#define KGEN_VS_COUNT(NAME, TPARAMS, ST)                                                                              \
  template <TPARAMS>                                                                                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ST& scalarValue, const int32_t& count,        \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                          \
    uint64_t n = isSetMask ? static_cast<uint64_t>(static_cast<int64_t>(count))                                       \
                           : kgen::rt::vec_external_count(kgen::rt::VOp::NAME, loc);                                  \
    kgen::rt::vec_scalar(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                      \
                         kgen::TensorAccess::ref(src), kgen::rt::scalar_of<T>(scalarValue), n, loc);                  \
  }

#define KGEN_VS_REP(NAME, TPARAMS, ST)                                                                                \
  template <TPARAMS>                                                                                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ST& scalarValue, uint64_t mask[],             \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,                                         \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                          \
    kgen::rt::vec_scalar_rep(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                  \
                             kgen::TensorAccess::ref(src), kgen::rt::scalar_of<T>(scalarValue),                       \
                             kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime, repeatParams,     \
                             loc);                                                                                   \
  }                                                                                                                  \
  template <TPARAMS>                                                                                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ST& scalarValue, uint64_t mask,               \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,                                         \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                          \
    kgen::rt::vec_scalar_rep(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                  \
                             kgen::TensorAccess::ref(src), kgen::rt::scalar_of<T>(scalarValue),                       \
                             kgen::rt::mask_contiguous(mask, isSetMask), repeatTime, repeatParams, loc);              \
  }

#define KGEN_VS_TPARAMS typename T, bool isSetMask = true
#define KGEN_VS_UPARAMS \
  typename T, typename U, bool isSetMask = true, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true

#define KGEN_VEC_SCALAR(NAME)                        \
  KGEN_VS_COUNT(NAME, KGEN_VS_TPARAMS, T)            \
  KGEN_VS_REP(NAME, KGEN_VS_TPARAMS, T)              \
  KGEN_VS_COUNT(NAME, KGEN_VS_UPARAMS, U)            \
  KGEN_VS_REP(NAME, KGEN_VS_UPARAMS, U)

namespace AscendC {
KGEN_VEC_SCALAR(Adds)
KGEN_VEC_SCALAR(Muls)
KGEN_VEC_SCALAR(Maxs)
KGEN_VEC_SCALAR(Mins)
KGEN_VEC_SCALAR(LeakyRelu)
KGEN_VEC_SCALAR(ShiftLeft)

// ShiftRight: the mask/repeat forms take roundEn (defaulted only in the `const T&` family, as in CANN).
KGEN_VS_COUNT(ShiftRight, KGEN_VS_TPARAMS, T)
KGEN_VS_COUNT(ShiftRight, KGEN_VS_UPARAMS, U)
template <typename T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask[],
                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn = false,
                kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_shift_right_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                                kgen::rt::scalar_of<T>(scalarValue),
                                kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime, repeatParams,
                                roundEn, loc);
}
template <typename T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,
                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn = false,
                kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_shift_right_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                                kgen::rt::scalar_of<T>(scalarValue), kgen::rt::mask_contiguous(mask, isSetMask),
                                repeatTime, repeatParams, roundEn, loc);
}
template <KGEN_VS_UPARAMS>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, uint64_t mask[],
                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn,
                kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_shift_right_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                                kgen::rt::scalar_of<T>(scalarValue),
                                kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime, repeatParams,
                                roundEn, loc);
}
template <KGEN_VS_UPARAMS>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, uint64_t mask,
                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn,
                kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_shift_right_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                                kgen::rt::scalar_of<T>(scalarValue), kgen::rt::mask_contiguous(mask, isSetMask),
                                repeatTime, repeatParams, roundEn, loc);
}
}  // namespace AscendC
#undef KGEN_VEC_SCALAR
#undef KGEN_VS_COUNT
#undef KGEN_VS_REP
#undef KGEN_VS_TPARAMS
#undef KGEN_VS_UPARAMS
