// Comparing a candidate's output with the reference output: |got - want| <= atol + rtol * |want| elementwise (NaN
// matches only NaN, an infinity only the same infinity); integer and bool outputs exactly. Done in the evaluator on
// arrays the sandboxed child sent (already parsed and size-checked), never on the child's own verdict.
#pragma once
#include <string>

#include "op/npy.h"

namespace kgen::eval {
struct Tolerance {
  double atol = 1e-4, rtol = 1e-4;
};
struct Compared {
  std::string mismatch;          // "" when the output matches
  double max_abs = 0, max_rel = 0;
  double max_tol = 0;            // max |got - want| / (atol + rtol |want|): at most 1 when the output matches
  size_t bad = 0;                // mismatching elements
};
// Output k ('name') against the reference. `dtype_must_match`: an op project's output must have the reference's
// dtype; a MultiKernelBench ModelNew may return another (compared as values, as torch.allclose does).
Compared compare_arrays(size_t k, const std::string& name, const op::NpyArray& want, const std::string& want_dtype,
                        const op::NpyArray& got, const Tolerance& t, bool dtype_must_match);
}  // namespace kgen::eval
