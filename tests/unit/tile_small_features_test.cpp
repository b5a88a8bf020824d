// Small gaps of the tile language closed for level-1 tasks: the outer broadcast of a column and a row vector (a row
// vector may be declared [1, n]), scalars computed on the host (beta1 ** step), and rows made of several trailing dims
// (x: T[*m, h, w]). Each feature's IR and emitted code, and each misuse's diagnostic. tests/tile_test.sh runs the
// expert programs that use them (broadcast/sub_outer_broadcast, optimizer/adam(w), normalization/instance_norm).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tile/compile.h"
#include "tile/parser.h"
#include "tile/sema.h"

using namespace kgen::tile;

namespace {
bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

struct Compiled {
  bool ok = false;
  std::string diags, check_ir;
  CompileResult r;
};

Compiled compile(const std::string& src) {
  Compiled c;
  CompileOptions o;
  o.dump = [&](const std::string& p, const std::string& ir) {
    if (p == "check") c.check_ir = ir;
  };
  Diags d("t.tile", &src);
  c.r = compile_program("t.tile", src, o, d);
  c.ok = c.r.ok;
  c.diags = d.render(false);
  return c;
}

// file:line:col, the message and the hint of the first error.
void expect_error(const std::string& src, const std::string& where, const std::string& message, const std::string& hint) {
  Compiled c = compile(src);
  EXPECT_FALSE(c.ok) << src;
  EXPECT_TRUE(contains(c.diags, "t.tile:" + where + ": error: ")) << where << "\n" << c.diags;
  EXPECT_TRUE(contains(c.diags, message)) << message << "\n" << c.diags;
  EXPECT_TRUE(contains(c.diags, "^")) << c.diags;   // the caret under the line
  if (!hint.empty()) EXPECT_TRUE(contains(c.diags, "hint: ") && contains(c.diags, hint)) << hint << "\n" << c.diags;
}

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
