// Small gaps of the tile language closed for level-1 tasks: the outer broadcast of a column and a row vector (a row
// vector may be declared [1, n]), scalars computed on the host (beta1 ** step), and rows made of several trailing dims
// (x: T[*m, h, w]). Each feature's IR and emitted code, and each misuse's diagnostic. tests/tile_test.sh runs the
// expert programs that use them (broadcast/sub_outer_broadcast, optimizer/adam(w), normalization/instance_norm).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tile_test_util.h"
#include "tile/compile.h"
#include "tile/parser.h"
#include "tile/sema.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
const char* kOuter = R"(kernel outer(a: T[*m, 1], b: T[1, n]) -> (y: T[*m, n]):
    dtype T in (f32, f16, i32)
    w = load(b[:])
    for r in tiles(m):
        store(y[r, :], load(a[r, :]) - w)
)";

const char* kAdam = R"(kernel bias_correct(m: f32[*n], beta1: f32 = 0.9, step: i32 = 10) -> (y: f32[*n]):
    bc = 1.0 - beta1 ** step
    for t in tiles(n):
        store(y[t], load(m[t]) / bc + exp(log(beta1)) + (1.0 - beta1 ** step) ** 0.5 + sqrt(n))
)";

const char* kPlanes = R"(kernel planes(x: T[*m, h, w]) -> (y: T[*m, h, w]):
    dtype T in (f32, f16)
    for r in tiles(m):
        v = load(x[r, :], f32)
        store(y[r, :], v - mean(v, axis=1))
)";
}  // namespace

TEST(TileSmallFeatures, OuterBroadcastSpreadsTheColumnThenBroadcastsTheRow) {
  Compiled c = compile(kOuter);
  ASSERT_TRUE(c.ok) << c.diags;
  // a [rows, 1] - w [n]: the column spread over a row tile (0 + a), then the row vector subtracted from it.
  EXPECT_TRUE(contains(c.check_ir, "fill")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "row_bcast.add")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "vec_bcast.sub")) << c.check_ir;
  const std::string& kernel = c.r.files["op_kernel/outer_custom.cpp"];
  EXPECT_TRUE(contains(kernel, "kt::RowAdd(")) << kernel;
  EXPECT_TRUE(contains(kernel, "kt::VecSub(")) << kernel;
  // b: T[1, n] is checked as (1, n) by the host.
  const std::string& host = c.r.files["op_host/outer_custom.cpp"];
  EXPECT_TRUE(contains(host, "s.GetDim(s.GetDimNum() - 2)) != 1")) << host;
  // The other order: the row vector spread, the column broadcast onto it.
  Compiled d = compile(R"(kernel outer2(a: f32[*m, 1], b: f32[n]) -> (y: f32[*m, n]):
    w = load(b[:])
    for r in tiles(m):
        store(y[r, :], w / load(a[r, :]))
)");
  ASSERT_TRUE(d.ok) << d.diags;
  EXPECT_TRUE(contains(d.check_ir, "vec_bcast.add")) << d.check_ir;
  EXPECT_TRUE(contains(d.check_ir, "row_bcast.div")) << d.check_ir;
}

TEST(TileSmallFeatures, HostScalarsBecomeTilingFields) {
  Compiled c = compile(kAdam);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& tiling = c.r.files["op_host/bias_correct_custom_tiling.h"];
  const std::string& host = c.r.files["op_host/bias_correct_custom.cpp"];
  const std::string& kernel = c.r.files["op_kernel/bias_correct_custom.cpp"];
  EXPECT_TRUE(contains(tiling, "TILING_DATA_FIELD_DEF(float, hostScalar0);   // beta1 ** step, computed on the host"))
      << tiling;
  EXPECT_TRUE(contains(host, "#include <cmath>")) << host;
  EXPECT_TRUE(contains(host, "std::pow(static_cast<double>(attr_beta1), static_cast<double>(attr_step))")) << host;
  EXPECT_TRUE(contains(host, "std::exp(std::log(static_cast<double>(attr_beta1)))")) << host;
  EXPECT_TRUE(contains(host, "std::sqrt(static_cast<double>(d_n))")) << host;
  // The same power twice is one field; one hoisted inside a larger hoisted expression is not a field of its own.
  EXPECT_TRUE(contains(host, "std::pow((1.0 - std::pow(static_cast<double>(attr_beta1), static_cast<double>(attr_step))), 0.5)"))
      << host;
  int fields = 0;
  for (size_t p = tiling.find("hostScalar"); p != std::string::npos; p = tiling.find("hostScalar", p + 1)) ++fields;
  EXPECT_EQ(fields, 4) << tiling;   // beta1 ** step, exp(log(beta1)), (1 - beta1 ** step) ** 0.5, sqrt(n)
  EXPECT_TRUE(contains(kernel, "hostScalar0_")) << kernel;
  // The fields are numbered without gaps: a power inside a hoisted expression is not a field of its own.
  Compiled n = compile("kernel nested(x: f32[*n], b: f32 = 0.9, s: i32 = 2) -> (y: f32[*n]):\n    for t in tiles(n):\n"
                       "        store(y[t], load(x[t]) / (1.0 - b ** s) ** 0.5)\n");
  ASSERT_TRUE(n.ok) << n.diags;
  const std::string& nt = n.r.files["op_host/nested_custom_tiling.h"];
  EXPECT_TRUE(contains(nt, "TILING_DATA_FIELD_DEF(float, hostScalar0);   // (1.0 - b ** s) ** 0.5")) << nt;
  EXPECT_FALSE(contains(nt, "hostScalar1")) << nt;
  // Constants fold at compile time.
  Compiled k = compile("kernel folded(x: f32[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n"
                       "        store(y[t], load(x[t]) * 2.0 ** 3)\n");
  ASSERT_TRUE(k.ok) << k.diags;
  EXPECT_FALSE(contains(k.r.files["op_host/folded_custom_tiling.h"], "hostScalar")) << k.r.files["op_host/folded_custom_tiling.h"];
  EXPECT_TRUE(contains(k.r.files["op_kernel/folded_custom.cpp"], "static_cast<float>(8)")) << k.r.files["op_kernel/folded_custom.cpp"];
}

TEST(TileSmallFeatures, RowsOfSeveralTrailingDims) {
  Compiled c = compile(kPlanes);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "dim h_w = the product of dims -2 to -1 of x")) << c.check_ir;
  const std::string& host = c.r.files["op_host/planes_custom.cpp"];
  EXPECT_TRUE(contains(host, "uint64_t d_hW = 1;")) << host;
  EXPECT_TRUE(contains(host, "tiling.set_n(static_cast<uint32_t>(d_hW));")) << host;
  // A column of such rows is [*m, 1] or [*m, 1, 1].
  Compiled d = compile(R"(kernel planes_scaled(x: f32[*m, h, w], s: f32[*m, 1, 1]) -> (y: f32[*m, h, w]):
    for r in tiles(m):
        store(y[r, :], load(x[r, :]) * load(s[r, :]))
)");
  EXPECT_TRUE(d.ok) << d.diags;
}

TEST(TileSmallFeatures, Diagnostics) {
  // A vector must be [n] or [1, n].
  expect_error("kernel k(x: f32[*m, n], b: f32[2, n]) -> (y: f32[*m, n]):\n    w = load(b[:])\n    for r in tiles(m):\n"
               "        store(y[r, :], load(x[r, :]) + w)\n",
               "2:14", "'b[:]' takes a whole vector; 'b' is not declared as one", "[n] (or [1, n])");
  // A host scalar of something the host does not have.
  expect_error("kernel k(x: f32[*n], a: f32 = 2.0) -> (y: f32[*n]):\n    for t in tiles(n):\n"
               "        store(y[t], load(x[t]) * a ** (a > 1.0))\n",
               "3:39", "comparing two scalars", "");
  expect_error("kernel k(x: f32[*n], a: f32 = 2.0) -> (y: f32[*n]):\n    for t in tiles(n):\n"
               "        store(y[t], load(x[t]) * gelu(a))\n",
               "3:34", "'gelu(a)' cannot be computed on the host", "exp, log, sqrt");
  // A tile to a power of an attr stays refused: the vector unit has no pow.
  expect_error("kernel k(x: f32[*n], a: f32 = 2.0) -> (y: f32[*n]):\n    for t in tiles(n):\n"
               "        store(y[t], load(x[t]) ** a)\n",
               "3:35", "a tile's power must be 2, 3 or 0.5", "");
  // Rows of another tensor's dims.
  expect_error("kernel k(x: f32[*m, h, w], z: f32[*m, w, h]) -> (y: f32[*m, h, w]):\n    for r in tiles(m):\n"
               "        store(y[r, :], load(x[r, :]) + load(z[r, :]))\n",
               "3:45", "'z' has rows of another length than the loop's tensor", "[*m, h, w]");
  // Dims that are not the last dims of one input cannot be merged.
  expect_error("kernel k(x: f32[*m, h, 1], z: f32[w]) -> (y: f32[*m, h, w]):\n    for r in tiles(m):\n"
               "        store(y[r, :], load(x[r, :]))\n",
               "2:20", "the row dims h_w of 'y' cannot be merged into one row", "last dims of one input");
  // A dim already called like the merged row.
  expect_error("kernel k(x: f32[*m, h, w], z: f32[h_w]) -> (y: f32[*m, h, w]):\n    for r in tiles(m):\n"
               "        store(y[r, :], load(x[r, :]))\n",
               "2:20", "cannot be merged into one row", "'h_w' is already a dim");
}

// torch.where(cond[b, 1], x[b, n], other[n]): a bool column mask over a row operand and a row vector. The mask's halves
// are spread over a row tile before the compare, the vector is spread like an outer broadcast, then one select.
TEST(TileSmallFeatures, WhereSpreadsAColumnMaskAndAVector) {
  Compiled c = compile(R"(kernel wb(cond: bool[*m, 1], x: T[*m, n], other: T[n]) -> (y: T[*m, n]):
    dtype T in (f32, f16)
    o = load(other[:])
    for r in tiles(m):
        store(y[r, :], where(load(cond[r, :]), load(x[r, :]), o))
)");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "col f16 = cast")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "rows f16 = row_bcast.add")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "rows f16 mask = compare.ne")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "rows T = vec_bcast.add")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "rows T = select")) << c.check_ir;
  const std::string& kernel = c.r.files["op_kernel/wb_custom.cpp"];
  EXPECT_TRUE(contains(kernel, "kt::RowAdd(")) << kernel;
  EXPECT_TRUE(contains(kernel, "kt::VecAdd(")) << kernel;
  EXPECT_TRUE(contains(kernel, "kt::Where(")) << kernel;
  // A comparison column (bits): turned into 1/0 halves by a select, spread, compared again; a scalar operand stays.
  Compiled d = compile(R"(kernel wc(x: f32[*m, n]) -> (y: f32[*m, n]):
    for r in tiles(m):
        v = load(x[r, :])
        store(y[r, :], where(sum(v, axis=1) > 0.0, v, 0.0))
)");
  ASSERT_TRUE(d.ok) << d.diags;
  EXPECT_TRUE(contains(d.check_ir, "col f16 = select")) << d.check_ir;
  EXPECT_TRUE(contains(d.check_ir, "rows f16 mask = compare.ne")) << d.check_ir;
  EXPECT_TRUE(contains(d.r.files["op_kernel/wc_custom.cpp"], "kt::WhereTS(")) << d.r.files["op_kernel/wc_custom.cpp"];
  // Same forms need no spreading.
  Compiled s = compile(R"(kernel ws(x: f32[*m, n]) -> (y: f32[*m, n]):
    for r in tiles(m):
        v = load(x[r, :])
        store(y[r, :], where(v > 0.0, v, 0.0))
)");
  ASSERT_TRUE(s.ok) << s.diags;
  EXPECT_FALSE(contains(s.check_ir, "row_bcast")) << s.check_ir;
}

TEST(TileSmallFeatures, WhereDiagnostics) {
  // A flat mask (one bit per position) does not spread over slab operands (masks are bits, no broadcast moves
  // them): the form error, with what does mix (a slab mask with flat operands, which repeat along r).
  expect_error("kernel k(x: f32[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: f32[*outer, r, *inner]):\n"
               "    for c in tiles(outer, inner):\n        v = load(x[:, c])\n"
               "        store(y[:, c], where(sum(v, axis=0) > 0.0, v, 0.0))\n",
               "4:24", "where() over a flat mask with a slab operand", "compare slabs for a slab result");
  // Operand dtypes must still agree after spreading.
  expect_error("kernel k(c: bool[*m, 1], x: f32[*m, n], o: f16[n]) -> (y: f32[*m, n]):\n    w = load(o[:])\n"
               "    for r in tiles(m):\n        store(y[r, :], where(load(c[r, :]), load(x[r, :]), w))\n",
               "4:24", "where()'s operands have dtypes f32 and f16", "cast()");
}

// x + bias[c, 1, 1] over [b, c, h, w]: rows of h * w, and a column that repeats every c rows, loaded as bias[r % c, :].
TEST(TileSmallFeatures, PeriodicColumnRepeatsEveryCRows) {
  Compiled c = compile(R"(kernel ab(x: T[*m, h, w], bias: T[c, 1, 1]) -> (y: T[*m, h, w]):
    dtype T in (f32, f16)
    for r in tiles(m):
        store(y[r, :], load(x[r, :]) + load(bias[r % c, :]))
)");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "col T = load bias [row % c]")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "row_bcast.add")) << c.check_ir;
  const std::string& kernel = c.r.files["op_kernel/ab_custom.cpp"];
  // The whole bias is the GM view (not this core's rows); each tile reads it from its first row's index, modulo c.
  EXPECT_TRUE(contains(kernel, "biasGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(bias) + 0, c_);")) << kernel;
  EXPECT_TRUE(contains(kernel, "kt::LoadPeriodicColumn(biasIn, biasGm_, AscendC::GetBlockIdx() * perCore_ + "
                               "uint64_t(i) * tileUnits_, units, c_);"))
      << kernel;
  // Chunked mode (rows longer than UB): one value per row, the same way.
  EXPECT_TRUE(contains(kernel, "biasGm_, AscendC::GetBlockIdx() * perCore_ + row, 1, c_);")) << kernel;
  EXPECT_TRUE(contains(c.r.files["op_host/ab_custom_tiling.h"], "c);")) << c.r.files["op_host/ab_custom_tiling.h"];
  // A [c] vector works the same: bias[r % c].
  Compiled v = compile("kernel av(x: f32[*m, n], bias: f32[c]) -> (y: f32[*m, n]):\n    for r in tiles(m):\n"
                       "        store(y[r, :], load(x[r, :]) * load(bias[r % c]))\n");
  EXPECT_TRUE(v.ok) << v.diags;
  // A column of rows of several dims, [*m, 1, 1], is read at this core's rows (one value per row, not per element).
  Compiled s = compile(R"(kernel ps(x: f32[*m, h, w], s: f32[*m, 1, 1]) -> (y: f32[*m, h, w]):
    for r in tiles(m):
        store(y[r, :], load(x[r, :]) * load(s[r, :]))
)");
  ASSERT_TRUE(s.ok) << s.diags;
  EXPECT_TRUE(contains(s.r.files["op_kernel/ps_custom.cpp"], "sGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(s) + begin, count_);"))
      << s.r.files["op_kernel/ps_custom.cpp"];
}

TEST(TileSmallFeatures, PeriodicColumnDiagnostics) {
  const std::string head = "kernel k(x: f32[*m, h, w], bias: f32[c, 1, 1]) -> (y: f32[*m, h, w]):\n    for r in tiles(m):\n"
                           "        store(y[r, :], load(x[r, :]) + ";
  // The period must be a dim, the dividend the loop variable.
  expect_error(head + "load(bias[r % 2, :]))\n", "3:50", "a periodic index is the row loop's variable modulo a dim",
               "bias: f32[c, 1]");
  expect_error(head + "load(bias[c % r, :]))\n", "3:50", "a periodic index is the row loop's variable modulo a dim", "");
  // Only a column of c values repeats.
  expect_error(head + "load(x[r % c, :]))\n", "3:45", "'x' is not a column of c values", "x: f32[c, 1, 1]");
  expect_error(head + "load(bias[r % c]))\n", "3:45", "'bias' is not a column of c values", "load bias[r % c, :]");
  // Outputs are not periodic.
  expect_error("kernel k(x: f32[*m, n], g: f32[c, 1]) -> (y: f32[*m, n], z: f32[c, 1]):\n    for r in tiles(m):\n"
               "        v = load(x[r, :])\n        store(y[r, :], v)\n        store(z[r % c, :], sum(v, axis=1))\n",
               "5:15", "'z' is not a column of c values", "");
}
