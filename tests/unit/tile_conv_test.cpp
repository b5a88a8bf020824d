// Convolutions in the tile language (src/tile/sema_conv.cpp, emit_conv.cpp, prelude/kgen_conv.h): the program forms
// (conv, list attrs, depthwise, separable, transposed, avg-pool folding, epilogues), the project, every misuse.
#include "tile/conv.h"
#include "tile_test_util.h"

namespace kgen::tile {
namespace {
using test_util::compile;
using test_util::contains;
using test_util::expect_error;

std::string prog(const std::string& store, const std::string& extra = "") {
  return "kernel conv2d(x: T[n, ci, h, w], weight: T[co, ci, kh, kw], b: T[co, 1, 1], bias: T[co] = None,\n"
         "              stride: i32 = 1, padding: i32 = 0, scale: f32 = 2.0" + extra + ") -> (y: T[n, co, oh, ow]):\n"
         "    dtype T in (f32, f16)\n"
         "    store(y, " + store + ")\n";
}

TEST(TileConv, PlainConvCompilesToAProjectOnTheCube) {
  auto c = compile(prog("conv(x, weight, bias, stride=stride, padding=padding)"));
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_TRUE(c.r.kernel.conv);
  const ConvSpec& cs = *c.r.kernel.conv;
  EXPECT_EQ(cs.mode, "conv");
  EXPECT_TRUE(cs.cube);
  EXPECT_EQ(cs.nd, 2);
  EXPECT_EQ(cs.stride.attr, 0);   // attrs count from the first attr
  EXPECT_TRUE(contains(c.check_ir, "conv conv2d: conv 2-D on the cube (im2col, a GEMM per batch), x * weight -> y, "
                                   "stride stride padding padding"));
  // stage 1 unfolds x into the workspace (skipped for a 1x1 conv), SyncAll, stage 2 one GEMM per batch
  const std::string& kern = c.r.files.at("op_kernel/conv2d_custom.cpp");
  EXPECT_TRUE(contains(kern, "#include \"kgen_conv_gemm.h\""));
  EXPECT_TRUE(contains(kern, "GM_ADDR col = t.direct ? x : user + t.colOffset;"));
  EXPECT_TRUE(contains(kern, "REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), conv.mm, &t.cubeTiling);"));
  EXPECT_TRUE(contains(kern, "unfold.InitUnfold(pipe, g, x, col);"));
  EXPECT_TRUE(contains(kern, "AscendC::SyncAll();"));
  EXPECT_TRUE(contains(kern, "conv.Init(pipe, g, t.cubeTiling, t.mBlocks, t.nBlocks, weight, bias, col, y);"));
  EXPECT_LT(kern.find("AscendC::SyncAll();"), kern.find("conv.Begin(it);"));
  EXPECT_TRUE(c.r.files.count("op_kernel/kgen_conv.h"));
  EXPECT_TRUE(c.r.files.count("op_kernel/kgen_conv_gemm.h"));
  EXPECT_TRUE(c.r.files.count("op_kernel/kgen_tile.h"));
  const std::string& host = c.r.files.at("op_host/conv2d_custom.cpp");
  EXPECT_TRUE(contains(host, "const bool hasBias = context->GetOptionalInputShape(3) != nullptr;"));
  EXPECT_TRUE(contains(host, "cube.SetShape(static_cast<int32_t>(CO), static_cast<int32_t>(P), static_cast<int32_t>(K));"));
  EXPECT_TRUE(contains(host, "const uint64_t colOffset = 0;   // A is the weight itself"));
  EXPECT_TRUE(contains(host, "ws[0] = platform.GetLibApiWorkSpaceSize() + colOffset + (direct ? 0 : (N * K * P * es + 511) "
                            "/ 512 * 512);"));
  EXPECT_TRUE(contains(host, "this->Input(\"bias\").ParamType(OPTIONAL)"));
  EXPECT_TRUE(contains(host, "this->Attr(\"stride\").AttrType(OPTIONAL).Int(1);"));
  const std::string& tiling = c.r.files.at("op_host/conv2d_custom_tiling.h");
  EXPECT_TRUE(contains(tiling, "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);"));
  EXPECT_TRUE(contains(tiling, "TILING_DATA_FIELD_DEF(uint32_t, chunks);"));
  EXPECT_TRUE(contains(c.r.files.at("conv2d_custom.json"), "\"param_type\": \"optional\""));
}

TEST(TileConv, TransposedConvOnTheCubeRearrangesItsWeight) {
  auto c = compile(prog("conv_transpose(x, weight, bias, stride=stride, padding=padding)"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.r.kernel.conv->cube);
  const std::string& kern = c.r.files.at("op_kernel/conv2d_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::PermuteTransposedWeight<DTYPE_X>(pipe, g, weight, a);"));
  EXPECT_TRUE(contains(kern, "conv.Init(pipe, g, t.cubeTiling, t.mBlocks, t.nBlocks, a, bias, col, y);"));
  EXPECT_LT(kern.find("PermuteTransposedWeight"), kern.find("AscendC::SyncAll();"));
  const std::string& host = c.r.files.at("op_host/conv2d_custom.cpp");
  EXPECT_TRUE(contains(host, "const uint64_t colOffset = (CO * K * es + 511) / 512 * 512;   // A (built in stage 1)"));
  // a 3-D transposed conv stays on the vector cores
  auto c3 = compile("kernel k(x: T[n, ci, d, h, w], weight: T[ci, co, kd, kh, kw]) -> (y: T[n, co, od, oh, ow]):\n"
                    "    dtype T in (f32, f16)\n"
                    "    store(y, conv_transpose(x, weight))\n");
  ASSERT_TRUE(c3.ok) << c3.diags;
  EXPECT_FALSE(c3.r.kernel.conv->cube);
}

TEST(TileConv, OtherFormsStayOnTheVectorCores) {
  auto c = compile(prog("conv(x, weight, groups=ci) + b"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_FALSE(c.r.kernel.conv->cube);
  EXPECT_TRUE(contains(c.check_ir, "conv conv2d: depthwise 2-D on the vector cores"));
  const std::string& kern = c.r.files.at("op_kernel/conv2d_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::Conv<DTYPE_X> conv;"));
  EXPECT_TRUE(contains(kern, "conv.Init(pipe, g, x, weight, nullptr, nullptr, y);"));
  EXPECT_TRUE(contains(kern, "conv.AddChannelVector();"));
  EXPECT_FALSE(c.r.files.count("op_kernel/kgen_conv_gemm.h"));
  EXPECT_TRUE(c.r.files.count("op_kernel/kgen_conv.h"));
}

TEST(TileConv, ListAttrsAndEpilogue) {
  auto c = compile(
      "kernel k(x: T[n, ci, h, w], bias: T[co, 1, 1], weight: T[co, ci, kh, kw], stride: i32[2] = (1, 2),\n"
      "         ks: i32 = 3, scale: f32 = 2.0) -> (y: T[n, co, oh, ow]):\n"
      "    dtype T in (f32, f16)\n"
      "    store(y, tanh(conv(x, weight, stride=stride, padding=ks / 2)) * scale + bias)\n");
  ASSERT_TRUE(c.ok) << c.diags;
  const ConvSpec& cs = *c.r.kernel.conv;
  ASSERT_EQ(cs.epi.size(), 3u);
  EXPECT_EQ(cs.epi[0].op, "tanh");
  EXPECT_EQ(cs.epi[1].scalar, "t.attr_scale");
  EXPECT_EQ(cs.epi[2].op, "chan_add");
  EXPECT_EQ(cs.padding.div, 2);
  const std::string& host = c.r.files.at("op_host/k_custom.cpp");
  EXPECT_TRUE(contains(host, "this->Attr(\"stride\").AttrType(OPTIONAL).ListInt({1, 2});"));
  EXPECT_TRUE(contains(host, "GetListInt(0)"));
  EXPECT_TRUE(contains(host, "pa[d] = (v ? *v : 3) / 2;"));
  const std::string& kern = c.r.files.at("op_kernel/k_custom.cpp");
  EXPECT_TRUE(contains(kern, "conv.SetChannelVector(bias);"));
  EXPECT_TRUE(contains(kern, "AscendC::Muls(acc, acc, t.attr_scale, cnt);"));
  EXPECT_TRUE(contains(c.r.files.at("op_host/k_custom_tiling.h"), "TILING_DATA_FIELD_DEF(float, attr_scale);"));
}

TEST(TileConv, DepthwiseSeparableTransposedAndPool) {
  auto dw = compile(prog("conv(x, weight, groups=ci)"));
  ASSERT_TRUE(dw.ok) << dw.diags;
  EXPECT_EQ(dw.r.kernel.conv->mode, "depthwise");
  auto sep = compile(prog("conv(conv(x, weight, groups=ci), b)"));
  ASSERT_TRUE(sep.ok) << sep.diags;
  EXPECT_EQ(sep.r.kernel.conv->mode, "separable");
  EXPECT_TRUE(contains(sep.r.files.at("op_host/conv2d_custom.cpp"), "ShapeOf(ctx->GetInputShape(2)).GetDim(0)"));
  auto tr = compile(prog("conv_transpose(x, weight, bias, stride=stride, output_padding=padding)"));
  ASSERT_TRUE(tr.ok) << tr.diags;
  EXPECT_EQ(tr.r.kernel.conv->mode, "transposed");
  EXPECT_TRUE(contains(tr.r.files.at("op_host/conv2d_custom.cpp"), "const int64_t CO = ws.GetDim(1), groups = 1;"));
  auto pool = compile(prog("sigmoid(avg_pool(conv(x, weight, bias), size=2))"));
  ASSERT_TRUE(pool.ok) << pool.diags;
  EXPECT_EQ(pool.r.kernel.conv->mode, "pool");
  EXPECT_EQ(pool.r.kernel.conv->pool.value, 2);
  EXPECT_TRUE(pool.r.kernel.conv->cube);
  EXPECT_TRUE(contains(pool.r.files.at("op_kernel/conv2d_custom.cpp"), "kt::FoldPooledWeight<DTYPE_X>(pipe, g, weight, a);"));
  EXPECT_TRUE(contains(pool.r.files.at("op_kernel/conv2d_custom.cpp"), "AscendC::Sigmoid(conv.Scratch(), acc"));
}

TEST(TileConv, Misuses) {
  expect_error(prog("conv(x, weight, strid=stride)"), "4:30", "conv() has no option 'strid'", "did you mean 'stride'?");
  expect_error(prog("conv(x, wieght)"), "4:22", "'wieght' is not an input tensor", "did you mean 'weight'?");
  expect_error(prog("conv(x, weight, stride=scale)"), "4:37", "stride= is an integer, an i32 attr",
               "stride=stride with stride: i32 = 1");
  expect_error(prog("conv(x, weight, groups=2)"), "4:37", "groups= is 1 or the input's channel dim", "groups=ci");
  expect_error(prog("exp(conv(x, weight))"), "4:14", "'exp(conv(x, weight))' is not a step of a convolution's epilogue",
               "relu, tanh, sigmoid");
  expect_error(prog("conv(x, weight) + x"), "4:32", "'x' is not a scalar or a per-channel input of the epilogue",
               "b: T[co, 1, 1]");
  expect_error(prog("avg_pool(conv(x, weight, stride=2), size=2)"), "4:14", "avg_pool() folds into a plain conv",
               "avg_pool(conv(x, weight, bias), size=pool)");
  expect_error(prog("conv(conv(x, weight), b)"), "4:14", "a conv of a conv is a depthwise-separable conv",
               "groups=ci");
  expect_error(prog("conv(x)"), "4:14", "conv() takes the input, the weight and an optional bias", "conv(x, weight");
  expect_error(prog("conv(x, weight, dilation=dil)", ", dil: i32[3] = (1, 1, 1)"), "2:68",
               "list attr 'dil' has 3 ints for 2 spatial dims", "one int per spatial dim");
  expect_error("kernel k(x: T[n, ci, w], weight: T[co, ci, kw], b: T[co] = None, c: T[co]) -> (y: T[n, co, ow]):\n"
               "    dtype T in (f32)\n"
               "    store(y, conv(x, weight, c))\n",
               "1:66", "required input 'c' after the optional input 'b'", "put the optional (= None) inputs last");
  expect_error("kernel k(x: T[n, w], weight: T[co, kw]) -> (y: T[n, ow]):\n"
               "    dtype T in (f32)\n"
               "    store(y, conv(x, weight))\n",
               "1:10", "a convolution's input is [batch, channels, 1-3 spatial dims]", "x: T[n, ci, h, w]");
}
TEST(TileConv, AnOutputDimNamedAfterAnInputDimIsCheckedByTheHost) {
  // y's length is declared l, x's: the host refuses a geometry that computes another length (a causal conv's
  // padding k - 1 without its crop) instead of writing that length under the name l.
  auto c = compile("kernel k(x: T[n, c, l], weight: T[c, 1, kk], padding: i32 = 2) -> (y: T[n, c, l]):\n"
                   "    dtype T in (f32, f16)\n"
                   "    store(y, conv(x, weight, padding=padding, groups=c))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& host = c.r.files.at("op_host/k_custom.cpp");
  EXPECT_TRUE(contains(host, "if (outShape[2] != ShapeOf(ctx->GetInputShape(0)).GetDim(2)) {")) << host;
  EXPECT_TRUE(contains(host, "t.tile:1: y's dim 2 is 'l'")) << host;
  EXPECT_TRUE(contains(host, "if (outShape[1] != ShapeOf(ctx->GetInputShape(0)).GetDim(1)) {")) << host;   // c
  // a dim of its own (ol) is whatever the geometry computes
  auto free = compile("kernel k(x: T[n, c, l], weight: T[c, 1, kk], padding: i32 = 2) -> (y: T[n, c, ol]):\n"
                      "    dtype T in (f32, f16)\n"
                      "    store(y, conv(x, weight, padding=padding, groups=c))\n");
  ASSERT_TRUE(free.ok) << free.diags;
  const std::string& free_host = free.r.files.at("op_host/k_custom.cpp");
  EXPECT_FALSE(contains(free_host, "outShape[2] != ")) << free_host;
}

// conv(...)[:, :, :l]: the output keeps the first l positions (a causal conv), the crop's end an input's dim, an attr
// or a number; padding=kernel_size - 1 (attr - integer); silu in the epilogue. The host applies the crop after the
// geometry and refuses one longer than the conv's output.
TEST(TileConv, ACropKeepsTheFirstPositionsOfTheOutput) {
  auto c = compile("kernel k(x: T[n, c, l], weight: T[c, 1, kk], kernel_size: i32 = 4) -> (y: T[n, c, l]):\n"
                   "    dtype T in (f32, f16)\n"
                   "    store(y, silu(conv(x, weight, padding=kernel_size - 1, groups=c)[:, :, :l]))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& host = c.r.files.at("op_host/k_custom.cpp");
  EXPECT_TRUE(contains(host, "pa[d] = (v ? *v : 4) - 1; }   // kernel_size")) << host;
  EXPECT_TRUE(contains(host, "const int64_t end = ShapeOf(ctx->GetInputShape(0)).GetDim(2);")) << host;
  EXPECT_TRUE(contains(host, "t.tile:1: the crop keeps %lld positions of spatial dim 0 ('l', dim 2 of x), but the "
                             "convolution computes %lld there")) << host;
  EXPECT_TRUE(contains(host, "o[2] = end;")) << host;
  const std::string& kernel = c.r.files.at("op_kernel/k_custom.cpp");
  EXPECT_TRUE(contains(kernel, "AscendC::Mul(acc, acc, conv.Scratch(), cnt);   // x * sigmoid(x)")) << kernel;
  // a crop by a number, an attr; in the middle of the epilogue
  EXPECT_TRUE(compile(prog("relu(conv(x, weight, padding=1)[:, :, :5, :w]) * scale")).ok);
  EXPECT_TRUE(compile(prog("conv(x, weight, padding=1)[:, :, :padding, :]")).ok);
}

TEST(TileConv, CropMisuses) {
  expect_error(prog("conv(x, weight)[:5, :, :, :]"), "4:30", "the batch and the channels are kept whole: ':'", ":l]");
  expect_error(prog("conv(x, weight)[:, :, 2, :]"), "4:36", "is kept whole (':') or cropped to its start (':l')", "");
  expect_error(prog("conv(x, weight)[:, :, :]"), "4:14", "a crop indexes every dim of the conv's output: batch, channels and 2 spatial dim(s), 4 in all", "");
  expect_error(prog("conv(x, weight)[:, :, :scale, :]"), "4:37", "'scale' is not a dim of an input, an i32 attr",
               "crop to an input's length");
  expect_error(prog("relu(conv(x, weight)[:, :, :h, :])[:, :, :h, :]"), "4:14", "the conv's output is cropped twice", "");
  // a tile is not indexed outside a convolution program
  expect_error("kernel k(x: f32[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        store(y[t], exp(load(x[t]))[:3])\n",
               "3:21", "a tile value is not indexed", "only a convolution's output is cropped");
}
}  // namespace
}  // namespace kgen::tile
