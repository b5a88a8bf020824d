// GM buffer registry: what GmAlloc handed out (and what the evaluator registers), for bounds checks, and the guard
// against work outside the emulated API.
//
// GmAlloc maps each buffer twice (one memfd): the address the host and the kernel see, and a private alias the
// emulator reads and writes through. While a kernel runs, the visible mapping is PROT_NONE: a kernel (or any
// thread of the process) that touches GM through a plain pointer instead of DataCopy / GetValue / SetValue / the
// cube path faults, and the handler reports error[raw-gm-access] with the source line (the kernel is built with
// line tables), so no output can be computed untraced. Host code between launches uses the visible mapping as
// CANN's CPU-debug GmAlloc memory. The guard is on in kgen-oprun (every candidate runs there; its tiling buffer stays
// open, as CANN kernels read tiling through plain pointers) and off for programs built with `kgen cc` (a
// kernel-launch host copies its tiling struct out of GM word by word) unless KGEN_GM_GUARD=1.
#pragma once
#include <cstdint>

namespace kgen::sim {
void gm_register(void* ptr, uint64_t size);
void gm_unregister(void* ptr);
// A buffer that lives as long as the process (the system workspace): id `id` of its own, outside the numbering that
// restarts with each run's buffers (gm_locate).
void gm_register_fixed(void* ptr, uint64_t size, uint32_t id);
bool gm_find(const void* addr, uintptr_t& base, uint64_t& size);
// Which allocation (numbered in allocation order) holds addr, and at what offset: stable across runs.
bool gm_locate(uint64_t addr, uint32_t& id, uint64_t& offset);
// Where the emulator reads and writes the GM byte at `addr`: the alias of a GmAlloc buffer, else addr itself.
uint8_t* gm_data(const void* addr);
// A name for messages ("output 'z'"), and whether kernels may touch the buffer directly (the tiling data, which
// CANN kernels read through a plain pointer as often as through GET_TILING_DATA).
void gm_set_label(const void* ptr, const char* label);
void gm_set_open(const void* ptr, bool open);
// A timing-only run's tensor given by shape alone, its outputs and workspace (sim/timing.h): a GM buffer of any
// size that is address space only (guarded like GmAlloc's, freed by GmFree), no memory behind it. The emulator
// never reads or writes its bytes; GetValue on it reads 0 and is counted.
void* gm_reserve(uint64_t size);
bool gm_has_values(const void* addr);   // false inside such a buffer
// The buffer stands for a device allocation rounded up to `granule` bytes (torch_npu's caching allocator: 512):
// kernels may read and write up to the rounded size without a fault, as on the chip; the extra bytes start as
// 0xFF and are no tensor's data (outputs are compared at their own size).
void gm_set_granule(const void* ptr, uint64_t granule);
// How many of the bytes [addr, addr + bytes) lie inside their buffer's own size (the rest: its rounding).
uint64_t gm_tensor_bytes(const void* addr, uint64_t bytes);
// Closes (PROT_NONE) or reopens the visible mapping of every buffer that is not open; launch.cpp brackets each
// launch with it and installs the fault handler once.
void gm_protect(bool on);
// Turns the guard on or off for this process (default: KGEN_GM_GUARD=1).
void gm_guard(bool on);
}  // namespace kgen::sim
