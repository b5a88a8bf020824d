// The semantic checks, which also lower the checked program to the tile IR: names, dtypes (per dtype column), dims
// and their sources, the loop structure, indexing, broadcasting, and whether the SoC's vector unit has each
// operation for each dtype. Every problem is a diagnostic with the expression's range and a hint; checking goes
// on after an error so that one run reports them all.
#pragma once
#include <string>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Fills `out` (tensors, attrs, dtype variables, symbols, values, prologue and body instructions) from `p`.
// soc: a SoC name for the op/dtype support table ("Ascend910B2"; 310P parts lack bfloat16 entirely).
bool check(const Program& p, const std::string& soc, Kernel& out, Diags& diags);
}  // namespace kgen::tile
