// The tile IR: what the lowering passes work on after the checks (sema.h). A kernel is its arguments, the
// per-core prologue (resident loads before the tile loop) and the loop body as a list of SSA instructions on UB
// tiles; later passes fill in the buffers (plan_buffers), the stages (assign_stages), the bytes per tile unit
// (size_tiles) and the tiling fields (split_cores). print_ir shows all of it (`kgen tile compile --dump-after`).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tile/ast.h"

namespace kgen::tile {

enum class DType : uint8_t { F32, F16, BF16, I32, I8, U8, Bool, I64 };   // I64: outputs only (stored from i32)
const char* dtype_name(DType t);        // "f32"
const char* dtype_cpp(DType t);         // "float", "half", "bfloat16_t", "int32_t", "int8_t", "uint8_t", "bool"
const char* dtype_ge(DType t);          // "ge::DT_FLOAT", ...
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
  int tensor = -1;                 // Load/Store: index into Kernel::tensors
  int period = -1;                 // Load of a periodic column (bias[r % c, :]): the sym c; its field is in `scalar`
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
                               CombineWork, Epilogue, AxisWork, ScanWork };
struct Buffer {
  std::string name;                // "xIn", "yOut", "tmp0", "weightRes"
  BufKind kind = BufKind::Temp;
  TypeOf type;
  Form form = Form::Flat;          // unit of size: Flat/Rows per tile unit, Col per row, Vec: n
  bool mask = false;
  int tensor = -1;                 // queues: the tensor they carry
  int depth = 1;                   // queue depth
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
  int extent_sym = -1;             // the loop's extent (m or n)
  int row_sym = -1;                // row programs: n
  int queue_depth = 2;             // buffers= of the loop
  int64_t tile_request = 0;        // tile=INT (0: auto)
  std::string loop_var;
  std::vector<Value> values;
  std::vector<Instr> prologue, body;
  std::vector<Instr> epilogue;     // after the loop and a SyncAll, on core 0: combined accumulators -> 0-dim outputs
  std::vector<Buffer> buffers;     // plan_buffers
  std::vector<QueueOp> queue_ops;  // assign_stages
  std::vector<UbTerm> ub_terms;    // size_tiles
  std::vector<TilingField> fields; // split_cores
  ChunkPlan chunks;                // plan_chunks
  std::vector<HostScalar> host_scalars;   // check: scalars computed by the host (fields added by split_cores)
  bool cube = false;               // a cube program: `mm` describes it; the vector passes do not apply
  CubeMatmul mm;
};

std::string print_ir(const Kernel& k);
}  // namespace kgen::tile
