// Grouped reductions (src/tile/sema_group.cpp, emit_group.cpp): sum/mean/max/min(v, axis=1, group=K) reduce each row
// of a row tile together with the other rows of its group of K consecutive rows (group norm's channel planes).
#pragma once
#include <string>
#include <vector>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Reads K (`group=K`: a positive integer, a dim, an i32 attr, or a product or quotient of them) of the grouped
// reduction `in` (already emitted from `call`, reducing value `src`), records K in k.group (one K per kernel) and
// marks `in`. False after a diagnostic.
bool check_group(Kernel& k, const Expr& kexpr, const Expr& call, int src, Instr& in, Diags& d);
// The host lines of a grouped program after `total`: K from the dims and attrs (`groupRows`), and the checks that K
// divides the rows and that each quotient is exact (PyTorch refuses channels that the groups do not divide).
std::vector<std::string> group_size_lines(const Kernel& k);
// Before the core split: the tile rounded down to whole groups (a failure when not one group fits in UB).
std::vector<std::string> group_tile_lines(const Kernel& k);
}  // namespace kgen::tile
