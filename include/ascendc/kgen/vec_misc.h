// Axpy, Duplicate, CreateVecIndex, and the vector mask APIs (SetMaskCount, SetMaskNorm, SetVectorMask, ResetMask).
#pragma once
#include "kgen/tensor.h"

namespace kgen::rt {
void vec_axpy(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, Scalar s, uint64_t count, Loc loc);
void vec_axpy_rep(DType dt_dst, DType dt_src, const LocalRef& dst, const LocalRef& src, Scalar s, const MaskArg& mask,
                  uint8_t repeat, const AscendC::UnaryRepeatParams& p, Loc loc);
void vec_duplicate(DType dt, const LocalRef& dst, Scalar s, uint64_t count, Loc loc);
void vec_duplicate_rep(DType dt, const LocalRef& dst, Scalar s, const MaskArg& mask, uint8_t repeat,
                       uint16_t dst_blk_stride, uint8_t dst_rep_stride, Loc loc);
void vec_create_index(DType dt, const LocalRef& dst, Scalar first, uint64_t count, Loc loc);
void vec_create_index_rep(DType dt, const LocalRef& dst, Scalar first, const MaskArg& mask, uint8_t repeat,
                          uint16_t dst_blk_stride, uint8_t dst_rep_stride, Loc loc);
// SetVectorMask<T, mode>(len): a count in counter mode, a contiguous bit mask in normal mode.
void set_vector_mask_len(DType dt, int64_t len, bool counter, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
// ---- Axpy: dst = src * scalar + dst (half/half, float/float, half -> float) ----
template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const int32_t& count,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_axpy(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                     kgen::TensorAccess::ref(src), kgen::rt::scalar_of<U>(scalarValue),
                     static_cast<uint64_t>(static_cast<int64_t>(count)), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_axpy_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src), kgen::rt::scalar_of<U>(scalarValue),
                         kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_axpy_rep(kgen::dtype_of<T>(), kgen::dtype_of<U>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src), kgen::rt::scalar_of<U>(scalarValue),
                         kgen::rt::mask_contiguous(mask, isSetMask), repeatTime, repeatParams, loc);
}

// ---- Duplicate: fill with a scalar ----
template <typename T>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_duplicate(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::rt::scalar_of<T>(scalarValue),
                          static_cast<uint64_t>(static_cast<int64_t>(count)), loc);
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[], const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_duplicate_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::rt::scalar_of<T>(scalarValue),
                              kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), repeatTime, dstBlockStride,
                              dstRepeatStride, loc);
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_duplicate_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::rt::scalar_of<T>(scalarValue),
                              kgen::rt::mask_contiguous(mask, isSetMask), repeatTime, dstBlockStride, dstRepeatStride,
                              loc);
}

// ---- CreateVecIndex: dst[i] = firstValue + i ----
template <typename T>
void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count,
                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_create_index(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::rt::scalar_of<T>(firstValue),
                             count, loc);
}
template <typename T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[], uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_create_index_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                                 kgen::rt::scalar_of<T>(firstValue), kgen::rt::mask_bits(mask, true, kgen::dtype_of<T>()),
                                 repeatTime, dstBlkStride, dstRepStride, loc);
}
template <typename T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_create_index_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                                 kgen::rt::scalar_of<T>(firstValue), kgen::rt::mask_contiguous(mask, true), repeatTime,
                                 dstBlkStride, dstRepStride, loc);
}

// ---- mask registers ----
inline void SetMaskCount(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::set_mask_count(loc); }
inline void SetMaskNorm(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::set_mask_norm(loc); }
template <typename T, MaskMode mode = MaskMode::NORMAL>
static inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow,
                                 kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_vector_mask(kgen::dtype_of<T>(), maskHigh, maskLow, false, loc);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
static inline void SetVectorMask(int32_t len, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_vector_mask_len(kgen::dtype_of<T>(), len, mode == MaskMode::COUNTER, loc);
}
inline void ResetMask(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::reset_mask(loc); }

// CANN's internal AscendCUtils (impl/basic_api/kernel_utils_base.h), the members cann-ops kernels call directly:
// SetMask writes the vector mask register: two words, or the pattern of the first len lanes.
class AscendCUtils {
 public:
  static inline int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
  static inline int32_t GetC0Size() { return 32; }   // DEFAULT_C0_SIZE: bytes of a C0 block
  static inline int32_t GetC0Count(const int32_t dtypeSize) { return GetC0Size() / dtypeSize; }
  template <typename T, bool isSetMask = true>
  static inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow,
                             kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    if constexpr (isSetMask) kgen::rt::set_vector_mask(kgen::dtype_of<T>(), maskHigh, maskLow, false, loc);
  }
  // The bit pattern of the first len lanes, whatever the mask mode (in counter mode the register reads it as a count).
  template <typename T, bool isSetMask = true>
  static inline void SetMask(int32_t len, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    if constexpr (!isSetMask) return;
    constexpr uint64_t kFull = ~uint64_t(0);
    if (len == 64) return SetMask<T>(0, kFull, loc);
    if (len == static_cast<int32_t>(256 / sizeof(T)) || len >= 128) return SetMask<T>(kFull, kFull, loc);
    const uint64_t hi = len > 64 ? (uint64_t(1) << (len - 64)) - 1 : 0;
    const uint64_t lo = len > 64 ? kFull : (uint64_t(1) << len) - 1;
    SetMask<T>(hi, lo, loc);
  }
};
}  // namespace AscendC
