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
