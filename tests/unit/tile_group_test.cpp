// Grouped reductions sum/mean/max/min(v, axis=1, group=K): each row reduced with the other rows of its group of K
// consecutive rows (group norm over the channel planes of a group: kernels/normalization/group_norm.tile). The IR,
// the kernel's fold, the host's group size, checks and rounding, and each misuse's diagnostic.
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
// A group norm over rows of h * w with the loop body `body` (header: weight/bias per channel, groups an i32 attr).
std::string group_norm(const std::string& body, const std::string& types = "f32, f16") {
  return "kernel g(x: T[*m, h, w], weight: f32[c], bias: f32[c], groups: i32 = 8, eps: f32 = 1e-5) -> (y: T[*m, h, w]):\n"
         "    dtype T in (" + types + ")\n"
         "    for r in tiles(m):\n" + body;
}
const std::string kGroupNorm =
    "        v = load(x[r, :], f32)\n"
    "        d = v - mean(v, axis=1, group=c / groups)\n"
    "        a = rsqrt(mean(d * d, axis=1, group=c / groups) + eps) * load(weight[r % c])\n"
    "        store(y[r, :], d * a + load(bias[r % c]))\n";
}  // namespace

TEST(TileGroup, IrKernelAndHost) {
  Compiled c = compile(group_norm(kGroupNorm));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "col f32 = reduce.mean %0(v) group=c / groups")) << c.check_ir;
  EXPECT_EQ(c.r.kernel.group.text, "c / groups");
  EXPECT_EQ(c.r.kernel.group.host, "(d_c / group_groups)");
  EXPECT_FALSE(c.r.kernel.chunks.possible);   // a tile holds whole groups: never chunked
  const std::string& kernel = c.r.files.at("op_kernel/g_custom.cpp");
  EXPECT_TRUE(contains(kernel, "kt::GroupFold<kt::GroupRed::Sum>(")) << kernel;
  EXPECT_TRUE(contains(kernel, "1.0f / static_cast<float>(n_ * groupRows_)")) << kernel;   // mean over the group
  const std::string& host = c.r.files.at("op_host/g_custom.cpp");
  EXPECT_TRUE(contains(host, "const uint64_t group_groups = *group_groupsPtr < 0 ? 0")) << host;
  EXPECT_TRUE(contains(host, "if (group_groups == 0 || d_c % group_groups != 0) {")) << host;   // as PyTorch refuses
  EXPECT_TRUE(contains(host, "const uint64_t groupRows = (d_c / group_groups);")) << host;
  EXPECT_TRUE(contains(host, "if (groupRows == 0 || total % groupRows != 0) {")) << host;
  EXPECT_TRUE(contains(host, "if (tileUnits >= groupRows) break;")) << host;   // the depth drops until a group fits
  EXPECT_TRUE(contains(host, "tileUnits = tileUnits / groupRows * groupRows;")) << host;
  EXPECT_TRUE(contains(host, "perCore = (perCore + groupRows - 1) / groupRows * groupRows;")) << host;
  EXPECT_TRUE(contains(c.r.files.at("op_host/g_custom_tiling.h"), "groupRows")) << c.r.files.at("op_host/g_custom_tiling.h");
}

TEST(TileGroup, MaxMinAndLiteralGroups) {
  Compiled c = compile(group_norm("        v = load(x[r, :], f32)\n"
                                  "        store(y[r, :], v - max(v, axis=1, group=2) + min(v, axis=1, group=2))\n"));
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kernel = c.r.files.at("op_kernel/g_custom.cpp");
  EXPECT_TRUE(contains(kernel, "kt::GroupFold<kt::GroupRed::Max>(")) << kernel;
  EXPECT_TRUE(contains(kernel, "kt::GroupFold<kt::GroupRed::Min>(")) << kernel;
  EXPECT_TRUE(contains(c.r.files.at("op_host/g_custom.cpp"), "const uint64_t groupRows = 2ull;"));
  // a product of a dim and an attr, read before the split; a plain row reduction next to it is not grouped
  Compiled p = compile(group_norm("        v = load(x[r, :], f32)\n"
                                  "        store(y[r, :], v - sum(v, axis=1, group=h * groups) + mean(v, axis=1))\n"));
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_TRUE(contains(p.check_ir, "reduce.sum %0(v) group=h * groups")) << p.check_ir;
  EXPECT_TRUE(contains(p.check_ir, "reduce.mean %0(v)    ")) << p.check_ir;
}

TEST(TileGroup, Diagnostics) {
  const std::string v = "        v = load(x[r, :], f32)\n";
  expect_error(group_norm(v + "        store(y[r, :], v - sum(v, axis=1, group=2.5))\n"), "5:49",
               "a group is a whole number of rows, at least 1", "group=c / groups");
  expect_error(group_norm(v + "        store(y[r, :], v - sum(v, axis=1, group=0))\n"), "5:49",
               "a group is a whole number of rows, at least 1", "");
  expect_error(group_norm(v + "        store(y[r, :], v - sum(v, axis=1, group=c / eps))\n"), "5:53",
               "attr 'eps' is not an i32: a group counts rows", "");
  expect_error(group_norm(v + "        store(y[r, :], v - sum(v, axis=1, group=q))\n"), "5:49",
               "'q' is neither a dim nor an attr of the kernel", "");
  expect_error(group_norm(v + "        store(y[r, :], v - sum(v, axis=1, group=c - 1))\n"), "5:49",
               "group= takes a count of rows, not 'c - 1'", "");
  expect_error(group_norm("        store(y[r, :], mean(load(x[r, :]), axis=1, group=2))\n"), "4:29",
               "a grouped reduction folds float32 rows", "load the tile as f32: v = load(x[r, :], f32)");
  expect_error(group_norm(v + "        store(y[r, :], v - sum(v, axis=1, group=2) - sum(v, axis=1, group=4))\n"), "5:75",
               "group=4 differs from the kernel's group=2", "every grouped reduction of a kernel groups the same rows");
  expect_error("kernel s(x: T[*m, r @ dim, *h], dim: i32 = 1) -> (y: T[*m, *h]):\n"
               "    dtype T in (f32)\n"
               "    for c in tiles(m, h):\n"
               "        store(y[c], sum(load(x[:, c], f32), axis=0, group=2))\n",
               "4:59", "group= groups the rows of a row tile, not the axis r of a slab", "sum(v, axis=1, group=K)");
}
