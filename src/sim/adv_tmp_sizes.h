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
}  // namespace kgen::sim
