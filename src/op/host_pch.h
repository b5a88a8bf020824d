// When a host compile may use kgen's precompiled register/tilingdata_base.h (the header that carries most of a host
// file's parse time): only when that changes nothing the compiler sees.
#pragma once
#include "op/project.h"

namespace kgen::op {
// True when p's host file begins (comments and blank lines aside) with #include of p's tiling header, and that header
// begins (comments, #pragma once or an include guard aside) with #include of register/tilingdata_base.h: then the
// first thing the compiler reads is that header either way, and force-including it first is the same translation
// unit. Anything else (a #define first, another header first) compiles without the precompiled header.
bool host_pch_applies(const Project& p);
}  // namespace kgen::op
