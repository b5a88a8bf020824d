// Tiling data of AddBiasBroadcastCustom: y = x + bias with x [N, C, H, W] and bias [C, 1, 1]. x is viewed as
// N * C planes of H * W elements, plane p taking bias[p % C]; whole planes are split over the vector cores and
// moved through UB as [tilePlanes, chunkLen] tiles (a plane longer than one UB row is cut into chunks).
#ifndef ADD_BIAS_BROADCAST_CUSTOM_TILING_H
#define ADD_BIAS_BROADCAST_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddBiasBroadcastCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, channels);     // C: bias length; plane p uses bias[p % C]
TILING_DATA_FIELD_DEF(uint32_t, planeLen);     // H * W: elements per plane
TILING_DATA_FIELD_DEF(uint32_t, chunkLen);     // elements of a plane per UB row (planeLen unless a plane is too long)
TILING_DATA_FIELD_DEF(uint32_t, pitch);        // UB row pitch in elements: chunkLen rounded up to 32 bytes of x
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // the first formerNum cores take formerPlanes planes, the rest
TILING_DATA_FIELD_DEF(uint32_t, formerPlanes); // tailPlanes
TILING_DATA_FIELD_DEF(uint32_t, tailPlanes);
TILING_DATA_FIELD_DEF(uint32_t, tilePlanes);   // planes per UB tile (<= 255: one vector repeat per plane)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddBiasBroadcastCustom, AddBiasBroadcastCustomTilingData)
}  // namespace optiling
#endif
