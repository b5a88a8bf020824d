// i64 inputs of vector programs: a column of class indices (cross-entropy's target), loaded converted to f32 or i32
// (the vector unit has no int64 arithmetic; Cast int64 -> int32 / float32 on the way in). Checked by sema_i64_load.cpp.
// docs/tile-language.md, "i64 inputs of vector programs".
#pragma once
#include <string>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Whether the program's i64 inputs are read by vector loads (every program but cube, attention and pooling ones;
// index programs read them as indices, sema_index.cpp).
bool i64_loads_allowed(const Program& p);
// A load of tensor t (form f, converted to `to`; `converted`: a dtype was named): an i64 tensor must be a column of a
// row program converted to f32 or i32. Reports the misuse at r and returns false.
bool i64_load_ok(const TensorArg& t, Form f, bool converted, TypeOf to, Range r, const std::string& loop_var, Diags& d);
}  // namespace kgen::tile
