// SoC facts the emulator enforces: architecture, core counts, on-chip memory sizes.
// The performance model's full profiles live in hardware/; these are the capacity facts of docs/emulator.md.
#pragma once
#include <cstdint>
#include <string_view>

namespace kgen::sim {
enum class Mem : uint8_t { UB, L1, L0A, L0B, L0C, BT, FB, Count };
constexpr int kMemCount = static_cast<int>(Mem::Count);
const char* mem_name(Mem m);

struct Soc {
  const char* name;
  int arch;                     // __NPU_ARCH__: 2201 (910B), 2002 (310P)
  uint32_t aiv_cores;           // vector cores (AI Cores on coupled 310P)
  uint32_t aic_cores;           // cube cores
  uint32_t mem_size[kMemCount]; // bytes, per core
  uint32_t mem_align[kMemCount];
  uint32_t max_live_per_pos;    // hardware event ids per position
  bool has_data_copy_pad;
  bool has_bf16;
};

const Soc* find_soc(std::string_view name);   // nullptr if unknown
const Soc& default_soc();
const char* soc_names();                       // "Ascend910B1, ..." for messages
}  // namespace kgen::sim
