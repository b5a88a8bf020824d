// SoC performance profiles (hardware/<SoC>.json): the constants of the performance model. Every number's source
// is in docs/perf-model.md. Plain data: no dependency on the emulator library.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kgen::perf {

// Cost of one vector instruction class: cycles = head (only when the V pipe was idle, as the PTO cost model) +
// per_repeat * repeats. Lookup by class name and dtype size ("binary", 2) with a fallback to any size (0).
struct VecCost {
  std::string cls;        // unary, binary, transcend, div, reduce, mla, gather, sort, copy, cast, select, scalar_vec
  uint32_t dtype_bytes;   // 0: any
  double head;            // cycles
  double per_repeat;      // cycles per repeat (256 B of operand)
};

// One DMA path: t = latency + bytes / (bw * penalties); small transfers are dominated by the latency (this
// reproduces the measured size curve), and GM addresses not 512 B aligned run at align32_factor of the rate.
struct DmaPath {
  double latency_ns = 0;
  double bw_gbps = 0;          // per-core streaming rate, GB/s (1e9 B/s)
  double l2_hit_bw_gbps = 0;   // per-core rate when the GM range is already in L2 (0: same as bw_gbps)
  double align32_factor = 1;   // rate multiplier for GM addresses that are 32 B but not 512 B aligned
};

struct Profile {
  std::string name;           // "Ascend910B2"
  std::string file;           // where it was loaded from
  bool split = true;          // 910B: separate AIC and AIV cores; 310P: coupled AI cores
  int aic_cores = 0, aiv_cores = 0;
  double clock_ghz = 0;       // AI core clock
  uint64_t ub_bytes = 0, l1_bytes = 0, l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0, l2_bytes = 0, hbm_bytes = 0;

  // chip memory system
  double hbm_peak_gbps = 0;     // nominal chip HBM bandwidth
  double hbm_efficiency = 1;    // achievable fraction of the peak
  double l2_gbps = 0;           // chip L2 bandwidth for hits
  // per-core DMA paths
  DmaPath gm_to_ub, ub_to_gm, gm_to_l1, l0c_to_gm;   // MTE2 (AIV), MTE3, MTE2 (AIC), FIX to GM
  // MTE1 (L1 -> L0A/L0B), bytes per cycle and head cycles; UB->UB copies (V/MTE), local L1->UB etc.
  double mte1_l0a_bpc = 0, mte1_l0b_bpc = 0, mte1_head = 0;
  double local_copy_bpc = 0, local_copy_head = 0;
  // FixPipe L0C -> L1/GM: output elements per cycle and head
  double fix_elems_per_cycle = 0, fix_head = 0;
  // cube: cycles = head + ceil(m/16) ceil(n/16) ceil(k/k0) * cycles_per_fractal
  double cube_head = 0;
  double cube_cyc_per_fractal_b16 = 1, cube_cyc_per_fractal_b32 = 2;   // b32: fp32 (k0 = 8)
  uint32_t cube_k0_b16 = 16, cube_k0_b8 = 32, cube_k0_b32 = 8;
  // scalar unit
  double scalar_op_cycles = 0;   // one scalar record (GetValue/SetValue/...)
  double issue_cycles = 0;       // scalar cost of issuing one pipe instruction
  double flag_cycles = 0;        // SetFlag/WaitFlag/queue bookkeeping
  // vector
  std::vector<VecCost> vec;
  // launch and cross-core
  double launch_base_us = 0;      // launch + head overhead of a kernel on one core
  double launch_per_core_us = 0;  // added per physical core used (head overhead grows with core count)
  // Per-launch cost when launches run back to back (do_bench, eager loops): the device hides most of the head
  // overhead behind the previous kernel. Kernels with cube cores (AIC, MIX) and vector-only kernels (AIV) differ.
  double launch_pipelined_us = 0;          // cube / mixed kernels
  double launch_pipelined_vector_us = 0;   // vector-only kernels
  double pipelined_launch_us(bool cube) const { return cube ? launch_pipelined_us : launch_pipelined_vector_us; }
  double syncall_ns = 0;          // SyncAll barrier cost once all cores arrived
  double cross_flag_ns = 0;       // CrossCoreSetFlag -> WaitFlag latency

  const VecCost& vec_cost(const std::string& cls, uint32_t dtype_bytes) const;
  double cycles_to_ns(double c) const { return c / clock_ghz; }
  double hbm_gbps() const { return hbm_peak_gbps * hbm_efficiency; }
};

// The directory of the SoC profiles: $KGEN_HARDWARE_DIR, else hardware/ in the source tree (found next to the
// running executable or its parents, then the build-time source dir).
std::string hardware_dir();
// Loads a profile: `soc` is a SoC name ("Ascend910B2", also "910B2") looked up in hardware_dir(), or a path to a
// .json file. Throws std::runtime_error with a readable message.
Profile load_profile(const std::string& soc = "Ascend910B2");
// Names of the profiles in hardware_dir().
std::vector<std::string> list_profiles();
}  // namespace kgen::perf
