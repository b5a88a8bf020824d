// Enhanced DataCopy (guide 0327 "增强数据搬运", DataCopyEnhancedParams): on the Atlas inference series AI Core
// (310P, arch 2002) the CO1 -> CO2 path (L0C -> UB) on the vector pipe, in 16x16 (BLOCK_MODE_MATRIX) or 1x16
// (BLOCK_MODE_VECTOR) units, with ReLU and the DEQ / VDEQ / DEQ8 / VDEQ8 / DEQ16 / VDEQ16 conversions. On the other
// paths (GM <-> local, UB -> UB) the enhanced parameters have no effect: the copy is the basic DataCopy. On 910B
// (arch 2201) L0C has no path to UB: it goes to GM through Fixpipe.
#pragma once
#include "kgen/cube.h"

// Padding modes of the DMA instructions; a compiler built-in type in CANN (global namespace).
typedef enum {
  PAD_NONE = 0,
  PAD_MODE1 = 1,
  PAD_MODE2 = 2,
  PAD_MODE3 = 3,
  PAD_MODE4 = 4,
  PAD_MODE5 = 5,
  PAD_MODE6 = 6,
  PAD_MODE7 = 7,
  PAD_MODE8 = 8,
} pad_t;

namespace AscendC {
enum class BlockMode : uint8_t {
  BLOCK_MODE_NORMAL = 0,
  BLOCK_MODE_MATRIX,
  BLOCK_MODE_VECTOR,
  BLOCK_MODE_SMALL_CHANNEL,
  BLOCK_MODE_DEPTHWISE,
};

enum class DeqScale : uint8_t {
  DEQ_NONE = 0,
  DEQ,
  VDEQ,
  DEQ8,
  VDEQ8,
  DEQ16,
  VDEQ16,
};

struct DataCopyEnhancedParams {
  DataCopyEnhancedParams() {}
  DataCopyEnhancedParams(const BlockMode blockModeIn, const DeqScale deqScaleIn, const uint64_t deqValueIn,
                         const uint8_t sidStoreModeIn, const bool isReluIn, const pad_t padModeIn,
                         const uint64_t padValueIn)
      : blockMode(blockModeIn), deqScale(deqScaleIn), deqValue(deqValueIn), sidStoreMode(sidStoreModeIn),
        isRelu(isReluIn), padMode(padModeIn), padValue(padValueIn) {}
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  DeqScale deqScale = DeqScale::DEQ_NONE;
  uint64_t deqValue = 0;
  uint8_t sidStoreMode = 0;
  bool isRelu = false;
  pad_t padMode = pad_t::PAD_NONE;
  uint64_t padValue = 0;
  uint64_t deqTensorAddr = 0;
};
}  // namespace AscendC

namespace kgen::rt {
// DataCopy(local dst, local src, DataCopyParams, DataCopyEnhancedParams): CO1 -> UB on 310P (pipe V), otherwise
// the basic local -> local DataCopy (same element type only).
void cube_co2_copy(const LocalRef& dst, DType dd, const LocalRef& src, DType ds, const AscendC::DataCopyParams& p,
                   const AscendC::DataCopyEnhancedParams& e, Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& intriParams,
              const DataCopyEnhancedParams& enhancedParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  (void)enhancedParams;   // no effect on GM -> local (guide 0327)
  const auto& d = kgen::TensorAccess::ref(dst);
  kgen::rt::data_copy(d.pos, &d, nullptr, TPosition::GM, nullptr, src.GetPhyAddr(), kgen::dtype_of<T>(), intriParams,
                      false, 0, loc);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& intriParams,
              const DataCopyEnhancedParams& enhancedParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  (void)enhancedParams;   // no effect on local -> GM (guide 0327)
  const auto& s = kgen::TensorAccess::ref(src);
  kgen::rt::data_copy(TPosition::GM, nullptr, dst.GetPhyAddr(0), s.pos, &s, nullptr, kgen::dtype_of<T>(), intriParams,
                      false, 0, loc);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& intriParams,
              const DataCopyEnhancedParams& enhancedParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_co2_copy(kgen::TensorAccess::ref(dst), kgen::dtype_of<T>(), kgen::TensorAccess::ref(src),
                          kgen::dtype_of<T>(), intriParams, enhancedParams, loc);
}
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& intriParams,
              const DataCopyEnhancedParams& enhancedParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_co2_copy(kgen::TensorAccess::ref(dst), kgen::dtype_of<T>(), kgen::TensorAccess::ref(src),
                          kgen::dtype_of<U>(), intriParams, enhancedParams, loc);
}
}  // namespace AscendC
