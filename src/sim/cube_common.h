// Shared helpers of the cube-path implementation (cube_copy.cpp, load_data.cpp, mmad.cpp, fixpipe.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core.h"
#include "sim/core_kind.h"

namespace kgen::sim {
constexpr uint32_t kFractalBytes = 512;

inline bool is_ub_pos(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}
inline Mem mem_of_ref(const rt::LocalRef& t) { return mem_of(t.pos, *cur().soc); }

// Bounds of a local tensor access, without recording it (check_extent).
void cube_check_bounds(const rt::LocalRef& t, uint64_t off, uint64_t bytes, bool write, const char* api, const Loc& loc);

// Per-byte "was written" flags of [addr, addr+bytes) of memory m; empty when every byte is initialised.
std::vector<uint8_t> cube_init_mask(Mem m, uint32_t addr, uint32_t bytes);
// Pipe p reads the initialised bytes of [addr, addr+bytes) (race checks; the uninitialised ones are padding the
// hardware moves without looking at; they stay uninitialised in the destination).
void cube_read_masked(Mem m, uint32_t addr, uint32_t bytes, const std::vector<uint8_t>& mask, Pipe p,
                      const char* api, const Loc& loc);
// Pipe p writes [addr, addr+bytes); bytes whose mask flag is 0 are left marked uninitialised.
void cube_write_masked(Mem m, uint32_t addr, uint32_t bytes, const std::vector<uint8_t>& mask, Pipe p,
                       const char* api, const Loc& loc);

// Trace record of a cube instruction with its m, n, k.
TraceRec& cube_trace(Pipe p, const char* api, DType dt, uint64_t elems, uint64_t bytes, uint32_t fractals,
                     uint32_t m, uint32_t n, uint32_t k, const Loc& loc);
}  // namespace kgen::sim
