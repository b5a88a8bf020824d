// The legality rules of a TCubeTiling (guide 0683 "TCubeTiling参数约束"), shared by the kernel-side Matmul
// (REGIST_MATMUL_OBJ / Init / first Iterate) and the host tiling (GetTiling returns -1 on a violation).
#pragma once
#include <cstdint>
#include <string>

#include "kernel_tiling/kernel_tiling.h"

namespace kgen::sim {
struct MmCheckInfo {
  uint32_t a_size = 2, b_size = 2, bias_size = 4;   // bytes per element of A, B, bias
  bool trans_known = false, trans_a = false, trans_b = false;
  bool mdl = false;                                  // MDL template: its extra step rules
  uint32_t max_cores = 1;
  uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, bt = 0;
};
// "" when legal; otherwise "FIELD: what is wrong, the limit and how to fix it".
std::string mm_check_tiling(const TCubeTiling& t, const MmCheckInfo& info);
// C0 size in elements of a cube operand of `bytes`-byte elements (32 B of data): fp32 8, fp16/bf16 16, int8 32.
inline uint32_t mm_c0(uint32_t bytes) { return 32 / (bytes ? bytes : 1); }
}  // namespace kgen::sim
