// CANN metadef's error_manager.h, as op_host code uses it: the REPORT_*_ERROR macros record an error message for the
// graph engine's report. kgen has no graph engine: the message goes to stderr, where the op run's errors go.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace kgen::error_manager {
template <class... A>
inline void report_inner(const char* code, const char* file, int line, const char* fmt, A... args) {
  std::fprintf(stderr, "E%s: %s:%d: ", code, file, line);
  if constexpr (sizeof...(A) == 0) std::fputs(fmt, stderr);
  else std::fprintf(stderr, fmt, args...);
  std::fputc('\n', stderr);
}
inline void report_input(const char* code, const std::vector<std::string>& keys, const std::vector<std::string>& values) {
  std::fprintf(stderr, "E%s:", code);
  for (size_t i = 0; i < keys.size(); ++i)
    std::fprintf(stderr, " %s=%s", keys[i].c_str(), i < values.size() ? values[i].c_str() : "");
  std::fputc('\n', stderr);
}
}  // namespace kgen::error_manager

#define REPORT_INNER_ERROR(error_code, fmt, ...) \
  ::kgen::error_manager::report_inner((error_code), __FILE__, __LINE__, (fmt), ##__VA_ARGS__)
#define REPORT_CALL_ERROR REPORT_INNER_ERROR
#define REPORT_INPUT_ERROR(error_code, keys, values) ::kgen::error_manager::report_input((error_code), (keys), (values))
#define REPORT_ENV_ERROR REPORT_INPUT_ERROR
