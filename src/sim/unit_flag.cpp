// L0C unit flags (unit_flag.h): the bits as the hardware keeps them, and the happens-before edges they give.
#include "sim/unit_flag.h"

namespace kgen::sim {
namespace {
constexpr uint32_t kUnitBytes = 512;

// The flags of the blocks [addr, addr + bytes) touches, created on first use.
template <class F> void each_block(uint32_t addr, uint64_t bytes, F f) {
  Core& c = cur();
  if (bytes == 0) return;
  const uint64_t first = addr / kUnitBytes, last = (addr + bytes - 1) / kUnitBytes;
  if (c.unit_flags.size() <= last) c.unit_flags.resize(last + 1);
  for (uint64_t b = first; b <= last; ++b) f(c.unit_flags[b]);
}
}  // namespace

void unit_flag_mmad(uint8_t unit_flag, uint32_t addr, uint64_t bytes) {
  if (unit_flag < 2) return;
  Core& c = cur();
  each_block(addr, bytes, [&](Core::UnitFlag& u) { join(c.vc[kM], u.clearer); });
  if (unit_flag == 3)
    each_block(addr, bytes, [&](Core::UnitFlag& u) {
      u.set = true;
      u.setter = c.vc[kM];
    });
}

void unit_flag_fixpipe(uint8_t unit_flag, uint32_t addr, uint64_t bytes) {
  if (unit_flag < 2) return;
  Core& c = cur();
  // A clear bit: the chip's Fixpipe waits for a Mmad yet to come; no edge here, so a read of data no handshake
  // ordered is still the race it is.
  each_block(addr, bytes, [&](Core::UnitFlag& u) {
    if (u.set) join(c.vc[kFIX], u.setter);
  });
  if (unit_flag == 3)
    each_block(addr, bytes, [&](Core::UnitFlag& u) {
      u.set = false;
      u.clearer = c.vc[kFIX];
    });
}
}  // namespace kgen::sim
