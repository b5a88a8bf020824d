// i64 columns in row programs (load(target[r], f32)), axis_index over a row tile, comparisons of a row tile with a
// column, and rows repeated over a dim (mask: bool[b, 1, q, n]): the IR, the generated code and every misuse.
#include "tile_test_util.h"

namespace kgen::tile {
namespace {
using test_util::compile;
using test_util::contains;
using test_util::expect_error;

const char* kCrossEntropy =
    "kernel ce(logits: T[*m, n], target: i64[*m]) -> (loss: T):\n"
    "    dtype T in (f32, f16)\n"
    "    total = 0.0\n"
    "    for r in tiles(m):\n"
    "        v = load(logits[r, :], f32)\n"
    "        t = load(target[r], f32)\n"
    "        picked = sum(where(axis_index(v) == t, v, 0.0), axis=1)\n"
    "        total += sum(max(v, axis=1) - picked)\n"
    "    store(loss, total / m)\n";

TEST(TileI64Column, CrossEntropyCompiles) {
  test_util::Compiled c = compile(kCrossEntropy);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/ce_custom.cpp");
  EXPECT_TRUE(contains(kern, "AscendC::GlobalTensor<int64_t> targetGm_")) << kern;
  EXPECT_TRUE(contains(kern, "kt::AxisIndex(")) << kern;            // the columns' numbers along each row
  EXPECT_TRUE(contains(kern, ", true, units, len_, npad_, 0);")) << kern;
  EXPECT_TRUE(contains(kern, "kt::RowAdd(")) << kern;               // the column spread over the row tile
  EXPECT_TRUE(contains(kern, "kt::Cmp(")) << kern;
  // the IR: the comparison is of two row tiles
  EXPECT_TRUE(contains(c.check_ir, "compare.eq")) << c.check_ir;
  const std::string& host = c.r.files.at("op_host/ce_custom.cpp");
  EXPECT_TRUE(contains(host, "ge::DT_INT64")) << host;
}

TEST(TileI64Column, ConvertsInt64) {
  // the prelude's Convert narrows int64 exactly and rounds it to float
  test_util::Compiled c = compile(kCrossEntropy);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& pre = c.r.files.at("op_kernel/kgen_tile.h");
  EXPECT_TRUE(contains(pre, "std::is_same<S, int64_t>::value")) << "int64 branch of kt::Convert";
}

TEST(TileI64Column, Diagnostics) {
  const std::string head = "kernel ce(logits: f32[*m, n], target: i64[*m]) -> (y: f32[*m]):\n    for r in tiles(m):\n";
  expect_error(head + "        store(y[r], sum(load(logits[r, :]), axis=1) + load(target[r]))\n", "3:55",
               "the i64 input 'target' is loaded converted to f32 or i32", "load(target[r], f32)");
  expect_error(head + "        store(y[r], load(target[r], f16))\n", "3:21",
               "the i64 input 'target' is loaded converted to f32 or i32", "exact below 2**24");
  expect_error("kernel ce(x: f32[*m, n], t: i64[*m, n]) -> (y: f32[*m, n]):\n    for r in tiles(m):\n"
               "        store(y[r, :], load(t[r, :], f32))\n",
               "3:24", "the i64 input 't' is read as one value per row of a row program", "t: i64[*m]");
  // cube programs keep refusing i64 inputs
  expect_error("kernel mm(a: i64[m, k], b: f32[k, n]) -> (c: f32[m, n]):\n    for blk in blocks(m, n):\n"
               "        acc = zeros(f32)\n        for kt in tiles(k):\n            acc += mma(a[blk, kt], b[kt, blk])\n"
               "        store(c[blk], acc)\n",
               "1:14", "input 'a' is i64", "");
  // axis_index of a column, comparing a flat tile with a column
  expect_error(head + "        store(y[r], axis_index(sum(load(logits[r, :]), axis=1)))\n", "3:32",
               "axis_index() numbers the rows of a slab of an axis program (or the columns of a row tile)",
               "axis_index(load(x[r, :], f32))");
}

const char* kMaskSoftmax =
    "kernel sm(x: T[*m, k], mask: bool[b, 1, q, k], scale: f32 = 0.5) -> (y: T[*m, k]):\n"
    "    dtype T in (f32, f16)\n"
    "    for r in tiles(m):\n"
    "        s = where(load(mask[r, :]), load(x[r, :], f32) * scale, -inf)\n"
    "        e = exp(s - max(s, axis=1))\n"
    "        store(y[r, :], e / sum(e, axis=1))\n";

TEST(TileRepeatRows, MaskSharedByHeads) {
  test_util::Compiled c = compile(kMaskSoftmax);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/sm_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::LoadRepeatedRows(maskIn, maskGm_, AscendC::GetBlockIdx() * perCore_ + uint64_t(i) * "
                             "tileUnits_, units, len_, npad_, maskInner_, maskRepeat_);"))
      << kern;
  EXPECT_TRUE(contains(kern, "total_ / maskRepeat_ * n_")) << kern;   // the whole mask, not this core's part
  const std::string& tiling = c.r.files.at("op_host/sm_custom_tiling.h");
  EXPECT_TRUE(contains(tiling, "maskInner") && contains(tiling, "maskRepeat")) << tiling;
  const std::string& host = c.r.files.at("op_host/sm_custom.cpp");
  EXPECT_TRUE(contains(host, "tiling.set_maskInner(static_cast<uint64_t>(uint64_t(1 * d_q)));")) << host;
  EXPECT_TRUE(contains(host, "tiling.set_maskRepeat(static_cast<uint64_t>(total / uint64_t(1 * d_b * d_q)));")) << host;
  EXPECT_TRUE(contains(host, "if (ms.GetDim(0) != xs.GetDim(0)) return ge::GRAPH_FAILED;   // b")) << host;
  EXPECT_TRUE(contains(host, "if (ms.GetDim(2) != xs.GetDim(2)) return ge::GRAPH_FAILED;   // q")) << host;
  // long rows are not chunked (a row is read by runs of whole rows)
  EXPECT_TRUE(contains(host, "rows of 'mask' repeated over a dim")) << host;
}

TEST(TileRepeatRows, Diagnostics) {
  expect_error("kernel sm(x: f32[*m, k], mask: bool[b, 1, q, 1, k]) -> (y: f32[*m, k]):\n    for r in tiles(m):\n"
               "        store(y[r, :], where(load(mask[r, :]), load(x[r, :]), 0.0))\n",
               "3:35", "'mask' repeats over two runs of size-1 dims", "one run of 1s");
  expect_error("kernel sm(x: f32[*m, k], mask: bool[b, 1, q, n]) -> (y: f32[*m, k]):\n    for r in tiles(m):\n"
               "        store(y[r, :], where(load(mask[r, :]), load(x[r, :]), 0.0))\n",
               "3:35", "the rows of 'mask' are not the loop's rows", "bool[b, 1, q, k]");
}
}  // namespace
}  // namespace kgen::tile
