// The tile compiler after the parser: every semantic diagnostic reached on purpose (position, message, hint), the IR
// after each lowering pass on small programs, and the emitted op project's shape (files, OpDef columns, tiling
// fields). The emitted code is compiled and run by tests/tile_test.sh.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tile_test_util.h"
#include "tile/compile.h"
#include "tile/parser.h"
#include "tile/passes.h"
#include "tile/sema.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
std::string ir_after(const std::string& src, const std::string& pass) {
  std::string out;
  CompileOptions o;
  o.dump = [&](const std::string& p, const std::string& ir) {
    if (p == pass) out = ir;
  };
  Diags d("t.tile", &src);
  compile_program("t.tile", src, o, d);
  EXPECT_FALSE(d.has_errors()) << d.render(false);
  return out;
}


const char* kFlat = R"(kernel scale_add(x: T[*n], y: T[*n], alpha: f32 = 2.0) -> (z: T[*n]):
    dtype T in (f32, f16)
    for t in tiles(n):
        a = load(x[t], f32)
        b = load(y[t], f32)
        store(z[t], a * alpha + b)
)";

const char* kAxis = R"(kernel sum_dim(x: T[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: T[*outer, 1, *inner]):
    dtype T in (f32, f16, i32)
    for c in tiles(outer, inner):
        v = load(x[:, c])
        store(y[c], sum(v, axis=0) * 2)
)";

const char* kRows = R"(kernel softmax(x: T[*m, n]) -> (y: T[*m, n]):
    dtype T in (f32, f16, bf16)
    for r in tiles(m, buffers=2):
        v = load(x[r, :], f32)
        e = exp(v - max(v, axis=1))
        store(y[r, :], e / sum(e, axis=1))
)";
}  // namespace

TEST(TileSema, CleanProgramsCheck) {
  Checked a = check_src(kFlat);
  EXPECT_TRUE(a.ok) << a.diags;
  EXPECT_FALSE(a.k.rows);
  EXPECT_EQ(a.k.op_type, "ScaleAddCustom");
  EXPECT_EQ(a.k.kernel_symbol, "scale_add_custom");
  Checked b = check_src(kRows);
  EXPECT_TRUE(b.ok) << b.diags;
  EXPECT_TRUE(b.k.rows);
}

// One program per diagnostic: the message and where it points.
TEST(TileSema, EveryDiagnostic) {
  struct Case {
    std::string src;
    const char* where;     // "line:col"
    const char* message;   // substring of the message
    const char* hint;      // substring of the hint ("" = not checked)
  };
  const std::string head = "kernel k(x: T[*n]) -> (y: T[*n]):\n    dtype T in (f32, f16)\n";
  const std::vector<Case> cases = {
      {"kernel k(x: T[*n]) -> (y: T[*n]):\n    dtype T in (f32, f17)\n    for t in tiles(n):\n        store(y[t], load(x[t]))\n",
       "2:22", "unknown dtype 'f17'", "did you mean 'f16'?"},
      {"kernel k(x: U[*n]) -> (y: U[*n]):\n    dtype T in (f32)\n    for t in tiles(n):\n        store(y[t], load(x[t]))\n",
       "1:13", "unknown dtype or dtype variable 'U'", ""},
      {"kernel K(x: f32[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        store(y[t], load(x[t]))\n", "1:8",
       "is not snake_case", ""},
      {"kernel k(x: f32[*n], a: f32) -> (y: f32[*n]):\n    for t in tiles(n):\n        store(y[t], load(x[t]))\n",
       "1:22", "attr 'a' has no default value", "a: f32 = 0"},
      {"kernel k(x: f32[*n]) -> (y: f32[*m]):\n    for t in tiles(n):\n        store(y[t], load(x[t]))\n", "1:33",
       "dim 'm' of output 'y' is not a dim of any input", ""},
      {"kernel k(x: f32[*n, *m]) -> (y: f32[*n, *m]):\n    for t in tiles(n):\n        pass\n", "1:10",
       "has 2 starred dims", ""},
      {head + "    for t in tiles(q):\n        store(y[t], load(x[t]))\n", "3:20", "'q' is not a dim of any input", ""},
      {head + "    for t in tiles(n, buffers=9):\n        store(y[t], load(x[t]))\n", "3:31", "buffers= is the queue depth", ""},
      {head + "    for t in tiles(n, tiel=4):\n        store(y[t], load(x[t]))\n", "3:23", "tiles() has no argument 'tiel'", ""},
      {head + "    v = 1.0\n", "1:1", "the kernel has no tiles loop", ""},
      {head + "    for t in tiles(n):\n        store(y[t], sigmod(load(x[t])))\n", "4:21", "unknown function 'sigmod'",
       "did you mean 'sigmoid'?"},
      {head + "    for t in tiles(n):\n        store(y[t], exp(load(w[t])))\n", "4:30", "'w' is not a tensor of the kernel", ""},
      {head + "    for t in tiles(n):\n        store(x[t], load(x[t]))\n", "4:15", "'x' is an input; store() writes outputs", ""},
      {head + "    for t in tiles(n):\n        v = load(x[t])\n        v = v + 1.0\n        store(y[t], v)\n", "5:9",
       "'v' is assigned twice", ""},
      {head + "    for t in tiles(n):\n        store(y[t], load(x[t]) + vv)\n", "4:34", "unknown name 'vv'", ""},
      {head + "    for t in tiles(n):\n        v = load(x[t])\n", "1:24", "output 'y' is never stored", ""},
      {"kernel k(x: T[*n]) -> (y: T[*n]):\n    dtype T in (f32, bf16)\n    for t in tiles(n):\n        store(y[t], exp(load(x[t])))\n",
       "4:21", "exp() has no bf16 form on the vector unit (column T = bf16)", "load(x[...], f32)"},
      {head + "    for t in tiles(n):\n        store(y[t], load(x[t], f32) + load(x[t]))\n", "4:21",
       "operands of 'load(x[t], f32) + load(x[t])' have dtypes f32 and T", "cast("},
      {"kernel k(x: f32[*m, n]) -> (y: f32[*m, n]):\n    for r in tiles(m):\n        store(y[r, :], sum(load(x[r]), axis=1))\n",
       "3:33", "index a row program's tensor as x[r, :]", ""},
      {"kernel k(x: f32[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        store(y[t], sum(load(x[t]), axis=1))\n", "3:25",
       "reduces a row tile", "flat programs have no rows"},
      {"kernel k(x: f32[*m, n]) -> (y: f32[*m, n]):\n    for r in tiles(m):\n        v = load(x[r, :])\n        store(y[r, :], sum(v, axis=0))\n",
       "4:28", "sum(..., axis=0) reduces over the axis r of a slab [r, cols]; this is a rows tile", "r @ dim"},
      {"kernel k(x: f32[*m, n]) -> (y: f32[*m, n]):\n    for r in tiles(m):\n        v = load(x[r, :])\n        store(y[r, :], sum(v, axis=2))\n",
       "4:36", "axis= is 1 (along each row of a row tile; over the positions of a slab) or 0 (over the axis r of a slab)", ""},
      {"kernel k(x: f32[*m, n]) -> (y: f32[*m, n]):\n    for r in tiles(m):\n        v = load(x[r, :])\n        store(y[r, :], sum(v, axis=1))\n",
       "4:24", "storing a col value into y[...] which takes a rows tile", ""},
      {head + "    for t in tiles(n):\n        v = load(x[t])\n        store(y[t], v > 0.0)\n", "5:21",
       "storing a comparison result", "where(mask, 1.0, 0.0)"},
      {head + "    for t in tiles(n):\n        v = load(x[t])\n        store(y[t], where(v, v, 0.0))\n", "5:27",
       "where()'s first argument must be a comparison", ""},
      {head + "    for t in tiles(n):\n        v = load(x[t])\n        store(y[t], v ** 1.7)\n", "5:26",
       "a tile's power must be 2, 3 or 0.5", ""},
      {head + "    for t in tiles(n):\n        store(y[t], load(x[t]))\n    v = 1.0\n", "5:5", "a statement after the tiles loop", ""},
      {head + "    for t in tiles(n):\n        acc += load(x[t])\n        store(y[t], load(x[t]))\n", "4:9",
       "'acc' is not an accumulator", "acc = 0.0"},
      {"kernel k(x: f32[*n]) -> (y: f32):\n    acc = 0.0\n    for t in tiles(n):\n        acc += load(x[t])\n    store(y, acc)\n",
       "4:16", "an accumulator adds whole sums", "acc += sum(v)"},
      {"kernel k(x: T[*n]) -> (y: T):\n    dtype T in (f32, f16)\n    acc = 0.0\n    for t in tiles(n):\n        acc += sum(load(x[t]))\n    store(y, acc)\n",
       "5:20", "accumulators are float32; this value is T", "load(x[...], f32)"},
      {"kernel k(x: f32[*n]) -> (y: f32[*n]):\n    acc = 0.0\n    for t in tiles(n):\n        acc += sum(load(x[t]))\n        store(y[t], load(x[t]))\n    store(y, acc)\n",
       "6:11", "'y' is not a 0-dim output", "declare it without dims"},
      {head + "    for t in tiles(n):\n        for u in tiles(n):\n            pass\n        store(y[t], load(x[t]))\n", "4:9",
       "nested tiles loops are not supported", ""},
  };
  for (const Case& c : cases) {
    Checked r = check_src(c.src);
    EXPECT_FALSE(r.ok) << c.src;
    EXPECT_TRUE(contains(r.diags, std::string("t.tile:") + c.where + ": error: ")) << c.where << "\n" << r.diags;
    EXPECT_TRUE(contains(r.diags, c.message)) << c.message << "\n" << r.diags;
    if (*c.hint) EXPECT_TRUE(contains(r.diags, std::string("hint: ")) && contains(r.diags, c.hint)) << c.hint << "\n" << r.diags;
  }
}

TEST(TileSema, SeveralErrorsInOneRun) {
  Checked r = check_src("kernel k(x: f32[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        a = exq(load(x[t]))\n"
                        "        b = load(x[t]) + zz\n        store(y[t], load(q[t]))\n");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diags, "t.tile:3:13")) << r.diags;
  EXPECT_TRUE(contains(r.diags, "t.tile:4:26")) << r.diags;
  EXPECT_TRUE(contains(r.diags, "t.tile:5:26")) << r.diags;
}

TEST(TilePasses, CheckLowersToOneInstructionPerOperation) {
  const std::string ir = ir_after(kFlat, "check");
  EXPECT_TRUE(contains(ir, "loop t in tiles(n) over elements, queues of depth 2, tile=auto")) << ir;
  EXPECT_TRUE(contains(ir, "%0(a): flat f32 = load x")) << ir;
  EXPECT_TRUE(contains(ir, "%1(b): flat f32 = load y")) << ir;
  EXPECT_TRUE(contains(ir, "%2: flat f32 = scalar.mul %0(a) {alpha_}")) << ir;
  EXPECT_TRUE(contains(ir, "%3: flat f32 = binary.add %2 %1(b)")) << ir;
  EXPECT_TRUE(contains(ir, "store z %3")) << ir;
  EXPECT_FALSE(contains(ir, "buffers:")) << "no buffers before plan_buffers\n" << ir;
  const std::string rows = ir_after(kRows, "check");
  EXPECT_TRUE(contains(rows, "%1: col f32 = reduce.max %0(v)")) << rows;
  EXPECT_TRUE(contains(rows, "%2: rows f32 = row_bcast.sub %0(v) %1")) << rows;
  EXPECT_TRUE(contains(rows, "%5: rows f32 = row_bcast.div %3(e) %4")) << rows;
}

TEST(TilePasses, PlanBuffersQueuesConversionsAndReuse) {
  const std::string ir = ir_after(kFlat, "plan_buffers");
  // One in-queue per input, one out-queue per output; f32 conversions only in the f16 column; the stored value is
  // computed straight into the out-queue where T is f32.
  EXPECT_TRUE(contains(ir, "xIn in-queue flat T depth 2")) << ir;
  EXPECT_TRUE(contains(ir, "yIn in-queue flat T depth 2")) << ir;
  EXPECT_TRUE(contains(ir, "zOut out-queue flat T depth 2")) << ir;
  EXPECT_TRUE(contains(ir, "xF32 temp flat f32 (only where T != f32)")) << ir;
  EXPECT_TRUE(contains(ir, "-> zResult (via zOut)")) << ir;
  // Softmax: max -> tmp, sub -> tmp, exp reuses nothing still live, the column buffers are shared.
  const std::string rows = ir_after(kRows, "plan_buffers");
  EXPECT_TRUE(contains(rows, "%1: col f32 = reduce.max %0(v)    -> tmp0")) << rows;
  EXPECT_TRUE(contains(rows, "%4: col f32 = reduce.sum %3(e)    -> tmp0")) << rows;   // tmp0 free again
  EXPECT_TRUE(contains(rows, "rowWork0 row-work col f32")) << rows;
}

TEST(TilePasses, AssignStagesPlacesQueueOperations) {
  const std::string ir = ir_after(kFlat, "assign_stages");
  EXPECT_TRUE(contains(ir, "copy-in: alloc xIn")) << ir;
  EXPECT_TRUE(contains(ir, "compute: free xIn after body[2]")) << ir;   // last reader: a * alpha
  EXPECT_TRUE(contains(ir, "compute: free yIn after body[3]")) << ir;   // last reader: + b
  EXPECT_TRUE(contains(ir, "compute: alloc zOut after body[2]")) << ir; // before its writer, body[3]
  EXPECT_TRUE(contains(ir, "compute: enque zOut after body[4]")) << ir;
  EXPECT_TRUE(contains(ir, "copy-out: free zOut")) << ir;
}

TEST(TilePasses, SizeTilesAndSplitCores) {
  const std::string ir = ir_after(kRows, "split_cores");
  EXPECT_TRUE(contains(ir, "xIn in-queue rows T depth 2   ub: depth * rowBytes(sizeT) per unit + 512 * depth fixed")) << ir;
  EXPECT_TRUE(contains(ir, "(dtT != ge::DT_FLOAT ? 1 : 0) * rowBytes(4) per unit")) << ir;
  EXPECT_TRUE(contains(ir, "uint64_t total = total   // the loop's extent: rows in all")) << ir;
  EXPECT_TRUE(contains(ir, "uint32_t n = d_n   // length of a row (elements)")) << ir;
  EXPECT_TRUE(contains(ir, "uint32_t tileUnits = tileUnits")) << ir;
  const std::string flat = ir_after(kFlat, "split_cores");
  EXPECT_TRUE(contains(flat, "float alpha = attr_alpha   // attr alpha")) << flat;
}

TEST(TilePasses, AccumulatorsAndEpilogue) {
  const std::string src = R"(kernel sq_mean(x: T[*n]) -> (loss: T):
    dtype T in (f32, f16)
    total = 0.0
    for t in tiles(n):
        v = load(x[t], f32)
        total += sum(v * v)
    store(loss, total / n)
)";
  const std::string ir = ir_after(src, "plan_buffers");
  EXPECT_TRUE(contains(ir, "%2(total): flat f32 = accumulate.add %1    -> accTotal")) << ir;
  EXPECT_TRUE(contains(ir, "epilogue (after the loop, on core 0")) << ir;
  EXPECT_TRUE(contains(ir, "%3: flat f32 = combine.sum %2(total)    -> fin3")) << ir;
  EXPECT_TRUE(contains(ir, "store loss %4")) << ir;
  EXPECT_TRUE(contains(ir, "partials partials scalar f32")) << ir;
  Diags d("s.tile", &src);
  CompileResult r = compile_program("s.tile", src, {}, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  const std::string& kernel = r.files["op_kernel/sq_mean_custom.cpp"];
  EXPECT_TRUE(contains(kernel, "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);")) << kernel;
  EXPECT_TRUE(contains(kernel, "AscendC::SyncAll();")) << kernel;
  EXPECT_TRUE(contains(kernel, "if (AscendC::GetBlockIdx() == 0) Epilogue();")) << kernel;
  EXPECT_TRUE(contains(r.files["op_host/sq_mean_custom.cpp"], "workspace[0] = 1 * blockDim * 32;"));
  EXPECT_TRUE(contains(r.files["op_host/sq_mean_custom.cpp"], "out->SetDimNum(0);"));   // a 0-dim output
}

TEST(TilePasses, PlanChunksForLongRows) {
  // softmax: pass 0 accumulates the max, pass 1 the sum of exp(v - max), pass 2 writes the output.
  const std::string ir = ir_after(kRows, "plan_chunks");
  EXPECT_TRUE(contains(ir, "long rows: 3 pass(es) over chunks of columns")) << ir;
  EXPECT_TRUE(contains(ir, "pass 0: per chunk body[0], body[1]\n")) << ir;
  EXPECT_TRUE(contains(ir, "pass 1: per chunk body[0], body[2], body[3], body[4]\n")) << ir;
  EXPECT_TRUE(contains(ir, "pass 2: per chunk body[0], body[2], body[3], body[5], body[6]\n")) << ir;
  // A flat program never needs chunks; the emitted row kernel has the chunked path and the host chooses it.
  EXPECT_FALSE(contains(ir_after(kFlat, "plan_chunks"), "long rows")) << "flat";
  const std::string src = kRows;
  Diags d("s.tile", &src);
  CompileResult r = compile_program("s.tile", src, {}, d);
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(contains(r.files["op_kernel/softmax_custom.cpp"], "ProcessChunked()"));
  EXPECT_TRUE(contains(r.files["op_host/softmax_custom.cpp"], "uint64_t chunk = 0;"));
  EXPECT_TRUE(contains(r.files["op_host/softmax_custom_tiling.h"], "TILING_DATA_FIELD_DEF(uint32_t, chunk);"));
}

TEST(TileEmit, OpProjectFilesAndOpDef) {
  const std::string src = kRows;
  Diags d("softmax.tile", &src);
  CompileResult r = compile_program("softmax.tile", src, {}, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  for (const char* f : {"op_kernel/softmax_custom.cpp", "op_kernel/kgen_tile.h", "op_host/softmax_custom.cpp",
                        "op_host/softmax_custom_tiling.h", "softmax_custom.json"})
    EXPECT_TRUE(r.files.count(f)) << f;
  const std::string& host = r.files["op_host/softmax_custom.cpp"];
  EXPECT_TRUE(contains(host, ".DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})")) << host;
  EXPECT_TRUE(contains(host, "OP_ADD(SoftmaxCustom);")) << host;
  EXPECT_TRUE(contains(host, "context->SetBlockDim(")) << host;
  const std::string& kernel = r.files["op_kernel/softmax_custom.cpp"];
  EXPECT_TRUE(contains(kernel, "extern \"C\" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR "
                               "workspace, GM_ADDR tiling)"))
      << kernel;
  EXPECT_TRUE(contains(kernel, "KernelSoftmax<DTYPE_X> op;")) << kernel;
  EXPECT_TRUE(contains(kernel, "// e / sum(e, axis=1)")) << kernel;   // a comment per stage line
  const std::string& tiling = r.files["op_host/softmax_custom_tiling.h"];
  EXPECT_TRUE(contains(tiling, "BEGIN_TILING_DATA_DEF(SoftmaxCustomTilingData)")) << tiling;
  // The MultiKernelBench form carries the helpers inline and a ModelNew.
  const std::string mkb = mkb_submission(r);
  for (const char* s : {"project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src",
                        "model_src", "EXEC_NPU_CMD(aclnnSoftmaxCustom, x, y);", "class ModelNew"})
    EXPECT_TRUE(contains(mkb, s)) << s;
  EXPECT_FALSE(contains(mkb, "#include \"kgen_tile.h\"")) << "helpers must be inline";
}

TEST(TileEmit, BoolAttrTravelsAsUint8) {
  // CANN's tiling fields are integers or float (tilingdata_base.h refuses bool).
  const std::string src = "kernel flagged(x: f32[*n], flag: bool = true) -> (y: f32[*n]):\n    for t in tiles(n):\n"
                          "        store(y[t], load(x[t]) * flag)\n";
  Diags d("f.tile", &src);
  CompileResult r = compile_program("f.tile", src, {}, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  EXPECT_TRUE(contains(r.files["op_host/flagged_custom_tiling.h"], "TILING_DATA_FIELD_DEF(uint8_t, flag);"));
  EXPECT_TRUE(contains(r.files["op_host/flagged_custom.cpp"], ".Bool(true);"));
}

TEST(TileEmit, Deterministic) {
  const std::string src = kFlat;
  Diags d1("a.tile", &src), d2("a.tile", &src);
  CompileResult a = compile_program("a.tile", src, {}, d1), b = compile_program("a.tile", src, {}, d2);
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(a.files, b.files);
}

// Axis programs: x: T[*outer, r @ dim, *inner] reduced over the axis an attr picks at run time.
TEST(TileSema, AxisProgramChecks) {
  Checked a = check_src(kAxis);
  ASSERT_TRUE(a.ok) << a.diags;
  EXPECT_TRUE(a.k.axis);
  EXPECT_FALSE(a.k.rows);
  EXPECT_EQ(a.k.attrs[a.k.axis_attr].name, "dim");
  EXPECT_EQ(a.k.syms[a.k.axis_sym].name, "r");
  EXPECT_EQ(a.k.syms[a.k.outer_sym].part, 0);
  EXPECT_EQ(a.k.syms[a.k.inner_sym].part, 2);
}

TEST(TileSema, AxisDiagnostics) {
  struct Case {
    std::string src;
    const char* where;
    const char* message;
    const char* hint;
  };
  const std::string sig = "kernel k(x: f32[*o, r @ dim, *i], dim: i32 = 1) -> (y: f32[*o, *i]):\n";
  const std::vector<Case> cases = {
      {"kernel k(x: f32[*o, r @ dim, s @ dim], dim: i32 = 1) -> (y: f32[*o]):\n    pass\n", "1:34",
       "tensor 'x' has two axis markers", "one axis per view"},
      {"kernel k(x: f32[o, r @ dim, *i], dim: i32 = 1) -> (y: f32[o, *i]):\n    pass\n", "1:20",
       "an axis marker needs the dims on both sides of it", "*outer and *inner"},
      {"kernel k(x: f32[*o, r @ dmi, *i], dim: i32 = 1) -> (y: f32[*o, *i]):\n    pass\n", "1:25",
       "'dmi' is not an attr of the kernel", "r @ dmi"},
      {"kernel k(x: f32[*o, r @ dim, *i], dim: f32 = 1) -> (y: f32[*o, *i]):\n    pass\n", "1:25",
       "attr 'dim' is not an i32", ""},
      {"kernel k(x: f32[*o, r @ dim, *i], dim: i32 = 1) -> (y: f32[*o, r]):\n    pass\n", "1:64",
       "the axis 'r' in output 'y'", "T[*outer, 1, *inner]"},
      {"kernel k(x: f32[*o, r @ dim, *i], dim: i32 = 1) -> (y: f32[*i, *o]):\n    pass\n", "1:53",
       "output 'y' of an axis view must be [*outer, 1, *inner], [*outer, *inner] or [*outer, K, *inner]", ""},
      {sig + "    for c in tiles(o):\n        pass\n", "2:20", "'o' is a dim of the axis view 'x'", "tiles(o, i)"},
      {sig + "    for c in tiles(i, o):\n        pass\n", "2:14", "tiles(a, b) iterates over the positions around an axis",
       "tiles(o, i)"},
      {sig + "    for c in tiles(o, i):\n        store(y[c], sum(load(x[c]), axis=0))\n", "3:30",
       "'x[c]' takes one value per position", "load(x[:, c])"},
      {sig + "    for c in tiles(o, i):\n        store(y[c], sum(load(x[:, c]), axis=1))\n", "3:21",
       "storing a slab value into y[...] which takes a flat tile", "sum(v, axis=0) (axis=1 reduces over the positions"},
      {sig + "    for c in tiles(o, i):\n        store(y[c], load(x[:, c]))\n", "3:21",
       "storing a slab value into y[...] which takes a flat tile", ""},
      {"kernel k(x: f32[*o, r @ dim, *i], z: f32[*o, 2], dim: i32 = 1) -> (y: f32[*o, *i]):\n    pass\n", "1:42",
       "'o' is a dim of the axis view 'x', found at run time from its attr", "per outer index: z: f32[*o]"},
      // a position's value repeats along r when it meets the slab: the sum is a slab, which y[c] does not take
      {sig + "    for c in tiles(o, i):\n        v = load(x[:, c])\n        store(y[c], sum(v, axis=0) + v)\n", "4:21",
       "storing a slab value into y[...] which takes a flat tile", ""},
      {"kernel k(x: f32[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        store(y[t], prod(load(x[t]), axis=1))\n",
       "3:43", "prod() reduces a slab over its axis r only", "prod(v, axis=0)"},
      {"kernel k(x: T[*o, r @ dim, *i], dim: i32 = 1) -> (y: T[*o, *i]):\n    dtype T in (f32, i32)\n"
       "    for c in tiles(o, i):\n        store(y[c], mean(load(x[:, c]), axis=0))\n",
       "4:21", "mean() has no i32 form on the vector unit (column T = i32)", "load(x[...], f32)"},
      {"kernel k(x: f32[*o, r @ dim, *i], dim: i32 = 1) -> (y: f32):\n    acc = 0.0\n    for c in tiles(o, i):\n"
       "        acc += sum(load(x[:, c]))\n    store(y, acc)\n",
       "4:9", "accumulators are not supported in axis programs", "flat program"},
  };
  for (const Case& c : cases) {
    Checked r = check_src(c.src);
    EXPECT_FALSE(r.ok) << c.src;
    EXPECT_TRUE(contains(r.diags, std::string("t.tile:") + c.where + ": error: ")) << c.where << "\n" << r.diags;
    EXPECT_TRUE(contains(r.diags, c.message)) << c.message << "\n" << r.diags;
    if (*c.hint) EXPECT_TRUE(contains(r.diags, std::string("hint: ")) && contains(r.diags, c.hint)) << c.hint << "\n" << r.diags;
  }
}

// A value whose definition has an error is reported there only: its later uses say nothing more (before: "unknown
// name 'v'" at every use).
TEST(TileSema, AFailedDefinitionIsReportedOnce) {
  Checked r = check_src("kernel k(x: f32[*n]) -> (y: f32[*n]):\n    for t in tiles(n):\n        v = sigmod(load(x[t]))\n"
                        "        w = v * 2.0\n        store(y[t], w + v)\n");
  EXPECT_FALSE(r.ok);
  size_t errors = 0;
  for (size_t at = r.diags.find(": error: "); at != std::string::npos; at = r.diags.find(": error: ", at + 1)) ++errors;
  EXPECT_EQ(errors, 1u) << r.diags;
  EXPECT_TRUE(contains(r.diags, "t.tile:3:13: error: unknown function 'sigmod'")) << r.diags;
}

// A hint that proposes a declaration ("declare it as z: f32[...]", "z: f32[...]") is taken at its word: the
// declaration put in the program's header removes the error (before: "[*o, 1, *i]" was refused with "2 starred
// dims", and a chunk view's hint named its axis "chunk_count @ dim", a dim no program can write).
TEST(TileSema, DeclarationHintsAreAccepted) {
  const std::string head = "kernel k(x: f32[*o, r @ dim, *i], z: f32[n], dim: i32 = 1) -> (y: f32[*o, *i]):\n"
                           "    for c in tiles(o, i):\n";
  const std::string chunk = "kernel k(x: f32[*o, 2 @ dim, *i], z: f32[n], dim: i32 = -1) -> (y: f32[*o, *i]):\n"
                            "    for c in tiles(o, i):\n";
  const std::string pos = "        store(y[c], sum(load(x[:, c]), axis=0) + load(z[c]))\n";
  const std::string slab = "        store(y[c], sum(load(x[:, c]) * load(z[:, c]), axis=0))\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {head + pos, "declare it as z: "}, {chunk + pos, "declare it as z: "}, {head + slab, "declare it as z: "},
      {chunk + slab, "declare it as z: "},
      {"kernel k(x: f32[*o, r @ dim, *i], z: f32[*o, 2], dim: i32 = 1) -> (y: f32[*o, *i]):\n"
       "    for c in tiles(o, i):\n        store(y[c], sum(load(x[:, c]), axis=0))\n", "one value per position: z: "},
      {"kernel k(x: f32[*o, r @ dim, *i], z: f32[*o, 2], dim: i32 = 1) -> (y: f32[*o, *i]):\n"
       "    for c in tiles(o, i):\n        store(y[c], sum(load(x[:, c]), axis=0))\n", "per inner index: z: "},
  };
  for (const auto& [src, lead] : cases) {
    Checked bad = check_src(src);
    ASSERT_FALSE(bad.ok) << src;
    const size_t at = bad.diags.find(lead);
    ASSERT_NE(at, std::string::npos) << lead << "\n" << bad.diags;
    const size_t from = at + lead.size() - 3, to = bad.diags.find(']', from);   // "z: f32[...]"
    const std::string decl = bad.diags.substr(from, to + 1 - from);
    std::string fixed = src;
    const size_t d = fixed.find("z: f32[");
    fixed.replace(d, fixed.find(']', d) + 1 - d, decl);
    Checked good = check_src(fixed);
    EXPECT_TRUE(good.ok) << "the hint's " << decl << " is refused:\n" << fixed << good.diags;
  }
}

TEST(TilePasses, AxisProgramLowering) {
  // check: the slab and its reduction to the positions
  const std::string ir = ir_after(kAxis, "check");
  EXPECT_TRUE(contains(ir, "input x: T[*outer, r @ dim, *inner]")) << ir;
  EXPECT_TRUE(contains(ir, "dim r = the axis (dim) of x")) << ir;
  EXPECT_TRUE(contains(ir, "loop c in tiles(outer, inner): the positions of outer x inner, each reduced over r")) << ir;
  EXPECT_TRUE(contains(ir, "%0(v): slab T = load x")) << ir;
  EXPECT_TRUE(contains(ir, "%1: flat T = reduce.sum %0(v)")) << ir;
  EXPECT_TRUE(contains(ir, "%2: flat T = scalar.mul %1 {2}")) << ir;
  EXPECT_FALSE(contains(ir, "buffers:")) << ir;
  // plan_buffers: a slab in-queue, a flat out-queue, the reduction's scratch
  const std::string pb = ir_after(kAxis, "plan_buffers");
  EXPECT_TRUE(contains(pb, "xIn in-queue slab T depth 2")) << pb;
  EXPECT_TRUE(contains(pb, "yOut out-queue flat T depth 2")) << pb;
  EXPECT_TRUE(contains(pb, "axisWork0 axis-work slab T")) << pb;
  EXPECT_FALSE(contains(pb, "rowWork")) << pb;
  // size_tiles: the work's bytes depend on the mode; int32 rows transpose (no WholeReduce for int32)
  const std::string st = ir_after(kAxis, "size_tiles");
  EXPECT_TRUE(contains(st, "xIn in-queue slab T depth 2   ub: depth * rowBytes(sizeT) per unit")) << st;
  EXPECT_TRUE(contains(st, "axisWorkBytes(sizeT, (dtT == ge::DT_INT32)) per unit")) << st;
  // split_cores: work items and the view's dims
  const std::string sc = ir_after(kAxis, "split_cores");
  EXPECT_TRUE(contains(sc, "uint32_t chunks = chunks")) << sc;
  EXPECT_TRUE(contains(sc, "uint64_t r = d_r   // dim r")) << sc;
  EXPECT_TRUE(contains(sc, "uint64_t inner = d_inner   // dim inner")) << sc;
  EXPECT_TRUE(contains(sc, "int64_t dim = attr_dim   // attr dim")) << sc;
  EXPECT_FALSE(contains(sc, "long rows")) << sc;
}

// A position's value (a reduction over r) combined with the slab repeats along r: softmax over a chosen dim. The
// flat operand comes second whatever the source order (flat - slab = -slab + flat), and the axis work is planned.
TEST(TilePasses, AxisSlabBroadcast) {
  const char* src = R"(kernel softmin_dim(x: T[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: T[*outer, r, *inner]):
    dtype T in (f32, f16)
    for c in tiles(outer, inner):
        v = load(x[:, c], f32)
        e = exp(min(v, axis=0) - v)
        store(y[:, c], e / sum(e, axis=0))
)";
  const std::string ir = ir_after(src, "check");
  EXPECT_TRUE(contains(ir, "%1: flat f32 = reduce.min %0(v)")) << ir;
  EXPECT_TRUE(contains(ir, "%2: slab f32 = scalar.mul %0(v) {-1.0}")) << ir;
  EXPECT_TRUE(contains(ir, "%3: slab f32 = slab_bcast.add %2 %1")) << ir;
  EXPECT_TRUE(contains(ir, "slab f32 = slab_bcast.div %4(e) %5")) << ir;
  const std::string pb = ir_after(src, "plan_buffers");
  EXPECT_TRUE(contains(pb, "axisWork0 axis-work slab f32")) << pb;
  const std::string text = src;
  Diags d("s.tile", &text);
  CompileResult r = compile_program("s.tile", text, {}, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  const std::string& kernel = r.files["op_kernel/softmin_dim_custom.cpp"];
  EXPECT_TRUE(contains(kernel, "kt::SlabDiv(")) << kernel;
  EXPECT_TRUE(contains(kernel, "rowMode_, units, r_, npad_, tileUnits_);")) << kernel;
}

// Inputs shaped by the view's dims: one value per position ([*o, 1, *i], before: "2 starred dims"), per outer index
// ([*o]: filled from one GM element in column mode) and per inner index ([*i]); the host checks each shape.
TEST(TileEmit, AxisInputsShapedByTheView) {
  const std::string src = R"(kernel k(x: f32[*o, r @ dim, *i], z: f32[*o, 1, *i], n: i32[*o], w: f32[*i], dim: i32 = 1) -> (y: f32[*o, *i]):
    for c in tiles(o, i):
        v = load(x[:, c]) * load(w[c])
        store(y[c], sum(v, axis=0) / load(n[c], f32) + load(z[c]))
)";
  Diags d("s.tile", &src);
  CompileResult r = compile_program("s.tile", src, {}, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  const std::string& kernel = r.files["op_kernel/k_custom.cpp"];
  EXPECT_TRUE(contains(kernel, "kt::LoadFlat(zIn, zGm_[posOff], units);")) << kernel;
  EXPECT_TRUE(contains(kernel, "else kt::FillFlat(nIn, nGm_.GetValue(posOff / i_), units);")) << kernel;
  EXPECT_TRUE(contains(kernel, "else kt::LoadFlat(wIn, wGm_[posOff % i_], units);")) << kernel;
  EXPECT_TRUE(contains(kernel, "nGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(n) + 0, o_);")) << kernel;
  const std::string& host = r.files["op_host/k_custom.cpp"];
  EXPECT_TRUE(contains(host, "input z must have x's shape without its dim `dim` (or 1 there)")) << host;
  EXPECT_TRUE(contains(host, "input n must have x's dims before its dim `dim`")) << host;
  EXPECT_TRUE(contains(host, "input w must have x's dims after its dim `dim`")) << host;
}

TEST(TileEmit, AxisOpProject) {
  const std::string src = kAxis;
  Diags d("s.tile", &src);
  CompileResult r = compile_program("s.tile", src, {}, d);
  ASSERT_TRUE(r.ok) << d.render(false);
  const std::string& kernel = r.files["op_kernel/sum_dim_custom.cpp"];
  // both paths, picked at run time from the tiling
  EXPECT_TRUE(contains(kernel, "rowMode_ = inner_ == 1;")) << kernel;
  // a slab tile holds axisRows_ rows of the axis: all r_ of them, or (column mode, an axis too long for UB) a chunk
  EXPECT_TRUE(contains(kernel, "axisRows_ = r_;")) << kernel;
  EXPECT_TRUE(contains(kernel, "if (!rowMode_ && axisChunk_ > 0) axisRows_ = axisChunk_;")) << kernel;
  EXPECT_TRUE(contains(kernel, "if (rowMode_) kt::LoadRows(xIn, xGm_[slabOff], units, axisRows_, npad_);")) << kernel;
  EXPECT_TRUE(contains(kernel, "else kt::LoadCols(xIn, xGm_[slabOff], axisRows_, units, inner_, tileUnits_);")) << kernel;
  EXPECT_TRUE(contains(kernel, "if (rowMode_) kt::RowSum(")) << kernel;
  EXPECT_TRUE(contains(kernel, "else kt::ColSum(")) << kernel;
  EXPECT_TRUE(contains(kernel, "kt::AxisWorkBytes<T>(rowMode_, std::is_same<T, int32_t>::value, tileUnits_, axisRows_, "
                               "npad_)"))
      << kernel;
  // the chunks: each one's partial folded into the running sum (the first copied), the positions' work after the last
  EXPECT_TRUE(contains(kernel, "CopyIn(slabOff + r0 * inner_, posOff, units);")) << kernel;
  EXPECT_TRUE(contains(kernel, "ComputeChunk(units, r0 == 0);")) << kernel;
  EXPECT_TRUE(contains(kernel, "else AscendC::Add(axAcc")) << kernel;
  EXPECT_TRUE(contains(kernel, "ComputeFinish(units);")) << kernel;
  EXPECT_TRUE(contains(r.files["op_host/sum_dim_custom.cpp"], "if (!rowMode && tileUnits < 16) {"));
  const std::string& host = r.files["op_host/sum_dim_custom.cpp"];
  EXPECT_TRUE(contains(host, "const int64_t axis = *axisAttr < 0 ? *axisAttr + axisRank : *axisAttr;")) << host;
  EXPECT_TRUE(contains(host, "dim = %lld is out of range for x with %lld dims")) << host;
  EXPECT_TRUE(contains(host, "const bool rowMode = d_inner == 1;")) << host;
  EXPECT_TRUE(contains(host, "out->AppendDim(d == axis ? 1 : xs->GetDim(d));   // keepdim")) << host;
  EXPECT_TRUE(contains(host, ".DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})")) << host;
  EXPECT_TRUE(contains(host, "this->Attr(\"dim\").AttrType(OPTIONAL).Int(1);")) << host;
}

// A whole [n] vector loaded inside the tiles loop is the same for every tile: it is read once per core before the
// loop (a resident value), not at the tile's row offset (which read past the vector's end: a GM bounds error).
TEST(TilePasses, VectorLoadedInTheLoopIsResident) {
  const std::string src = "kernel rms(x: T[*m, n], g: T[n]) -> (y: T[*m, n]):\n"
                          "    dtype T in (f32, f16)\n"
                          "    for r in tiles(m):\n"
                          "        v = load(x[r, :], f32)\n"
                          "        store(y[r, :], v * rsqrt(mean(v * v, axis=1) + 1e-6) * load(g[:], f32))\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_EQ(c.r.kernel.prologue.size(), 1u);
  EXPECT_EQ(c.r.kernel.prologue[0].op, Op::Load);
  const std::string& kern = c.r.files.at("op_kernel/rms_custom.cpp");
  EXPECT_TRUE(contains(kern, "gGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g) + 0, n_);")) << kern;
  EXPECT_FALSE(contains(kern, "gGm_[uint64_t(i) * tileUnits_ * n_]")) << kern;
}
