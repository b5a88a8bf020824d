// Fixpipe (guide 0352, FixpipeParamsV220): L0C (NZ, float or int32) -> GM on the FIX pipe, with NZ->ND
// (CFG_ROW_MAJOR) or NZ kept (CFG_NZ), pre-quantisation (F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE,
// VQF322B8_PRE, REQ8, VREQ8) and ReLU.
//   src element (i, j) of ND matrix t: t * srcNdStride * 1024 B + (j / 16) * srcStride * 16 + i * 16 + j % 16 elements
//   ND dst: t * dstNdStride + i * dstStride + j elements; NZ dst: (j / 16) * dstStride * 32 B + (i * 16 + j % 16) elements
// Quantisation scales are the low 32 bits of deqScalar (or of each uint64_t of the tensor) read as a float whose
// mantissa keeps its top 10 bits (guide 0352: the quant float has 1+8+10 bits).
#include <cmath>
#include <cstring>
#include <string>

#include "kgen/cube.h"
#include "sim/cube_common.h"
#include "sim/unit_flag.h"
#include "sim/timing.h"
#include "sim/gm.h"
#include "sim/gm_races.h"

namespace kgen::sim {
namespace {
const char* quant_name(QuantMode_t q) {
  static const char* n[] = {"NoQuant", "F322F16", "F322BF16", "DEQF16", "VDEQF16", "QF322B8_PRE", "VQF322B8_PRE", "REQ8", "VREQ8"};
  return static_cast<unsigned>(q) < 9 ? n[q] : "?";
}
float quant_scale(uint64_t bits) { return f32_from_bits(static_cast<uint32_t>(bits) & 0xffffe000u); }

// The destination type a quant mode produces from a source type; Unknown when the pair is not a mode of it.
bool quant_ok(QuantMode_t q, DType src, DType dst) {
  bool f = src == DType::F32, i = src == DType::I32;
  bool b8 = dst == DType::I8 || dst == DType::U8;
  switch (q) {
    case NoQuant: return (f && dst == DType::F32) || (i && dst == DType::I32);
    case F322F16: return f && dst == DType::F16;
    case F322BF16: return f && dst == DType::BF16;
    case DEQF16: case VDEQF16: return i && dst == DType::F16;
    case QF322B8_PRE: case VQF322B8_PRE: return f && b8;
    case REQ8: case VREQ8: return i && b8;
  }
  return false;
}
bool vector_quant(QuantMode_t q) { return q == VDEQF16 || q == VQF322B8_PRE || q == VREQ8; }

std::string quant_hint(DType src, DType dst) {
  if (src == DType::F32 && dst == DType::F16) return "quantPre = QuantMode_t::F322F16";
  if (src == DType::F32 && dst == DType::BF16) return "quantPre = QuantMode_t::F322BF16";
  if (src == DType::F32 && dst == DType::F32) return "quantPre = QuantMode_t::NoQuant";
  if (src == DType::I32 && dst == DType::F16) return "quantPre = QuantMode_t::DEQF16 with deqScalar";
  if (src == DType::I32 && dst == DType::I32) return "quantPre = QuantMode_t::NoQuant";
  if (dst == DType::I8 || dst == DType::U8) return src == DType::F32 ? "quantPre = QuantMode_t::QF322B8_PRE" : "quantPre = QuantMode_t::REQ8";
  return "a supported pair: float -> float/half/bfloat16_t/int8_t/uint8_t, int32_t -> int32_t/half/int8_t/uint8_t";
}

int32_t sat_int(double v, DType dt) {
  double lo = dt == DType::U8 ? 0.0 : -128.0, hi = dt == DType::U8 ? 255.0 : 127.0;
  double r = std::nearbyint(v);   // round to nearest even (default FP environment)
  return static_cast<int32_t>(r < lo ? lo : r > hi ? hi : r);
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void cube_fixpipe(void* dst, DType dd, const LocalRef& src, DType ds, const LocalRef* deq, bool nz2nd,
                  const AscendC::FixpipeParamsV220& p, Loc loc) {
  const char* api = "Fixpipe";
  Core& c = cur();
  if (c.soc->arch == 2002)
    fail("param", api, loc, std::string("Fixpipe does not exist on ") + c.soc->name +
                                "; the 310P moves L0C (CO1) to UB (CO2) through the vector unit");
  require_core_kind(CoreKind::AIC, api, loc);
  if (src.pos != TPosition::CO1)
    fail("param", api, loc, std::string("Fixpipe's source must be a CO1 (L0C) tensor, not ") + position_name(src.pos));
  if (ds != DType::F32 && ds != DType::I32)
    fail("dtype", api, loc, std::string("Fixpipe's source (L0C) is float or int32_t, not ") + dtype_name(ds));
  const QuantMode_t q = p.quantPre;
  if (static_cast<unsigned>(q) > VREQ8) fail("param", api, loc, "quantPre " + std::to_string(static_cast<int>(q)) + " is not a QuantMode_t");
  if (!quant_ok(q, ds, dd))
    fail("dtype", api, loc, std::string("quantPre ") + quant_name(q) + " does not turn the " + dtype_name(ds) +
                                " L0C result into " + dtype_name(dd) + "; use " + quant_hint(ds, dd));
  if (vector_quant(q) != (deq != nullptr))
    fail("param", api, loc, vector_quant(q) ? std::string("quantPre ") + quant_name(q) + " scales per column: pass the "
                                              "uint64_t quant tensor (A1) as cbufWorkspace"
                                            : std::string("a cbufWorkspace tensor goes with VDEQF16 / VQF322B8_PRE / "
                                                          "VREQ8 only, not ") + quant_name(q));
  if (p.isChannelSplit)
    fail("param", api, loc, "isChannelSplit is not emulated by kgen (it needs float -> float without NZ2ND)");
  const uint32_t M = p.mSize, N = p.nSize;
  if (N < 1 || N > 4095) fail("param", api, loc, "nSize " + std::to_string(N) + " is outside [1, 4095]");
  if (M < 1 || M > (nz2nd ? 8192u : 65535u))
    fail("param", api, loc, "mSize " + std::to_string(M) + " is outside [1, " + (nz2nd ? "8192" : "65535") + "]");
  if (!nz2nd && N % 16 != 0)
    fail("param", api, loc, "nSize " + std::to_string(N) + " must be a multiple of 16 without NZ2ND (CFG_NZ)");
  if (p.dstStride == 0)
    fail("param", api, loc, nz2nd ? "dstStride is 0; with NZ2ND it is the destination row length in elements (usually n)"
                                  : "dstStride is 0; without NZ2ND it is the distance between the NZ column blocks "
                                    "in 32-byte units");
  if (nz2nd && p.dstStride < N)
    fail("param", api, loc, "dstStride " + std::to_string(p.dstStride) + " is less than nSize " + std::to_string(N) +
                                ": ND rows would overlap (dstStride is the destination row length in elements)");
  if (!nz2nd && p.srcStride != 0 && p.srcStride < M)
    ;   // overlapping column blocks are legal: the hardware reads what is there
  uint32_t nd = nz2nd ? p.ndNum : 1;
  if (nz2nd && nd == 0) return;   // documented: not executed (warning)
  if (nz2nd && nd > 1) {
    if (p.srcNdStride < 1 || p.srcNdStride > 512)
      fail("param", api, loc, "srcNdStride " + std::to_string(p.srcNdStride) + " is outside [1, 512] (1024-byte units) with ndNum > 1");
    if (p.dstNdStride < 1)
      fail("param", api, loc, "dstNdStride is 0 with ndNum > 1 (elements between the destination ND matrices)");
  }
  resolve(src, api, loc);
  if (deq) {
    if (mem_of(deq->pos, *c.soc) != Mem::L1)
      fail("param", api, loc, std::string("the quant tensor (cbufWorkspace) must be in A1 (L1), not ") + position_name(deq->pos));
    resolve(*deq, api, loc);
    cube_check_bounds(*deq, 0, static_cast<uint64_t>(N) * 8, false, api, loc);
  }
  const uint32_t ess = 4, esd = dtype_size(dd);
  const uint32_t nblk = (N + 15) / 16;
  const uint64_t src_nd = static_cast<uint64_t>(p.srcNdStride) * 1024;
  const uint64_t src_blk = static_cast<uint64_t>(p.srcStride) * 16 * ess;
  // source extent and destination extent
  uint64_t src_span = (nd - 1) * src_nd + (nblk - 1) * src_blk + static_cast<uint64_t>(M) * 16 * ess;
  cube_check_bounds(src, 0, src_span, false, api, loc);
  uint64_t dst_span;
  if (nz2nd) dst_span = ((nd - 1) * static_cast<uint64_t>(p.dstNdStride) + static_cast<uint64_t>(M - 1) * p.dstStride + N) * esd;
  else dst_span = (nblk - 1) * static_cast<uint64_t>(p.dstStride) * 32 + static_cast<uint64_t>(M) * 16 * esd;
  gm_check_range(dst, dst_span, true, api, loc);
  issue(kFIX);
  unit_flag_fixpipe(p.unitFlag, src.addr, src_span);
  // reads: the M rows of each column block, in the last block only the columns up to N (the rest of the fractal
  // is not moved out, so garbage there, such as a Mmad's columns past N, is no fault)
  for (uint32_t t = 0; t < nd; ++t)
    for (uint32_t b = 0; b < nblk; ++b) {
      const uint32_t cols = N - b * 16 < 16 ? N - b * 16 : 16;
      if (cols == 16) {
        touch(src, t * src_nd + b * src_blk, static_cast<uint64_t>(M) * 16 * ess, false, kFIX, api, loc);
        continue;
      }
      for (uint32_t r = 0; r < M; ++r)
        touch(src, t * src_nd + b * src_blk + static_cast<uint64_t>(r) * 16 * ess, cols * ess, false, kFIX, api, loc);
    }
  const uint8_t* dq = nullptr;
  if (deq) dq = touch(*deq, 0, static_cast<uint64_t>(N) * 8, false, kFIX, api, loc);
  const uint8_t* ps = mem_base(Mem::L0C) + src.addr;
  uint8_t* pd = static_cast<uint8_t*>(dst);
  uint8_t* pdata = gm_data(dst);   // the data goes through the emulator's alias of the buffer (gm.h)
  // writes
  for (uint32_t t = 0; t < nd; ++t) {
    if (nz2nd) {
      for (uint32_t i = 0; i < M; ++i)
        gm_access(pd + (t * static_cast<uint64_t>(p.dstNdStride) + static_cast<uint64_t>(i) * p.dstStride) * esd,
                  static_cast<uint64_t>(N) * esd, true, kFIX, api, loc);
    } else {
      for (uint32_t b = 0; b < nblk; ++b)
        gm_access(pd + b * static_cast<uint64_t>(p.dstStride) * 32, static_cast<uint64_t>(M) * 16 * esd, true, kFIX, api, loc);
    }
  }
  const float scalar_scale = quant_scale(p.deqScalar);
  const bool moves = values_on() || gm_has_values(dst);   // timing.h: no values in a timing-only run
  for (uint32_t t = 0; t < nd && moves; ++t)
    for (uint32_t i = 0; i < M; ++i)
      for (uint32_t j = 0; j < N; ++j) {
        const uint8_t* s = ps + t * src_nd + (j / 16) * src_blk + (static_cast<uint64_t>(i) * 16 + j % 16) * ess;
        uint64_t doff = nz2nd ? (t * static_cast<uint64_t>(p.dstNdStride) + static_cast<uint64_t>(i) * p.dstStride + j) * esd
                              : (j / 16) * static_cast<uint64_t>(p.dstStride) * 32 + (static_cast<uint64_t>(i) * 16 + j % 16) * esd;
        uint8_t* d = pdata + doff;
        float scale = scalar_scale;
        if (dq) { uint64_t bits; std::memcpy(&bits, dq + static_cast<uint64_t>(j) * 8, 8); scale = quant_scale(bits); }
        if (ds == DType::F32) {
          float v;
          std::memcpy(&v, s, 4);
          switch (q) {
            case NoQuant:
              if (p.reluEn && v < 0) v = 0;
              std::memcpy(d, &v, 4);
              break;
            case F322F16: {
              if (p.reluEn && v < 0) v = 0;
              uint16_t h = f32_to_f16_bits(v);   // CAST_RINT, overflow -> inf (INF_NAN mode)
              std::memcpy(d, &h, 2);
              break;
            }
            case F322BF16: {
              if (p.reluEn && v < 0) v = 0;
              uint16_t h = f32_to_bf16_bits(v);
              std::memcpy(d, &h, 2);
              break;
            }
            default: {   // QF322B8_PRE / VQF322B8_PRE
              double x = static_cast<double>(v) * scale;
              if (p.reluEn && x < 0) x = 0;
              int32_t r = sat_int(x, dd);
              *d = static_cast<uint8_t>(r);
              break;
            }
          }
        } else {
          int32_t v;
          std::memcpy(&v, s, 4);
          if (q == NoQuant) {
            if (p.reluEn && v < 0) v = 0;
            std::memcpy(d, &v, 4);
          } else if (q == DEQF16 || q == VDEQF16) {
            float x = static_cast<float>(static_cast<double>(v) * scale);
            if (p.reluEn && x < 0) x = 0;
            if (x > 65504.0f) x = 65504.0f;   // no INF_NAN mode: saturate
            if (x < -65504.0f) x = -65504.0f;
            uint16_t h = f32_to_f16_bits(x);
            std::memcpy(d, &h, 2);
          } else {   // REQ8 / VREQ8
            double x = static_cast<double>(v) * scale;
            if (p.reluEn && x < 0) x = 0;
            *d = static_cast<uint8_t>(sat_int(x, dd));
          }
        }
      }
  uint64_t elems = static_cast<uint64_t>(nd) * M * N;
  TraceRec& tr = cube_trace(kFIX, api, dd, elems, elems * esd, nd * nblk * ((M + 15) / 16), M, N, 0, loc);
  tr.src0 = src.addr;
  if (nz2nd) set_gm_footprint(tr, dst, static_cast<uint64_t>(nd) * M, static_cast<uint64_t>(p.dstStride) * esd,
                              static_cast<uint64_t>(N) * esd);
  else set_gm_footprint(tr, dst, nblk, static_cast<uint64_t>(p.dstStride) * 32, static_cast<uint64_t>(M) * 16 * esd);
}
}  // namespace kgen::rt
