// CANN's header of the single-core Matmul tiling (matmul_tiling::MatmulApiTiling).
#pragma once
#include "tiling/tiling_api.h"
