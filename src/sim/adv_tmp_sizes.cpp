// CANN's temporary-buffer sizes of the elementwise high-level math APIs, Power and CumSum (declared in
// sim/adv_tmp_sizes.h): the kernel-side checks of adv_math.cpp / adv_math2.cpp and the host's GetXxxMaxMinTmpSize
// (src/host/tiling_api.cpp) both call these, so a buffer of the host's minimum is exactly what the kernel accepts.
// Most APIs keep `factor` float-sized live tensors of one 256-byte repeat at the minimum and of the whole input at
// the maximum.
#include "sim/adv_tmp_sizes.h"

#include <algorithm>

namespace kgen::sim {
namespace {
constexpr uint64_t kRepeat = 256;   // bytes of one vector repeat

// Live-tensor factor of the APIs sized factor * max(n * type_size, 256); -1 for the ones with another shape.
int factor(ElemTmpOp op, bool f32, bool reuse, bool v200) {
  switch (op) {
    case ElemTmpOp::Tanh: return f32 ? 1 : 4;
    case ElemTmpOp::Erf: return f32 ? 3 : 8;
    case ElemTmpOp::Sin:
    case ElemTmpOp::Cos: return f32 ? (reuse ? 2 : 3) : 8;
    case ElemTmpOp::Log:
    case ElemTmpOp::Log10:
    case ElemTmpOp::Silu:
    case ElemTmpOp::Swish: return 0;
    case ElemTmpOp::Floor: return f32 ? 0 : 2;
    case ElemTmpOp::Ceil:
    case ElemTmpOp::Trunc: return f32 ? 1 : 2;
    case ElemTmpOp::Round: return v200 ? (f32 ? 1 : 2) : (f32 ? 0 : 1);
    case ElemTmpOp::Fmod: return f32 ? 1 : 2 + 6;   // Trunc's factor, plus 3 float tensors (6 half-sized) for half
    // asc-devkit impl/adv_api/tiling/math/<op>_tiling_impl.cpp, *_CALC_PROC / *_CALC_FAC (docs/sources.md S73)
    case ElemTmpOp::Acos:
    case ElemTmpOp::Asin:
    case ElemTmpOp::Cosh: return f32 ? 2 : 6;
    case ElemTmpOp::Atan: return f32 ? 5 : 12;
    case ElemTmpOp::Sinh: return f32 ? 1 : 4;
    case ElemTmpOp::Tan: return f32 ? 4 : 10;
    case ElemTmpOp::Erfc: return f32 ? 7 : 16;
    default: return -1;
  }
}
uint32_t exp_tensors(bool f32, bool reuse) { return f32 ? (reuse ? 2 : 3) : 4; }
}  // namespace

uint32_t elem_min_tmp_bytes(ElemTmpOp op, uint32_t type_size, bool reuse, bool v200) {
  bool f32 = type_size == 4;
  int f = factor(op, f32, reuse, v200);
  if (f >= 0) return static_cast<uint32_t>(f * kRepeat);
  switch (op) {
    case ElemTmpOp::Sigmoid: return kRepeat;
    case ElemTmpOp::Gelu: return 3 * kRepeat;
    case ElemTmpOp::Log2: return f32 ? 0 : kRepeat;
    case ElemTmpOp::Sign: return 3 * kRepeat;
    case ElemTmpOp::Clamp: return f32 ? 64 : 128;   // one byte-mask element per lane of a repeat
    case ElemTmpOp::Exp: return exp_tensors(f32, reuse) * kRepeat;
    default: return 0;
  }
}

uint64_t elem_max_tmp_bytes(ElemTmpOp op, uint32_t type_size, bool reuse, bool v200, uint64_t n) {
  bool f32 = type_size == 4;
  uint64_t in = n * type_size, mn = elem_min_tmp_bytes(op, type_size, reuse, v200);
  int f = factor(op, f32, reuse, v200);
  uint64_t mx = 0;
  if (f >= 0) mx = static_cast<uint64_t>(f) * std::max(in, kRepeat);
  else switch (op) {
      case ElemTmpOp::Sigmoid: mx = std::max(in, kRepeat); break;
      case ElemTmpOp::Gelu: mx = 3 * n * 4; break;
      case ElemTmpOp::Log2: mx = f32 ? 0 : std::max(n * 4, kRepeat); break;
      case ElemTmpOp::Sign: mx = 3 * in; break;
      case ElemTmpOp::Clamp: mx = n; break;
      case ElemTmpOp::Exp: mx = exp_tensors(f32, reuse) * std::max(n * 4, kRepeat); break;
      default: break;
    }
  return std::max(mx, mn);
}

namespace {
// Live-tensor counts of Power: [v200][int, float, half][tensor-scalar, tensor-tensor].
constexpr uint32_t kPow[2][3][2] = {{{7, 6}, {5, 4}, {14, 14}}, {{8, 7}, {6, 5}, {16, 16}}};
int pow_kind(bool type_is_int, uint32_t type_size) { return type_is_int ? 0 : type_size == 4 ? 1 : 2; }
}  // namespace

uint32_t power_min_tmp_bytes(bool type_is_int, uint32_t type_size, bool tensor_tensor, bool v200) {
  int k = pow_kind(type_is_int, type_size);
  uint64_t c = kPow[v200][k][tensor_tensor];
  if (k == 0) return static_cast<uint32_t>(c * kRepeat);
  if (k == 1) return static_cast<uint32_t>(c * kRepeat + kRepeat);   // plus one repeat of scratch
  return static_cast<uint32_t>(c * kRepeat / 2 + kRepeat);            // half-sized tensors
}
uint64_t power_max_tmp_bytes(bool type_is_int, uint32_t type_size, bool tensor_tensor, bool v200, uint64_t n) {
  int k = pow_kind(type_is_int, type_size);
  uint64_t c = kPow[v200][k][tensor_tensor];
  uint64_t per = std::max<uint64_t>(n * type_size, type_size == 4 ? kRepeat : kRepeat / 2);
  uint64_t mx = k == 0 ? c * per : c * per + kRepeat;
  return std::max<uint64_t>(mx, power_min_tmp_bytes(type_is_int, type_size, tensor_tensor, v200));
}

// CumSum along the last axis transposes 16-row blocks twice (and, for half, adds in float); along the first axis
// half accumulates the whole tensor in float.
uint64_t cumsum_min_tmp_bytes(uint32_t type_size, uint64_t outter, uint64_t inner, bool last_axis) {
  bool h = type_size == 2;
  if (!last_axis) return h ? outter * inner * 4 : 0;
  return (h ? inner * 16 * 2 : 0) + 16 * inner * type_size * 2;
}
uint64_t cumsum_max_tmp_bytes(uint32_t type_size, uint64_t outter, uint64_t inner, bool last_axis) {
  bool h = type_size == 2;
  if (!last_axis) return h ? outter * inner * 4 : 0;
  uint64_t rows = (outter + 15) / 16 * 16;
  return (h ? inner * rows * 2 : 0) + rows * inner * type_size * 2;
}
uint64_t mean_min_tmp_bytes(uint32_t n, uint32_t src_size, uint32_t acc_size) {
  const uint64_t per_rep = 256 / acc_size, reps = (static_cast<uint64_t>(n) + per_rep - 1) / per_rep;
  uint64_t bytes = (reps + 31) / 32 * 32;   // CANN counts the repeat sums as bytes
  if (src_size == 2 && acc_size == 4) bytes += (static_cast<uint64_t>(n) * 2 + 31) / 32 * 32 / 2 * 4;
  return bytes;
}
uint64_t softmax_grad_row_bytes(uint32_t type_size, uint64_t k, bool is_front) {
  const uint64_t blk = 32 / (type_size ? type_size : 4);
  const uint64_t floats = type_size == 2 ? 2 * blk + 3 * k + 64 : is_front ? blk + k + 64 : 2 * blk + k + 64;
  return floats * 4;
}
}  // namespace kgen::sim
