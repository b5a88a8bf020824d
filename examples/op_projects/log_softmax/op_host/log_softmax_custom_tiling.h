// Tiling data of LogSoftmaxCustom: y = log_softmax(x, dim=-1) of x[M, N] through the LogSoftMax API.
#ifndef LOG_SOFTMAX_CUSTOM_TILING_H
#define LOG_SOFTMAX_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftmaxCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);        // M: product of all dims but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);        // N: the softmax dim
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // the first formerNum cores take formerRows rows, the others tailRows
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per UB tile
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);    // LogSoftMax's sharedTmpBuffer, within GetLogSoftMaxMin/MaxTmpSize
// LogSoftMaxTilingFunc for a full tile [tileRows, N padded to 32 bytes]; shorter tiles pass their own
// SoftMaxShapeInfo.
TILING_DATA_FIELD_DEF_STRUCT(LogSoftMaxTiling, logSoftmaxTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogSoftmaxCustom, LogSoftmaxCustomTilingData)
}  // namespace optiling
#endif
