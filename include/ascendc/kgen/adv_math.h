// High-level elementwise math APIs (CANN adv_api): Sigmoid, Tanh, Gelu, Erf, Sin, Cos, and the inverse, hyperbolic
// and complementary ones Acos, Asin, Atan, Cosh, Sinh, Tan, Erfc.
// Computed in float from the documented formulas, rounded once to T. Temporary-buffer sizes are checked against
// CANN's GetXxxMaxMinTmpSize minimum (see docs/emulator.md).
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
enum class AdvMath : uint8_t { Sigmoid, Tanh, Gelu, Erf, Sin, Cos, Acos, Asin, Atan, Cosh, Sinh, Tan, Erfc };
// tmp: the sharedTmpBuffer, or nullptr for the forms where the framework takes it from free UB.
// all: the "whole tensor" form (count = src's size).
void adv_math(AdvMath op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint32_t count,
              bool all, bool reuse_source, Loc loc);
}  // namespace kgen::rt

#define KGEN_ADV_MATH(NAME)                                                                                          \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            const uint32_t calCount, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                \
    kgen::rt::adv_math(kgen::rt::AdvMath::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                       kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), calCount, false, \
                       isReuseSource, loc);                                                                         \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_math(kgen::rt::AdvMath::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                       kgen::TensorAccess::ref(srcTensor), &kgen::TensorAccess::ref(sharedTmpBuffer), 0, true,      \
                       isReuseSource, loc);                                                                         \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,               \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_math(kgen::rt::AdvMath::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                       kgen::TensorAccess::ref(srcTensor), nullptr, calCount, false, isReuseSource, loc);          \
  }                                                                                                                 \
  template <typename T, bool isReuseSource = false>                                                                 \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                       \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::adv_math(kgen::rt::AdvMath::NAME, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstTensor),             \
                       kgen::TensorAccess::ref(srcTensor), nullptr, 0, true, isReuseSource, loc);                  \
  }

namespace AscendC {
KGEN_ADV_MATH(Sigmoid)
KGEN_ADV_MATH(Tanh)
KGEN_ADV_MATH(Erf)
KGEN_ADV_MATH(Sin)
KGEN_ADV_MATH(Cos)
KGEN_ADV_MATH(Acos)
KGEN_ADV_MATH(Asin)
KGEN_ADV_MATH(Atan)
KGEN_ADV_MATH(Cosh)
KGEN_ADV_MATH(Sinh)
KGEN_ADV_MATH(Tan)
KGEN_ADV_MATH(Erfc)

// Gelu(x) = 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))); highPrecision/highPerformance select CANN's internal
// instruction sequences and do not change the emulated (float) result.
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_math(kgen::rt::AdvMath::Gelu, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal),
                     kgen::TensorAccess::ref(srcLocal), nullptr, dataSize, false, false, loc);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t dataSize, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::adv_math(kgen::rt::AdvMath::Gelu, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dstLocal),
                     kgen::TensorAccess::ref(srcLocal), &kgen::TensorAccess::ref(sharedTmpBuffer), dataSize, false,
                     false, loc);
}
}  // namespace AscendC
#undef KGEN_ADV_MATH
