// CANN's tiling/tiling_type.h as kgen provides it: tiling keys assembled from enum digits, lowest first.
#include <gtest/gtest.h>

#include "tiling/tiling_type.h"

namespace {
using namespace optiling;

TEST(TilingType, KeysAreTheDigitsAboveTheOffset) {
  static_assert(RecursiveSum() == 0);
  static_assert(GET_TILINGKEY(AxisEnum::S1, AxisEnum::S2) == 10000000000000000043ull);
  EXPECT_EQ(TILINGKEY(S2, S1, N2, FLOAT32, BSND, ALL), 10000000000000001134ull);
  EXPECT_EQ(TILINGKEY(NONE, NONE, B, BFLOAT16, TND, CAUSAL), 10000000000000332099ull);
}
}  // namespace
