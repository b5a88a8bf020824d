// The scalar math bisheng provides in kernel code: sqrt and abs, at global scope as the device compiler has them
// (AscendC::Std wraps exactly these two: asc-devkit include/utils/std/cmath.h), and min / max of two numbers, which
// inlined Catlass kernels call unqualified and which pass on the chip (docs/sources.md S69). `kgen cc` refuses every other libm
// function in __aicore__ code (src/cli/bisheng_rules.h), as bisheng does. Templates over compiler builtins, not
// <cmath>: kernel code sees no C library, so a kernel may itself be called sqrt (extern "C" ... void sqrt(...)).
#pragma once
#include <type_traits>

template <typename T>
inline T sqrt(T x) {
  if constexpr (std::is_same_v<T, float>) return __builtin_sqrtf(x);
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(__builtin_sqrt(static_cast<double>(x)));
  else return static_cast<T>(__builtin_sqrt(static_cast<double>(x)));   // integers: truncated, as on the chip
}
template <typename T>
inline T abs(T x) {
  return x < T(0) ? static_cast<T>(-x) : x;
}

// min / max of two values of one arithmetic type, plain overloads as a device compiler's builtins are (CUDA's have the
// same form): a Catlass `tla::min(T const&, U const&)` template found by a using-directive loses to them, as it does
// on the chip.
#define KGEN_SCALAR_MIN_MAX(T)                               \
  inline constexpr T min(T a, T b) { return b < a ? b : a; } \
  inline constexpr T max(T a, T b) { return a < b ? b : a; }
KGEN_SCALAR_MIN_MAX(int)
KGEN_SCALAR_MIN_MAX(unsigned int)
KGEN_SCALAR_MIN_MAX(long)
KGEN_SCALAR_MIN_MAX(unsigned long)
KGEN_SCALAR_MIN_MAX(long long)
KGEN_SCALAR_MIN_MAX(unsigned long long)
KGEN_SCALAR_MIN_MAX(float)
KGEN_SCALAR_MIN_MAX(double)
#undef KGEN_SCALAR_MIN_MAX
