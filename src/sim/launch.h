// Running a kernel on emulated cores, and the hooks tests use to run APIs on a single core directly.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "sim/core.h"

namespace kgen::sim {
constexpr int kSimErrorExit = 3;   // exit status of a program stopped by an emulator check
void run_launch(const char* kernel, uint32_t block_dim, const Soc& soc, void (*thunk)(void*), void* arg);
// SyncAll<isAIVOnly>(): hard all-core barrier (all AIVs, or with isAIVOnly=false all AIVs and AICs).
// participants > 0: only that many cores meet (SyncAll's software form with usedCores).
void sync_all_cores(const Loc& loc, bool aiv_only = true, uint32_t participants = 0);
std::unique_ptr<Core> make_core(const Soc& soc, int32_t block, int32_t block_num);
// Ends the running core as if its kernel function returned (an AIC core of a MIX kernel that hands its
// work to the Matmul service, for instance) by throwing CoreExit, which the launcher catches.
[[noreturn]] void finish_core();
struct CoreExit {};
// Tests: make launch failures throw SimError instead of printing and exiting.
void set_throw_on_error(bool on);
// fail_at's first step inside a launch: remembers a core's first error (which fail_at then throws), or, when an error
// comes while that one unwinds (a kernel destructor's API call), ends the core there with the first error and does
// not return (throwing again would reach std::terminate and lose both).
void note_core_error(const std::string& line);
// Tests: forget the host's SetKernelMode and the kernel types learnt from earlier launches.
void reset_kernel_modes();

// ---- the cores of a launch (Ascend 910B split architecture: AIC cube cores and AIV vector cores) ----
// Which cores one block (one AI Core group) runs: AIV only, AIC only, or a MIX group of 1 AIC + 1 or 2 AIVs.
enum class Layout : uint8_t { AIV, AIC, MIX_1_1, MIX_1_2 };
struct LaunchInfo {
  bool active = false;         // false outside a launch (TestCore): one AIV-only core, block 0 of 1
  uint32_t block_dim = 1;
  Layout layout = Layout::AIV;
  int kernel_type = -1;        // KernelMetaType the launch runs as, -1 when neither host nor kernel said
  bool declared = false;       // the kernel itself declared it (KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE)
  uint32_t aic_per_block = 0, aiv_per_block = 1;
};
LaunchInfo launch_info();
const char* layout_name(Layout l);
// "block 3", or in a launch with several cores per block "block 3 AIC" / "block 3 AIV 1", for messages.
std::string core_label(int32_t gid);
// Cross-core waits: blocks the running core (a coroutine) until wake_core(its id) and returns then.
// `what` describes what it waits for, for the deadlock report.
void block_running_core(const char* api, const Loc& loc, const std::string& what);
void wake_core(int32_t gid);
// Asks for the launch to run as kernel type `type` (KernelMetaType): a no-op when it already does; restarts the
// launch in that type when only the first core of block 0 has run and it wrote no GM; otherwise error[param].
// KERNEL_TASK_TYPE_DEFAULT calls this; so may an API that needs cube and vector cores (e.g. the Matmul API).
void request_kernel_type(int type, bool keyed, const char* api, const Loc& loc);
// Forgets the cross-core flag state of a core (a new core takes its id) or of all cores (a launch starts).
void cross_core_forget(int32_t gid);
void cross_core_reset();
}  // namespace kgen::sim
