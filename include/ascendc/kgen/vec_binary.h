// Elementwise binary vector APIs: Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu, SubRelu, and the two that also read
// dst: FusedMulAdd (dst = src0 * dst + src1) and MulAddDst (dst = src0 * src1 + dst).
// Each has the count form and the two mask/repeat forms (contiguous mask, bit mask).
#pragma once
#include "kgen/tensor.h"

#define KGEN_VEC_BINARY(NAME)                                                                                       \
  template <typename T>                                                                                             \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count, \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::vec_binary(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                     \
                         kgen::TensorAccess::ref(src0), kgen::TensorAccess::ref(src1),                               \
                         static_cast<uint64_t>(static_cast<int64_t>(count)), loc);                                  \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask[],      \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,                                      \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::vec_binary_rep(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                 \
                             kgen::TensorAccess::ref(src0), kgen::TensorAccess::ref(src1),                           \
                             kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime, repeatParams, loc); \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask,        \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,                                      \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::vec_binary_rep(kgen::rt::VOp::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                 \
                             kgen::TensorAccess::ref(src0), kgen::TensorAccess::ref(src1),                           \
                             kgen::rt::mask_contiguous(mask, isSetMask), repeatTime, repeatParams, loc);            \
  }

namespace AscendC {
KGEN_VEC_BINARY(Add)
KGEN_VEC_BINARY(Sub)
KGEN_VEC_BINARY(Mul)
KGEN_VEC_BINARY(Div)
KGEN_VEC_BINARY(Max)
KGEN_VEC_BINARY(Min)
KGEN_VEC_BINARY(And)
KGEN_VEC_BINARY(Or)
KGEN_VEC_BINARY(AddRelu)
KGEN_VEC_BINARY(SubRelu)
KGEN_VEC_BINARY(FusedMulAdd)
KGEN_VEC_BINARY(MulAddDst)
}  // namespace AscendC
#undef KGEN_VEC_BINARY
