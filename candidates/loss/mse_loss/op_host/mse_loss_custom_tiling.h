// Tiling data of MseLossCustom: the elements of pred / target split over the vector cores in whole 32-byte blocks
// and streamed through UB in tiles; each core leaves a float partial sum in the workspace, and core 0 adds them.
#ifndef MSE_LOSS_CUSTOM_TILING_H
#define MSE_LOSS_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MseLossCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of pred (= of target)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // the first formerNum cores take formerLength elements, the others
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // tailLength (whole 32-byte blocks; the last core stops at
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, a multiple of 32 bytes
TILING_DATA_FIELD_DEF(uint32_t, usedCores);     // partial sums to add at the end
TILING_DATA_FIELD_DEF(float, scale);            // 1 / totalLength
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MseLossCustom, MseLossCustomTilingData)
}  // namespace optiling
#endif
