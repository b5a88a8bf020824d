// Host tiling of the high-level vector APIs (tiling/tiling_api.h): temporary-buffer sizes and tiling structs with
// the values the kernel-side implementations accept. The formulas mirror the checks of src/sim/adv_norm.cpp
// (SoftMax, LayerNorm), src/sim/adv_norm2.cpp (RmsNorm, LogSoftMax) and src/sim/adv_common.h (softmax_rows): change
// them together (tests/unit/host_api_test.cpp runs the kernel APIs with buffers of exactly these sizes). The
// pattern reduces call the library's own formula (src/sim/adv_tmp_sizes.h, implemented in src/sim/adv_reduce.cpp), and
// so do the elementwise math APIs, Power and CumSum (src/sim/adv_tmp_sizes.cpp).
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "tiling/tiling_api.h"
#include "sim/adv_tmp_sizes.h"

namespace {
uint64_t a32(uint64_t b) { return (b + 31) / 32 * 32; }
uint64_t a8(uint64_t n) { return (n + 7) / 8 * 8; }
uint32_t clamp32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(v); }

// Rows (product of all but the last axis) and the last axis.
void rows_cols(const ge::Shape& s, uint64_t& m, uint64_t& k) {
  size_t n = s.GetDimNum();
  k = n ? static_cast<uint64_t>(std::max<int64_t>(s.GetDim(n - 1), 0)) : 0;
  m = 1;
  for (size_t i = 0; i + 1 < n; ++i) m *= static_cast<uint64_t>(std::max<int64_t>(s.GetDim(i), 0));
  if (n == 0) m = 0;
}
// [B, S, H]: H the last axis, S the one before (1 when absent), B the product of the rest.
void bsh(const ge::Shape& s, uint64_t& b, uint64_t& sl, uint64_t& h) {
  size_t n = s.GetDimNum();
  auto d = [&](size_t i) { return static_cast<uint64_t>(std::max<int64_t>(s.GetDim(i), 0)); };
  h = n ? d(n - 1) : 0;
  sl = n >= 2 ? d(n - 2) : 1;
  b = 1;
  for (size_t i = 0; i + 2 < n; ++i) b *= d(i);
}

// SoftMax / LogSoftMax: one row needs (one 32-byte block of the reduce type + K + 64) floats (adv_common.h).
uint64_t softmax_row_tmp(uint64_t k, uint32_t type_size) {
  uint32_t ts = type_size == 0 ? 4 : type_size;
  return (32 / ts + k + 64) * 4;
}
// `row`: the temporary bytes of one row (0: SoftMax's); SoftmaxGrad's split keeps a multiple of 8 rows when some
// rows are left over (softmax_tiling.cpp SoftMaxGradTilingFunc).
template <class T>
void softmax_tiling(const ge::Shape& src, uint32_t type_size, uint32_t work, T& t, uint64_t grad_row = 0) {
  uint64_t m, k;
  rows_cols(src, m, k);
  uint32_t ts = type_size == 0 ? 4 : type_size;
  uint64_t row = grad_row ? grad_row : softmax_row_tmp(k, ts);
  uint64_t split = std::min<uint64_t>(m, row ? work / row : 0);
  if (grad_row && split < m && split > 8) split = split / 8 * 8;
  uint64_t blk = 32 / ts;
  t.set_srcM(clamp32(m));
  t.set_srcK(clamp32(k));
  t.set_srcSize(clamp32(m * k));
  t.set_outMaxM(clamp32(m));
  t.set_outMaxK(clamp32(blk));
  t.set_outMaxSize(clamp32(m * blk));
  t.set_splitM(clamp32(split));
  t.set_splitK(clamp32(k));
  t.set_splitSize(clamp32(split * k));
  t.set_reduceM(clamp32(split));
  t.set_reduceK(clamp32(blk));
  t.set_reduceSize(clamp32(split * blk));
  t.set_rangeM(clamp32(split ? m / split : 0));
  t.set_tailM(clamp32(split ? m % split : 0));
  t.set_tailSplitSize(clamp32((split ? m % split : 0) * k));
  t.set_tailReduceSize(clamp32((split ? m % split : 0) * blk));
}

using Red = kgen::sim::ReduceTmpOp;
void reduce_tmp(Red op, const ge::Shape& s, ge::DataType dt, AscendC::ReducePattern p, bool reuse, uint32_t& mx,
                uint32_t& mn) {
  uint64_t first = s.GetDimNum() > 0 ? static_cast<uint64_t>(std::max<int64_t>(s.GetDim(0), 0)) : 0;
  uint64_t last = s.GetDimNum() > 1 ? static_cast<uint64_t>(std::max<int64_t>(s.GetDim(1), 0)) : 1;
  uint32_t ts = dt == ge::DT_FLOAT16 || dt == ge::DT_BF16 ? 2 : dt == ge::DT_UINT8 || dt == ge::DT_INT8 ? 1 : 4;
  mn = mx = clamp32(kgen::sim::reduce_min_tmp_bytes(op, ts, first, last, p == AscendC::ReducePattern::RA, reuse));
}

// RmsNorm temporary bytes for `rows` rows of H (adv_norm2.cpp).
uint64_t rms_tmp(uint64_t rows, uint64_t h, uint32_t ts) {
  uint64_t coeff = ts == 2 ? 2 : 1;
  return rows <= 1 ? (coeff * h + 8) * 4 : (coeff * rows * h + a8(rows)) * 4;
}
}  // namespace

namespace AscendC {
uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool) {
  uint64_t m, k;
  rows_cols(srcShape, m, k);
  return clamp32(softmax_row_tmp(k, dataTypeSize) * std::max<uint64_t>(m, 1));
}
uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool) {
  uint64_t m, k;
  rows_cols(srcShape, m, k);
  return clamp32(softmax_row_tmp(k, dataTypeSize));
}
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       optiling::SoftMaxTiling& softmaxTiling) {
  softmax_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront, const bool) {
  uint64_t m, k;
  rows_cols(srcShape, m, k);
  return clamp32(kgen::sim::softmax_grad_row_bytes(dataTypeSize, k, isFront) * std::max<uint64_t>(m, 1));
}
uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront, const bool) {
  uint64_t m, k;
  rows_cols(srcShape, m, k);
  return clamp32(kgen::sim::softmax_grad_row_bytes(dataTypeSize, k, isFront));
}
void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           optiling::SoftMaxTiling& softmaxGradTiling, const bool isFront) {
  uint64_t m, k;
  rows_cols(srcShape, m, k);
  softmax_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling,
                 kgen::sim::softmax_grad_row_bytes(dataTypeSize, k, isFront));
}
void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           AscendC::tiling::SoftMaxTiling& softmaxGradTiling, const bool isFront) {
  optiling::SoftMaxTiling t;
  SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t, isFront);
  t.SaveToBuffer(&softmaxGradTiling, t.GetDataSize());   // the same fields in the same order
}
uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling) {
  softmax_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}

void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                               uint32_t& maxValue, uint32_t& minValue) {
  uint64_t b, s, h;
  bsh(srcShape, b, s, h);
  bool reuse = isReuseSource && typeSize == 4;
  minValue = clamp32((reuse ? 2 : 3) * a32(h * 4) + 2 * a32(b * s * 4));
  maxValue = clamp32((reuse ? 2 : 3) * a32(b * s * h * 4) + 2 * a32(b * s * 4));
}
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                              const bool isReuseSource, optiling::LayerNormTiling& tilling) {
  uint64_t b, s, h;
  bsh(srcShape, b, s, h);
  uint32_t mx = 0, mn = 0;
  GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, mx, mn);
  uint64_t use = std::min<uint64_t>(stackBufferSize, mx) / 4;   // floats the kernel may use
  uint64_t bs = b * s, bsh_n = bs * h;
  uint64_t tmp_n = isReuseSource && typeSize == 4 ? 2 : 3;
  uint64_t one = (use > 2 * a8(bs) ? (use - 2 * a8(bs)) / tmp_n : 0) / 8 * 8;   // floats of one [rows, H] buffer
  uint64_t rows = h ? std::max<uint64_t>(1, std::min<uint64_t>(bs, one / h)) : 1;
  tilling.set_bLength(clamp32(b));
  tilling.set_sLength(clamp32(s));
  tilling.set_hLength(clamp32(h));
  tilling.set_originalHLength(clamp32(h));
  tilling.set_inputXSize(clamp32(bsh_n));
  tilling.set_meanVarSize(clamp32(bs));
  tilling.set_numberOfTmpBuf(clamp32(tmp_n));
  tilling.set_meanTmpTensorPos(0);
  tilling.set_meanTmpTensorSize(clamp32(a8(bs)));
  tilling.set_varianceTmpTensorPos(clamp32(a8(bs)));
  tilling.set_varianceTmpTensorSize(clamp32(a8(bs)));
  tilling.set_tmpBufSize(clamp32(use));
  tilling.set_oneTmpSize(clamp32(rows * h));
  tilling.set_firstTmpStartPos(clamp32(2 * a8(bs)));
  tilling.set_secondTmpStartPos(clamp32(2 * a8(bs) + rows * h));
  tilling.set_thirdTmpStartPos(clamp32(2 * a8(bs) + 2 * rows * h));
  tilling.set_loopRound(clamp32(bs / rows));
  tilling.set_inputRoundSize(clamp32(rows * h));
  tilling.set_inputTailSize(clamp32((bs % rows) * h));
  tilling.set_inputTailPos(clamp32((bs / rows) * rows * h));
  tilling.set_meanVarRoundSize(clamp32(rows));
  tilling.set_meanVarTailSize(clamp32(bs % rows));
  tilling.set_meanVarTailPos(clamp32((bs / rows) * rows));
  tilling.set_bshCurLength(clamp32(rows * h));
  tilling.set_bsCurLength(clamp32(rows));
  tilling.set_lastDimValueBack(h ? 1.0f / static_cast<float>(h) : 0.0f);
}

bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                             uint32_t& minValue, const bool isBasicBlock) {
  uint64_t b, s, h;
  bsh(srcShape, b, s, h);
  if (h == 0 || b * s == 0 || (typeSize != 2 && typeSize != 4)) return false;
  if (isBasicBlock && (h % 64 != 0 || h >= 2048 || (b * s) % 8 != 0)) return false;
  minValue = clamp32(rms_tmp(1, h, typeSize));
  maxValue = clamp32(rms_tmp(b * s, h, typeSize));
  return true;
}
bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferByteSize,
                          const uint32_t typeSize, optiling::RmsNormTiling& tiling, const bool isBasicBlock) {
  uint32_t mx = 0, mn = 0;
  if (!GetRmsNormMaxMinTmpSize(srcShape, typeSize, mx, mn, isBasicBlock)) return false;
  if (stackBufferByteSize < mn) return false;
  uint64_t b, s, h, ob, os, oh;
  bsh(srcShape, b, s, h);
  bsh(originSrcShape, ob, os, oh);
  if (oh == 0 || oh > h) oh = h;
  uint64_t bs = b * s, rows = 1;
  // the most rows per pass whose temporary fits the stack buffer
  uint64_t lo = 1, hi = bs;
  while (lo < hi) {
    uint64_t mid = (lo + hi + 1) / 2;
    if (rms_tmp(mid, h, typeSize) <= stackBufferByteSize) lo = mid;
    else hi = mid - 1;
  }
  rows = lo;
  if (isBasicBlock && rows >= 8) rows = rows / 8 * 8;
  tiling.set_bLength(clamp32(b));
  tiling.set_sLength(clamp32(s));
  tiling.set_hLength(clamp32(h));
  tiling.set_originalHLength(clamp32(oh));
  tiling.set_reciprocalOfHLength(1.0f / static_cast<float>(oh));
  tiling.set_mainBshLength(clamp32(rows * h));
  tiling.set_mainBsLength(clamp32(rows));
  tiling.set_mainBsLengthAlign(clamp32(a8(rows)));
  tiling.set_loopRound(clamp32(bs / rows));
  tiling.set_inputTailPos(clamp32((bs / rows) * rows * h));
  tiling.set_tailBshLength(clamp32((bs % rows) * h));
  tiling.set_tailBsLength(clamp32(bs % rows));
  return true;
}

#define KGEN_REDUCE_TMP_DEF(Name)                                                                                 \
  void GetReduce##Name##MaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType,                    \
                                      ReducePattern pattern, bool, bool isReuseSource, uint32_t& maxValue,       \
                                      uint32_t& minValue) {                                                      \
    reduce_tmp(Red::Name, srcShape, dataType, pattern, isReuseSource, maxValue, minValue);                      \
  }
KGEN_REDUCE_TMP_DEF(Sum)
KGEN_REDUCE_TMP_DEF(Mean)
KGEN_REDUCE_TMP_DEF(Max)
KGEN_REDUCE_TMP_DEF(Min)
KGEN_REDUCE_TMP_DEF(Prod)
KGEN_REDUCE_TMP_DEF(Any)
KGEN_REDUCE_TMP_DEF(All)
#undef KGEN_REDUCE_TMP_DEF
}  // namespace AscendC

// ---- elementwise high-level math APIs: the library's formulas (sim/adv_tmp_sizes.h) ----
namespace {
using Elem = kgen::sim::ElemTmpOp;
// CANN's host checks (ASCENDC_HOST_ASSERT) log the error and return with the outputs untouched.
void tmp_error(const char* fn, const char* what) { std::fprintf(stderr, "kgen: error[tiling] %s: %s\n", fn, what); }
bool shape_size(const char* fn, const ge::Shape& s, uint32_t ts, uint64_t& n) {
  int64_t v = s.GetShapeSize();
  if (v <= 0) { tmp_error(fn, "the input shape size must be greater than 0"); return false; }
  if (ts != 2 && ts != 4) { tmp_error(fn, "typeSize must be 2 (half) or 4 (float)"); return false; }
  n = static_cast<uint64_t>(v);
  return true;
}
bool elem_tmp(const char* fn, Elem op, const ge::Shape& s, uint32_t ts, bool reuse, bool v200, uint32_t& mx,
              uint32_t& mn) {
  uint64_t n = 0;
  if (!shape_size(fn, s, ts, n)) return false;
  if ((op == Elem::Sin || op == Elem::Cos) && reuse && ts == 2) {
    tmp_error(fn, "isReuseSource is not supported when the input data type is half");
    return false;
  }
  mn = kgen::sim::elem_min_tmp_bytes(op, ts, reuse, v200);
  mx = clamp32(kgen::sim::elem_max_tmp_bytes(op, ts, reuse, v200, n));
  return true;
}
bool soc_is_v200(const platform_ascendc::PlatformAscendC& p) {
  return p.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P;
}
bool is_scalar_shape(const ge::Shape& s) { return s.GetDimNum() == 1 && s.GetDim(0) == 1; }
}  // namespace

namespace AscendC {
#define KGEN_ELEM_TMP_DEF(Name)                                                                                   \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,     \
                                uint32_t& maxValue, uint32_t& minValue) {                                        \
    elem_tmp("Get" #Name "MaxMinTmpSize", Elem::Name, srcShape, typeSize, isReuseSource, false, maxValue, minValue); \
  }
KGEN_ELEM_TMP_DEF(Tanh)
KGEN_ELEM_TMP_DEF(Erf)
KGEN_ELEM_TMP_DEF(Sin)
KGEN_ELEM_TMP_DEF(Cos)
KGEN_ELEM_TMP_DEF(Log2)
KGEN_ELEM_TMP_DEF(Floor)
KGEN_ELEM_TMP_DEF(Ceil)
KGEN_ELEM_TMP_DEF(Trunc)
KGEN_ELEM_TMP_DEF(Sign)
KGEN_ELEM_TMP_DEF(Clamp)
KGEN_ELEM_TMP_DEF(Fmod)
KGEN_ELEM_TMP_DEF(Acos)
KGEN_ELEM_TMP_DEF(Asin)
KGEN_ELEM_TMP_DEF(Atan)
KGEN_ELEM_TMP_DEF(Cosh)
KGEN_ELEM_TMP_DEF(Sinh)
KGEN_ELEM_TMP_DEF(Tan)
KGEN_ELEM_TMP_DEF(Erfc)
#undef KGEN_ELEM_TMP_DEF
// Log and Log10 need no temporary space.
void GetLogMaxMinTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
}
void GetLog10MaxMinTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
}
void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                             uint32_t& maxValue, uint32_t& minValue) {
  elem_tmp("GetSigmoidMaxMinTmpSize", Elem::Sigmoid, srcShape, typeSize, isReuseSource, false, maxValue, minValue);
}
bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxValue, uint32_t& minValue) {
  return elem_tmp("GetExpMaxMinTmpSize", Elem::Exp, srcShape, typeSize, isReuseSource, false, maxValue, minValue);
}
void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                           const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  elem_tmp("GetRoundMaxMinTmpSize", Elem::Round, srcShape, typeSize, isReuseSource, soc_is_v200(ascendcPlatform),
           maxValue, minValue);
}
void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                           const uint32_t typeSize, const bool, uint32_t& maxValue, uint32_t& minValue) {
  const char* fn = "GetPowerMaxMinTmpSize";
  bool t1 = !is_scalar_shape(srcShape1), t2 = !is_scalar_shape(srcShape2);
  uint64_t n = 0;
  if (!shape_size(fn, t1 ? srcShape1 : srcShape2, typeSize, n)) return;
  if (typeIsInt && typeSize != 4) { tmp_error(fn, "typeIsInt requires typeSize 4 (int32_t)"); return; }
  bool v200 = soc_is_v200(*platform_ascendc::PlatformAscendCManager::GetInstance());
  minValue = kgen::sim::power_min_tmp_bytes(typeIsInt, typeSize, t1 && t2, v200);
  maxValue = clamp32(kgen::sim::power_max_tmp_bytes(typeIsInt, typeSize, t1 && t2, v200, n));
}
uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  elem_tmp("GetGeluMaxTmpSize", Elem::Gelu, srcShape, typeSize, false, false, mx, mn);
  return mx;
}
uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  elem_tmp("GetGeluMinTmpSize", Elem::Gelu, srcShape, typeSize, false, false, mx, mn);
  return mn;
}
void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  elem_tmp("GetGeluMaxMinTmpSize", Elem::Gelu, srcShape, typeSize, false, false, maxValue, minValue);
}
void GetSiluTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& max, uint32_t& min) { max = min = 0; }
void GetSwishTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& max, uint32_t& min) { max = min = 0; }
void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis, const bool,
                            uint32_t& maxValue, uint32_t& minValue) {
  const char* fn = "GetCumSumMaxMinTmpSize";
  if (srcShape.GetDimNum() != 2) return tmp_error(fn, "srcShape must have 2 dimensions {outter, inner}");
  if (typeSize != 2 && typeSize != 4) return tmp_error(fn, "typeSize must be 2 (half) or 4 (float)");
  int64_t outter = srcShape.GetDim(0), inner = srcShape.GetDim(1);
  if (outter <= 0 || inner <= 0 || (inner * typeSize) % 32 != 0)
    return tmp_error(fn, "both dimensions must be positive and inner * typeSize a multiple of 32 bytes");
  uint64_t o = static_cast<uint64_t>(outter), i = static_cast<uint64_t>(inner);
  minValue = clamp32(kgen::sim::cumsum_min_tmp_bytes(typeSize, o, i, isLastAxis));
  maxValue = clamp32(kgen::sim::cumsum_max_tmp_bytes(typeSize, o, i, isLastAxis));
}

void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize, const bool,
                          uint32_t& maxSize, uint32_t& minSize) {
  const char* fn = "GetMeanMaxMinTmpSize";
  if (!((srcTypeSize == 2 && accTypeSize == 2) || (srcTypeSize == 4 && accTypeSize == 4) ||
        (srcTypeSize == 2 && accTypeSize == 4)))
    return tmp_error(fn, "(srcTypeSize, accTypeSize) must be (2, 2), (4, 4) or (2, 4)");
  if (n == 0) return tmp_error(fn, "n must be greater than 0");
  maxSize = minSize = clamp32(kgen::sim::mean_min_tmp_bytes(n, srcTypeSize, accTypeSize));
}

void GetMeanTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  maxLiveNodeCount = 1;   // CANN's MEAN_CALC_PROC
  extraBuffer = 0;
}

namespace {
// CANN's selectwithbytesmask_tiling_impl.cpp ComputeBufferSize; 0 (and an error line) for shapes it rejects.
uint32_t select_tmp_bytes(const char* fn, const ge::Shape& s0, const ge::Shape& s1, const ge::Shape& mask,
                          uint32_t mask_size, bool reuse, bool min) {
  auto is_scalar = [](const ge::Shape& s) { return s.GetDimNum() == 0 || s.GetShapeSize() == 1; };
  if (mask_size != 1 && mask_size != 2 && mask_size != 4) {
    tmp_error(fn, "maskTypeSize must be 1, 2 or 4");
    return 0;
  }
  if ((s0.GetDimNum() != 2 && s1.GetDimNum() != 2) || mask.GetDimNum() != 2) {
    tmp_error(fn, "the tensor operand's shape and maskShape must have 2 dimensions");
    return 0;
  }
  const ge::Shape& src = is_scalar(s0) ? s1 : s0;
  const int64_t n = src.GetShapeSize();
  if (n <= 0) {
    tmp_error(fn, "the source shape size must be greater than 0");
    return 0;
  }
  const int64_t src_last = src.GetDim(src.GetDimNum() - 1), mask_last = mask.GetDim(mask.GetDimNum() - 1);
  const uint64_t cal = min && n > 4096 ? 4096 : static_cast<uint64_t>(n);
  uint64_t bytes = std::max<uint64_t>(1024, (cal + 31) / 32 * 32 * 2 + 512);
  if (mask_last != src_last && !reuse && mask_last > 1) bytes += (static_cast<uint64_t>(n) * mask_size + 31) / 32 * 32;
  return clamp32(bytes);
}
}  // namespace

uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t,
                             const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
  return select_tmp_bytes("GetSelectMinTmpSize", src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}
uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t,
                             const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
  return select_tmp_bytes("GetSelectMaxTmpSize", src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
}
void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                            const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
                            uint32_t& maxValue, uint32_t& minValue) {
  maxValue = GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
  minValue = GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize, const bool isReuseMask) {
  return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize, const bool isReuseMask) {
  return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                         const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                         const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                         uint32_t& minValue) {
  GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
}
}  // namespace AscendC
