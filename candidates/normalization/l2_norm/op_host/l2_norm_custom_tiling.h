// Tiling data of L2NormCustom: y = x / max(||x||_2, eps) over the last dim of x[M, N]. Rows are split over the
// vector cores. Tiling key 1: whole rows fit UB, tiles of [tileRows, N]. Tiling key 2: long rows, two passes over
// chunks of tileCols elements (sum of squares, then scale).
#ifndef L2_NORM_CUSTOM_TILING_H
#define L2_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2NormCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);        // M: product of all dims but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: the normalized dim
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // key 1: rows per UB tile (<= 255, one repeat per row)
TILING_DATA_FIELD_DEF(uint32_t, tileCols);    // key 1: N padded to 32 bytes; key 2: elements per chunk
TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(L2NormCustom, L2NormCustomTilingData)
}  // namespace optiling
#endif
