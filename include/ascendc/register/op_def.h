// CANN register/op_def.h: the operator definition of an op project's host side (guide "OpDef"): inputs/outputs
// (OpParamDef), attributes (OpAttrDef), InferShape/InferDataType, and the AI Core part (TilingFunc, SoC configs).
// kgen implements it in libkgen_host; OP_ADD (register/op_def_registry.h) registers the definition there.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/operator.h"
#include "graph/types.h"


namespace kgen::host {
struct Access;
}

namespace gert {
class TilingParseContext;
// CANN's register/op_impl_registry.h: the function types OpDef takes, and the builder behind IMPL_OP(type) (the
// macros are in register/op_impl_registry.h) that registers them by op type apart from the OpDef, as cann-ops
// projects do in their tiling and infershape files. kgen's runner uses what the OpDef does not set itself.
class OpImplRegisterV2 {
 public:
  using InferShapeKernelFunc = uint32_t (*)(InferShapeContext*);
  using InferShapeRangeKernelFunc = uint32_t (*)(InferShapeRangeContext*);
  using InferDataTypeKernelFunc = uint32_t (*)(InferDataTypeContext*);
  using TilingKernelFunc = uint32_t (*)(TilingContext*);
  using TilingParseFunc = uint32_t (*)(TilingParseContext*);
  explicit OpImplRegisterV2(const char* op_type);
  OpImplRegisterV2& InferShape(InferShapeKernelFunc func);
  OpImplRegisterV2& InferShapeRange(InferShapeRangeKernelFunc func);
  OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc func);
  OpImplRegisterV2& Tiling(TilingKernelFunc func, size_t max_tiling_data_size = 2048);
  // The compile info struct T that TilingParse fills once and TilingContext::GetCompileInfo() hands the tiling.
  template <typename T>
  OpImplRegisterV2& TilingParse(TilingParseFunc func) {
    return TilingParseOf(func, [] { return static_cast<void*>(new T()); }, [](void* p) { delete static_cast<T*>(p); });
  }
  // The inputs whose values InferShape / the TilingFunc read (as ValueDepend in an OpDef).
  OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t> inputs);
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> inputs);
  OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t> outputs);

 private:
  OpImplRegisterV2& TilingParseOf(TilingParseFunc func, void* (*make)(), void (*destroy)(void*));
  const char* type_;
};
}  // namespace gert

namespace optiling {
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
using PARAM_GENERALIZE_FUNC = ge::graphStatus (*)(const ge::Operator& op, const ge::AscendString& generalize_config,
                                                  ge::AscendString& generalized_op_params);
}  // namespace optiling

namespace ops {
enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT = 1, MAX };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class CommentSection : uint32_t { CATEGORY = 0, BRIEF = 1, CONSTRAINTS = 2, RESTRICTIONS = 3, SEE = 4,
                                       THIRDPARTYFWKCOMPAT = 5, SECTION_MAX };

class OpParamDefImpl;
class OpParamDef {
 public:
  explicit OpParamDef(const char* name);
  OpParamDef(const OpParamDef& def);
  ~OpParamDef();
  OpParamDef& operator=(const OpParamDef& def);
  OpParamDef& ParamType(Option param_type);
  OpParamDef& DataType(std::vector<ge::DataType> types);
  OpParamDef& DataTypeList(std::vector<ge::DataType> types);
  OpParamDef& Format(std::vector<ge::Format> formats);
  OpParamDef& FormatList(std::vector<ge::Format> formats);
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats);
  OpParamDef& ValueDepend(Option value_depend);
  OpParamDef& ValueDepend(Option value_depend, DependScope scope);
  OpParamDef& IgnoreContiguous(void);
  OpParamDef& AutoContiguous();
  OpParamDef& Scalar();
  OpParamDef& ScalarList();
  OpParamDef& To(const ge::DataType type);
  OpParamDef& To(const char* name);
  OpParamDef& Version(uint32_t version);
  OpParamDef& InitValue(uint64_t value);
  OpParamDef& OutputShapeDependOnCompute();
  OpParamDef& Follow(const char* paramName);
  OpParamDef& Follow(const char* paramName, FollowType ftype);
  OpParamDef& Comment(const char* comment);

 private:
  friend struct kgen::host::Access;
  OpParamDefImpl* impl_;
};

class OpAttrDefImpl;
class OpAttrDef {
 public:
  explicit OpAttrDef(const char* name);
  OpAttrDef(const OpAttrDef& attr_def);
  ~OpAttrDef();
  OpAttrDef& operator=(const OpAttrDef& attr_def);
  OpAttrDef& AttrType(Option attr_type);
  OpAttrDef& Bool(void);
  OpAttrDef& Bool(bool value);
  OpAttrDef& Float(void);
  OpAttrDef& Float(float value);
  OpAttrDef& Int(void);
  OpAttrDef& Int(int64_t value);
  OpAttrDef& String(void);
  OpAttrDef& String(const char* value);
  OpAttrDef& ListBool(void);
  OpAttrDef& ListBool(std::vector<bool> value);
  OpAttrDef& ListFloat(void);
  OpAttrDef& ListFloat(std::vector<float> value);
  OpAttrDef& ListInt(void);
  OpAttrDef& ListInt(std::vector<int64_t> value);
  OpAttrDef& ListListInt(void);
  OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> value);
  OpAttrDef& Version(uint32_t version);
  OpAttrDef& Comment(const char* comment);

 private:
  friend struct kgen::host::Access;
  OpAttrDefImpl* impl_;
};

class OpAICoreConfigImpl;
class OpAICoreConfig {
 public:
  OpAICoreConfig();
  OpAICoreConfig(const char* soc);
  OpAICoreConfig(const OpAICoreConfig& aicore_config);
  ~OpAICoreConfig();
  OpAICoreConfig& operator=(const OpAICoreConfig& aicore_config);
  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);
  OpAICoreConfig& DynamicCompileStaticFlag(bool flag);
  OpAICoreConfig& DynamicFormatFlag(bool flag);
  OpAICoreConfig& DynamicRankSupportFlag(bool flag);
  OpAICoreConfig& DynamicShapeSupportFlag(bool flag);
  OpAICoreConfig& NeedCheckSupportFlag(bool flag);
  OpAICoreConfig& PrecisionReduceFlag(bool flag);
  OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value);

 private:
  friend struct kgen::host::Access;
  OpAICoreConfigImpl* impl_;
};

class OpAICoreDefImpl;
class OpAICoreDef {
 public:
  OpAICoreDef();
  OpAICoreDef(const OpAICoreDef& aicore_def);
  ~OpAICoreDef();
  OpAICoreDef& operator=(const OpAICoreDef& aicore_def);
  OpAICoreDef& SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func);
  OpAICoreDef& SetCheckSupport(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetOpSelectFormat(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetOpSupportInfo(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetOpSpecInfo(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC func);
  OpAICoreDef& AddConfig(const char* soc);
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& aicore_config);

 private:
  friend struct kgen::host::Access;
  OpAICoreDefImpl* impl_;
};

class OpDefImpl;
class OpDef {
 public:
  explicit OpDef(const char* type);
  OpDef(const OpDef& op_def);
  ~OpDef();
  OpDef& operator=(const OpDef& op_def);
  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);
  OpAttrDef& Attr(const char* name);
  OpDef& Comment(CommentSection section, const char* comment);
  OpDef& SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func);
  OpDef& SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc func);
  OpDef& SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func);
  OpAICoreDef& AICore(void);
  OpDef& FormatMatchMode(FormatCheckOption option);
  OpDef& EnableFallBack(void);

 private:
  friend struct kgen::host::Access;
  OpDefImpl* impl_;
};
}  // namespace ops
