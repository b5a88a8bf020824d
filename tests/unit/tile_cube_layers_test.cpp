// Cube programs for layers (src/tile/sema_optional.cpp, sema_cube.cpp, sema_cube_epi.cpp, emit_cube*.cpp): optional
// inputs (`bias: T[n] = None`), tril/triu epilogues, a [m] column broadcast along the rows, a shared left operand
// of a batch and merged output dims (blocks(batch, m, h * w): a 1x1 conv). The projects are run against PyTorch by
// `kgen eval` (kernels/matmul/linear.tile, lower_triangular_matmul.tile, kernels/convolution/conv2d_pointwise.tile).
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/cube.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
const char* kLinear =
    "kernel linear(x: T[m, k], weight: T[n, k], bias: T[n] = None) -> (y: T[m, n]):\n"
    "    dtype T in (f32, f16)\n    for blk in blocks(m, n):\n        acc = zeros(f32)\n"
    "        for kt in tiles(k):\n            acc += mma(x[blk, kt], weight[blk, kt])\n"
    "        store(y[blk], acc + load(bias[blk]))\n";

const char* kConv =
    "kernel conv(x: T[batch, k, h, w], weight: T[m, k, 1, 1], bias: T[m]) -> (y: T[batch, m, h, w]):\n"
    "    dtype T in (f32, f16)\n    for blk in blocks(batch, m, h * w):\n        acc = zeros(f32)\n"
    "        for kt in tiles(k):\n            acc += mma(weight[blk, kt], x[kt, blk])\n"
    "        store(y[blk], acc + load(bias[blk]))\n";

std::string tri(const std::string& stored) {
  return "kernel tri(a: T[m, k], b: T[k, n]) -> (c: T[m, n]):\n    dtype T in (f32, f16)\n"
         "    for blk in blocks(m, n):\n        acc = zeros(f32)\n        for kt in tiles(k):\n"
         "            acc += mma(a[blk, kt], b[kt, blk])\n        store(c[blk], " + stored + ")\n";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}
}  // namespace

TEST(TileCubeLayers, OptionalBiasIsOptionalInTheOpDefAndReadsAsZerosWhenAbsent) {
  Checked c = check_src(kLinear);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.k.tensors[2].optional);
  EXPECT_FALSE(c.k.tensors[0].optional);
  Compiled p = compile(kLinear);
  ASSERT_TRUE(p.ok) << p.diags;
  const std::string& host = p.r.files.at("op_host/linear_custom.cpp");
  const std::string& kern = p.r.files.at("op_kernel/linear_custom.cpp");
  EXPECT_TRUE(contains(host, "Input(\"bias\")\n        .ParamType(OPTIONAL)")) << host;
  EXPECT_TRUE(contains(host, "if (context->GetOptionalInputShape(2) != nullptr) {  // bias (optional)")) << host;
  EXPECT_TRUE(contains(kern, "if (biasGm_.GetPhyAddr() != nullptr) { AscendC::LocalTensor")) << kern;
  EXPECT_TRUE(contains(kern, "else AscendC::Duplicate(row0, 0.0f, sf);   // bias is absent (None): zeros")) << kern;
  EXPECT_TRUE(contains(p.r.files.at("linear_custom.json"), "\"name\": \"bias\", \"param_type\": \"optional\""));
}

TEST(TileCubeLayers, TrilAndTriuMaskByRowAndColumn) {
  Checked c = check_src(tri("tril(acc)"));
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_EQ(c.k.mm.epi.size(), 1u);
  EXPECT_EQ(c.k.mm.epi[0].op, "tri");
  EXPECT_EQ(c.k.mm.epi[0].fn, "tril");
  Compiled p = compile(tri("triu(acc * 2)"));
  ASSERT_TRUE(p.ok) << p.diags;
  const std::string& kern = p.r.files.at("op_kernel/tri_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::ZeroRowTo(t0[r * sf], static_cast<int64_t>(r0 + r) - static_cast<int64_t>(c0), sf)"))
      << kern;
  Compiled l = compile(tri("tril(acc)"));
  ASSERT_TRUE(l.ok) << l.diags;
  EXPECT_TRUE(contains(l.r.files.at("op_kernel/tri_custom.cpp"), "kt::ZeroRowFrom(")) << l.r.files.at("op_kernel/tri_custom.cpp");
}

TEST(TileCubeLayers, PointwiseConvMergesPixelsSharesTheWeightAndAddsAColumn) {
  Checked c = check_src(kConv);
  ASSERT_TRUE(c.ok) << c.diags;
  const CubeMatmul& mm = c.k.mm;
  EXPECT_EQ(c.k.syms[mm.n_sym].name, "h_w");
  EXPECT_FALSE(mm.a_batched);
  EXPECT_TRUE(mm.b_batched);
  ASSERT_EQ(mm.epi.size(), 2u);
  EXPECT_EQ(mm.epi[0].op, "load_col");
  EXPECT_EQ(mm.epi[1].op, "bin_col");
  Compiled p = compile(kConv);
  ASSERT_TRUE(p.ok) << p.diags;
  const std::string& host = p.r.files.at("op_host/conv_custom.cpp");
  const std::string& kern = p.r.files.at("op_kernel/conv_custom.cpp");
  EXPECT_TRUE(contains(host, "uint64_t d_hW = 1;")) << host;
  EXPECT_TRUE(contains(kern, "mm.SetTensorA(weightGm_[m0 * k_], false);")) << kern;   // shared: no batch offset
  EXPECT_TRUE(contains(kern, "mm.SetTensorB(xGm_[batch * k_ * n_ + n0], false);")) << kern;
  EXPECT_TRUE(contains(kern, "kt::LoadVector(st, biasGm_[r0], rows);")) << kern;
  EXPECT_TRUE(contains(kern, "kt::RowAdd(")) << kern;
}

TEST(TileCubeLayers, Diagnostics) {
  // a tensor's default is None only
  expect_error(replace(kLinear, "= None", "= 0"), "1:57", "a tensor input's only default is None", "= None");
  // a required input after an optional one: the positions would shift when it is absent
  expect_error(replace(kLinear, "bias: T[n] = None)", "bias: T[n] = None, r: T[m, n])"), "1:63",
               "required input 'r' after the optional input 'bias'", "put the optional (= None) inputs last");
  // an optional input that names a dim first
  expect_error(replace(kLinear, "bias: T[n] = None", "bias: T[q] = None"), "1:44",
               "dim 'q' is first named by the optional input 'bias'", "name it in a required input first");
  // mma always reads its operands
  expect_error(replace(kLinear, "weight: T[n, k], bias: T[n] = None", "bias: T[n], weight: T[n, k] = None"), "6:36",
               "'weight' is optional (= None) but mma always reads it", "drop '= None'");
  // vector programs need every input
  expect_error("kernel v(x: T[*n], y: T[*n] = None) -> (z: T[*n]):\n    dtype T in (f32)\n    for t in tiles(n):\n"
               "        store(z[t], load(x[t]))\n",
               "1:20", "an optional input (= None) is read only by a cube program's epilogue", "drop '= None'");
  // tril of a scalar, with two arguments
  expect_error(tri("tril(acc, 1)"), "7:23", "tril() of the epilogue takes one block", "tril(acc)");
  expect_error(tri("acc + tril(2.0)"), "7:34", "tril() masks a block of the output matrix", "tril(acc)");
  // a column minus the block
  expect_error(replace(kConv, "acc + load(bias[blk])", "load(bias[blk]) - acc"), "7:23",
               "a [m] column combines only with the block", "acc + load(bias[blk])");
  expect_error(replace(kConv, "acc + load(bias[blk])", "load(bias[blk])"), "7:23",
               "the store writes a [m] column, not a block", "");
  // merged dims that are not adjacent in one input
  expect_error(replace(kConv, "h * w", "w * h"), "3:33", "the dims w * h cannot be merged", "x: T[batch, k, h, w]");
  expect_error(replace(kConv, "h * w", "h * 2"), "3:33", "a merged dim of blocks() is a product of dim names",
               "blocks(batch, m, h * w)");
}

// diag(a) @ b is a row scale: a first input a: T[*m] (a column) and a later b: T[*m, n] make a row program.
TEST(TileCubeLayers, AColumnFirstStillMakesARowProgram) {
  Checked c = check_src("kernel d(a: T[*m], b: T[*m, n]) -> (c: T[*m, n]):\n    dtype T in (f32)\n"
                        "    for r in tiles(m):\n        store(c[r, :], load(b[r, :]) * load(a[r]))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.k.rows);
  Checked f = check_src("kernel f(a: T[*m], b: T[*m]) -> (c: T[*m]):\n    dtype T in (f32)\n"
                        "    for t in tiles(m):\n        store(c[t], load(b[t]) * load(a[t]))\n");
  ASSERT_TRUE(f.ok) << f.diags;
  EXPECT_FALSE(f.k.rows);
}
