// GM buffer registry: what GmAlloc handed out (and what the evaluator registers), for bounds checks.
#pragma once
#include <cstdint>

namespace kgen::sim {
void gm_register(void* ptr, uint64_t size);
void gm_unregister(void* ptr);
bool gm_find(const void* addr, uintptr_t& base, uint64_t& size);
}  // namespace kgen::sim
