// Low-level cube path (guide 0329 ND2NZ, 0341 LoadData, 0342 LoadDataWithTranspose, 0465 Mmad, 0352 Fixpipe):
// GM->L1 with Nd2NzParams (MTE2), L1->L0A/L0B (MTE1), Mmad into L0C (M), L0C->GM (FIX).
#pragma once
#include "kgen/tensor.h"

// Quantisation modes of Fixpipe / DataCopyCO12DstParams; a compiler built-in enum in CANN (global namespace).
enum QuantMode_t { NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

namespace AscendC {
using ::QuantMode_t;
constexpr int32_t BLOCK_CUBE = 16;

struct Nd2NzParams {
  Nd2NzParams() {}
  Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
              const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
              const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

struct LoadData2DParams {
  LoadData2DParams() {}
  LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                   const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = 0;
  uint8_t repeatTimes = 0;
  uint8_t sid = 0;
  uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() {}
  LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                            const uint16_t dstGapIn, const uint16_t dstfracGapIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
        dstFracGap(dstfracGapIn), addrMode(addrModeIn) {}
  LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                            const uint16_t dstGapIn, const uint16_t dstfracGapIn)
      : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
        dstFracGap(dstfracGapIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

struct MmadParams {
  MmadParams() {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
             const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
      : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
             const bool cmatrixSourceIn, const bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn), cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  constexpr FixpipeConfig(CO2Layout format_) : format(format_) {}
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

struct FixpipeParamsV220 {
  FixpipeParamsV220() {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
        deqScalar(deqScalarIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn), unitFlag(unitFlagIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
        deqScalar(deqScalarIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn), unitFlag(unitFlagIn), isChannelSplit(isChannelSplitIn) {}
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};
}  // namespace AscendC

namespace kgen::rt {
// GM (src_gm) or a local tensor (src) -> dst with ND->NZ conversion.
void cube_nd2nz(const LocalRef& dst, const LocalRef* src, const void* src_gm, DType dt, const AscendC::Nd2NzParams& p,
                Loc loc);
// Load2D: L1 (src) or GM (src_gm) -> L0A/L0B (or GM -> L1), 512-byte fractals.
void cube_load2d(const LocalRef& dst, const LocalRef* src, const void* src_gm, DType dt,
                 const AscendC::LoadData2DParams& p, Loc loc);
void cube_load2d_transpose(const LocalRef& dst, const LocalRef& src, DType dt,
                           const AscendC::LoadData2dTransposeParams& p, Loc loc);
// Mmad: bias == nullptr for the form without bias.
void cube_mmad(const LocalRef& c, DType dc, const LocalRef& a, DType da, const LocalRef& b, DType db,
               const LocalRef* bias, DType dbias, const AscendC::MmadParams& p, Loc loc);
// Fixpipe L0C -> GM; deq: the VDEQF16/VQF322B8_PRE/VREQ8 tensor of uint64_t in A1, or nullptr.
void cube_fixpipe(void* dst, DType dd, const LocalRef& src, DType ds, const LocalRef* deq, bool nz2nd,
                  const AscendC::FixpipeParamsV220& p, Loc loc);
// DataCopy C1 -> C2 (L1 -> bias table, blockLen and gaps in 64-byte units of the source), half->float or same type.
void cube_copy_to_bias(const LocalRef& dst, DType dd, const LocalRef& src, DType ds, const AscendC::DataCopyParams& p,
                       Loc loc);
}  // namespace kgen::rt

namespace AscendC {
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& intriParams,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_nd2nz(kgen::TensorAccess::ref(dst), nullptr, src.GetPhyAddr(), kgen::dtype_of<T>(), intriParams, loc);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& intriParams,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_nd2nz(kgen::TensorAccess::ref(dst), &kgen::TensorAccess::ref(src), nullptr, kgen::dtype_of<T>(),
                       intriParams, loc);
}
// L1 (C1) -> bias table (C2) with a type change (half -> float); same-type copies go through the DataCopy above.
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& repeatParams,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_copy_to_bias(kgen::TensorAccess::ref(dst), kgen::dtype_of<T>(), kgen::TensorAccess::ref(src),
                              kgen::dtype_of<U>(), repeatParams, loc);
}

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& loadDataParams,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_load2d(kgen::TensorAccess::ref(dst), &kgen::TensorAccess::ref(src), nullptr, kgen::dtype_of<T>(),
                        loadDataParams, loc);
}
template <typename T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& loadDataParams,
              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_load2d(kgen::TensorAccess::ref(dst), nullptr, src.GetPhyAddr(), kgen::dtype_of<T>(), loadDataParams,
                        loc);
}
template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& loadDataParams,
                           kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_load2d_transpose(kgen::TensorAccess::ref(dst), kgen::TensorAccess::ref(src), kgen::dtype_of<T>(),
                                  loadDataParams, loc);
}

template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const MmadParams& mmadParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_mmad(kgen::TensorAccess::ref(dst), kgen::dtype_of<T>(), kgen::TensorAccess::ref(fm),
                      kgen::dtype_of<U>(), kgen::TensorAccess::ref(filter), kgen::dtype_of<S>(), nullptr,
                      kgen::DType::Unknown, mmadParams, loc);
}
template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const LocalTensor<V>& bias, const MmadParams& mmadParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_mmad(kgen::TensorAccess::ref(dst), kgen::dtype_of<T>(), kgen::TensorAccess::ref(fm),
                      kgen::dtype_of<U>(), kgen::TensorAccess::ref(filter), kgen::dtype_of<S>(),
                      &kgen::TensorAccess::ref(bias), kgen::dtype_of<V>(), mmadParams, loc);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& intriParams,
             kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_fixpipe(dst.GetPhyAddr(0), kgen::dtype_of<T>(), kgen::TensorAccess::ref(src), kgen::dtype_of<U>(),
                         nullptr, config.format == CO2Layout::ROW_MAJOR, intriParams, loc);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsV220& intriParams, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::cube_fixpipe(dst.GetPhyAddr(0), kgen::dtype_of<T>(), kgen::TensorAccess::ref(src), kgen::dtype_of<U>(),
                         &kgen::TensorAccess::ref(cbufWorkspace), config.format == CO2Layout::ROW_MAJOR, intriParams,
                         loc);
}
}  // namespace AscendC
