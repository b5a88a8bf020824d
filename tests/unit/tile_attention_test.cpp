// Attention programs (src/tile/sema_attention.cpp, emit_attention.cpp): what the checks read from a program (the
// batch dims, grouped-query heads, the row operations in order), every diagnostic of a misuse, and the op project.
// The projects themselves run against PyTorch in `kgen eval` (kernels/attention/*.tile in the expert bench).
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/attention.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
const std::string kHeader =
    "kernel att(q: T[*bh, s, d], k: T[*bh, t, d], v: T[*bh, t, e]) -> (y: T[*bh, s, e]):\n"
    "    dtype T in (f32, f16, bf16)\n    for blk in blocks(bh, s):\n";
// An attention program over kHeader with the block's three lines.
std::string program(const std::string& scores = "mma(q[blk, d], k[t, d]) / sqrt(d)",
                    const std::string& p = "softmax(scores)", const std::string& store = "store(y[blk, e], mma(p, v[t, e]))") {
  return kHeader + "        scores = " + scores + "\n        p = " + p + "\n        " + store + "\n";
}

TEST(TileAttention, ScaledDotProduct) {
  Checked c = check_src(program());
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.k.attention);
  EXPECT_TRUE(c.k.cube);
  const Attention& a = c.k.attn;
  ASSERT_EQ(a.batch_syms.size(), 1u);
  EXPECT_EQ(c.k.syms[a.batch_syms[0]].name, "bh");
  EXPECT_EQ(c.k.syms[a.s_sym].name, "s");
  EXPECT_EQ(c.k.syms[a.t_sym].name, "t");
  EXPECT_EQ(c.k.syms[a.d_sym].name, "d");
  EXPECT_EQ(c.k.syms[a.e_sym].name, "e");
  EXPECT_EQ(a.group_sym, -1);
  ASSERT_EQ(a.ops.size(), 2u);
  EXPECT_EQ(a.ops[0].kind, AttnOp::Scale);
  EXPECT_EQ(a.ops[0].host_expr, "1.0 / (std::sqrt(static_cast<double>(d_d)))");
  EXPECT_EQ(a.ops[1].kind, AttnOp::Softmax);
}

TEST(TileAttention, InlineSoftmaxAndCausalMask) {
  Checked c = check_src(kHeader + "        scores = causal_mask(mma(q[blk, d], k[t, d]) * 0.125)\n"
                                  "        store(y[blk, e], mma(softmax(scores, axis=-1), v[t, e]))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_EQ(c.k.attn.ops.size(), 3u);
  EXPECT_EQ(c.k.attn.ops[0].kind, AttnOp::Scale);
  EXPECT_EQ(c.k.attn.ops[1].kind, AttnOp::Causal);
  EXPECT_EQ(c.k.attn.ops[2].kind, AttnOp::Softmax);
}

TEST(TileAttention, GroupedQueryHeadsAndKeyMask) {
  const std::string src =
      "kernel gqa(q: T[b, h, s, d], k: T[b, g, t, d], v: T[b, g, t, e], m: bool[b, t], scale: f32 = 0.5)"
      " -> (y: T[b, h, s, e]):\n    dtype T in (f32, f16)\n    for blk in blocks(b, h, s):\n"
      "        scores = mma(q[blk, d], k[t, d]) * scale\n        masked = where(load(m[b, t]), scores, -inf)\n"
      "        p = softmax(masked)\n        store(y[blk, e], mma(p, v[t, e]))\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  const Attention& a = c.r.kernel.attn;
  EXPECT_EQ(c.r.kernel.syms[a.group_sym].name, "g");
  ASSERT_EQ(a.ops.size(), 3u);
  EXPECT_EQ(a.ops[0].host_expr, "static_cast<double>(*attr0Ptr)");
  EXPECT_EQ(a.ops[1].kind, AttnOp::KeyMask);
  EXPECT_EQ(c.r.kernel.tensors[a.ops[1].tensor].name, "m");
  const std::string& kernel = c.r.files.at("op_kernel/gqa_custom.cpp");
  const std::string& host = c.r.files.at("op_host/gqa_custom.cpp");
  EXPECT_TRUE(contains(kernel, "const uint64_t kv = bh / heads_ * groups_ + bh % heads_ / (heads_ / groups_);"));
  EXPECT_TRUE(contains(kernel, "MaskBias(bh / maskDiv_);"));
  EXPECT_TRUE(contains(kernel, "kt::VecAdd(sc, sc, maskBias_.Get<float>(), count, keys, npad_);"));
  EXPECT_TRUE(contains(host, "const uint64_t maskDiv = 1 * d_h;"));
  EXPECT_TRUE(contains(host, "if (groups == 0 || heads % groups != 0) return ge::GRAPH_FAILED;"));
  EXPECT_TRUE(contains(c.check_ir, "k/v heads g"));
}

TEST(TileAttention, EmitsTwoMatmulsAndTheRowChunks) {
  Compiled c = compile(program("causal_mask(mma(q[blk, d], k[t, d]) / sqrt(d))"));
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kernel = c.r.files.at("op_kernel/att_custom.cpp");
  const std::string& host = c.r.files.at("op_host/att_custom.cpp");
  EXPECT_TRUE(contains(kernel, "AscendC::Matmul<QType, KType, SType, BiasType> mmScores;"));
  EXPECT_TRUE(contains(kernel, "AscendC::Matmul<PType, VType, OType, BiasType> mmOut;"));
  EXPECT_TRUE(contains(kernel, "REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.mmScores, &tilingData.scoresTiling"));
  EXPECT_TRUE(contains(kernel, "mmScores.SetTail(rows, keys);"));
  EXPECT_TRUE(contains(kernel, "mmOut.SetTail(rows, e_, keys);"));
  EXPECT_TRUE(contains(kernel, "const uint32_t keys = m0 + rows < t_ ? m0 + rows : t_;"));   // causal: fewer keys
  EXPECT_TRUE(contains(kernel, "AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);"));
  EXPECT_TRUE(contains(host, "if (s != t) return ge::GRAPH_FAILED;"));
  EXPECT_TRUE(contains(host, "workspace[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(aivNum) * tiling.get_wsBytes();"));
  EXPECT_TRUE(contains(c.check_ir, "vector: causal"));
}

TEST(TileAttention, ACubeMatmulIsNotAnAttentionProgram) {
  Checked c = check_src("kernel mm(a: T[m, k], b: T[k, n]) -> (c: T[m, n]):\n    dtype T in (f32)\n"
                        "    for blk in blocks(m, n):\n        acc = zeros(f32)\n        for kt in tiles(k):\n"
                        "            acc += mma(a[blk, kt], b[kt, blk])\n        store(c[blk], acc)\n");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_FALSE(c.k.attention);
}

TEST(TileAttention, Diagnostics) {
  expect_error(program("mma(q[blk, d], k[d, t])"), "4:35", "index 'd' at dim 't' of 'k': expected 't' (the keys)",
               "operands are indexed in the order they are stored");
}

TEST(TileAttention, DiagnosticsOfTheRowChain) {
  expect_error(program("mma(q[blk, d], k[t, d])", "softmax(scores)", "store(y[blk, e], mma(scores, v[t, e]))"), "6:30",
               "'scores' is an earlier value of the row chain", "the latest value, 'p'");
  expect_error(program("mma(q[blk, d], k[t, d]) * q"), "4:44", "'q' is not an attr or a dim", "sqrt(d), 0.125");
  expect_error(program("mma(q[blk, d], k[t, d]) + 1.0"), "4:18", "not an operation of attention scores",
               "causal_mask(x)");
  expect_error(program("mma(q[blk, d], k[t, d])", "softmax(scores, axis=0)"), "5:29",
               "softmax of attention scores runs along the keys only", "softmax(x, axis=1)");
  expect_error(program("mma(q[blk, d], k[t, d])", "softmax(scores)", "store(y[blk, e], p)"), "6:9",
               "an attention block stores mma(p, v[t, e])", "store(y[blk, e], mma(p, v[t, e]))");
  expect_error(kHeader + "        scores = mma(q[blk, d], k[t, d])\n        p = softmax(scores)\n        p2 = p * 2.0\n"
                         "        store(y[blk, e], mma(p2, v[t, e]))\n",
               "6:14", "no row operation after the softmax", "mma(p, v[t, e])");
  expect_error(program("where(load(q[bh, t]), mma(q[blk, d], k[t, d]), 0.0)"), "4:65", "masked scores are filled with -inf",
               "where(load(key_mask[b, t]), scores, -inf)");
  expect_error(program("where(q, mma(q[blk, d], k[t, d]), -inf)"), "4:18",
               "a mask of the scores is where(load(mask[...]), scores, -inf)", "key_mask: bool[b, t], true = attend");
}

TEST(TileAttention, DiagnosticsOfTheTensors) {
  std::string dims = program();
  dims.replace(dims.find("blocks(bh, s)"), 13, "blocks(bh, d)");
  expect_error(dims, "3:16", "the last dim of blocks() is q's query rows 's'", "for blk in blocks(bh, s):");
  std::string ints = program();
  ints.replace(ints.find("f32, f16, bf16"), 14, "f32, i32");
  expect_error(ints, "1:12", "the cube multiplies f32, f16 and bf16, not i32", "dtype T in (f32, f16, bf16)");
  expect_error("kernel att(q: T[b, h, s, d], k: T[g, b, t, d], v: T[g, b, t, e]) -> (y: T[b, h, s, e]):\n"
               "    dtype T in (f32)\n    for blk in blocks(b, h, s):\n        scores = mma(q[blk, d], k[t, d])\n"
               "        p = softmax(scores)\n        store(y[blk, e], mma(p, v[t, e]))\n",
               "1:30", "k has q's batch dims, or a group of heads as its last batch dim", "q: T[b, h, s, d], k: T[b, g, t, d]");
  expect_error("kernel att(q: T[b, h, s, d], k: T[b, h, t, d], v: T[b, h, t, e], m: bool[h, t]) -> (y: T[b, h, s, e]):\n"
               "    dtype T in (f32)\n    for blk in blocks(b, h, s):\n        scores = mma(q[blk, d], k[t, d])\n"
               "        masked = where(load(m[h, t]), scores, -inf)\n        p = softmax(masked)\n"
               "        store(y[blk, e], mma(p, v[t, e]))\n",
               "1:66", "a key mask is [b, t]: leading batch dims of q, then the keys", "key_mask: bool[b, t]");
  expect_error(program("mma(q[blk, d], k[t, d]) / sqrt(d)", "softmax(scores)", "store(y[blk, e], mma(p, v[e, t]))"), "6:35",
               "index 'e' at dim 't' of 'v': expected 't' (the keys of k)", "");
}
}  // namespace
