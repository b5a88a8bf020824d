// TransDataTo5HD (CANN basic_api kernel_operator_vec_transpose_intf.h): per repeat, 16 32-byte source blocks given
// by address are transposed into 16 destination blocks. 16-bit: destination block j holds element j of each source
// block; 32-bit: destination blocks 2e and 2e+1 hold element e of sources 0-7 and 8-15 (C0 = 16, so NCHW -> NC1HWC0
// keeps 16 channels of a position together); 8-bit: destination block j's low or high half (dstHighHalf) holds
// element j, or j + 16 (srcHighHalf), of each source block. Addresses are UB byte offsets (GetPhyAddr()).
#pragma once
#include <cstdint>

#include "kgen/tensor.h"

namespace AscendC {
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
struct TransDataTo5HDParams {
  constexpr TransDataTo5HDParams() = default;
  constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                                 const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};
}  // namespace AscendC

namespace kgen::rt {
// elem: 1, 2 or 4 bytes; dst/src: 16 UB byte addresses each; api: the name errors give (TransDataTo5HD, or bisheng's
// scatter_vnchwconv / vtranspose).
void trans_data_5hd(uint32_t elem, const uint64_t* dst, const uint64_t* src, const AscendC::TransDataTo5HDParams& p,
                    Loc loc, const char* api = "TransDataTo5HD");
// bisheng's VA registers: set_va_reg_sb stores 8 UB addresses in register va (0-7); scatter_vnchwconv takes its 16
// destination addresses from registers dst, dst + 1 and its sources from src, src + 1.
void set_va_reg(int va, const uint64_t* addrs, Loc loc);
void vnchwconv(uint32_t elem, int dst_va, int src_va, const AscendC::TransDataTo5HDParams& p, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD: 8-, 16- or 32-bit elements");
  kgen::rt::trans_data_5hd(sizeof(T), dstList, srcList, nchwconvParams, loc);
}
// The address lists held in UB tensors of uint64_t (16 addresses each, contiguous).
template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& nchwconvParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD: 8-, 16- or 32-bit elements");
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
    d[i] = dst.GetValue(i);
    s[i] = src.GetValue(i);
  }
  kgen::rt::trans_data_5hd(sizeof(T), d, s, nchwconvParams, loc);
}
template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD: 8-, 16- or 32-bit elements");
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
    d[i] = dstList[i].GetPhyAddr();
    s[i] = srcList[i].GetPhyAddr();
  }
  kgen::rt::trans_data_5hd(sizeof(T), d, s, nchwconvParams, loc);
}
// CANN's internal form on (__ubuf__ T*)tensor.GetPhyAddr() pointers, which cann-ops kernels call.
template <typename T>
void TransDataTo5HDImpl(T* dstList[NCHW_CONV_ADDR_LIST_SIZE], T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& nchwconvParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD: 8-, 16- or 32-bit elements");
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
    d[i] = reinterpret_cast<uintptr_t>(dstList[i]);
    s[i] = reinterpret_cast<uintptr_t>(srcList[i]);
  }
  kgen::rt::trans_data_5hd(sizeof(T), d, s, nchwconvParams, loc);
}
template <typename T>
void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& nchwconvParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  TransDataTo5HD<T>(dstList, srcList, nchwconvParams, loc);
}
}  // namespace AscendC
