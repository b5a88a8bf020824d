// CANN exe_graph/runtime/tiling_context.h: the context of an op's TilingFunc.
#pragma once
#include <cstddef>
#include <cstdint>
#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tiling_data.h"
#include "graph/ge_error_codes.h"

namespace fe {
class PlatFormInfos;
}  // namespace fe

namespace gert {
class TilingContext : public ExtendedKernelContext {
 public:
  const StorageShape* GetInputShape(const size_t index) const;
  const Tensor* GetInputTensor(const size_t index) const;
  const Tensor* GetOptionalInputTensor(const size_t ir_index) const;
  const Tensor* GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const;
  const StorageShape* GetOptionalInputShape(const size_t ir_index) const;
  const StorageShape* GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const;
  const StorageShape* GetOutputShape(const size_t index) const;
  ge::graphStatus SetTilingKey(const uint64_t tiling_key);
  uint64_t GetTilingKey() const;
  ge::graphStatus SetScheduleMode(const uint32_t schedule_mode);
  uint32_t GetScheduleMode() const;
  ge::graphStatus SetBlockDim(const uint32_t block_dim);
  uint32_t GetBlockDim() const;
  ge::graphStatus SetTilingCond(int32_t tiling_cond);
  int32_t GetTilingCond() const;
  ge::graphStatus SetNeedAtomic(const bool atomic);
  bool NeedAtomic() const;
  template <typename T>
  auto GetTilingData() -> T* {
    auto tiling_data = GetRawTilingData();
    if (tiling_data == nullptr || tiling_data->GetCapacity() < sizeof(T)) return nullptr;
    tiling_data->SetDataSize(sizeof(T));
    return static_cast<T*>(tiling_data->GetData());
  }
  TilingData* GetRawTilingData();
  size_t* GetWorkspaceSizes(const size_t workspace_count);
  size_t GetWorkspaceNum() const;
  fe::PlatFormInfos* GetPlatformInfo() const;
  int32_t GetDeterministic() const;
  // What the op's TilingParse filled (IMPL_OP(...).TilingParse<T>), or nullptr when it registers none.
  const void* GetCompileInfo() const;
  template <typename T>
  const T* GetCompileInfo() const {
    return static_cast<const T*>(GetCompileInfo());
  }
};
}  // namespace gert
