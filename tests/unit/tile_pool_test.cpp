// Pooling windows in the tile language (src/tile/sema_pool.cpp, emit_pool.cpp, prelude/kgen_pool.h): the program
// form, the generated project and every misuse's diagnostic.
#include "tile_test_util.h"

namespace kgen::tile {
namespace {
using test_util::compile;
using test_util::contains;
using test_util::expect_error;

const char* kMax2d =
    "kernel max_pool2d(x: T[*m, h, w], kernel_size: i32 = 3, stride: i32 = 2, padding: i32 = 1,\n"
    "                  dilation: i32 = 1) -> (y: T[*m, oh, ow]):\n"
    "    dtype T in (f32, f16, bf16)\n"
    "    for o in windows(h, w, size=kernel_size, stride=stride, padding=padding, dilation=dilation):\n"
    "        store(y[o], max(load(x[o], f32)))\n";

std::string avg(const std::string& reduce, const std::string& window = "size=kernel_size, stride=2") {
  return "kernel avg_pool2d(x: T[*m, h, w], kernel_size: i32 = 3, cip: bool = true) -> (y: T[*m, oh, ow]):\n"
         "    dtype T in (f32, f16)\n"
         "    for o in windows(h, w, " + window + "):\n"
         "        store(y[o], " + reduce + ")\n";
}

TEST(TilePool, MaxProgramCompilesToAProject) {
  auto c = compile(kMax2d);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(c.r.kernel.pool);
  EXPECT_EQ(c.r.kernel.pw.nd, 2);
  EXPECT_TRUE(c.r.kernel.pw.max);
  EXPECT_EQ(c.r.kernel.pw.kernel, "attr_kernel_size");
  EXPECT_TRUE(contains(c.check_ir, "pool max_pool2d: max over the last 2 dim(s) of x -> y"));
  const std::string& kern = c.r.files.at("op_kernel/max_pool2d_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::PoolWindows<DTYPE_X, true> op;"));
  EXPECT_TRUE(c.r.files.count("op_kernel/kgen_pool.h"));
  const std::string& host = c.r.files.at("op_host/max_pool2d_custom.cpp");
  EXPECT_TRUE(contains(host, "out[3 - nd + i] = (in[3 - nd + i] + 2 * p - dl * (k - 1) - 1) / s + 1;"));
  EXPECT_TRUE(contains(host, "y->AppendDim(out[3 - nd + i]);"));
}

TEST(TilePool, MeanWithCountIncludePadAttr) {
  auto c = compile(avg("mean(load(x[o], f32), count_include_pad=cip)"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_FALSE(c.r.kernel.pw.max);
  EXPECT_EQ(c.r.kernel.pw.count_pad, "attr_cip");
  EXPECT_EQ(c.r.kernel.pw.stride, "2");
  EXPECT_EQ(c.r.kernel.pw.padding, "0");
  auto d = compile(avg("mean(load(x[o], f32))", "size=3"));
  ASSERT_TRUE(d.ok) << d.diags;
  EXPECT_EQ(d.r.kernel.pw.stride, "3");   // stride defaults to the kernel, as in PyTorch
}

TEST(TilePool, Diagnostics) {
  expect_error(avg("mean(load(x[o], f32))", "stride=2"), "3:14", "windows() needs the window's size", "size=");
  expect_error(avg("mean(load(x[o], f32))", "size=kernel_size, strid=2"), "3:46", "windows() has no option 'strid'",
               "did you mean 'stride'?");
  expect_error(avg("mean(load(x[o], f32))", "size=cip"), "3:33", "attr 'cip' is not an i32", "");
  expect_error(avg("mean(load(x[o], f32))", "size=kernel_sise"), "3:33", "size is an i32 attr or an integer",
               "did you mean 'kernel_size'?");
  expect_error(avg("sum(load(x[o], f32))"), "4:21", "a window is reduced by max(...) or mean(...)", "mean(load(x[o]");
  expect_error(avg("max(load(x[o], f32), count_include_pad=cip)"), "4:42", "max() of a window has no option",
               "max(load(x[o], f32))");
  expect_error(avg("mean(load(x[o], f32), count_include_pad=kernel_size)"), "4:61", "attr 'kernel_size' is not a bool",
               "");
  expect_error(avg("mean(load(x[o], f32))", "size=3, dilation=2"), "4:9", "an average window has no dilation",
               "drop dilation=");
  expect_error(avg("mean(load(x[o], f16))"), "4:37", "windows are reduced in f32", "load(x[o], f32)");
  expect_error(avg("mean(load(y[o], f32))"), "4:31", "'y' is not an input", "");
  expect_error("kernel p(x: T[*m, h, w]) -> (y: T[*m, oh, ow]):\n    dtype T in (f32)\n"
               "    for o in windows(w, h, size=3):\n        store(y[o], max(load(x[o], f32)))\n",
               "3:22", "the windowed dims are the last dims of 'x'", "x: T[*m, w, h]");
  expect_error("kernel p(x: T[*m, h, w]) -> (y: T[*m, oh, ow]):\n    dtype T in (f32)\n"
               "    for o in windows(h, w, size=2):\n        store(y[o], max(load(x[o], f32)))\n    pass\n",
               "5:5", "a statement after the windows loop", "one windows loop");
  expect_error("kernel p(x: T[*m, h, w]) -> (y: T[*m, oh]):\n    dtype T in (f32)\n"
               "    for o in windows(h, w, size=2):\n        store(y[o], max(load(x[o], f32)))\n",
               "1:30", "output 'y' has the input's planes and one dim per windowed dim", "");
  expect_error("kernel p(x: i32[*m, w]) -> (y: i32[*m, ow]):\n"
               "    for o in windows(w, size=2):\n        store(y[o], max(load(x[o], f32)))\n",
               "1:10", "windows are pooled from f32, f16 or bf16, not i32", "dtype T in (f32, f16, bf16)");
}
}  // namespace
}  // namespace kgen::tile
