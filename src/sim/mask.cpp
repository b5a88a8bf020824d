// Vector mask registers: normal mode (128 bits per repeat) and counter mode (a total element count).
#include "kgen/vec_runtime.h"
#include "sim/core.h"

namespace kgen::rt {
using namespace kgen::sim;

void set_mask_count(Loc) { cur().mask_counter = true; }
void set_mask_norm(Loc) { cur().mask_counter = false; }
void set_vector_mask(DType dt, uint64_t hi, uint64_t lo, bool len_form, Loc loc) {
  Core& c = cur();
  if (len_form) {
    if (c.mask_counter) { c.mask_lo = lo; c.mask_hi = 0; return; }
    uint32_t max = dtype_size(dt) >= 4 ? 256 / dtype_size(dt) : 128;
    if (lo > max) fail("param", "SetVectorMask", loc, "length " + std::to_string(lo) + " exceeds " + std::to_string(max) + " elements per repeat in normal mask mode");
    c.mask_lo = lo >= 64 ? ~0ull : ((1ull << lo) - 1);
    c.mask_hi = lo >= 128 ? ~0ull : lo > 64 ? ((1ull << (lo - 64)) - 1) : 0;
    return;
  }
  c.mask_hi = hi;
  c.mask_lo = lo;
}
void reset_mask(Loc) {
  Core& c = cur();
  c.mask_hi = c.mask_lo = ~0ull;
}
}  // namespace kgen::rt
