// Row tensors repeated over a dim (PyTorch broadcasting of a size-1 dim): in a row program over x: T[*m, k], an input
// mask: bool[b, 1, q, k] is read by x's rows (m = b * h * q) as torch broadcasts it: row r of x reads the mask's row
// (r / (h * q)) * q + r % q. Checked by sema_repeat_rows.cpp (tile check), the host checks and fields and the
// kernel's loads by the helpers below. docs/tile-language.md, "Rows repeated over a dim".
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// How an input's rows repeat: its leading dims (before the row's dims) are `outer` named dims, a run of size-1 dims
// (repeated over x's dims there: `repeat` = their product) and `inner` named dims.
struct RepeatRows {
  std::vector<int> outer, inner;   // dims of the tensor (indices into its dims)
  int ones_first = -1, ones_last = -1;
};
// Whether input `tensor` of a row program is read as repeated rows: the loop loads it as rows, its leading dims are
// named dims around one run of 1s (not the loop's starred extent) and its last `row_dims` dims are named (the row's).
// Fills *rr when given.
bool repeat_rows(const Kernel& k, int tensor, size_t row_dims, RepeatRows* rr = nullptr);
// The rows' dims count of a row program (n: 1; h, w merged: 2).
size_t row_dim_count(const Kernel& k);
// sema: `tensor` indexed [r, :] in a row program whose rows are `row_dims`: 1 = a repeated-rows tensor, checked;
// 0 = not one (the caller's checks apply); -1 = a misuse, reported.
int check_repeat_rows(const Kernel& k, int tensor, const std::vector<std::string>& row_dims, Range r, Diags& d);
// Tiling fields: <tensor>Inner (the inner dims' product) and <tensor>Repeat (the repeated dims' product) per tensor.
void repeat_rows_fields(Kernel& k);
std::string repeat_field(const Kernel& k, int tensor, const char* which);   // "maskInner_" (which: "Inner", "Repeat")
// The host's checks: x and the tensor have one rank and agree on every named leading dim.
void repeat_rows_host_checks(const Kernel& k, const std::function<void(const std::string&)>& line);
}  // namespace kgen::tile
