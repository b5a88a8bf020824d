// Cast: element type conversion with a RoundMode, in the count form and the two mask/repeat forms.
// A repeat processes 256 bytes of the wider type; the mask counts elements of the wider type.
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
void vec_cast(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, AscendC::RoundMode mode,
              uint64_t count, Loc loc);
void vec_cast_rep(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, AscendC::RoundMode mode,
                  const MaskArg& mask, uint8_t repeat, const AscendC::UnaryRepeatParams& p, Loc loc);
// SetDeqScale(half): the DEQSCALE register's factor of Cast int32 -> half (a scalar-unit write).
void set_deq_scale(float scale, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint32_t count,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_cast(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                     kgen::TensorAccess::ref(src), round_mode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  constexpr kgen::DType wide = sizeof(T) >= sizeof(U) ? kgen::dtype_of<T>() : kgen::dtype_of<U>();
  kgen::rt::vec_cast_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src), round_mode, kgen::rt::mask_bits(mask, isSetMask, wide),
                         repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_cast_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src), round_mode, kgen::rt::mask_contiguous(mask, isSetMask),
                         repeatTime, repeatParams, loc);
}
// The factor Cast int32_t -> half applies (DEQSCALE); 1.0 until set.
inline void SetDeqScale(half scale, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_deq_scale(static_cast<float>(scale), loc);
}
}  // namespace AscendC
