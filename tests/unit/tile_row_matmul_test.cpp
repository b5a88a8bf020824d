// Row matmul programs (src/tile/sema_row_matmul.cpp, emit_row_matmul.cpp): what the checks read from a program (the
// weight's orientation, the row chain in order, a reduced output), every diagnostic of a misuse, and the op project.
// The projects themselves run against PyTorch in `kgen eval` (kernels/fuse/gemm_sigmoid_sum.tile, ... in the bench).
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/row_matmul.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
const std::string kLinear = "kernel f(x: T[m, k], weight: T[n, k], bias: T[n]) -> (y: T[m, 1]):\n";
const std::string kRows = "kernel f(x: T[m, k], weight: T[n, k], bias: T[n]) -> (y: T[m, n]):\n";
// A row matmul program: the header, then the block's lines (each at line 4, 5, ... column 9).
std::string program(const std::string& header, const std::string& h, const std::string& store) {
  return header + "    dtype T in (f32, f16)\n    for blk in blocks(m):\n        h = " + h + "\n        " + store + "\n";
}
const std::string kLayer = "mma(x[blk, k], weight[n, k]) + load(bias[n])";

TEST(TileRowMatmul, SigmoidSum) {
  Checked c = check_src(program(kLinear, kLayer, "store(y[blk, 1], sum(sigmoid(h), axis=1))"));
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_TRUE(c.k.row_mm);
  EXPECT_TRUE(c.k.cube);
  const RowMatmul& r = *c.k.row_mm;
  EXPECT_TRUE(r.w_trans);
  EXPECT_FALSE(r.x_to_f32);
  EXPECT_TRUE(r.reduced);
  EXPECT_EQ(c.k.syms[r.m_sym].name, "m");
  EXPECT_EQ(c.k.syms[r.k_sym].name, "k");
  EXPECT_EQ(c.k.syms[r.n_sym].name, "n");
  ASSERT_EQ(r.ops.size(), 3u);
  EXPECT_EQ(r.ops[0].kind, RowOp::AddRow);
  EXPECT_EQ(c.k.tensors[r.ops[0].tensor].name, "bias");
  EXPECT_EQ(r.ops[1].kind, RowOp::Act);
  EXPECT_EQ(r.ops[1].fn, "sigmoid");
  EXPECT_EQ(r.ops[2].kind, RowOp::Reduce);
  EXPECT_EQ(r.ops[2].fn, "sum");
}

TEST(TileRowMatmul, LogsumexpThenColumnOps) {
  Checked c = check_src(program(kLinear, kLayer, "store(y[blk, 1], relu(logsumexp(h, axis=1)) * 2.0)"));
  ASSERT_TRUE(c.ok) << c.diags;
  const RowMatmul& r = *c.k.row_mm;
  ASSERT_EQ(r.ops.size(), 4u);
  EXPECT_EQ(r.ops[1].fn, "logsumexp");
  EXPECT_FALSE(r.ops[1].column);
  EXPECT_EQ(r.ops[2].fn, "relu");
  EXPECT_TRUE(r.ops[2].column);   // after the reduction: on the column
  EXPECT_EQ(r.ops[3].kind, RowOp::Scale);
  EXPECT_TRUE(r.ops[3].column);
}

TEST(TileRowMatmul, ScaleSoftmaxWithF32Weight) {
  const std::string src =
      "kernel f(x: T[m, k], weight: f32[k, n], scale: f32 = 1.0) -> (y: T[m, n]):\n"
      "    dtype T in (f32, f16, bf16)\n    for blk in blocks(m):\n"
      "        h = mma(x[blk, k], weight[k, n]) * scale\n        store(y[blk, n], softmax(h))\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "row matmul kernel f (FCustom)")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "cube: H = x @ weight -> f32 workspace")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "vector: scale static_cast<double>(*attr0Ptr)")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "vector: softmax")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "store: y [m, n]")) << c.check_ir;
  const std::string& kern = c.r.files.at("op_kernel/f_custom.cpp");
  // a block of H's rows and columns into H [m, n]; after the SyncAll each core's rows through the chain
  EXPECT_TRUE(contains(kern, "mm.SetTail(rows, cols);"));
  EXPECT_TRUE(contains(kern, "mm.IterateAll(hWs_[static_cast<uint64_t>(m0) * n_ + n0]);"));
  EXPECT_TRUE(contains(kern, "mm.SetTensorB(weightGm_[n0]);"));
  EXPECT_TRUE(contains(kern, "AscendC::SyncAll();"));
  EXPECT_TRUE(contains(kern, "XToF32(m0, rows);"));             // a half x is converted: the weight is f32
  EXPECT_TRUE(contains(kern, "AscendC::Muls(h, h, scale0_, all);"));
  EXPECT_TRUE(contains(kern, "kt::RowDiv(h, h, colSum, bwork, count, n_, npad_);"));
  const std::string& host = c.r.files.at("op_host/f_custom.cpp");
  EXPECT_TRUE(contains(host, "inType = matmul_tiling::DataType::DT_FLOAT;"));
  EXPECT_TRUE(contains(host, "mmH.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, false);"));
  EXPECT_TRUE(contains(host, "mmH.SetShape(static_cast<int32_t>(blockM), static_cast<int32_t>(blockN), "
                             "static_cast<int32_t>(k));"));
  EXPECT_TRUE(contains(host, "mmH.SetOrgShape(static_cast<int32_t>(m), static_cast<int32_t>(n), "
                             "static_cast<int32_t>(k));"));
}

TEST(TileRowMatmul, GeluSoftmaxKernel) {
  Compiled c = compile(program(kRows, kLayer, "store(y[blk, n], softmax(gelu(h)))"));
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/f_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::VecAdd(h, h, biasRow_.Get<float>(), count, n_, npad_);"));
  EXPECT_TRUE(contains(kern, "kt::Gelu(h, h, math_.Get<uint8_t>(), all);"));
  EXPECT_TRUE(contains(kern, "AscendC::Matmul<XType, WType, HType, BiasType> mm;"));
  EXPECT_FALSE(contains(kern, "XToF32"));
  // nn.Linear's weight [n, k]: a block's columns of H are rows n0.. of the weight
  EXPECT_TRUE(contains(kern, "mm.SetTensorB(weightGm_[static_cast<uint64_t>(n0) * k_], true);"));
  const std::string& host = c.r.files.at("op_host/f_custom.cpp");
  EXPECT_TRUE(contains(host, "out->SetDim(x->GetDimNum() - 1, w->GetDim(0));"));   // n of weight [n, k]
}

TEST(TileRowMatmul, AttentionStaysAttention) {
  const std::string src =
      "kernel att(q: T[s, d], k: T[t, d], v: T[t, e]) -> (y: T[s, e]):\n    dtype T in (f32, f16)\n"
      "    for blk in blocks(s):\n        p = softmax(mma(q[blk, d], k[t, d]))\n        store(y[blk, e], mma(p, v[t, e]))\n";
  Checked c = check_src(src);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.k.attention);
  EXPECT_FALSE(c.k.row_mm);
}

// --- diagnostics ---------------------------------------------------------------------------------------------
TEST(TileRowMatmul, StructureErrors) {
  expect_error(kLinear + "    dtype T in (f32, f16)\n    z = 1.0\n    for blk in blocks(m):\n        h = " + kLayer +
                   "\n        store(y[blk, 1], sum(h, axis=1))\n",
               "3:5", "a statement before the blocks loop", "a row matmul program is one blocks loop");
  expect_error(kLinear + "    dtype T in (f32, f16)\n    for blk in blocks(q):\n        h = " + kLayer +
                   "\n        store(y[blk, 1], sum(h, axis=1))\n",
               "3:16", "blocks() of a row matmul program takes x's rows", "for blk in blocks(m):");
  expect_error(kLinear + "    dtype T in (f32, f16)\n    for blk in blocks(m, tile=16):\n        h = " + kLayer +
                   "\n        store(y[blk, 1], sum(h, axis=1))\n",
               "3:26", "blocks() has no option 'tile'", "chosen by the host");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], sum(h, axis=1))\n        g = h"), "6:9",
               "a statement after the store", "ends the block");
  expect_error(kLinear + "    dtype T in (f32, f16)\n    for blk in blocks(m):\n        h = " + kLayer + "\n",
               "3:5", "the block is never stored", "store(y[blk, n], ...)");
  expect_error(program(kLinear, kLayer, "sum(h, axis=1)"), "5:9", "a row matmul block is `name = ...` statements",
               "for blk in blocks(m):");
}

TEST(TileRowMatmul, ChainErrors) {
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], sum(g, axis=1))"), "5:30", "unknown name 'g'", "use 'h'");
  expect_error(kLinear + "    dtype T in (f32, f16)\n    for blk in blocks(m):\n        h = " + kLayer +
                   "\n        g = sigmoid(h)\n        store(y[blk, 1], sum(h, axis=1))\n",
               "6:30", "'h' is an earlier value of the row chain", "the latest value, 'g'");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], sum(floor(h), axis=1))"), "5:30",
               "not an operation of the rows", "softmax(h)");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], sum(2.0 / h, axis=1))"), "5:30",
               "a scalar divided by the rows", "h * scale");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], sum(h * sqrt(bogus), axis=1))"), "5:39",
               "'bogus' is not an attr or a dim", "a scalar of numbers, attrs and dims");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], sum(sigmoid(h, 2), axis=1))"), "5:30",
               "sigmoid takes one value", "sigmoid(h)");
  expect_error(program(kRows, kLayer, "store(y[blk, n], softmax(h, axis=0))"), "5:37",
               "softmax after a matmul runs along the row only", "softmax(h, axis=1)");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], sum(h))"), "5:26", "sum of the rows needs axis=1",
               "sum(h, axis=1)");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], max(sum(h, axis=1), axis=1))"), "5:26",
               "the rows are already reduced to a column", "one reduction per row");
}

TEST(TileRowMatmul, BiasErrors) {
  expect_error(program(kLinear, "mma(x[blk, k], weight[n, k]) + 1.0", "store(y[blk, 1], sum(h, axis=1))"), "4:13",
               "the rows add a loaded row: h + load(bias[n])", "bias: T[n]");
  expect_error(program("kernel f(x: T[m, k], weight: T[n, k], bias: T[k]) -> (y: T[m, 1]):\n",
                       "mma(x[blk, k], weight[n, k]) + load(bias[k])", "store(y[blk, 1], sum(h, axis=1))"),
               "4:49", "the loaded row is an input of dims [n]", "h + load(bias[n])");
  expect_error(program(kLinear, "mma(x[blk, k], weight[n, k]) + load(bias[blk])", "store(y[blk, 1], sum(h, axis=1))"),
               "4:54", "the row is indexed by its dim 'n'", "h + load(bias[n])");
  expect_error(program("kernel f(x: T[m, k], weight: T[n, k], bias: T[n] = None) -> (y: T[m, 1]):\n", kLayer,
                       "store(y[blk, 1], sum(h, axis=1))"),
               "1:39", "a row matmul program takes no optional input yet", "without = None");
  expect_error(program(kLinear, "mma(x[blk, k], weight[n, k])", "store(y[blk, 1], sum(h, axis=1) + load(bias[n]))"),
               "5:26", "a row added to the reduced column", "add the bias before the reduction");
  expect_error(program("kernel f(x: T[m, k], weight: T[n, k], bias: i32[n]) -> (y: T[m, 1]):\n", kLayer,
                       "store(y[blk, 1], sum(h, axis=1))"),
               "1:39", "the row has x's dtype or is f32", "bias: T[n]");
}

TEST(TileRowMatmul, MatmulErrors) {
  expect_error(program(kLinear, "mma(x[k, blk], weight[n, k]) + load(bias[n])", "store(y[blk, 1], sum(h, axis=1))"),
               "4:19", "x is indexed by the block of its rows first", "mma(x[blk, k], weight[k, n])");
  expect_error(program(kLinear, "mma(x[blk, k], weight[k, n]) + load(bias[n])", "store(y[blk, 1], sum(h, axis=1))"),
               "4:35", "index 'k' at dim 'n' of 'weight': operands are indexed in the order they are stored",
               "weight[n, k]");
  expect_error(program("kernel f(x: T[m, k], weight: T[n, j], bias: T[n]) -> (y: T[m, 1]):\n",
                       "mma(x[blk, k], weight[n, j]) + load(bias[n])", "store(y[blk, 1], sum(h, axis=1))"),
               "4:28", "the weight has x's dim 'k'", "mma(x[blk, k], weight[n, k])");
  expect_error(program("kernel f(x: T[m, k], weight: f16[n, k], bias: T[n]) -> (y: T[m, 1]):\n", kLayer,
                       "store(y[blk, 1], sum(h, axis=1))"),
               "1:22", "the weight has x's dtype or is f32", "weight: f32[k, n]");
  expect_error("kernel f(x: T[m, k], weight: T[n, k], bias: T[n]) -> (y: T[m, 1]):\n    dtype T in (f32, i32)\n"
               "    for blk in blocks(m):\n        h = " + kLayer + "\n        store(y[blk, 1], sum(h, axis=1))\n",
               "1:10", "the cube multiplies f32, f16 and bf16, not i32", "dtype T in (f32, f16, bf16)");
  expect_error(program(kLinear, "mma(x[blk, k], bias[n]) + load(bias[n])", "store(y[blk, 1], sum(h, axis=1))"),
               "4:28", "an operand is a 2-D input indexed by two names", "mma(x[blk, k], weight[k, n])");
}

TEST(TileRowMatmul, StoreErrors) {
  expect_error(program(kRows, kLayer, "store(y[blk, n], sum(h, axis=1))"), "1:55",
               "'y' is [m, 1]: one value per row after the reduction", "y: T[m, 1]");
  expect_error(program(kLinear, kLayer, "store(y[blk, 1], softmax(h))"), "1:55",
               "'y' is [m, n]: x's rows, the weight's n", "y: T[m, n]");
  expect_error(program(kRows, kLayer, "store(y[blk, k], softmax(h))"), "5:15", "the output is indexed y[blk, n]",
               "store(y[blk, n], softmax(h))");
  expect_error(program(kRows, kLayer, "store(x[blk, n], softmax(h))"), "5:15", "the block is stored into an output",
               "store(y[blk, n], softmax(h))");
  expect_error(program(kRows, kLayer, "store(y[blk, n])"), "5:9",
               "store takes the output indexed [blk, n] (or [blk, 1]) and the rows", "store(y[blk, n], softmax(h))");
}
}  // namespace
