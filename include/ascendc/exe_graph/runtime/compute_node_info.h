// CANN exe_graph/runtime/compute_node_info.h (the part tiling functions use): gert::CompileTimeTensorDesc, the
// dtype and formats of one input or output; gert::ComputeNodeInfo, the node a context belongs to, with the
// instances of each IR input (a DYNAMIC input has one per tensor of its list). Implemented in libkgen_host.
#pragma once
#include <cstddef>
#include <cstdint>
#include "exe_graph/runtime/storage_format.h"
#include "graph/types.h"

namespace kgen::host {
struct Access;
struct CallState;
}

namespace gert {
class CompileTimeTensorDesc {
 public:
  CompileTimeTensorDesc() = default;
  ge::DataType GetDataType() const { return data_type_; }
  const StorageFormat& GetFormat() const { return storage_format_; }
  ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }
  void SetStorageFormat(const ge::Format format) { storage_format_.SetStorageFormat(format); }
  void SetOriginFormat(const ge::Format format) { storage_format_.SetOriginFormat(format); }

 private:
  ge::DataType data_type_ = ge::DT_FLOAT;
  StorageFormat storage_format_;
};

class RuntimeAttrs;

// Where the tensors of one IR input sit among the node's inputs: GetInputDesc(start) .. (start + num - 1).
class AnchorInstanceInfo {
 public:
  AnchorInstanceInfo() = default;
  AnchorInstanceInfo(const uint32_t instance_start, const uint32_t instantiation_num)
      : instance_start_(instance_start), instantiation_num_(instantiation_num) {}
  size_t GetInstanceNum() const { return instantiation_num_; }
  size_t GetInstanceStart() const { return instance_start_; }

 private:
  uint32_t instance_start_ = 0;
  uint32_t instantiation_num_ = 0;
};

class ComputeNodeInfo {
 public:
  const ge::char_t* GetNodeType() const;
  const ge::char_t* GetNodeName() const;
  size_t GetIrInputsNum() const;
  size_t GetInputsNum() const;
  size_t GetOutputsNum() const;
  const AnchorInstanceInfo* GetInputInstanceInfo(const size_t ir_index) const;
  const CompileTimeTensorDesc* GetInputTdInfo(const size_t index) const;
  const CompileTimeTensorDesc* GetOutputTdInfo(const size_t index) const;
  const RuntimeAttrs* GetAttrs() const;
  ComputeNodeInfo(const ComputeNodeInfo&) = delete;
  ComputeNodeInfo& operator=(const ComputeNodeInfo&) = delete;

 private:
  ComputeNodeInfo() = default;
  friend struct kgen::host::Access;
  friend struct kgen::host::CallState;
  friend class ExtendedKernelContext;
  const kgen::host::CallState* kgen_state_ = nullptr;
};
}  // namespace gert
