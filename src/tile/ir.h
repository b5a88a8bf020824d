// The tile IR: what the lowering passes work on after the checks (sema.h). A kernel is its arguments, the
// per-core prologue (resident loads before the tile loop) and the loop body as a list of SSA instructions on UB
// tiles; later passes fill in the buffers (plan_buffers), the stages (assign_stages), the bytes per tile unit
// (size_tiles) and the tiling fields (split_cores). print_ir shows all of it (`kgen tile compile --dump-after`).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tile/ast.h"

namespace kgen::tile {
struct ConvSpec;   // src/tile/conv.h
struct RowMatmul;  // src/tile/row_matmul.h
struct StagedProgram;  // src/tile/staged.h

enum class DType : uint8_t { F32, F16, BF16, I32, I8, U8, Bool, I64 };   // I64: outputs only (stored from i32)
const char* dtype_name(DType t);        // "f32"
const char* dtype_cpp(DType t);         // "float", "half", "bfloat16_t", "int32_t", "int8_t", "uint8_t", "bool"
const char* dtype_ge(DType t);          // "ge::DT_FLOAT", ...
const char* dtype_json(DType t);        // "float", "float16", "int32", ...: the op json's (msopgen's) names
uint32_t dtype_size(DType t);
bool parse_dtype(const std::string& s, DType& t);

// A dtype as the program writes it: concrete, or a dtype variable (then `var` indexes Kernel::dtype_vars).
struct TypeOf {
  int var = -1;
  DType fixed = DType::F32;
  bool operator==(const TypeOf& o) const { return var == o.var && (var >= 0 || fixed == o.fixed); }
};

// Value forms: a flat tile [len], a row tile [rows, n], a column [rows, 1], a row vector [n], a scalar, and in axis
// programs a slab [r, cols]: the whole reduced axis r of a chunk of output positions (reduced along axis=0 to a flat
// tile of the positions).
enum class Form : uint8_t { Scalar, Flat, Rows, Col, Vec, Slab };
const char* form_name(Form f);
// C++ member/variable names from the program's snake_case names: negative_slope -> negativeSlope.
std::string camel_lower(const std::string& snake);

struct TensorArg {                 // an input or output of the op
  std::string name;
  bool output = false;
  TypeOf type;
  std::vector<Dim> dims;           // as written
  Range range;
  bool optional = false;           // `bias: T[n] = None`: OpDef OPTIONAL; absent, it reads as zeros (cube epilogues)
};
struct AttrArg {
  std::string name;
  DType type = DType::F32;         // F32 (OpDef Float), I32 (Int), Bool
  double default_value = 0;
  Range range;
};
struct DtypeVar {
  std::string name;
  std::vector<DType> types;
  int base = -1;                   // `dtype U = T(i32 -> i64)`: no columns of its own; types[i] goes with T's types[i]
};
// A symbolic size and where its value comes from: the product of dims [first, last] of input `tensor`.
struct Sym {
  std::string name;
  int tensor = -1;
  int first = 0, last = 0;         // dims from the end: last = 0 is the innermost dim
  bool star = false;
  // Axis views x: T[*outer, r @ dim, *inner]: the dims are found from the attr at run time, not by position.
  // 0: the dims before the axis (outer), 1: the axis (r), 2: the dims after it (inner); -1: a positional dim.
  int part = -1;
};

// A scalar operand: C++ text evaluated on the kernel's scalar unit (attrs and dims are tiling fields).
struct ScalarExpr {
  std::string cpp;                 // "negativeSlope", "1.0f / (float)n"
  bool constant = false;
  double value = 0;                // when constant
};

enum class Op : uint8_t {
  Load,        // dst <- tensor (Flat/Rows/Col/Vec), converted to dst's dtype
  Store,       // tensor <- srcs[0], converted to the tensor's dtype
  Cast,        // dst <- srcs[0]
  Unary,       // dst <- fn(srcs[0])                 fn: exp, log, sqrt, rsqrt, abs, relu, sigmoid, tanh, erf, gelu, ...
  UnaryScalar, // dst <- fn(srcs[0], scalar)         fn: leaky_relu, elu, pow
  Binary,      // dst <- srcs[0] fn srcs[1], same form  fn: add, sub, mul, div, max, min
  Scalar,      // dst <- srcs[0] fn scalar           fn: add, sub, rsub (s - a), mul, div, rdiv (s / a), max, min
  RowBcast,    // dst <- srcs[0] (Rows) fn srcs[1] (Col)
  VecBcast,    // dst <- srcs[0] (Rows) fn srcs[1] (Vec)
  Reduce,      // dst (Col) <- fn over each row of srcs[0] (Rows)   fn: sum, max, min, mean
               // dst (Flat) <- fn over the r axis of srcs[0] (Slab)  fn: sum, max, min, mean, prod
  Compare,     // dst (mask) <- srcs[0] fn srcs[1] or scalar         fn: lt, le, gt, ge, eq, ne
  Select,      // dst <- srcs[0] (mask) ? srcs[1] or scalar : srcs[2] or scalar2
  Fill,        // dst <- scalar (a tile of a constant)
  Accumulate,  // dst (the accumulator: flat or col, f32) += srcs[0] elementwise, over the tiles of one core
  Combine,     // epilogue: dst (one value) <- the sum of the accumulator srcs[0] over all its elements and cores
  Scan,        // dst (Slab) <- the cumulative fn over the r axis of srcs[0] (Slab)  fn: sum, prod, max, min, logsumexp
  SlabBcast,   // dst (Slab) <- srcs[0] (Slab) fn srcs[1] (Flat: one value per position, repeated along r)
  SlabAcross,  // dst (Slab) <- fn over the positions of each row of srcs[0] (Slab) that share an outer index (the
               // dims after the axis), repeated over them  fn: sum, max, min, mean
};
const char* op_name(Op o);

struct Instr {
  Op op = Op::Unary;
  std::string fn;
  int dst = -1;                    // value id
  std::vector<int> srcs;           // value ids
  ScalarExpr scalar, scalar2;      // Scalar/UnaryScalar/Compare (when srcs has one operand)/Select (missing operands)
  bool scalar_first = false;       // Select: scalar stands for the "true" operand
  bool reverse = false, exclusive = false;   // Scan: from the end of the axis; shifted by one (identity first)
  bool across = false;             // Scan of a slab over its positions (axis=1: the dims after the axis), not along r
  bool trunc = false;              // Cast: a float narrowed toward an integer target rounds toward zero (split_casts)
  int tensor = -1;                 // Load/Store: index into Kernel::tensors
  int period = -1;                 // Load of a periodic column (bias[r % c, :]): the sym c; its field is in `scalar`
  int chunk = -1;                  // Store of a flat tile into chunk `chunk` of a chunk view's whole output (y[k, c])
  bool group = false;              // Reduce of a row tile over the rows of each group too (sum(v, axis=1, group=K))
  Range range;                     // the source expression
  std::string text;                // the source expression, for the comments of the generated code
};

struct Value {
  int id = -1;
  Form form = Form::Flat;
  TypeOf type;
  bool mask = false;               // a comparison result (bits)
  std::string name;                // program name when assigned, else ""
  bool resident = false;           // computed in the prologue (once per core)
  bool accumulator = false;        // a `total += sum(...)` accumulator (lives across the tiles of a core)
  bool epilogue = false;           // computed after the loop, on core 0, from the combined accumulators
  // plan_buffers
  int buffer = -1;                 // index into Kernel::buffers (-1: aliases another value or none)
  int alias_of = -1;               // a Load/Cast/Store conversion that is a no-op for some columns
};

enum class BufKind : uint8_t { InQueue, OutQueue, Temp, Resident, MathTmp, Work, RowWork, Accumulator, Partials,
                               CombineWork, Epilogue, AxisWork, ScanWork, AcrossWork };
struct Buffer {
  std::string name;                // "xIn", "yOut", "tmp0", "weightRes"
  BufKind kind = BufKind::Temp;
  TypeOf type;
  Form form = Form::Flat;          // unit of size: Flat/Rows per tile unit, Col per row, Vec: n
  bool mask = false;
  int tensor = -1;                 // queues: the tensor they carry
  int depth = 1;                   // queue depth
  // An output queue whose output takes K values per position, stored one row at a time (`store(y[j, c], flat)`: a
  // K-row output or a chunk view's whole output): K. Column mode holds them as K rows of the tile's positions; row
  // mode stages them so and gathers them into one row of K per position (kt::RowsFromChunks). 0 otherwise.
  int krows = 0;
  // Present only for columns where T != this type (a conversion buffer), else always.
  int only_if_var_differs = -1;    // dtype var index
  DType differs_from = DType::F32;
};

// assign_stages: queue operations around the three stages of one tile (copy-in, compute, copy-out).
struct QueueOp {
  enum Kind : uint8_t { AllocIn, EnQueIn, DeQueIn, FreeIn, AllocOut, EnQueOut, DeQueOut, FreeOut } kind;
  int buffer = -1;
  int after = -1;                  // compute stage: after body instruction `after` (-1: at the stage's start)
};
// size_tiles: the UB bytes of a buffer as a C++ expression of the host's variables (tileUnits, n, sizes).
struct UbTerm {
  int buffer = -1;
  std::string per_unit;            // bytes per tile unit (element or row), times the depth; "" for fixed buffers
  std::string fixed;               // bytes independent of the tile size ("" when none)
};
// split_cores: a field of the tiling struct and how the host computes it.
struct TilingField {
  std::string name, type;          // "tileUnits", "uint32_t"
  std::string host_expr;           // C++ on the host side
  std::string why;                 // comment in the generated tiling header
};

// plan_chunks: how a row program runs when one row does not fit in UB (rows streamed in chunks of columns).
struct ChunkPlan {
  bool possible = false;
  std::string why_not;             // when !possible
  int passes = 0;                  // passes over each row's chunks
  std::vector<int> value_stage;    // per value: the pass after which it is final (cols) / in which it is computed
  std::vector<std::vector<int>> pass_body;   // body instructions executed per chunk in pass p (in program order)
  std::vector<std::vector<int>> finalize;    // instructions on columns run once after pass p's last chunk
  bool split = false;              // rows may be shared by several cores (fewer rows than cores): each takes a range
                                   // of a row's columns; the partial reductions meet in the workspace after SyncAll
  bool axis = false;               // an axis program whose axis may be streamed in chunks of rows in column mode: its
                                   // slabs only feed reductions, whose partials fold across the chunks
};

// A scalar of attrs and dims that the kernel's scalar unit cannot compute (a power of scalars, exp/log/sqrt of a
// scalar): the host TilingFunc computes it once, in double, and passes it as a float tiling field.
struct HostScalar {
  std::string field;               // tiling field: "hostScalar0" (the kernel reads hostScalar0_)
  std::string host_expr;           // C++ on the host side: "std::pow(static_cast<double>(attr_beta1), ...)"
  std::string text;                // the program's expression: "beta1 ** step"
};

// A cube program (`for blk in blocks(m, n)` with `acc += mma(a[blk, kt], b[kt, blk])`, src/tile/sema_cube.cpp):
// C = A @ B on the cube cores, one output block [bm, bn] per work item, K streamed in tiles into an f32 accumulator.
// One operation of a cube program's fused epilogue (src/tile/sema_cube_epi.cpp), on the vector cores over a base
// block of the accumulator in UB (float32). Values: 0 is the accumulator; every op defines value `dst`.
struct CubeEpiOp {
  std::string op;                  // "load_block" "load_row" "bin" "bin_row" "scalar" "unary" "clamp"
  std::string fn;                  // add sub mul div max min rsub rdiv (bin/scalar), relu sigmoid ... (unary)
  int dst = -1, a = -1, b = -1;    // values
  int tensor = -1;                 // load_*: the input
  std::string scalar, scalar2;     // C++ float expressions of the kernel (attrs are members attr_<name>_)
  std::string text;                // the source, for the generated comment
};
struct CubeMatmul {
  int a = -1, b = -1, c = -1;      // tensors: the operands and the stored output
  bool trans_a = false;            // a is stored [k, m] (indexed a[kt, blk])
  bool trans_b = false;            // b is stored [n, k] (indexed b[blk, kt])
  bool vec_b = false;              // b is a vector [k] (a matrix-vector product: n = 1)
  int m_sym = -1, n_sym = -1, k_sym = -1, batch_sym = -1;   // syms (n_sym -1 with vec_b; batch_sym -1: none)
  bool a_batched = false, b_batched = false;                 // the operand has the leading *batch dims
  std::string block_var, k_var, acc;                         // the program's names
  std::string mma_text, store_text;                          // source lines, for the generated comments
  int k_tile = 0;                  // tiles(k, tile=INT): 0 = auto (the host picks baseK)
  std::vector<CubeEpiOp> epi;      // the fused epilogue (empty: the block is stored as it is)
  int epi_result = 0;              // the value stored
  std::vector<bool> epi_row;       // per value: a [n] row (a loaded bias) rather than a block
};

// An attention program (`for blk in blocks(*batch, s)` around `mma(q[blk, d], k[t, d])`, row ops, `softmax`, and
// `store(y[blk, e], mma(p, v[t, e]))`; src/tile/sema_attention.cpp): per work item (batch, block of query rows)
// S = Q K^T and O = P V on the cube, the row operations and the softmax between them on the vector cores.
struct AttnOp {
  enum Kind { Scale, Causal, KeyMask, Softmax } kind = Scale;
  std::string host_expr;           // Scale: the factor as a host C++ expression (double)
  int tensor = -1;                 // KeyMask: the bool [*b, t] mask (true = attend)
  std::string text;                // the source, for the generated comments
};
struct Attention {
  int q = -1, k = -1, v = -1, y = -1;
  std::vector<int> batch_syms;     // q's leading dims, the leading args of blocks()
  int s_sym = -1, t_sym = -1, d_sym = -1, e_sym = -1;   // query rows, keys, head dim, value dim
  int group_sym = -1;              // k's last leading dim when it is not q's (grouped-query: q head i uses i / (h / g))
  std::vector<AttnOp> ops;         // in program order, on the f32 scores
  std::string block_var, scores_text, out_text;
};

// An index program (src/tile/index.h): one stored gather or scatter driven by an integer index tensor.
struct IndexOp {
  std::string kind;                // take_rows, gather, scatter, scatter_add, index_add
  int x = -1, index = -1, src = -1, y = -1;   // tensors (src: scatters and index_add only)
  int dim_attr = -1;               // the attr `dim` when declared: the host checks it names the supported dim
  std::string alpha = "1.0f";      // index_add: the scale of src (C++ of the kernel: a literal or an attr member)
  std::string loop_var, text;      // the program's loop variable and stored expression
};

// A pooling program (`for o in windows(h, w, size=..., ...)` with `store(y[o], max(load(x[o], f32)))`,
// src/tile/sema_pool.cpp, emitted by emit_pool.cpp): each window attr is a C++ host expression (an attr or a number).
struct PoolWin {
  int in = -1, out = -1;           // tensors
  int nd = 0;                      // window dims (1, 2 or 3): the last nd dims of `in`
  bool max = true;                 // max(...) or mean(...)
  std::string kernel, stride, padding, dilation, count_pad;   // host expressions
  std::string loop_text, store_text;                         // the source lines, for the generated comments
};

// A resize program (src/tile/resize.h): y = MODE(x) over x's last `spatial` dims; output sizes from a list attr
// (size=) or a scale attr (scale=). Attr indices into Kernel::attrs; -1 when not given.
struct ResizeSpec {
  std::string mode;                // nearest, linear, cubic
  int x = -1, y = -1, spatial = 0;
  int size_attr = -1, scale_attr = -1, align_attr = -1;
  std::vector<int> list_len;       // per attr: > 0 for a ListInt attr (`out_size: i32[2] = (128, 150)`)
  std::vector<std::vector<int64_t>> list_default;
  std::string text;                // the stored expression, for the generated comments
};

struct Kernel {
  std::string name;                // snake_case, as written: softmax
  std::string op_type;             // SoftmaxCustom
  std::string kernel_symbol;       // softmax_custom
  std::string doc;
  std::string file;
  std::vector<TensorArg> tensors;  // inputs then outputs
  std::vector<AttrArg> attrs;
  std::vector<DtypeVar> dtype_vars;
  std::vector<Sym> syms;
  bool rows = false;               // a row program (tiles over rows of n) vs flat
  // An axis program (tiles(outer, inner) over x: T[*outer, r @ dim, *inner]): reductions over an axis chosen at run
  // time. The host picks per call: inner == 1 reduces contiguous rows of r (row mode), else [r, cols] slabs of
  // column chunks (column mode).
  bool axis = false;
  int axis_tensor = -1, axis_attr = -1;
  int outer_sym = -1, axis_sym = -1, inner_sym = -1;
  int64_t axis_chunks = 0;         // a chunk view x: T[*outer, 2 @ dim, *inner]: dim `dim` split in 2 (r = 2); else 0
  int extent_sym = -1;             // the loop's extent (m or n)
  int row_sym = -1;                // row programs: n
  int queue_depth = 2;             // buffers= of the loop
  int64_t tile_request = 0;        // tile=INT (0: auto)
  std::string loop_var;
  std::vector<Value> values;
  std::vector<Instr> prologue, body;
  std::vector<Instr> epilogue;     // after the loop and a SyncAll, on core 0: combined accumulators -> 0-dim outputs
  // Two-phase programs (a second tiles loop after the epilogue): body[phase2..] is the second loop. Every core then
  // runs the epilogue, and the epilogue values the second loop reads are scalars: (value, kernel member "invS_").
  int phase2 = -1;
  std::vector<std::pair<int, std::string>> phase_scalars;
  std::vector<Buffer> buffers;     // plan_buffers
  std::vector<QueueOp> queue_ops;  // assign_stages
  std::vector<UbTerm> ub_terms;    // size_tiles
  std::vector<TilingField> fields; // split_cores
  ChunkPlan chunks;                // plan_chunks
  std::vector<HostScalar> host_scalars;   // check: scalars computed by the host (fields added by split_cores)
  bool cube = false;               // a cube program: `mm` describes it; the vector passes do not apply
  CubeMatmul mm;
  bool pool = false;               // a pooling program: `pw` describes it (emit_pool.cpp); the vector passes do not apply
  PoolWin pw;
  bool attention = false;          // an attention program (also cube): `attn` describes it
  Attention attn;
  bool index = false;              // an index program (src/tile/sema_index.cpp): `ix` describes it
  IndexOp ix;
  bool resize = false;             // a resize program (src/tile/sema_resize.cpp): `rz` describes it
  ResizeSpec rz;
  std::shared_ptr<const ConvSpec> conv;   // a convolution program (src/tile/conv.h, sema_conv.cpp) when set
  std::shared_ptr<const RowMatmul> row_mm;   // a row matmul program (src/tile/row_matmul.h; also cube) when set
  std::shared_ptr<const StagedProgram> staged;   // a staged program (src/tile/staged.h; also cube) when set
  bool external_pipe = false;      // a vector stage of a staged program: its class takes the kernel's TPipe in Init
  // Grouped reductions (sum(v, axis=1, group=K), src/tile/sema_group.cpp): the rows come in groups of K consecutive
  // rows (the channel planes of one group norm group); tiles and core ranges hold whole groups. `host` empty: none.
  struct RowGroup {
    std::string host;              // K as host C++ over the dims and attrs: "d_c / attr_groups"
    std::string text;              // K as written: "c / groups"
    std::vector<std::pair<std::string, std::string>> exact;   // (a, b) of each `a / b`: the host refuses a % b != 0
    std::vector<int> attrs;        // the attrs K reads (the host reads them before the core split)
  } group;
};

std::string print_ir(const Kernel& k);
// The index of the item called `name` (a symbol, tensor, attr, workspace), or -1: the checkers' name lookups.
template <class V>
inline int index_by_name(const std::vector<V>& items, const std::string& name) {
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return -1;
}
inline int sym_index(const Kernel& k, const std::string& name) { return index_by_name(k.syms, name); }
// How a tensor of an axis program lines up with its view x: T[*outer, r @ dim, *inner]: a view of it (or a scan's
// output [*outer, r, *inner]), one value per position ([*outer, 1, *inner] or [*outer, *inner]), one per outer index
// ([*outer]: lengths[b] for x[b, s, d]), one per inner index ([*inner]: a feature's weight), one per position that
// repeats over the leading outer dims ([s, *inner]: a RoPE cache cos[s, d/2] for x[b, h, s, d]), an output of K
// values per position stored one row at a time ([*outer, K, *inner], K a literal >= 2: the k largest, y[j, c]), or
// none of them.
enum class AxisShape : uint8_t { None, View, Positions, Outer, Inner, Periodic, KRows };
AxisShape axis_shape(const Kernel& k, const TensorArg& t);
inline int tensor_index(const Kernel& k, const std::string& name) { return index_by_name(k.tensors, name); }
inline int attr_index(const Kernel& k, const std::string& name) { return index_by_name(k.attrs, name); }
}  // namespace kgen::tile
