// CANN exe_graph/runtime/compute_node_info.h (the part tiling functions use): gert::CompileTimeTensorDesc, the
// dtype and formats of one input or output.
#pragma once
#include "exe_graph/runtime/storage_format.h"
#include "graph/types.h"

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
}  // namespace gert
