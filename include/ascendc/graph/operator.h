// CANN graph/operator.h, the part an op_host file's check-support function reads (OpAICoreDef::SetCheckSupport:
// NPUKernelBench's ReverseSequence): ge::TensorDesc and ge::Operator, a node's input/output descriptions by name and
// its attributes. Graph compilation calls such functions; an aclnn call, and so kgen, never does.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
class TensorDesc {
 public:
  TensorDesc() = default;
  explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT)
      : shape_(std::move(shape)), origin_shape_(shape_), format_(format), dtype_(dt) {}
  Shape GetShape() const { return shape_; }
  void SetShape(const Shape& shape) { shape_ = shape; }
  Shape GetOriginShape() const { return origin_shape_; }
  void SetOriginShape(const Shape& shape) { origin_shape_ = shape; }
  Format GetFormat() const { return format_; }
  void SetFormat(Format format) { format_ = format; }
  DataType GetDataType() const { return dtype_; }
  void SetDataType(DataType dt) { dtype_ = dt; }

 private:
  Shape shape_, origin_shape_;
  Format format_ = FORMAT_ND;
  DataType dtype_ = DT_FLOAT;
};

class Operator {
 public:
  Operator() = default;
  explicit Operator(const char* type) : type_(type ? type : "") {}
  Operator(const char* name, const char* type) : name_(name ? name : ""), type_(type ? type : "") {}
  graphStatus GetName(AscendString& name) const {
    name = AscendString(name_.c_str());
    return GRAPH_SUCCESS;
  }
  graphStatus GetOpType(AscendString& type) const {
    type = AscendString(type_.c_str());
    return GRAPH_SUCCESS;
  }
  // A description not set is the default one, as CANN returns for an unknown name.
  TensorDesc GetInputDescByName(const char* name) const { return find(inputs_, name); }
  TensorDesc GetOutputDescByName(const char* name) const { return find(outputs_, name); }
  graphStatus UpdateInputDesc(const char* name, const TensorDesc& desc) { return put(inputs_, name, desc); }
  graphStatus UpdateOutputDesc(const char* name, const TensorDesc& desc) { return put(outputs_, name, desc); }
  Operator& SetAttr(const char* name, int64_t v) { return set(name, v); }
  Operator& SetAttr(const char* name, int32_t v) { return set(name, static_cast<int64_t>(v)); }
  Operator& SetAttr(const char* name, float v) { return set(name, v); }
  Operator& SetAttr(const char* name, bool v) { return set(name, v); }
  Operator& SetAttr(const char* name, const char* v) { return set(name, std::string(v ? v : "")); }
  Operator& SetAttr(const char* name, const std::vector<int64_t>& v) { return set(name, v); }
  // GRAPH_FAILED when the attribute is absent or of another type.
  graphStatus GetAttr(const char* name, int64_t& v) const { return get(name, v); }
  graphStatus GetAttr(const char* name, int32_t& v) const {
    int64_t w = 0;
    const graphStatus s = get(name, w);
    if (s == GRAPH_SUCCESS) v = static_cast<int32_t>(w);
    return s;
  }
  graphStatus GetAttr(const char* name, float& v) const { return get(name, v); }
  graphStatus GetAttr(const char* name, bool& v) const { return get(name, v); }
  graphStatus GetAttr(const char* name, std::vector<int64_t>& v) const { return get(name, v); }
  graphStatus GetAttr(const char* name, AscendString& v) const {
    std::string s;
    const graphStatus st = get(name, s);
    if (st == GRAPH_SUCCESS) v = AscendString(s.c_str());
    return st;
  }

 private:
  using Attr = std::variant<int64_t, float, bool, std::string, std::vector<int64_t>>;
  static TensorDesc find(const std::map<std::string, TensorDesc>& m, const char* name) {
    auto it = m.find(name ? name : "");
    return it == m.end() ? TensorDesc() : it->second;
  }
  static graphStatus put(std::map<std::string, TensorDesc>& m, const char* name, const TensorDesc& desc) {
    if (!name) return GRAPH_FAILED;
    m[name] = desc;
    return GRAPH_SUCCESS;
  }
  template <class T> Operator& set(const char* name, T v) {
    if (name) attrs_[name] = Attr(std::move(v));
    return *this;
  }
  template <class T> graphStatus get(const char* name, T& v) const {
    auto it = attrs_.find(name ? name : "");
    if (it == attrs_.end() || !std::holds_alternative<T>(it->second)) return GRAPH_FAILED;
    v = std::get<T>(it->second);
    return GRAPH_SUCCESS;
  }
  std::string name_, type_;
  std::map<std::string, TensorDesc> inputs_, outputs_;
  std::map<std::string, Attr> attrs_;
};
}  // namespace ge
