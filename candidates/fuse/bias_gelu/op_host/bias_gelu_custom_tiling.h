// Tiling data of BiasGeluCustom: y = gelu(x + bias) (erf form), x [M, N], bias [N]. Whole rows are split over the
// vector cores and moved through UB as [tileRows, N] tiles, each row padded to 32 bytes.
#ifndef BIAS_GELU_CUSTOM_TILING_H
#define BIAS_GELU_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BiasGeluCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: x's last dim, the length of bias
TILING_DATA_FIELD_DEF(uint32_t, pitch);       // UB row pitch in elements: N rounded up to 32 bytes of x
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile (<= 255: one vector repeat per row)
TILING_DATA_FIELD_DEF(uint32_t, erfTmpBytes); // scratch UB for Erf
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BiasGeluCustom, BiasGeluCustomTilingData)
}  // namespace optiling
#endif
