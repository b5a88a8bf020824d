// CANN exe_graph/runtime/infer_shape_range_context.h and range.h: the shape ranges an InferShapeRange function reads
// and writes (NPUKernelBench's LayerNormV4 registers one). kgen's calls have static shapes, so a range's minimum and
// maximum are the tensor's shape; kgen itself runs InferShape, never InferShapeRange.
#pragma once
#include <cstddef>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/shape.h"

namespace gert {
template <typename T> class Range {
 public:
  Range() = default;
  explicit Range(T* same) : min_(same), max_(same) {}
  Range(T* min, T* max) : min_(min), max_(max) {}
  const T* GetMin() const { return min_; }
  T* GetMin() { return min_; }
  const T* GetMax() const { return max_; }
  T* GetMax() { return max_; }
  void SetMin(T* min) { min_ = min; }
  void SetMax(T* max) { max_ = max; }

 private:
  T* min_ = nullptr;
  T* max_ = nullptr;
};

class InferShapeRangeContext : public ExtendedKernelContext {
 public:
  const Range<Shape>* GetInputShapeRange(const size_t index) const;
  const Range<Shape>* GetOptionalInputShapeRange(const size_t ir_index) const;
  const Range<Shape>* GetDynamicInputShapeRange(const size_t ir_index, const size_t relative_index) const;
  Range<Shape>* GetOutputShapeRange(const size_t index);
};
}  // namespace gert
