// Internals of libkgen_host: the OpDef implementation objects, the registry and the state behind one call's gert
// contexts. kgen::host::Access is the friend every public CANN class names.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "host/op_host.h"
#include "register/op_def_registry.h"

namespace ops {
class OpParamDefImpl {
 public:
  std::string name;
  Option type = REQUIRED;
  std::vector<int> dtypes, formats, unknown_shape_formats;
  bool dtype_list = false, format_list = false;
  bool value_depend = false;   // ValueDepend(REQUIRED|OPTIONAL): TilingFunc and InferShape may read its data
  bool scalar = false;         // Scalar(): the aclnn API takes an aclScalar* for it
  bool scalar_list = false;    // ScalarList(): the aclnn API takes an aclScalarList* for it
};
class OpAttrDefImpl {
 public:
  std::string name;
  bool required = false;
  kgen::host::AttrValue value;
};
class OpAICoreConfigImpl {
 public:
  std::deque<OpParamDef> inputs, outputs;
};
class OpAICoreDefImpl {
 public:
  gert::OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
  std::vector<std::pair<std::string, OpAICoreConfig>> configs;
};
class OpDefImpl {
 public:
  std::string type;
  std::deque<OpParamDef> inputs, outputs;
  std::deque<OpAttrDef> attrs;
  gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
  gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_dtype = nullptr;
  OpAICoreDef aicore;
};
}  // namespace ops

namespace kgen::host {
struct Access {
  static ops::OpDefImpl& impl(ops::OpDef& d) { return *d.impl_; }
  static ops::OpParamDefImpl& impl(const ops::OpParamDef& d) { return *d.impl_; }
  static ops::OpAttrDefImpl& impl(const ops::OpAttrDef& d) { return *d.impl_; }
  static ops::OpAICoreDefImpl& impl(const ops::OpAICoreDef& d) { return *d.impl_; }
  static ops::OpAICoreConfigImpl& impl(const ops::OpAICoreConfig& d) { return *d.impl_; }
  static void set_state(gert::ExtendedKernelContext& c, CallState* s) { c.kgen_state_ = s; }
  static CallState& state(const gert::ExtendedKernelContext& c) { return *c.kgen_state_; }
  static void set_tensor(gert::Tensor& t, const gert::StorageShape& s, ge::Format f, ge::DataType dt, const void* data,
                         size_t bytes) {
    t.storage_shape_ = s;
    t.storage_format_ = gert::StorageFormat(f, f);
    t.data_type_ = dt;
    t.addr_ = const_cast<void*>(data);
    t.size_ = bytes;
  }
  static std::unique_ptr<gert::TilingData> new_tiling_data(void* data, size_t capacity) {
    std::unique_ptr<gert::TilingData> td(new gert::TilingData());
    td->capacity_ = capacity;
    td->data_ = data;
    return td;
  }
  static std::unique_ptr<gert::RuntimeAttrs> new_attrs(const void* const* ptrs, size_t n) {
    return std::unique_ptr<gert::RuntimeAttrs>(new gert::RuntimeAttrs(ptrs, n));
  }
  static const void* const* attr_ptrs(const gert::RuntimeAttrs& a) { return a.ptrs_; }
  static size_t attr_num(const gert::RuntimeAttrs& a) { return a.num_; }
  // A ContinuousVector with `capacity` elements of `elem` bytes in `buf` (sized by cv_bytes).
  static size_t cv_bytes(size_t capacity, size_t elem) { return sizeof(gert::ContinuousVector) + capacity * elem; }
  static void cv_init(void* buf, size_t capacity, size_t size) {
    auto* cv = new (buf) gert::ContinuousVector();
    cv->capacity_ = capacity;
    cv->size_ = size;
  }
  static void cvv_init(void* buf, size_t n) {
    auto* v = new (buf) gert::ContinuousVectorVector();
    v->capacity_ = n;
    v->size_ = n;
  }
  static size_t cvv_header(size_t n) { return sizeof(gert::ContinuousVectorVector) + n * sizeof(size_t); }
};

struct OpEntry {
  OpInfo info;
  gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
  gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_dtype = nullptr;
  gert::OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
  gert::OpImplRegisterV2::TilingParseFunc tiling_parse = nullptr;   // IMPL_OP(...).TilingParse<T>
  void* (*make_compile_info)() = nullptr;                            // new T
  void (*free_compile_info)(void*) = nullptr;                        // delete T
};
// What IMPL_OP(type) registrations (src/host/op_impl.cpp) give an OpDef that does not set it itself: its
// functions, and ValueDepend for the inputs named by InputsDataDependency / TilingInputsDataDependency.
void merge_impl(OpEntry& e);
// The registered op of that type, or nullptr.
const OpEntry* find_op(const std::string& type);
}  // namespace kgen::host
