// Convolution programs on the vector cores: `store(y, EPILOGUE(conv(x, weight, bias, stride=s, padding=p, ...)))`
// (also conv_transpose, a depthwise conv inside a 1x1 conv, avg_pool of a conv). Checked by sema_conv.cpp (their own
// header: list attrs `stride: i32[2] = (1, 2)`, output dims from the attrs), emitted by emit_conv.cpp; the kernel's
// work is kt::Conv (src/tile/prelude/kgen_conv.h). docs/tile-language.md, "Convolutions".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// One geometry argument (stride=, padding=, ...): a constant, or an i32 / list attr, optionally divided (k // 2)
// and offset (k - 1).
struct ConvArg {
  int attr = -1;                   // index into Kernel::attrs; -1: the constant `value`
  int64_t value = 0;
  int64_t div = 1;                 // `kernel_size / 2` (integer division)
  int64_t add = 0;                 // `kernel_size - 1`: added after the division
};
// One epilogue step on the float32 accumulator, applied in order.
struct ConvEpi {
  std::string op;                  // relu, tanh, sigmoid, silu, muls, adds, chan_add
  std::string scalar;              // muls/adds: a C++ float expression (literal or tiling field)
};
// A crop of the conv's output along one spatial dim, conv(...)[:, :, :l]: its first `extent` positions (a causal
// conv's padding without its look-ahead). The extent is an input's dim (tensor, dim), an i32 attr or a constant.
struct ConvCrop {
  int tensor = -1, dim = -1;       // the dim `dim` of input `tensor` (x: T[n, c, l] for `:l`)
  ConvArg arg;                     // else an attr or a constant
  bool set = false;
};
struct ConvSpec {
  std::string mode = "conv";       // conv, depthwise, transposed, separable, pool
  int nd = 2;                      // spatial dims (1-3)
  int x = -1, w = -1, w2 = -1, bias = -1, chan = -1, y = -1;   // tensors (w2: separable's pointwise weight)
  ConvArg stride{-1, 1}, padding{-1, 0}, dilation{-1, 1}, output_padding{-1, 0}, pool{-1, 1};
  std::vector<int> list_len;       // per attr: > 0 for a ListInt attr
  std::vector<std::vector<int64_t>> list_default;
  std::vector<ConvEpi> epi;
  std::vector<ConvCrop> crop;      // per spatial dim (nd of them when the program crops, else empty)
  std::string text;                // the stored expression, for the generated comments
  bool cube = false;               // conv, 1-2-D transposed: im2col + GEMM on the cube (emit_conv_gemm.cpp)
};
// Whether the body is one `store(y, ...)` of an expression holding conv(...) or conv_transpose(...).
bool is_conv_program(const Program& p);
// Checks the header and the body of a convolution program into k (k.conv set).
void check_conv(const Program& p, Kernel& k, Diags& d);
std::string print_conv(const Kernel& k);
// The op project's files (kernel, tiling header, host, json); the caller adds the preludes.
std::map<std::string, std::string> emit_conv(const Kernel& k);
// The cube lowering's files (emit_conv_gemm.cpp): im2col to a workspace, SyncAll, one GEMM per batch + epilogue.
std::map<std::string, std::string> emit_conv_gemm(const Kernel& k);
// Pieces shared by the two lowerings (emit_conv.cpp). The tiling fields of kt::ConvGeom, in order:
extern const std::vector<const char*> kConvGeomFields;
// The kernel's opening: a comment (the stored expression, then `comment`), the includes (the helper header), the
// signature, the tiling data `t` and `kt::ConvGeom g` filled from it.
std::string conv_kernel_open(const Kernel& k, const std::string& helpers, const std::string& comment);
// Host text: ShapeOf and Geom(ctx, xs, ws, tiling*, outShape), the geometry from the shapes and attrs.
std::string conv_geom_host(const Kernel& k);
// Host text: the has-bias expression and the f32 attrs' tiling fields, set in the TilingFunc on `t`.
std::string conv_has_bias(const Kernel& k);
std::string conv_float_attrs(const Kernel& k);
// Host text after the TilingFunc: InferShape, InferDataType, the OpDef with its attrs.
std::string conv_host_tail(const Kernel& k);
// The input that has a dim called `name` (not starred, not an optional input), the first such: its tensor index and
// the dim's position; false when none has (a crop's `:l`, an output dim named after an input's).
bool input_dim(const Kernel& k, const std::string& name, int& tensor, int& dim);
// Kernel lines of the epilogue's steps on `conv.Acc()` (both helpers offer Acc, GroupSize, Lr, FirstChannel, ...).
std::string conv_epilogue(const Kernel& k);
std::string conv_json(const Kernel& k);
}  // namespace kgen::tile
