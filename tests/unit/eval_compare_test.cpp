// The output comparison (src/eval/compare.h): allclose's rule, and the tolerance-normalised error the report shows,
// which stays meaningful where the reference is near zero (a relative error there is huge on a correct output).
#include <gtest/gtest.h>

#include <cstring>

#include "eval/compare.h"

namespace {
using namespace kgen;

op::NpyArray f32(const std::vector<float>& v) {
  op::NpyArray a;
  a.shape = {static_cast<int64_t>(v.size())};
  a.dtype = 0;   // ge::DT_FLOAT
  a.data.resize(v.size() * 4);
  std::memcpy(a.data.data(), v.data(), a.data.size());
  return a;
}

TEST(EvalCompare, ToleranceNormalisedError) {
  const eval::Tolerance t{1e-4, 1e-4};
  // want 1e-7, got 2e-7: relative error 1, but 1e-7 of an allowed 1e-4 + 1e-11: about 0.001 of the tolerance.
  eval::Compared c = eval::compare_arrays(0, "y", f32({1e-7f, 2.0f}), "float32", f32({2e-7f, 2.0f}), t, true);
  EXPECT_TRUE(c.mismatch.empty()) << c.mismatch;
  EXPECT_NEAR(c.max_rel, 1.0, 1e-6);
  EXPECT_NEAR(c.max_tol, 1e-7 / (1e-4 + 1e-4 * 1e-7), 1e-6);
  // Exactly at the bound is a match (ratio 1); past it a mismatch (ratio > 1).
  eval::Compared at = eval::compare_arrays(0, "y", f32({0.0f}), "float32", f32({0.5e-4f}), {1e-4, 0}, true);
  EXPECT_TRUE(at.mismatch.empty());
  EXPECT_NEAR(at.max_tol, 0.5, 1e-3);
  eval::Compared past = eval::compare_arrays(0, "y", f32({1.0f, 1.0f}), "float32", f32({1.0f, 1.01f}), t, true);
  EXPECT_FALSE(past.mismatch.empty());
  EXPECT_EQ(past.bad, 1u);
  EXPECT_NEAR(past.max_tol, 0.01 / 2e-4, 1.0);
}
}  // namespace
