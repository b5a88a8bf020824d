// Races on GM: between cores of one launch that touch the same bytes with no SyncAll between them (one writes),
// and inside a core between pipes (an MTE3 write read back by MTE2 without a flag).
#pragma once
#include <cstdint>

#include "sim/core.h"

namespace kgen::sim {
// Records an access of pipe p of the running core to GM bytes [addr, addr+bytes), after checking it.
void gm_access(const void* addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc);
// Forgets all GM history (a new launch starts).
void gm_races_reset();
// The SyncAll phase the running launch is in (0 before the first SyncAll, or outside a launch).
uint32_t sync_epoch();
}  // namespace kgen::sim
