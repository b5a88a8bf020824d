// CANN exe_graph/runtime/runtime_tensor.h: gert::Tensor, a tensor as tiling / infer-shape functions see it (shape,
// format, dtype, and for value-depend inputs the host copy of its data).
#pragma once
#include <cstddef>
#include <cstdint>
#include "exe_graph/runtime/storage_format.h"
#include "exe_graph/runtime/storage_shape.h"
#include "graph/types.h"

namespace kgen::host {
struct Access;
}

namespace gert {
class Tensor {
 public:
  Tensor() = default;
  Tensor(const StorageShape& storage_shape, const StorageFormat& storage_format, ge::DataType data_type)
      : storage_shape_(storage_shape), storage_format_(storage_format), data_type_(data_type) {}
  int64_t GetShapeSize() const { return storage_shape_.GetStorageShape().GetShapeSize(); }
  template <class T>
  const T* GetData() const { return static_cast<const T*>(GetAddr()); }
  template <class T>
  auto GetData() -> T* { return static_cast<T*>(GetAddr()); }
  const void* GetAddr() const { return addr_; }
  void* GetAddr() { return addr_; }
  size_t GetSize() const { return size_; }
  void SetSize(const size_t size) { size_ = size; }
  ge::DataType GetDataType() const { return data_type_; }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }
  const Shape& GetStorageShape() const { return storage_shape_.GetStorageShape(); }
  Shape& MutableStorageShape() { return storage_shape_.MutableStorageShape(); }
  const Shape& GetOriginShape() const { return storage_shape_.GetOriginShape(); }
  Shape& MutableOriginShape() { return storage_shape_.MutableOriginShape(); }
  const StorageShape& GetShape() const { return storage_shape_; }
  StorageShape& GetShape() { return storage_shape_; }
  ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
  void SetStorageFormat(const ge::Format storage_format) { storage_format_.SetStorageFormat(storage_format); }
  ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
  void SetOriginFormat(const ge::Format origin_format) { storage_format_.SetOriginFormat(origin_format); }
  const StorageFormat& GetFormat() const { return storage_format_; }
  StorageFormat& MutableFormat() { return storage_format_; }

 private:
  friend struct kgen::host::Access;
  StorageShape storage_shape_;
  StorageFormat storage_format_;
  ge::DataType data_type_ = ge::DT_FLOAT;
  void* addr_ = nullptr;
  size_t size_ = 0;
};
}  // namespace gert
