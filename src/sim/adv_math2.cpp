// High-level elementwise math APIs, second set (Log/Log2/Log10, Power, Silu, Swish, Exp<T, taylorExpandLevel>,
// Floor, Ceil, Round, Trunc, Sign, ClampMax, ClampMin, Fmod) and CumSum. Each call is one V-pipe trace record under
// its own name. Results are computed in float from the documented formula and rounded once to T (int32_t Power is
// exact integer arithmetic).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kgen/adv_math2.h"
#include "sim/adv_common.h"
#include "sim/timing.h"
#include "sim/adv_tmp_sizes.h"

namespace kgen::sim {
namespace {
using rt::AdvOp2;
const char* op_name(AdvOp2 op) {
  static const char* n[] = {"Log",   "Log2", "Log10",    "Silu",     "Swish",                  "Floor", "Ceil", "Round",
                            "Trunc", "Sign", "ClampMax", "ClampMin", "Exp<taylorExpandLevel>", "Power", "Fmod"};
  return n[static_cast<int>(op)];
}
bool is_310p() { return cur().soc->arch == 2002; }

// Minimum temporary bytes, as CANN's GetXxxMaxMinTmpSize reports them (sim/adv_tmp_sizes.h, shared with the host).
// power_form: 0 tensor-tensor, 1 tensor-scalar / scalar-tensor.
uint32_t min_tmp(AdvOp2 op, DType dt, int power_form, uint32_t level, bool reuse) {
  uint32_t ts = dtype_size(dt);
  bool p = is_310p();
  if (op == AdvOp2::Power) return power_min_tmp_bytes(dt == DType::I32, ts, power_form == 0, p);
  if (op == AdvOp2::Exp && level == 0) return 0;   // level 0 is the plain Exp instruction
  static const ElemTmpOp m[] = {ElemTmpOp::Log,   ElemTmpOp::Log2,  ElemTmpOp::Log10, ElemTmpOp::Silu,
                                ElemTmpOp::Swish, ElemTmpOp::Floor, ElemTmpOp::Ceil,  ElemTmpOp::Round,
                                ElemTmpOp::Trunc, ElemTmpOp::Sign,  ElemTmpOp::Clamp, ElemTmpOp::Clamp,
                                ElemTmpOp::Exp,   ElemTmpOp::Exp,   ElemTmpOp::Fmod};
  return elem_min_tmp_bytes(m[static_cast<int>(op)], ts, reuse, p);
}

// Exact aliasing dst == src is accepted where CANN's implementation works element by element in place (verified
// kernels rely on it for Log); any other overlap is reported. Trunc and Round document src/dst overlap as allowed.
bool alias_ok(AdvOp2 op) {
  return op == AdvOp2::Log || op == AdvOp2::Log2 || op == AdvOp2::Log10 || op == AdvOp2::Trunc || op == AdvOp2::Round;
}
bool overlap_allowed(AdvOp2 op) { return op == AdvOp2::Trunc || op == AdvOp2::Round; }

float scalar_f(DType dt, rt::Scalar s) {
  if (dt == DType::F16) { half h; std::memcpy(&h, &s.bits, 2); return static_cast<float>(h); }
  float f; std::memcpy(&f, &s.bits, 4); return f;
}
int32_t scalar_i(rt::Scalar s) { int32_t v; std::memcpy(&v, &s.bits, 4); return v; }

// e^x as CANN's Taylor form computes it: e^floor(x) * sum_{n=0..level} d^n / n!, d = x - floor(x), in float.
float exp_taylor(float x, uint32_t level) {
  if (level == 0) return std::exp(x);
  float fl = std::floor(x), d = x - fl;
  float pw = d, res = d + 1.0f;
  for (uint32_t i = 2; i < level + 1; ++i) {
    pw = d * pw;
    pw = pw * (1.0f / static_cast<float>(i));
    res = res + pw;
  }
  return std::exp(fl) * res;
}
int32_t ipow(int32_t b, int32_t e) {
  if (e < 0) return b == 1 ? 1 : b == -1 ? ((e & 1) ? -1 : 1) : 0;
  uint32_t r = 1, x = static_cast<uint32_t>(b);
  for (uint32_t k = static_cast<uint32_t>(e); k; k >>= 1) {
    if (k & 1) r *= x;
    x *= x;
  }
  return static_cast<int32_t>(r);
}
float unary_value(AdvOp2 op, float x, float s, uint32_t level) {
  switch (op) {
    case AdvOp2::Log: return std::log(x);
    case AdvOp2::Log2: return std::log2(x);
    case AdvOp2::Log10: return std::log10(x);
    case AdvOp2::Silu: return x / (1.0f + std::exp(-x));
    case AdvOp2::Swish: return x / (1.0f + std::exp(-s * x));
    case AdvOp2::Floor: return std::floor(x);
    case AdvOp2::Ceil: return std::ceil(x);
    case AdvOp2::Round: return std::nearbyint(x);   // CAST_RINT: half-way cases to even
    case AdvOp2::Trunc: return std::trunc(x);
    case AdvOp2::Sign: return x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f;   // 0 for +-0 and NaN (documented example)
    case AdvOp2::ClampMax: return x > s ? s : x;
    case AdvOp2::ClampMin: return x < s ? s : x;
    case AdvOp2::Exp: return exp_taylor(x, level);
    default: return 0;
  }
}
float fmod_value(float a, float b) {
  float q = a / b;
  return a - std::trunc(q) * b;
}
bool range_limited(AdvOp2 op) {   // documented input range on the 310P AI Core
  return is_310p() && (op == AdvOp2::Floor || op == AdvOp2::Ceil || op == AdvOp2::Trunc || op == AdvOp2::Fmod);
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void adv_elem2(AdvOp2 op, DType dt, const LocalRef& dst, const LocalRef* src0, const LocalRef* src1, Scalar scalar,
               const LocalRef* tmp, uint32_t count, bool all, uint32_t level, bool reuse_source, Loc loc) {
  const char* api = op_name(op);
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  uint8_t* b0 = src0 ? vec_operand(*src0, api, loc) : nullptr;
  uint8_t* b1 = src1 ? vec_operand(*src1, api, loc) : nullptr;
  if (tmp) vec_operand(*tmp, api, loc);
  uint32_t es = dtype_size(dt);
  const LocalRef& first = src0 ? *src0 : *src1;
  uint64_t n = all ? first.len / es : count;
  uint64_t bytes = n * es;
  bool binary = src0 && src1;
  int power_form = binary ? 0 : 1;
  if (op == AdvOp2::Fmod && src0->len != src1->len)
    fail("param", api, loc, "src0Tensor holds " + std::to_string(src0->len / es) + " elements and src1Tensor " +
                                std::to_string(src1->len / es) + "; Fmod requires both sources to have the same length");
  // operand overlap
  const char* n0 = src0 && src1 ? "src0Tensor" : "srcTensor";
  auto check_src = [&](const LocalRef* s, const char* sn) {
    if (!s || overlap_allowed(op)) return;
    if (alias_ok(op) && s->addr == dst.addr && mem_of(s->pos, *cur().soc) == mem_of(dst.pos, *cur().soc)) return;
    adv_no_overlap(dst, bytes, "dstTensor", *s, bytes, sn, api, loc);
  };
  check_src(src0, n0);
  check_src(src1, "src1Tensor");
  uint32_t need = min_tmp(op, dt, power_form, level, reuse_source);
  if (tmp) {
    if (src0) adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", *src0, bytes, n0, api, loc);
    if (src1) adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", *src1, bytes, "src1Tensor", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", dst, bytes, "dstTensor", api, loc);
  }
  std::string what = std::string(api) + " on " + dtype_name(dt);
  if (op == AdvOp2::Power) what += binary ? " (tensor-tensor)" : " (with a scalar operand)";
  adv_tmp(tmp, need, api, loc, what);
  issue(kV);
  // lane by lane: lanes read from bytes nothing wrote (a whole-tensor call on a partly filled buffer) are garbage,
  // not a fault, until used (elementwise.h LaneWise)
  LaneWise lanes;
  const uint8_t* p0 = src0 ? touch_count(*src0, n, es, false, api, loc) : nullptr;
  const uint8_t* p1 = src1 ? touch_count(*src1, n, es, false, api, loc) : nullptr;
  (void)b0;
  (void)b1;
  if (tmp && need) touch(*tmp, 0, need, true, kV, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    touch_count(dst, n, es, true, api, loc);
    trace_vec(api, dt, n, static_cast<uint32_t>((bytes + 255) / 256), &dst, src0 ? src0 : src1, binary ? src1 : tmp, loc);
    return;
  }
  // read every input before writing (dst may alias a source where allowed)
  std::vector<float> a(src0 ? n : 0), b(src1 ? n : 0);
  std::vector<int32_t> ia, ib;
  bool i32 = dt == DType::I32;
  if (i32) {
    ia.resize(src0 ? n : 0);
    ib.resize(src1 ? n : 0);
    for (uint64_t i = 0; i < ia.size(); ++i) ia[i] = load<int32_t>(p0 + i * 4);
    for (uint64_t i = 0; i < ib.size(); ++i) ib[i] = load<int32_t>(p1 + i * 4);
  } else {
    for (uint64_t i = 0; i < a.size(); ++i) a[i] = ldf(dt, p0 + i * es);
    for (uint64_t i = 0; i < b.size(); ++i) b[i] = ldf(dt, p1 + i * es);
  }
  if (range_limited(op) && values_on()) {   // a timing-only run has no values to check (timing.h)
    for (int k = 0; k < 2; ++k) {
      const std::vector<float>& v = k ? b : a;
      for (uint64_t i = 0; i < v.size(); ++i)
        if (!(std::fabs(v[i]) <= 2147483647.0f) && !cur().lanes.is_poisoned(i))
          fail("param", api, loc, std::string(k ? "src1" : "src") + " element " + std::to_string(i) + " = " +
                                      std::to_string(v[i]) + " is outside [-2147483647, 2147483647], the documented input range of " +
                                      api + " on " + cur().soc->name);
    }
  }
  uint8_t* out = touch_count(dst, n, es, true, api, loc);
  if (op == AdvOp2::Power && i32) {
    int32_t s = scalar_i(scalar);
    for (uint64_t i = 0; i < n; ++i) {
      int32_t x = src0 ? ia[i] : s, y = src1 ? ib[i] : s;
      store<int32_t>(out + i * 4, ipow(x, y));
    }
  } else if (op == AdvOp2::Power || op == AdvOp2::Fmod) {
    float s = scalar_f(dt, scalar);
    for (uint64_t i = 0; i < n; ++i) {
      float x = src0 ? a[i] : s, y = src1 ? b[i] : s;
      stf(dt, out + i * es, op == AdvOp2::Power ? std::pow(x, y) : fmod_value(x, y));
    }
  } else {
    float s = (op == AdvOp2::Swish || op == AdvOp2::ClampMax || op == AdvOp2::ClampMin) ? scalar_f(dt, scalar) : 0.0f;
    for (uint64_t i = 0; i < n; ++i) stf(dt, out + i * es, unary_value(op, a[i], s, level));
  }
  trace_vec(api, dt, n, static_cast<uint32_t>((bytes + 255) / 256), &dst, src0 ? src0 : src1, binary ? src1 : tmp, loc);
}

void cumsum(DType dt, const LocalRef& dst, const LocalRef& last_row, const LocalRef& src, const LocalRef* tmp,
            uint32_t outter, uint32_t inner, bool last_axis, bool output_last_row, Loc loc) {
  const char* api = "CumSum";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  if (output_last_row) vec_operand(last_row, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  uint32_t es = dtype_size(dt);
  if (outter == 0 || inner == 0)
    fail("param", api, loc, "cumSumInfo = {outter " + std::to_string(outter) + ", inner " + std::to_string(inner) +
                                "}; both must be greater than 0");
  if ((static_cast<uint64_t>(inner) * es) % 32 != 0)
    fail("align", api, loc, "cumSumInfo.inner = " + std::to_string(inner) + " elements is " +
                                std::to_string(static_cast<uint64_t>(inner) * es) +
                                " bytes; inner * sizeof(T) must be a multiple of 32 bytes (pad the rows)");
  uint64_t total = static_cast<uint64_t>(outter) * inner, bytes = total * es, rb = static_cast<uint64_t>(inner) * es;
  if (bytes > src.len || bytes > dst.len)
    fail("param", api, loc, "outter * inner = " + std::to_string(total) + " elements exceeds " +
                                (bytes > src.len ? "srcTensor (" + std::to_string(src.len / es) + ")"
                                                 : "dstTensor (" + std::to_string(dst.len / es) + ")"));
  if (output_last_row && rb > last_row.len)
    fail("param", api, loc, "lastRowTensor holds " + std::to_string(last_row.len / es) + " elements but inner is " +
                                std::to_string(inner) + " (config.outputLastRow = true writes one row)");
  // GetCumSumMaxMinTmpSize minimum
  uint64_t need = cumsum_min_tmp_bytes(es, outter, inner, last_axis);
  if (tmp) {
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", src, bytes, "srcTensor", api, loc);
    adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", dst, bytes, "dstTensor", api, loc);
    if (output_last_row) adv_no_overlap(*tmp, tmp->len, "sharedTmpBuffer", last_row, rb, "lastRowTensor", api, loc);
  }
  if (output_last_row) {
    adv_no_overlap(last_row, rb, "lastRowTensor", dst, bytes, "dstTensor", api, loc);
    adv_no_overlap(last_row, rb, "lastRowTensor", src, bytes, "srcTensor", api, loc);
  }
  adv_tmp(tmp, need, api, loc,
          std::string("CumSum along the ") + (last_axis ? "last" : "first") + " axis with inner = " + std::to_string(inner) +
              (last_axis ? "" : ", outter = " + std::to_string(outter)) + " on " + dtype_name(dt));
  issue(kV);
  const uint8_t* ps = touch(src, 0, bytes, false, kV, api, loc);
  if (tmp && need) touch(*tmp, 0, need, true, kV, api, loc);
  if (!computes(dt)) {   // timing-only (timing.h): the accesses and the record, no values
    touch(dst, 0, bytes, true, kV, api, loc);
    if (output_last_row) touch(last_row, 0, rb, true, kV, api, loc);
    trace_vec(api, dt, total, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
    return;
  }
  std::vector<float> v(total);
  for (uint64_t i = 0; i < total; ++i) v[i] = ldf(dt, ps + i * es);
  if (last_axis) {
    for (uint32_t r = 0; r < outter; ++r)
      for (uint32_t k = 1; k < inner; ++k) v[static_cast<uint64_t>(r) * inner + k] += v[static_cast<uint64_t>(r) * inner + k - 1];
  } else {
    for (uint32_t r = 1; r < outter; ++r)
      for (uint32_t k = 0; k < inner; ++k) v[static_cast<uint64_t>(r) * inner + k] += v[static_cast<uint64_t>(r - 1) * inner + k];
  }
  uint8_t* pd = touch(dst, 0, bytes, true, kV, api, loc);
  for (uint64_t i = 0; i < total; ++i) stf(dt, pd + i * es, v[i]);
  if (output_last_row) {
    uint8_t* pl = touch(last_row, 0, rb, true, kV, api, loc);
    for (uint32_t k = 0; k < inner; ++k) stf(dt, pl + static_cast<uint64_t>(k) * es, v[static_cast<uint64_t>(outter - 1) * inner + k]);
  }
  trace_vec(api, dt, total, static_cast<uint32_t>((bytes + 255) / 256), &dst, &src, tmp, loc);
}
}  // namespace kgen::rt
