// High-level reduce APIs with a pattern (CANN adv_api): ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd,
// ReduceAny, ReduceAll as `Api<T, Pattern::Reduce::AR | RA, isReuseSource>(dst, src, [tmp,] srcShape, srcInnerPad)`
// over a 2-D source whose inner axis is padded to 32 bytes.
//
// These coexist with the basic ReduceSum/ReduceMax/ReduceMin<T>(dst, src, sharedTmpBuffer, count ...) of
// kgen/vec_reduce.h as in CANN: the basic templates take one type parameter (plus a bool), so a call naming a pattern
// type cannot match them, and the pattern cannot be deduced, so a call without it cannot match these.
#pragma once
#include <type_traits>

#include "kgen/tensor.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
// R = reduce axis, A = kept axis, one letter per dimension. The APIs below support AR and RA (CANN's static check).
struct R {};
struct RA {};
struct AR {};
struct ARA {};
struct ARAR {};
struct ARARA {};
struct ARARAR {};
struct ARARARA {};
struct ARARARAR {};
struct ARARARARA {};
struct RAR {};
struct RARA {};
struct RARAR {};
struct RARARA {};
struct RARARAR {};
struct RARARARA {};
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace kgen {
// 0 for AR, 1 for RA, -1 for the patterns these APIs do not take.
template <class P> constexpr int reduce_pattern_id() {
  if constexpr (std::is_same_v<P, AscendC::Pattern::Reduce::AR>) return 0;
  else if constexpr (std::is_same_v<P, AscendC::Pattern::Reduce::RA>) return 1;
  else return -1;
}
}  // namespace kgen

namespace kgen::rt {
enum class AdvRed : uint8_t { Sum, Mean, Max, Min, Prod, Any, All };
// shape: srcShape[0..1] = {first, last}; ra: pattern RA (reduce the first axis) instead of AR. tmp: nullptr for the
// framework-allocated form.
void adv_reduce(AdvRed op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, const uint32_t* shape,
                bool inner_pad, bool ra, bool reuse_source, Loc loc);
void adv_mean(DType dt, bool acc_float, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint32_t outter,
              uint32_t inner, uint32_t n, Loc loc);
void adv_sum(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint32_t outter, uint32_t inner,
             uint32_t n, Loc loc);
}  // namespace kgen::rt

#define KGEN_ADV_REDUCE(NAME, OP)                                                                                    \
  template <class T, class pattern, bool isReuseSource = false>                                                     \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            const uint32_t srcShape[], bool srcInnerPad, kgen::rt::Loc loc = kgen::rt::Loc::current()) {            \
    static_assert(kgen::reduce_pattern_id<pattern>() >= 0,                                                          \
                  #NAME ": failed to check the reduce pattern, it only supports AR/RA pattern!");                   \
    kgen::rt::adv_reduce(kgen::rt::AdvRed::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),              \
                         kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), srcShape,    \
                         srcInnerPad, kgen::reduce_pattern_id<pattern>() == 1, isReuseSource, loc);                 \
  }                                                                                                                 \
  template <class T, class pattern, bool isReuseSource = false>                                                     \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[],             \
            bool srcInnerPad, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                       \
    static_assert(kgen::reduce_pattern_id<pattern>() >= 0,                                                          \
                  #NAME ": failed to check the reduce pattern, it only supports AR/RA pattern!");                   \
    kgen::rt::adv_reduce(kgen::rt::AdvRed::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),              \
                         kgen::TensorAccess::ref(srcTensor), nullptr, srcShape, srcInnerPad,                        \
                         kgen::reduce_pattern_id<pattern>() == 1, isReuseSource, loc);                              \
  }

namespace AscendC {
KGEN_ADV_REDUCE(ReduceSum, Sum)
KGEN_ADV_REDUCE(ReduceMean, Mean)
KGEN_ADV_REDUCE(ReduceMax, Max)
KGEN_ADV_REDUCE(ReduceMin, Min)
KGEN_ADV_REDUCE(ReduceProd, Prod)
KGEN_ADV_REDUCE(ReduceAny, Any)
KGEN_ADV_REDUCE(ReduceAll, All)

// Sum (CANN docs: 高阶API/归约操作/Sum): the sum of each of `outter` rows' first n elements, rows `inner` elements
// apart (n padded to 32 bytes); the additions in ReduceSum's pairwise tree.
struct SumParams {
  uint32_t outter = 1;
  uint32_t inner;
  uint32_t n;
};
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const SumParams& sumParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_sum(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(srcTensor),
                    &kgen::TensorAccess::ref(sharedTmpBuffer), sumParams.outter, sumParams.inner, sumParams.n, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams,
         kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_sum(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(srcTensor),
                    nullptr, sumParams.outter, sumParams.inner, sumParams.n, loc);
}

// Mean (CANN docs: 高阶API/归约操作/Mean): each of `outter` rows' first n elements summed as Sum does, times 1/n, in
// accType (float for a half source computes in float and casts back). Without sharedTmpBuffer the space comes from
// the UB the TPipe leaves free; GetMeanMaxMinTmpSize gives the size.
struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner;
  uint32_t n;
};
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const MeanParams& meanParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(sizeof(accType) >= sizeof(T), "Mean: accType must be T or float");
  kgen::rt::adv_mean(kgen::dtype_of<T>(), sizeof(accType) > sizeof(T), kgen::TensorAccess::ref(dstTensor),
                     kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), meanParams.outter,
                     meanParams.inner, meanParams.n, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(sizeof(accType) >= sizeof(T), "Mean: accType must be T or float");
  kgen::rt::adv_mean(kgen::dtype_of<T>(), sizeof(accType) > sizeof(T), kgen::TensorAccess::ref(dstTensor),
                     kgen::TensorAccess::ref(srcTensor), nullptr, meanParams.outter, meanParams.inner, meanParams.n,
                     loc);
}
}  // namespace AscendC
#undef KGEN_ADV_REDUCE
