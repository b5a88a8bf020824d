// DataCopy (count and DataCopyParams forms; GM->local, local->GM, local->local) and DataCopyPad.
#pragma once
#include "kgen/tensor.h"

namespace AscendC {
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const auto& d = kgen::TensorAccess::ref(dst);
  kgen::rt::data_copy(d.pos, &d, nullptr, TPosition::GM, nullptr, src.GetPhyAddr(), kgen::dtype_of<T>(), {}, true, count, loc);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const auto& s = kgen::TensorAccess::ref(src);
  kgen::rt::data_copy(TPosition::GM, nullptr, dst.GetPhyAddr(0), s.pos, &s, nullptr, kgen::dtype_of<T>(), {}, true, count, loc);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const auto& d = kgen::TensorAccess::ref(dst);
  const auto& s = kgen::TensorAccess::ref(src);
  kgen::rt::data_copy(d.pos, &d, nullptr, s.pos, &s, nullptr, kgen::dtype_of<T>(), {}, true, count, loc);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const auto& d = kgen::TensorAccess::ref(dst);
  kgen::rt::data_copy(d.pos, &d, nullptr, TPosition::GM, nullptr, src.GetPhyAddr(), kgen::dtype_of<T>(), params, false, 0, loc);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const auto& s = kgen::TensorAccess::ref(src);
  kgen::rt::data_copy(TPosition::GM, nullptr, dst.GetPhyAddr(0), s.pos, &s, nullptr, kgen::dtype_of<T>(), params, false, 0, loc);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const auto& d = kgen::TensorAccess::ref(dst);
  const auto& s = kgen::TensorAccess::ref(src);
  kgen::rt::data_copy(d.pos, &d, nullptr, s.pos, &s, nullptr, kgen::dtype_of<T>(), params, false, 0, loc);
}

// DataCopyPad: lengths in bytes; strides in bytes on the GM side and in 32-byte blocks on the UB side.
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params,
                 const DataCopyPadExtParams<T>& padParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::data_copy_pad(&kgen::TensorAccess::ref(dst), nullptr, nullptr, src.GetPhyAddr(), kgen::dtype_of<T>(), params,
                          padParams.isPad, padParams.leftPadding, padParams.rightPadding,
                          kgen::rt::scalar_of<T>(padParams.paddingValue), true, loc);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& params,
                 kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::data_copy_pad(nullptr, dst.GetPhyAddr(0), &kgen::TensorAccess::ref(src), nullptr, kgen::dtype_of<T>(), params,
                          false, 0, 0, {}, true, loc);
}
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
                 const DataCopyPadParams& padParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  DataCopyExtParams e(params.blockCount, params.blockLen, params.srcStride, params.dstStride, 0);
  kgen::rt::data_copy_pad(&kgen::TensorAccess::ref(dst), nullptr, nullptr, src.GetPhyAddr(), kgen::dtype_of<T>(), e,
                          padParams.isPad, padParams.leftPadding, padParams.rightPadding,
                          kgen::rt::Scalar{padParams.paddingValue}, false, loc);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params,
                 kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  DataCopyExtParams e(params.blockCount, params.blockLen, params.srcStride, params.dstStride, 0);
  kgen::rt::data_copy_pad(nullptr, dst.GetPhyAddr(0), &kgen::TensorAccess::ref(src), nullptr, kgen::dtype_of<T>(), e,
                          false, 0, 0, {}, false, loc);
}

// InitOutput (CANN: deprecated for Fill, still in kernel_operator_common_intf.h): size elements of a GM tensor set to
// value, on a vector core, through a stack buffer of the core's own (a V Duplicate, then MTE3 stores of at most
// 255 blocks each); a cube core does nothing.
template <typename T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::init_output(gmWorkspaceAddr.GetPhyAddr(0), size, kgen::dtype_of<T>(), kgen::rt::scalar_of<T>(value), loc);
}
}  // namespace AscendC
