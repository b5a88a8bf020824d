// Timing-only runs: the kernel runs at a task's real size for its trace, not its values. Every API keeps its checks
// and writes the same trace record, but GM buffers without data (gm_reserve) are never read or written and the
// vector and cube units compute nothing, so a 6.4 GB tensor costs address space, not memory (docs/emulator.md).
#pragma once
#include <cstdint>
#include <string>

#include "kgen/runtime.h"
#include "sim/site_count.h"

namespace kgen::sim {
void set_timing_only(bool on);
bool timing_only();
// Whether an API moves or computes values now: false in a timing-only run.
inline bool values_on() { return !timing_only(); }
// Whether a vector op on elements of `dt` computes: always, except floating-point ones in a timing-only run. Integer
// work is index arithmetic as often as data (offsets for Gather, counts, masks), cheap, and exact when the integer
// inputs keep their data, so index kernels keep their addresses; float work is the bulk and never decides them.
inline bool computes(DType dt) {
  return values_on() || !(dt == DType::F16 || dt == DType::BF16 || dt == DType::F32 || dt == DType::F64);
}

// Scalar reads of data in a timing-only run (GetValue on a GM buffer without data, or on on-chip memory whose bytes
// came from one): the kernel gets zeros or stale bytes, so control flow that depends on them may leave the full
// run's path. Counted so that the run can say so; the trace comparison (kgen op run --timing-check) proves it.
using ValueReads = SiteCount;
void note_value_read(const char* api, const rt::Loc& loc);
ValueReads value_reads();
void reset_value_reads();
}  // namespace kgen::sim
