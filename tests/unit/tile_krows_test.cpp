// Range loops (`for j in range(K):`, unrolled, names carried from one iteration to the next) and outputs of K values
// per position of an axis program (y: T[*outer, K, *inner], stored row by row: y[j, c]), as top-k uses them
// (tests/data/tile_ops/programs/reduce/topk_dim.tile): the lowering, the host's shape and every misuse's diagnostic.
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
// The k largest along `dim` by k rounds of max-and-remove; `out` is the outputs' K, `body` the loop's statements.
std::string topk(const std::string& out = "3",
                 const std::string& body = "        for j in range(3):\n"
                                           "            best = max(v, axis=0)\n"
                                           "            at = min(where(v == best, pos, r), axis=0)\n"
                                           "            store(values[j, c], best)\n"
                                           "            store(indices[j, c], cast(at, i32))\n"
                                           "            v = where(pos == at, -inf, v)\n") {
  return "kernel t(x: T[*o, r @ dim, *i], dim: i32 = -1) -> (values: T[*o, " + out + ", *i], indices: i64[*o, " + out +
         ", *i]):\n"
         "    dtype T in (f32, f16)\n"
         "    for c in tiles(o, i):\n"
         "        v = load(x[:, c], f32)\n"
         "        pos = axis_index(v)\n" + body;
}
size_t occurrences(const std::string& s, const std::string& sub) {
  size_t n = 0;
  for (size_t at = s.find(sub); at != std::string::npos; at = s.find(sub, at + 1)) ++n;
  return n;
}
}  // namespace

TEST(TileKRows, RangeLoopUnrollsAndCarriesNames) {
  Compiled c = compile(topk());
  ASSERT_TRUE(c.ok) << c.diags;
  size_t stores = 0, reduces = 0;
  for (const Instr& in : c.r.kernel.body) {
    stores += in.op == Op::Store;
    reduces += in.op == Op::Reduce;
  }
  EXPECT_EQ(stores, 6u);    // two stores a round, three rounds
  EXPECT_EQ(reduces, 6u);   // max and min a round
  // each round reads the v the last one made: round 2's max reduces the select of round 1
  std::vector<int> maxed;
  for (const Instr& in : c.r.kernel.body)
    if (in.op == Op::Reduce && in.fn == "max") maxed.push_back(in.srcs[0]);
  ASSERT_EQ(maxed.size(), 3u);
  EXPECT_NE(maxed[0], maxed[1]);
  EXPECT_NE(maxed[1], maxed[2]);
  for (size_t i = 1; i < maxed.size(); ++i) {
    bool from_select = false;
    for (const Instr& in : c.r.kernel.body) from_select |= in.dst == maxed[i] && in.op == Op::Select;
    EXPECT_TRUE(from_select) << i;
  }
  const std::string& kern = c.r.files.at("op_kernel/t_custom.cpp");
  for (int j = 0; j < 3; ++j) {   // row j of each output, staged at its row of the K
    EXPECT_TRUE(contains(kern, "kt::Convert(valuesOut[kt::KRowsRow<T>(rowMode_, 3, tileUnits_, " + std::to_string(j) + ")], "))
        << kern;
    EXPECT_TRUE(contains(kern, "kt::Convert(indicesOut[kt::KRowsRow<int64_t>(rowMode_, 3, tileUnits_, " +
                                   std::to_string(j) + ")], "))
        << kern;
  }
  // a name's later values have names of their own in the generated code
  EXPECT_EQ(occurrences(kern, "AscendC::LocalTensor<float> best ="), 1u) << kern;
  EXPECT_EQ(occurrences(kern, "AscendC::LocalTensor<float> best"), 3u) << kern;   // best, best<id>, best<id>
}

TEST(TileKRows, OutputsOfKValuesPerPosition) {
  Compiled c = compile(topk());
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& host = c.r.files.at("op_host/t_custom.cpp");
  EXPECT_TRUE(contains(host, "out->AppendDim(d == axis ? 3 : xs->GetDim(d));   // K values per position")) << host;
  const std::string& kern = c.r.files.at("op_kernel/t_custom.cpp");
  // the GM view holds K values per position
  EXPECT_TRUE(contains(kern, "valuesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(values) + 0, o_ * i_ * 3);")) << kern;
  // row mode gathers a row of K per position before the EnQue; column mode stores the K rows along the axis
  EXPECT_TRUE(contains(kern, "if (rowMode_) kt::RowsFromChunks(indicesOut, 3, tileUnits_, units);")) << kern;
  EXPECT_LT(kern.find("kt::RowsFromChunks(valuesOut"), kern.find("valuesOut_.EnQue(valuesOut)")) << kern;
  EXPECT_TRUE(contains(kern, "if (rowMode_) kt::StoreRows(valuesGm_[posOff * 3], valuesOut, units, 3, kt::KRowsPad<T>(3));"))
      << kern;
  EXPECT_TRUE(contains(kern, "else kt::StoreCols(indicesGm_[posOff / i_ * 3 * i_ + posOff % i_], indicesOut, 3, units, i_, "
                             "tileUnits_);"))
      << kern;
  EXPECT_TRUE(contains(kern, "InitBuffer(valuesOut_, depth_, kt::RoundUp256(kt::KRowsBytes<T>(rowMode_, 3, tileUnits_)))"))
      << kern;
}

TEST(TileKRows, RangeLoopDiagnostics) {
  const std::string head = "kernel t(x: T[*m, n]) -> (y: T[*m, n]):\n    dtype T in (f32)\n";
  // the kernel's first loop is its tiles loop
  expect_error(head + "    for j in range(2):\n        pass\n    for r in tiles(m):\n        store(y[r, :], load(x[r, :]))\n",
               "3:14", "the loop must iterate over tiles(...)", "");
  expect_error(head + "    for r in tiles(m):\n        store(y[r, :], load(x[r, :]))\n        total = 0.0\n"
                      "    for j in range(2):\n        pass\n",
               "6:5", "a second tiles loop", "");
  expect_error(head + "    for r in tiles(m):\n        for j in range(n):\n            pass\n"
                      "        store(y[r, :], load(x[r, :]))\n",
               "4:18", "range() takes one positive integer literal", "for j in range(8):");
  expect_error(head + "    for r in tiles(m):\n        for j in range(0):\n            pass\n"
                      "        store(y[r, :], load(x[r, :]))\n",
               "4:18", "range() takes one positive integer literal", "");
  expect_error(head + "    for r in tiles(m):\n        for a, b in range(2):\n            pass\n"
                      "        store(y[r, :], load(x[r, :]))\n",
               "4:16", "a range loop has one variable", "for j in range(K):");
  expect_error(head + "    for r in tiles(m):\n        for n in range(2):\n            pass\n"
                      "        store(y[r, :], load(x[r, :]))\n",
               "4:13", "'n' is already a name of the program", "another loop variable");
  expect_error(head + "    for r in tiles(m):\n        for j in range(2):\n            j = load(x[r, :])\n"
                      "        store(y[r, :], load(x[r, :]))\n",
               "5:13", "'j' is the range loop's variable", "");
  expect_error(head + "    for r in tiles(m):\n        for j in range(32):\n            for i in range(16):\n"
                      "                pass\n        store(y[r, :], load(x[r, :]))\n",
               "5:22", "range loops unrolled to 512 copies of their body; at most 256", "fewer iterations");
  // outside a range loop values stay immutable, and the hint says where a name may change
  expect_error(head + "    for r in tiles(m):\n        v = load(x[r, :])\n        v = v * 2.0\n        store(y[r, :], v)\n",
               "5:9", "'v' is assigned twice", "inside 'for j in range(K):' a name may take a new value");
  expect_error(head + "    for r in tiles(m):\n        for kt in tiles(n):\n            pass\n",
               "4:9", "nested tiles loops are not supported", "for j in range(K):");
}

TEST(TileKRows, AnErrorInTheBodyIsReportedOnce) {
  Compiled c = compile(topk("3", "        for j in range(3):\n            store(values[j, c], nothing)\n"));
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(occurrences(c.diags, "error: "), 1u) << c.diags;
  EXPECT_TRUE(contains(c.diags, "t.tile:7:33: error: ")) << c.diags;
}

TEST(TileKRows, OutputDiagnostics) {
  const std::string three = "        for j in range(3):\n"
                            "            store(values[j, c], max(v, axis=0))\n"
                            "            store(indices[j, c], cast(min(pos, axis=0), i32))\n";
  expect_error(topk("300", three), "1:66", "300 values per position; at most 256", "at most 256 rows");
  expect_error(topk("4", three), "1:52", "row 3 of output 'values' is stored by no store", "store each of the 4 rows once");
  expect_error(topk("2", three), "7:26", "row 2 of 2 rows", "numbered 0 to 1");
  expect_error(topk("3", three + "        store(values[0, c], max(v, axis=0))\n"), "9:9",
               "row 0 of output 'values' is stored twice", "");
  expect_error(topk("n", three), "1:52", "output 'values' of an axis view must be [*outer, 1, *inner], [*outer, *inner] or "
                                         "[*outer, K, *inner]",
               "stored row by row");
}

namespace {
// Sinkhorn's shape: an axis view over the rows of each matrix (dim -2), its columns the positions; `body` follows
// the slab's load into v.
std::string sinkhorn(const std::string& body = "        p = exp(v - max(v, axis=1))\n"
                                               "        for it in range(2):\n"
                                               "            p = p / sum(p, axis=1)\n"
                                               "            p = p / sum(p, axis=0)\n"
                                               "        store(y[:, c], p)\n") {
  return "kernel s(x: T[*b, n @ dim, *m], dim: i32 = -2) -> (y: T[*b, n, *m]):\n"
         "    dtype T in (f32, f16)\n"
         "    for c in tiles(b, m):\n"
         "        v = load(x[:, c], f32)\n" + body;
}
}  // namespace

TEST(TileSlabAcross, ReducesOverThePositionsOfEachOuterIndex) {
  Compiled c = compile(sinkhorn());
  ASSERT_TRUE(c.ok) << c.diags;
  size_t across = 0;
  for (const Instr& in : c.r.kernel.body) across += in.op == Op::SlabAcross;
  EXPECT_EQ(across, 3u);   // the row maximum and a row sum per round
  const std::string& kern = c.r.files.at("op_kernel/s_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::SlabAcrossMax(")) << kern;
  EXPECT_TRUE(contains(kern, "kt::SlabAcrossSum(")) << kern;
  EXPECT_TRUE(contains(kern, "acrossWork0_.Get<float>(), rowMode_, units, n_, npad_, tileUnits_);")) << kern;
  EXPECT_TRUE(contains(kern, "kt::RoundUp256(kt::SlabAcrossWorkBytes<float>(n_, tileUnits_))")) << kern;
  // the host keeps an outer index's whole inner dims in one tile, or says why it cannot
  const std::string& host = c.r.files.at("op_host/s_custom.cpp");
  EXPECT_TRUE(contains(host, "tileUnits = (d_m + 15) / 16 * 16;   // one tile per outer index")) << host;
  EXPECT_TRUE(contains(host, "a reduction over them (axis=1 of a slab) needs them in one tile")) << host;
  EXPECT_FALSE(contains(host, "chunks per outer index")) << host;   // no splitting of the inner dims over cores
}

TEST(TileSlabAcross, Diagnostics) {
  expect_error("kernel s(x: i32[*b, n @ dim, *m], dim: i32 = -2) -> (y: i32[*b, n, *m]):\n"
               "    for c in tiles(b, m):\n"
               "        v = load(x[:, c])\n"
               "        store(y[:, c], v - sum(v, axis=1))\n",
               "4:32", "sum(v, axis=1) of a slab reduces float values; this one is i32", "load(x[:, c], f32)");
  expect_error(sinkhorn("        store(y[:, c], v / sum(v, axis=1, group=2))\n"), "5:49",
               "group= groups the rows of a row tile, not a slab's positions", "");
  expect_error(sinkhorn("        store(y[:, c], v / prod(v, axis=1))\n"), "5:41", "prod() reduces a slab over its axis r only",
               "");
}

TEST(TileSlabAcross, ScansOverThePositions) {
  Compiled c = compile(sinkhorn("        store(y[:, c], cumsum(cumsum(v, axis=0), axis=1, reverse=true))\n"));
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/s_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::CumSum<false, false>(")) << kern;                 // down the axis
  EXPECT_TRUE(contains(kern, "kt::CumSumAcross<true, false>(")) << kern;            // along the positions
  EXPECT_TRUE(contains(kern, "kt::SlabScanAcrossWorkBytes<float>(false, n_, tileUnits_)")) << kern;
  const std::string& host = c.r.files.at("op_host/s_custom.cpp");
  EXPECT_TRUE(contains(host, "one tile per outer index")) << host;
  expect_error(sinkhorn("        store(y[:, c], cumsum(v, axis=2))\n"), "5:39",
               "cumsum() runs along the axis r of a slab (axis=0) or over its positions (axis=1)", "");
  expect_error(sinkhorn("        store(y[:, c], cummax(v, axis=1, reset=v > 0.0))\n"), "5:48",
               "cummax(v, axis=1) has no reset=", "axis=0");
  expect_error("kernel s(x: i32[*b, n @ dim, *m], dim: i32 = -2) -> (y: i32[*b, n, *m]):\n"
               "    for c in tiles(b, m):\n"
               "        store(y[:, c], cumsum(load(x[:, c]), axis=1))\n",
               "3:31", "cumsum(v, axis=1) of a slab scans float values; this one is i32", "load(x[:, c], f32)");
}

TEST(TileNames, KernelNamedAsCannNamesIt) {
  // CANN derives the kernel's name from the op type: prefix_sum_2d -> PrefixSum2dCustom -> prefix_sum2d_custom
  Compiled c = compile("kernel prefix_sum_2d(x: T[*n]) -> (y: T[*n]):\n    dtype T in (f32)\n"
                       "    for t in tiles(n):\n        store(y[t], load(x[t]))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.r.kernel.op_type, "PrefixSum2dCustom");
  EXPECT_EQ(c.r.kernel.kernel_symbol, "prefix_sum2d_custom");
  ASSERT_TRUE(c.r.files.count("op_kernel/prefix_sum2d_custom.cpp")) << c.r.files.begin()->first;
  EXPECT_TRUE(contains(c.r.files.at("op_kernel/prefix_sum2d_custom.cpp"), "void prefix_sum2d_custom("));
}

TEST(TileKRows, MasksOfSuccessiveIterationsShareABuffer) {
  // Each round's comparison is dead once its select ran: one mask buffer serves all of them (a 200-bin histogram
  // had 200 and passed the TPipe's 64 buffers).
  Compiled c = compile("kernel h(x: T[*o, r @ dim, *i], dim: i32 = -1) -> (y: i64[*o, 6, *i]):\n"
                       "    dtype T in (f32, f16)\n"
                       "    for c in tiles(o, i):\n"
                       "        b = floor(load(x[:, c], f32) * 6.0)\n"
                       "        for j in range(6):\n"
                       "            store(y[j, c], cast(sum(where(b == j, 1.0, 0.0), axis=0), i32))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  size_t masks = 0;
  for (const Buffer& b : c.r.kernel.buffers) masks += b.mask;
  EXPECT_EQ(masks, 1u);
}
