// DataCopy with Nd2NzParams (guide 0329 "随路转换 ND2NZ 搬运"): GM -> A1/B1 (L1) or VECIN (UB) on MTE2, UB -> L1
// on MTE3; DataCopy C1 -> C2 (L1 -> bias table, guide 0326); and the helpers shared by the cube-path files.
#include <algorithm>
#include <cstring>
#include <string>

#include "kgen/cube.h"
#include "sim/cube_common.h"
#include "sim/timing.h"
#include "sim/gm.h"
#include "sim/gm_races.h"

namespace kgen::sim {
void cube_check_bounds(const rt::LocalRef& t, uint64_t off, uint64_t bytes, bool write, const char* api,
                       const Loc& loc) {
  check_extent(t, off, bytes, write, api, loc);
}

std::vector<uint8_t> cube_init_mask(Mem m, uint32_t addr, uint32_t bytes) {
  Pool& pool = cur().pools[static_cast<int>(m)];
  if (!pool.data) mem_base(m);
  std::vector<uint8_t> mask;
  uint32_t end = addr + bytes;
  auto it = std::upper_bound(pool.segs.begin(), pool.segs.end(), addr, [](uint32_t a, const Seg& s) { return a < s.end; });
  bool all = true;
  for (auto j = it; j != pool.segs.end(); ++j) {
    uint32_t s = j == pool.segs.begin() ? 0 : (j - 1)->end;
    if (s >= end) break;
    if (!j->init) { all = false; break; }
  }
  if (all) return mask;
  mask.assign(bytes, 0);
  for (auto j = it; j != pool.segs.end(); ++j) {
    uint32_t s = j == pool.segs.begin() ? 0 : (j - 1)->end;
    if (s >= end) break;
    if (!j->init) continue;
    uint32_t lo = std::max(s, addr), hi = std::min(j->end, end);
    std::memset(mask.data() + (lo - addr), 1, hi - lo);
  }
  return mask;
}

namespace {
// Calls f(offset, length, flag) for the runs of equal flags of mask (one run of 1s when mask is empty).
template <class F> void for_runs(const std::vector<uint8_t>& mask, uint32_t bytes, F f) {
  if (mask.empty()) { f(0u, bytes, uint8_t{1}); return; }
  uint32_t i = 0;
  while (i < bytes) {
    uint32_t j = i + 1;
    while (j < bytes && mask[j] == mask[i]) ++j;
    f(i, j - i, mask[i]);
    i = j;
  }
}

// Splits the run containing `at` so that a run starts there.
void split_at(Pool& pool, uint32_t at) {
  if (at >= pool.size) return;
  auto it = std::upper_bound(pool.segs.begin(), pool.segs.end(), at, [](uint32_t a, const Seg& s) { return a < s.end; });
  uint32_t start = it == pool.segs.begin() ? 0 : (it - 1)->end;
  if (start == at) return;
  Seg head = *it;
  head.end = at;
  pool.segs.insert(it, head);
}
}  // namespace

void cube_read_masked(Mem m, uint32_t addr, uint32_t bytes, const std::vector<uint8_t>& mask, Pipe p,
                      const char* api, const Loc& loc) {
  for_runs(mask, bytes, [&](uint32_t off, uint32_t len, uint8_t on) {
    if (on) touch_abs(m, addr + off, len, false, p, api, loc);
  });
}

void cube_write_masked(Mem m, uint32_t addr, uint32_t bytes, const std::vector<uint8_t>& mask, Pipe p,
                       const char* api, const Loc& loc) {
  touch_abs(m, addr, bytes, true, p, api, loc);
  if (mask.empty()) return;
  Pool& pool = cur().pools[static_cast<int>(m)];
  for_runs(mask, bytes, [&](uint32_t off, uint32_t len, uint8_t on) {
    if (on) return;
    split_at(pool, addr + off);
    split_at(pool, addr + off + len);
    auto it = std::upper_bound(pool.segs.begin(), pool.segs.end(), addr + off,
                               [](uint32_t a, const Seg& s) { return a < s.end; });
    for (; it != pool.segs.end(); ++it) {
      uint32_t s = it == pool.segs.begin() ? 0 : (it - 1)->end;
      if (s >= addr + off + len) break;
      it->init = 0;          // garbage: not written by this copy (nor poisoned lanes of one)
      it->w_api = nullptr;
    }
  });
}

TraceRec& cube_trace(Pipe p, const char* api, DType dt, uint64_t elems, uint64_t bytes, uint32_t fractals, uint32_t m,
                     uint32_t n, uint32_t k, const Loc& loc) {
  TraceRec& r = trace_instr(p, api, dt, elems, bytes, fractals, loc);
  r.cube_m = m;
  r.cube_n = n;
  r.cube_k = k;
  return r;
}

namespace {
bool nd2nz_dtype_ok(DType dt, bool to_l1, int arch) {
  switch (dt) {
    case DType::I16: case DType::U16: case DType::I32: case DType::U32: case DType::F16: case DType::F32: return true;
    case DType::I8: case DType::U8: return arch != 2002 || !to_l1;
    case DType::BF16: return arch != 2002;
    default: return false;
  }
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void cube_nd2nz(const LocalRef& dst, const LocalRef* src, const void* src_gm, DType dt, const AscendC::Nd2NzParams& p,
                Loc loc) {
  const char* api = "DataCopy(Nd2NzParams)";
  Core& c = cur();
  Mem dm = mem_of(dst.pos, *c.soc);
  bool to_l1 = dm == Mem::L1;
  Pipe pipe;
  if (src == nullptr) {   // GM -> A1/B1 or VECIN
    if (!to_l1 && dst.pos != TPosition::VECIN)
      fail("param", api, loc, std::string("ND2NZ DataCopy from GM goes to A1/B1 (L1) or VECIN (UB), not ") +
                                  position_name(dst.pos));
    if (c.soc->arch == 2002 && dst.pos == TPosition::VECIN)
      ;   // documented for the 310P AI Core (it reserves 8 KB of UB as scratch)
    pipe = kMTE2;
  } else {                // UB -> L1
    if (!is_ub_pos(src->pos) || !to_l1 || c.soc->arch == 2002)
      fail("param", api, loc, std::string("ND2NZ DataCopy between local tensors is UB (VECIN/VECCALC/VECOUT) -> L1 "
                                          "(A1/B1/TSCM) on 910B only, not ") +
                                  position_name(src->pos) + " -> " + position_name(dst.pos) + " on " + c.soc->name);
    pipe = kMTE3;
  }
  if (to_l1) require_core_kind(CoreKind::AIC, api, loc);
  else require_core_kind(CoreKind::AIV, api, loc);
  if (!nd2nz_dtype_ok(dt, to_l1, c.soc->arch))
    fail("dtype", api, loc, std::string("ND2NZ DataCopy does not take ") + dtype_name(dt) + " on " + c.soc->name +
                                " (supported: int8_t/uint8_t (not to L1 on 310P), int16_t, uint16_t, int32_t, "
                                "uint32_t, half, bfloat16_t (not on 310P), float)");
  const uint32_t es = dtype_size(dt), c0 = 32 / es;
  if (p.ndNum > 4095) fail("param", api, loc, "ndNum " + std::to_string(p.ndNum) + " is outside [0, 4095]");
  if (p.nValue > 16384) fail("param", api, loc, "nValue " + std::to_string(p.nValue) + " is outside [0, 16384]");
  resolve(dst, api, loc);
  if (src) resolve(*src, api, loc);
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  const uint32_t dblocks = (p.dValue + c0 - 1) / c0;
  if (p.srcDValue < 1 || (p.nValue > 1 && p.srcDValue < p.dValue))
    fail("param", api, loc, "srcDValue " + std::to_string(p.srcDValue) + " (the source row pitch, in elements) must be in [" +
                                std::to_string(p.nValue > 1 ? p.dValue : 1) + ", 65535]: rows of dValue = " +
                                std::to_string(p.dValue) + " elements would overlap");
  if (dblocks > 1 && (p.dstNzC0Stride < 1 || p.dstNzC0Stride > 16384))
    fail("param", api, loc, "dstNzC0Stride " + std::to_string(p.dstNzC0Stride) +
                                " is outside [1, 16384] (32-byte units between the column blocks of one row; "
                                "usually the padded row count)");
  if (p.nValue > 1 && (p.dstNzNStride < 1 || p.dstNzNStride > 16384))
    fail("param", api, loc, "dstNzNStride " + std::to_string(p.dstNzNStride) +
                                " is outside [1, 16384] (32-byte units between rows of an NZ fractal; usually 1)");
  if (p.ndNum > 1 && p.dstNzMatrixStride < 1)
    fail("param", api, loc, "dstNzMatrixStride is 0 with ndNum " + std::to_string(p.ndNum) +
                                " > 1 (elements between the NZ matrices; the matrices would overlap)");
  // source extent
  const uint64_t src_span = (static_cast<uint64_t>(p.ndNum - 1) * p.srcNdMatrixStride +
                             static_cast<uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue) * es;
  if (src) cube_check_bounds(*src, 0, src_span, false, api, loc);
  else gm_check_range(src_gm, src_span, false, api, loc);
  // destination extent (bounds first, so an overflow names the whole copy)
  uint64_t dst_max = 0;
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    uint64_t base = static_cast<uint64_t>(nd) * p.dstNzMatrixStride * es;
    uint64_t last = base + (static_cast<uint64_t>(dblocks - 1) * p.dstNzC0Stride + static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride) * 32 + 32;
    dst_max = std::max(dst_max, last);
  }
  cube_check_bounds(dst, 0, dst_max, true, api, loc);
  issue(pipe);
  uint8_t* dbase = mem_base(dm) + dst.addr;
  const uint8_t* sbase = src ? mem_base(mem_of(src->pos, *c.soc)) + src->addr : static_cast<const uint8_t*>(src_gm);
  const uint8_t* sdata = src ? sbase : gm_data(src_gm);   // GM data moves through the emulator's alias (gm.h)
  const bool moves = values_on() || (src ? false : gm_has_values(src_gm));   // timing.h
  uint64_t moved = 0;
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    uint64_t soff_nd = static_cast<uint64_t>(nd) * p.srcNdMatrixStride * es;
    uint64_t doff_nd = static_cast<uint64_t>(nd) * p.dstNzMatrixStride * es;
    for (uint32_t r = 0; r < p.nValue; ++r) {
      uint64_t soff = soff_nd + static_cast<uint64_t>(r) * p.srcDValue * es;
      uint64_t row_bytes = static_cast<uint64_t>(p.dValue) * es;
      if (src) touch(*src, soff, row_bytes, false, pipe, api, loc);
      else gm_access(sbase + soff, row_bytes, false, pipe, api, loc);
    }
    for (uint32_t j = 0; j < dblocks; ++j) {
      uint64_t doff_blk = doff_nd + static_cast<uint64_t>(j) * p.dstNzC0Stride * 32;
      if (p.dstNzNStride == 1) touch(dst, doff_blk, static_cast<uint64_t>(p.nValue) * 32, true, pipe, api, loc);
      uint32_t cols = std::min<uint32_t>(c0, p.dValue - j * c0);
      for (uint32_t r = 0; r < p.nValue; ++r) {
        uint64_t doff = doff_blk + static_cast<uint64_t>(r) * p.dstNzNStride * 32;
        if (p.dstNzNStride != 1) touch(dst, doff, 32, true, pipe, api, loc);
        uint64_t soff = soff_nd + (static_cast<uint64_t>(r) * p.srcDValue + static_cast<uint64_t>(j) * c0) * es;
        if (!moves) continue;
        std::memmove(dbase + doff, sdata + soff, cols * es);
        if (cols < c0) std::memset(dbase + doff + cols * es, 0, (c0 - cols) * es);   // dValue tail: zero-padded
      }
    }
    moved += static_cast<uint64_t>(p.nValue) * dblocks * 32;
  }
  TraceRec& tr = cube_trace(pipe, "DataCopy", dt, static_cast<uint64_t>(p.ndNum) * p.nValue * p.dValue, moved,
                            p.ndNum, p.nValue, p.dValue, 0, loc);
  tr.dst = dst.addr;
  if (src) tr.src0 = src->addr;
  else set_gm_footprint(tr, src_gm, static_cast<uint64_t>(p.ndNum) * p.nValue, static_cast<uint64_t>(p.srcDValue) * es,
                        static_cast<uint64_t>(p.dValue) * es);
}

void cube_copy_to_bias(const LocalRef& dst, DType dd, const LocalRef& src, DType ds, const AscendC::DataCopyParams& p,
                       Loc loc) {
  const char* api = "DataCopy";
  Core& c = cur();
  if (c.soc->arch == 2002 || dst.pos != TPosition::C2 || mem_of(src.pos, *c.soc) != Mem::L1)
    fail("param", api, loc, std::string("DataCopy between different element types is C1 -> C2 (L1 -> bias table, "
                                        "half -> float) on 910B only, not ") +
                                position_name(src.pos) + " -> " + position_name(dst.pos) + " (" + dtype_name(ds) +
                                " -> " + dtype_name(dd) + ")");
  bool ok = (ds == dd && (ds == DType::F32 || ds == DType::I32)) || (ds == DType::F16 && dd == DType::F32);
  if (!ok)
    fail("dtype", api, loc, std::string("C1 -> C2 copies int32_t or float, or converts half to float; not ") +
                                dtype_name(ds) + " -> " + dtype_name(dd));
  require_core_kind(CoreKind::AIC, api, loc);
  if (p.blockCount < 1 || p.blockLen < 1)
    fail("param", api, loc, "blockCount and blockLen must be >= 1 (blockLen counts 64-byte units of the source for C2)");
  resolve(src, api, loc);
  resolve(dst, api, loc, 64);
  const uint32_t ses = dtype_size(ds), des = dtype_size(dd);
  const uint64_t len = static_cast<uint64_t>(p.blockLen) * 64;            // source bytes per block
  const uint64_t sstep = len + static_cast<uint64_t>(p.srcStride) * 32;    // source gaps: 32-byte blocks (L1)
  const uint64_t dlen = len / ses * des;
  const uint64_t dstep = dlen + static_cast<uint64_t>(p.dstStride) * 64;   // destination gaps: 64 bytes (C2)
  cube_check_bounds(src, 0, sstep * (p.blockCount - 1) + len, false, api, loc);
  cube_check_bounds(dst, 0, dstep * (p.blockCount - 1) + dlen, true, api, loc);
  issue(kMTE1);
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    const uint8_t* s = touch(src, i * sstep, len, false, kMTE1, api, loc);
    uint8_t* d = touch(dst, i * dstep, dlen, true, kMTE1, api, loc);
    if (ds == dd) { std::memmove(d, s, len); continue; }
    for (uint64_t e = 0; e < len / 2; ++e) {
      uint16_t h;
      std::memcpy(&h, s + e * 2, 2);
      float f = f16_bits_to_f32(h);
      std::memcpy(d + e * 4, &f, 4);
    }
  }
  TraceRec& tr = cube_trace(kMTE1, api, dd, len * p.blockCount / ses, len * p.blockCount, p.blockCount, 0, 0, 0, loc);
  tr.dst = dst.addr;
  tr.src0 = src.addr;
}
}  // namespace kgen::rt
