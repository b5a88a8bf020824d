// CANN exe_graph/runtime/infer_shape_range_context.h: declared so that SetInferShapeRange compiles; kgen never
// calls an InferShapeRange function (static shapes only).
#pragma once
#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {
class InferShapeRangeContext : public ExtendedKernelContext {};
}  // namespace gert
