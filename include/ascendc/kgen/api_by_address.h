// CANN's exact prototypes of the elementwise APIs, for kernels that take their address: NPUKernelBench's Foreach
// kernels pass `Adds`, `Div`, `Acos<float, false>`... as a template argument of type
// `void (*)(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&)`. kgen's APIs carry a trailing
// source-location parameter, so their function types differ; these overloads have CANN's types and forward to them.
// Their count (or mask) parameter is a deduced type constrained to CANN's, so in a call the API with the source
// location stays the more specialised overload and is chosen; only a conversion to a function type picks these.
// Diagnostics raised through them name no kernel line (diagnostics.cpp says "called through a function pointer").
#pragma once
#include <concepts>
#include <cstdint>

#include "kgen/adv_math.h"
#include "kgen/adv_math2.h"
#include "kgen/vec_binary.h"
#include "kgen/vec_scalar.h"
#include "kgen/vec_unary.h"

// (dst, src, const int32_t& count)
#define KGEN_BY_ADDRESS_UNARY(NAME)                                                                              \
  template <typename T, typename C>                                                                              \
    requires std::same_as<C, int32_t>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const C& count) {                              \
    NAME<T>(dst, src, count);                                                                                    \
  }
// (dst, src0, src1, const int32_t& count) and (dst, src0, src1, uint64_t mask, repeatTime, BinaryRepeatParams)
#define KGEN_BY_ADDRESS_BINARY(NAME)                                                                             \
  template <typename T, typename C>                                                                              \
    requires std::same_as<C, int32_t>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const C& count) {  \
    NAME<T>(dst, src0, src1, count);                                                                             \
  }                                                                                                              \
  template <typename T, bool isSetMask = true, typename M>                                                       \
    requires std::same_as<M, uint64_t>                                                                           \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, M mask,            \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {                                  \
    NAME<T, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams);                                         \
  }
// (dst, src, const T& scalarValue, const int32_t& count)
#define KGEN_BY_ADDRESS_SCALAR(NAME)                                                                             \
  template <typename T, bool isSetMask = true, typename C>                                                       \
    requires std::same_as<C, int32_t>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const C& count) {         \
    NAME<T, isSetMask>(dst, src, scalarValue, count);                                                            \
  }
// High-level math: (dst, src, const uint32_t calCount)
#define KGEN_BY_ADDRESS_ADV(NAME)                                                                                \
  template <typename T, bool isReuseSource = false, typename C>                                                  \
    requires std::same_as<C, uint32_t>                                                                           \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, C calCount) {                      \
    NAME<T, isReuseSource>(dstTensor, srcTensor, calCount);                                                      \
  }

namespace AscendC {
KGEN_BY_ADDRESS_UNARY(Exp)
KGEN_BY_ADDRESS_UNARY(Ln)
KGEN_BY_ADDRESS_UNARY(Abs)
KGEN_BY_ADDRESS_UNARY(Reciprocal)
KGEN_BY_ADDRESS_UNARY(Sqrt)
KGEN_BY_ADDRESS_UNARY(Rsqrt)
KGEN_BY_ADDRESS_UNARY(Relu)
KGEN_BY_ADDRESS_UNARY(Not)
KGEN_BY_ADDRESS_BINARY(Add)
KGEN_BY_ADDRESS_BINARY(Sub)
KGEN_BY_ADDRESS_BINARY(Mul)
KGEN_BY_ADDRESS_BINARY(Div)
KGEN_BY_ADDRESS_BINARY(Max)
KGEN_BY_ADDRESS_BINARY(Min)
KGEN_BY_ADDRESS_BINARY(And)
KGEN_BY_ADDRESS_BINARY(Or)
KGEN_BY_ADDRESS_BINARY(AddRelu)
KGEN_BY_ADDRESS_BINARY(SubRelu)
KGEN_BY_ADDRESS_SCALAR(Adds)
KGEN_BY_ADDRESS_SCALAR(Muls)
KGEN_BY_ADDRESS_SCALAR(Maxs)
KGEN_BY_ADDRESS_SCALAR(Mins)
KGEN_BY_ADDRESS_SCALAR(LeakyRelu)
KGEN_BY_ADDRESS_SCALAR(ShiftLeft)
KGEN_BY_ADDRESS_SCALAR(ShiftRight)
KGEN_BY_ADDRESS_ADV(Sigmoid)
KGEN_BY_ADDRESS_ADV(Tanh)
KGEN_BY_ADDRESS_ADV(Erf)
KGEN_BY_ADDRESS_ADV(Erfc)
KGEN_BY_ADDRESS_ADV(Sin)
KGEN_BY_ADDRESS_ADV(Cos)
KGEN_BY_ADDRESS_ADV(Tan)
KGEN_BY_ADDRESS_ADV(Asin)
KGEN_BY_ADDRESS_ADV(Acos)
KGEN_BY_ADDRESS_ADV(Atan)
KGEN_BY_ADDRESS_ADV(Sinh)
KGEN_BY_ADDRESS_ADV(Cosh)
KGEN_BY_ADDRESS_ADV(Log)
KGEN_BY_ADDRESS_ADV(Log2)
KGEN_BY_ADDRESS_ADV(Log10)
KGEN_BY_ADDRESS_ADV(Floor)
KGEN_BY_ADDRESS_ADV(Ceil)
KGEN_BY_ADDRESS_ADV(Round)
KGEN_BY_ADDRESS_ADV(Trunc)
KGEN_BY_ADDRESS_ADV(Sign)
}  // namespace AscendC
#undef KGEN_BY_ADDRESS_UNARY
#undef KGEN_BY_ADDRESS_BINARY
#undef KGEN_BY_ADDRESS_SCALAR
#undef KGEN_BY_ADDRESS_ADV
