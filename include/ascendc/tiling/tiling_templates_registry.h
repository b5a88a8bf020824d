// CANN tiling/tiling_templates_registry.h: tiling strategies (TilingBaseClass subclasses) registered per op type with a
// priority; DoTilingImpl tries them from the smallest priority number up and keeps the first that does not answer
// GRAPH_PARAM_INVALID (not capable). REGISTER_TILING_TEMPLATE("Op", Class, priority) at namespace scope registers one.
#pragma once
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "error/ops_error.h"
#include "exe_graph/runtime/tiling_context.h"
#include "log/ops_log.h"
#include "tiling/tiling_base.h"

namespace optiling {

template <typename T>
std::unique_ptr<TilingBaseClass> TILING_CLASS(gert::TilingContext* context) {
  return std::unique_ptr<T>(new (std::nothrow) T(context));
}

using TilingClassCase = std::unique_ptr<TilingBaseClass> (*)(gert::TilingContext*);

class TilingCases {
 public:
  explicit TilingCases(std::string op_type) : op_type_(std::move(op_type)) {}

  template <typename T>
  void AddTiling(int32_t priority) {
    if (cases_.count(priority) != 0) {
      OPS_REPORT_VECTOR_INNER_ERR(op_type_, "There are duplicate registrations (priority %d).", priority);
      return;
    }
    cases_[priority] = TILING_CLASS<T>;
  }

  const std::map<int32_t, TilingClassCase>& GetTilingCases() const { return cases_; }

 private:
  std::map<int32_t, TilingClassCase> cases_;
  const std::string op_type_;
};

class TilingRegistry {
 public:
  static TilingRegistry& GetInstance() {
    static TilingRegistry registry;
    return registry;
  }

  std::shared_ptr<TilingCases> RegisterOp(const std::string& op_type) {
    auto& cases = registry_[op_type];
    if (cases == nullptr) cases = std::make_shared<TilingCases>(op_type);
    return cases;
  }

  ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
    const char* op_type = context->GetNodeType();
    for (const auto& [priority, make] : GetTilingTemplates(op_type)) {
      std::unique_ptr<TilingBaseClass> strategy = make(context);
      if (strategy == nullptr) continue;
      const ge::graphStatus status = strategy->DoTiling();
      if (status != ge::GRAPH_PARAM_INVALID) return status;
    }
    OPS_REPORT_VECTOR_INNER_ERR(op_type, "Do op tiling failed, no valid template is found.");
    return ge::GRAPH_FAILED;
  }

  // Only the listed priorities, in the listed order; the first that succeeds wins.
  ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
    const auto& templates = GetTilingTemplates(context->GetNodeType());
    for (const int32_t priority : priorities) {
      const auto found = templates.find(priority);
      if (found == templates.end()) continue;
      std::unique_ptr<TilingBaseClass> strategy = found->second(context);
      if (strategy != nullptr && strategy->DoTiling() == ge::GRAPH_SUCCESS) return ge::GRAPH_SUCCESS;
    }
    return ge::GRAPH_FAILED;
  }

  const std::map<int32_t, TilingClassCase>& GetTilingTemplates(const std::string& op_type) {
    const auto found = registry_.find(op_type);
    if (found == registry_.end()) {
      OPS_REPORT_VECTOR_INNER_ERR(op_type, "Get op tiling func failed, please check the op name.");
      return empty_;
    }
    return found->second->GetTilingCases();
  }

 private:
  std::map<std::string, std::shared_ptr<TilingCases>> registry_;
  const std::map<int32_t, TilingClassCase> empty_{};
};

class Register {
 public:
  explicit Register(std::string op_type) : op_type_(std::move(op_type)) {}

  template <typename T>
  Register& tiling(int32_t priority) {
    TilingRegistry::GetInstance().RegisterOp(op_type_)->AddTiling<T>(priority);
    return *this;
  }

 private:
  const std::string op_type_;
};

// Smaller priority numbers are tried first.
#define REGISTER_TILING_TEMPLATE(op_type, class_name, priority) \
  static ::optiling::Register VAR_UNUSED##op_type_##class_name##priority_register = \
      ::optiling::Register(op_type).tiling<class_name>(priority)

}  // namespace optiling
