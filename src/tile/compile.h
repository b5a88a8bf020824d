// The tile compiler's pipeline in one function: parse, check (and lower to the IR), plan_buffers, assign_stages,
// size_tiles, split_cores, emit. After any pass the IR can be printed (`kgen tile compile --dump-after PASS`).
#pragma once
#include <functional>
#include <map>
#include <string>

#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
struct CompileOptions {
  std::string soc = "Ascend910B2";
  // Called after each pass with its name and the IR printed (the syntax tree after "parse").
  std::function<void(const std::string& pass, const std::string& ir)> dump;
};
struct CompileResult {
  bool ok = false;
  Kernel kernel;
  std::map<std::string, std::string> files;   // relative path in the op project -> text
};
// The pass names, in order.
const std::vector<std::string>& pass_names();
// Compiles `source` (the text of `file`). Diagnostics go to `diags`; files only when ok.
CompileResult compile_program(const std::string& file, const std::string& source, const CompileOptions& o,
                              Diags& diags);
// The MultiKernelBench submission (six strings, docs/op-projects.md) of a compiled program.
std::string mkb_submission(const CompileResult& r);
// The kt:: helper headers copied next to the kernel (src/tile/prelude), found from the source tree.
std::string prelude_text(const std::string& name, std::string& err);
}  // namespace kgen::tile
