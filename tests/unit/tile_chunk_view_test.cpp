// Chunk views x: T[*outer, 2 @ dim, *inner]: dim `dim` of x seen as 2 equal chunks (torch's x.chunk(2, dim)), the
// chunk number being the axis of an axis program (swiglu: kernels/fuse/swiglu.tile). The host's view and InferShape,
// and each misuse's diagnostic.
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
// swiglu with the view's literal `n`, the output's dims `out` and the loop body `line`.
std::string swiglu(const std::string& n = "2", const std::string& out = "[*m, *h]",
                   const std::string& line = "        store(y[c], prod(load(x[:, c], f32), axis=0))\n") {
  return "kernel s(x: T[*m, " + n + " @ dim, *h], dim: i32 = -1) -> (y: T" + out + "):\n"
         "    dtype T in (f32, f16)\n"
         "    for c in tiles(m, h):\n" + line;
}
}  // namespace

TEST(TileChunkView, HostSplitsTheDimAndInfersOneChunk) {
  Compiled c = compile(swiglu());
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.r.kernel.axis_chunks, 2);
  EXPECT_TRUE(c.r.kernel.axis);
  const std::string& host = c.r.files.at("op_host/s_custom.cpp");
  EXPECT_TRUE(contains(host, "const uint64_t d_chunkCount = 2;")) << host;          // the axis: the chunk number
  EXPECT_TRUE(contains(host, "if (axisShape.GetDim(axis) % 2 != 0) {")) << host;    // refused: an odd dim
  EXPECT_TRUE(contains(host, "does not split into 2 equal chunks")) << host;
  EXPECT_TRUE(contains(host, "d_h = axisShape.GetDim(axis) / 2;")) << host;         // inner: a chunk, then the dims after
  EXPECT_TRUE(contains(host, "out->AppendDim(d == axis ? xs->GetDim(d) / 2 : xs->GetDim(d));")) << host;
}

TEST(TileChunkView, SwigluProgramCompiles) {
  Compiled c = compile(swiglu("2", "[*m, *h]",
                              "        v = load(x[:, c], f32)\n"
                              "        store(y[c], prod(where(axis_index(v) == 0.0, silu(v), v), axis=0))\n"));
  EXPECT_TRUE(c.ok) << c.diags;
}

TEST(TileChunkView, Diagnostics) {
  expect_error(swiglu("1"), "1:19", "a chunk view splits its dim into at least 2 chunks", "x.chunk(2, dim)");
  expect_error(swiglu("2", "[*m, 1, *h]"), "1:52", "output 'y' of a chunk view is one chunk",
               "combined along the axis");
  expect_error("kernel s(x: T[*m, 2 @ 3, *h]) -> (y: T[*m, *h]):\n    dtype T in (f32)\n", "1:23",
               "expected the name of an i32 attr after '@'", "2 @ dim");
}

namespace {
// RoPE's shape: a chunk view, a cache of one value per position repeating over the outer dims before `seq`, and an
// output of x's whole shape whose chunks are stored one by one; `body` replaces the two chunk stores.
std::string rope(const std::string& body = "        store(y[0, c], sum(v * where(f, cs, -cs), axis=0))\n"
                                           "        store(y[1, c], sum(v * where(f, cs, cs), axis=0))\n",
                 const std::string& out = "[*m, 2, *h]") {
  return "kernel r(x: T[*m, 2 @ dim, *h], cos: T[seq, *h], dim: i32 = -1) -> (y: T" + out + "):\n"
         "    dtype T in (f32, f16)\n"
         "    for c in tiles(m, h):\n"
         "        v = load(x[:, c], f32)\n"
         "        cs = load(cos[c], f32)\n"
         "        f = axis_index(v) == 0.0\n" + body;
}
}  // namespace

TEST(TileChunkView, ChunkStoresAndPeriodicInputsLower) {
  Compiled c = compile(rope());
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/r_custom.cpp");
  // the cache: the scalar unit's periodic copy in row mode, one contiguous run of a column chunk in column mode
  EXPECT_TRUE(contains(kern, "if (rowMode_) kt::LoadPeriodicColumn(cosIn, cosGm_, posOff, units, cosPeriod_);")) << kern;
  EXPECT_TRUE(contains(kern, "else kt::LoadFlat(cosIn, cosGm_[posOff / h_ % cosPeriod_ * h_ + posOff % h_], units);"))
      << kern;
  // each chunk is a row of the output's slab, stored whole along the axis
  EXPECT_TRUE(contains(kern, "kt::Convert(yOut[kt::KRowsRow<T>(rowMode_, 2, tileUnits_, 0)], ")) << kern;
  EXPECT_TRUE(contains(kern, "kt::Convert(yOut[kt::KRowsRow<T>(rowMode_, 2, tileUnits_, 1)], ")) << kern;
  EXPECT_TRUE(contains(kern, "else kt::StoreCols(yGm_[posOff / h_ * 2 * h_ + posOff % h_], yOut, 2, units, h_, tileUnits_);"))
      << kern;
  // row mode (inner == 1: a chunk is one element of a position): the chunks gathered into a row per position
  EXPECT_TRUE(contains(kern, "if (rowMode_) kt::RowsFromChunks(yOut, 2, tileUnits_, units);")) << kern;
  EXPECT_TRUE(contains(kern, "if (rowMode_) kt::StoreRows(yGm_[posOff * 2], yOut, units, 2, kt::KRowsPad<T>(2));")) << kern;
  const std::string& host = c.r.files.at("op_host/r_custom.cpp");
  EXPECT_TRUE(contains(host, "out->AppendDim(xs->GetDim(d));   // the whole axis")) << host;   // y has x's shape
  EXPECT_TRUE(contains(host, "input cos must have x's last dims before its dim `dim`")) << host;
  EXPECT_TRUE(contains(host, "tiling.set_cosPeriod(")) << host;
}

TEST(TileChunkView, ChunkStoreDiagnostics) {
  expect_error(rope("        store(y[0, c], sum(v, axis=0))\n"), "1:69", "chunk 1 of output 'y' is stored by no store",
               "store each of the 2 chunks once");
  expect_error(rope("        store(y[0, c], sum(v, axis=0))\n        store(y[0, c], sum(v, axis=0))\n"
                    "        store(y[1, c], sum(v, axis=0))\n"),
               "8:9", "chunk 0 of output 'y' is stored twice", "");
  expect_error(rope("        store(y[2, c], sum(v, axis=0))\n"), "7:17", "chunk 2 of 2 chunks", "numbered 0 to 1");
  expect_error(rope("        store(y[0, c], sum(v, axis=0))\n        store(y[:, c], v)\n"), "8:9",
               "output 'y' is stored whole and by chunks", "");
  expect_error(rope("        store(y[0, c], sum(v, axis=0))\n", "[*m, *h]"), "7:15",
               "'y[0, c]' stores row 0 of an output of K values per position", "[*m, K, *h]");
}
