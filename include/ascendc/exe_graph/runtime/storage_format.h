// CANN exe_graph/runtime/storage_format.h: origin and storage format of a tensor.
#pragma once
#include "graph/types.h"

namespace gert {
struct StorageFormat {
 public:
  StorageFormat() = default;
  StorageFormat(const ge::Format origin_format, const ge::Format storage_format)
      : origin_format_(origin_format), storage_format_(storage_format) {}
  ge::Format GetOriginFormat() const { return origin_format_; }
  void SetOriginFormat(const ge::Format origin_format) { origin_format_ = origin_format; }
  ge::Format GetStorageFormat() const { return storage_format_; }
  void SetStorageFormat(const ge::Format storage_format) { storage_format_ = storage_format; }
  bool operator==(const StorageFormat& other) const {
    return origin_format_ == other.origin_format_ && storage_format_ == other.storage_format_;
  }
  bool operator!=(const StorageFormat& other) const { return !(*this == other); }

 private:
  ge::Format origin_format_ = ge::FORMAT_ND;
  ge::Format storage_format_ = ge::FORMAT_ND;
};
}  // namespace gert
