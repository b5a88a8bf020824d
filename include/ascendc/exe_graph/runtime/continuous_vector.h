// CANN exe_graph/runtime/continuous_vector.h: a size/capacity header followed by the elements (list attributes,
// workspace sizes).
#pragma once
#include <cstddef>
#include <cstdint>
#include "graph/ge_error_codes.h"

namespace kgen::host {
struct Access;
}

namespace gert {
class ContinuousVector {
 public:
  size_t GetSize() const { return size_; }
  ge::graphStatus SetSize(const size_t size) {
    if (size > capacity_) return ge::GRAPH_FAILED;
    size_ = size;
    return ge::GRAPH_SUCCESS;
  }
  size_t GetCapacity() const { return capacity_; }
  const void* GetData() const { return reinterpret_cast<const uint8_t*>(this) + sizeof(ContinuousVector); }
  void* MutableData() { return reinterpret_cast<uint8_t*>(this) + sizeof(ContinuousVector); }

 private:
  friend struct kgen::host::Access;
  ContinuousVector() = default;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

template <typename T>
class TypedContinuousVector : private ContinuousVector {
 public:
  using ContinuousVector::GetCapacity;
  using ContinuousVector::GetSize;
  using ContinuousVector::SetSize;
  T* MutableData() { return static_cast<T*>(ContinuousVector::MutableData()); }
  const T* GetData() const { return static_cast<const T*>(ContinuousVector::GetData()); }

 private:
  TypedContinuousVector() = default;
};

class ContinuousVectorVector {
 public:
  const ContinuousVector* Get(const size_t index) const {
    if (index >= size_) return nullptr;
    return reinterpret_cast<const ContinuousVector*>(reinterpret_cast<const uint8_t*>(this) + offsets_()[index]);
  }
  size_t GetSize() const { return size_; }

 private:
  friend struct kgen::host::Access;
  ContinuousVectorVector() = default;
  const size_t* offsets_() const {
    return reinterpret_cast<const size_t*>(reinterpret_cast<const uint8_t*>(this) + sizeof(ContinuousVectorVector));
  }
  size_t capacity_ = 0;
  size_t size_ = 0;
};
}  // namespace gert
