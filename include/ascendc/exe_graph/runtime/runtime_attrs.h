// CANN exe_graph/runtime/runtime_attrs.h: the op's attributes by index (OpDef declaration order). Int attrs are
// int64_t, Float attrs float, Bool bool, String a NUL-terminated char array, ListInt TypedContinuousVector<int64_t>,
// ListFloat TypedContinuousVector<float>, ListBool TypedContinuousVector<bool>, ListListInt ContinuousVectorVector.
#pragma once
#include <cstddef>
#include <cstdint>
#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/runtime_tensor.h"

namespace gert {
class RuntimeAttrs {
 public:
  template <typename T>
  const T* GetAttrPointer(size_t index) const { return reinterpret_cast<const T*>(GetPointerByIndex(index)); }
  const int64_t* GetInt(const size_t index) const { return GetAttrPointer<int64_t>(index); }
  const TypedContinuousVector<int64_t>* GetListInt(const size_t index) const {
    return GetAttrPointer<TypedContinuousVector<int64_t>>(index);
  }
  const ContinuousVectorVector* GetListListInt(const size_t index) const {
    return GetAttrPointer<ContinuousVectorVector>(index);
  }
  const char* GetStr(const size_t index) const { return GetAttrPointer<char>(index); }
  const Tensor* GetTensor(const size_t index) const { return GetAttrPointer<Tensor>(index); }
  const float* GetFloat(const size_t index) const { return GetAttrPointer<float>(index); }
  const bool* GetBool(const size_t index) const { return GetAttrPointer<bool>(index); }
  const TypedContinuousVector<float>* GetListFloat(const size_t index) const {
    return GetAttrPointer<TypedContinuousVector<float>>(index);
  }
  const ContinuousVectorVector* GetListListFloat(const size_t index) const {
    return GetAttrPointer<ContinuousVectorVector>(index);
  }
  size_t GetAttrNum() const;
  RuntimeAttrs() = delete;
  RuntimeAttrs(const RuntimeAttrs&) = delete;
  RuntimeAttrs(RuntimeAttrs&&) = delete;
  RuntimeAttrs& operator=(const RuntimeAttrs&) = delete;
  RuntimeAttrs& operator=(RuntimeAttrs&&) = delete;

 private:
  friend struct kgen::host::Access;
  explicit RuntimeAttrs(const void* const* ptrs, size_t n) : ptrs_(ptrs), num_(n) {}
  const void* GetPointerByIndex(size_t index) const;
  const void* const* ptrs_;
  size_t num_;
};
}  // namespace gert
