// Gather-type vector APIs: Brcb (broadcast each element to a 32-byte block), Gather (byte-offset gather),
// GatherMask (compress by a built-in or user bit pattern, returning the kept count).
#pragma once
#include "kgen/tensor.h"

namespace AscendC {
struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

struct GatherMaskParams {
  GatherMaskParams() = default;
  GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
                   const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};
}  // namespace AscendC

namespace kgen::rt {
void brcb(DType dt, const LocalRef& dst, const LocalRef& src, uint32_t repeat, const AscendC::BrcbRepeatParams& p,
          Loc loc);
void gather_count(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& offset, uint32_t base,
                  uint32_t count, Loc loc);
void gather_rep(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& offset, uint32_t base,
                const MaskArg& mask, uint32_t repeat, uint32_t dst_rep_stride, Loc loc);
// pattern: the user mask tensor (pattern_dt its element type), or nullptr with `builtin` in [1, 7].
uint64_t gather_mask(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* pattern, DType pattern_dt,
                     uint8_t builtin, bool reduce_mode, uint32_t mask, const AscendC::GatherMaskParams& p, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::brcb(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src0), repeatTime,
                 repeatParams, loc);
}

template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint32_t count, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::gather_count(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                         kgen::TensorAccess::ref(srcOffset), srcBaseAddr, count, loc);
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::gather_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                       kgen::TensorAccess::ref(srcOffset), srcBaseAddr,
                       kgen::rt::mask_bits(mask, true, kgen::dtype_of<T>()), repeatTime, dstRepStride, loc);
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride,
            kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::gather_rep(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src),
                       kgen::TensorAccess::ref(srcOffset), srcBaseAddr, kgen::rt::mask_contiguous(mask, true),
                       repeatTime, dstRepStride, loc);
}

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt,
                kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  rsvdCnt = kgen::rt::gather_mask(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src0),
                                  &kgen::TensorAccess::ref(src1Pattern), kgen::dtype_of<U>(), 0, reduceMode, mask,
                                  gatherMaskParams, loc);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt,
                kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  rsvdCnt = kgen::rt::gather_mask(kgen::dtype_of<T>(), kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src0),
                                  nullptr, kgen::DType::Unknown, src1Pattern, reduceMode, mask, gatherMaskParams, loc);
}
}  // namespace AscendC
