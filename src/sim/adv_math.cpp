// High-level math APIs: Sigmoid, Tanh, Gelu, Erf, Sin, Cos, Acos, Asin, Atan, Cosh, Sinh, Tan, Erfc. Each is one V-pipe
// trace record under its own name (not the basic instructions CANN expands it to). Results are computed in float
// and rounded once to T.
#include <cmath>
#include <string>

#include "kgen/adv_math.h"
#include "sim/adv_common.h"
#include "sim/timing.h"
#include "sim/adv_tmp_sizes.h"

namespace kgen::sim {
namespace {
using rt::AdvMath;
const char* math_name(AdvMath op) {
  static const char* n[] = {"Sigmoid", "Tanh", "Gelu", "Erf", "Sin", "Cos", "Acos", "Asin", "Atan", "Cosh", "Sinh", "Tan", "Erfc"};
  return n[static_cast<int>(op)];
}
// Minimum temporary bytes, as CANN's GetXxxMaxMinTmpSize reports them (sim/adv_tmp_sizes.h, shared with the host).
uint32_t min_tmp(AdvMath op, uint32_t es, bool reuse) {
  static const ElemTmpOp m[] = {ElemTmpOp::Sigmoid, ElemTmpOp::Tanh, ElemTmpOp::Gelu, ElemTmpOp::Erf,  ElemTmpOp::Sin,
                                ElemTmpOp::Cos,     ElemTmpOp::Acos, ElemTmpOp::Asin, ElemTmpOp::Atan, ElemTmpOp::Cosh,
                                ElemTmpOp::Sinh,    ElemTmpOp::Tan,  ElemTmpOp::Erfc};
  return elem_min_tmp_bytes(m[static_cast<int>(op)], es, reuse, cur().soc->arch == 2002);
}
float math_value(AdvMath op, float x) {
  switch (op) {
    case AdvMath::Sigmoid: return 1.0f / (1.0f + std::exp(-x));
    case AdvMath::Tanh: return std::tanh(x);
    case AdvMath::Gelu: {
      const float k = 0.7978845608028654f;   // sqrt(2/pi)
      return 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
    }
    case AdvMath::Erf: return std::erf(x);
    case AdvMath::Sin: return std::sin(x);
    case AdvMath::Cos: return std::cos(x);
    case AdvMath::Acos: return std::acos(x);   // NaN outside [-1, 1], as the guide's domain says
    case AdvMath::Asin: return std::asin(x);
    case AdvMath::Atan: return std::atan(x);
    case AdvMath::Cosh: return std::cosh(x);
    case AdvMath::Sinh: return std::sinh(x);
    case AdvMath::Tan: return std::tan(x);
    case AdvMath::Erfc: return std::erfc(x);
  }
  return 0;
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void adv_math(AdvMath op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint32_t count,
              bool all, bool reuse_source, Loc loc) {
  const char* api = math_name(op);
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  uint32_t es = dtype_size(dt);
  uint64_t n = all ? src.len / es : count;
  if ((op == AdvMath::Sin || op == AdvMath::Cos) && reuse_source && es == 2)
    fail("param", api, loc, "isReuseSource is not supported for half");
  uint64_t bytes = n * es;
  // The guide forbids overlap; a Tanh computed in place (dst == src) is correct on the chip all the same, element by
  // element from the source read first (NPUKernelBench's TanhMath, docs/sources.md S77). A partial overlap stays an error.
  const bool in_place = op == AdvMath::Tanh && dst.addr == src.addr && dst.pos == src.pos;
  if (op != AdvMath::Gelu && !in_place) adv_no_overlap(dst, bytes, "dstTensor", src, bytes, "srcTensor", api, loc);
  uint32_t need = min_tmp(op, es, reuse_source);
  if (tmp) {
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", src, bytes, "srcTensor", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", dst, bytes, "dstTensor", api, loc);
  }
  adv_tmp(tmp, need, api, loc, std::string(api) + (es == 2 ? " on half" : " on float"));
  issue(kV);
  // lane by lane: lanes read from bytes nothing wrote are garbage, not a fault, until used (elementwise.h LaneWise)
  LaneWise lanes;
  touch_count(src, n, es, false, api, loc);
  if (tmp) touch(*tmp, 0, need, true, kV, api, loc);
  uint8_t* out = touch_count(dst, n, es, true, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    trace_vec(api, dt, n, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
    return;
  }
  const uint8_t* in = bs + src.addr;
  (void)bd;
  for (uint64_t i = 0; i < n; ++i) {
    float x = es == 2 ? static_cast<float>(load<half>(in + i * 2)) : load<float>(in + i * 4);
    if (values_on() && (op == AdvMath::Sin || op == AdvMath::Cos) && !(std::fabs(x) <= 65504.0f) &&   // timing.h
        !cur().lanes.is_poisoned(i))
      fail("param", api, loc, "input element " + std::to_string(i) + " = " + std::to_string(x) +
                                  " is outside [-65504, 65504], the documented input range of " + api);
    float y = math_value(op, x);
    if (es == 2) store<half>(out + i * 2, half(y));
    else store<float>(out + i * 4, y);
  }
  trace_vec(api, dt, n, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
}
}  // namespace kgen::rt
