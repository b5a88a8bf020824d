// LoadData (Load2D, guide 0341) and LoadDataWithTranspose (guide 0342): 512-byte fractals from L1 (MTE1) or GM
// (MTE2) into L0A/L0B (or GM into L1). Bytes move as stored; padding rows the kernel never wrote stay
// "uninitialised" in the destination, so only a computation that really uses them reports it.
#include <cstring>
#include <string>
#include <vector>

#include "kgen/cube.h"
#include "sim/cube_common.h"
#include "sim/timing.h"
#include "sim/gm.h"
#include "sim/gm_races.h"

namespace kgen::sim {
namespace {
bool load2d_dtype_ok(DType dt, int arch) {
  switch (dt) {
    case DType::I8: case DType::U8: case DType::I16: case DType::U16: case DType::F16: return true;
    case DType::BF16: case DType::I32: case DType::U32: case DType::F32: return arch != 2002;
    default: return false;
  }
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void cube_load2d(const LocalRef& dst, const LocalRef* src, const void* src_gm, DType dt,
                 const AscendC::LoadData2DParams& p, Loc loc) {
  const char* api = "LoadData";
  Core& c = cur();
  require_core_kind(CoreKind::AIC, api, loc);
  Mem dm = mem_of(dst.pos, *c.soc);
  Mem sm = src ? mem_of(src->pos, *c.soc) : Mem::Count;
  if (src) {
    if (sm != Mem::L1 || (dm != Mem::L0A && dm != Mem::L0B))
      fail("param", api, loc, std::string("Load2D between local tensors goes A1 -> A2 or B1 -> B2 (L1 -> L0A/L0B), not ") +
                                  position_name(src->pos) + " -> " + position_name(dst.pos));
  } else if (dm != Mem::L1 && dm != Mem::L0A && dm != Mem::L0B) {
    fail("param", api, loc, std::string("Load2D from GM goes to A1/B1/A2/B2, not ") + position_name(dst.pos));
  }
  if (!load2d_dtype_ok(dt, c.soc->arch))
    fail("dtype", api, loc, std::string("Load2D does not take ") + dtype_name(dt) + " on " + c.soc->name +
                                (c.soc->arch == 2002 ? " (supported: uint8_t, int8_t, uint16_t, int16_t, half)"
                                                     : " (supported: uint8_t, int8_t, uint16_t, int16_t, half, "
                                                       "bfloat16_t, uint32_t, int32_t, float)"));
  if (p.repeatTimes < 1)
    fail("param", api, loc, "repeatTimes 0 is outside [1, 255] (each repeat moves one 512-byte fractal)");
  if (p.ifTranspose) {
    if (!src)
      fail("param", api, loc, "ifTranspose works on the A1 -> A2 and B1 -> B2 paths only, not from GM");
    if (dtype_size(dt) != 2)
      fail("dtype", api, loc, std::string("ifTranspose supports 16-bit types (half, int16_t, uint16_t) only, not ") +
                                  dtype_name(dt) + "; use LoadDataWithTranspose for 8- and 32-bit types");
  }
  resolve(dst, api, loc);
  if (src) resolve(*src, api, loc);
  const uint32_t es = dtype_size(dt);
  const uint64_t sstep = static_cast<uint64_t>(p.srcStride) * kFractalBytes;
  const uint64_t soff0 = static_cast<uint64_t>(p.startIndex) * kFractalBytes;
  const uint64_t dstep = (1ull + p.dstGap) * kFractalBytes;
  const uint32_t rep = p.repeatTimes;
  const uint64_t src_span = soff0 + sstep * (rep - 1) + kFractalBytes;
  if (src) cube_check_bounds(*src, 0, src_span, false, api, loc);
  else gm_check_range(static_cast<const uint8_t*>(src_gm), src_span, false, api, loc);
  cube_check_bounds(dst, 0, dstep * (rep - 1) + kFractalBytes, true, api, loc);
  Pipe pipe = src ? kMTE1 : kMTE2;
  issue(pipe);
  uint8_t* dbase = mem_base(dm) + dst.addr;
  uint8_t tmp[kFractalBytes];
  for (uint32_t r = 0; r < rep; ++r) {
    uint64_t so = soff0 + sstep * r, d = dstep * r;
    std::vector<uint8_t> mask;
    if (src) {
      uint32_t sabs = static_cast<uint32_t>(src->addr + so);
      mask = cube_init_mask(sm, sabs, kFractalBytes);
      cube_read_masked(sm, sabs, kFractalBytes, mask, pipe, api, loc);
      std::memcpy(tmp, mem_base(sm) + sabs, kFractalBytes);
    } else {
      const uint8_t* g = static_cast<const uint8_t*>(src_gm) + so;
      gm_access(g, kFractalBytes, false, pipe, api, loc);
      if (values_on() || gm_has_values(g)) std::memcpy(tmp, gm_data(g), kFractalBytes);   // timing.h
    }
    if (p.ifTranspose) {   // 16x16 b16 fractal: element (i, j) -> (j, i)
      uint8_t t[kFractalBytes];
      std::vector<uint8_t> tm(mask.empty() ? 0 : kFractalBytes);
      for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) {
          std::memcpy(t + (j * 16 + i) * 2, tmp + (i * 16 + j) * 2, 2);
          if (!mask.empty()) tm[(j * 16 + i) * 2] = tm[(j * 16 + i) * 2 + 1] = mask[(i * 16 + j) * 2];
        }
      std::memcpy(tmp, t, kFractalBytes);
      mask.swap(tm);
    }
    cube_write_masked(dm, static_cast<uint32_t>(dst.addr + d), kFractalBytes, mask, pipe, api, loc);
    std::memcpy(dbase + d, tmp, kFractalBytes);
  }
  TraceRec& tr = cube_trace(pipe, api, dt, static_cast<uint64_t>(rep) * kFractalBytes / es,
                            static_cast<uint64_t>(rep) * kFractalBytes, rep, 0, 0, 0, loc);
  tr.dst = dst.addr;
  if (src) tr.src0 = src->addr;
  else set_gm_footprint(tr, static_cast<const uint8_t*>(src_gm) + soff0, rep, sstep, kFractalBytes);
}

void cube_load2d_transpose(const LocalRef& dst, const LocalRef& src, DType dt,
                           const AscendC::LoadData2dTransposeParams& p, Loc loc) {
  const char* api = "LoadDataWithTranspose";
  Core& c = cur();
  if (c.soc->arch == 2002)
    fail("param", api, loc, std::string("LoadDataWithTranspose does not exist on ") + c.soc->name +
                                "; use LoadData with ifTranspose (16-bit types)");
  require_core_kind(CoreKind::AIC, api, loc);
  Mem dm = mem_of(dst.pos, *c.soc), sm = mem_of(src.pos, *c.soc);
  if (sm != Mem::L1 || (dm != Mem::L0A && dm != Mem::L0B))
    fail("param", api, loc, std::string("LoadDataWithTranspose goes A1/B1 -> A2/B2 (L1 -> L0A/L0B), not ") +
                                position_name(src.pos) + " -> " + position_name(dst.pos));
  switch (dt) {
    case DType::F16: case DType::BF16: case DType::F32: case DType::I32: case DType::U32: case DType::I8:
    case DType::U8: break;
    default:
      fail("dtype", api, loc, std::string("LoadDataWithTranspose does not take ") + dtype_name(dt) +
                                  " (supported: half, bfloat16_t, float, int32_t, uint32_t, uint8_t, int8_t)");
  }
  resolve(dst, api, loc);
  resolve(src, api, loc);
  if (p.repeatTimes == 0) return;   // documented: no move
  const uint32_t es = dtype_size(dt);
  const uint32_t S = es == 1 ? 32 : 16;                  // square side in elements
  const uint32_t sq = S * S * es;                        // 512 (b16) or 1024 bytes (b8, b32)
  const uint32_t nfrac = sq / kFractalBytes;             // fractals per square
  const uint64_t dstep = (1ull + p.dstGap) * kFractalBytes;
  const uint64_t fstep = (1ull + p.dstFracGap) * kFractalBytes;
  const uint32_t rep = p.repeatTimes;
  const uint64_t soff0 = static_cast<uint64_t>(p.startIndex) * sq, sstep = static_cast<uint64_t>(p.srcStride) * sq;
  cube_check_bounds(src, 0, soff0 + sstep * (rep - 1) + sq, false, api, loc);
  cube_check_bounds(dst, 0, dstep * (rep - 1) + (nfrac - 1) * fstep + kFractalBytes, true, api, loc);
  issue(kMTE1);
  // Byte offset in the source square of element (i, j), and the destination fractal/offset of element (i, j)
  // of the transposed square T (T(i, j) = S(j, i)).
  auto src_at = [&](uint32_t i, uint32_t j) -> uint32_t {
    if (es == 4) return ((j / 8) * 128 + i * 8 + j % 8) * 4;    // two 16x8 fractals side by side
    return (i * S + j) * es;                                   // b16: one 16x16; b8: two 16x32 stacked
  };
  auto dst_at = [&](uint32_t i, uint32_t j, uint32_t& frac) -> uint32_t {
    if (es == 4) { frac = j / 8; return (i * 8 + j % 8) * 4; }  // split into two 16x8 (columns 0-7, 8-15)
    if (es == 1) { frac = i / 16; return (i % 16) * 32 + j; }   // split into two 16x32 (rows 0-15, 16-31)
    frac = 0;
    return (i * 16 + j) * 2;
  };
  std::vector<uint8_t> in(sq), out(nfrac * kFractalBytes), omask;
  for (uint32_t r = 0; r < rep; ++r) {
    uint32_t sabs = static_cast<uint32_t>(src.addr + soff0 + sstep * r);
    std::vector<uint8_t> mask = cube_init_mask(sm, sabs, sq);
    cube_read_masked(sm, sabs, sq, mask, kMTE1, api, loc);
    std::memcpy(in.data(), mem_base(sm) + sabs, sq);
    omask.assign(mask.empty() ? 0 : out.size(), 0);
    for (uint32_t i = 0; i < S; ++i)
      for (uint32_t j = 0; j < S; ++j) {
        uint32_t f, o = dst_at(i, j, f), s = src_at(j, i);
        std::memcpy(out.data() + f * kFractalBytes + o, in.data() + s, es);
        if (!mask.empty()) std::memcpy(omask.data() + f * kFractalBytes + o, mask.data() + s, es);
      }
    for (uint32_t f = 0; f < nfrac; ++f) {
      uint64_t d = dstep * r + fstep * f;
      std::vector<uint8_t> fm;
      if (!omask.empty()) fm.assign(omask.begin() + f * kFractalBytes, omask.begin() + (f + 1) * kFractalBytes);
      cube_write_masked(dm, static_cast<uint32_t>(dst.addr + d), kFractalBytes, fm, kMTE1, api, loc);
      std::memcpy(mem_base(dm) + dst.addr + d, out.data() + f * kFractalBytes, kFractalBytes);
    }
  }
  TraceRec& tr = cube_trace(kMTE1, api, dt, static_cast<uint64_t>(rep) * sq / es, static_cast<uint64_t>(rep) * sq,
                            rep * nfrac, 0, 0, 0, loc);
  tr.dst = dst.addr;
  tr.src0 = src.addr;
}
}  // namespace kgen::rt
