// Index programs (src/tile/sema_index.cpp, emit_index.cpp): i64/i32 index inputs, rows taken by index
// (`x[load(index[r]), :]`), gather / scatter / scatter_add along the last dim, index_add of rows; the files they
// compile to and each misuse's diagnostic. tests/tile_test.sh runs the expert programs in kernels/index.
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
const char* kTake =
    "kernel take(x: T[v, n], index: I[k], dim: i32 = 0) -> (y: T[k, n]):\n"
    "    dtype T in (f32, f16)\n"
    "    dtype I in (i64, i32)\n"
    "    for r in tiles(k):\n"
    "        store(y[r, :], load(x[load(index[r]), :]))\n";

std::string row_op(const std::string& call, const std::string& idx = "i64") {
  return "kernel s(x: T[*m, n], index: " + idx + "[*m, g], src: T[*m, g]) -> (y: T[*m, n]):\n"
         "    dtype T in (f32, f16)\n"
         "    for r in tiles(m):\n"
         "        store(y[r, :], " + call + ")\n";
}
}  // namespace

TEST(TileIndex, TakeRowsCompilesWithI64AndI32Indices) {
  Compiled c = compile(kTake);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.r.kernel.index);
  EXPECT_EQ(c.r.kernel.ix.kind, "take_rows");
  EXPECT_TRUE(contains(c.check_ir, "take_rows: y <- x=x index=index")) << c.check_ir;
  const std::string& host = c.r.files.at("op_host/take_custom.cpp");
  EXPECT_TRUE(contains(host, "ge::DT_INT64")) << host;            // the index's columns: int64 and int32
  EXPECT_TRUE(contains(host, "ge::DT_INT32")) << host;
  EXPECT_TRUE(contains(host, "dim == 0")) << host;                 // only dim 0 is taken
  const std::string& kern = c.r.files.at("op_kernel/take_custom.cpp");
  EXPECT_TRUE(contains(kern, "KernelTake<DTYPE_X, DTYPE_INDEX>")) << kern;
  EXPECT_TRUE(contains(kern, "idx.GetValue(i)")) << kern;
  EXPECT_TRUE(contains(c.r.files.at("take_custom.json"), "\"int64\""));
}

TEST(TileIndex, GatherScatterAndIndexAddCompile) {
  Compiled g = compile(
      "kernel g(x: T[*m, n], index: i64[*m, k]) -> (y: T[*m, k]):\n    dtype T in (f32, bf16)\n"
      "    for r in tiles(m):\n        store(y[r, :], gather(load(x[r, :]), load(index[r, :])))\n");
  ASSERT_TRUE(g.ok) << g.diags;
  EXPECT_TRUE(contains(g.r.files.at("op_kernel/g_custom.cpp"), "AscendC::Gather(")) << g.r.files.at("op_kernel/g_custom.cpp");
  Compiled s = compile(row_op("scatter_add(load(x[r, :]), load(index[r, :]), load(src[r, :]))"));
  ASSERT_TRUE(s.ok) << s.diags;
  EXPECT_TRUE(contains(s.r.files.at("op_kernel/s_custom.cpp"), "kix::AddValues(row.GetValue(c), src.GetValue(j))"));
  Compiled a = compile(
      "kernel a(x: T[v, n], index: i64[k], src: T[k, n], alpha: f32 = 1.0) -> (y: T[v, n]):\n"
      "    dtype T in (f32, bf16)\n    for r in tiles(v):\n"
      "        store(y[r, :], index_add(load(x[r, :]), index, src, alpha))\n");
  ASSERT_TRUE(a.ok) << a.diags;
  EXPECT_TRUE(contains(a.r.files.at("op_kernel/a_custom.cpp"), "AscendC::Axpy(")) << a.r.files.at("op_kernel/a_custom.cpp");
}

TEST(TileIndex, Diagnostics) {
  // i64 inputs outside index programs are columns of row programs only (tile_i64_column_test.cpp)
  expect_error("kernel s(x: i64[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        store(y[t], load(x[t], f32))\n",
               "3:21", "the i64 input 'x' is read as one value per row", "");
  expect_error(row_op("gather(load(x[r, :]), load(index[r, :]), load(src[r, :]))"), "4:24", "gather takes 2 operands, not 3",
               "gather(load(x[r, :]), load(index[r, :]))");
  expect_error(row_op("scatter(load(x[r, :]), load(index[r, :]), load(src[r, :]))", "f32"), "4:24",
               "the index 'index' is not an integer tensor", "declare it i64");
  expect_error(row_op("scatter(x, load(index[r, :]), load(src[r, :]))"), "4:32", "the first operand is a load of the loop's rows",
               "load(x[r, :])");
  expect_error(row_op("scatter(load(x[0, :]), load(index[r, :]), load(src[r, :]))"), "4:37",
               "the first operand is indexed by the loop's rows", "x[r, :]");
  expect_error(row_op("scatter(load(q[r, :]), load(index[r, :]), load(src[r, :]))"), "4:37",
               "the first operand is not a tensor input", "name a tensor parameter");
  expect_error("kernel a(x: f32[v, n], index: i64[k], src: f32[k, n]) -> (y: f32[v, n]):\n    for r in tiles(v):\n"
               "        store(y[r, :], index_add(load(x[r, :]), index, src, beta))\n",
               "3:61", "alpha is a number or an f32 attr", "index_add(");
  expect_error("kernel a(x: i32[v, n], index: i64[k], src: i32[k, n]) -> (y: i32[v, n]):\n    for r in tiles(v):\n"
               "        store(y[r, :], index_add(load(x[r, :]), index, src))\n",
               "3:24", "index_add sums in float32: i32 values are refused", "values are f32, f16 or bf16");
  expect_error("kernel a(x: f32[v, n], index: i64[k], src: f32[k, n]) -> (y: f32[v, n]):\n    for r in tiles(v):\n"
               "        z = load(x[r, :])\n        store(y[r, :], index_add(load(x[r, :]), index, src))\n",
               "3:9", "the loop of an index program is one store", "store(y[r, :], gather(...))");
}

TEST(TileIndex, ArgmaxOverAnAxisView) {
  const std::string head = "kernel am(x: T[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: ";
  const std::string body = "    dtype T in (f32, i32)\n    for c in tiles(outer, inner):\n"
                           "        store(y[c], argmin(load(x[:, c]), axis=0))\n";
  Compiled c = compile(head + "i64[*outer, *inner]):\n" + body);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.r.kernel.ix.kind, "argmin");
  const std::string& kern = c.r.files.at("op_kernel/am_custom.cpp");
  EXPECT_TRUE(contains(kern, "AscendC::ReduceMin(")) << kern;           // row mode: calIndex
  EXPECT_TRUE(contains(kern, "AscendC::CMPMODE::LT")) << kern;          // column mode: strict, the first index wins
  EXPECT_TRUE(contains(c.r.files.at("op_host/am_custom.cpp"), "ge::DT_INT64"));
  expect_error(head + "i32[*outer, *inner]):\n" + body, "4:15", "argmin stores int64 indices, as torch",
               "declare the output y: i64[*outer, *inner]");
  expect_error(head + "i64[*outer, *inner]):\n" + "    dtype T in (f32, i32)\n    for c in tiles(outer, inner):\n"
                          "        store(y[c], argmin(load(x[:, c]), axis=1))\n",
               "4:48", "argmin reduces the slab along its axis r", "axis=0");
}
