#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t MAX_LIST = 16;
BEGIN_TILING_DATA_DEF(ScaleSigmoidListTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, count);
  TILING_DATA_FIELD_DEF(uint32_t, tile);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 16, numel);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleSigmoidListCustom, ScaleSigmoidListTilingData)
}  // namespace optiling
