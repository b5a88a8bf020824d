// Cube programs: C = A @ B on the cube cores (`for blk in blocks(m, n)` around an f32 accumulator fed by
// `acc += mma(a[blk, kt], b[kt, blk])` over `for kt in tiles(k)`). Checked by sema_cube.cpp, emitted by emit_cube.cpp.
// docs/tile-language.md, "Cube programs".
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Optional inputs (`bias: T[n] = None`, src/tile/sema_optional.cpp): only in cube programs, after every required
// input, binding no dim. Checked after the header.
void check_optional_inputs(const Kernel& k, bool cube, Diags& d);
// Whether the program's body has a `for ... in blocks(...)` loop (then it is checked as a cube program).
bool is_cube_program(const Program& p);
// Checks the body of a cube program and fills k.mm (k.cube = true). The header (tensors, dtype variables, dims,
// attrs) has already been checked into k.
void check_cube(const Program& p, const std::string& soc, Kernel& k, Diags& d);
// The epilogue between the K loop and the store (`h = ...` statements, the stored expression) into k.mm.epi.
void check_cube_epilogue(const std::vector<const Stmt*>& assigns, const Expr& stored, Kernel& k, Diags& d);
// Cube programs with an epilogue (src/tile/emit_cube_epi.cpp): base blocks of [cube_epi_base_m, kCubeEpiBaseN]
// come to UB; the kernel of such a program.
constexpr int kCubeEpiBaseN = 128;
int cube_epi_base_m(const Kernel& k);
std::string cube_epi_kernel(const Kernel& k);
// The start of a cube kernel's Block(item): the item's batch and block, the block's tails, the Matmul's A and B at
// the block's offsets (kernel text; shared by the plain and the epilogue kernels).
std::string cube_block_start(const Kernel& k);
// The cube program's IR as text (`kgen tile compile --dump-after`).
std::string print_cube(const Kernel& k);
// The op project's files of a checked cube program (kernel, tiling header, host, json).
std::map<std::string, std::string> emit_cube(const Kernel& k);
}  // namespace kgen::tile
