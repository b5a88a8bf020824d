// CANN tiling/tiling_base.h (cann-ops / vllm-ascend op_host utilities): optiling::TilingBaseClass, the template-method
// base of a tiling strategy. DoTiling runs the steps in CANN's order; a step that fails stops the tiling, and a
// strategy whose IsCapable() is false answers GRAPH_PARAM_INVALID so that the registry tries the next one
// (tiling/tiling_templates_registry.h).
#pragma once
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"   // strategies' compile info (cann-ops BatchNormV3)
#include "graph/utils/type_utils.h"
#include "log/ops_log.h"
#include "tiling/platform/platform_ascendc.h"

// cann-ops marks its exported tiling entry points with this: extern "C" only in CANN's op unit-test build.
#ifdef ASCENDC_OP_TEST
#define ASCENDC_EXTERN_C extern "C"
#else
#define ASCENDC_EXTERN_C
#endif

namespace optiling {

struct AiCoreParams {
  uint64_t ubSize;
  uint64_t blockDim;
  uint64_t aicNum;
  uint64_t l1Size;
  uint64_t l0aSize;
  uint64_t l0bSize;
  uint64_t l0cSize;
};

class TilingBaseClass {
 public:
  TilingBaseClass() = default;
  explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
  virtual ~TilingBaseClass() = default;

  // GRAPH_SUCCESS: done; GRAPH_PARAM_INVALID: this strategy does not apply; anything else: the tiling failed.
  ge::graphStatus DoTiling() {
    ge::graphStatus status = GetShapeAttrsInfo();
    if (status != ge::GRAPH_SUCCESS) return status;
    if ((status = GetPlatformInfo()) != ge::GRAPH_SUCCESS) return status;
    if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
    if ((status = DoOpTiling()) != ge::GRAPH_SUCCESS) return status;
    if ((status = DoLibApiTiling()) != ge::GRAPH_SUCCESS) return status;
    if ((status = GetWorkspaceSize()) != ge::GRAPH_SUCCESS) return status;
    if ((status = PostTiling()) != ge::GRAPH_SUCCESS) return status;
    context_->SetTilingKey(GetTilingKey());
    DumpTilingInfo();
    return ge::GRAPH_SUCCESS;
  }

  virtual void Reset(gert::TilingContext* context) { context_ = context; }

 protected:
  virtual bool IsCapable() = 0;
  virtual ge::graphStatus GetPlatformInfo() = 0;    // core count, UB / L1 / L0 sizes
  virtual ge::graphStatus GetShapeAttrsInfo() = 0;  // inputs, outputs, attributes
  virtual ge::graphStatus DoOpTiling() = 0;         // the op's own split
  virtual ge::graphStatus DoLibApiTiling() = 0;     // tiling of the advanced APIs it calls
  [[nodiscard]] virtual uint64_t GetTilingKey() const = 0;
  virtual ge::graphStatus GetWorkspaceSize() = 0;
  virtual ge::graphStatus PostTiling() = 0;  // save the tiling data into the context
  // CANN dumps the raw tiling words at the DEBUG log level only; the chip's default level prints nothing.
  virtual void DumpTilingInfo() {}

  // Block dim for a mixed (cube + vector) launch: slices counted in vector cores, launched in cube-core groups.
  static uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    return (sliceNum + ratio - 1) / ratio;
  }

  template <typename Shape>
  [[nodiscard]] std::string GetShapeDebugStr(const Shape& shape) const {
    std::ostringstream out;
    out << "[";
    for (size_t i = 0; i < shape.GetDimNum(); ++i) out << (i ? ", " : "") << shape.GetDim(i);
    out << "]";
    return out.str();
  }

  [[nodiscard]] std::string GetTensorDebugStr(const gert::StorageShape* shape,
                                              const gert::CompileTimeTensorDesc* tensor) const {
    if (shape == nullptr || tensor == nullptr) return "nil ";
    std::ostringstream out;
    out << "(dtype: " << ge::TypeUtils::DataTypeToSerialString(tensor->GetDataType()) << "),"
        << "(shape:" << GetShapeDebugStr(shape->GetStorageShape()) << "),"
        << "(ori_shape:" << GetShapeDebugStr(shape->GetOriginShape()) << "),"
        << "(format: " << ge::TypeUtils::FormatToSerialString(tensor->GetStorageFormat()) << "),"
        << "(ori_format: " << ge::TypeUtils::FormatToSerialString(tensor->GetOriginFormat()) << ") ";
    return out.str();
  }

  [[nodiscard]] std::string GetTilingContextDebugStr() const {
    std::ostringstream out;
    for (size_t i = 0; i < context_->GetComputeNodeInputNum(); ++i)
      out << "input" << i << ": " << GetTensorDebugStr(context_->GetInputShape(i), context_->GetInputDesc(i));
    for (size_t i = 0; i < context_->GetComputeNodeOutputNum(); ++i)
      out << "output" << i << ": " << GetTensorDebugStr(context_->GetOutputShape(i), context_->GetOutputDesc(i));
    return out.str();
  }

  [[nodiscard]] std::string GetTilingDataDebugStr() const {
    const auto* raw = context_->GetRawTilingData();
    const auto* words = reinterpret_cast<const int32_t*>(raw->GetData());
    std::ostringstream out;
    for (size_t i = 0; i < raw->GetDataSize() / sizeof(int32_t); ++i) out << words[i] << ", ";
    return out.str();
  }

  gert::TilingContext* context_ = nullptr;
  std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
  uint32_t blockDim_{0};
  uint64_t workspaceSize_{0};
  uint64_t tilingKey_{0};
  AiCoreParams aicoreParams_{0, 0, 0, 0, 0, 0, 0};
};

}  // namespace optiling
