// TransDataTo5HD (vec_transpose.h): repeat by repeat, the 16 source blocks are read whole, then the 16 destination
// blocks (or their halves, for 8-bit) written. With repeatTimes 1 the blocks start one stride past the listed
// addresses, as CANN's page documents; with more, the first repeat starts at them.
#include <cstring>
#include <string>

#include "kgen/ccec_vector.h"
#include "kgen/vec_transpose.h"
#include "sim/elementwise.h"

namespace kgen::rt {
using namespace kgen::sim;

void trans_data_5hd(uint32_t elem, const uint64_t* dst, const uint64_t* src, const AscendC::TransDataTo5HDParams& p,
                    Loc loc, const char* api) {
  Core& c = cur();
  const uint64_t ub = c.soc->mem_size[static_cast<int>(Mem::UB)];
  for (int i = 0; i < 16; ++i)
    for (const uint64_t* list : {dst, src}) {
      const char* which = list == dst ? "dstList" : "srcList";
      if (list[i] % 32 != 0)
        fail("align", api, loc, std::string(which) + "[" + std::to_string(i) + "] = UB address " +
                                    std::to_string(list[i]) + " is not 32-byte aligned");
      if (list[i] >= ub)
        fail("ub-overflow", api, loc, std::string(which) + "[" + std::to_string(i) + "] = UB address " +
                                          std::to_string(list[i]) + " is beyond the " + std::to_string(ub) +
                                          " bytes of UB (pass GetPhyAddr() of UB tensors)");
    }
  if (p.repeatTimes == 0) return;   // a NOP
  issue(kV);
  uint8_t* base = mem_base(Mem::UB);
  const uint32_t per = 32 / elem;   // elements per block
  uint8_t in[16][32];
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint64_t step = p.repeatTimes == 1 ? 1 : r;
    const uint64_t so = step * p.srcRepStride * 32, dof = step * p.dstRepStride * 32;
    for (int i = 0; i < 16; ++i) {
      touch_abs(Mem::UB, static_cast<uint32_t>(src[i] + so), 32, false, kV, api, loc);
      std::memcpy(in[i], base + src[i] + so, 32);
    }
    for (int j = 0; j < 16; ++j) {
      const uint64_t d = dst[j] + dof;
      if (elem == 1) {   // half a block: byte i from source i's byte j (+16 for the high half of the sources)
        const uint32_t half = p.dstHighHalf ? 16 : 0, from = j + (p.srcHighHalf ? 16 : 0);
        touch_abs(Mem::UB, static_cast<uint32_t>(d + half), 16, true, kV, api, loc);
        for (int i = 0; i < 16; ++i) base[d + half + i] = in[i][from];
        continue;
      }
      touch_abs(Mem::UB, static_cast<uint32_t>(d), 32, true, kV, api, loc);
      for (uint32_t i = 0; i < per; ++i) {
        // 16-bit: element i of block j is element j of source i; 32-bit: block 2e + h holds element e of sources
        // 8h .. 8h + 7
        const int srci = elem == 2 ? static_cast<int>(i) : static_cast<int>(8 * (j % 2) + i);
        const uint32_t e = elem == 2 ? static_cast<uint32_t>(j) : static_cast<uint32_t>(j / 2);
        std::memcpy(base + d + i * elem, in[srci] + e * elem, elem);
      }
    }
  }
  trace_instr(kV, api, elem == 1 ? DType::U8 : elem == 2 ? DType::U16 : DType::U32, 16ull * 32 / elem * p.repeatTimes,
              512ull * p.repeatTimes, p.repeatTimes, loc);
}

void set_va_reg(int va, const uint64_t* addrs, Loc loc) {
  if (va < 0 || va > 7) fail("param", "set_va_reg_sb", loc, "VA register " + std::to_string(va) + " is not VA0-VA7");
  for (int i = 0; i < 8; ++i) cur().va_regs[va][i] = addrs[i];
}

void vnchwconv(uint32_t elem, int dst_va, int src_va, const AscendC::TransDataTo5HDParams& p, Loc loc) {
  const char* api = elem == 1 ? "scatter_vnchwconv_b8" : elem == 2 ? "scatter_vnchwconv_b16" : "scatter_vnchwconv_b32";
  if (dst_va < 0 || dst_va > 6 || src_va < 0 || src_va > 6)
    fail("param", api, loc, "the address lists are VA registers n and n + 1 with n in VA0-VA6");
  const Core& c = cur();
  uint64_t d[16], s[16];
  for (int i = 0; i < 8; ++i) {
    d[i] = c.va_regs[dst_va][i];
    d[8 + i] = c.va_regs[dst_va + 1][i];
    s[i] = c.va_regs[src_va][i];
    s[8 + i] = c.va_regs[src_va + 1][i];
  }
  trans_data_5hd(elem, d, s, p, loc, api);
}

uint32_t ub_bytes() { return cur().soc->mem_size[static_cast<int>(Mem::UB)]; }
}  // namespace kgen::rt
