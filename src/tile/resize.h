// Resize programs: interpolation of the trailing 1-3 dims of an input (`store(y, linear(x, size=out_size,
// align_corners=align_corners))`, `nearest(x, scale=s)`, `cubic(...)`). Checked by sema_resize.cpp (their own header:
// list attrs `out_size: i32[2] = (128, 150)`, output dims that come from attrs), emitted by emit_resize.cpp.
// docs/tile-language.md, "Resize programs".
#pragma once
#include <map>
#include <string>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Whether the body is one `store(y, nearest|linear|cubic(x, ...))` (then the whole program is checked here).
bool is_resize_program(const Program& p);
// Checks the header and the body of a resize program into k (k.resize = true, k.rz).
void check_resize(const Program& p, Kernel& k, Diags& d);
std::string print_resize(const Kernel& k);
// The op project's files (kernel, tiling header, host, json).
std::map<std::string, std::string> emit_resize(const Kernel& k);
}  // namespace kgen::tile
