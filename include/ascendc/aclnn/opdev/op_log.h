// CANN's aclnn/opdev/op_log.h, the logging macros op_host code of the aclnn framework uses. Errors and warnings go to
// stderr; debug and info print nothing (CANN's default log level). The first argument (an op name or an error code,
// by release) is not printed. A file that defines these macros itself after including this one keeps its own.
#pragma once
#include <cstdio>

namespace kgen::op_log {
template <class... A>
inline void print(const char* level, const char* fmt, A... args) {
  std::fputs(level, stderr);
  if constexpr (sizeof...(A) == 0) std::fputs(fmt, stderr);
  else std::fprintf(stderr, fmt, args...);
  std::fputc('\n', stderr);
}
}  // namespace kgen::op_log

#define OP_LOGD(tag, ...) ((void)0)
#define OP_LOGI(tag, ...) ((void)0)
#define OP_LOGW(tag, ...) ::kgen::op_log::print("[WARNING] ", __VA_ARGS__)
#define OP_LOGE(tag, ...) ::kgen::op_log::print("[ERROR] ", __VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(tag, ...) ::kgen::op_log::print("[ERROR] ", __VA_ARGS__)
#define OP_CHECK(cond, log_func, return_expr) \
  if (!(cond)) {                              \
    log_func;                                 \
    return_expr;                              \
  }
