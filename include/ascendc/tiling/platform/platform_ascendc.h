// Host-side platform queries (CANN tiling/platform/platform_ascendc.h; guide 1080-1094). kgen answers for the
// SoC of the build (kgen cc --soc, macro KGEN_SOC) or, for PlatformAscendC(context->GetPlatformInfo()) in an op
// project's TilingFunc, the SoC the op runner runs for (--soc); the values are those the emulator enforces.
#pragma once
#include <cstdint>

#ifndef KGEN_SOC
#define KGEN_SOC "Ascend910B2"
#endif

namespace fe {
class PlatFormInfos;
}  // namespace fe

namespace kgen::rt {
// The platform description of a SoC (interned: one object per name) and back; implemented in libkgen_sim.
fe::PlatFormInfos* platform_infos(const char* soc);
const char* platform_soc(const fe::PlatFormInfos* infos);
}  // namespace kgen::rt

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, RESERVED_VERSION = 99999 };
enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo)
      : platformInfo_(platformInfo), soc_(platformInfo ? ::kgen::rt::platform_soc(platformInfo) : KGEN_SOC) {}
  uint32_t GetCoreNum(void) const;
  SocVersion GetSocVersion(void) const;
  uint32_t GetCoreNumAic(void) const;
  uint32_t GetCoreNumAiv(void) const;
  uint32_t GetCoreNumVector(void) const;
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  uint32_t GetLibApiWorkSpaceSize(void) const;
  void ReserveLocalMemory(ReservedSize size);

 private:
  friend class PlatformAscendCManager;
  fe::PlatFormInfos* platformInfo_;
  const char* soc_;
  uint32_t reservedUb_ = 0;
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() { return GetInstance(KGEN_SOC); }
  // On a machine without an NPU, customSocVersion names the SoC; only the first call's value takes effect.
  static PlatformAscendC* GetInstance(const char* customSocVersion);

 private:
  PlatformAscendCManager() = default;
};
}  // namespace platform_ascendc
