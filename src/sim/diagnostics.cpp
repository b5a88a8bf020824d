// Emulator errors: one line `error[CATEGORY] FILE:LINE block B API: message`, thrown as SimError and printed
// by the launcher (or caught by tests).
#include <cstring>
#include <string>

#include "sim/core.h"
#include "sim/launch.h"

namespace kgen::sim {
namespace {
const char* base_name(const char* path) {
  const char* s = std::strrchr(path, '/');
  return s ? s + 1 : path;
}
}  // namespace

std::string fmt_bytes(uint64_t b) { return std::to_string(b) + " bytes"; }

std::string error_line(const char* category, const char* file, uint32_t line, int32_t block, const char* api,
                       const std::string& msg) {
  // an API the kernel called through a function pointer (kgen/api_by_address.h): the kernel's line is not known
  if (file && std::strcmp(base_name(file), "api_by_address.h") == 0)
    return std::string("error[") + category + "] kernel" + (block >= 0 ? " block " + std::to_string(block) : "") +
           " " + api + " (called through a function pointer): " + msg;
  return std::string("error[") + category + "] " + (file ? base_name(file) : "kernel") + ":" + std::to_string(line) +
         (block >= 0 ? " block " + std::to_string(block) : std::string(" host")) + " " + api + ": " + msg;
}

void fail_at(const char* category, const char* api, const char* file, uint32_t line, const std::string& msg) {
  Core* c = cur_or_null();
  std::string text = error_line(category, file, line, c ? c->block : -1, api, msg);
  note_core_error(text);
  throw SimError{std::move(text)};
}
void fail(const char* category, const char* api, const Loc& loc, const std::string& msg) {
  fail_at(category, api, loc.file_name(), loc.line(), msg);
}
}  // namespace kgen::sim

namespace kgen::rt {
void report_error(const char* category, const char* api, Loc loc, const char* message) {
  sim::fail(category, api, loc, message);
}
}  // namespace kgen::rt
