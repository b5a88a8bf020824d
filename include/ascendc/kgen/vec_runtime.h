// Vector-unit entry points of the emulator library: one function per API family, dispatched on dtype inside.
#pragma once
#include "kgen/runtime.h"

namespace kgen::rt {
enum class VOp : uint8_t {
  // binary: dst = f(src0, src1)
  Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu, SubRelu, FusedMulAdd, MulAddDst,
  // unary: dst = f(src)
  Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu, Not, Copy,
  // tensor-scalar: dst = f(src, scalar)
  Adds, Muls, Maxs, Mins, LeakyRelu, ShiftLeft, ShiftRight,
};
const char* vop_name(VOp op);

// count form ("level 2"): a flat loop over `count` elements
void vec_binary(VOp op, DType dt, const LocalRef& dst, const LocalRef& a, const LocalRef& b, uint64_t count, Loc loc);
void vec_unary(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, uint64_t count, Loc loc);
void vec_scalar(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, Scalar s, uint64_t count, Loc loc);
// mask/repeat form ("level 0")
void vec_binary_rep(VOp op, DType dt, const LocalRef& dst, const LocalRef& a, const LocalRef& b, const MaskArg& mask,
                    uint8_t repeat, const AscendC::BinaryRepeatParams& p, Loc loc);
void vec_unary_rep(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, const MaskArg& mask, uint8_t repeat,
                   const AscendC::UnaryRepeatParams& p, Loc loc);
// Copy: the unary walk with the identity, strides in blocks up to 65535 and 4095 (CopyRepeatParams)
void vec_copy_rep(DType dt, const LocalRef& dst, const LocalRef& src, const MaskArg& mask, uint8_t repeat,
                  uint32_t dst_blk, uint32_t src_blk, uint32_t dst_rep, uint32_t src_rep, Loc loc);
void vec_scalar_rep(VOp op, DType dt, const LocalRef& dst, const LocalRef& src, Scalar s, const MaskArg& mask,
                    uint8_t repeat, const AscendC::UnaryRepeatParams& p, Loc loc);
// mask registers
void set_mask_count(Loc loc);
void set_mask_norm(Loc loc);
void set_vector_mask(DType dt, uint64_t hi, uint64_t lo, bool len_form, Loc loc);
void reset_mask(Loc loc);
}  // namespace kgen::rt
