// Which element types each vector API takes, per architecture (ascendc-api.md §4.2, §8.7; the KS-dev sections
// of each API). A kernel that uses another type compiles with CANN's CPU mode only to fail its checks, so here
// it is an error[dtype] naming the supported types.
#include <cstring>
#include <string>

#include "sim/core.h"

namespace kgen::sim {
namespace {
using D = DType;
constexpr uint32_t bit(D d) { return 1u << static_cast<int>(d); }
constexpr uint32_t kHalfFloat = bit(D::F16) | bit(D::F32);
constexpr uint32_t kArith = bit(D::F16) | bit(D::I16) | bit(D::I32) | bit(D::F32);
constexpr uint32_t kBits16 = bit(D::I16) | bit(D::U16);
constexpr uint32_t kShift = bit(D::I16) | bit(D::U16) | bit(D::I32) | bit(D::U32);
constexpr uint32_t k16and32 = bit(D::F16) | bit(D::BF16) | bit(D::I16) | bit(D::U16) | bit(D::F32) | bit(D::I32) | bit(D::U32);
constexpr uint32_t kDup = k16and32;

struct Rule { const char* api; uint32_t a2; uint32_t p310; };
// a2: arch 2201 (910B); p310: arch 2002 (310P).
constexpr Rule kRules[] = {
    {"Add", kArith, kArith}, {"Sub", kArith, kArith}, {"Mul", kArith, kArith},
    {"Max", kArith, kArith}, {"Min", kArith, kArith}, {"Div", kHalfFloat, kHalfFloat},
    {"And", kBits16, kBits16}, {"Or", kBits16, kBits16}, {"Not", kBits16, kBits16},
    {"AddRelu", kHalfFloat | bit(D::I16), kHalfFloat | bit(D::I16)},
    {"SubRelu", kHalfFloat | bit(D::I16), kHalfFloat | bit(D::I16)},
    {"FusedMulAdd", kHalfFloat, kHalfFloat}, {"MulAddDst", kHalfFloat, kHalfFloat},
    {"Exp", kHalfFloat, kHalfFloat}, {"Ln", kHalfFloat, kHalfFloat}, {"Abs", kHalfFloat, kHalfFloat},
    {"Reciprocal", kHalfFloat, kHalfFloat}, {"Sqrt", kHalfFloat, kHalfFloat}, {"Rsqrt", kHalfFloat, kHalfFloat},
    {"Relu", kHalfFloat | bit(D::I32), kHalfFloat | bit(D::I32)},
    {"Adds", kArith, kArith}, {"Muls", kArith, kArith}, {"Maxs", kArith, kArith}, {"Mins", kArith, kArith},
    {"LeakyRelu", kHalfFloat, kHalfFloat}, {"ShiftLeft", kShift, 0}, {"ShiftRight", kShift, 0},   // not on 310P (product table)
    {"Axpy", kHalfFloat, kHalfFloat}, {"Duplicate", kDup, kDup & ~bit(D::BF16)},
    {"Copy", kDup, kDup & ~bit(D::BF16)},   // int16/uint16/half/bfloat16/int32/uint32/float on A2 [S65]
    {"Compare", kHalfFloat | bit(D::I32), kHalfFloat}, {"CompareScalar", kHalfFloat | bit(D::I32), kHalfFloat},
    {"Select", kHalfFloat, kHalfFloat},
    {"SelectWithBytesMask", kHalfFloat, kHalfFloat},
    {"Sum", kHalfFloat, kHalfFloat},
    {"Mean", kHalfFloat, kHalfFloat},
    {"Broadcast", kHalfFloat | bit(D::I8) | bit(D::U8), kHalfFloat | bit(D::I8) | bit(D::U8)},
    {"ReduceSum", kHalfFloat, kHalfFloat}, {"ReduceMax", kHalfFloat, kHalfFloat}, {"ReduceMin", kHalfFloat, kHalfFloat},
    {"WholeReduceSum", kHalfFloat, kHalfFloat}, {"WholeReduceMax", kHalfFloat, kHalfFloat},
    {"WholeReduceMin", kHalfFloat, kHalfFloat}, {"BlockReduceSum", kHalfFloat, kHalfFloat},
    {"BlockReduceMax", kHalfFloat, kHalfFloat}, {"BlockReduceMin", kHalfFloat, kHalfFloat},
    {"PairReduceSum", kHalfFloat, kHalfFloat}, {"RepeatReduceSum", kHalfFloat, kHalfFloat},
    {"Brcb", k16and32, k16and32 & ~bit(D::BF16)}, {"Gather", k16and32, k16and32 & ~bit(D::BF16)},
    {"GatherMask", k16and32, k16and32 & ~bit(D::BF16)},
    {"CreateVecIndex", bit(D::I16) | bit(D::F16) | bit(D::I32) | bit(D::F32), bit(D::I16) | bit(D::F16) | bit(D::I32) | bit(D::F32)},
    {"Sigmoid", kHalfFloat, kHalfFloat}, {"Tanh", kHalfFloat, kHalfFloat}, {"Gelu", kHalfFloat, kHalfFloat},
    {"SoftMax", kHalfFloat, kHalfFloat}, {"SoftmaxGrad", kHalfFloat, kHalfFloat},
    {"SoftmaxGradFront", kHalfFloat, kHalfFloat}, {"LayerNorm", kHalfFloat, kHalfFloat}, {"Erf", kHalfFloat, kHalfFloat},
    {"Sin", kHalfFloat, kHalfFloat}, {"Cos", kHalfFloat, kHalfFloat},
    // high-level APIs of adv_math2 / adv_norm2 / adv_reduce (the pattern reduces and Exp<T, taylorExpandLevel> are
    // named apart from the basic APIs of the same name, and do not exist on 310P)
    {"Log", kHalfFloat, kHalfFloat}, {"Log2", kHalfFloat, kHalfFloat}, {"Log10", kHalfFloat, kHalfFloat},
    {"Power", kHalfFloat | bit(D::I32), kHalfFloat | bit(D::I32)}, {"Silu", kHalfFloat, kHalfFloat},
    {"Swish", kHalfFloat, kHalfFloat}, {"Exp<taylorExpandLevel>", kHalfFloat, 0}, {"Floor", kHalfFloat, kHalfFloat},
    {"Ceil", kHalfFloat, kHalfFloat}, {"Round", kHalfFloat, kHalfFloat}, {"Trunc", kHalfFloat, kHalfFloat},
    {"Sign", kHalfFloat, kHalfFloat}, {"ClampMax", kHalfFloat, kHalfFloat}, {"ClampMin", kHalfFloat, kHalfFloat},
    {"Fmod", kHalfFloat, kHalfFloat}, {"CumSum", kHalfFloat, kHalfFloat}, {"RmsNorm", kHalfFloat, kHalfFloat},
    {"LogSoftMax", kHalfFloat, kHalfFloat},
    {"ReduceSum<pattern>", bit(D::F32), 0}, {"ReduceMean<pattern>", bit(D::F32), 0},
    {"ReduceMax<pattern>", kHalfFloat, 0}, {"ReduceMin<pattern>", kHalfFloat, 0}, {"ReduceProd<pattern>", bit(D::F32), 0},
    {"ReduceAny<pattern>", bit(D::F32) | bit(D::U8), 0}, {"ReduceAll<pattern>", bit(D::F32) | bit(D::U8), 0},
};

std::string list(uint32_t mask) {
  if (mask == 0) return "none: the API does not exist on this SoC";
  std::string s;
  for (int d = 0; d < static_cast<int>(D::Unknown); ++d)
    if (mask & (1u << d)) s += (s.empty() ? "" : ", ") + std::string(dtype_name(static_cast<D>(d)));
  return s;
}
}  // namespace

void require_dtype(const char* api, DType dt, const Loc& loc) {
  const Core& c = cur();
  for (const Rule& r : kRules) {
    if (std::strcmp(r.api, api) != 0) continue;
    uint32_t allowed = c.soc->arch == 2002 ? r.p310 : r.a2;
    if (!(allowed & bit(dt)))
      fail("dtype", api, loc,
           std::string(api) + " does not support " + dtype_name(dt) + " on " + c.soc->name + " (supported: " +
               list(allowed) + ")" + (dt == D::BF16 ? "; Cast bfloat16_t to float first" : ""));
    return;
  }
}
}  // namespace kgen::sim
