// Row matmul programs: per block of whole rows, H = X W (or X W^T) on the cube into a per-core f32 workspace, then
// row operations that need the whole row (softmax, sum, logsumexp over it) on the vector cores, in chunks of rows
// (`for blk in blocks(m)` around one mma and a chain of row ops). Checked by sema_row_matmul.cpp, emitted by
// emit_row_matmul.cpp. docs/tile-language.md, "Row operations after a matmul".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// One step of the row chain, in program order, on the f32 rows (or, after a reduction, on their column).
struct RowOp {
  enum Kind { Scale, AddRow, Act, Softmax, Reduce } kind = Scale;
  std::string fn;                  // Act: relu, sigmoid, ...; Reduce: sum, max, mean, logsumexp
  std::string host_expr;           // Scale: the factor as a host C++ expression (double)
  int tensor = -1;                 // AddRow: the [n] input added down the rows (nn.Linear's bias)
  bool column = false;             // after the reduction: applies to the [rows, 1] column
  std::string text;                // the source, for the generated comments
};
struct RowMatmul {
  int x = -1, w = -1, y = -1;      // tensors: x [m, k], the weight [k, n] or [n, k], the output [m, n] or [m, 1]
  bool w_trans = false;            // weight[n, k]: stored transposed (nn.Linear)
  bool x_to_f32 = false;           // an f32 weight with a half x: the block of x is converted to f32 first
  int m_sym = -1, k_sym = -1, n_sym = -1;
  std::vector<RowOp> ops;
  bool reduced = false;            // a reduction ends the row chain: y is [m, 1]
  std::string block_var, mma_text, store_text;
};

// Whether the program is a row matmul program: a blocks loop over one dim, without a K loop, with exactly one mma.
bool is_row_matmul_program(const Program& p);
// Checks the body of a row matmul program and sets k.row_mm (k.cube = true); the header is checked.
void check_row_matmul(const Program& p, Kernel& k, Diags& d);
// The program's IR as text (`kgen tile compile --dump-after check`).
std::string print_row_matmul(const Kernel& k);
// The op project's files (kernel, tiling header, host, json).
std::map<std::string, std::string> emit_row_matmul(const Kernel& k);
}  // namespace kgen::tile
