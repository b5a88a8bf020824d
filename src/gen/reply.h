// Extracting the candidate from a model's reply, robustly:
//   file tags     <file path="op_kernel/add_custom.cpp"> ... </file>
//   fenced blocks ```cpp / ```tile / ```python / ``` ... ```, the file named by the info string after the language
//                 ("```cpp op_host/add_custom.cpp"), by a line just above the fence ("op_host/add_custom.cpp:",
//                 "### `op_host/add_custom.cpp`", "**File: op_host/add_custom.cpp**"), or by a first-line comment
//                 ("// op_host/add_custom.cpp", "// file: ...")
//   reasoning     text inside <think> ... </think> is ignored (reasoning models)
// tile: the last block holding a `kernel NAME(` program (a bare reply that is itself a program is accepted too);
// ascendc: the files of an op project: every block named under op_host/ or op_kernel/ (a host split into OpDef, tiling
// and infershape files, kernel helpers), and at least a kernel and a host; a block without a name is classified by
// content (kernel_operator.h ->
// op_kernel/<op>.cpp, op_def_registry.h -> op_host/<op>.cpp, BEGIN_TILING_DATA_DEF -> op_host/<op>_tiling.h),
// <op> taken from the names given or the kernel's extern "C" __global__ function.
// A reply without usable code is its own verdict ("no-code"), with the reason.
#pragma once
#include <map>
#include <string>

#include "gen/prompt.h"

namespace kgen::gen {
struct ParsedReply {
  bool ok = false;
  std::string error;                               // why no candidate: "no fenced code block or <file> tag in the
                                                   // reply (412 characters)", "the reply has op_kernel/x.cpp but no
                                                   // host file (op_host/*.cpp with the OpDef)", "the reply was cut
                                                   // off (finish_reason length) inside a code block"
  std::map<std::string, std::string> files;        // relative path -> content: tile: {"<op_name>.tile": program};
                                                   // ascendc: op_kernel/X.cpp, op_host/X.cpp, op_host/X_tiling.h
};
// op_name: the task's operator name ("relu"), used for the tile file's name.
ParsedReply parse_reply(const std::string& reply, Target t, const std::string& op_name);
// All the files' text, each preceded by "// FILE: path" (what a repair prompt shows as the previous code).
std::string files_text(const ParsedReply& p);
// Writes the files under dir (created). The candidate path for the evaluator: the .tile file (tile) or dir
// (ascendc). False with err.
bool write_candidate(const ParsedReply& p, Target t, const std::string& dir, std::string& candidate, std::string& err);
// s without the spaces and tabs at either end (a line of a reply or a diagnostic).
std::string trim_blanks(const std::string& s);
}  // namespace kgen::gen
