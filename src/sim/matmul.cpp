// Kernel side of the high-level Matmul API (lib/matmul_intf.h). The library computes C from the operands base block
// by base block, in the order the TCubeTiling gives (singleCore / base / step / iterateOrder / tails), with fp32
// (int32) accumulation, and records per block the instructions the cube pipes would run: MTE2 GM->A1/B1 loads
// (when a step tile is not resident), MTE1 A1->A2 / B1->B2 per k block, Mmad on M, and the FIX move of C.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kgen/matmul.h"
#include "sim/core.h"
#include "sim/timing.h"
#include "sim/gm.h"
#include "sim/gm_races.h"
#include "sim/launch.h"
#include "sim/matmul_check.h"

namespace kgen::sim {
namespace {
constexpr int kA = 0, kB = 1, kC = 2, kBias = 3;

int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
int64_t align_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

struct MmObj {
  rt::MmTypes ty;
  Core* core = nullptr;         // the core it is registered on
  bool registered = false;
  bool has_tiling = false;
  TCubeTiling t;
  rt::MmOperand op[3];
  bool has[3] = {false, false, false};
  int bias_state = 0;           // 0: as the tiling's isBias says, 1: SetBias, 2: DisableBias
  int org_m = 0, org_n = 0, org_ka = 0, org_kb = 0, org_kc = 0;
  int s_m = 0, s_n = 0, s_k = 0;
  // iteration
  bool running = false, ready = false, checked = false;
  int m_iter = 0, n_iter = 0, idx = 0, total = 0;
  int mi = 0, ni = 0, cm = 0, cn = 0;
  std::vector<float> accf;
  std::vector<int32_t> acci;
  std::vector<int64_t> a1_keys, b1_keys;   // step tiles resident in A1 / B1 (trace)
  int64_t bias_key = -1;
};

std::map<const Core*, int>& live_objects() {
  static std::map<const Core*, int> m;
  return m;
}

MmObj& obj(void* h) { return *static_cast<MmObj*>(h); }

bool is_int8(DType d) { return d == DType::I8; }
uint32_t esize(DType d) { return dtype_size(d); }
const char* fmt_name(CubeFormat f) {
  static const char* n[] = {"ND", "NZ", "ZN", "ZZ", "NN", "ND_ALIGN", "SCALAR", "VECTOR"};
  return n[static_cast<int>(f)];
}

MmCheckInfo check_info(const MmObj& o, const Core& c) {
  MmCheckInfo in;
  in.a_size = esize(o.ty.dt[kA]);
  in.b_size = esize(o.ty.dt[kB]);
  in.bias_size = esize(o.ty.dt[kBias]);
  in.mdl = o.ty.cfg == 1;
  bool split = c.soc->arch != 2002;
  in.max_cores = o.ty.cube_only && split ? c.soc->aic_cores : c.soc->aiv_cores;
  in.l1 = c.soc->mem_size[static_cast<int>(Mem::L1)];
  in.l0a = c.soc->mem_size[static_cast<int>(Mem::L0A)];
  in.l0b = c.soc->mem_size[static_cast<int>(Mem::L0B)];
  in.l0c = c.soc->mem_size[static_cast<int>(Mem::L0C)];
  in.bt = c.soc->mem_size[static_cast<int>(Mem::BT)];
  return in;
}

void require_init(const MmObj& o, const char* api, const Loc& loc) {
  if (!o.has_tiling)
    fail("param", api, loc,
         "the Matmul object has no tiling: register it with REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, "
         "&tiling) (or call mm.Init(&tiling)) before using it");
}

// The dtype combinations of the A2/310P support table (guide 0632) that kgen computes. The bias type matters only
// once a bias is set (SetBias, check_bias_type): NPUKernelBench's InplaceFusedMatmulSoftmaxGrad declares a bfloat16
// BIAS_TYPE it never sets, and runs on the chip.
bool bias_type_ok(DType a, DType cc, DType bias) {
  if (a == DType::F16 || a == DType::BF16) return bias == DType::F32 || bias == DType::F16 || bias == cc;
  if (a == DType::F32) return bias == DType::F32 || bias == DType::F16;
  return bias == DType::I32;
}

void check_types(const MmObj& o, const Core& c, const char* api, const Loc& loc) {
  DType a = o.ty.dt[kA], b = o.ty.dt[kB], cc = o.ty.dt[kC];
  bool p310 = c.soc->arch == 2002;
  bool ok = a == b &&
            ((a == DType::F16 && (cc == DType::F32 || cc == DType::F16)) ||
             (a == DType::BF16 && !p310 && (cc == DType::F32 || cc == DType::BF16)) ||
             (a == DType::F32 && !p310 && cc == DType::F32) || (a == DType::I8 && cc == DType::I32));
  if (!ok)
    fail("dtype", api, loc,
         std::string("Matmul A ") + dtype_name(a) + " x B " + dtype_name(b) + " -> C " + dtype_name(cc) +
             " is not a combination kgen runs on " + c.soc->name +
             "; supported: half x half -> float/half, bfloat16 x bfloat16 -> float/bfloat16, float x float -> float,"
             " int8 x int8 -> int32; quantised outputs are not emulated");
  auto pos_ok = [&](int i) {
    TPosition p = o.ty.pos[i];
    if (i == kA || i == kB) return p == TPosition::GM || p == TPosition::VECOUT || p == TPosition::TSCM;
    if (i == kBias) return p == TPosition::GM || p == TPosition::VECOUT;
    return p == TPosition::GM || p == TPosition::VECIN;
  };
  static const char* names[] = {"A", "B", "C", "Bias"};
  for (int i = 0; i < 3; ++i)   // BIAS defaults to C's type; its place is checked at SetBias
    if (!pos_ok(i))
      fail("param", api, loc,
           std::string("MatmulType of ") + names[i] + " has position " + position_name(o.ty.pos[i]) +
               (i == kC && o.ty.pos[i] == TPosition::CO1
                    ? ", i.e. Iterate into a user CO1 tensor plus Fixpipe, which kgen's Matmul does not emulate"
                    : std::string(", which the Matmul API does not take; A/B: GM, VECOUT, TSCM; Bias: GM, VECOUT; C: GM, VECIN")));
  auto fmt_ok = [&](int i) {
    CubeFormat f = o.ty.fmt[i];
    if (i == kA) return f == CubeFormat::ND || f == CubeFormat::NZ || f == CubeFormat::VECTOR || f == CubeFormat::SCALAR;
    if (i == kB) return f == CubeFormat::ND || f == CubeFormat::NZ || f == CubeFormat::SCALAR;
    if (i == kC) return f == CubeFormat::ND || f == CubeFormat::NZ || f == CubeFormat::ND_ALIGN;
    return f == CubeFormat::ND;
  };
  for (int i = 0; i < 3; ++i)
    if (!fmt_ok(i))
      fail("param", api, loc,
           std::string("MatmulType of ") + names[i] + " has format CubeFormat::" + fmt_name(o.ty.fmt[i]) +
               ", which the Matmul API does not take for it (A: ND, NZ, VECTOR; B: ND, NZ; C: ND, NZ, ND_ALIGN; "
               "Bias: ND)");
}

void reset_iteration(MmObj& o) {
  o.running = false;
  o.ready = false;
  o.a1_keys.clear();
  o.b1_keys.clear();
  o.bias_key = -1;
}

void do_init(MmObj& o, const TCubeTiling* tiling, const char* api, const Loc& loc) {
  Core& c = cur();
  if (!tiling) fail("param", api, loc, "the TCubeTiling pointer is null");
  check_types(o, c, api, loc);
  std::string err = mm_check_tiling(*tiling, check_info(o, c));
  if (!err.empty()) fail("param", api, loc, "illegal TCubeTiling: " + err);
  o.t = *tiling;
  o.has_tiling = true;
  o.org_m = o.t.M; o.org_n = o.t.N; o.org_ka = o.t.Ka; o.org_kb = o.t.Kb; o.org_kc = 0;
  o.s_m = o.t.singleCoreM; o.s_n = o.t.singleCoreN; o.s_k = o.t.singleCoreK;
  o.bias_state = 0;
  o.checked = false;
  reset_iteration(o);
}

// ---- operand layout: logical element (r, c) of A [M, K] or B [K, N] -> element offset of its storage ----
struct Layout {
  CubeFormat fmt;
  bool trans;
  int64_t ld;     // ND: row length of the stored matrix; NZ: stored rows rounded up to 16
  int64_t c0;     // NZ: elements per fractal row
  int64_t off(int64_t r, int64_t c) const {
    int64_t pr = trans ? c : r, pc = trans ? r : c;   // row/column of the stored matrix
    if (fmt == CubeFormat::NZ) return (pc / c0) * (ld * c0) + pr * c0 + (pc % c0);
    return pr * ld + pc;
  }
};

Layout layout_of(const MmObj& o, int which) {
  Layout L;
  L.fmt = o.ty.fmt[which];
  L.trans = o.op[which].trans;
  L.c0 = mm_c0(esize(o.ty.dt[which]));
  if (which == kA) {
    if (L.fmt == CubeFormat::NZ) L.ld = align_up(L.trans ? o.org_ka : o.org_m, 16);
    else L.ld = L.trans ? o.org_m : o.org_ka;
  } else {
    if (L.fmt == CubeFormat::NZ) L.ld = align_up(L.trans ? o.org_n : o.org_kb, 16);
    else L.ld = L.trans ? o.org_kb : o.org_n;
  }
  return L;
}

const uint8_t* operand_base(const MmObj& o, int which) {
  const rt::MmOperand& op = o.op[which];
  if (op.kind == 0) return static_cast<const uint8_t*>(op.gm);
  if (op.kind == 1) return mem_base(mem_of(op.local.pos, *cur().soc)) + op.local.addr;
  return reinterpret_cast<const uint8_t*>(&op.scalar.bits);
}

// The same for reading the operand's values: a GM operand's data goes through the emulator's alias (gm.h).
const uint8_t* operand_data(const MmObj& o, int which) {
  return o.op[which].kind == 0 ? gm_data(o.op[which].gm) : operand_base(o, which);
}

template <class T> float to_f(T v) { return static_cast<float>(v); }

// Reads logical rows [r0, r0+nr) x columns [c0, c0+nc) of operand `which` into out (row-major, nc per row).
template <class Acc> void gather(const MmObj& o, int which, int64_t r0, int64_t nr, int64_t c0, int64_t nc, Acc* out) {
  const uint8_t* base = operand_data(o, which);
  DType dt = o.ty.dt[which];
  bool scalar = o.op[which].kind == 2;
  Layout L = layout_of(o, which);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* p = reinterpret_cast<const T*>(base);
    for (int64_t r = 0; r < nr; ++r)
      for (int64_t c = 0; c < nc; ++c) {
        T v = scalar ? p[0] : p[L.off(r0 + r, c0 + c)];
        if constexpr (std::is_same_v<Acc, float>) out[r * nc + c] = static_cast<float>(v);
        else out[r * nc + c] = static_cast<Acc>(v);
      }
  };
  switch (dt) {
    case DType::F16: run(half{}); break;
    case DType::BF16: run(bfloat16_t{}); break;
    case DType::F32: run(float{}); break;
    case DType::I8: run(int8_t{}); break;
    default: break;
  }
}

// The storage extent of the whole single-core operand (elements), for the GM bounds check.
int64_t operand_extent(const MmObj& o, int which) {
  Layout L = layout_of(o, which);
  int64_t rows = which == kA ? o.s_m : o.s_k, cols = which == kA ? o.s_k : o.s_n;
  if (rows <= 0 || cols <= 0) return 0;
  if (L.fmt == CubeFormat::NZ) {
    int64_t pc = L.trans ? rows : cols;
    return ceil_div(pc, L.c0) * L.ld * L.c0;
  }
  return L.off(rows - 1, cols - 1) + 1;
}

const char* kOpName[] = {"A", "B", "C", "bias"};

// Records the accesses of one MTE2 load of rows [r0, r0+nr) x cols [c0, c0+nc) of a GM operand, and the tile's GM
// footprint on its trace record.
void record_gm_tile(const MmObj& o, int which, int64_t r0, int64_t nr, int64_t c0, int64_t nc, const char* api,
                    const Loc& loc, TraceRec& rec) {
  if (o.op[which].kind != 0) return;
  const uint8_t* base = operand_base(o, which);
  uint32_t es = esize(o.ty.dt[which]);
  Layout L = layout_of(o, which);
  // stored rows and columns of the tile
  int64_t pr0 = L.trans ? c0 : r0, pnr = L.trans ? nc : nr, pc0 = L.trans ? r0 : c0, pnc = L.trans ? nr : nc;
  if (L.fmt == CubeFormat::NZ) {   // one run of pnr rows of c0 elements per column block
    const int64_t cb0 = pc0 / L.c0, cb1 = (pc0 + pnc - 1) / L.c0;
    for (int64_t cb = cb0; cb <= cb1; ++cb)
      gm_access(base + (cb * L.ld * L.c0 + pr0 * L.c0) * es, uint64_t(pnr) * L.c0 * es, false, kMTE2, api, loc);
    set_gm_footprint(rec, base + (cb0 * L.ld * L.c0 + pr0 * L.c0) * es, uint64_t(cb1 - cb0 + 1),
                     uint64_t(L.ld) * L.c0 * es, uint64_t(pnr) * L.c0 * es);
    return;
  }
  for (int64_t r = 0; r < pnr; ++r)
    gm_access(base + ((pr0 + r) * L.ld + pc0) * es, uint64_t(pnc) * es, false, kMTE2, api, loc);
  set_gm_footprint(rec, base + (pr0 * L.ld + pc0) * es, uint64_t(pnr), uint64_t(L.ld) * es, uint64_t(pnc) * es);
}

TraceRec& cube_rec(Pipe p, const char* api, DType dt, uint64_t elems, uint64_t bytes, uint32_t fractals, uint32_t m,
                   uint32_t n, uint32_t k, const Loc& loc, const void* gm = nullptr) {
  issue(p);
  TraceRec& r = trace_instr(p, api, dt, elems, bytes, fractals, loc);
  r.cube_m = m;
  r.cube_n = n;
  r.cube_k = k;
  if (gm) r.gm = reinterpret_cast<uintptr_t>(gm);
  return r;
}

bool resident(std::vector<int64_t>& keys, int64_t key, size_t slots) {
  if (std::find(keys.begin(), keys.end(), key) != keys.end()) return true;
  keys.push_back(key);
  if (keys.size() > std::max<size_t>(1, slots)) keys.erase(keys.begin());
  return false;
}

bool bias_enabled(const MmObj& o) { return o.bias_state == 1 || (o.bias_state == 0 && o.t.isBias); }

// The first Iterate of a round: operands present, shapes consistent, tiling legal for the transposes used.
void start(MmObj& o, const char* api, const Loc& loc) {
  Core& c = cur();
  for (int i : {kA, kB})
    if (!o.has[i])
      fail("param", api, loc, std::string("Matmul ") + api + " without Set" + (i == kA ? "TensorA" : "TensorB"));
  if (o.bias_state == 0 && o.t.isBias && !o.has[2])
    fail("param", api, loc,
         "TCubeTiling.isBias = 1 but no SetBias was called: the Matmul would add a bias from an unset address; "
         "call SetBias(biasGlobal) or DisableBias()");
  if (!o.checked) {
    MmCheckInfo in = check_info(o, c);
    in.trans_known = true;
    in.trans_a = o.op[kA].trans;
    in.trans_b = o.op[kB].trans;
    TCubeTiling t = o.t;
    if (bias_enabled(o)) t.isBias = 1;
    std::string err = mm_check_tiling(t, in);
    if (!err.empty()) fail("param", api, loc, "illegal TCubeTiling for this call: " + err);
    o.checked = true;
  }
  if (o.s_k > o.org_ka || o.s_k > o.org_kb)
    fail("param", api, loc,
         "singleCoreK = " + std::to_string(o.s_k) + " exceeds the original Ka = " + std::to_string(o.org_ka) +
             " / Kb = " + std::to_string(o.org_kb) + " (SetOrgShape / TCubeTiling.Ka, Kb)");
  // GM bounds of everything this round reads
  for (int i : {kA, kB}) {
    if (o.op[i].kind != 0) continue;
    uint64_t bytes = uint64_t(operand_extent(o, i)) * esize(o.ty.dt[i]);
    gm_check_range(o.op[i].gm, bytes, false, api, loc);
  }
  if (bias_enabled(o) && o.has[2] && o.op[2].kind == 0)
    gm_check_range(o.op[2].gm, uint64_t(o.s_n) * esize(o.ty.dt[kBias]), false, api, loc);
  o.m_iter = static_cast<int>(ceil_div(o.s_m, o.t.baseM));
  o.n_iter = static_cast<int>(ceil_div(o.s_n, o.t.baseN));
  o.total = o.m_iter * o.n_iter;
  o.idx = 0;
  o.running = true;
}

// One base block: C[mi, ni] = A[mi, :] x B[:, ni] (+ bias), with the trace of its pipes.
void compute_block(MmObj& o, bool partial, const char* api, const Loc& loc) {
  Core& c = cur();
  const TCubeTiling& t = o.t;
  if (t.iterateOrder == 1) { o.ni = o.idx % o.n_iter; o.mi = o.idx / o.n_iter; }
  else { o.mi = o.idx % o.m_iter; o.ni = o.idx / o.m_iter; }
  int64_t m0 = int64_t(o.mi) * t.baseM, n0 = int64_t(o.ni) * t.baseN, K = o.s_k;
  int cm = static_cast<int>(std::min<int64_t>(t.baseM, o.s_m - m0));
  int cn = static_cast<int>(std::min<int64_t>(t.baseN, o.s_n - n0));
  bool same = partial && o.cm == cm && o.cn == cn;
  o.cm = cm;
  o.cn = cn;
  DType adt = o.ty.dt[kA];
  uint32_t sa = esize(adt), sb = esize(o.ty.dt[kB]);
  uint32_t k0 = mm_c0(sa);

  // ---- trace and GM accesses: MTE2 step tiles, MTE1 base blocks, Mmad ----
  int64_t kIter = ceil_div(K, t.baseK);
  size_t a_slots = static_cast<size_t>(std::max(1, t.depthA1 / std::max(1, t.stepM * t.stepKa)));
  size_t b_slots = static_cast<size_t>(std::max(1, t.depthB1 / std::max(1, t.stepN * t.stepKb)));
  bool bias = bias_enabled(o);
  if (bias && o.bias_key != o.ni) {
    o.bias_key = o.ni;
    uint32_t bs = esize(o.ty.dt[kBias]);
    const uint8_t* bp = operand_base(o, 2) + n0 * bs;
    if (o.op[2].kind == 0) {
      cube_rec(kMTE2, "Matmul:CopyBiasGmToL1", o.ty.dt[kBias], cn, uint64_t(cn) * bs, 0, 0, cn, 0, loc, bp);
      gm_access(bp, uint64_t(cn) * bs, false, kMTE2, api, loc);
    }
    cube_rec(kMTE1, "Matmul:LoadBiasToBT", o.ty.dt[kBias], cn, uint64_t(cn) * 4, 0, 0, cn, 0, loc);
  }
  for (int64_t kb = 0; kb < kIter; ++kb) {
    int64_t k0b = kb * t.baseK;
    int64_t ck = std::min<int64_t>(t.baseK, K - k0b);
    if (kb % t.stepKa == 0) {
      int64_t mg = o.mi / t.stepM, kg = kb / t.stepKa;
      if (!resident(o.a1_keys, mg * 1000003 + kg, a_slots)) {
        int64_t r0 = mg * t.stepM * t.baseM, nr = std::min<int64_t>(int64_t(t.stepM) * t.baseM, o.s_m - r0);
        int64_t c0 = kg * t.stepKa * t.baseK, nc = std::min<int64_t>(int64_t(t.stepKa) * t.baseK, K - c0);
        const char* nm = o.op[kA].kind == 0 ? "Matmul:CopyGmToA1" : "Matmul:CopyUbToA1";
        TraceRec& rec = cube_rec(kMTE2, nm, adt, uint64_t(nr) * nc, uint64_t(nr) * nc * sa, 0, nr, 0, nc, loc);
        record_gm_tile(o, kA, r0, nr, c0, nc, api, loc, rec);
      }
    }
    if (kb % t.stepKb == 0) {
      int64_t ng = o.ni / t.stepN, kg = kb / t.stepKb;
      if (!resident(o.b1_keys, ng * 1000003 + kg, b_slots)) {
        int64_t c0 = ng * t.stepN * t.baseN, nc = std::min<int64_t>(int64_t(t.stepN) * t.baseN, o.s_n - c0);
        int64_t r0 = kg * t.stepKb * t.baseK, nr = std::min<int64_t>(int64_t(t.stepKb) * t.baseK, K - r0);
        const char* nm = o.op[kB].kind == 0 ? "Matmul:CopyGmToB1" : "Matmul:CopyUbToB1";
        TraceRec& rec = cube_rec(kMTE2, nm, o.ty.dt[kB], uint64_t(nr) * nc, uint64_t(nr) * nc * sb, 0, 0, nc, nr, loc);
        record_gm_tile(o, kB, r0, nr, c0, nc, api, loc, rec);
      }
    }
    uint64_t am = align_up(cm, 16), bn = align_up(cn, 16), kk = align_up(ck, k0);
    uint32_t fa = static_cast<uint32_t>(am / 16 * (kk / k0)), fb = static_cast<uint32_t>(bn / 16 * (kk / k0));
    cube_rec(kMTE1, "Matmul:LoadA1ToA2", adt, am * kk, am * kk * sa, fa, cm, 0, ck, loc);
    cube_rec(kMTE1, "Matmul:LoadB1ToB2", o.ty.dt[kB], bn * kk, bn * kk * sb, fb, 0, cn, ck, loc);
    uint32_t frac = static_cast<uint32_t>(ceil_div(cm, 16) * ceil_div(cn, 16) * ceil_div(ck, k0));
    cube_rec(kM, "Matmul:Mmad", adt, uint64_t(cm) * cn * ck, 0, frac, cm, cn, ck, loc);
  }
  // Local operands are read by the cube side (UB via MTE3 to the cube's L1 path, TSCM by MTE1).
  for (int i : {kA, kB}) {
    if (o.op[i].kind != 1) continue;
    uint64_t bytes = uint64_t(operand_extent(o, i)) * esize(o.ty.dt[i]);
    Pipe p = o.op[i].local.pos == TPosition::TSCM ? kMTE1 : kMTE3;
    issue(p);
    touch(o.op[i].local, 0, bytes, false, p, api, loc);
  }

  // ---- compute ---- (not in a timing-only run, timing.h)
  if (!values_on()) return;
  size_t cells = size_t(cm) * cn;
  if (is_int8(adt)) {
    std::vector<int32_t> a(size_t(cm) * K), b(size_t(K) * cn);
    gather<int32_t>(o, kA, m0, cm, 0, K, a.data());
    gather<int32_t>(o, kB, 0, K, n0, cn, b.data());
    if (!same) o.acci.assign(cells, 0);
    if (bias && !same) {
      const int32_t* bp = reinterpret_cast<const int32_t*>(operand_data(o, 2)) + n0;
      for (int i = 0; i < cm; ++i)
        for (int j = 0; j < cn; ++j) o.acci[size_t(i) * cn + j] = bp[j];
    }
    for (int i = 0; i < cm; ++i) {
      uint32_t* row = reinterpret_cast<uint32_t*>(&o.acci[size_t(i) * cn]);
      for (int64_t k = 0; k < K; ++k) {
        uint32_t av = static_cast<uint32_t>(a[size_t(i) * K + k]);
        const int32_t* br = &b[size_t(k) * cn];
        for (int j = 0; j < cn; ++j) row[j] += av * static_cast<uint32_t>(br[j]);   // wraps like int32 hardware
      }
    }
  } else {
    std::vector<float> a(size_t(cm) * K), b(size_t(K) * cn);
    gather<float>(o, kA, m0, cm, 0, K, a.data());
    gather<float>(o, kB, 0, K, n0, cn, b.data());
    if (!same) o.accf.assign(cells, 0.0f);
    if (bias && !same) {
      std::vector<float> bv(cn);
      const uint8_t* bp = operand_data(o, 2);
      DType bdt = o.ty.dt[kBias];
      for (int j = 0; j < cn; ++j) {
        if (bdt == DType::F16) bv[j] = static_cast<float>(reinterpret_cast<const half*>(bp)[n0 + j]);
        else if (bdt == DType::BF16) bv[j] = static_cast<float>(reinterpret_cast<const bfloat16_t*>(bp)[n0 + j]);
        else bv[j] = reinterpret_cast<const float*>(bp)[n0 + j];
      }
      for (int i = 0; i < cm; ++i)
        for (int j = 0; j < cn; ++j) o.accf[size_t(i) * cn + j] = bv[j];
    }
    for (int i = 0; i < cm; ++i) {
      float* row = &o.accf[size_t(i) * cn];
      for (int64_t k = 0; k < K; ++k) {
        float av = a[size_t(i) * K + k];
        const float* br = &b[size_t(k) * cn];
        for (int j = 0; j < cn; ++j) row[j] += av * br[j];
      }
    }
  }
  (void)c;
}

// After a synchronous Matmul call returns, the vector core has waited for the cube's work (the KFC message).
void wait_for_cube() {
  Core& c = cur();
  VClock all{};
  for (Pipe p : {kMTE2, kMTE1, kM, kFIX, kMTE3}) join(all, c.vc[p]);
  flag_wait(kS, all);
}

template <class T> void store_as(uint8_t* dst, float v) {
  T x = T(v);
  std::memcpy(dst, &x, sizeof(T));
}

// Writes the ready block of C: to GM (ND / ND_ALIGN / NZ; at its place in the single-core C, or packed when
// enSequentialWrite) and/or to a UB tensor (packed: ND rows of CeilAlign(n, 32 B), or NZ fractals).
void write_c(MmObj& o, void* gm, const rt::LocalRef* local, uint8_t atomic, bool seq, const char* api, const Loc& loc) {
  Core& c = cur();
  DType cdt = o.ty.dt[kC];
  uint32_t cs = esize(cdt);
  int cm = o.cm, cn = o.cn;
  const TCubeTiling& t = o.t;
  if (atomic > 3) fail("param", api, loc, "enAtomic = " + std::to_string(atomic) + "; it must be 0 (none), 1 (add), 2 (max) or 3 (min)");
  auto value = [&](int i, int j) -> double {
    return is_int8(o.ty.dt[kA]) ? double(o.acci[size_t(i) * cn + j]) : double(o.accf[size_t(i) * cn + j]);
  };
  auto put = [&](uint8_t* p, int i, int j) {
    double v = value(i, j);
    if (atomic) {
      double old = cdt == DType::F16 ? double(float(*reinterpret_cast<half*>(p)))
                   : cdt == DType::BF16 ? double(float(*reinterpret_cast<bfloat16_t*>(p)))
                   : cdt == DType::I32 ? double(*reinterpret_cast<int32_t*>(p))
                                       : double(*reinterpret_cast<float*>(p));
      if (atomic == 1) v = cdt == DType::I32 ? double(int32_t(uint32_t(int64_t(old)) + uint32_t(int64_t(v)))) : double(float(old) + float(v));
      else if (atomic == 2) v = std::max(old, v);
      else v = std::min(old, v);
    }
    switch (cdt) {
      case DType::F16: store_as<half>(p, float(v)); break;
      case DType::BF16: store_as<bfloat16_t>(p, float(v)); break;
      case DType::F32: store_as<float>(p, float(v)); break;
      case DType::I32: { int32_t x = int32_t(int64_t(v)); std::memcpy(p, &x, 4); break; }
      default: break;
    }
  };
  bool nz = o.ty.fmt[kC] == CubeFormat::NZ;
  if (gm) {
    uint8_t* base = static_cast<uint8_t*>(gm);
    int64_t m0 = seq ? 0 : int64_t(o.mi) * t.baseM, n0 = seq ? 0 : int64_t(o.ni) * t.baseN;
    int64_t ldc = seq ? t.baseN : (o.org_kc > 0 ? o.org_kc : o.org_n);
    if (o.ty.fmt[kC] == CubeFormat::ND_ALIGN) ldc = align_up(ldc, 32 / cs);
    int64_t rows_nz = seq ? align_up(cm, 16) : align_up(o.org_m, 16);
    auto off = [&](int64_t r, int64_t col) {
      return nz ? (col / 16) * (rows_nz * 16) + r * 16 + (col % 16) : r * ldc + col;
    };
    uint64_t hull = uint64_t(off(m0 + cm - 1, n0 + cn - 1) + 1) * cs;
    if (nz) hull = uint64_t((ceil_div(n0 + cn, 16)) * rows_nz * 16) * cs;
    gm_check_range(base, hull, true, api, loc);
    TraceRec& rec = cube_rec(kFIX, "Matmul:FixpipeL0CToGm", cdt, uint64_t(cm) * cn, uint64_t(cm) * cn * cs, 0, cm, cn,
                             0, loc);
    if (nz)   // one run of cm rows of 16 elements per column block
      set_gm_footprint(rec, base + off(m0, n0 / 16 * 16) * cs, uint64_t((n0 + cn - 1) / 16 - n0 / 16 + 1),
                       uint64_t(rows_nz) * 16 * cs, uint64_t(cm) * 16 * cs);
    else
      set_gm_footprint(rec, base + off(m0, n0) * cs, uint64_t(cm), uint64_t(ldc) * cs, uint64_t(cn) * cs);
    int saved_op = c.atomic_op;
    DType saved_dt = c.atomic_dt;
    c.atomic_op = atomic;
    c.atomic_dt = cdt;
    if (nz) {
      for (int64_t cb = n0 / 16; cb <= (n0 + cn - 1) / 16; ++cb)
        gm_access(base + off(m0, cb * 16) * cs, uint64_t(cm) * 16 * cs, true, kFIX, api, loc);
    } else {
      for (int i = 0; i < cm; ++i) gm_access(base + off(m0 + i, n0) * cs, uint64_t(cn) * cs, true, kFIX, api, loc);
    }
    c.atomic_op = saved_op;
    c.atomic_dt = saved_dt;
    uint8_t* data = gm_data(base);
    for (int i = 0; i < cm && values_on(); ++i)
      for (int j = 0; j < cn; ++j) put(data + off(m0 + i, n0 + j) * cs, i, j);
  }
  if (local) {
    if (o.ty.pos[kC] == TPosition::GM)
      fail("param", api, loc, "GetTensorC to a LocalTensor needs MatmulType<TPosition::VECIN, ...> for C (it is GM)");
    if (atomic) fail("param", api, loc, "enAtomic applies to GM outputs only; the C tensor here is in UB");
    int64_t ld = nz ? 0 : align_up(cn, 32 / cs);
    int64_t rows16 = align_up(cm, 16);
    uint64_t need = nz ? uint64_t(align_up(cn, 16) * rows16) * cs : uint64_t(cm) * ld * cs;
    resolve(*local, api, loc);
    if (need > local->len)
      fail("param", api, loc,
           "the C tensor holds " + std::to_string(local->len) + " bytes but the " + std::to_string(cm) + "x" +
               std::to_string(cn) + " block needs " + std::to_string(need) +
               "; GetTensorC needs a tensor of at least baseM*baseN elements");
    cube_rec(kFIX, "Matmul:FixpipeL0CToGm", cdt, uint64_t(cm) * cn, uint64_t(cm) * cn * cs, 0, cm, cn, 0, loc);
    cube_rec(kMTE2, "Matmul:CopyCToUb", cdt, uint64_t(cm) * cn, need, 0, cm, cn, 0, loc);
    uint8_t* p = touch(*local, 0, need, true, kMTE2, api, loc);
    if (nz && values_on()) std::memset(p, 0, need);
    for (int i = 0; i < cm && values_on(); ++i)
      for (int j = 0; j < cn; ++j) {
        int64_t e = nz ? (j / 16) * (rows16 * 16) + i * 16 + (j % 16) : i * ld + j;
        put(p + e * cs, i, j);
      }
  }
  wait_for_cube();
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void* mm_create(const MmTypes& types) {
  auto* o = new MmObj();
  o->ty = types;
  return o;
}

void mm_destroy(void* h) {
  if (!h) return;
  MmObj* o = static_cast<MmObj*>(h);
  if (o->registered) {
    auto it = live_objects().find(o->core);
    if (it != live_objects().end() && --it->second <= 0) live_objects().erase(it);
  }
  delete o;
}

void mm_register(void* h, void* tpipe, const TCubeTiling* tiling, Loc loc) {
  const char* api = "REGIST_MATMUL_OBJ";
  MmObj& o = obj(h);
  Core& c = cur();
  if (c.soc->arch != 2002 && tpipe && c.pipe && c.pipe->self == tpipe && c.pipe->total_buffers > 0)
    fail("param", api, loc,
         "REGIST_MATMUL_OBJ comes after TPipe::InitBuffer (the pipe already holds " +
             std::to_string(c.pipe->total_buffers) +
             " buffers): on a split-architecture SoC CANN requires the Matmul objects to be registered before the "
             "first InitBuffer; move REGIST_MATMUL_OBJ ahead of the InitBuffer calls");
  if (!o.registered || o.core != &c) {
    int& n = live_objects()[&c];
    if (n >= 4)
      fail("param", api, loc,
           "a fifth Matmul object is registered on this core; CANN supports at most 4 Matmul objects per kernel: "
           "reuse one object (Init with another tiling) for further matmuls");
    ++n;
    o.registered = true;
    o.core = &c;
  }
  if (tiling) do_init(o, tiling, api, loc);
}

void mm_regist_done(bool cube_only, Loc loc) {
  Core& c = cur();
  // In a MIX kernel the AIC enters the Matmul service loop here and never returns to the kernel; the AIV that
  // calls the Matmul methods gets the results (kgen computes them on the AIV's call).
  if (!cube_only && c.kind == CoreKind::AIC && c.soc->arch != 2002) finish_core();
  (void)loc;
}

void mm_init(void* h, const TCubeTiling* tiling, Loc loc) { do_init(obj(h), tiling, "Matmul::Init", loc); }

void mm_set_org_shape(void* h, int m, int n, int ka, int kb, int kc, Loc loc) {
  const char* api = "SetOrgShape";
  MmObj& o = obj(h);
  require_init(o, api, loc);
  if (m <= 0 || n <= 0 || ka <= 0 || kb <= 0 || kc < 0)
    fail("param", api, loc,
         "shape (" + std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(ka) + ", " +
             std::to_string(kb) + ") has a value <= 0");
  o.org_m = m; o.org_n = n; o.org_ka = ka; o.org_kb = kb; o.org_kc = kc;
  reset_iteration(o);
}

void mm_set_single_shape(void* h, int m, int n, int k, bool tail, Loc loc) {
  const char* api = tail ? "SetTail" : "SetSingleShape";
  MmObj& o = obj(h);
  require_init(o, api, loc);
  if (!tail && (m <= 0 || n <= 0 || k <= 0))
    fail("param", api, loc,
         "shape (" + std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(k) + ") has a value <= 0");
  if (tail && (m == 0 || n == 0 || k == 0 || m < -1 || n < -1 || k < -1))
    fail("param", api, loc, "tail (" + std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(k) +
                                ") must be > 0, or -1 to keep the current size");
  if (m > 0) o.s_m = m;
  if (n > 0) o.s_n = n;
  if (k > 0) o.s_k = k;
  reset_iteration(o);
}

void mm_set_operand(void* h, int which, const MmOperand& op, Loc loc) {
  static const char* apis[] = {"SetTensorA", "SetTensorB", "SetBias"};
  const char* api = apis[which];
  MmObj& o = obj(h);
  require_init(o, api, loc);
  int ti = which == 2 ? kBias : which;
  if (op.trans && !o.ty.trans_ok[which])
    fail("param", api, loc,
         std::string(api) + "(..., true) transposes " + kOpName[which] +
             " but its MatmulType has ISTRANS = false; declare MatmulType<pos, format, T, true> to enable transposes");
  if (op.kind == 0 && o.ty.pos[ti] != TPosition::GM)
    fail("param", api, loc, std::string("a GlobalTensor is passed but the MatmulType of ") + kOpName[which] +
                                " has position " + position_name(o.ty.pos[ti]));
  if (op.kind == 1) {
    if (o.ty.pos[ti] == TPosition::GM)
      fail("param", api, loc, std::string("a LocalTensor is passed but the MatmulType of ") + kOpName[which] +
                                  " has position GM");
    resolve(op.local, api, loc);
  }
  if (which == 2 && !bias_type_ok(o.ty.dt[kA], o.ty.dt[kC], o.ty.dt[kBias]))
    fail("dtype", api, loc,
         std::string("a bias of ") + dtype_name(o.ty.dt[kBias]) + " for Matmul A " + dtype_name(o.ty.dt[kA]) + " -> C " +
             dtype_name(o.ty.dt[kC]) + " is not a combination kgen runs; the bias is float or half (or C's type) "
             "for half and bfloat16 inputs, float or half for float, int32 for int8");
  if (which == 2 && (o.ty.pos[ti] == TPosition::CO1 || o.ty.pos[ti] == TPosition::TSCM || o.ty.fmt[ti] != CubeFormat::ND))
    fail("param", api, loc, std::string("the bias MatmulType is ") + position_name(o.ty.pos[ti]) + "/CubeFormat::" +
                                fmt_name(o.ty.fmt[ti]) + "; the bias is ND in GM or VECOUT (declare BIAS_TYPE)");
  if (op.kind == 2 && o.ty.fmt[ti] != CubeFormat::SCALAR)
    fail("param", api, loc, std::string("a scalar ") + kOpName[which] + " needs MatmulType format CubeFormat::SCALAR");
  o.op[which] = op;
  o.has[which] = true;
  if (which == 2) o.bias_state = 1;
  reset_iteration(o);
}

void mm_disable_bias(void* h, Loc loc) {
  MmObj& o = obj(h);
  require_init(o, "DisableBias", loc);
  o.bias_state = 2;
  o.has[2] = false;
  reset_iteration(o);
}

bool mm_iterate(void* h, bool partial_sum, Loc loc) {
  const char* api = "Iterate";
  MmObj& o = obj(h);
  require_init(o, api, loc);
  if (!o.running) {
    start(o, api, loc);
    if (o.total == 0) { o.running = false; return false; }
  }
  if (o.idx >= o.total) {
    reset_iteration(o);
    return false;
  }
  if (partial_sum && (o.s_m != o.t.baseM || o.s_n != o.t.baseN))
    fail("param", api, loc, "Iterate(enPartialSum = true) accumulates in L0C only when singleCoreM == baseM and "
                            "singleCoreN == baseN");
  compute_block(o, partial_sum, api, loc);
  ++o.idx;
  o.ready = true;
  return true;
}

void mm_get_c(void* h, void* gm, const LocalRef* local, uint8_t atomic, bool sequential, Loc loc) {
  const char* api = "GetTensorC";
  MmObj& o = obj(h);
  require_init(o, api, loc);
  if (!o.ready)
    fail("param", api, loc, "GetTensorC without a block to fetch: call it once after each Iterate() that returned true");
  write_c(o, gm, local, atomic, sequential, api, loc);
  o.ready = false;
}

void mm_iterate_all(void* h, void* gm, uint8_t atomic, bool sequential, Loc loc) {
  const char* api = "IterateAll";
  MmObj& o = obj(h);
  require_init(o, api, loc);
  reset_iteration(o);
  start(o, api, loc);
  for (o.idx = 0; o.idx < o.total;) {
    compute_block(o, false, api, loc);
    ++o.idx;
    write_c(o, gm, nullptr, atomic, sequential, api, loc);
  }
  reset_iteration(o);
}

void mm_end(void* h, Loc loc) {
  MmObj& o = obj(h);
  (void)loc;
  reset_iteration(o);
}

void mm_set_local_workspace(void* h, const LocalRef& t, Loc loc) {
  MmObj& o = obj(h);
  require_init(o, "SetLocalWorkspace", loc);
  resolve(t, "SetLocalWorkspace", loc);
}

void mm_set_batch_num(void* h, int32_t a, int32_t b, Loc loc) {
  MmObj& o = obj(h);
  require_init(o, "SetBatchNum", loc);
  if (a <= 0 || b <= 0) fail("param", "SetBatchNum", loc, "batch counts must be > 0");
}
}  // namespace kgen::rt
