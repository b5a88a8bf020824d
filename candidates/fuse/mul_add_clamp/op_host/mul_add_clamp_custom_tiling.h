// Tiling data of MulAddClampCustom: y = clamp(a * b + c, lo, hi), elementwise. The elements are split over the
// vector cores in whole 32-byte blocks and streamed through UB in tiles of tileLength elements.
#ifndef MUL_ADD_CLAMP_CUSTOM_TILING_H
#define MUL_ADD_CLAMP_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MulAddClampCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of each of a, b, c, y
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // the first formerNum cores take formerLength elements, the others
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // tailLength (whole 32-byte blocks: every core starts 32-byte
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // aligned; the last core stops at totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, a multiple of 32 bytes
TILING_DATA_FIELD_DEF(int32_t, loInt);          // attr lo, saturated to int32 (int32 kernels)
TILING_DATA_FIELD_DEF(int32_t, hiInt);          // attr hi, saturated to int32
TILING_DATA_FIELD_DEF(float, loFloat);          // attr lo as float32 (float kernels compute in float32)
TILING_DATA_FIELD_DEF(float, hiFloat);          // attr hi as float32
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MulAddClampCustom, MulAddClampCustomTilingData)
}  // namespace optiling
#endif
