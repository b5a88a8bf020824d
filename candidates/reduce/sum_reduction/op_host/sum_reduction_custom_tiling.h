// Tiling data of SumReductionCustom: x viewed as [outer, reduceLen, inner] around the reduced dim.
// Tiling key 1 (inner == 1): rows of reduceLen contiguous elements, split over the cores by rows.
// Tiling key 2 (inner > 1): [outer, chunk of inner columns] units split over the cores, each summing reduceLen
// strided rows of its chunk.
#ifndef SUM_REDUCTION_CUSTOM_TILING_H
#define SUM_REDUCTION_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SumReductionCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, outer);       // product of the dims before the reduced one
TILING_DATA_FIELD_DEF(uint32_t, reduceLen);   // the reduced dim
TILING_DATA_FIELD_DEF(uint32_t, inner);       // product of the dims after it
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerUnits units, the others tailUnits
TILING_DATA_FIELD_DEF(uint32_t, formerUnits); // (a unit is a row for key 1, an [outer, column chunk] pair for key 2)
TILING_DATA_FIELD_DEF(uint32_t, tailUnits);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // key 1: rows per UB tile (<= 255); key 2: reduced rows per UB tile
TILING_DATA_FIELD_DEF(uint32_t, tileCols);    // key 1: reduced elements per UB tile; key 2: columns per chunk
TILING_DATA_FIELD_DEF(uint32_t, chunkNum);    // key 2: column chunks per outer index
TILING_DATA_FIELD_DEF(uint32_t, rowsPad);     // key 1: tileRows rounded up to 8 (int32 transpose buffers)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SumReductionCustom, SumReductionCustomTilingData)
}  // namespace optiling
#endif
