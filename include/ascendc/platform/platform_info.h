// CANN platform/platform_info.h: fe::PlatFormInfos, the platform description a TilingContext hands out
// (context->GetPlatformInfo()). Usually read through platform_ascendc::PlatformAscendC
// (tiling/platform/platform_ascendc.h); its own GetCoreNum and GetLocalMemSize give the same values. One object per
// SoC, made and kept by libkgen_sim.
#pragma once
#include <cstdint>
#include <string>
#include "tiling/platform/platform_ascendc.h"

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfos {
 public:
  uint32_t GetCoreNum() const;   // as PlatformAscendC::GetCoreNum: the vector cores of an Atlas A2 SoC
  void GetLocalMemSize(const LocalMemType& mem_type, uint64_t& size) const;

  std::string kgen_soc;   // the SoC this describes (kgen::rt::platform_soc)
};
}  // namespace fe
