// CANN's header of the multi-core Matmul tiling (matmul_tiling::MultiCoreMatmulTiling).
#pragma once
#include "tiling/tiling_api.h"
