// Tiling data of SgdMomentumCustom: the elements of param / grad / momentum_buf split over the vector cores in
// whole 32-byte blocks and streamed through UB in tiles, plus the three hyper-parameters.
#ifndef SGD_MOMENTUM_CUSTOM_TILING_H
#define SGD_MOMENTUM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SgdMomentumCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of each tensor
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // the first formerNum cores take formerLength elements, the others
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // tailLength (whole 32-byte blocks, so every core starts aligned;
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // the last core stops at totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, a multiple of 32 bytes
TILING_DATA_FIELD_DEF(float, lr);
TILING_DATA_FIELD_DEF(float, momentum);
TILING_DATA_FIELD_DEF(float, weightDecay);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SgdMomentumCustom, SgdMomentumCustomTilingData)
}  // namespace optiling
#endif
