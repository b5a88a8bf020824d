// Two-phase programs: a flat loop that accumulates, the epilogue on every core, a second loop that reads the
// epilogue's values as scalars (Frobenius normalization, LAMB's trust ratio); and the misuses' diagnostics.
#include "tile_test_util.h"

namespace kgen::tile {
namespace {
using test_util::compile;
using test_util::contains;
using test_util::expect_error;

const char* kFrobenius = R"(kernel frob(x: T[*n]) -> (y: T[*n]):
    dtype T in (f32, f16)
    total = 0.0
    for t in tiles(n):
        v = load(x[t], f32)
        total += sum(v * v)
    inv = rsqrt(total)
    for t in tiles(n):
        store(y[t], load(x[t], f32) * inv)
)";

TEST(TileTwoPhase, SecondLoopReadsTheEpilogueAsScalars) {
  auto c = compile(kFrobenius);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/frob_custom.cpp");
  EXPECT_TRUE(contains(kern, "float invS_ = 0;")) << kern;
  EXPECT_TRUE(contains(kern, "invS_ = inv.GetValue(0);")) << kern;
  EXPECT_TRUE(contains(kern, "AscendC::SyncAll();\n    Epilogue();")) << kern;     // every core combines
  EXPECT_TRUE(contains(kern, "CopyInPass1(i, units);")) << kern;
  EXPECT_TRUE(contains(kern, "static_cast<float>(invS_)")) << kern;                 // the scalar form
  EXPECT_TRUE(contains(kern, "KERNEL_TYPE_MIX_AIV_1_0")) << kern;
  EXPECT_FALSE(contains(kern, "void Compute(uint32_t units)")) << kern;             // only the two loops' stages
}

TEST(TileTwoPhase, AccumulatorReadDirectlyInTheSecondLoop) {
  auto c = compile(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    total = 0.0
    for t in tiles(n):
        total += sum(load(x[t]))
    for t in tiles(n):
        store(y[t], load(x[t]) - total / n)
)");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.r.files.at("op_kernel/f_custom.cpp"), "totalS_ = ")) << c.r.files.at("op_kernel/f_custom.cpp");
}

TEST(TileTwoPhase, Diagnostics) {
  expect_error(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    for t in tiles(n):
        store(y[t], load(x[t]))
    for t in tiles(n):
        store(y[t], load(x[t]))
)",
               "4:5", "a second tiles loop", "follows a flat loop that accumulates");
  expect_error(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    total = 0.0
    for t in tiles(n):
        v = load(x[t])
        total += sum(v)
    s = total
    for t in tiles(n, buffers=1):
        store(y[t], v * s)
)",
               "7:14", "the second loop iterates differently", "for t in tiles(n):");
  expect_error(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    total = 0.0
    for t in tiles(n):
        v = load(x[t])
        total += sum(v)
    for t in tiles(n):
        store(y[t], v * total)
)",
               "7:21", "'v' is a tile of the first loop", "load it again in the second loop");
  expect_error(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    total = 0.0
    for t in tiles(n):
        total += sum(load(x[t]))
    for t in tiles(n):
        total += sum(load(x[t]))
        store(y[t], load(x[t]) * total)
)",
               "6:9", "an accumulator in the second tiles loop", "accumulate in the first loop");
  expect_error(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    total = 0.0
    for t in tiles(n):
        total += sum(load(x[t]))
    for t in tiles(n):
        store(y[t], load(x[t]) * total)
    for t in tiles(n):
        store(y[t], load(x[t]))
)",
               "7:5", "a third tiles loop", "at most two loops");
  expect_error(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    total = 0.0
    for t in tiles(n):
        total += sum(load(x[t]))
    for t in tiles(n):
        store(y[t], load(x[t]) * total)
    z = total
)",
               "7:5", "a statement after the second tiles loop", "the second loop is the program's last statement");
}
// axis_index(v): each element's index along the axis, for index-returning scans (cummax's indices).
TEST(TileAxisIndex, CummaxIndices) {
  auto c = compile(R"(kernel cm(x: T[*outer, r @ dim, *inner], dim: i32 = 1) -> (values: T[*outer, r, *inner],
                                                               indices: i64[*outer, r, *inner]):
    dtype T in (f32, f16, i32)
    for c in tiles(outer, inner):
        v = load(x[:, c], f32)
        m = cummax(v, axis=0)
        store(values[:, c], m)
        store(indices[:, c], cummax(where(v == m, axis_index(v), -1.0), axis=0))
)");
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/cm_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::AxisIndex(")) << kern;
  EXPECT_TRUE(contains(kern, "rowMode_, units, r_, npad_, tileUnits_);")) << kern;
  // Column mode takes groups of 16 positions: the host lowers the queue depth until one group fits (a long axis).
  const std::string& host = c.r.files.at("op_host/cm_custom.cpp");
  EXPECT_TRUE(contains(host, "if (rowMode ? tileUnits > 0 : tileUnits >= 16) break;")) << host;
}

TEST(TileAxisIndex, Diagnostics) {
  expect_error(R"(kernel f(x: f32[*n]) -> (y: f32[*n]):
    for t in tiles(n):
        store(y[t], axis_index(load(x[t])))
)",
               "3:32", "axis_index() numbers the rows of a slab", "for c in tiles(outer, inner)");
  expect_error(R"(kernel f(x: f16[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: f16[*outer, r, *inner]):
    for c in tiles(outer, inner):
        store(y[:, c], axis_index(load(x[:, c])))
)",
               "3:35", "axis_index() gives f32 or i32 indices", "load it as f32");
  expect_error(R"(kernel f(x: f32[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: f32[*outer, r, *inner]):
    for c in tiles(outer, inner):
        store(y[:, c], axis_index(load(x[:, c]), axis=0))
)",
               "3:24", "axis_index() takes one slab", "axis_index(v)");
}
}  // namespace
}  // namespace kgen::tile
