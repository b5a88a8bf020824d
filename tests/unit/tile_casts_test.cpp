// Conversions the vector unit has no single Cast for (split_casts.cpp): the chains the pass builds, concrete and per
// dtype column, their rounding (a float truncated toward an integer), the emitted helpers; round/floor/ceil/trunc;
// a docstring of several lines as comments in every emitter. tests/tile_test.sh runs such programs against PyTorch
// (tests/data/tile_ops: math/float_to_int8, normalization/add_rms_norm_quant).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
// The program through the pipeline, with the IR after each pass.
struct Passes {
  bool ok = false;
  std::string diags;
  std::map<std::string, std::string> ir;   // pass -> IR
  CompileResult r;
  std::string kernel() const {
    for (const auto& [path, text] : r.files)
      if (path.rfind("op_kernel/", 0) == 0 && path.find("kgen_") == std::string::npos) return text;
    return "";
  }
};
Passes run(const std::string& src) {
  Passes c;
  CompileOptions o;
  o.dump = [&](const std::string& p, const std::string& ir) { c.ir[p] = ir; };
  Diags d("t.tile", &src);
  c.r = compile_program("t.tile", src, o, d);
  c.ok = c.r.ok;
  c.diags = d.render(false);
  return c;
}
size_t count(const std::string& s, const std::string& sub) {
  size_t n = 0;
  for (size_t p = s.find(sub); p != std::string::npos; p = s.find(sub, p + 1)) ++n;
  return n;
}
}  // namespace

TEST(TileCasts, AFloatStoredToInt8GoesThroughHalfTruncating) {
  Passes c = run(R"(kernel q(x: f32[*n]) -> (y: i8[*n]):
    for t in tiles(n):
        store(y[t], load(x[t]) * 16.0)
)");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_FALSE(contains(c.ir["check"], " trunc")) << c.ir["check"];
  const std::string& ir = c.ir["split_casts"];
  EXPECT_TRUE(contains(ir, "flat f16 = cast ")) << ir;
  EXPECT_TRUE(contains(ir, " trunc")) << ir;
  EXPECT_EQ(count(ir, "= cast "), 1u) << ir;
  // f32 -> f16 toward zero, then the store's f16 -> i8 (kt::Convert: CAST_TRUNC from half to an integer type)
  EXPECT_TRUE(contains(c.kernel(), "kt::CastValueTrunc(")) << c.kernel();
}

TEST(TileCasts, EveryDtypeColumnTakesTheSameChain) {
  // T = bf16 has no cast to f16: every column goes through f32 first (f16 -> f32 and f32 -> f32 lose nothing).
  Passes c = run(R"(kernel q(x: T[*n]) -> (y: u8[*n]):
    dtype T in (f32, f16, bf16)
    for t in tiles(n):
        store(y[t], load(x[t]))
)");
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& ir = c.ir["split_casts"];
  EXPECT_TRUE(contains(ir, "flat f32 = cast ")) << ir;
  EXPECT_TRUE(contains(ir, "flat f16 = cast ")) << ir;
  EXPECT_EQ(count(ir, "= cast "), 2u) << ir;
  // Columns that convert in one step keep one step: f32 -> f16 is a single Cast; nothing is inserted.
  Passes one = run(R"(kernel q(x: T[*n]) -> (y: f16[*n]):
    dtype T in (f32, i32)
    for t in tiles(n):
        store(y[t], load(x[t]))
)");
  ASSERT_TRUE(one.ok) << one.diags;
  EXPECT_EQ(count(one.ir["split_casts"], "= cast "), 0u) << one.ir["split_casts"];
}

TEST(TileCasts, HalfAndBfloat16MeetInFloat) {
  Passes c = run(R"(kernel q(x: f16[*n]) -> (y: bf16[*n]):
    for t in tiles(n):
        store(y[t], cast(load(x[t]), bf16) + cast(load(x[t]), bf16))
)");
  // bf16 arithmetic is refused by the checker (the 910B vector unit computes f32/f16): the diagnostic, not a chain.
  EXPECT_FALSE(c.ok);
  Passes s = run(R"(kernel q(x: f16[*n]) -> (y: bf16[*n]):
    for t in tiles(n):
        store(y[t], load(x[t]))
)");
  ASSERT_TRUE(s.ok) << s.diags;
  const std::string& ir = s.ir["split_casts"];
  EXPECT_TRUE(contains(ir, "flat f32 = cast ")) << ir;
  EXPECT_FALSE(contains(ir, " trunc")) << ir;   // a float target: exact widening, then round to nearest even
}

TEST(TileCasts, AnExplicitChainIsDefinedOverItsWholeRepeats) {
  // cast(v, f16) writes 256-byte repeats of f32 worth of halves; the store's f16 -> i8 reads repeats of f16: the
  // cast value zeroes the rest of its repeats (kt::CastValue), where an uninitialised read was before.
  Passes c = run(R"(kernel q(x: f32[*n]) -> (y: i8[*n]):
    for t in tiles(n):
        store(y[t], cast(trunc(load(x[t])), f16))
)");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.kernel(), "kt::CastValue(")) << c.kernel();
  EXPECT_TRUE(contains(c.kernel(), "AscendC::RoundMode::CAST_TRUNC")) << c.kernel();
  EXPECT_EQ(count(c.ir["split_casts"], "= cast "), 1u) << c.ir["split_casts"];
}

TEST(TileCasts, RoundingFunctionsAreFloat32Casts) {
  Passes c = run(R"(kernel r(x: f32[*n]) -> (a: f32[*n], b: f32[*n], c: f32[*n], d: f32[*n]):
    for t in tiles(n):
        v = load(x[t])
        store(a[t], round(v))
        store(b[t], floor(v))
        store(c[t], ceil(v))
        store(d[t], trunc(v))
)");
  ASSERT_TRUE(c.ok) << c.diags;
  for (const char* mode : {"CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_TRUNC"})
    EXPECT_TRUE(contains(c.kernel(), std::string("AscendC::RoundMode::") + mode)) << mode;
  expect_error(R"(kernel r(x: f16[*n]) -> (y: f16[*n]):
    for t in tiles(n):
        store(y[t], round(load(x[t])))
)",
               "3:21", "round() has no f16 form on the vector unit", "");
}

TEST(TileCasts, AMultiLineDocstringIsCommentedInEveryEmitter) {
  const std::string doc = "\"\"\"First line.\n\nThird line, after a blank one.\n\"\"\"\n";
  for (const char* body : {R"(kernel v(x: f32[*n]) -> (y: f32[*n]):
    for t in tiles(n):
        store(y[t], load(x[t]))
)",
                           R"(kernel mm(a: T[m, k], b: T[k, n]) -> (c: T[m, n]):
    dtype T in (f16)
    for blk in blocks(m, n):
        acc = zeros(f32)
        for kt in tiles(k):
            acc += mma(a[blk, kt], b[kt, blk])
        store(c[blk], acc)
)"}) {
    Passes c = run(doc + body);
    ASSERT_TRUE(c.ok) << c.diags;
    const std::string kernel = c.kernel();
    EXPECT_TRUE(contains(kernel, "// First line.\n")) << kernel;
    EXPECT_TRUE(contains(kernel, "// Third line, after a blank one.")) << kernel;
    EXPECT_FALSE(contains(kernel, "\nThird line")) << kernel;
  }
}
