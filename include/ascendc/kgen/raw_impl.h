// CANN's stack buffer and the internal *Impl calls on raw addresses that cann-ops kernels call directly
// (NPUKernelBench's GeGluV2): PopStackBuffer hands out the UB after the TPipe's buffers (impl/basic_api/
// kernel_pop_stack_buffer.h, S82); DuplicateImpl and DataCopyUB2GMImpl are Duplicate's count form and DataCopy's
// UB -> GM form on (__ubuf__ T*)tensor.GetPhyAddr() addresses, which here are UB offsets.
#pragma once
#include <cstdint>

#include "kgen/data_copy.h"
#include "kgen/runtime.h"
#include "kgen/tensor.h"
#include "kgen/tpipe.h"
#include "kgen/vec_misc.h"

namespace kgen {
// The UB tensor at a raw address `p` ((__ubuf__ T*)GetPhyAddr()), `bytes` long.
template <typename T> AscendC::LocalTensor<T> ub_at(const T* p, uint64_t bytes) {
  return TensorAccess::make<T>(rt::ub_ref(reinterpret_cast<uintptr_t>(p), bytes));
}
}  // namespace kgen

namespace AscendC {
template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& pop, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  pop = kgen::TensorAccess::make<T>(kgen::rt::pop_stack_buffer(pos, loc));
  return true;
}

template <typename T>
void DuplicateImpl(T* dst, const T& scalarValue, const int32_t& count, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  const uint64_t n = count > 0 ? static_cast<uint64_t>(count) : 0;
  Duplicate(kgen::ub_at(dst, n * sizeof(T)), scalarValue, count, loc);
}

template <typename T>
void DataCopyUB2GMImpl(T* dst, T* src, const DataCopyParams& params, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(dst);
  const uint64_t n = params.blockCount;   // blocks of blockLen 32-byte units, srcStride units apart in UB
  const uint64_t span = n ? ((n - 1) * (params.blockLen + params.srcStride) + params.blockLen) * 32 : 0;
  DataCopy(g, kgen::ub_at(src, span), params, loc);
}
}  // namespace AscendC
