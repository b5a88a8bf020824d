// Cube epilogues (src/tile/sema_cube_epi.cpp, emit_cube_epi.cpp): the elementwise statements between a cube
// program's K loop and its store, what they lower to, every diagnostic of a misuse, and the kernel they emit. The
// projects are run against PyTorch by `kgen eval` (kernels/fuse/gemm_*.tile, bmm_scale_residual.tile).
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"
#include "tile/cube.h"
#include "tile/parser.h"
#include "tile/sema.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
// A linear layer (x [m, k] @ weight [n, k].T) with a bias row, a residual block and two attrs; `epi` is the block's
// lines after the K loop (8 spaces of indent each).
std::string linear(const std::string& epi) {
  return "kernel lin(x: T[m, k], weight: T[n, k], bias: T[n], res: T[m, n], s: f32 = 1.0, lo: f32 = 0.0) -> "
         "(y: T[m, n]):\n    dtype T in (f32, f16)\n    for blk in blocks(m, n):\n        acc = zeros(f32)\n"
         "        for kt in tiles(k):\n            acc += mma(x[blk, kt], weight[blk, kt])\n" + epi;
}

TEST(TileCubeEpi, LowersTheEpilogue) {
  Checked c = check_src(linear("        h = acc + load(bias[blk])\n        store(y[blk], clamp(h / s, lo, 6) * sigmoid(h) + load(res[blk]))\n"));
  ASSERT_TRUE(c.ok) << c.diags;
  const CubeMatmul& mm = c.k.mm;
  ASSERT_EQ(mm.epi.size(), 8u);
  EXPECT_EQ(mm.epi[0].op, "load_row");
  EXPECT_TRUE(mm.epi_row[mm.epi[0].dst]);
  EXPECT_EQ(mm.epi[1].op, "bin_row");
  EXPECT_EQ(mm.epi[2].op, "scalar");
  EXPECT_EQ(mm.epi[2].fn, "mul");   // h / s is h * (1 / s)
  EXPECT_EQ(mm.epi[2].scalar, "(1.0f / attr_s_)");
  EXPECT_EQ(mm.epi[3].op, "clamp");
  EXPECT_EQ(mm.epi[3].scalar2, "6.0f");
  EXPECT_EQ(mm.epi[4].fn, "sigmoid");
  EXPECT_EQ(mm.epi[6].op, "load_block");
  EXPECT_EQ(mm.epi_result, mm.epi[7].dst);
}

TEST(TileCubeEpi, ScalarOnTheLeft) {
  Checked c = check_src(linear("        store(y[blk], 1 - acc * 2)\n"));
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_EQ(c.k.mm.epi.size(), 2u);
  EXPECT_EQ(c.k.mm.epi[1].fn, "rsub");
}

TEST(TileCubeEpi, Diagnostics) {
  struct Misuse {
    std::string src, message, where, hint;
  };
  const std::vector<Misuse> cases = {
      {linear("        store(y[blk], foo(acc))\n"), "'foo' is not an epilogue function", "t.tile:7:23", "relu, sigmoid"},
      {linear("        store(y[blk], gelux(acc))\n"), "'gelux' is not an epilogue function", "t.tile:7:23",
       "did you mean 'gelu'? the epilogue has"},
      {linear("        store(y[blk], acc + bais)\n"), "'bais' is not a value of the epilogue", "t.tile:7:29", ""},
      {linear("        store(y[blk], load(bias[blk]))\n"), "the store writes a [n] row, not a block", "t.tile:7:23",
       "store a value computed from the accumulator"},
      {linear("        store(y[blk], s * 2)\n"), "the store writes a scalar, not a block", "t.tile:7:23", ""},
      {linear("        store(y[blk], load(bias[blk]) - acc)\n"), "a [n] row minus or over the block is not in this version",
       "t.tile:7:23", "write the block first"},
      {linear("        store(y[blk], acc + load(bias[0]))\n"), "an epilogue loads the block's part of an input", "t.tile:7:29",
       "load(bias[blk])"},
      {linear("        store(y[blk], acc + load(x[blk]))\n"), "'x' is neither a [n] row nor of the output's shape", "t.tile:1:12",
       "x: T[n]"},
      {linear("        store(y[blk], acc + load(weight[blk]))\n"), "is neither a [n] row nor of the output's shape", "t.tile:1:24", ""},
      {linear("        store(y[blk], clamp(acc, acc, 1))\n"), "clamp() of the epilogue bounds a block by two scalars",
       "t.tile:7:23", "clamp(h, lo, hi)"},
      {linear("        store(y[blk], relu(s))\n"), "relu() of the epilogue applies to a block", "t.tile:7:28", ""},
      {linear("        store(y[blk], min(acc))\n"), "min() of the epilogue takes two values", "t.tile:7:23", "elementwise"},
      {linear("        acc = acc * 2\n        store(y[blk], acc)\n"), "the epilogue does not reassign the accumulator 'acc'",
       "t.tile:7:9", "name the new value"},
      {linear("        store(y[blk], acc ** 2)\n"), "this expression is not in a cube epilogue", "t.tile:7:23", "elementwise"},
      {linear("        store(y[blk], load(bias[blk]) + load(bias[blk]))\n"), "a [n] row combines only with the block",
       "t.tile:7:23", "acc + load(bias[blk])"},
  };
  for (const Misuse& m : cases) {
    Checked c = check_src(m.src);
    EXPECT_FALSE(c.ok) << m.src;
    EXPECT_TRUE(contains(c.diags, m.message)) << "want: " << m.message << "\ngot:\n" << c.diags;
    EXPECT_TRUE(contains(c.diags, m.where + ": error")) << "want at " << m.where << "\ngot:\n" << c.diags;
    EXPECT_TRUE(contains(c.diags, "^")) << c.diags;
    if (!m.hint.empty()) EXPECT_TRUE(contains(c.diags, m.hint)) << "want hint: " << m.hint << "\ngot:\n" << c.diags;
  }
}

TEST(TileCubeEpi, EmitsIterateGetTensorCAndTheVectorOps) {
  const std::string src = linear("        h = acc + load(bias[blk])\n        store(y[blk], gelu(h) * s + load(res[blk]))\n");
  Diags d("t.tile", &src);
  std::string checked;
  CompileOptions o;
  o.dump = [&](const std::string& p, const std::string& ir) {
    if (p == "check") checked = ir;
  };
  CompileResult r = compile_program("t.tile", src, o, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  EXPECT_TRUE(contains(checked, "load_row bias")) << checked;
  EXPECT_TRUE(contains(checked, "store y <- %")) << checked;
  const std::string& kern = r.files.at("op_kernel/lin_custom.cpp");
  EXPECT_TRUE(contains(kern, "MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>")) << kern;
  EXPECT_TRUE(contains(kern, "mm.Iterate()")) << kern;
  EXPECT_TRUE(contains(kern, "mm.GetTensorC(cLocal);")) << kern;
  EXPECT_TRUE(contains(kern, "kt::VecAdd(t0, cLocal, row0, rows, cols, sf);")) << kern;
  EXPECT_TRUE(contains(kern, "kt::Gelu(")) << kern;
  EXPECT_TRUE(contains(kern, "kt::LoadCols(st, resGm_[cOff], rows, cols, n_, sp);")) << kern;
  EXPECT_TRUE(contains(kern, "AscendC::Muls(")) << kern;
  EXPECT_TRUE(contains(kern, "attr_s_ = tiling.attr_s;")) << kern;
  EXPECT_TRUE(contains(kern, "AscendC::DataCopyPad(yGm_[cOff], out, cp);")) << kern;
  EXPECT_FALSE(contains(kern, "IterateAll")) << kern;
  const std::string& host = r.files.at("op_host/lin_custom.cpp");
  EXPECT_TRUE(contains(host, "SetCType(matmul_tiling::TPosition::VECIN")) << host;
  EXPECT_TRUE(contains(host, "cubeTiling.SetFixSplit(")) << host;
  EXPECT_TRUE(contains(host, "tiling.set_attr_s(static_cast<float>(*attr0Ptr));")) << host;
  EXPECT_TRUE(contains(host, "this->Attr(\"lo\").AttrType(OPTIONAL).Float(0);")) << host;
  EXPECT_TRUE(contains(r.files.at("op_host/lin_custom_tiling.h"), "TILING_DATA_FIELD_DEF(float, attr_s);"));
}

TEST(TileCubeEpi, SlotsAreReusedInPlace) {
  // acc + bias, then relu in place: one block slot and one row slot, base blocks of 64 rows
  Checked c = check_src(linear("        store(y[blk], relu(acc + load(bias[blk])))\n"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(cube_epi_base_m(c.k), 64);
  EXPECT_TRUE(contains(cube_epi_kernel(c.k), "AscendC::Relu(t0, t0, cnt);"));
}
}  // namespace
