// CANN exe_graph/runtime/extended_kernel_context.h: what every host-side context answers about the node (type,
// name, attributes, input/output tensor descriptions). kgen implements the accessors in libkgen_host over the
// call the op runner makes.
#pragma once
#include <cstddef>
#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "graph/types.h"

namespace kgen::host {
struct Access;
struct CallState;
}

namespace gert {
class ExtendedKernelContext {
 public:
  const CompileTimeTensorDesc* GetInputDesc(const size_t index) const;
  const CompileTimeTensorDesc* GetOptionalInputDesc(const size_t ir_index) const;
  const CompileTimeTensorDesc* GetRequiredInputDesc(const size_t ir_index) const;
  const CompileTimeTensorDesc* GetDynamicInputDesc(const size_t ir_index, const size_t relative_index) const;
  const CompileTimeTensorDesc* GetOutputDesc(const size_t index) const;
  size_t GetComputeNodeInputNum() const;
  size_t GetComputeNodeOutputNum() const;
  const RuntimeAttrs* GetAttrs() const;
  const ge::char_t* GetNodeType() const;
  const ge::char_t* GetNodeName() const;
  const ComputeNodeInfo* GetComputeNodeInfo() const;
  ExtendedKernelContext(const ExtendedKernelContext&) = delete;
  ExtendedKernelContext& operator=(const ExtendedKernelContext&) = delete;

 protected:
  ExtendedKernelContext() = default;
  friend struct kgen::host::Access;
  kgen::host::CallState* kgen_state_ = nullptr;
};
}  // namespace gert
