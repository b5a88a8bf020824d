// The scalar math bisheng provides in kernel code: sqrt and abs, at global scope as the device compiler has them
// (AscendC::Std wraps exactly these two: asc-devkit include/utils/std/cmath.h). `kgen cc` refuses every other libm
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
