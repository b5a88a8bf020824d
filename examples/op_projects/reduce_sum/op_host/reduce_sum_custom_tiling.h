// Tiling data of ReduceSumCustom: y[M] = sum of x[M, N] over the last dim. Tiling key 1: float, 2: float16.
#ifndef REDUCE_SUM_CUSTOM_TILING_H
#define REDUCE_SUM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceSumCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);        // M: product of all dims but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: the reduced (last) dim
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile (<= 255: one repeat per row)
TILING_DATA_FIELD_DEF(uint32_t, tileCols);    // columns per UB tile; rows longer than this are summed in chunks
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceSumCustom, ReduceSumCustomTilingData)
}  // namespace optiling
#endif
