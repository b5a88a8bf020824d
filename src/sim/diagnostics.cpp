// Emulator errors: one line `error[CATEGORY] FILE:LINE block B API: message`, thrown as SimError and printed
// by the launcher (or caught by tests).
#include <cstring>
#include <string>

#include "sim/core.h"

namespace kgen::sim {
namespace {
const char* base_name(const char* path) {
  const char* s = std::strrchr(path, '/');
  return s ? s + 1 : path;
}
}  // namespace

std::string fmt_bytes(uint64_t b) { return std::to_string(b) + " bytes"; }

void fail(const char* category, const char* api, const Loc& loc, const std::string& msg) {
  std::string line = "error[";
  line += category;
  line += "] ";
  line += base_name(loc.file_name());
  line += ":" + std::to_string(loc.line());
  Core* c = cur_or_null();
  line += c ? " block " + std::to_string(c->block) : std::string(" host");
  line += " ";
  line += api;
  line += ": ";
  line += msg;
  throw SimError{line};
}
}  // namespace kgen::sim

namespace kgen::rt {
void report_error(const char* category, const char* api, Loc loc, const char* message) {
  sim::fail(category, api, loc, message);
}
}  // namespace kgen::rt
