// Reduction vector APIs: ReduceSum/ReduceMax/ReduceMin (software-emulated, with sharedTmpBuffer),
// WholeReduceSum/Max/Min, BlockReduceSum/Max/Min, PairReduceSum and RepeatReduceSum (one instruction each).
#pragma once
#include <cstring>
#include "kgen/tensor.h"

namespace kgen::rt {
enum class RedOp : uint8_t { Sum, Max, Min };
// ReduceSum/Max/Min, count form and mask/repeat form (repeat may exceed 255 here).
void reduce_count(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& tmp, int64_t count,
                  bool cal_index, Loc loc);
void reduce_rep(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& tmp, const MaskArg& mask,
                int64_t repeat, int64_t src_rep_stride, bool cal_index, Loc loc);
// WholeReduce*: one result per repeat. order: AscendC::ReduceOrder (Max/Min only). api names the caller.
void whole_reduce(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, const MaskArg& mask, int64_t repeat,
                  int64_t dst_rep_stride, int64_t src_blk_stride, int64_t src_rep_stride, AscendC::ReduceOrder order,
                  const char* api, Loc loc);
// MAX_MIN_CNT after a WholeReduceMax/Min: the extreme over all its repeats (value bits low, element index high).
uint64_t max_min_spr();
// ACC_VAL after a vcadd in accumulate mode: the sum over its repeats (value bits low).
uint64_t acc_val();
// bisheng's vcadd on raw UB byte addresses (the mask already set; has_dst false: dst was null).
void vcadd(DType dt, uint64_t dst_addr, uint64_t src_addr, bool has_dst, int64_t repeat, int64_t dst_rep_stride,
           int64_t src_blk_stride, int64_t src_rep_stride, bool accumulate, Loc loc);
// BlockReduce*: one result per 32-byte block (8 per repeat).
void block_reduce(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, int64_t repeat, const MaskArg& mask,
                  int64_t dst_rep_stride, int64_t src_blk_stride, int64_t src_rep_stride, Loc loc);
// PairReduceSum: sums adjacent pairs, half a repeat of results per repeat.
void pair_reduce_sum(DType dt, const LocalRef& dst, const LocalRef& src, int64_t repeat, const MaskArg& mask,
                     int64_t dst_rep_stride, int64_t src_blk_stride, int64_t src_rep_stride, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
// ---- ReduceSum ----
template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::reduce_count(kgen::rt::RedOp::Sum, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src), kgen::TensorAccess::ref(sharedTmpBuffer), count, false, loc);
}
template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::reduce_rep(kgen::rt::RedOp::Sum, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                       kgen::TensorAccess::ref(src), kgen::TensorAccess::ref(sharedTmpBuffer),
                       kgen::rt::mask_bits(mask, true, kgen::dtype_of<T>()), repeatTime, srcRepStride, false, loc);
}
template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,
               kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::reduce_rep(kgen::rt::RedOp::Sum, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                       kgen::TensorAccess::ref(src), kgen::TensorAccess::ref(sharedTmpBuffer),
                       kgen::rt::mask_contiguous(static_cast<uint64_t>(static_cast<int64_t>(mask)), true), repeatTime,
                       srcRepStride, false, loc);
}

// ---- ReduceMax / ReduceMin (dst = [value, index as raw bits of T] with calIndex) ----
#define KGEN_REDUCE_MAXMIN(NAME, OP)                                                                                 \
  template <typename T>                                                                                             \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,             \
            const int32_t count, bool calIndex = 0, kgen::rt::Loc loc = kgen::rt::Loc::current()) {                 \
    kgen::rt::reduce_count(kgen::rt::RedOp::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                   \
                           kgen::TensorAccess::ref(src), kgen::TensorAccess::ref(sharedTmpBuffer), count, calIndex,  \
                           loc);                                                                                    \
  }                                                                                                                 \
  template <typename T>                                                                                             \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,             \
            const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,        \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::reduce_rep(kgen::rt::RedOp::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                     \
                         kgen::TensorAccess::ref(src), kgen::TensorAccess::ref(sharedTmpBuffer),                     \
                         kgen::rt::mask_bits(mask, true, kgen::dtype_of<T>()), repeatTime, srcRepStride, calIndex, \
                         loc);                                                                                      \
  }                                                                                                                 \
  template <typename T>                                                                                             \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,             \
            const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,            \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::reduce_rep(kgen::rt::RedOp::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                     \
                         kgen::TensorAccess::ref(src), kgen::TensorAccess::ref(sharedTmpBuffer),                     \
                         kgen::rt::mask_contiguous(static_cast<uint64_t>(static_cast<int64_t>(mask)), true),        \
                         repeatTime, srcRepStride, calIndex, loc);                                                  \
  }
KGEN_REDUCE_MAXMIN(ReduceMax, Max)
KGEN_REDUCE_MAXMIN(ReduceMin, Min)
#undef KGEN_REDUCE_MAXMIN

// ---- WholeReduceSum / WholeReduceMax / WholeReduceMin ----
template <typename T, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                    const int32_t srcRepStride, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::whole_reduce(kgen::rt::RedOp::Sum, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src), kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()),
                         repeatTime, dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE,
                         "WholeReduceSum", loc);
}
template <typename T, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask, const int32_t repeatTime,
                    const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::whole_reduce(kgen::rt::RedOp::Sum, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src),
                         kgen::rt::mask_contiguous(static_cast<uint64_t>(static_cast<int64_t>(mask)), isSetMask),
                         repeatTime, dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE,
                         "WholeReduceSum", loc);
}
#define KGEN_WHOLE_MAXMIN(NAME, OP)                                                                                  \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const int32_t repeatTime,   \
            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,                     \
            ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, kgen::rt::Loc loc = kgen::rt::Loc::current()) {     \
    kgen::rt::whole_reduce(kgen::rt::RedOp::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                   \
                           kgen::TensorAccess::ref(src), kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), \
                           repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, #NAME, loc);               \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask, const int32_t repeatTime,      \
            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,                     \
            ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, kgen::rt::Loc loc = kgen::rt::Loc::current()) {     \
    kgen::rt::whole_reduce(kgen::rt::RedOp::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                   \
                           kgen::TensorAccess::ref(src),                                                             \
                           kgen::rt::mask_contiguous(static_cast<uint64_t>(static_cast<int64_t>(mask)), isSetMask), \
                           repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, #NAME, loc);               \
  }
KGEN_WHOLE_MAXMIN(WholeReduceMax, Max)
KGEN_WHOLE_MAXMIN(WholeReduceMin, Min)
#undef KGEN_WHOLE_MAXMIN

// ---- BlockReduceSum / BlockReduceMax / BlockReduceMin ----
#define KGEN_BLOCK_REDUCE(NAME, OP)                                                                                  \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const uint64_t mask[],   \
            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,                     \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::block_reduce(kgen::rt::RedOp::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                   \
                           kgen::TensorAccess::ref(src), repeatTime,                                                \
                           kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), dstRepStride, srcBlkStride,   \
                           srcRepStride, loc);                                                                      \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask,      \
            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,                     \
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {                                                         \
    kgen::rt::block_reduce(kgen::rt::RedOp::OP, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),                   \
                           kgen::TensorAccess::ref(src), repeatTime,                                                \
                           kgen::rt::mask_contiguous(static_cast<uint64_t>(static_cast<int64_t>(mask)), isSetMask), \
                           dstRepStride, srcBlkStride, srcRepStride, loc);                                          \
  }
KGEN_BLOCK_REDUCE(BlockReduceSum, Sum)
KGEN_BLOCK_REDUCE(BlockReduceMax, Max)
KGEN_BLOCK_REDUCE(BlockReduceMin, Min)
#undef KGEN_BLOCK_REDUCE

// ---- PairReduceSum ----
template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                   const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                   const int32_t srcRepStride, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::pair_reduce_sum(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src), repeatTime,
                            kgen::rt::mask_bits(mask, isSetMask, kgen::dtype_of<T>()), dstRepStride, srcBlkStride,
                            srcRepStride, loc);
}
template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask,
                   const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                   kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::pair_reduce_sum(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src), repeatTime,
                            kgen::rt::mask_contiguous(static_cast<uint64_t>(static_cast<int64_t>(mask)), isSetMask),
                            dstRepStride, srcBlkStride, srcRepStride, loc);
}

// ---- RepeatReduceSum: WholeReduceSum with a contiguous mask; dstBlkStride is ignored by the hardware ----
template <typename T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask,
                     const int32_t dstBlkStride, const int32_t srcBlkStride, const int32_t dstRepStride,
                     const int32_t srcRepStride, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  (void)dstBlkStride;
  kgen::rt::whole_reduce(kgen::rt::RedOp::Sum, kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst),
                         kgen::TensorAccess::ref(src),
                         kgen::rt::mask_contiguous(static_cast<uint64_t>(static_cast<int64_t>(mask)), isSetMask),
                         repeatTime, dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE,
                         "RepeatReduceSum", loc);
}

// The special register of WholeReduceMax/Min (MAX_MIN_CNT): the extreme over all repeats of the last one and its
// element index, both as T's bits (read the index with reinterpret_cast to uint32_t, or uint16_t for half).
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
  const uint64_t spr = kgen::rt::max_min_spr();
  uint32_t value = static_cast<uint32_t>(spr & (sizeof(T) == 2 ? 0xffffu : 0xffffffffu));
  uint32_t index = static_cast<uint32_t>(spr >> 32);
  std::memcpy(&maxMinValue, &value, sizeof(T));
  std::memcpy(&maxMinIndex, &index, sizeof(T));
}
// The older name of GetReduceRepeatMaxMinSpr.
template <typename T>
inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) { GetReduceRepeatMaxMinSpr(maxMinValue, maxMinIndex); }

// The ACC_VAL register as CANN's GetAccVal<T>() reads it; GetAccVal() (older CANN's form) returns the raw bits.
template <typename T = int64_t>
inline T GetAccVal() {
  const uint64_t v = kgen::rt::acc_val();
  T r;
  std::memcpy(&r, &v, sizeof(T));
  return r;
}
}  // namespace AscendC

// bisheng's vector intrinsics on raw UB addresses ((__ubuf__ T*)tensor.GetPhyAddr()), as cann-ops kernels call
// them: vcadd is WholeReduceSum's instruction under the mask already set (AscendCUtils::SetMask); with mode true
// the repeats' sums accumulate into ACC_VAL (dst may be null), read with get_acc_val() / GetAccVal().
template <typename T>
inline void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                  uint16_t srcRepStride, bool mode = false, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vcadd(kgen::dtype_of<T>(), reinterpret_cast<uintptr_t>(dst), reinterpret_cast<uintptr_t>(src),
                  dst != nullptr, repeat, dstRepStride, srcBlkStride, srcRepStride, mode, loc);
}
template <typename T>
inline void vcadd(std::nullptr_t, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                  uint16_t srcRepStride, bool mode = false, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  vcadd(static_cast<T*>(nullptr), src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode, loc);
}
inline uint64_t get_acc_val() { return kgen::rt::acc_val(); }
