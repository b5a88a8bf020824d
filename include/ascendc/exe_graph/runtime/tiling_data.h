// CANN exe_graph/runtime/tiling_data.h: the raw tiling buffer of a TilingFunc (capacity, data size, bytes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "graph/ge_error_codes.h"

namespace kgen::host {
struct Access;
}

namespace gert {
class TilingData {
 public:
  size_t GetCapacity() const { return capacity_; }
  size_t GetDataSize() const { return data_size_; }
  void SetDataSize(const size_t size) { data_size_ = size; }
  void* GetData() { return data_; }
  const void* GetData() const { return data_; }
  template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
  ge::graphStatus Append(const T& data) {
    return Append(&data, 1);
  }
  template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
  ge::graphStatus Append(const T* data, size_t append_num) {
    size_t bytes = sizeof(T) * append_num;
    if (data_size_ > capacity_ || bytes > capacity_ - data_size_) return ge::GRAPH_FAILED;
    std::memcpy(static_cast<uint8_t*>(data_) + data_size_, data, bytes);
    data_size_ += bytes;
    return ge::GRAPH_SUCCESS;
  }
  TilingData(const TilingData&) = delete;
  TilingData(TilingData&&) = delete;
  TilingData operator=(const TilingData&) = delete;
  TilingData operator=(TilingData&&) = delete;

 private:
  friend struct kgen::host::Access;
  TilingData() = default;
  size_t capacity_ = 0;
  size_t data_size_ = 0;
  void* data_ = nullptr;
};
}  // namespace gert
