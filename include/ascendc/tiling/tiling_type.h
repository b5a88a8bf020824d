// CANN tiling/tiling_type.h (cann-ops / vllm-ascend op_host utilities): the enums a tiling key is assembled from
// (one decimal digit each, lowest first) and GET_TILINGKEY / TILINGKEY, which sum them with the 10^19 offset.
#pragma once
#include <cstdint>

namespace optiling {

enum class AxisEnum { B = 0, N2 = 1, G = 2, S1 = 3, S2 = 4, D = 5, NONE = 9 };
enum class DtypeEnum { FLOAT16 = 0, FLOAT32 = 1, BFLOAT16 = 2, FLOAT16_PRECISION = 3 };
enum class PerformanceOrientedEnum { BIG_BUFFER = 1, BIG_DOUBLE_BUFFER = 2 };
enum class MatmulConfig { NULL_CONFIG = 0, NORMAL_CONFIG = 1, MDL_CONFIG = 2 };
enum class PseConfig { NO_PSE = 0, EXIST_PSE = 1 };
enum class AttenMaskConfig { NO_ATTEN_MASK = 0, EXIST_ATTEN_MASK = 1 };
enum class DropOutConfig { NO_DROP_OUT = 0, EXIST_DROP_OUT = 1 };
enum class CubeFormatEnum { ND = 0, NZ = 1 };
enum class LayoutEnum { BSND = 0, SBND = 1, BNSD = 2, TND = 3, NTD_TND = 4 };
enum class CubeInputSourceEnum { GM = 0, L1 = 1 };
enum class OptionEnum { DISABLE = 0, ENABLE = 1 };
enum class SparseEnum {
  ALL = 0, NONE = 1, ANY = 2, CAUSAL = 3, BAND = 4, PREFIX = 5, BAND_COMPRESS = 6, RIGHT_DOWN_CAUSAL = 7,
  RIGHT_DOWN_CAUSAL_BAND = 8, BAND_LEFT_UP_CAUSAL = 9
};

// The ids as decimal digits: the first argument the lowest.
constexpr uint64_t RecursiveSum() { return 0; }
template <typename T, typename... Args>
constexpr uint64_t RecursiveSum(T templateId, Args... templateIds) {
  return static_cast<uint64_t>(templateId) + 10 * RecursiveSum(templateIds...);
}

constexpr uint64_t TILINGKEYOFFSET = uint64_t(10000000000000000000UL);   // 10^19
template <typename... Args>
constexpr uint64_t GET_TILINGKEY(Args... templateIds) {
  return TILINGKEYOFFSET + RecursiveSum(templateIds...);
}

#define TILINGKEY(ub2, ub1, block, dtype, layout, sparse)                          \
  (::optiling::GET_TILINGKEY(::optiling::AxisEnum::ub2, ::optiling::AxisEnum::ub1, \
                             ::optiling::AxisEnum::block, ::optiling::DtypeEnum::dtype, \
                             ::optiling::LayoutEnum::layout, ::optiling::SparseEnum::sparse))

}  // namespace optiling
