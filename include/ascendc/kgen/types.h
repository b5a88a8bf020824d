// half (IEEE binary16) and bfloat16_t as value types that compute through float, like CANN's CPU types.
// Conversions round to nearest, ties to even; NaN stays NaN; overflow becomes infinity.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace kgen {
// constexpr (bisheng's half is a builtin type: `constexpr half ONE = 1.0;` compiles there); __builtin_bit_cast is
// GCC's constexpr bit copy in every language mode.
constexpr uint32_t f32_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr float f32_from_bits(uint32_t u) { return __builtin_bit_cast(float, u); }

constexpr uint16_t f32_to_f16_bits(float f) {
  uint32_t x = f32_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {                       // inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u | ((absx >> 13) & 0x3ffu) : 0u));
  }
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);   // rounds past 65504
  if (absx < 0x38800000u) {                        // result is subnormal or zero
    if (absx < 0x33000000u) return static_cast<uint16_t>(sign);           // below half the smallest subnormal
    uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    int shift = 126 - static_cast<int>(absx >> 23);   // 14..24: value = mant * 2^-shift units of 2^-24
    uint32_t q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (q & 1u))) ++q;
    return static_cast<uint16_t>(sign | q);
  }
  uint32_t e = (absx >> 23) - 112u;                // rebias 127 -> 15
  uint32_t m = absx & 0x7fffffu;
  uint32_t r = (e << 10) | (m >> 13);
  uint32_t rem = m & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;   // may carry into the exponent: correct
  return static_cast<uint16_t>(sign | r);
}

constexpr float f16_bits_to_f32(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  if (e == 0) {
    if (m == 0) return f32_from_bits(sign);
    float v = static_cast<float>(m) * (1.0f / 16777216.0f);   // m * 2^-24
    return sign ? -v : v;
  }
  if (e == 31) return f32_from_bits(sign | 0x7f800000u | (m << 13));
  return f32_from_bits(sign | ((e + 112u) << 23) | (m << 13));
}

constexpr uint16_t f32_to_bf16_bits(float f) {
  uint32_t x = f32_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);   // quiet NaN
  uint32_t lsb = (x >> 16) & 1u;
  return static_cast<uint16_t>((x + 0x7fffu + lsb) >> 16);
}
constexpr float bf16_bits_to_f32(uint16_t b) { return f32_from_bits(static_cast<uint32_t>(b) << 16); }
}  // namespace kgen

// Arithmetic on half goes through float: a + b is a float, assigning it back rounds once.
struct half {
  uint16_t val;
  half() = default;
  template <class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
  constexpr half(U v) : val(kgen::f32_to_f16_bits(static_cast<float>(v))) {}
  constexpr operator float() const { return kgen::f16_bits_to_f32(val); }
  template <class U> half& operator+=(U o) { return *this = static_cast<float>(*this) + static_cast<float>(o); }
  template <class U> half& operator-=(U o) { return *this = static_cast<float>(*this) - static_cast<float>(o); }
  template <class U> half& operator*=(U o) { return *this = static_cast<float>(*this) * static_cast<float>(o); }
  template <class U> half& operator/=(U o) { return *this = static_cast<float>(*this) / static_cast<float>(o); }
  constexpr half operator-() const { half h{}; h.val = static_cast<uint16_t>(val ^ 0x8000u); return h; }
};

struct bfloat16_t {
  uint16_t val;
  bfloat16_t() = default;
  template <class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
  constexpr bfloat16_t(U v) : val(kgen::f32_to_bf16_bits(static_cast<float>(v))) {}
  constexpr bfloat16_t(half h) : val(kgen::f32_to_bf16_bits(static_cast<float>(h))) {}
  constexpr operator float() const { return kgen::bf16_bits_to_f32(val); }
  template <class U> bfloat16_t& operator+=(U o) { return *this = static_cast<float>(*this) + static_cast<float>(o); }
  template <class U> bfloat16_t& operator-=(U o) { return *this = static_cast<float>(*this) - static_cast<float>(o); }
  template <class U> bfloat16_t& operator*=(U o) { return *this = static_cast<float>(*this) * static_cast<float>(o); }
  template <class U> bfloat16_t& operator/=(U o) { return *this = static_cast<float>(*this) / static_cast<float>(o); }
  constexpr bfloat16_t operator-() const { bfloat16_t h{}; h.val = static_cast<uint16_t>(val ^ 0x8000u); return h; }
};
// The device compiler's names of the two IEEE float types, which kernels use beside half and float (answers of
// NPUKernelBench that pass on the chip do).
using float16_t = half;
using float32_t = float;

static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);
static_assert(half(1.0).val == 0x3c00 && float(half(0.5)) == 0.5f && bfloat16_t(1.0f).val == 0x3f80);

namespace kgen {
// The element types the emulator knows, with their names in diagnostics.
enum class DType : uint8_t { F16, BF16, F32, F64, I8, U8, I16, U16, I32, U32, I64, U64, B8, Unknown };
template <class T> constexpr DType dtype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, half>) return DType::F16;
  else if constexpr (std::is_same_v<U, bfloat16_t>) return DType::BF16;
  else if constexpr (std::is_same_v<U, float>) return DType::F32;
  else if constexpr (std::is_same_v<U, double>) return DType::F64;
  else if constexpr (std::is_same_v<U, bool>) return DType::B8;
  else if constexpr (std::is_same_v<U, int8_t>) return DType::I8;
  else if constexpr (std::is_same_v<U, uint8_t>) return DType::U8;
  else if constexpr (std::is_same_v<U, int16_t>) return DType::I16;
  else if constexpr (std::is_same_v<U, uint16_t>) return DType::U16;
  else if constexpr (std::is_same_v<U, int32_t>) return DType::I32;
  else if constexpr (std::is_same_v<U, uint32_t>) return DType::U32;
  else if constexpr (std::is_same_v<U, int64_t> || std::is_same_v<U, long long>) return DType::I64;
  else if constexpr (std::is_same_v<U, uint64_t> || std::is_same_v<U, unsigned long long>) return DType::U64;
  else return DType::Unknown;
}
}  // namespace kgen
