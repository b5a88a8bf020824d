// Cube programs (src/tile/sema_cube.cpp, emit_cube.cpp): what the checks read from a matmul program (transposes,
// batches, a vector operand), every diagnostic of a misuse, and the op project they emit. The projects themselves
// are built and run against PyTorch by `kgen eval` (kernels/matmul/*.tile in `kgen bench --generator expert`).
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
// A matmul program with the parts a test changes: the parameters, blocks(...), the mma and the store.
std::string program(const std::string& params, const std::string& blocks, const std::string& mma,
                    const std::string& store = "store(c[blk], acc)", const std::string& acc = "zeros(f32)",
                    const std::string& kloop = "tiles(k)") {
  return "kernel mm(" + params + "):\n    dtype T in (f32, f16, bf16)\n    for blk in blocks(" + blocks +
         "):\n        acc = " + acc + "\n        for kt in " + kloop + ":\n            acc += " + mma +
         "\n        " + store + "\n";
}
const std::string kPlain = "a: T[m, k], b: T[k, n]) -> (c: T[m, n]";

TEST(TileCube, PlainMatmul) {
  Checked c = check_src(program(kPlain, "m, n", "mma(a[blk, kt], b[kt, blk])"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.k.cube);
  EXPECT_FALSE(c.k.mm.trans_a);
  EXPECT_FALSE(c.k.mm.trans_b);
  EXPECT_EQ(c.k.syms[c.k.mm.m_sym].name, "m");
  EXPECT_EQ(c.k.syms[c.k.mm.n_sym].name, "n");
  EXPECT_EQ(c.k.syms[c.k.mm.k_sym].name, "k");
  EXPECT_EQ(c.k.mm.batch_sym, -1);
}

TEST(TileCube, TransposesFromTheIndexOrder) {
  Checked c = check_src(program("a: T[k, m], b: T[n, k]) -> (c: T[m, n]", "m, n", "mma(a[kt, blk], b[blk, kt])"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.k.mm.trans_a);
  EXPECT_TRUE(c.k.mm.trans_b);
}

TEST(TileCube, BatchesAndASharedOperand) {
  Checked c = check_src(program("a: T[*batch, m, k], b: T[*batch, k, n]) -> (c: T[*batch, m, n]", "batch, m, n",
                                "mma(a[blk, kt], b[kt, blk])"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.k.syms[c.k.mm.batch_sym].name, "batch");
  EXPECT_TRUE(c.k.mm.a_batched);
  EXPECT_TRUE(c.k.mm.b_batched);
  Checked s = check_src(program("a: T[*batch, m, k], b: T[k, n]) -> (c: T[*batch, m, n]", "batch, m, n",
                                "mma(a[blk, kt], b[kt, blk])"));
  ASSERT_TRUE(s.ok) << s.diags;
  EXPECT_FALSE(s.k.mm.b_batched);
}

TEST(TileCube, MatrixVector) {
  Checked c = check_src(program("a: T[m, k], x: T[k]) -> (y: T[m]", "m", "mma(a[blk, kt], x[kt])", "store(y[blk], acc)"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.k.mm.vec_b);
  EXPECT_EQ(c.k.mm.n_sym, -1);
}

// Each misuse: the message, the caret's line:col and the hint.
struct Misuse {
  std::string src, message, where, hint;
};

TEST(TileCube, Diagnostics) {
  const std::vector<Misuse> cases = {
      {program(kPlain, "m, n", "mma(a[blk, kt], b[blk, kt])"), "index 'blk' stands for dim 'n' of 'b', but that dim is 'k'",
       "t.tile:6:38", "index the operand in its stored order"},
      {program(kPlain, "m, n", "mma(a[blk, kt], b[kt, blk])", "store(c[blk], acc)", "zeros(f16)"),
       "the cube accumulates in f32", "t.tile:4:21", "zeros(f32)"},
      {program(kPlain, "m, n", "mma(a[blk, kt], b[kt, blk])", "store(c[blk], acc)", "0.0"),
       "the accumulator starts from zeros(f32)", "t.tile:4:15", "acc = zeros(f32)"},
      {program(kPlain, "m, q", "mma(a[blk, kt], b[kt, blk])"), "'q' is not a dim of any input", "t.tile:3:26", ""},
      {program(kPlain, "m, n", "mma(a[blk, kt], b[kt, blk])", "store(c[blk], acc)", "zeros(f32)", "tiles(m)"),
       "'m' is a dim of the output blocks", "t.tile:5:25", "the K loop runs over the reduced dim"},
      {program(kPlain, "m, n", "mma(a[blk, kt], b[kt, blk])", "store(c[blk], acc)", "zeros(f32)", "tiles(k, tile=10)"),
       "tiles(k) of a cube program takes tile=auto or tile=INT (a multiple of 16)", "t.tile:5:28", ""},
      {program(kPlain, "m, n", "mma(a[blk, kt])"), "the accumulation is mma(A, B) of two operand tiles", "t.tile:6:20",
       "mma(a[blk, kt], b[kt, blk])"},
      {program(kPlain, "m, n", "mma(a[blk, kt], bb[kt, blk])"), "'bb' is not an input tensor", "t.tile:6:36",
       "did you mean 'b'?"},
      {program(kPlain, "m, n", "mma(a[blk, kt], b[kt, blk])", "store(c[blk], softmax(acc))"),   // epilogues: tile_cube_epi_test
       "'softmax' is not an epilogue function", "t.tile:7:23", "relu, sigmoid"},
      {program("a: T[m, k], b: T[k, n]) -> (c: T[n, m]", "m, n", "mma(a[blk, kt], b[kt, blk])"),
       "output 'c' does not have the dims of blocks(...)", "t.tile:1:39", "c: T[m, n]"},
      {program("a: T[m, k], b: f32[k, n]) -> (c: T[m, n]", "m, n", "mma(a[blk, kt], b[kt, blk])"),
       "the operands of mma have different dtypes", "t.tile:1:23", "T"},
      {program("a: T[m, k], b: T[k, n]) -> (c: i32[m, n]", "m, n", "mma(a[blk, kt], b[kt, blk])"),
       "the copy out converts f32 to f32, f16 or bf16, not i32", "t.tile:1:39", ""},
      {program("a: T[*batch, m, k], b: T[*batch, k, n]) -> (c: T[*batch, m, n]", "m, n", "mma(a[blk, kt], b[kt, blk])"),
       "'a' has 3 matrix dims but mma reads it as a matrix", "t.tile:1:11", "blocks(batch, m, n)"},
      {program(kPlain, "m, n", "mma(a[blk, kt], b[kt, blk])", "store(c[blk], acc)\n    v = 1"),
       "a statement after the blocks loop", "t.tile:8:5", "a cube program is one blocks loop"},
  };
  for (const Misuse& m : cases) {
    Checked c = check_src(m.src);
    EXPECT_FALSE(c.ok) << m.src;
    EXPECT_TRUE(contains(c.diags, m.message)) << "want: " << m.message << "\ngot:\n" << c.diags;
    EXPECT_TRUE(contains(c.diags, m.where + ": error")) << "want at " << m.where << "\ngot:\n" << c.diags;
    if (!m.hint.empty()) EXPECT_TRUE(contains(c.diags, m.hint)) << "want hint: " << m.hint << "\ngot:\n" << c.diags;
  }
}

TEST(TileCube, IntegerOperandsAreRefused) {
  const std::string src = "kernel mm(a: i32[m, k], b: i32[k, n]) -> (c: f32[m, n]):\n    for blk in blocks(m, n):\n"
                          "        acc = zeros(f32)\n        for kt in tiles(k):\n            acc += mma(a[blk, kt], b[kt, blk])\n"
                          "        store(c[blk], acc)\n";
  Checked c = check_src(src);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(contains(c.diags, "the cube does not multiply i32 into f32")) << c.diags;
}

TEST(TileCube, EmitsAMatmulApiProject) {
  const std::string src = program("a: T[k, m], b: T[*batch, k, n]) -> (c: T[*batch, m, n]", "m, n", "mma(a[kt, blk], b[kt, blk])");
  // A batch on b only is not a batch of the blocks: refused (b has 3 matrix dims).
  Checked bad = check_src(src);
  EXPECT_FALSE(bad.ok);
  const std::string good = program("a: T[k, m], b: T[n, k]) -> (c: T[m, n]", "m, n", "mma(a[kt, blk], b[blk, kt])");
  Diags d("t.tile", &good);
  std::string checked;
  CompileOptions o;
  o.dump = [&](const std::string& p, const std::string& ir) {
    if (p == "check") checked = ir;
  };
  CompileResult r = compile_program("t.tile", good, o, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  EXPECT_TRUE(contains(checked, "acc += mma(a^T, b^T)")) << checked;
  const std::string& kern = r.files.at("op_kernel/mm_custom.cpp");
  EXPECT_TRUE(contains(kern, "MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T, true>")) << kern;
  EXPECT_TRUE(contains(kern, "mm.SetTensorA(aGm_[m0], true);")) << kern;
  EXPECT_TRUE(contains(kern, "mm.SetTensorB(bGm_[n0 * k_], true);")) << kern;
  EXPECT_TRUE(contains(kern, "REGIST_MATMUL_OBJ")) << kern;
  const std::string& host = r.files.at("op_host/mm_custom.cpp");
  EXPECT_TRUE(contains(host, "MultiCoreMatmulTiling")) << host;
  EXPECT_TRUE(contains(host, "inType, true);")) << host;
  EXPECT_TRUE(contains(host, "GetLibApiWorkSpaceSize")) << host;
  EXPECT_TRUE(contains(host, ".DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})")) << host;
  EXPECT_TRUE(contains(r.files.at("op_host/mm_custom_tiling.h"), "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling)"));
  EXPECT_TRUE(r.files.count("mm_custom.json"));
}
}  // namespace
