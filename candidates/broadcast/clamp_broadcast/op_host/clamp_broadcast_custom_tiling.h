// Tiling data of ClampBroadcastCustom: y[M, N] = min(max(x[M, N], lo[N]), hi[N]). Whole rows are split over the
// vector cores and moved through UB as [tileRows, N] tiles, each row padded to 32 bytes.
#ifndef CLAMP_BROADCAST_CUSTOM_TILING_H
#define CLAMP_BROADCAST_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClampBroadcastCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: x's last dim, the length of lo and hi
TILING_DATA_FIELD_DEF(uint32_t, pitch);       // UB row pitch in elements: N rounded up to 32 bytes of x
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile (<= 255: one vector repeat per row)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClampBroadcastCustom, ClampBroadcastCustomTilingData)
}  // namespace optiling
#endif
