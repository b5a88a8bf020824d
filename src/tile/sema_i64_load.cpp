// i64 inputs of vector programs (i64_load.h): read only through a converting load of a column of one index per row
// (`load(target[r], f32)`), since every value is computed in f32 or i32.
#include "tile/i64_load.h"

#include "tile/attention.h"
#include "tile/cube.h"
#include "tile/pool.h"

namespace kgen::tile {
bool i64_loads_allowed(const Program& p) {
  return !is_cube_program(p) && !is_attention_program(p) && !is_pool_program(p);
}

bool i64_load_ok(const TensorArg& t, Form f, bool converted, TypeOf to, Range r, const std::string& loop_var, Diags& d) {
  if (t.type.var >= 0 || t.type.fixed != DType::I64) return true;
  const std::string hint = "load(" + t.name + "[" + loop_var + "], f32): one index per row, exact below 2**24";
  if (f != Form::Col) {
    d.error(r, "the i64 input '" + t.name + "' is read as one value per row of a row program (a column)",
            "declare it " + t.name + ": i64[*m] and " + hint);
    return false;
  }
  if (!converted || to.var >= 0 || (to.fixed != DType::F32 && to.fixed != DType::I32)) {
    d.error(r, "the i64 input '" + t.name + "' is loaded converted to f32 or i32 (no int64 arithmetic)", hint);
    return false;
  }
  return true;
}
}  // namespace kgen::tile
