// The lowering passes after the checks, in pipeline order (compile.cpp runs them). Each fills in one part of the
// Kernel (ir.h); print_ir shows the result after any of them.
#pragma once
#include "tile/ir.h"

namespace kgen::tile {
// Conversions with no single Cast instruction (f32 -> i8, f16 <-> bf16, ...) become chains of casts that have one.
void split_casts(Kernel& k);
// UB buffers: input/output queues, resident vectors, temporaries shared by liveness, helper scratch.
void plan_buffers(Kernel& k);
// The three stages of one tile: where each queue tensor is allocated, enqueued, dequeued and freed.
void assign_stages(Kernel& k);
// UB bytes of each buffer per tile unit (element or row) and fixed, so the host can size the tile for the SoC's UB.
void size_tiles(Kernel& k);
// Long rows: the passes over column chunks that compute a row program when one row does not fit in UB.
void plan_chunks(Kernel& k);
// The tiling struct: extent, row length, per-core range, tile size, attrs, scalar dims; the block dim.
void split_cores(Kernel& k);

int buffer_of(const Kernel& k, BufKind kind, TypeOf t);   // the buffer of that kind holding type t (-1: none)
int work_buffer(const Kernel& k, TypeOf t, bool row);   // helper scratch of type t: tile-sized or row/axis helpers' (-1: none)
// What the work over a slab's positions (axis=1) of type t needs: reductions, scans, a log-sum-exp among the scans.
struct AcrossUse {
  bool reduce = false, scan = false, lse = false;
};
AcrossUse across_use(const Kernel& k, TypeOf t);
int math_buffer(const Kernel& k);             // the math scratch buffer (-1: none)
}  // namespace kgen::tile
