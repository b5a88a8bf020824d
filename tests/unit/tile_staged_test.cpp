// Staged programs (src/tile/sema_staged.cpp, emit_staged.cpp): several cube stages in one kernel, joined by GM
// workspaces and sync(): the checks and the IR, the emitted stages, and every misuse's diagnostic. The projects are
// run against PyTorch by `kgen eval` (kernels/arch/mlp_block.tile, swiglu_mlp.tile).
#include <gtest/gtest.h>

#include <string>

#include "tile_test_util.h"
#include "tile/compile.h"
#include "tile/staged.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;

namespace {
const std::string kHeader =
    "kernel mlp(x: T[*m, d], w1: T[h, d], b1: T[h], w2: T[d, h], b2: T[d]) -> (y: T[*m, d]):\n"
    "    dtype T in (f32, f16)\n";
const std::string kDecl = "    hid = workspace(T[m, h])\n";
const std::string kStage0 =
    "    for blk in blocks(m, h):\n        acc = zeros(f32)\n        for kt in tiles(d):\n"
    "            acc += mma(x[blk, kt], w1[blk, kt])\n        store(hid[blk], gelu(acc + load(b1[blk])))\n";
const std::string kSync = "    sync()\n";
const std::string kStage1 =
    "    for blk in blocks(m, d):\n        acc = zeros(f32)\n        for kt in tiles(h):\n"
    "            acc += mma(hid[blk, kt], w2[blk, kt])\n        store(y[blk], acc + load(b2[blk]))\n";

std::string file_ending(const CompileResult& r, const std::string& suffix) {
  for (const auto& [path, text] : r.files)
    if (path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        path.find("kgen_tile") == std::string::npos)
      return text;
  return "";
}

TEST(TileStaged, ChecksTheStages) {
  Checked c = check_src(kHeader + kDecl + kStage0 + kSync + kStage1);
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_TRUE(c.k.staged != nullptr);
  EXPECT_TRUE(c.k.cube);
  const StagedProgram& sp = *c.k.staged;
  ASSERT_EQ(sp.ws.size(), 1u);
  EXPECT_EQ(sp.ws[0].written_by, 0);
  EXPECT_EQ(sp.ws[0].read_by, 1);
  EXPECT_TRUE(sp.ws[0].dims[0].star);   // m is x's starred dims
  ASSERT_EQ(sp.stages.size(), 2u);
  EXPECT_EQ(sp.stages[0].stores_ws, 0);
  EXPECT_FALSE(sp.stages[0].sync_before);
  EXPECT_TRUE(sp.stages[1].sync_before);
  EXPECT_EQ(sp.stages[1].stores_ws, -1);
  ASSERT_EQ(sp.stages[1].reads_ws.size(), 1u);
  // Each stage is a cube program of its own: stage 1 reads the workspace as its A operand, w2 transposed.
  const Kernel& s1 = sp.stages[1].sub;
  EXPECT_EQ(s1.tensors[s1.mm.a].name, "hid");
  EXPECT_TRUE(s1.mm.trans_b);
  EXPECT_EQ(s1.tensors[s1.mm.c].name, "y");
  EXPECT_EQ(s1.op_type, "MlpStage1Custom");
  EXPECT_FALSE(sp.stages[0].sub.mm.epi.empty());   // bias + gelu on the vector cores
}

TEST(TileStaged, PrintsTheStages) {
  Compiled c = compile(kHeader + kDecl + kStage0 + kSync + kStage1);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "staged kernel mlp (MlpCustom): 2 stage(s)")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "workspace hid: [*m, h] (stored by stage 0, read by stage 1)")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "  sync (SyncAll)\n  stage 1 -> y:")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "acc += mma(hid, w2^T)")) << c.check_ir;
}

TEST(TileStaged, EmitsOneKernelWithAStagePerLoop) {
  Compiled c = compile(kHeader + kDecl + kStage0 + kSync + kStage1);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string kernel = file_ending(c.r, "op_kernel/mlp_custom.cpp");
  const std::string tiling = file_ending(c.r, "mlp_custom_tiling.h");
  const std::string host = file_ending(c.r, "op_host/mlp_custom.cpp");
  ASSERT_FALSE(kernel.empty());
  EXPECT_TRUE(contains(kernel, "class KernelMlpStage0 {"));
  EXPECT_TRUE(contains(kernel, "class KernelMlpStage1 {"));
  EXPECT_TRUE(contains(kernel, "#define DTYPE_HID DTYPE_X"));
  EXPECT_TRUE(contains(kernel, "GM_ADDR hid = user + tilingData.wsOffset0;"));
  EXPECT_TRUE(contains(kernel, "REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), stage0.mm, "
                               "&tilingData.stage0.cubeTiling, stage1.mm, &tilingData.stage1.cubeTiling);"));
  // the order: stage 0, the SyncAll, the UB re-planned, stage 1
  const size_t p0 = kernel.find("stage0.Process();"), ps = kernel.find("AscendC::SyncAll();"),
               pr = kernel.find("pipe.Reset();"), p1 = kernel.find("stage1.Init(w2, b2, hid, y, &pipe, tilingData.stage1);");
  ASSERT_NE(p1, std::string::npos) << kernel;
  EXPECT_TRUE(p0 < ps && ps < pr && pr < p1) << kernel;
  EXPECT_FALSE(contains(kernel, ">= tilingData.items) return;"));   // every core meets at the SyncAll
  EXPECT_TRUE(contains(tiling, "BEGIN_TILING_DATA_DEF(MlpStage0CustomTilingData)"));
  EXPECT_TRUE(contains(tiling, "REGISTER_TILING_DATA_CLASS(MlpStage1CustomTilingDataOp, MlpStage1CustomTilingData)"));
  EXPECT_TRUE(contains(tiling, "TILING_DATA_FIELD_DEF_STRUCT(MlpStage1CustomTilingData, stage1);"));
  EXPECT_TRUE(contains(host, "workspace[0] = platform.GetLibApiWorkSpaceSize() + wsBytes;"));
  EXPECT_TRUE(contains(host, "wsBytes += (d_m * d_h * ("));
  EXPECT_TRUE(contains(host, "tiling.stage1.cubeTiling.get_singleCoreM()"));
}

TEST(TileStaged, ThreeStagesWithAPlainLastStage) {
  const std::string src =
      "kernel sw(x: T[*m, d], wg: T[h, d], wu: T[h, d], wd: T[d, h]) -> (y: T[*m, d]):\n    dtype T in (f32, f16)\n"
      "    g = workspace(T[m, h])\n    a = workspace(T[m, h])\n"
      "    for blk in blocks(m, h):\n        acc = zeros(f32)\n        for kt in tiles(d):\n"
      "            acc += mma(x[blk, kt], wg[blk, kt])\n        store(g[blk], silu(acc))\n    sync()\n"
      "    for blk in blocks(m, h):\n        acc = zeros(f32)\n        for kt in tiles(d):\n"
      "            acc += mma(x[blk, kt], wu[blk, kt])\n        store(a[blk], acc * load(g[blk]))\n    sync()\n"
      "    for blk in blocks(m, d):\n        acc = zeros(f32)\n        for kt in tiles(h):\n"
      "            acc += mma(a[blk, kt], wd[blk, kt])\n        store(y[blk], acc)\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string kernel = file_ending(c.r, "op_kernel/sw_custom.cpp");
  EXPECT_TRUE(contains(kernel, "stage2.Init(a, wd, y, tilingData.stage2);"));   // the plain cube class: A, B, C
  EXPECT_TRUE(contains(kernel, "GM_ADDR a = user + tilingData.wsOffset1;"));
}

// --- misuse ---------------------------------------------------------------------------------------------------
TEST(TileStaged, WorkspaceStoredButNeverRead) {
  // the last stage reads x again instead of hid
  const std::string header =
      "kernel mlp(x: T[*m, d], w1: T[h, d], b1: T[h], w3: T[h, d]) -> (y: T[*m, h]):\n    dtype T in (f32, f16)\n";
  const std::string stage1 = "    for blk in blocks(m, h):\n        acc = zeros(f32)\n        for kt in tiles(d):\n"
                             "            acc += mma(x[blk, kt], w3[blk, kt])\n        store(y[blk], acc)\n";
  expect_error(header + kDecl + kStage0 + kSync + stage1, "3:5", "workspace 'hid' is stored but never read",
               "a later stage reads it");
  const std::string diags = compile(header + kDecl + kStage0 + kSync + stage1).diags;
  EXPECT_EQ(diags.find(": error: "), diags.rfind(": error: ")) << diags;   // the only error
}

TEST(TileStaged, ReadBeforeStored) {
  expect_error(kHeader + kDecl + kStage1 + kSync + kStage0, "7:24", "'hid' is read before any stage stores it",
               "move this stage after that one");
}

TEST(TileStaged, MissingSync) {
  expect_error(kHeader + kDecl + kStage0 + kStage1, "12:24", "'hid' is read without a sync() after stage 0 stored it",
               "put sync() between the stages");
}

TEST(TileStaged, ShapeMismatchBetweenStages) {
  // stage 1 reads hid [m, h] with K = d: the cube checks name the dim
  const std::string stage1 = "    for blk in blocks(m, d):\n        acc = zeros(f32)\n        for kt in tiles(d):\n"
                             "            acc += mma(hid[blk, kt], w2[blk, kt])\n        store(y[blk], acc)\n";
  expect_error(kHeader + kDecl + kStage0 + kSync + stage1, "13:33", "index 'kt' stands for dim 'd' of 'hid', but that dim is 'h'",
               "index the operand in its stored order");
}

TEST(TileStaged, StoredShapeMustBeTheWorkspaces) {
  const std::string decl = "    hid = workspace(T[m, d])\n";
  expect_error(kHeader + decl + kStage0 + kSync + kStage1, "3:5", "output 'hid' does not have the dims of blocks(...)",
               "hid: T[m, h]");
}

TEST(TileStaged, SyncPlacement) {
  expect_error(kHeader + kDecl + kSync + kStage0 + kSync + kStage1, "4:5", "sync() before the first stage", "between two");
  expect_error(kHeader + kDecl + kStage0 + kSync + kStage1 + kSync, "15:5", "sync() after the last stage", "");
  expect_error(kHeader + kDecl + kStage0 + kSync + kSync + kStage1, "10:5", "a second sync() between the same stages", "");
}

TEST(TileStaged, WorkspaceDeclarations) {
  expect_error(kHeader + "    hid = workspace(i32[m, h])\n" + kStage0 + kSync + kStage1, "3:21",
               "'i32' is not a dtype variable or a float dtype", "T (the operands' dtype) or f32");
  expect_error(kHeader + "    hid = workspace(T[m, q])\n" + kStage0 + kSync + kStage1, "3:26",
               "a workspace dim is a dim name of the inputs", "workspace(T[m, h])");
  expect_error(kHeader + "    x = workspace(T[m, h])\n" + kStage0 + kSync + kStage1, "3:5", "'x' is already a tensor", "");
  expect_error(kHeader + kDecl + "    other = workspace(T[m, h])\n" + kStage0 + kSync + kStage1, "4:5",
               "workspace 'other' is never used", "");
  expect_error(kHeader + kDecl + kStage0 + kSync + "    v = 1\n" + kStage1, "10:5",
               "a staged program is workspaces, blocks loops and sync() between them", "");
}

TEST(TileStaged, OutputStoredOnce) {
  expect_error(kHeader + kDecl + kStage0 + kSync + kStage1 + kStage1, "1:75", "output 'y' is stored by two stages",
               "store earlier stages into workspaces");
}

TEST(TileStaged, ConvertingCopies) {
  // an f16 input of f32 layers: x copied to float32 first, the float32 result rounded to T last
  const std::string src =
      "kernel lin(x: T[*m, d], w: f32[n, d]) -> (y: T[*m, n]):\n    dtype T in (f32, f16)\n"
      "    xf = workspace(f32[m, d])\n    yf = workspace(f32[m, n])\n"
      "    for r in tiles(m):\n        store(xf[r, :], load(x[r, :], f32))\n    sync()\n"
      "    for blk in blocks(m, n):\n        acc = zeros(f32)\n        for kt in tiles(d):\n"
      "            acc += mma(xf[blk, kt], w[blk, kt])\n        store(yf[blk], acc)\n    sync()\n"
      "    for r in tiles(m):\n        store(y[r, :], load(yf[r, :], T))\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "vector cores: xf = x converted")) << c.check_ir;
  const std::string kernel = file_ending(c.r, "op_kernel/lin_custom.cpp");
  EXPECT_TRUE(contains(kernel, "KernelLinStage0<DTYPE_X, DTYPE_XF> stage0;")) << kernel;
  EXPECT_TRUE(contains(kernel, "stage2.Init(yf, y, &pipe, tilingData.stage2);")) << kernel;
  EXPECT_TRUE(contains(kernel, "#define DTYPE_XF float"));
  EXPECT_TRUE(contains(kernel, "REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), stage1.mm, "
                               "&tilingData.stage1.cubeTiling);"));   // the copies have no Matmul object
  const std::string host = file_ending(c.r, "op_host/lin_custom.cpp");
  EXPECT_TRUE(contains(host, "tiling.stage0.set_perCore(perCore);"));
  // misuse: the copy converts to another dtype than its destination's, or changes the dims
  std::string bad = src;
  bad.replace(bad.find("load(x[r, :], f32)"), 18, "load(x[r, :], T)");
  expect_error(bad, "6:39", "the copy converts to 'T' but 'xf' holds f32", "load(x[r, :], f32)");
  bad = src;
  bad.replace(bad.find("store(xf[r, :]"), 14, "store(yf[r, :]");
  expect_error(bad, "6:30", "'x' does not have the dims of 'yf'", "");
  // more than a copy: a vector stage of its own (below)
  std::string more = src;
  more.replace(more.find("store(xf[r, :], load(x[r, :], f32))"), 35, "store(xf[r, :], exp(load(x[r, :], f32)))");
  Checked v = check_src(more);
  ASSERT_TRUE(v.ok) << v.diags;
  EXPECT_TRUE(v.k.staged->stages[0].vector);
}

// A tiles loop with more than a copy is a vector program of its own (sema_vector_stage.cpp): W8A16's dequantisation
// of an int8 weight with a scale per row, then the cube's matmul of float32 operands and a rounding copy.
const std::string kW8a16 =
    "kernel w8(x: T[*m, k], w: i8[n, k], scale: T[n]) -> (y: T[*m, n]):\n"
    "    dtype T in (f32, f16)\n"
    "    wd = workspace(f32[n, k])\n"
    "    xf = workspace(f32[m, k])\n"
    "    yf = workspace(f32[m, n])\n"
    "    for r in tiles(n):\n"
    "        store(wd[r, :], cast(load(w[r, :], f16), f32) * load(scale[r], f32))\n"
    "    for r in tiles(m):\n"
    "        store(xf[r, :], load(x[r, :], f32))\n"
    "    sync()\n"
    "    for blk in blocks(m, n):\n"
    "        acc = zeros(f32)\n"
    "        for kt in tiles(k):\n"
    "            acc += mma(xf[blk, kt], wd[blk, kt])\n"
    "        store(yf[blk], acc)\n"
    "    sync()\n"
    "    for r in tiles(m):\n"
    "        store(y[r, :], load(yf[r, :], T))\n";

TEST(TileStaged, VectorStagesAreVectorPrograms) {
  Compiled c = compile(kW8a16);
  ASSERT_TRUE(c.ok) << c.diags;
  const Stage& s0 = c.r.kernel.staged->stages[0];
  ASSERT_TRUE(s0.vector);
  EXPECT_TRUE(s0.sub.rows);   // checked and lowered as a row program of its own
  EXPECT_FALSE(c.r.kernel.staged->stages[1].vector);   // a plain copy stays a converting copy
  EXPECT_TRUE(c.r.kernel.staged->stages[1].cast);
  const std::string kernel = file_ending(c.r, "op_kernel/w8_custom.cpp");
  EXPECT_TRUE(contains(kernel, "class KernelW8Stage0 {")) << kernel;
  EXPECT_TRUE(contains(kernel, "AscendC::TPipe* pipe_ = nullptr;")) << kernel;   // the kernel's one pipe
  EXPECT_TRUE(contains(kernel, "pipe_->InitBuffer(wIn_, depth_,")) << kernel;
  EXPECT_TRUE(contains(kernel, "KernelW8Stage0<DTYPE_SCALE> stage0;")) << kernel;
  EXPECT_TRUE(contains(kernel, "stage0.Init(&pipe, w, scale, wd, tilingData.stage0);")) << kernel;
  // every stage's UB work is done before the next one plans UB again
  EXPECT_TRUE(contains(kernel, "AscendC::PipeBarrier<PIPE_ALL>();\n  pipe.Reset();   // stage 1's UB buffers replace stage 0's"))
      << kernel;
  const std::string tiling = file_ending(c.r, "op_host/w8_custom_tiling.h");
  EXPECT_TRUE(contains(tiling, "BEGIN_TILING_DATA_DEF(W8Stage0CustomTilingData)")) << tiling;
  EXPECT_TRUE(contains(tiling, "TILING_DATA_FIELD_DEF(uint32_t, tileUnits);")) << tiling;
  const std::string host = file_ending(c.r, "op_host/w8_custom.cpp");
  // the stage's TilingFunc: its inputs from the context, its tiling struct the stage's field
  EXPECT_TRUE(contains(host, "const gert::StorageShape* stageIn[] = {context->GetInputShape(1), context->GetInputShape(2)};"))
      << host;
  EXPECT_TRUE(contains(host, "auto& tiling = staged.stage0;")) << host;
  EXPECT_TRUE(contains(host, "stageCores = blockDim;")) << host;
  EXPECT_FALSE(contains(host, "context->SetBlockDim(static_cast<uint32_t>(blockDim));")) << host;
}

TEST(TileStaged, VectorStageDiagnosticsPointIntoTheFile) {
  std::string bad = kW8a16;
  bad.replace(bad.find("cast(load(w[r, :], f16), f32)"), 29, "load(w[r, :], f32)");
  expect_error(bad, "7:25", "the vector unit converts i8 only to f16", "load(w[r, :], f16)");
  Compiled c = compile(bad);
  EXPECT_FALSE(contains(c.diags, "sync() before the first stage")) << c.diags;   // no follow-on errors
  // the cube's float32 product stored straight into a float16 column: the chip's Matmul has no such combination
  bad = kW8a16;
  bad.replace(bad.find("    yf = workspace(f32[m, n])\n"), 30, "");
  bad.replace(bad.find("store(yf[blk], acc)"), bad.size() - bad.find("store(yf[blk], acc)"), "store(y[blk], acc)\n");
  expect_error(bad, "14:23", "the cube multiplies f32 x f32 into f32 only, not into f16 (y)", "an f32 workspace");
  bad = kW8a16;
  bad.replace(bad.find("store(wd[r, :], "), 16, "v = (");
  expect_error(bad, "6:5", "a vector stage ends with the store of a workspace or the output", "store(hid[r, :]");
}
}  // namespace

// Rows over several leading dims: `for r in tiles(b, s)` over q: T[*b, s, d] is a row program over b * s rows in the
// stage's kernel, while the cube stage keeps b as its batch (QK-RMSNorm attention scores).
TEST(TileStaged, VectorStageRowsOverSeveralLeadingDims) {
  const std::string src =
      "kernel qk(q: T[*b, s, d], k: T[*b, t, d], qw: f32[d], kw: f32[d]) -> (y: T[*b, s, t]):\n"
      "    dtype T in (f32, f16)\n"
      "    qn = workspace(T[b, s, d])\n"
      "    kn = workspace(T[b, t, d])\n"
      "    for r in tiles(b, s):\n"
      "        v = load(q[r, :], f32)\n"
      "        store(qn[r, :], v * rsqrt(mean(v * v, axis=1) + 1e-6) * load(qw[:], f32))\n"
      "    for r in tiles(b, t):\n"
      "        v = load(k[r, :], f32)\n"
      "        store(kn[r, :], v * rsqrt(mean(v * v, axis=1) + 1e-6) * load(kw[:], f32))\n"
      "    sync()\n"
      "    for blk in blocks(b, s, t):\n"
      "        acc = zeros(f32)\n"
      "        for kt in tiles(d):\n"
      "            acc += mma(qn[blk, kt], kn[blk, kt])\n"
      "        store(y[blk], acc)\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  const Kernel& s0 = c.r.kernel.staged->stages[0].sub;
  ASSERT_EQ(s0.tensors[0].name, "q");
  ASSERT_EQ(s0.tensors[0].dims.size(), 2u);
  EXPECT_EQ(s0.tensors[0].dims[0].name, "b_s");   // the stage's rows: every (b, s)
  EXPECT_TRUE(s0.tensors[0].dims[0].star);
  const std::string host = file_ending(c.r, "op_host/qk_custom.cpp");
  EXPECT_TRUE(contains(host, "const gert::StorageShape* stageIn[] = {context->GetInputShape(0), context->GetInputShape(2)};"))
      << host;
}

// Vector stages only, the second reading the first's workspace: the workspace's shape is made from the program's
// dims for the second stage's TilingFunc, no Matmul object is registered and only the vector cores are launched.
TEST(TileStaged, VectorStagesOnly) {
  const std::string src =
      "kernel two(x: T[*m, n]) -> (y: T[*m, n]):\n"
      "    dtype T in (f32, f16)\n"
      "    h = workspace(f32[m, n])\n"
      "    for r in tiles(m):\n"
      "        store(h[r, :], exp(load(x[r, :], f32)))\n"
      "    sync()\n"
      "    for r in tiles(m):\n"
      "        e = load(h[r, :], f32)\n"
      "        store(y[r, :], e / sum(e, axis=1))\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string kernel = file_ending(c.r, "op_kernel/two_custom.cpp");
  EXPECT_FALSE(contains(kernel, "REGIST_MATMUL_OBJ")) << kernel;
  EXPECT_TRUE(contains(kernel, "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);")) << kernel;
  EXPECT_TRUE(contains(kernel, "AscendC::SyncAll();")) << kernel;
  const std::string host = file_ending(c.r, "op_host/two_custom.cpp");
  EXPECT_TRUE(contains(host, "const gert::StorageShape hShape({static_cast<int64_t>(d_m), static_cast<int64_t>(d_n)}, "))
      << host;
  EXPECT_TRUE(contains(host, "const gert::StorageShape* stageIn[] = {&hShape};")) << host;
  EXPECT_TRUE(contains(host, "const ge::DataType stageDt[] = {ge::DT_FLOAT};")) << host;
  EXPECT_TRUE(contains(host, "context->SetBlockDim(static_cast<uint32_t>(usedCores));")) << host;
}
