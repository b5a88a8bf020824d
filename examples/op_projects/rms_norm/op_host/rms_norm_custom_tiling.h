// Tiling data of RmsNormCustom: RMS norm over the last dim of x[M, N] with gamma[N], through the RmsNorm API.
#ifndef RMS_NORM_CUSTOM_TILING_H
#define RMS_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);        // M: product of all dims but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: the normalized dim
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);    // RmsNorm's sharedTmpBuffer, from GetRmsNormMaxMinTmpSize
TILING_DATA_FIELD_DEF(float, epsilon);
// RmsNorm tilings (GetRmsNormTilingInfo) of the three tile shapes [1, rows, N padded to 32 bytes]: a full tile,
// the last tile of a core with formerRows rows, the last tile of a core with tailRows rows.
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, fullTiling);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, formerLastTiling);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, tailLastTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormCustomTilingData)
}  // namespace optiling
#endif
