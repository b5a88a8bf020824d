// GM buffer registry: what GmAlloc handed out (and what the evaluator registers), for bounds checks.
#pragma once
#include <cstdint>

namespace kgen::sim {
void gm_register(void* ptr, uint64_t size);
void gm_unregister(void* ptr);
bool gm_find(const void* addr, uintptr_t& base, uint64_t& size);
// Which allocation (numbered in allocation order) holds addr, and at what offset: stable across runs.
bool gm_locate(uint64_t addr, uint32_t& id, uint64_t& offset);
}  // namespace kgen::sim
