// Resize programs (src/tile/sema_resize.cpp, emit_resize.cpp): the checked spec, the emitted project (tables once per
// core, span DMA, gathers, list attrs in the OpDef and InferShape from the attrs) and every diagnostic.
#include "tile_test_util.h"

namespace kgen::tile {
namespace {
using test_util::compile;
using test_util::contains;
using test_util::expect_error;

const std::string kBilinear =
    "kernel up(x: T[*m, h, w], out_size: i32[2] = (128, 150), align_corners: bool = false) -> (y: T[*m, oh, ow]):\n"
    "    dtype T in (f32, f16, bf16)\n"
    "    store(y, linear(x, size=out_size, align_corners=align_corners))\n";

TEST(TileResize, ChecksTheSpec) {
  auto c = compile(kBilinear);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.r.kernel.resize);
  EXPECT_EQ(c.r.kernel.rz.mode, "linear");
  EXPECT_EQ(c.r.kernel.rz.spatial, 2);
  EXPECT_EQ(c.r.kernel.rz.size_attr, 0);
  EXPECT_EQ(c.r.kernel.rz.align_attr, 1);
  EXPECT_TRUE(contains(c.check_ir, "linear over the last 2 dims of x")) << c.check_ir;
}

TEST(TileResize, EmitsTablesSpanAndListAttr) {
  auto c = compile(kBilinear);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/up_custom.cpp");
  const std::string& host = c.r.files.at("op_host/up_custom.cpp");
  EXPECT_TRUE(contains(kern, "guard_index_and_lambda")) << kern;
  EXPECT_TRUE(contains(kern, "AscendC::Gather(h, src, off, 0, cnt);"));
  EXPECT_TRUE(contains(kern, "AscendC::Axpy(dst, h[at], wgt, ows_);"));
  EXPECT_TRUE(contains(host, "this->Attr(\"out_size\").AttrType(OPTIONAL).ListInt({128, 150});")) << host;
  EXPECT_TRUE(contains(host, "GetListInt(0)"));
  EXPECT_TRUE(contains(c.r.files.at("up_custom.json"), "\"list_int\""));
}

TEST(TileResize, ScaleModesAndDims) {
  auto n = compile("kernel up(x: T[*m, h, w], s: f32 = 2.0) -> (y: T[*m, oh, ow]):\n"
                   "    dtype T in (f32, f16)\n"
                   "    store(y, nearest(x, scale=s))\n");
  ASSERT_TRUE(n.ok) << n.diags;
  EXPECT_TRUE(contains(n.r.files.at("op_kernel/up_custom.cpp"), "i >> 1"));
  auto t = compile("kernel up(x: T[*m, d, h, w], s: f32 = 2.0, a: bool = false) -> (y: T[*m, od, oh, ow]):\n"
                   "    dtype T in (f32)\n"
                   "    store(y, linear(x, scale=s, align_corners=a))\n");
  ASSERT_TRUE(t.ok) << t.diags;
  EXPECT_EQ(t.r.kernel.rz.spatial, 3);
  auto b = compile("kernel up(x: T[*m, h, w], s: f32 = 2.0, a: bool = false) -> (y: T[*m, oh, ow]):\n"
                   "    dtype T in (f32)\n"
                   "    store(y, cubic(x, scale=s, align_corners=a))\n");
  ASSERT_TRUE(b.ok) << b.diags;
  EXPECT_TRUE(contains(b.r.files.at("op_kernel/up_custom.cpp"), "A = -0.75"));
}

TEST(TileResize, AntialiasedLinear) {
  auto c = compile("kernel down(x: T[*m, h, w], o: i32[2] = (100, 77)) -> (y: T[*m, oh, ow]):\n"
                   "    dtype T in (f32, f16)\n"
                   "    store(y, linear(x, size=o, antialias=true))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.r.kernel.rz.mode, "antialias");
  const std::string& kern = c.r.files.at("op_kernel/down_custom.cpp");
  EXPECT_TRUE(contains(kern, "w[j] /= total")) << kern;                     // taps normalized to sum 1
  EXPECT_TRUE(contains(c.r.files.at("op_host/down_custom.cpp"), "std::ceil(support)"));   // taps from the scale
  expect_error("kernel down(x: T[*m, h, w], o: i32[2] = (4, 4)) -> (y: T[*m, oh, ow]):\n    dtype T in (f32)\n"
               "    store(y, linear(x, size=o, antialias=yes))\n",
               "3:42", "antialias= takes true or false", "antialias=true");
  expect_error("kernel down(x: T[*m, h, w], o: i32[2] = (4, 4)) -> (y: T[*m, oh, ow]):\n    dtype T in (f32)\n"
               "    store(y, nearest(x, size=o, antialias=true))\n",
               "3:33", "nearest() has no argument 'antialias'", "");
}

TEST(TileResize, Diagnostics) {
  const std::string head = "kernel up(x: T[*m, h, w], s: f32 = 2.0, o: i32[2] = (4, 4)) -> (y: T[*m, oh, ow]):\n"
                           "    dtype T in (f32)\n";
  expect_error(head + "    store(y, linear(x))\n", "3:14", "linear() needs one of size= and scale=", "size=out_size");
  expect_error(head + "    store(y, linear(x, scale=q))\n", "3:30", "scale= must name an attr", "declare it");
  expect_error(head + "    store(y, linear(x, size=s))\n", "3:14", "size= needs a list attr of 2 ints", "i32[2]");
  expect_error(head + "    store(y, linear(x, scale=s, mode=s))\n", "3:33", "linear() has no argument 'mode'", "scale=s");
  expect_error(head + "    store(z, linear(x, scale=s))\n", "3:11", "'z' is not an output tensor", "store(y");
  expect_error(head + "    store(y, nearest(x, scale=s, align_corners=s))\n", "3:34", "nearest() has no argument", "");
  expect_error(head + "    store(y, cubic(x, scale=o))\n", "3:14", "scale= needs an f32 attr", "scale_factor");
  expect_error("kernel up(x: T[*m, h, w], o: i32[2] = (4, 4, 4)) -> (y: T[*m, oh, ow]):\n    dtype T in (f32)\n"
               "    store(y, linear(x, size=o))\n",
               "1:39", "is not a tuple of 2 ints", "i32[2] = (128, 150)");
  expect_error("kernel up(x: T[h, w], s: f32 = 2.0) -> (y: T[oh, ow]):\n    dtype T in (f32)\n"
               "    store(y, linear(x, scale=s))\n",
               "1:11", "views its tensors as x: T[*m, h, w]", "*m (batch, channels)");
  expect_error("kernel up(x: T[*m, d, h, w], s: f32 = 2.0) -> (y: T[*m, od, oh, ow]):\n    dtype T in (f32)\n"
               "    store(y, cubic(x, scale=s))\n",
               "3:14", "cubic() interpolates 2 dims", "");
}
}  // namespace
}  // namespace kgen::tile

// The op json names dtypes as msopgen does (uint8, int32, ...), not as the tile language writes them (u8, i32): a
// resize of bytes wrote "u8", which no json reader knows.
TEST(TileResize, JsonNamesDtypesAsMsopgen) {
  Compiled c = compile("kernel up(x: T[*m, h, w], scale_factor: f32 = 2.0) -> (y: T[*m, oh, ow]):\n"
                       "    dtype T in (f32, u8)\n"
                       "    store(y, nearest(x, scale=scale_factor))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& j = c.r.files.at("up_custom.json");
  EXPECT_TRUE(contains(j, "\"type\": [\"float\", \"uint8\"]")) << j;
  EXPECT_FALSE(contains(j, "\"u8\"")) << j;
}
