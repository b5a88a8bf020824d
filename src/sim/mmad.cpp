// Mmad (guide 0465): C (+)= A x B on the M pipe, computed literally on the stored fractals.
//   A in L0A: ZZ, fractals of 16 x k0 (k0 = 32 B / sizeof), fractal rows and fractals row-major; m = 1 (GEMV): ND.
//   B in L0B: ZN, fractals of k0 x 16 stored column-major, fractals row-major over (k-block, n-block).
//   C in L0C: NZ, 16 x 16 fractals row-major inside, fractals column-major (m-block fastest).
// Products accumulate in float (half, bfloat16_t, float inputs) or int32 (int8/uint8 inputs), in k order.
// Only the valid m x k / k x n elements are read (padding inside fractals is ignored); C is written as whole
// fractals (the padding rows/columns get what the hardware would compute from the stored padding).
#include <cstring>
#include <string>
#include <vector>

#include "kgen/cube.h"
#include "sim/cube_common.h"
#include "sim/unit_flag.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
float load_real(const uint8_t* p, DType dt) {
  switch (dt) {
    case DType::F16: { uint16_t h; std::memcpy(&h, p, 2); return f16_bits_to_f32(h); }
    case DType::BF16: { uint16_t h; std::memcpy(&h, p, 2); return bf16_bits_to_f32(h); }
    default: { float f; std::memcpy(&f, p, 4); return f; }
  }
}
int32_t load_int(const uint8_t* p, DType dt) {
  return dt == DType::U8 ? static_cast<int32_t>(*p) : static_cast<int32_t>(static_cast<int8_t>(*p));
}

bool combo_ok(DType c, DType a, DType b, int arch) {
  if (arch == 2002)
    return (c == DType::I32 && b == DType::I8 && (a == DType::I8 || a == DType::U8)) ||
           (c == DType::I32 && a == DType::U8 && b == DType::U8) ||
           (a == DType::F16 && b == DType::F16 && (c == DType::F16 || c == DType::F32));
  return (a == DType::I8 && b == DType::I8 && c == DType::I32) || (a == DType::F16 && b == DType::F16 && c == DType::F32) ||
         (a == DType::F32 && b == DType::F32 && c == DType::F32) || (a == DType::BF16 && b == DType::BF16 && c == DType::F32);
}

// Touches (reads) the valid bytes of a row-run pattern: `rows` runs of `len` bytes, `step` apart, in blocks.
void touch_runs(Mem m, uint32_t base, uint32_t nruns, uint32_t len, uint32_t step, Pipe p, const char* api,
                const Loc& loc) {
  if (len == step) { touch_abs(m, base, static_cast<uint64_t>(nruns) * len, false, p, api, loc); return; }
  for (uint32_t i = 0; i < nruns; ++i) touch_abs(m, base + i * step, len, false, p, api, loc);
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void cube_mmad(const LocalRef& c, DType dc, const LocalRef& a, DType da, const LocalRef& b, DType db,
               const LocalRef* bias, DType dbias, const AscendC::MmadParams& p, Loc loc) {
  const char* api = "Mmad";
  Core& core = cur();
  require_core_kind(CoreKind::AIC, api, loc);
  const Soc& soc = *core.soc;
  if (mem_of(c.pos, soc) != Mem::L0C || c.pos != TPosition::CO1)
    fail("param", api, loc, std::string("dst must be a CO1 (L0C) tensor, not ") + position_name(c.pos));
  if (a.pos != TPosition::A2) fail("param", api, loc, std::string("fm (A) must be an A2 (L0A) tensor, not ") + position_name(a.pos));
  if (b.pos != TPosition::B2) fail("param", api, loc, std::string("filter (B) must be a B2 (L0B) tensor, not ") + position_name(b.pos));
  if (!combo_ok(dc, da, db, soc.arch))
    fail("dtype", api, loc, std::string("Mmad does not take ") + dtype_name(da) + " x " + dtype_name(db) + " -> " +
                                dtype_name(dc) + " on " + soc.name +
                                (soc.arch == 2002 ? " (supported: int8/uint8 x int8 -> int32, uint8 x uint8 -> int32, "
                                                    "half x half -> half or float)"
                                                  : " (supported: int8_t x int8_t -> int32_t, half x half -> float, "
                                                    "float x float -> float, bfloat16_t x bfloat16_t -> float)"));
  bool bias_bt = false, bias_l0c = false;
  if (bias) {
    if (soc.arch == 2002) fail("param", api, loc, std::string("the Mmad form with bias does not exist on ") + soc.name);
    DType want = dc == DType::I32 ? DType::I32 : DType::F32;
    if (dbias != want)
      fail("dtype", api, loc, std::string("bias must be ") + dtype_name(want) + " for a " + dtype_name(dc) +
                                  " result, not " + dtype_name(dbias));
    if (bias->pos == TPosition::C2) bias_bt = true;
    else if (bias->pos == TPosition::CO1) bias_l0c = true;
    else fail("param", api, loc, std::string("bias must be a C2 (bias table) or CO1 (L0C) tensor, not ") + position_name(bias->pos));
  }
  if (p.m > 4095 || p.n > 4095 || p.k > 4095)
    fail("param", api, loc, "m, n, k = " + std::to_string(p.m) + ", " + std::to_string(p.n) + ", " + std::to_string(p.k) +
                                ": each must be in [0, 4095]; split the matmul into base blocks");
  if (p.enSsparse || p.enWinogradA || p.enWinogradB)
    fail("param", api, loc, "enSsparse / enWinogradA / enWinogradB are reserved in MmadParams; leave them false");
  const uint32_t es_c = dtype_size(dc);
  resolve(c, api, loc, 256 * es_c);   // guide 0465: the CO1 start is 256-element aligned
  resolve(a, api, loc);
  resolve(b, api, loc);
  if (bias) resolve(*bias, api, loc, bias_bt ? 128 : 256 * es_c);
  const uint32_t M = p.m, N = p.n, K = p.k;
  if (M == 0 || N == 0 || K == 0) return;   // documented: not executed
  // C's initial value: 0, L0C (accumulate) or the bias table.
  bool init_zero = p.cmatrixInitVal && !p.isBias;
  bool from_bt = !init_zero && p.cmatrixSource;
  if (bias) { init_zero = false; from_bt = bias_bt; }
  if (from_bt && !bias)
    fail("param", api, loc, "cmatrixSource = true takes C's initial value from the bias table: use the Mmad form with "
                            "a C2 bias tensor");
  const uint32_t esa = dtype_size(da), esb = dtype_size(db);
  const uint32_t k0 = 32 / esa;
  const bool gemv = M == 1;
  const uint32_t mB = (M + 15) / 16, nB = (N + 15) / 16, kB = (K + k0 - 1) / k0;
  const uint64_t a_bytes = gemv ? static_cast<uint64_t>(K) * esa : static_cast<uint64_t>(mB) * kB * kFractalBytes;
  const uint64_t b_bytes = static_cast<uint64_t>(kB) * nB * kFractalBytes;
  const uint64_t c_bytes = static_cast<uint64_t>(mB) * nB * 256 * es_c;
  cube_check_bounds(a, 0, a_bytes, false, api, loc);
  cube_check_bounds(b, 0, b_bytes, false, api, loc);
  cube_check_bounds(c, 0, c_bytes, true, api, loc);
  if (bias_bt) cube_check_bounds(*bias, 0, static_cast<uint64_t>(N) * 4, false, api, loc);
  if (bias_l0c) cube_check_bounds(*bias, 0, c_bytes, false, api, loc);
  issue(kM);
  if (soc.arch == 2201) unit_flag_mmad(p.unitFlag, c.addr, c_bytes);
  // reads: exactly the valid elements. Bytes of A, B or C's initial value that nothing wrote are garbage on the chip,
  // not a fault: they reach the C elements computed from them (a row of A every element of that row of C, a column
  // of B that column), which are poisoned; reading those later (Fixpipe) is the error (core.h LaneScope).
  LaneScope& ls = core.lanes;
  struct Scope {
    LaneScope& ls;
    ~Scope() { ls = LaneScope{}; }
  } scope{ls};
  std::vector<uint8_t> bad_row(mB * 16), bad_col(nB * 16);   // garbage in a row of A / a column of B
  std::vector<std::pair<uint32_t, uint32_t>> bad_init;      // (row, column) of C's initial value
  // Reads `nruns` fractal rows of `len` bytes, `step` apart, at fractal base `base`; mark(u) for each `unit`-byte unit
  // u (counted from base) that held garbage.
  auto read_rows = [&](Mem m, uint32_t base, uint32_t nruns, uint32_t len, uint32_t step, uint32_t unit, auto mark) {
    ls.poisoned.clear();
    ls.read_operand(base, unit, 1, [&] { touch_runs(m, base, nruns, len, step, kM, api, loc); });
    const uint64_t units = (static_cast<uint64_t>(nruns) * step + unit - 1) / unit;
    for (const auto& [u0, u1] : ls.poisoned)
      for (uint64_t u = u0; u < u1 && u < units; ++u) mark(static_cast<uint32_t>(u));
  };
  if (gemv) {
    read_rows(Mem::L0A, a.addr, 1, K * esa, K * esa, K * esa, [&](uint32_t) { bad_row[0] = 1; });
  } else {
    for (uint32_t kb = 0; kb < kB; ++kb) {
      uint32_t kv = (K - kb * k0 < k0 ? K - kb * k0 : k0) * esa;
      for (uint32_t mb = 0; mb < mB; ++mb) {
        uint32_t rows = M - mb * 16 < 16 ? M - mb * 16 : 16;
        read_rows(Mem::L0A, a.addr + (mb * kB + kb) * kFractalBytes, rows, kv, 32, 32,
                  [&](uint32_t r) { bad_row[mb * 16 + r] = 1; });
      }
    }
  }
  for (uint32_t kb = 0; kb < kB; ++kb) {
    uint32_t kv = (K - kb * k0 < k0 ? K - kb * k0 : k0) * esb;
    for (uint32_t nb = 0; nb < nB; ++nb) {
      uint32_t cols = N - nb * 16 < 16 ? N - nb * 16 : 16;
      read_rows(Mem::L0B, b.addr + (kb * nB + nb) * kFractalBytes, cols, kv, 32, 32,
                [&](uint32_t r) { bad_col[nb * 16 + r] = 1; });
    }
  }
  const LocalRef* cinit = bias_l0c ? bias : (!init_zero && !from_bt ? &c : nullptr);
  if (cinit)
    for (uint32_t nb = 0; nb < nB; ++nb) {
      uint32_t cols = N - nb * 16 < 16 ? N - nb * 16 : 16;
      for (uint32_t mb = 0; mb < mB; ++mb) {
        uint32_t rows = M - mb * 16 < 16 ? M - mb * 16 : 16;
        read_rows(Mem::L0C, cinit->addr + (nb * mB + mb) * 256 * es_c, rows, cols * es_c, 16 * es_c, es_c,
                  [&](uint32_t e) { bad_init.emplace_back(mb * 16 + e / 16, nb * 16 + e % 16); });
      }
    }
  if (bias_bt) touch_abs(Mem::BT, bias->addr, static_cast<uint64_t>(N) * 4, false, kM, api, loc);
  touch_abs(Mem::L0C, c.addr, c_bytes, true, kM, api, loc);
  if (ls.p_api) {   // some operand held garbage: poison the C elements it reached (c_off's NZ layout)
    auto poison_c = [&](uint32_t i, uint32_t j, uint32_t n) {
      poison(Mem::L0C, c.addr + static_cast<uint32_t>(((j / 16) * mB + i / 16) * 256 + (i % 16) * 16 + j % 16) * es_c,
             static_cast<uint64_t>(n) * es_c, ls.p_file, ls.p_line, ls.p_api);
    };
    for (uint32_t i = 0; i < M; ++i)
      if (bad_row[i])
        for (uint32_t nb = 0; nb < nB; ++nb) poison_c(i, nb * 16, 16);
    for (uint32_t j = 0; j < N; ++j)
      if (bad_col[j])
        for (uint32_t i = 0; i < M; ++i) poison_c(i, j, 1);
    for (const auto& [i, j] : bad_init) poison_c(i, j, 1);
  }

  // The values (skipped in a timing-only run, timing.h): the product into a scratch buffer, then into C.
  auto compute = [&] {
    const uint8_t* pa = mem_base(Mem::L0A) + a.addr;
    const uint8_t* pb = mem_base(Mem::L0B) + b.addr;
    uint8_t* pc = mem_base(Mem::L0C) + c.addr;
    const uint8_t* pinit = cinit ? mem_base(Mem::L0C) + cinit->addr : nullptr;
    const uint8_t* pbias = bias_bt ? mem_base(Mem::BT) + bias->addr : nullptr;
    const uint32_t Mp = mB * 16, Np = nB * 16;
    auto a_at = [&](uint32_t i, uint32_t kk) -> const uint8_t* {
      if (gemv) return pa + static_cast<uint64_t>(kk) * esa;
      return pa + static_cast<uint64_t>((i / 16) * kB + kk / k0) * kFractalBytes + ((i % 16) * k0 + kk % k0) * esa;
    };
    auto b_at = [&](uint32_t kk, uint32_t j) -> const uint8_t* {
      return pb + static_cast<uint64_t>((kk / k0) * nB + j / 16) * kFractalBytes + ((j % 16) * k0 + kk % k0) * esb;
    };
    auto c_off = [&](uint32_t i, uint32_t j) -> uint64_t {
      return (static_cast<uint64_t>((j / 16) * mB + i / 16) * 256 + (i % 16) * 16 + j % 16) * es_c;
    };
    // Results are computed into a scratch buffer first: the initial value may be C itself (accumulate).
    std::vector<uint8_t> out(c_bytes);
    const bool integer = dc == DType::I32;
    std::vector<float> arow(K), bcol(static_cast<size_t>(K) * Np);
    std::vector<int32_t> arow_i(integer ? K : 0), bcol_i(integer ? static_cast<size_t>(K) * Np : 0);
    for (uint32_t j = 0; j < Np; ++j)
      for (uint32_t kk = 0; kk < K; ++kk) {
        if (integer) bcol_i[static_cast<size_t>(j) * K + kk] = load_int(b_at(kk, j), db);
        else bcol[static_cast<size_t>(j) * K + kk] = load_real(b_at(kk, j), db);
      }
    for (uint32_t i = 0; i < Mp; ++i) {
      bool row_valid = !gemv || i == 0;   // GEMV: only row 0 exists in A; the other rows of the fractal read as 0
      for (uint32_t kk = 0; kk < K; ++kk) {
        if (integer) arow_i[kk] = row_valid ? load_int(a_at(i, kk), da) : 0;
        else arow[kk] = row_valid ? load_real(a_at(i, kk), da) : 0.0f;
      }
      for (uint32_t j = 0; j < Np; ++j) {
        uint64_t co = c_off(i, j);
        if (integer) {
          uint32_t acc = 0;
          if (pinit) { int32_t v; std::memcpy(&v, pinit + co, 4); acc = static_cast<uint32_t>(v); }
          if (pbias) { int32_t v; std::memcpy(&v, pbias + static_cast<uint64_t>(j < N ? j : 0) * 4, 4); acc = static_cast<uint32_t>(v); }
          const int32_t* bc = bcol_i.data() + static_cast<size_t>(j) * K;
          for (uint32_t kk = 0; kk < K; ++kk) acc += static_cast<uint32_t>(arow_i[kk] * bc[kk]);
          int32_t v = static_cast<int32_t>(acc);
          std::memcpy(out.data() + co, &v, 4);
        } else {
          float acc = 0.0f;
          if (pinit) acc = load_real(pinit + co, dc);
          if (pbias) std::memcpy(&acc, pbias + static_cast<uint64_t>(j < N ? j : 0) * 4, 4);
          const float* bc = bcol.data() + static_cast<size_t>(j) * K;
          for (uint32_t kk = 0; kk < K; ++kk) acc += arow[kk] * bc[kk];
          if (dc == DType::F16) { uint16_t h = f32_to_f16_bits(acc); std::memcpy(out.data() + co, &h, 2); }
          else std::memcpy(out.data() + co, &acc, 4);
        }
      }
    }
    std::memcpy(pc, out.data(), c_bytes);
  };
  if (values_on()) compute();
  const uint32_t kcube = 32 / esa;   // k per fractal MAC step: 16 (b16), 32 (b8), 8 (b32)
  uint32_t fractal_ops = mB * nB * ((K + kcube - 1) / kcube);
  TraceRec& tr = cube_trace(kM, api, da, static_cast<uint64_t>(M) * N * K, c_bytes, fractal_ops, M, N, K, loc);
  tr.dst = c.addr;
  tr.src0 = a.addr;
  tr.src1 = b.addr;
}
}  // namespace kgen::rt
