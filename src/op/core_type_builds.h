// Kernels built once per core type, as bisheng builds them: CANN compiles a 910B kernel for dav-c220-cube and
// dav-c220-vec, with g_coreType a constexpr in each (docs/sources.md S45, S68). kgen builds a kernel once, with
// g_coreType a per-core variable, unless the kernel needs the constant.
#pragma once
#include <string>
#include <vector>

#include "op/build.h"

namespace kgen::op {
constexpr const char* kCoreTypeMacro = "KGEN_CORE_TYPE";   // include/ascendc/kgen/sys.h: g_coreType's value

// Whether a kernel uses g_coreType as a constant: a template argument (`Flag<MODE, g_coreType>`), a default template
// argument (`template <int32_t CORE_TYPE = g_coreType>`), a constexpr or a static_assert. Reads the kernel file and
// the headers beside it (comments skipped); find_project records it in Project::core_type_builds.
bool uses_core_type_constant(const std::string& kernel_cpp);
// The kernel builds for one set of DTYPE_ macros: `defines` itself, or, for a kernel built per core type
// (Project::core_type_builds), one with KGEN_CORE_TYPE = AscendC::AIC (1) and one with AscendC::AIV (2), in that order.
std::vector<Defines> kernel_builds(const Project& p, const std::string& soc, const Defines& defines);
}  // namespace kgen::op
