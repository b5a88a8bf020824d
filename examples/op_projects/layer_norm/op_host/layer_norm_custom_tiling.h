// Tiling data of LayerNormCustom: layer norm over the last dim of x[M, N] with gamma[N], beta[N].
#ifndef LAYER_NORM_CUSTOM_TILING_H
#define LAYER_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);        // M: product of all dims but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: the normalized dim
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile (<= 255: one repeat per row)
TILING_DATA_FIELD_DEF(float, invCols);        // 1 / N
TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LayerNormCustom, LayerNormCustomTilingData)
}  // namespace optiling
#endif
