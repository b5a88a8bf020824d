// Which kind of core may run an instruction: cube instructions (MTE1, M, FIX, ND2NZ/Load2D into L1/L0) need a
// cube core (AIC), vector instructions (V pipe, UB) a vector core (AIV). On 310P (arch 2002) an AI Core is
// coupled (cube and vector in one core), so both kinds run everywhere.
#pragma once
#include <string>

#include "sim/core.h"

namespace kgen::sim {
// Fails with category "param" when the running core is not of kind `need`.
inline void require_core_kind(CoreKind need, const char* api, const Loc& loc) {
  const Core& c = cur();
  if (c.soc->arch == 2002 || c.kind == need) return;
  if (need == CoreKind::AIC)
    fail("param", api, loc,
         std::string(api) + " is a cube instruction but runs on a vector core (AIV); cube work runs on AIC cores: "
         "launch a cube kernel (KERNEL_TYPE_AIC_ONLY / SetKernelMode(KernelMode::AIC_MODE)) or, in a mixed kernel, "
         "guard the cube part with `if ASCEND_IS_AIC { ... }` (or return early `if (g_coreType == AscendC::AIV)`)");
  fail("param", api, loc,
       std::string(api) + " is a vector instruction but runs on a cube core (AIC), which has no vector unit or UB; "
       "launch a vector kernel (KERNEL_TYPE_AIV_ONLY / SetKernelMode(KernelMode::AIV_MODE)) or, in a mixed kernel, "
       "guard the vector part with `if ASCEND_IS_AIV { ... }`");
}
}  // namespace kgen::sim
