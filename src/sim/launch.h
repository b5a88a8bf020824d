// Running a kernel on emulated cores, and the hooks tests use to run APIs on a single core directly.
#pragma once
#include <memory>

#include "sim/core.h"

namespace kgen::sim {
constexpr int kSimErrorExit = 3;   // exit status of a program stopped by an emulator check
void run_launch(const char* kernel, uint32_t block_dim, const Soc& soc, void (*thunk)(void*), void* arg);
void sync_all_cores(const Loc& loc);
std::unique_ptr<Core> make_core(const Soc& soc, int32_t block, int32_t block_num);
// Ends the running core as if its kernel function returned (an AIC core of a MIX kernel that hands its
// work to the Matmul service, for instance) by throwing CoreExit, which the launcher catches.
[[noreturn]] void finish_core();
struct CoreExit {};
// Tests: make launch failures throw SimError instead of printing and exiting.
void set_throw_on_error(bool on);
}  // namespace kgen::sim
