// Host-side Matmul tiling (CANN tiling/tiling_api.h, lib/matmul/matmul_tiling.h, lib/matmul/bmm_tiling.h; guide
// 0681-0718): matmul_tiling::MatmulApiTiling (one core) and MultiCoreMatmulTiling fill a TCubeTiling that the
// kernel-side Matmul accepts. Implemented in libkgen_sim (src/sim/matmul_tiling.cpp); the tiling is checked with
// the same rules the kernel side applies at REGIST_MATMUL_OBJ / Init.
//
// Also the host tiling of the high-level vector APIs (guide: SoftMax/LogSoftMax/LayerNorm/RmsNorm "Tiling" and
// GetReduceXxxMaxMinTmpSize): optiling::SoftMaxTiling, LogSoftMaxTiling, LayerNormTiling, RmsNormTiling (TilingData
// classes with the layout of the kernel structs AscendC::tiling::*, usable in TILING_DATA_FIELD_DEF_STRUCT) and the
// AscendC:: functions that size temporary buffers and fill them, including GetXxxMaxMinTmpSize of the elementwise
// math APIs (Sigmoid, Tanh, Gelu, Erf, Sin, Cos, Log/Log2/Log10, Silu, Swish, Floor, Ceil, Round, Trunc, Sign,
// Clamp, Exp, Power, Fmod, CumSum). Implemented in libkgen_host (src/host/tiling_api.cpp,
// linked by every op_host library); the sizes are the ones the kernel-side implementations (src/sim/adv_*.cpp) check.
#pragma once
#include <cstddef>
#include <cstdint>
// std::array, std::find, std::cout, map, set, string and vector are reachable through CANN's tiling headers; op
// projects use them unincluded (NPUKernelBench's ReverseSequence: std::array, std::find)
#include <algorithm>
#include <array>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "tiling/platform/platform_ascendc.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace optiling {
// Unqualified `map` and `vector` in namespace optiling compile against CANN's tiling headers: NPUKernelBench's
// GeGluGradV2 and ScatterList answers, built by CANN's CMake, rely on it.
using std::map;
using std::vector;
// The host's Matmul TilingData (CANN: BEGIN_TILING_DATA_DEF(TCubeTiling)): set_/get_ accessors per field.
class TCubeTiling {
 public:
#define KGEN_TCUBE_ACCESS(name) \
  void set_##name(int32_t v) { data_.name = v; } \
  int32_t get_##name() const { return data_.name; }
  KGEN_TCUBE_TILING_FIELDS(KGEN_TCUBE_ACCESS)
#undef KGEN_TCUBE_ACCESS
  void SaveToBuffer(void* pData, size_t capacity) const {
    if (capacity >= sizeof(data_)) __builtin_memcpy(pData, &data_, sizeof(data_));
  }
  size_t GetDataSize() const { return sizeof(data_); }

 private:
  ::AscendC::tiling::TCubeTiling data_;
};
}  // namespace optiling

namespace matmul_tiling {
enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM,
                       MAX };
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class DataType { DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
                      DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12,
                      DT_BF16 = 27, DT_INT4 = 29, DT_MAX };
enum class MatrixTraverse { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType { NORMAL = 0, HF32 = 1 };

struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};
}  // namespace matmul_tiling

namespace kgen {
// What a Matmul tiling object was told (kgen-internal state of matmul_tiling::MatmulApiTilingBase).
struct MmTilingParams {
  uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, ub = 0, bt = 0;   // the platform's sizes
  int32_t aicCores = 0, aivCores = 0;
  matmul_tiling::TPosition pos[4] = {};
  matmul_tiling::CubeFormat fmt[4] = {};
  matmul_tiling::DataType dt[4] = {matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT16,
                                   matmul_tiling::DataType::DT_FLOAT, matmul_tiling::DataType::DT_FLOAT};
  bool typeSet[4] = {};
  bool transA = false, transB = false, bias = false;
  int32_t m = -1, n = -1, k = -1;                 // SetShape
  int32_t orgM = -1, orgN = -1, orgKa = -1, orgKb = -1;
  int32_t singleM = -1, singleN = -1, singleK = -1;
  int32_t baseM = -1, baseN = -1, baseK = -1;     // SetFixSplit
  int32_t maxBase[3] = {-1, -1, -1}, minBase[3] = {-1, -1, -1};
  int32_t maxSingle[3] = {-1, -1, -1}, minSingle[3] = {-1, -1, -1};
  int32_t alignSingle[3] = {0, 0, 0};
  int32_t l1Limit = -1, l0cLimit = -1, ubLimit = -1, btLimit = -1;
  int32_t traverse = 0;
  int32_t dim = 1;
  bool multi = false;
  bool splitK = false;
  // results
  int32_t outBase[3] = {0, 0, 0}, outSingle[3] = {0, 0, 0}, outDim[3] = {0, 0, 0};
};
}  // namespace kgen

namespace matmul_tiling {
class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase() : MatmulApiTilingBase(*platform_ascendc::PlatformAscendCManager::GetInstance()) {}
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase() = default;
  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t EnableBias(bool isBiasIn = false);
  int32_t SetBias(bool isBiasIn = false);
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  int32_t SetMadType(MatrixMadType madType);
  int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                        int32_t minBaseN = -1, int32_t minBaseK = -1);
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true);
  int32_t GetBaseM() const { return p_.outBase[0]; }
  int32_t GetBaseN() const { return p_.outBase[1]; }
  int32_t GetBaseK() const { return p_.outBase[2]; }
  int64_t GetTiling(optiling::TCubeTiling& tiling);
  int64_t GetTiling(::AscendC::tiling::TCubeTiling& tiling);

 protected:
  kgen::MmTilingParams p_;
};

class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() = default;
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() { p_.multi = true; }
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) { p_.multi = true; }
  explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) { p_.multi = true; }
  int32_t SetDim(int32_t dim);
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                         int32_t minN = -1, int32_t minK = -1);
  int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);
  void EnableMultiCoreSplitK(bool flag);
  void SetSplitK(bool flag);
};
}  // namespace matmul_tiling

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM);
TILING_DATA_FIELD_DEF(uint32_t, srcK);
TILING_DATA_FIELD_DEF(uint32_t, srcSize);
TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
TILING_DATA_FIELD_DEF(uint32_t, splitM);
TILING_DATA_FIELD_DEF(uint32_t, splitK);
TILING_DATA_FIELD_DEF(uint32_t, splitSize);
TILING_DATA_FIELD_DEF(uint32_t, reduceM);
TILING_DATA_FIELD_DEF(uint32_t, reduceK);
TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
TILING_DATA_FIELD_DEF(uint32_t, rangeM);
TILING_DATA_FIELD_DEF(uint32_t, tailM);
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM);
TILING_DATA_FIELD_DEF(uint32_t, srcK);
TILING_DATA_FIELD_DEF(uint32_t, srcSize);
TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
TILING_DATA_FIELD_DEF(uint32_t, splitM);
TILING_DATA_FIELD_DEF(uint32_t, splitK);
TILING_DATA_FIELD_DEF(uint32_t, splitSize);
TILING_DATA_FIELD_DEF(uint32_t, reduceM);
TILING_DATA_FIELD_DEF(uint32_t, reduceK);
TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
TILING_DATA_FIELD_DEF(uint32_t, rangeM);
TILING_DATA_FIELD_DEF(uint32_t, tailM);
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LayerNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(uint32_t, inputXSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
TILING_DATA_FIELD_DEF(uint32_t, bsCurLength);
TILING_DATA_FIELD_DEF(float, lastDimValueBack);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(RmsNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(float, reciprocalOfHLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBshLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, tailBshLength);
TILING_DATA_FIELD_DEF(uint32_t, tailBsLength);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
enum class ReducePattern : uint32_t {
  AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR,
  RARARARA,
};
// SoftMax / LogSoftMax over the last axis of srcShape (the other axes are rows).
uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       optiling::SoftMaxTiling& softmaxTiling);
namespace tiling {
struct SoftMaxTiling;   // the kernel's struct (kgen/adv_norm.h): optiling::SoftMaxTiling's fields in the same order
}  // namespace tiling
// SoftmaxGrad (isFront: the row sums only, as SoftmaxGradFront): the minimum is one row, the maximum every row; the
// tiling splits the rows by the work space.
uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                  const bool isReuseSource);
uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                  const bool isReuseSource);
void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           optiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false);
void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           AscendC::tiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false);
uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling);
// LayerNorm / RmsNorm of srcShape [B, S, H].
void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                               uint32_t& maxValue, uint32_t& minValue);
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                              const bool isReuseSource, optiling::LayerNormTiling& tilling);
bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                             uint32_t& minValue, const bool isBasicBlock = false);
bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferByteSize,
                          const uint32_t typeSize, optiling::RmsNormTiling& tiling, const bool isBasicBlock = false);
// Pattern reduces (AR / RA of srcShape {first, last}).
#define KGEN_REDUCE_TMP_DECL(Name)                                                                          \
  void GetReduce##Name##MaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType,              \
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,       \
                                      uint32_t& maxValue, uint32_t& minValue);
KGEN_REDUCE_TMP_DECL(Sum)
KGEN_REDUCE_TMP_DECL(Mean)
KGEN_REDUCE_TMP_DECL(Max)
KGEN_REDUCE_TMP_DECL(Min)
KGEN_REDUCE_TMP_DECL(Prod)
KGEN_REDUCE_TMP_DECL(Any)
KGEN_REDUCE_TMP_DECL(All)
#undef KGEN_REDUCE_TMP_DECL
// Elementwise high-level math APIs (guide 0510-0626, 0750-0770): the temporary space of the kernel-side API for a
// source of srcShape's size; a sharedTmpBuffer of minValue bytes is the least the kernel side accepts.
#define KGEN_ELEM_TMP_DECL(Name)                                                                             \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                uint32_t& maxValue, uint32_t& minValue);
KGEN_ELEM_TMP_DECL(Tanh)
KGEN_ELEM_TMP_DECL(Erf)
KGEN_ELEM_TMP_DECL(Sin)
KGEN_ELEM_TMP_DECL(Cos)
KGEN_ELEM_TMP_DECL(Log)
KGEN_ELEM_TMP_DECL(Log2)
KGEN_ELEM_TMP_DECL(Log10)
KGEN_ELEM_TMP_DECL(Floor)
KGEN_ELEM_TMP_DECL(Ceil)
KGEN_ELEM_TMP_DECL(Trunc)
KGEN_ELEM_TMP_DECL(Sign)
KGEN_ELEM_TMP_DECL(Clamp)
KGEN_ELEM_TMP_DECL(Fmod)
KGEN_ELEM_TMP_DECL(Acos)
KGEN_ELEM_TMP_DECL(Asin)
KGEN_ELEM_TMP_DECL(Atan)
KGEN_ELEM_TMP_DECL(Cosh)
KGEN_ELEM_TMP_DECL(Sinh)
KGEN_ELEM_TMP_DECL(Tan)
KGEN_ELEM_TMP_DECL(Erfc)
#undef KGEN_ELEM_TMP_DECL
void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                             uint32_t& maxValue, uint32_t& minValue);
bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxValue, uint32_t& minValue);
// Round: for the SoC of ascendcPlatform. Power: for the SoC of PlatformAscendCManager::GetInstance(); a shape {1}
// is a scalar operand.
void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                           const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                           const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
// Gelu, FasterGelu, FasterGeluV2.
uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue);
// Silu and Swish need no temporary space (both 0).
void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& max,
                    uint32_t& min);
void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& max,
                     uint32_t& min);
// SelectWithBytesMask (also named Select): 2-D shapes; the scalar operand's shape is {1} (or has no dims). The larger
// of 1024 bytes and the source padded to 32 elements in half plus 512; the minimum counts at most 4096 elements; plus
// the compacted mask when its rows are longer than the source's and isReuseMask is false.
using TensorShape = ge::Shape;
uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize, const bool isReuseMask);
uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize, const bool isReuseMask);
void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                         const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                         const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                         uint32_t& minValue);
uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                             const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask);
uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                             const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask);
void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                            const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
                            uint32_t& maxValue, uint32_t& minValue);
// Mean of n elements per row, source and accumulation element sizes (2, 2), (4, 4) or (2, 4): max = min.
void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                          const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize);
void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer);
// CumSum of a 2-D srcShape {outter, inner} along the last axis (isLastAxis) or the first.
void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
}  // namespace AscendC
