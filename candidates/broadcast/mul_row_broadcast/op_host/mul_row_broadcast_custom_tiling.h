// Tiling data of MulRowBroadcastCustom: y[M, N] = x[M, N] * scale[N]. Whole rows are split over the vector
// cores and moved through UB as [tileRows, N] tiles, each row padded to 32 bytes in UB.
#ifndef MUL_ROW_BROADCAST_CUSTOM_TILING_H
#define MUL_ROW_BROADCAST_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MulRowBroadcastCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: x's last dim, the length of scale
TILING_DATA_FIELD_DEF(uint32_t, colsAligned); // N rounded up to a 32-byte multiple: the UB row pitch in elements
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile (<= 255: one vector repeat per row)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MulRowBroadcastCustom, MulRowBroadcastCustomTilingData)
}  // namespace optiling
#endif
