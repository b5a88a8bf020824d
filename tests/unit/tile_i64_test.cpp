// i64 outputs and mapped dtype variables (`dtype U = T(i32 -> i64)`): an output column that follows an input's with
// some types mapped (torch.sum widens int32 to int64), the OpDef columns, the host's dtype, the kernel's template
// arguments, the int32 -> int64 conversion on the way out, and each misuse's diagnostic. tests/tile_test.sh runs the
// expert program kernels/reduce/sum_reduction.tile (its int32 case is stored as int64).
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
// sum over a chosen dim; `decls` are the dtype lines after T's, `out` the output's dtype, `line` the loop body.
std::string sum_program(const std::string& decls, const std::string& out = "U",
                        const std::string& line = "        store(y[c], sum(load(x[:, c], A), axis=0))\n",
                        const std::string& in = "T") {
  return "kernel s(x: " + in + "[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: " + out + "[*outer, 1, *inner]):\n"
         "    dtype T in (f32, f16, i32)\n" + decls +
         "    for c in tiles(outer, inner):\n" + line;
}
const char* kDecls = "    dtype A = T(f16 -> f32)\n    dtype U = T(i32 -> i64)\n";
}  // namespace

TEST(TileI64, MappedColumnsHostAndKernel) {
  Compiled c = compile(sum_program(kDecls));
  ASSERT_TRUE(c.ok) << c.diags;
  const Kernel& k = c.r.kernel;
  ASSERT_EQ(k.dtype_vars.size(), 3u);
  EXPECT_EQ(k.dtype_vars[2].base, 0);
  EXPECT_EQ(k.dtype_vars[2].types, (std::vector<DType>{DType::F32, DType::F16, DType::I64}));
  EXPECT_EQ(k.dtype_vars[1].types, (std::vector<DType>{DType::F32, DType::F32, DType::I32}));
  const std::string& host = c.r.files.at("op_host/s_custom.cpp");
  // three columns (a mapped variable adds none), the output's column follows the input's
  EXPECT_TRUE(contains(host, ".DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})")) << host;
  EXPECT_TRUE(contains(host, ".DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT64})")) << host;
  EXPECT_TRUE(contains(host, "const ge::DataType dtU = dtT == ge::DT_INT32 ? ge::DT_INT64 : dtT;")) << host;
  EXPECT_TRUE(contains(host, "case ge::DT_INT64: return 8;")) << host;
  EXPECT_TRUE(contains(host, "context->SetOutputDataType(0, dtU);")) << host;
  const std::string& kern = c.r.files.at("op_kernel/s_custom.cpp");
  EXPECT_TRUE(contains(kern, "std::conditional_t<std::is_same<DTYPE_X, int32_t>::value, int64_t, DTYPE_X>")) << kern;
  EXPECT_TRUE(contains(kern, "std::conditional_t<std::is_same<DTYPE_X, half>::value, float, DTYPE_X>")) << kern;
  // U and A differ in the f16 and i32 columns: always converted at the store (a bit copy where they agree)
  EXPECT_TRUE(contains(kern, "kt::Convert(yOut, ")) << kern;
  EXPECT_FALSE(contains(kern, "if constexpr (!std::is_same<U, A>::value) kt::Convert(yOut")) << kern;
  EXPECT_TRUE(contains(c.r.files.at("s_custom.json"), "\"int64\"")) << c.r.files.at("s_custom.json");
}

TEST(TileI64, ConcreteI64OutputFromI32) {
  Compiled c = compile("kernel s(x: i32[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: i64[*outer, 1, *inner]):\n"
                       "    for c in tiles(outer, inner):\n"
                       "        store(y[c], sum(load(x[:, c]), axis=0))\n");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.r.files.at("op_kernel/s_custom.cpp"), "AscendC::GlobalTensor<int64_t>"));
}

TEST(TileI64, Diagnostics) {
  expect_error(sum_program("    dtype U = V(i32 -> i64)\n", "U", "        store(y[c], sum(load(x[:, c]), axis=0))\n"),
               "3:15", "'V' is not a dtype variable declared above", "dtype U = T(i32 -> i64)");
  expect_error(sum_program("    dtype U = T(i8 -> i64)\n", "U", "        store(y[c], sum(load(x[:, c]), axis=0))\n"),
               "3:17", "'i8' is not a dtype of T (f32, f16, i32)", "map only the dtypes T lists");
  expect_error(sum_program("    dtype U = T(i32 -> i64, i32 -> f32)\n", "U",
                           "        store(y[c], sum(load(x[:, c]), axis=0))\n"),
               "3:29", "'i32' is mapped twice", "");
  expect_error(sum_program("    dtype U = T(i32 -> i65)\n", "U", "        store(y[c], sum(load(x[:, c]), axis=0))\n"),
               "3:24", "unknown dtype 'i65'", "did you mean 'i64'?");
  expect_error(sum_program("    dtype U = T(i32 i64)\n", "U", "        store(y[c], sum(load(x[:, c]), axis=0))\n"),
               "3:21", "'->'", "dtype U = T(i32 -> i64)");
  expect_error("kernel s(x: T[*n]) -> (y: T[*n]):\n    dtype T in (f32, i64)\n    for t in tiles(n):\n"
               "        store(y[t], load(x[t]))\n",
               "2:22", "a dtype column cannot be i64", "dtype U = T(i32 -> i64)");
  expect_error("kernel s(x: i64[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        store(y[t], load(x[t], f32))\n",
               "3:21", "the i64 input 'x' is read as one value per row of a row program", "load(x[t], f32)");
  expect_error(sum_program(kDecls, "U", "        store(y[c], sum(load(x[:, c], A), axis=0))\n", "U"), "1:13",
               "input 'x' has the mapped dtype variable 'U'", "type inputs with T");
  expect_error(sum_program(kDecls, "U", "        store(y[c], cast(sum(load(x[:, c], A), axis=0), i64))\n"), "6:57",
               "values are not computed in i64", "compute in i32");
  // a half value into the i64 column: no half -> int64 conversion
  expect_error(sum_program("    dtype U = T(f16 -> i64)\n", "U", "        store(y[c], sum(load(x[:, c]), axis=0))\n"),
               "5:21", "storing a f16 value into an i64 output", "cast(v, i32)");
  expect_error(sum_program(kDecls, "U", "        store(y[c], 1)\n"), "6:21",
               "storing a scalar into the i64 output 'y'", "store an i32 tile");
}

TEST(TileI64, IrShowsTheMapping) {
  std::string ir;
  CompileOptions o;
  o.dump = [&](const std::string& p, const std::string& text) {
    if (p == "check") ir = text;
  };
  const std::string src = sum_program(kDecls);
  Diags d("t.tile", &src);
  ASSERT_TRUE(compile_program("t.tile", src, o, d).ok) << d.render(false);
  EXPECT_TRUE(contains(ir, "dtype U = T per column (f32, f16, i64)")) << ir;
  EXPECT_TRUE(contains(ir, "output y: U")) << ir;
}
