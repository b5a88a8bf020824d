// Cross-core synchronisation of the split architecture (Atlas A2/A3): CrossCoreSetFlag / CrossCoreWaitFlag.
#pragma once
#include "kgen/runtime.h"

namespace kgen::rt {
void cross_core_set(uint8_t mode, pipe_t pipe, uint16_t flag, Loc loc);
void cross_core_wait(uint8_t mode, pipe_t pipe, uint16_t flag, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
// modeId 0: all AIVs (or all AICs) of the launch; 1: the AIVs of one block; 2: the AIC and the AIVs of one block.
template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cross_core_set(modeId, pipe, flagId, loc);
}
// On Atlas A2/A3 the template arguments have no effect: the wait blocks every pipe of the core.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cross_core_wait(modeId, pipe, flagId, loc);
}
}  // namespace AscendC
