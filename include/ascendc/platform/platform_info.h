// CANN platform/platform_info.h: fe::PlatFormInfos, the platform description a TilingContext hands out; kgen's
// is opaque and read through platform_ascendc::PlatformAscendC (tiling/platform/platform_ascendc.h).
#pragma once
#include "tiling/platform/platform_ascendc.h"
