// bisheng's raw vector intrinsics on UB addresses ((__ubuf__ T*)tensor.GetPhyAddr()) that cann-ops kernels call
// beside the AscendC API (NPUKernelBench's AddLayerNorm broadcasts with them): each runs the AscendC instruction of
// the same encoding under the mask already set (set_vector_mask / AscendCUtils::SetMask), with the same checks.
// A raw address names no buffer, so only UB's end bounds it.
#pragma once
#include <cstdint>

#include "kgen/data_copy.h"
#include "kgen/vec_misc.h"
#include "kgen/vec_runtime.h"
#include "kgen/vec_transpose.h"

enum ub_addr8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace kgen::rt {
uint32_t ub_bytes();   // the UB size of the running core's SoC
}  // namespace kgen::rt

namespace kgen {
// The UB tensor at raw address p, up to UB's end (accesses are bounded by the memory, as on the chip).
inline rt::LocalRef ub_raw(const void* p) {
  const uint64_t addr = reinterpret_cast<uintptr_t>(p);
  return rt::ub_ref(addr, rt::ub_bytes() > addr ? rt::ub_bytes() - addr : 0);
}
inline rt::MaskArg mask_already_set() {
  rt::MaskArg m;
  m.kind = rt::MaskArg::External;
  return m;
}
}  // namespace kgen

inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_vector_mask(kgen::DType::U16, maskHigh, maskLow, false, loc);
}
template <typename T>
inline void vector_dup(T* dst, T value, uint8_t repeat, uint16_t dstBlockStride, uint16_t /*srcBlockStride*/,
                       uint8_t dstRepeatStride, uint8_t /*srcRepeatStride*/, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vec_duplicate_rep(kgen::dtype_of<T>(), kgen::ub_raw(dst), kgen::rt::scalar_of<T>(value),
                              kgen::mask_already_set(), repeat, dstBlockStride, dstRepeatStride, loc);
}
template <typename T>
inline void vor(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlockStride, uint8_t src0BlockStride,
                uint8_t src1BlockStride, uint8_t dstRepeatStride, uint8_t src0RepeatStride, uint8_t src1RepeatStride,
                kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  AscendC::BinaryRepeatParams p(dstBlockStride, src0BlockStride, src1BlockStride, dstRepeatStride, src0RepeatStride,
                                src1RepeatStride);
  kgen::rt::vec_binary_rep(kgen::rt::VOp::Or, kgen::dtype_of<T>(), kgen::ub_raw(dst), kgen::ub_raw(src0),
                           kgen::ub_raw(src1), kgen::mask_already_set(), repeat, p, loc);
}
// UB -> UB as DataCopy between UB tensors: nBurst bursts of lenBurst 32-byte blocks, gaps in blocks.
template <typename T>
inline void copy_ubuf_to_ubuf(T* dst, T* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const kgen::rt::LocalRef d = kgen::ub_raw(dst), s = kgen::ub_raw(src);
  kgen::rt::data_copy(AscendC::TPosition::VECCALC, &d, nullptr, AscendC::TPosition::VECCALC, &s, nullptr,
                      kgen::dtype_of<T>(), AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), false, 0, loc);
}
// A 16 x 16 transpose of 16-bit elements in 512 contiguous bytes.
inline void vtranspose(uint16_t* dst, uint16_t* src, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = reinterpret_cast<uintptr_t>(dst) + 32 * i;
    s[i] = reinterpret_cast<uintptr_t>(src) + 32 * i;
  }
  kgen::rt::trans_data_5hd(2, d, s, AscendC::TransDataTo5HDParams(false, false, 1, 0, 0), loc, "vtranspose");
}
inline void set_va_reg_sb(ub_addr8_t va, uint64_t* addrs, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_va_reg(static_cast<int>(va), addrs, loc);
}
inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vnchwconv(2, dst, src, AscendC::TransDataTo5HDParams(false, false, repeat, dstStride, srcStride), loc);
}
inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vnchwconv(4, dst, src, AscendC::TransDataTo5HDParams(false, false, repeat, dstStride, srcStride), loc);
}
inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                 uint16_t srcStride, bool dstHighHalf, bool srcHighHalf,
                                 kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::vnchwconv(1, dst, src, AscendC::TransDataTo5HDParams(dstHighHalf, srcHighHalf, repeat, dstStride, srcStride),
                      loc);
}
