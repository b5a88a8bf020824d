// CANN log/ops_log.h: the OPS_LOG_* and OPS_CHECK* macros of CANN's op projects (cann-ops, vllm-ascend's utils).
// The chip's default log level prints errors only, so D/I/W/EVENT print nothing and E goes to stderr, where kgen's
// diagnostics show it next to the failing TilingFunc. OPS_DESC is a tiling/infershape context or an op name.
#pragma once
#include <cstdarg>
#include <cstdio>
#include <string>

namespace kgen_ops_log {
inline const char* name_of(const char* name) { return name != nullptr ? name : "nil"; }
inline const char* name_of(char* name) { return name != nullptr ? name : "nil"; }
inline const char* name_of(const std::string& name) { return name.c_str(); }
template <typename Context>
const char* name_of(const Context* context) {
  return context != nullptr && context->GetNodeName() != nullptr ? context->GetNodeName() : "nil";
}
inline void error(const char* who, const char* fmt, ...) {
  std::fprintf(stderr, "[ERROR] %s: ", who);
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fputc('\n', stderr);
}
// The arguments are still evaluated (and type-checked) as on the chip, where the level is a runtime setting.
template <typename... Args>
void quiet(const char*, const Args&...) {}
}  // namespace kgen_ops_log

#define OPS_LOG_STUB_E(OPS_DESC, ...) ::kgen_ops_log::error(::kgen_ops_log::name_of(OPS_DESC), __VA_ARGS__)
#define OPS_INNER_ERR_STUB(ERR_CODE_STR, OPS_DESC, ...) OPS_LOG_STUB_E(OPS_DESC, __VA_ARGS__)
#define OPS_LOG_D(OPS_DESC, ...) ::kgen_ops_log::quiet(::kgen_ops_log::name_of(OPS_DESC), __VA_ARGS__)
#define OPS_LOG_I(OPS_DESC, ...) ::kgen_ops_log::quiet(::kgen_ops_log::name_of(OPS_DESC), __VA_ARGS__)
#define OPS_LOG_W(OPS_DESC, ...) ::kgen_ops_log::quiet(::kgen_ops_log::name_of(OPS_DESC), __VA_ARGS__)
#define OPS_LOG_EVENT(OPS_DESC, ...) ::kgen_ops_log::quiet(::kgen_ops_log::name_of(OPS_DESC), __VA_ARGS__)
#define OPS_LOG_E(OPS_DESC, ...) OPS_LOG_STUB_E(OPS_DESC, __VA_ARGS__)
#define OPS_LOG_E_WITHOUT_REPORT(OPS_DESC, ...) OPS_LOG_STUB_E(OPS_DESC, __VA_ARGS__)
#define OPS_LOG_D_FULL(OPS_DESC, ...) OPS_LOG_D(OPS_DESC, __VA_ARGS__)
#define OPS_LOG_I_FULL(OPS_DESC, ...) OPS_LOG_I(OPS_DESC, __VA_ARGS__)
#define OPS_LOG_W_FULL(OPS_DESC, ...) OPS_LOG_W(OPS_DESC, __VA_ARGS__)

// if (COND) { LOG_FUNC; EXPR; } — EXPR is typically `return ge::GRAPH_FAILED`.
#define OPS_LOG_STUB_IF(COND, LOG_FUNC, EXPR) \
  do {                                        \
    if (COND) {                               \
      LOG_FUNC;                               \
      EXPR;                                   \
    }                                         \
  } while (0)
#define OPS_LOG_D_IF(COND, OPS_DESC, EXPR, ...) OPS_LOG_STUB_IF(COND, OPS_LOG_D(OPS_DESC, __VA_ARGS__), EXPR)
#define OPS_LOG_I_IF(COND, OPS_DESC, EXPR, ...) OPS_LOG_STUB_IF(COND, OPS_LOG_I(OPS_DESC, __VA_ARGS__), EXPR)
#define OPS_LOG_W_IF(COND, OPS_DESC, EXPR, ...) OPS_LOG_STUB_IF(COND, OPS_LOG_W(OPS_DESC, __VA_ARGS__), EXPR)
#define OPS_LOG_E_IF(COND, OPS_DESC, EXPR, ...) OPS_LOG_STUB_IF(COND, OPS_LOG_E(OPS_DESC, __VA_ARGS__), EXPR)

// A bare `if` as in CANN: call sites may leave out the semicolon after these.
#define OPS_LOG_E_IF_NULL(OPS_DESC, PTR, EXPR)        \
  if ((PTR) == nullptr) {                             \
    OPS_LOG_STUB_E(OPS_DESC, "%s is nullptr!", #PTR); \
    EXPR;                                             \
  }
#define OPS_CHECK(COND, LOG_FUNC, EXPR) \
  if (COND) {                           \
    LOG_FUNC;                           \
    EXPR;                               \
  }
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr)          \
  if ((ptr) == nullptr) {                                  \
    OPS_LOG_STUB_E(context, "%s is nullptr!", #ptr);       \
    return ge::GRAPH_FAILED;                               \
  }
#define OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret) \
  if ((ptr) == nullptr) {                                  \
    OPS_LOG_STUB_E(context, "%s is nullptr!", #ptr);       \
    return ret;                                            \
  }
