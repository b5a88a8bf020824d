// Tiling data of AddBroadcastCustom: y[M, N] = x[M, N] + bias[N], rows split over the vector cores.
#ifndef ADD_BROADCAST_CUSTOM_TILING_H
#define ADD_BROADCAST_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddBroadcastCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);        // M: product of all dims but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: the last dim, bias length
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile (<= 255: one repeat per row)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddBroadcastCustom, AddBroadcastCustomTilingData)
}  // namespace optiling
#endif
