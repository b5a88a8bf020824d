// What CANN's kernel compiler (bisheng) refuses in kernel code and g++ accepts, checked on the sources `kgen cc`
// compiles so that a kernel that cannot build on the chip cannot build here (docs/emulator.md "Chip compile rules").
//
//   core-guard  ASCEND_IS_AIC / ASCEND_IS_AIV / ASCEND_IS_NOT_AIC / ASCEND_IS_NOT_AIV anywhere but right after `if`:
//               CANN defines them as `constexpr(g_coreType == AscendC::AIC)` for the device build
//               (asc-devkit impl/utils/sys_macros.h), so only `if ASCEND_IS_AIC { ... }` compiles.
//   host-math   a libm function called inside an __aicore__ function: the transcendental family (exp, log, pow,
//               tanh, erf, ... in every spelling: std::exp, ::exp, exp, expf, expl) and sqrtf/sqrtl. The AI Core
//               has no libm; bisheng provides the scalar `sqrt` and `abs` (AscendC::Std wraps exactly those two),
//               which stay allowed.
// Comments, string literals and preprocessor lines are skipped; "inside an __aicore__ function" is the body that
// follows an `__aicore__` declaration (class members, templates, constructors with initialiser lists).
#pragma once
#include <string>
#include <vector>

namespace kgen::cli {
struct RuleFinding {
  std::string file;
  int line = 0, col = 0;    // 1-based
  std::string message;      // what and why
  std::string hint;         // how to fix it
  std::string source_line;  // the line as written
};
// The findings in one file's text, in source order.
std::vector<RuleFinding> check_bisheng_rules(const std::string& file, const std::string& text);
// A source file and the headers it includes with "..." that exist next to it (recursively, each once).
std::vector<RuleFinding> check_bisheng_rules_file(const std::string& path);
// Clang style: "FILE:LINE:COL: error: MESSAGE [bisheng]", the source line, a caret, "note: HINT".
std::string format_finding(const RuleFinding& f);
}  // namespace kgen::cli
