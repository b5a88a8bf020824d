// CANN exe_graph/runtime/infer_shape_context.h: the context of an op's InferShape function.
#pragma once
#include <cstddef>
#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "exe_graph/runtime/shape.h"

namespace gert {
class InferShapeContext : public ExtendedKernelContext {
 public:
  const Shape* GetInputShape(const size_t index) const;
  const Tensor* GetInputTensor(const size_t index) const;
  const Tensor* GetOptionalInputTensor(const size_t ir_index) const;
  const Shape* GetOptionalInputShape(const size_t ir_index) const;
  const Shape* GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const;
  const Tensor* GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const;
  const Tensor* GetRequiredInputTensor(const size_t ir_index) const;
  const Shape* GetRequiredInputShape(const size_t ir_index) const;
  Shape* GetOutputShape(const size_t index);
};
}  // namespace gert
