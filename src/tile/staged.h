// Staged programs: several cube stages in one kernel (`for blk in blocks(...)` loops separated by `sync()`), each
// storing into a GM workspace tensor (`hid = workspace(T[m, h])`) that a later stage reads — a sequence of layers
// (an MLP block) in one launch. Checked by sema_staged.cpp, emitted by emit_staged.cpp.
// docs/tile-language.md, "Staged programs".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// A GM scratch tensor of the program: `name = workspace(T[dims])`, in the user workspace after the Matmul API's.
struct Workspace {
  std::string name;
  TypeOf type;
  std::vector<Dim> dims;           // named after the program's dims (a starred dim keeps its star)
  Range range;
  int written_by = -1, read_by = -1;   // the stages that store it and that first read it
};
// One blocks loop: a single-stage cube program over a kernel of its own (the program's inputs, the workspaces it
// reads as inputs, the tensor it stores as the one output); `sub.mm` says what it computes.
struct Stage {
  Kernel sub;
  int stores_ws = -1;              // the workspace it stores (-1: the program's output)
  std::vector<int> reads_ws;       // the workspaces it reads
  bool sync_before = false;        // a sync() separates it from the stage before
  // A cast stage (`for r in tiles(m): store(xf[r, :], load(x[r, :], f32))`, on the vector cores): a tensor copied
  // converted (an f16 input of f32 layers into a workspace, a float32 workspace into an f16 output).
  bool cast = false;
  std::string cast_from, cast_to, cast_text;   // the tensors (input or workspace -> workspace or output)
  std::vector<Dim> cast_dims;
  // A vector stage (any other `tiles` loop): `sub` is a vector program of its own (the inputs and workspaces the loop
  // reads, the tensor it stores), checked and lowered by the vector passes; its class takes the kernel's TPipe.
  bool vector = false;
  Range range;
};
struct StagedProgram {
  std::vector<Workspace> ws;
  std::vector<Stage> stages;
};

// Whether the body is a staged program: a workspace(...), a sync() or more than one blocks loop.
bool is_staged_program(const Program& p);
// Checks the body of a staged program (the header is checked) and fills k.staged (k.cube = true).
void check_staged(const Program& p, const std::string& soc, Kernel& k, Diags& d);
// The stages' IR as text (`kgen tile compile --dump-after check`).
std::string print_staged(const Kernel& k);
// The op project's files of a checked staged program.
std::map<std::string, std::string> emit_staged(const Kernel& k);
// A tiles loop of a staged program checked as a vector program of its own and lowered by the vector passes into
// `sub` (sema_vector_stage.cpp), named <program>_stage<index>: `inputs`/`output` are the tensors the stage's kernel
// takes (the program's inputs it reads and the workspaces, as tensors). `for r in tiles(b, s)` makes rows of the leading
// dims b and s of the tensors that start with them (one starred dim b_s in the stage's kernel).
bool check_vector_stage(const Program& p, const Stmt& loop, int index, const Kernel& header,
                        std::vector<TensorArg> inputs, TensorArg output, const std::string& soc, Kernel& sub,
                        Diags& d);
// One blocks loop checked as a single-stage cube program into k.mm (sema_cube.cpp).
void check_cube_loop(const Stmt& loop, const std::string& soc, Kernel& k, Diags& d);
// The kernel class of a checked single-stage cube program, as emit_cube writes it (emit_cube.cpp).
std::string cube_kernel_text(const Kernel& k);
}  // namespace kgen::tile
