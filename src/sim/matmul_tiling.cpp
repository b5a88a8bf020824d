// Host side of the Matmul API: platform_ascendc::PlatformAscendC (the build's SoC), the matmul_tiling classes
// that compute a TCubeTiling, and the TCubeTiling legality rules that the kernel side applies too.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>
#include <string>

#include "sim/matmul_check.h"
#include "sim/soc.h"
#include "platform/platform_info.h"
#include "tiling/tiling_api.h"

namespace kgen::sim {
namespace {
std::string num(int64_t v) { return std::to_string(v); }
int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
int64_t align_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
}  // namespace

std::string mm_check_tiling(const TCubeTiling& t, const MmCheckInfo& in) {
  auto positive = [](const char* name, int32_t v) -> std::string {
    if (v > 0) return "";
    return std::string(name) + ": is " + num(v) + "; it must be > 0";
  };
  for (auto [name, v] : {std::pair{"M", t.M}, {"N", t.N}, {"Ka", t.Ka}, {"Kb", t.Kb}, {"singleCoreM", t.singleCoreM},
                         {"singleCoreN", t.singleCoreN}, {"singleCoreK", t.singleCoreK}, {"baseM", t.baseM},
                         {"baseN", t.baseN}, {"baseK", t.baseK}, {"depthA1", t.depthA1}, {"depthB1", t.depthB1},
                         {"stepM", t.stepM}, {"stepN", t.stepN}, {"stepKa", t.stepKa}, {"stepKb", t.stepKb}}) {
    std::string e = positive(name, v);
    if (!e.empty()) return e;
  }
  if (t.usedCoreNum < 1 || static_cast<uint32_t>(t.usedCoreNum) > in.max_cores)
    return "usedCoreNum: is " + num(t.usedCoreNum) + "; it must be in [1, " + num(in.max_cores) +
           "] (the cores of this SoC that run the Matmul)";
  if (t.singleCoreM > t.M) return "singleCoreM: " + num(t.singleCoreM) + " exceeds M = " + num(t.M);
  if (t.singleCoreN > t.N) return "singleCoreN: " + num(t.singleCoreN) + " exceeds N = " + num(t.N);
  if (t.singleCoreK > t.Ka || t.singleCoreK > t.Kb)
    return "singleCoreK: " + num(t.singleCoreK) + " exceeds Ka = " + num(t.Ka) + " / Kb = " + num(t.Kb) +
           " (K is not split over cores: singleCoreK = K)";
  int64_t blocks = ceil_div(t.M, t.singleCoreM) * ceil_div(t.N, t.singleCoreN);
  if (t.usedCoreNum > blocks)
    return "usedCoreNum: " + num(t.usedCoreNum) + " cores but only ceil(M/singleCoreM)*ceil(N/singleCoreN) = " +
           num(blocks) + " single-core blocks to give them";
  if (t.baseM % 16) return "baseM: " + num(t.baseM) + " is not a multiple of 16 (the cube fractal)";
  if (t.baseN % 16) return "baseN: " + num(t.baseN) + " is not a multiple of 16 (the cube fractal)";
  uint32_t c0a = mm_c0(in.a_size);
  uint32_t k_align = in.trans_known ? ((!in.trans_a && in.trans_b) ? c0a : 16u) : std::min(16u, c0a);
  if (t.baseK % k_align)
    return "baseK: " + num(t.baseK) + " is not a multiple of " + num(k_align) +
           (in.trans_known && !in.trans_a && in.trans_b ? " (C0 of A: A not transposed, B transposed)"
                                                          : " (the cube fractal)");
  for (auto [name, v] : {std::pair{"dbL0A", t.dbL0A}, {"dbL0B", t.dbL0B}, {"dbL0C", t.dbL0C}})
    if (v != 1 && v != 2) return std::string(name) + ": is " + num(v) + "; it must be 1 or 2";
  if (t.iterateOrder != 0 && t.iterateOrder != 1)
    return "iterateOrder: is " + num(t.iterateOrder) + "; it must be 0 (M first) or 1 (N first)";
  if (t.isBias != 0 && t.isBias != 1) return "isBias: is " + num(t.isBias) + "; it must be 0 or 1";
  uint64_t a0 = uint64_t(t.baseM) * t.baseK * in.a_size * t.dbL0A;
  if (a0 > in.l0a)
    return "baseM: baseM*baseK*sizeof(A)*dbL0A = " + num(t.baseM) + "*" + num(t.baseK) + "*" + num(in.a_size) + "*" +
           num(t.dbL0A) + " = " + num(a0) + " bytes exceeds L0A (" + num(in.l0a) +
           " bytes); use a smaller baseM/baseK" + std::string(t.dbL0A == 2 ? " or dbL0A = 1" : "");
  uint64_t b0 = uint64_t(t.baseN) * t.baseK * in.b_size * t.dbL0B;
  if (b0 > in.l0b)
    return "baseN: baseN*baseK*sizeof(B)*dbL0B = " + num(t.baseN) + "*" + num(t.baseK) + "*" + num(in.b_size) + "*" +
           num(t.dbL0B) + " = " + num(b0) + " bytes exceeds L0B (" + num(in.l0b) +
           " bytes); use a smaller baseN/baseK" + std::string(t.dbL0B == 2 ? " or dbL0B = 1" : "");
  uint64_t c0b = uint64_t(t.baseM) * t.baseN * 4 * t.dbL0C;
  if (c0b > in.l0c)
    return "baseN: baseM*baseN*4*dbL0C = " + num(t.baseM) + "*" + num(t.baseN) + "*4*" + num(t.dbL0C) + " = " +
           num(c0b) + " bytes exceeds L0C (" + num(in.l0c) + " bytes, fp32/int32 accumulators); use a smaller "
           "baseM/baseN" + std::string(t.dbL0C == 2 ? " or dbL0C = 1" : "");
  if (t.isBias && in.bt > 0 && uint64_t(t.baseN) * in.bias_size > in.bt)
    return "baseN: baseN*sizeof(bias) = " + num(uint64_t(t.baseN) * in.bias_size) + " bytes exceeds the BiasTable (" +
           num(in.bt) + " bytes)";
  int64_t sa = int64_t(t.stepM) * t.stepKa, sb = int64_t(t.stepN) * t.stepKb;
  if (t.depthA1 != sa && t.depthA1 != 2 * sa)
    return "depthA1: is " + num(t.depthA1) + " but stepM*stepKa = " + num(sa) +
           "; depthA1 must be stepM*stepKa (no L1 double buffer) or 2*stepM*stepKa";
  if (t.depthB1 != sb && t.depthB1 != 2 * sb)
    return "depthB1: is " + num(t.depthB1) + " but stepN*stepKb = " + num(sb) +
           "; depthB1 must be stepN*stepKb (no L1 double buffer) or 2*stepN*stepKb";
  uint32_t c0b_ = mm_c0(in.b_size);
  uint64_t al1 = uint64_t(in.trans_known && in.trans_a ? align_up(t.baseM, c0a) : t.baseM) * t.baseK * t.depthA1 * in.a_size;
  uint64_t bl1 = uint64_t(in.trans_known && in.trans_b ? t.baseN : align_up(t.baseN, c0b_)) * t.baseK * t.depthB1 * in.b_size;
  uint64_t bias1 = t.isBias ? uint64_t(t.baseN) * in.bias_size : 0;
  if (al1 + bl1 + bias1 > in.l1)
    return "depthA1: the L1 footprint A1 + B1" + std::string(t.isBias ? " + bias" : "") + " = " + num(al1) + " + " +
           num(bl1) + (t.isBias ? " + " + num(bias1) : std::string()) + " = " + num(al1 + bl1 + bias1) +
           " bytes exceeds L1 (" + num(in.l1) + " bytes); reduce depthA1/depthB1 (stepKa/stepKb) or the base block";
  if (in.mdl) {
    int64_t kiter = ceil_div(t.singleCoreK, t.baseK);
    if (kiter > t.stepKa && t.stepM != 1)
      return "stepM: MDL template with K not fully loaded in A1 (ceil(singleCoreK/baseK) = " + num(kiter) +
             " > stepKa = " + num(t.stepKa) + ") needs stepM = 1";
    if (kiter > t.stepKb && t.stepN != 1)
      return "stepN: MDL template with K not fully loaded in B1 (ceil(singleCoreK/baseK) = " + num(kiter) +
             " > stepKb = " + num(t.stepKb) + ") needs stepN = 1";
    int64_t ka = ceil_div(t.singleCoreK, int64_t(t.baseK) * t.stepKa), kb = ceil_div(t.singleCoreK, int64_t(t.baseK) * t.stepKb);
    if (ka % kb != 0 && kb % ka != 0)
      return "stepKa: MDL template needs the K load counts of A1 (" + num(ka) + ") and B1 (" + num(kb) +
             ") to be multiples of one another";
  }
  return "";
}
}  // namespace kgen::sim

// ---------------------------------------------------------------------------------------------------------------
// fe::PlatFormInfos: what TilingContext::GetPlatformInfo() hands to PlatformAscendC, the SoC's name (one object per
// name, never freed, so that the pointer stays valid for the whole process).
namespace kgen::rt {
fe::PlatFormInfos* platform_infos(const char* soc) {
  static std::mutex mu;
  static std::vector<std::unique_ptr<fe::PlatFormInfos>> all;
  std::lock_guard<std::mutex> lock(mu);
  std::string name = soc ? soc : "";
  for (auto& p : all)
    if (p->kgen_soc == name) return p.get();
  all.push_back(std::make_unique<fe::PlatFormInfos>());
  all.back()->kgen_soc = name;
  return all.back().get();
}
const char* platform_soc(const fe::PlatFormInfos* infos) { return infos ? infos->kgen_soc.c_str() : nullptr; }
}  // namespace kgen::rt

namespace platform_ascendc {
namespace {
const kgen::sim::Soc& soc_of(const char* name) {
  const kgen::sim::Soc* s = name ? kgen::sim::find_soc(name) : nullptr;
  return s ? *s : kgen::sim::default_soc();
}
}  // namespace
uint32_t PlatformAscendC::GetCoreNum(void) const { return soc_of(soc_).aiv_cores; }
SocVersion PlatformAscendC::GetSocVersion(void) const {
  return soc_of(soc_).arch == 2002 ? SocVersion::ASCEND310P : SocVersion::ASCEND910B;
}
uint32_t PlatformAscendC::GetCoreNumAic(void) const { return soc_of(soc_).aic_cores; }
uint32_t PlatformAscendC::GetCoreNumAiv(void) const { return soc_of(soc_).aiv_cores; }
uint32_t PlatformAscendC::GetCoreNumVector(void) const { return soc_of(soc_).arch == 2002 ? 7 : 0; }
uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
  if (aicCoreNum == 0 || aivCoreNum == 0 || aivCoreNum <= aicCoreNum) return sliceNum;
  uint32_t ratio = aivCoreNum / aicCoreNum;   // vector cores per cube core in one launch group
  return (sliceNum + ratio - 1) / ratio;
}
void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  using kgen::sim::Mem;
  const kgen::sim::Soc& s = soc_of(soc_);
  auto mem = [&](Mem m) { return uint64_t(s.mem_size[static_cast<int>(m)]); };
  bool b4 = std::string(s.name) == "Ascend910B4";
  switch (memType) {
    case CoreMemType::L0_A: size = mem(Mem::L0A); break;
    case CoreMemType::L0_B: size = mem(Mem::L0B); break;
    case CoreMemType::L0_C: size = mem(Mem::L0C); break;
    case CoreMemType::L1: size = mem(Mem::L1); break;
    case CoreMemType::UB: size = mem(Mem::UB) - reservedUb_; break;
    case CoreMemType::FB: size = mem(Mem::FB); break;
    case CoreMemType::BT: size = mem(Mem::BT); break;
    case CoreMemType::L2: size = s.arch == 2002 ? (16ull << 20) : b4 ? (96ull << 20) : (192ull << 20); break;
    case CoreMemType::HBM: size = s.arch == 2002 ? (24ull << 30) : b4 ? (32ull << 30) : (64ull << 30); break;
    default: size = 0; break;
  }
}
uint32_t PlatformAscendC::GetLibApiWorkSpaceSize(void) const { return 16u * 1024 * 1024; }
void PlatformAscendC::ReserveLocalMemory(ReservedSize size) {
  reservedUb_ = size == ReservedSize::RESERVED_SIZE_8K ? 8192 : size == ReservedSize::RESERVED_SIZE_16K ? 16384 : 32768;
}
PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  static std::string name;
  static std::unique_ptr<PlatformAscendC> inst;
  if (!inst) {
    name = customSocVersion && kgen::sim::find_soc(customSocVersion) ? customSocVersion : kgen::sim::default_soc().name;
    inst.reset(new PlatformAscendC(nullptr));
    inst->soc_ = name.c_str();
  }
  return inst.get();
}
}  // namespace platform_ascendc

// ---------------------------------------------------------------------------------------------------------------
namespace matmul_tiling {
namespace {
using kgen::MmTilingParams;
int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
int64_t align_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
int64_t align_down(int64_t a, int64_t b) { return b > 0 ? a / b * b : a; }

uint32_t dsize(DataType d) {
  switch (d) {
    case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 4;
    case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_INT16: case DataType::DT_UINT16: return 2;
    case DataType::DT_INT8: case DataType::DT_UINT8: return 1;
    default: return 0;
  }
}

bool fail(const std::string& why) {
  std::fprintf(stderr, "[WARNING] matmul_tiling: GetTiling failed: %s\n", why.c_str());
  return false;
}

// The tiling algorithm: split M and N over cores, pick base blocks that fill L0A/L0B/L0C with double buffering,
// then load as much of K into L1 as fits (double-buffered first).
bool compute(MmTilingParams& p, TCubeTiling& t) {
  uint32_t sa = dsize(p.dt[0]), sb = dsize(p.dt[1]), sbias = dsize(p.dt[3]);
  if (!sa || !sb) return fail("unsupported A/B data type (SetAType/SetBType)");
  if (!sbias) sbias = 4;
  int64_t M = p.m > 0 ? p.m : p.orgM, N = p.n > 0 ? p.n : p.orgN, K = p.k > 0 ? p.k : std::max(p.orgKa, p.orgKb);
  int64_t orgM = p.orgM > 0 ? p.orgM : M, orgN = p.orgN > 0 ? p.orgN : N;
  int64_t orgKa = p.orgKa > 0 ? p.orgKa : K, orgKb = p.orgKb > 0 ? p.orgKb : K;
  if (M <= 0 || N <= 0 || K <= 0) return fail("shape not set: call SetShape(m, n, k) and/or SetOrgShape(m, n, k)");
  if (K > std::min(orgKa, orgKb)) return fail("K = " + std::to_string(K) + " exceeds the original Ka/Kb");
  uint32_t c0a = kgen::sim::mm_c0(sa), c0b = kgen::sim::mm_c0(sb);
  int64_t kAlign = (!p.transA && p.transB) ? std::max<int64_t>(16, c0a) : 16;
  if (sa == 1) kAlign = 32;   // int8: keep baseK a whole 32-element fractal whatever the transposes

  // ---- single-core shape ----
  int64_t sM = M, sN = N, sK = p.singleK > 0 ? p.singleK : K;
  if (p.multi) {
    int64_t dim = std::max(1, p.dim);
    auto clamp = [&](int64_t v, int i) {
      if (p.maxSingle[i] > 0) v = std::min<int64_t>(v, p.maxSingle[i]);
      if (p.minSingle[i] > 0) v = std::max<int64_t>(v, p.minSingle[i]);
      return v;
    };
    auto al = [&](int64_t v, int i, int64_t full) {
      int64_t a = p.alignSingle[i] > 0 ? p.alignSingle[i] : 16;
      v = align_up(v, a);
      return v >= full ? full : v;
    };
    if (p.singleM > 0 && p.singleN > 0) {
      sM = p.singleM; sN = p.singleN;
    } else {
      double best = -1;
      for (int64_t md = 1; md <= dim; ++md) {
        int64_t nd = dim / md;
        int64_t cm = p.singleM > 0 ? p.singleM : clamp(al(ceil_div(M, md), 0, M), 0);
        int64_t cn = p.singleN > 0 ? p.singleN : clamp(al(ceil_div(N, nd), 1, N), 1);
        int64_t used = ceil_div(M, cm) * ceil_div(N, cn);
        if (used > dim) continue;
        // per-core time: cube work plus the operand traffic that narrow blocks re-load
        double cost = double(align_up(cm, 16)) * align_up(cn, 16) + 64.0 * (cm + cn);
        if (best < 0 || cost < best - 1e-9 || (cost <= best + 1e-9 && used < ceil_div(M, sM) * ceil_div(N, sN))) {
          best = cost; sM = cm; sN = cn;
        }
      }
    }
  } else {
    if (p.singleM > 0) sM = p.singleM;
    if (p.singleN > 0) sN = p.singleN;
  }
  int64_t used = p.multi ? ceil_div(M, sM) * ceil_div(N, sN) : 1;

  // ---- base block ----
  int64_t defN = 256, defK = sa == 4 ? 32 : sa == 1 ? 128 : 64;
  int64_t bM = p.baseM > 0 ? p.baseM : std::min<int64_t>(128, align_up(sM, 16));
  int64_t bN = p.baseN > 0 ? p.baseN : std::min<int64_t>(defN, align_up(sN, 16));
  if (p.maxBase[0] > 0 && p.baseM <= 0) bM = std::min<int64_t>(bM, align_down(p.maxBase[0], 16));
  if (p.maxBase[1] > 0 && p.baseN <= 0) bN = std::min<int64_t>(bN, align_down(p.maxBase[1], 16));
  if (p.minBase[0] > 0 && p.baseM <= 0) bM = std::max<int64_t>(bM, align_up(p.minBase[0], 16));
  if (p.minBase[1] > 0 && p.baseN <= 0) bN = std::max<int64_t>(bN, align_up(p.minBase[1], 16));
  uint64_t bt = p.btLimit > 0 ? uint64_t(p.btLimit) : p.bt;
  if (p.bias && bt > 0 && p.baseN <= 0) bN = std::min<int64_t>(bN, align_down(int64_t(bt / sbias), 16));
  uint64_t l0c = p.l0cLimit > 0 ? uint64_t(p.l0cLimit) : p.l0c;
  if (p.baseN <= 0)
    while (bN > 16 && uint64_t(bM) * bN * 4 > l0c) bN -= 16;
  int64_t bK;
  if (p.baseK > 0) {
    bK = p.baseK;
  } else {
    int64_t maxK = std::min<int64_t>(p.l0a / (uint64_t(bM) * sa * 2), p.l0b / (uint64_t(bN) * sb * 2));
    maxK = std::min<int64_t>(maxK, std::max<int64_t>(defK, 2 * defK));
    if (p.maxBase[2] > 0) maxK = std::min<int64_t>(maxK, p.maxBase[2]);
    maxK = std::max<int64_t>(align_down(maxK, kAlign), kAlign);
    bK = std::min<int64_t>(maxK, align_up(sK, kAlign));
    if (p.minBase[2] > 0) bK = std::max<int64_t>(bK, align_up(p.minBase[2], kAlign));
  }
  int32_t dbA = uint64_t(bM) * bK * sa * 2 <= p.l0a ? 2 : 1;
  int32_t dbB = uint64_t(bN) * bK * sb * 2 <= p.l0b ? 2 : 1;
  int32_t dbC = uint64_t(bM) * bN * 4 * 2 <= l0c ? 2 : 1;

  // ---- L1: as much of K as fits, double-buffered first ----
  uint64_t l1 = p.l1Limit > 0 ? uint64_t(p.l1Limit) : p.l1;
  uint64_t biasL1 = p.bias ? uint64_t(bN) * sbias : 0;
  uint64_t aRow = p.transA ? align_up(bM, c0a) : bM, bCol = p.transB ? bN : align_up(bN, c0b);
  int64_t kIter = ceil_div(sK, bK);
  int64_t stepK = 0, db = 0;
  for (int64_t s = kIter; s >= 1 && !stepK; s = (s == 1 ? 0 : ceil_div(s, 2))) {
    for (int64_t d = 2; d >= 1; --d) {
      uint64_t need = aRow * bK * s * d * sa + bCol * bK * s * d * sb + biasL1;
      if (need <= l1) { stepK = s; db = d; break; }
    }
  }
  if (!stepK) return fail("the base block [" + std::to_string(bM) + ", " + std::to_string(bN) + ", " +
                          std::to_string(bK) + "] does not fit in L1 (" + std::to_string(l1) + " bytes)");

  t = TCubeTiling{};
  t.usedCoreNum = static_cast<int32_t>(used);
  t.M = static_cast<int32_t>(orgM); t.N = static_cast<int32_t>(orgN);
  t.Ka = static_cast<int32_t>(orgKa); t.Kb = static_cast<int32_t>(orgKb);
  t.singleCoreM = static_cast<int32_t>(sM); t.singleCoreN = static_cast<int32_t>(sN); t.singleCoreK = static_cast<int32_t>(sK);
  t.baseM = static_cast<int32_t>(bM); t.baseN = static_cast<int32_t>(bN); t.baseK = static_cast<int32_t>(bK);
  t.stepM = 1; t.stepN = 1;
  t.stepKa = static_cast<int32_t>(stepK); t.stepKb = static_cast<int32_t>(stepK);
  t.depthA1 = static_cast<int32_t>(stepK * db); t.depthB1 = static_cast<int32_t>(stepK * db);
  t.isBias = p.bias ? 1 : 0;
  bool cUb = p.pos[2] == TPosition::VECIN || p.pos[2] == TPosition::VECCALC || p.pos[2] == TPosition::VECOUT;
  t.transLength = cUb ? static_cast<int32_t>(bM * bN * std::max<uint32_t>(4, dsize(p.dt[2]))) : 0;
  t.iterateOrder = p.traverse == static_cast<int32_t>(MatrixTraverse::FIRSTN) ? 1 : 0;
  t.shareMode = 0;
  t.shareL1Size = static_cast<int32_t>(aRow * bK * stepK * db * sa + bCol * bK * stepK * db * sb + biasL1);
  t.shareL0CSize = static_cast<int32_t>(bM * bN * 4 * dbC);
  t.shareUbSize = 0;
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  t.dbL0A = dbA; t.dbL0B = dbB; t.dbL0C = dbC;

  kgen::sim::MmCheckInfo in;
  in.a_size = sa; in.b_size = sb; in.bias_size = sbias;
  in.trans_known = true; in.trans_a = p.transA; in.trans_b = p.transB;
  in.max_cores = static_cast<uint32_t>(std::max(p.aivCores, p.aicCores));
  in.l1 = l1; in.l0a = p.l0a; in.l0b = p.l0b; in.l0c = l0c; in.bt = bt;
  std::string err = kgen::sim::mm_check_tiling(t, in);
  if (!err.empty()) return fail("illegal tiling, TCubeTiling." + err);
  p.outBase[0] = t.baseM; p.outBase[1] = t.baseN; p.outBase[2] = t.baseK;
  p.outSingle[0] = t.singleCoreM; p.outSingle[1] = t.singleCoreN; p.outSingle[2] = t.singleCoreK;
  p.outDim[0] = t.usedCoreNum;
  p.outDim[1] = static_cast<int32_t>(ceil_div(M, sM));
  p.outDim[2] = static_cast<int32_t>(ceil_div(N, sN));
  return true;
}
}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& plat) {
  using platform_ascendc::CoreMemType;
  plat.GetCoreMemSize(CoreMemType::L1, p_.l1);
  plat.GetCoreMemSize(CoreMemType::L0_A, p_.l0a);
  plat.GetCoreMemSize(CoreMemType::L0_B, p_.l0b);
  plat.GetCoreMemSize(CoreMemType::L0_C, p_.l0c);
  plat.GetCoreMemSize(CoreMemType::UB, p_.ub);
  plat.GetCoreMemSize(CoreMemType::BT, p_.bt);
  p_.aicCores = static_cast<int32_t>(plat.GetCoreNumAic());
  p_.aivCores = static_cast<int32_t>(plat.GetCoreNumAiv());
}
MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) {
  bool p310 = platform.socVersion == platform_ascendc::SocVersion::ASCEND310P;
  p_.l1 = platform.l1Size ? platform.l1Size : (p310 ? 1024 : 512) * 1024;
  p_.l0a = platform.l0ASize ? platform.l0ASize : 64 * 1024;
  p_.l0b = platform.l0BSize ? platform.l0BSize : 64 * 1024;
  p_.l0c = platform.l0CSize ? platform.l0CSize : (p310 ? 256 : 128) * 1024;
  p_.ub = platform.ubSize ? platform.ubSize : (p310 ? 256 : 192) * 1024;
  p_.bt = p310 ? 0 : 1024;
  p_.aicCores = p310 ? 8 : 24;
  p_.aivCores = p310 ? 8 : 48;
}
int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  p_.pos[0] = pos; p_.fmt[0] = type; p_.dt[0] = dataType; p_.transA = isTrans; p_.typeSet[0] = true;
  return dsize(dataType) ? 0 : -1;
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  p_.pos[1] = pos; p_.fmt[1] = type; p_.dt[1] = dataType; p_.transB = isTrans; p_.typeSet[1] = true;
  return dsize(dataType) ? 0 : -1;
}
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  p_.pos[2] = pos; p_.fmt[2] = type; p_.dt[2] = dataType; p_.typeSet[2] = true;
  return dsize(dataType) ? 0 : -1;
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  p_.pos[3] = pos; p_.fmt[3] = type; p_.dt[3] = dataType; p_.typeSet[3] = true;
  return dsize(dataType) ? 0 : -1;
}
int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  if (m <= 0 && m != -1) return -1;
  p_.m = m; p_.n = n; p_.k = k;
  return 0;
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
  if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
  p_.orgM = orgMIn; p_.orgN = orgNIn; p_.orgKa = orgKaIn; p_.orgKb = orgKbIn;
  return 0;
}
int32_t MatmulApiTilingBase::EnableBias(bool isBiasIn) { p_.bias = isBiasIn; return 0; }
int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) { p_.bias = isBiasIn; return 0; }
int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  p_.baseM = baseMIn; p_.baseN = baseNIn; p_.baseK = baseKIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize, int32_t btSize) {
  if ((l1Size > 0 && uint64_t(l1Size) > p_.l1) || (l0CSize > 0 && uint64_t(l0CSize) > p_.l0c)) return -1;
  p_.l1Limit = l1Size; p_.l0cLimit = l0CSize; p_.ubLimit = ubSize; p_.btLimit = btSize;
  return 0;
}
int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) { p_.traverse = static_cast<int32_t>(traverse); return 0; }
int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) { return madType == MatrixMadType::NORMAL ? 0 : -1; }
int32_t MatmulApiTilingBase::SetSplitRange(int32_t maxBaseM, int32_t maxBaseN, int32_t maxBaseK, int32_t minBaseM,
                                           int32_t minBaseN, int32_t minBaseK) {
  p_.maxBase[0] = maxBaseM; p_.maxBase[1] = maxBaseN; p_.maxBase[2] = maxBaseK;
  p_.minBase[0] = minBaseM; p_.minBase[1] = minBaseN; p_.minBase[2] = minBaseK;
  return 0;
}
int32_t MatmulApiTilingBase::SetDoubleBuffer(bool, bool, bool, bool, bool, bool) { return 0; }
int64_t MatmulApiTilingBase::GetTiling(::AscendC::tiling::TCubeTiling& tiling) {
  TCubeTiling t;
  if (!compute(p_, t)) return -1;
  tiling = t;
  return 0;
}
int64_t MatmulApiTilingBase::GetTiling(optiling::TCubeTiling& tiling) {
  TCubeTiling t;
  if (!compute(p_, t)) return -1;
#define KGEN_TCUBE_SET(name) tiling.set_##name(t.name);
  KGEN_TCUBE_TILING_FIELDS(KGEN_TCUBE_SET)
#undef KGEN_TCUBE_SET
  return 0;
}

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  if (dim <= 0) return -1;
  p_.dim = dim;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn, int32_t singleKIn) {
  p_.singleM = singleMIn; p_.singleN = singleNIn; p_.singleK = singleKIn;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetSingleRange(int32_t maxM, int32_t maxN, int32_t maxK, int32_t minM, int32_t minN,
                                              int32_t minK) {
  p_.maxSingle[0] = maxM; p_.maxSingle[1] = maxN; p_.maxSingle[2] = maxK;
  p_.minSingle[0] = minM; p_.minSingle[1] = minN; p_.minSingle[2] = minK;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
  p_.alignSingle[0] = alignM; p_.alignSingle[1] = alignN; p_.alignSingle[2] = alignK;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
  shapeM = p_.outSingle[0]; shapeN = p_.outSingle[1]; shapeK = p_.outSingle[2];
  return 0;
}
int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
  dim = p_.outDim[0]; mDim = p_.outDim[1]; nDim = p_.outDim[2];
  return 0;
}
void MultiCoreMatmulTiling::EnableMultiCoreSplitK(bool flag) { p_.splitK = flag; }
void MultiCoreMatmulTiling::SetSplitK(bool flag) { p_.splitK = flag; }
}  // namespace matmul_tiling

namespace fe {
uint32_t PlatFormInfos::GetCoreNum() const {
  return platform_ascendc::PlatformAscendC(const_cast<PlatFormInfos*>(this)).GetCoreNum();
}
void PlatFormInfos::GetLocalMemSize(const LocalMemType& mem_type, uint64_t& size) const {
  size = 0;
  if (mem_type == LocalMemType::RESERVED) return;   // the enumerators up to HBM are CoreMemType's
  platform_ascendc::PlatformAscendC(const_cast<PlatFormInfos*>(this))
      .GetCoreMemSize(static_cast<platform_ascendc::CoreMemType>(static_cast<int>(mem_type)), size);
}
}  // namespace fe
