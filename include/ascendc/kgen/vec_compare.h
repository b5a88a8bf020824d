// Compare, CompareScalar (bit-mask results, LSB first), Select (SELMODE 0/1/2) and the comparison operator forms
// `dst = src0 < src1` (whole tensor).
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
void vec_compare(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, const LocalRef& src1,
                 AscendC::CMPMODE mode, uint64_t count, Loc loc);
void vec_compare_rep(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, const LocalRef& src1,
                     AscendC::CMPMODE mode, const MaskArg& mask, uint8_t repeat, const AscendC::BinaryRepeatParams& p,
                     Loc loc);
void vec_compare_scalar(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, Scalar s,
                        AscendC::CMPMODE mode, uint64_t count, Loc loc);
void vec_compare_scalar_rep(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, Scalar s,
                            AscendC::CMPMODE mode, const MaskArg& mask, uint8_t repeat,
                            const AscendC::UnaryRepeatParams& p, Loc loc);
// src1 == nullptr: the scalar form (s1).
void vec_select(DType dt, DType dt_mask, const LocalRef& dst, const LocalRef& sel, const LocalRef& src0,
                const LocalRef* src1, Scalar s1, AscendC::SELMODE mode, uint64_t count, Loc loc);
void vec_select_rep(DType dt, DType dt_mask, const LocalRef& dst, const LocalRef& sel, const LocalRef& src0,
                    const LocalRef* src1, Scalar s1, AscendC::SELMODE mode, const MaskArg& mask, uint8_t repeat,
                    const AscendC::BinaryRepeatParams& p, Loc loc);
}  // namespace kgen::rt

namespace kgen {
// `src0 < src1` etc.: evaluated when assigned to the result tensor.
template <class T> struct CmpExpr {
  rt::LocalRef a, b;
  AscendC::CMPMODE mode;
  rt::Loc loc;
};
template <class T> struct CmpOperandType { using type = T; };
template <class T> void cmp_assign(DType dt_dst, const rt::LocalRef& dst, const CmpExpr<T>& e) {
  rt::vec_compare(dt_dst, dtype_of<T>(), dst, e.a, e.b, e.mode, e.a.len / sizeof(T), e.loc);
}
}  // namespace kgen

namespace AscendC {
// ---- Compare ----
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             uint32_t count, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_compare(kgen::dtype_of<U>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                        kgen::TensorAccess::ref(src0), kgen::TensorAccess::ref(src1), cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
             kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_compare_rep(kgen::dtype_of<U>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                            kgen::TensorAccess::ref(src0), kgen::TensorAccess::ref(src1), cmpMode,
                            kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
             kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_compare_rep(kgen::dtype_of<U>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                            kgen::TensorAccess::ref(src0), kgen::TensorAccess::ref(src1), cmpMode,
                            kgen::rt::mask_contiguous(mask, isSetMask), repeatTime, repeatParams, loc);
}

// ---- whole-tensor operator forms: dst = src0 < src1 ----
#define KGEN_CMP_OP(OP, MODE)                                                                                    \
  template <typename T>                                                                                          \
  kgen::CmpExpr<T> operator OP(const LocalTensor<T>& src0,                                                       \
                               const kgen::LocOperand<typename kgen::CmpOperandType<T>::type>& src1) {           \
    return {kgen::TensorAccess::ref(src0), src1.r, CMPMODE::MODE, src1.loc};                                     \
  }
KGEN_CMP_OP(<, LT)
KGEN_CMP_OP(>, GT)
KGEN_CMP_OP(<=, LE)
KGEN_CMP_OP(>=, GE)
KGEN_CMP_OP(==, EQ)
KGEN_CMP_OP(!=, NE)
#undef KGEN_CMP_OP

// ---- CompareScalar ----
template <typename T, typename U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   uint32_t count, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_compare_scalar(kgen::dtype_of<U>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                               kgen::TensorAccess::ref(src0), kgen::rt::scalar_of<T>(src1Scalar), cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                   kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_compare_scalar_rep(kgen::dtype_of<U>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                                   kgen::TensorAccess::ref(src0), kgen::rt::scalar_of<T>(src1Scalar), cmpMode,
                                   kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime,
                                   repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                   kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_compare_scalar_rep(kgen::dtype_of<U>(), kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                                   kgen::TensorAccess::ref(src0), kgen::rt::scalar_of<T>(src1Scalar), cmpMode,
                                   kgen::rt::mask_contiguous(mask, isSetMask), repeatTime, repeatParams, loc);
}

// ---- Select ----
// count forms: mode 1 (tensor, scalar) and modes 0/2 (tensor, tensor)
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint32_t count, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_select(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                       kgen::TensorAccess::ref(selMask), kgen::TensorAccess::ref(src0), nullptr,
                       kgen::rt::scalar_of<T>(src1), selMode, count, loc);
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_select(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                       kgen::TensorAccess::ref(selMask), kgen::TensorAccess::ref(src0),
                       &kgen::TensorAccess::ref(src1), kgen::rt::Scalar{}, selMode, count, loc);
}
// mask/repeat forms, mode 1
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_select_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                           kgen::TensorAccess::ref(selMask), kgen::TensorAccess::ref(src0), nullptr,
                           kgen::rt::scalar_of<T>(src1), selMode, kgen::rt::mask_bits(mask, true, kgen::dtype_of<T>()),
                           repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_select_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                           kgen::TensorAccess::ref(selMask), kgen::TensorAccess::ref(src0), nullptr,
                           kgen::rt::scalar_of<T>(src1), selMode, kgen::rt::mask_contiguous(mask, true), repeatTime,
                           repeatParams, loc);
}
// mask/repeat forms, modes 0 and 2
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_select_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                           kgen::TensorAccess::ref(selMask), kgen::TensorAccess::ref(src0),
                           &kgen::TensorAccess::ref(src1), kgen::rt::Scalar{}, selMode,
                           kgen::rt::mask_bits(mask, true, kgen::dtype_of<T>()), repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_select_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                           kgen::TensorAccess::ref(selMask), kgen::TensorAccess::ref(src0),
                           &kgen::TensorAccess::ref(src1), kgen::rt::Scalar{}, selMode,
                           kgen::rt::mask_contiguous(mask, true), repeatTime, repeatParams, loc);
}
}  // namespace AscendC
