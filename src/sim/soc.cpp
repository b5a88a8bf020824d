#include "sim/soc.h"

namespace kgen::sim {
namespace {
// Capacities: ascendc-api.md §1.4 / §7.2 (CANN kernel_utils_mode_cpu.h bufferInitLen); core counts §7.1.
constexpr uint32_t K = 1024;
constexpr Soc kSocs[] = {
    {"Ascend910B1", 2201, 48, 24, {192 * K, 512 * K, 64 * K, 64 * K, 128 * K, 1 * K, 7 * K}, {32, 32, 512, 512, 64, 64, 128}, 8, true, true},
    {"Ascend910B2", 2201, 48, 24, {192 * K, 512 * K, 64 * K, 64 * K, 128 * K, 1 * K, 7 * K}, {32, 32, 512, 512, 64, 64, 128}, 8, true, true},
    {"Ascend910B3", 2201, 40, 20, {192 * K, 512 * K, 64 * K, 64 * K, 128 * K, 1 * K, 7 * K}, {32, 32, 512, 512, 64, 64, 128}, 8, true, true},
    {"Ascend910B4", 2201, 40, 20, {192 * K, 512 * K, 64 * K, 64 * K, 128 * K, 1 * K, 7 * K}, {32, 32, 512, 512, 64, 64, 128}, 8, true, true},
    {"Ascend310P3", 2002, 8, 8, {256 * K, 1024 * K, 64 * K, 64 * K, 256 * K, 0, 0}, {32, 32, 512, 512, 64, 64, 128}, 8, false, false},
};
}  // namespace

const char* mem_name(Mem m) {
  static const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BiasTable", "FixpipeBuffer"};
  return names[static_cast<int>(m)];
}
const Soc* find_soc(std::string_view name) {
  for (const Soc& s : kSocs)
    if (name == s.name) return &s;
  return nullptr;
}
const Soc& default_soc() { return kSocs[1]; }
const char* soc_names() { return "Ascend910B1, Ascend910B2, Ascend910B3, Ascend910B4, Ascend310P3"; }
}  // namespace kgen::sim
