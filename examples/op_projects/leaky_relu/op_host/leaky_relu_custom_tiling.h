// Tiling data of LeakyReluCustom: how the elements are split over the vector cores and into UB tiles.
#ifndef LEAKY_RELU_CUSTOM_TILING_H
#define LEAKY_RELU_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyReluCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of x
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // the first formerNum cores take formerLength elements
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // (both lengths are whole 32-byte blocks: every core starts
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    //  32-byte aligned; the last core stops at totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, a multiple of 32 bytes
TILING_DATA_FIELD_DEF(float, negativeSlope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyReluCustom, LeakyReluCustomTilingData)
}  // namespace optiling
#endif
