// Scalar conversions (CANN "scalar computation" section, guide 0226-0230): ScalarCast, ToBfloat16, ToFloat; and the
// IsSameType trait of CANN's kernel utilities (AscendC::IsSameType<T, U>::value, used by the official examples).
// ToBfloat16 / ToFloat exist only on the Atlas A2/A3 (arch 2201), as on CANN; ScalarCast takes only the documented
// pairs (float -> half with CAST_ODD; float -> int32_t with CAST_ROUND/CEIL/FLOOR/RINT) and rounds like Cast.
#pragma once
#include "kgen/macros.h"
#include "kgen/enums.h"
#include "kgen/types.h"

namespace kgen::rt {
// float -> half bits, rounded to odd (Von Neumann); saturates finite values at +-65504 like Cast.
uint16_t scalar_cast_f16_odd(float v);
// float -> int32_t with the round mode; saturates at the int32 range, NaN gives 0, like Cast.
int32_t scalar_cast_s32(float v, AscendC::RoundMode mode);
}  // namespace kgen::rt

namespace AscendC {
template <typename T, typename U>
struct IsSameType {
  static constexpr bool value = false;
};
template <typename T>
struct IsSameType<T, T> {
  static constexpr bool value = true;
};

template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U ScalarCast(T valueIn) {
  static_assert(IsSameType<T, float>::value && (IsSameType<U, half>::value || IsSameType<U, int32_t>::value),
                "ScalarCast converts float to half or int32_t only");
  if constexpr (IsSameType<U, half>::value) {
    static_assert(roundMode == RoundMode::CAST_ODD, "ScalarCast float -> half supports RoundMode::CAST_ODD only");
    half h;
    h.val = kgen::rt::scalar_cast_f16_odd(valueIn);
    return h;
  } else {
    static_assert(roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                      roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT,
                  "ScalarCast float -> int32_t supports CAST_ROUND, CAST_CEIL, CAST_FLOOR and CAST_RINT only");
    return kgen::rt::scalar_cast_s32(valueIn, roundMode);
  }
}

#if __NPU_ARCH__ == 2201
__aicore__ inline bfloat16_t ToBfloat16(const float& fVal) { return bfloat16_t(fVal); }
__aicore__ inline float ToFloat(const bfloat16_t& bVal) { return static_cast<float>(bVal); }
#endif
}  // namespace AscendC
