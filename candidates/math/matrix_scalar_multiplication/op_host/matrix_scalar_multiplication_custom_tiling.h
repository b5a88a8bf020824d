// Tiling data of MatrixScalarMultiplicationCustom: C = A * scalar. The elements of A are split over the vector
// cores in whole 32-byte blocks and streamed through UB in tiles of tileLength elements.
#ifndef MATRIX_SCALAR_MULTIPLICATION_CUSTOM_TILING_H
#define MATRIX_SCALAR_MULTIPLICATION_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatrixScalarMultiplicationCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of A
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // the first formerNum cores take formerLength elements, the others
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // tailLength (whole 32-byte blocks: every core starts 32-byte
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // aligned; the last core stops at totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, a multiple of 32 bytes
TILING_DATA_FIELD_DEF(float, scalar);           // attr scalar
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatrixScalarMultiplicationCustom, MatrixScalarMultiplicationCustomTilingData)
}  // namespace optiling
#endif
