// Pooling programs: windows of max or mean over the last 1-3 dims of an input (`for o in windows(h, w, size=k,
// stride=s, padding=p, dilation=d)` around `store(y[o], max(load(x[o], f32)))`). Checked by sema_pool.cpp, emitted
// by emit_pool.cpp; the kernel's work is kt::PoolWindows (src/tile/prelude/kgen_pool.h). docs/tile-language.md,
// "Pooling windows".
#pragma once
#include <map>
#include <string>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Whether the program's body has a `for ... in windows(...)` loop (then it is checked as a pooling program).
bool is_pool_program(const Program& p);
// Checks the body of a pooling program into k.pw (k.pool = true); the header is already checked into k.
void check_pool(const Program& p, Kernel& k, Diags& d);
// The pooling program as text (`kgen tile compile --dump-after check`).
std::string print_pool(const Kernel& k);
// The op project's files of a checked pooling program (kernel, tiling header, host, json).
std::map<std::string, std::string> emit_pool(const Kernel& k);
}  // namespace kgen::tile
