// Mask/repeat walks whose operands have different element sizes (Cast, Axpy half->float, Compare's bit output):
// a repeat has R = 256 / (size of the wider type) lanes; lane k of an operand with element size es sits in its
// DataBlock k / (32 / es) at position k % (32 / es).
#pragma once
#include "sim/elementwise.h"

namespace kgen::sim {
inline uint32_t lanes_per_repeat(const RepeatWalk& w) { return w.per_block * 8; }

inline uint64_t lane_offset(uint32_t r, uint32_t k, uint32_t es, uint32_t blk_stride, uint32_t rep_stride) {
  uint32_t pb = 32 / es;
  return walk_offset(r, k / pb, k % pb, blk_stride, rep_stride, es);
}

// Visits every enabled lane (r, k) in hardware order.
template <class F> void for_each_lane_k(const RepeatWalk& w, F&& f) {
  uint32_t R = lanes_per_repeat(w);
  for (uint32_t r = 0; r < w.repeat; ++r) {
    Mask128 m = w.mask_for(r);
    for (uint32_t k = 0; k < R; ++k)
      if (m.test(k)) f(r, k);
  }
}

// Declares the accesses of one operand (element size es) of such a walk: per repeat and DataBlock, the span from
// the first to the last enabled lane.
inline void touch_lanes(const rt::LocalRef& t, const RepeatWalk& w, uint32_t es, uint32_t blk_stride,
                        uint32_t rep_stride, bool write, const char* api, const Loc& loc) {
  uint32_t R = lanes_per_repeat(w);
  uint32_t pb = 32 / es;
  uint32_t nblk = (R + pb - 1) / pb;
  for (uint32_t r = 0; r < w.repeat; ++r) {
    Mask128 m = w.mask_for(r);
    for (uint32_t b = 0; b < nblk; ++b) {
      int first = -1, last = -1;
      for (uint32_t e = 0; e < pb && b * pb + e < R; ++e)
        if (m.test(b * pb + e)) { if (first < 0) first = static_cast<int>(e); last = static_cast<int>(e); }
      if (first < 0) continue;
      touch(t, walk_offset(r, b, static_cast<uint32_t>(first), blk_stride, rep_stride, es),
            static_cast<uint64_t>(last - first + 1) * es, write, kV, api, loc);
    }
  }
}
}  // namespace kgen::sim
