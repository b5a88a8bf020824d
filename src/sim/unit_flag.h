// L0C unit flags: the hardware handshake between Mmad (pipe M) and Fixpipe (pipe FIX) that unitFlag 2/3 turns on,
// one bit per 512-byte L0C block (CANN docs, Mmad "UnitFlag" feature page: docs/sources.md S66).
#pragma once
#include <cstdint>

#include "sim/core.h"

namespace kgen::sim {
// A Mmad with unitFlag 2 or 3 writing L0C [addr, addr + bytes): its writes wait until the blocks' bits are clear
// (the Fixpipe that cleared them happens before); unitFlag 3 sets the bits when it is done. Call after issue(kM).
void unit_flag_mmad(uint8_t unit_flag, uint32_t addr, uint64_t bytes);
// A Fixpipe with unitFlag 2 or 3 reading L0C [addr, addr + bytes): its reads wait until the blocks' bits are set
// (the Mmad that set them happens before); unitFlag 3 clears the bits when it is done. Call after issue(kFIX).
void unit_flag_fixpipe(uint8_t unit_flag, uint32_t addr, uint64_t bytes);
}  // namespace kgen::sim
