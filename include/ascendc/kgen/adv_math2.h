// High-level elementwise math APIs (CANN adv_api), second set: Log/Log2/Log10, Power (tensor-tensor, tensor-scalar,
// scalar-tensor), Silu, Swish, Exp<T, taylorExpandLevel>, Floor, Ceil, Round, Trunc, Sign, ClampMax, ClampMin, Fmod,
// and CumSum. Computed in float, rounded once to T; temporary buffers are checked against CANN's
// GetXxxMaxMinTmpSize minimum.
//
// The high-level Exp<T, taylorExpandLevel, isReuseSource> coexists with the basic Exp<T>(dst, src, count) of
// kgen/vec_unary.h as in CANN: taylorExpandLevel cannot be deduced, so a call without it picks the basic Exp, and a
// call naming it cannot match the basic one.
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
enum class AdvOp2 : uint8_t { Log, Log2, Log10, Silu, Swish, Floor, Ceil, Round, Trunc, Sign, ClampMax, ClampMin, Exp, Power, Fmod };
// One elementwise call. Unary ops read src0. Power/Fmod tensor-tensor read src0 and src1; Power tensor-scalar reads
// src0 and `scalar` (src1 == nullptr); Power scalar-tensor reads `scalar` and src1 (src0 == nullptr). `scalar` also
// carries Swish's beta and the Clamp bound (bits of T). tmp: sharedTmpBuffer, nullptr for the framework-allocated
// form. all: the whole-tensor form (count = the tensor's size). level: Exp's taylorExpandLevel.
void adv_elem2(AdvOp2 op, DType dt, const LocalRef& dst, const LocalRef* src0, const LocalRef* src1, Scalar scalar,
               const LocalRef* tmp, uint32_t count, bool all, uint32_t level, bool reuse_source, Loc loc);
// CumSum over an [outter, inner] tensor: along the last axis (rows) or the first axis (columns).
void cumsum(DType dt, const LocalRef& dst, const LocalRef& last_row, const LocalRef& src, const LocalRef* tmp,
            uint32_t outter, uint32_t inner, bool last_axis, bool output_last_row, Loc loc);
}  // namespace kgen::rt

// Unary APIs with four forms: (tmp, calCount), (tmp), (calCount), ().
#define KGEN_ADV2_UNARY4(NAME)                                                                                       \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            const uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, {}, &kgen::TensorAccess::ref(sharedTmpBuffer), \
                        calCount, false, 0, isReuseSource, loc);                                                    \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, {}, &kgen::TensorAccess::ref(sharedTmpBuffer), \
                        0, true, 0, isReuseSource, loc);                                                            \
  }                                                                                                                 \
  KGEN_ADV2_UNARY2(NAME)
// Unary APIs with only the framework-allocated forms: (calCount), ().
#define KGEN_ADV2_UNARY2(NAME)                                                                                       \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,               \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, {}, nullptr, calCount, false, 0,              \
                        isReuseSource, loc);                                                                        \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                       \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, {}, nullptr, 0, true, 0, isReuseSource, loc); \
  }
// Unary APIs with only the count forms: (tmp, calCount), (calCount).
#define KGEN_ADV2_UNARY_COUNT(NAME)                                                                                  \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            const uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, {}, &kgen::TensorAccess::ref(sharedTmpBuffer), \
                        calCount, false, 0, isReuseSource, loc);                                                    \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,               \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, {}, nullptr, calCount, false, 0,              \
                        isReuseSource, loc);                                                                        \
  }
// ClampMax / ClampMin: (tmp, scalar, calCount), (scalar, calCount).
#define KGEN_ADV2_CLAMP(NAME)                                                                                        \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            const T scalar, const uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, kgen::rt::scalar_of<T>(scalar),               \
                        &kgen::TensorAccess::ref(sharedTmpBuffer), calCount, false, 0, isReuseSource, loc);        \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar, const uint32_t calCount, \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(srcTensor), nullptr, kgen::rt::scalar_of<T>(scalar), nullptr,      \
                        calCount, false, 0, isReuseSource, loc);                                                    \
  }
// Tensor-tensor binary APIs (Power, Fmod): (tmp, calCount), (tmp), (calCount), ().
#define KGEN_ADV2_BINARY(NAME)                                                                                       \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,     \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,                                   \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(src0Tensor), &kgen::TensorAccess::ref(src1Tensor), {},             \
                        &kgen::TensorAccess::ref(sharedTmpBuffer), calCount, false, 0, isReuseSource, loc);        \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,     \
            const LocalTensor<uint8_t>& sharedTmpBuffer, kgen::rt::Loc loc = kgen::rt::Loc::current()) {            \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(src0Tensor), &kgen::TensorAccess::ref(src1Tensor), {},             \
                        &kgen::TensorAccess::ref(sharedTmpBuffer), 0, true, 0, isReuseSource, loc);                \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,     \
            const uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(src0Tensor), &kgen::TensorAccess::ref(src1Tensor), {}, nullptr,    \
                        calCount, false, 0, isReuseSource, loc);                                                    \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,     \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_elem2(kgen::rt::AdvOp2::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                        &kgen::TensorAccess::ref(src0Tensor), &kgen::TensorAccess::ref(src1Tensor), {}, nullptr, 0, \
                        true, 0, isReuseSource, loc);                                                               \
  }

namespace AscendC {
// ---- Log (base e), Log10: framework forms only; Log2 also takes a sharedTmpBuffer ----
KGEN_ADV2_UNARY2(Log)
KGEN_ADV2_UNARY4(Log2)
KGEN_ADV2_UNARY2(Log10)

// ---- Power ----
KGEN_ADV2_BINARY(Power)
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),
                      &kgen::TensorAccess::ref(src0Tensor), nullptr, kgen::rt::scalar_of<T>(src1Scalar),
                      &kgen::TensorAccess::ref(sharedTmpBuffer), calCount, false, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),
                      &kgen::TensorAccess::ref(src0Tensor), nullptr, kgen::rt::scalar_of<T>(src1Scalar),
                      &kgen::TensorAccess::ref(sharedTmpBuffer), 0, true, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar, uint32_t calCount,
           kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),
                      &kgen::TensorAccess::ref(src0Tensor), nullptr, kgen::rt::scalar_of<T>(src1Scalar), nullptr,
                      calCount, false, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),
                      &kgen::TensorAccess::ref(src0Tensor), nullptr, kgen::rt::scalar_of<T>(src1Scalar), nullptr, 0,
                      true, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), nullptr,
                      &kgen::TensorAccess::ref(src1Tensor), kgen::rt::scalar_of<T>(src0Scalar),
                      &kgen::TensorAccess::ref(sharedTmpBuffer), calCount, false, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), nullptr,
                      &kgen::TensorAccess::ref(src1Tensor), kgen::rt::scalar_of<T>(src0Scalar),
                      &kgen::TensorAccess::ref(sharedTmpBuffer), 0, true, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor, uint32_t calCount,
           kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), nullptr,
                      &kgen::TensorAccess::ref(src1Tensor), kgen::rt::scalar_of<T>(src0Scalar), nullptr, calCount,
                      false, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Power, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), nullptr,
                      &kgen::TensorAccess::ref(src1Tensor), kgen::rt::scalar_of<T>(src0Scalar), nullptr, 0, true, 0,
                      isReuseSource, loc);
}

// ---- Silu(x) = x / (1 + e^-x); Swish(x) = x / (1 + e^(-beta x)) ----
template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Silu, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal),
                      &kgen::TensorAccess::ref(srcLocal), nullptr, {}, nullptr, dataSize, false, 0, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, const T& scalarValue,
           kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Swish, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal),
                      &kgen::TensorAccess::ref(srcLocal), nullptr, kgen::rt::scalar_of<T>(scalarValue), nullptr,
                      dataSize, false, 0, isReuseSource, loc);
}

// ---- Exp with Taylor expansion (high-level; the basic Exp<T>(dst, src, count) is in kgen/vec_unary.h) ----
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Exp, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal),
                      &kgen::TensorAccess::ref(srcLocal), nullptr, {}, &kgen::TensorAccess::ref(sharedTmpBuffer),
                      calCount, false, taylorExpandLevel, isReuseSource, loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount,
         kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_elem2(kgen::rt::AdvOp2::Exp, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal),
                      &kgen::TensorAccess::ref(srcLocal), nullptr, {}, nullptr, calCount, false, taylorExpandLevel,
                      isReuseSource, loc);
}

// ---- Rounding and sign ----
KGEN_ADV2_UNARY_COUNT(Floor)
KGEN_ADV2_UNARY_COUNT(Ceil)
KGEN_ADV2_UNARY_COUNT(Round)
KGEN_ADV2_UNARY4(Trunc)
KGEN_ADV2_UNARY4(Sign)

// ---- ClampMax(x) = min(x, scalar); ClampMin(x) = max(x, scalar) ----
KGEN_ADV2_CLAMP(ClampMax)
KGEN_ADV2_CLAMP(ClampMin)

// ---- Fmod(a, b) = a - trunc(a / b) * b ----
KGEN_ADV2_BINARY(Fmod)

// ---- CumSum over [outter, inner] ----
struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cumsum(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(lastRowTensor),
                   kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), cumSumInfo.outter,
                   cumSumInfo.inner, config.isLastAxis, config.outputLastRow, loc);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            const CumSumInfo& cumSumInfo, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cumsum(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor), kgen::TensorAccess::ref(lastRowTensor),
                   kgen::TensorAccess::ref(srcTensor), nullptr, cumSumInfo.outter, cumSumInfo.inner,
                   config.isLastAxis, config.outputLastRow, loc);
}
}  // namespace AscendC
#undef KGEN_ADV2_UNARY4
#undef KGEN_ADV2_UNARY2
#undef KGEN_ADV2_UNARY_COUNT
#undef KGEN_ADV2_CLAMP
#undef KGEN_ADV2_BINARY
