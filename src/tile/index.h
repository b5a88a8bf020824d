// Index programs: gathers and scatters driven by an integer index tensor (i64 or i32 inputs): index_select and
// embedding rows, torch.gather along the last dim, scatter / scatter_add along it, index_add of rows. Checked by
// sema_index.cpp, emitted by emit_index.cpp. docs/tile-language.md, "Index tensors: gathers and scatters".
#pragma once
#include <map>
#include <string>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Whether the program stores the result of an index operation (take rows `x[load(index[r]), :]`, gather, scatter,
// scatter_add, index_add): then it is checked and emitted as an index program, and its inputs may be i64.
bool is_index_program(const Program& p);
// Checks the body of an index program and fills k.ix (k.index = true). The header is already checked into k.
void check_index(const Program& p, Kernel& k, Diags& d);
// The index program as text (`kgen tile compile --dump-after check`).
std::string print_index(const Kernel& k);
// The op project's files (kernel, tiling header, host, json).
std::map<std::string, std::string> emit_index(const Kernel& k);
}  // namespace kgen::tile
