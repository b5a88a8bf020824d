// Temporary-buffer sizes of the high-level APIs that both sides need: the kernel-side check (src/sim) and the host
// tiling functions of tiling/tiling_api.h (src/host/tiling_api.cpp, libkgen_host links libkgen_sim). One formula,
// implemented once in the library, so that what the host reports is what the kernel requires.
#pragma once
#include <cstdint>

namespace kgen::sim {
// The pattern reduces ReduceSum/Mean/Max/Min/Prod/Any/All, in the order of kgen::rt::AdvRed.
enum class ReduceTmpOp : uint8_t { Sum, Mean, Max, Min, Prod, Any, All };
// Minimum (= maximum) temporary bytes of a pattern reduce of [first, last] (`ra`: RA pattern, else AR) with elements
// of elem_size bytes (1: uint8), as CANN's GetReduceXxxMaxMinTmpSize reports them; implemented in adv_reduce.cpp.
uint64_t reduce_min_tmp_bytes(ReduceTmpOp op, uint32_t elem_size, uint64_t first, uint64_t last, bool ra, bool reuse);

// The elementwise high-level math APIs whose sharedTmpBuffer CANN sizes with GetXxxMaxMinTmpSize (Clamp: ClampMax
// and ClampMin; Exp: the Taylor form, taylorExpandLevel > 0). Power and CumSum have their own functions below.
enum class ElemTmpOp : uint8_t { Sigmoid, Tanh, Gelu, Erf, Sin, Cos, Log, Log2, Log10, Silu, Swish, Floor, Ceil, Round,
                                 Trunc, Sign, Clamp, Exp, Fmod, Acos, Asin, Atan, Cosh, Sinh, Tan, Erfc };
// CANN's minimum temporary bytes for elements of type_size bytes (2: half, 4: float) with isReuseSource = reuse;
// v200: the Atlas inference AI Core (310P, arch 2002), whose instruction sequences differ for Round and Power.
// Implemented in adv_tmp_sizes.cpp; the kernel-side checks (adv_math.cpp, adv_math2.cpp) require exactly these.
uint32_t elem_min_tmp_bytes(ElemTmpOp op, uint32_t type_size, bool reuse, bool v200);
// CANN's maximum (the size past which more temporary space is not used) for n elements; never below the minimum.
uint64_t elem_max_tmp_bytes(ElemTmpOp op, uint32_t type_size, bool reuse, bool v200, uint64_t n);
// Power: type_is_int (int32_t), tensor_tensor (both operands tensors; else one is a scalar).
uint32_t power_min_tmp_bytes(bool type_is_int, uint32_t type_size, bool tensor_tensor, bool v200);
uint64_t power_max_tmp_bytes(bool type_is_int, uint32_t type_size, bool tensor_tensor, bool v200, uint64_t n);
// CumSum of [outter, inner] along the last axis (last_axis) or the first.
uint64_t cumsum_min_tmp_bytes(uint32_t type_size, uint64_t outter, uint64_t inner, bool last_axis);
uint64_t cumsum_max_tmp_bytes(uint32_t type_size, uint64_t outter, uint64_t inner, bool last_axis);
// Mean of n elements per row (mean_tiling.cpp): the repeat count rounded up to 32 bytes, and for a half source summed
// in float (acc_size 4) also the row cast to float, n padded to 32 bytes times 4. Minimum = maximum.
uint64_t mean_min_tmp_bytes(uint32_t n, uint32_t src_size, uint32_t acc_size);
// SoftmaxGrad of rows of k elements of type_size bytes, one row (softmax_tiling.cpp GetSoftMaxGradMinTmpSize on
// 910B): half 2 blocks + 3k + 64 floats; float 2 blocks + k + 64, or with isFront 1 block + k + 64; in bytes.
uint64_t softmax_grad_row_bytes(uint32_t type_size, uint64_t k, bool is_front);
}  // namespace kgen::sim
