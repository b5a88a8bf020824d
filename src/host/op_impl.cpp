// IMPL_OP(type) registrations (register/op_impl_registry.h): an op's InferShape, InferDataType, Tiling and
// TilingParse functions registered by op type apart from its OpDef, merged into the OpDef's entry when it is used.
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "host/host_internal.h"

namespace kgen::host {
namespace {
struct Impl {
  gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
  gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_dtype = nullptr;
  gert::OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
  gert::OpImplRegisterV2::TilingParseFunc tiling_parse = nullptr;
  void* (*make)() = nullptr;
  void (*destroy)(void*) = nullptr;
  std::set<int32_t> data_inputs;
};
std::mutex& impl_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Impl>& impls() {
  static std::map<std::string, Impl> m;
  return m;
}
template <class F>
void edit(const char* type, F f) {
  std::lock_guard<std::mutex> lock(impl_mutex());
  f(impls()[type ? type : ""]);
}
}  // namespace

void merge_impl(OpEntry& e) {
  std::lock_guard<std::mutex> lock(impl_mutex());
  auto it = impls().find(e.info.type);
  if (it == impls().end()) return;
  const Impl& m = it->second;
  if (!e.infer_shape) e.infer_shape = m.infer_shape;
  if (!e.infer_dtype) e.infer_dtype = m.infer_dtype;
  if (!e.tiling) e.tiling = m.tiling;
  if (!e.tiling_parse) {
    e.tiling_parse = m.tiling_parse;
    e.make_compile_info = m.make;
    e.free_compile_info = m.destroy;
  }
  for (int32_t i : m.data_inputs)
    if (i >= 0 && static_cast<size_t>(i) < e.info.inputs.size()) e.info.inputs[i].value_depend = true;
  e.info.has_tiling = e.tiling != nullptr;
  e.info.has_infer_shape = e.infer_shape != nullptr;
  e.info.has_infer_dtype = e.infer_dtype != nullptr;
}
}  // namespace kgen::host

namespace gert {
using kgen::host::Impl;
OpImplRegisterV2::OpImplRegisterV2(const char* op_type) : type_(op_type) { kgen::host::edit(type_, [](Impl&) {}); }
OpImplRegisterV2& OpImplRegisterV2::InferShape(InferShapeKernelFunc func) {
  kgen::host::edit(type_, [&](Impl& m) { m.infer_shape = func; });
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferShapeRange(InferShapeRangeKernelFunc) { return *this; }   // no static graph
OpImplRegisterV2& OpImplRegisterV2::InferDataType(InferDataTypeKernelFunc func) {
  kgen::host::edit(type_, [&](Impl& m) { m.infer_dtype = func; });
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::Tiling(TilingKernelFunc func, size_t) {
  kgen::host::edit(type_, [&](Impl& m) { m.tiling = func; });
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::TilingParseOf(TilingParseFunc func, void* (*make)(), void (*destroy)(void*)) {
  kgen::host::edit(type_, [&](Impl& m) {
    m.tiling_parse = func;
    m.make = make;
    m.destroy = destroy;
  });
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InputsDataDependency(std::initializer_list<int32_t> inputs) {
  kgen::host::edit(type_, [&](Impl& m) { m.data_inputs.insert(inputs.begin(), inputs.end()); });
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::TilingInputsDataDependency(std::initializer_list<int32_t> inputs) {
  return InputsDataDependency(inputs);
}
OpImplRegisterV2& OpImplRegisterV2::OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }
}  // namespace gert
