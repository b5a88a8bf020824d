// Global memory: allocations made by GmAlloc (or registered by the evaluator) and bounds checks against them.
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "sim/core.h"
#include "sim/gm.h"
#include "sim/gm_races.h"

namespace kgen::sim {
namespace {
struct GmBlock { uint64_t size; uint32_t id; };
uint32_t g_next_id = 0;
std::map<uintptr_t, GmBlock>& blocks() {
  static std::map<uintptr_t, GmBlock> m;
  return m;
}

std::string where(const void* addr) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", addr);
  return buf;
}
}  // namespace

void gm_register(void* ptr, uint64_t size) { blocks()[reinterpret_cast<uintptr_t>(ptr)] = {size, g_next_id++}; }

bool gm_locate(uint64_t addr, uint32_t& id, uint64_t& offset) {
  auto& m = blocks();
  auto it = m.upper_bound(static_cast<uintptr_t>(addr));
  if (it == m.begin()) return false;
  --it;
  if (addr >= it->first + it->second.size + (it->second.size == 0)) return false;
  id = it->second.id;
  offset = addr - it->first;
  return true;
}
void gm_unregister(void* ptr) { blocks().erase(reinterpret_cast<uintptr_t>(ptr)); }

bool gm_find(const void* addr, uintptr_t& base, uint64_t& size) {
  auto& m = blocks();
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  auto it = m.upper_bound(a);
  if (it == m.begin()) return false;
  --it;
  base = it->first;
  size = it->second.size;
  return a >= base && a < base + size + (size == 0);
}

void gm_check_range(const void* addr, uint64_t bytes, bool write, const char* api, const Loc& loc) {
  if (bytes == 0) return;
  uintptr_t base;
  uint64_t size;
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (!gm_find(addr, base, size)) {
    if (addr == nullptr)
      fail("gm-out-of-bounds", api, loc, std::string(write ? "writes" : "reads") + " through a null GM address (SetGlobalBuffer was not called, or the argument is null)");
    // Just past the end of a buffer (within one buffer length): most likely an offset or tail error.
    auto& m = blocks();
    auto it = m.upper_bound(a);
    if (it != m.begin()) {
      --it;
      uint64_t past = a - (it->first + it->second.size);
      if (past < it->second.size || past < 4096)
        fail("gm-out-of-bounds", api, loc,
             std::string(write ? "writes " : "reads ") + fmt_bytes(bytes) + " starting " + std::to_string(past) +
                 " bytes past the end of a " + std::to_string(it->second.size) +
                 "-byte GM buffer (byte offset " + std::to_string(a - it->first) +
                 " of it); check the block offset and tail length");
    }
    fail("gm-out-of-bounds", api, loc,
         std::string(write ? "writes " : "reads ") + fmt_bytes(bytes) + " at " + where(addr) +
             ", which is not inside any GM buffer (allocate GM with GmAlloc; check the offset arithmetic)");
  }
  if (a + bytes > base + size) {
    uint64_t off = a - base;
    fail("gm-out-of-bounds", api, loc,
         std::string(write ? "writes" : "reads") + " GM bytes [" + std::to_string(off) + ", " +
             std::to_string(off + bytes) + ") of a " + std::to_string(size) + "-byte buffer: " +
             std::to_string(a + bytes - base - size) + " bytes past its end (check the block offset and tail length)");
  }
}
}  // namespace kgen::sim

namespace kgen::rt {
void gm_check(const void* addr, uint64_t bytes, bool write, const char* api, Loc loc) {
  sim::gm_check_range(addr, bytes, write, api, loc);
}

uint8_t* gm_scalar(const void* addr, uint32_t elem, bool write, const char* api, Loc loc) {
  using namespace kgen::sim;
  gm_check_range(addr, elem, write, api, loc);
  issue(kS);
  gm_access(addr, elem, write, kS, api, loc);
  trace_instr(kS, write ? "GlobalTensor::SetValue" : "GlobalTensor::GetValue", DType::Unknown, 1, elem, 1, loc).gm =
      reinterpret_cast<uintptr_t>(addr);
  return static_cast<uint8_t*>(const_cast<void*>(addr));
}

void tiling_copy(void* dst, const void* gm, uint32_t bytes, Loc loc) {
  sim::gm_check_range(gm, bytes, false, "GET_TILING_DATA", loc);
  std::memcpy(dst, gm, bytes);
}
}  // namespace kgen::rt

namespace AscendC {
void* GmAlloc(size_t size) {
  // 512-byte aligned like device allocations; zero-filled like CANN's shared-memory GM files.
  size_t rounded = (size + 511) / 512 * 512;
  void* p = std::aligned_alloc(512, rounded ? rounded : 512);
  if (!p) return nullptr;
  std::memset(p, 0, rounded ? rounded : 512);
  kgen::sim::gm_register(p, size);
  return p;
}
void GmFree(void* ptr) {
  if (!ptr) return;
  kgen::sim::gm_unregister(ptr);
  std::free(ptr);
}
}  // namespace AscendC
