// Tiling data of ReluCustom: how the elements of x are split over the vector cores and into UB tiles.
// ReLU is elementwise, so x is treated as one flat array whatever its shape.
#ifndef RELU_CUSTOM_TILING_H
#define RELU_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReluCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of x
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // the first formerNum cores take formerLength elements, the others
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // tailLength (both whole 32-byte blocks, so every core starts
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // 32-byte aligned; the last core stops at totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, a multiple of 64 (256 bytes of float)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluCustom, ReluCustomTilingData)
}  // namespace optiling
#endif
