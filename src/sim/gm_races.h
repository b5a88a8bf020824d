// Races on GM: between cores of one launch that touch the same bytes with no SyncAll between them (one writes),
// and inside a core between pipes (an MTE3 write read back by MTE2 without a flag).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/core.h"

namespace kgen::sim {
// Records an access of pipe p of the running core to GM bytes [addr, addr+bytes), after checking it. A plain write
// that passes `data` (the bytes about to be stored, before they are) is no race with another core's unordered write
// of the same bytes: whichever lands last, GM holds the same (a DataCopy rounded up to 32-byte blocks writes its
// neighbour's first elements, copied from the same input).
void gm_access(const void* addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc,
               const void* data = nullptr);
// Forgets all GM history (a new launch starts).
void gm_races_reset();
// How many spans of equal history the GM record holds now (tests: a scalar loop must not grow it per element).
size_t gm_span_count();
// Of the `elements` elements of elem_size bytes at addr, how many no core wrote in the last launch (no byte of
// them has write history). The op runner's "never written" check uses it next to the poison bytes, so that an
// integer result of -1 (all 0xFF, like the poison) written by the kernel is not taken for an unwritten element.
std::vector<bool> gm_written_elements(const void* addr, uint64_t elements, uint32_t elem_size);
// Whether any core wrote a byte of [addr, addr + bytes) in the last launch (one walk of the record, no per-byte map).
bool gm_range_written(const void* addr, uint64_t bytes);
// Whether any core wrote GM since the last reset (a launch can restart in another kernel type only before).
bool gm_written();
// The number of SyncAlls of the running launch that every core took part in (0 outside a launch).
uint32_t sync_epoch();

// Cross-core happens-before (SyncAll, CrossCoreSetFlag/WaitFlag). A core is named by its id in the launch,
// core_gid(). What a core knows of other cores is a sparse vector clock: for each core it synchronised with,
// the pipe clocks of that core that are ordered before it. A GM access of core A is ordered after core B's
// earlier access (B's pipe p at clock t) when A knows B's p clock >= t.
using HbClock = std::vector<std::pair<int32_t, VClock>>;   // sorted by core id
int32_t core_gid(const Core& c);                           // block*3 + (0 AIC, 1 + sub-block for an AIV)
void hb_join(HbClock& into, const HbClock& from);
// What core c publishes when it releases: its knowledge of others plus `own` (its own pipe clocks that are done).
HbClock hb_release(const Core& c, const VClock& own);
// Core gid now knows everything in t.
void hb_acquire(int32_t gid, const HbClock& t);
}  // namespace kgen::sim
