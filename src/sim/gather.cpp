// Brcb, Gather and GatherMask.
#include <string>
#include <vector>

#include "kgen/vec_gather.h"
#include "sim/elementwise.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
bool ranges_overlap(const rt::LocalRef& a, uint64_t a_bytes, const rt::LocalRef& b, uint64_t b_bytes) {
  const Soc& soc = *cur().soc;
  if (mem_of(a.pos, soc) != mem_of(b.pos, soc)) return false;
  return a.addr < b.addr + b_bytes && b.addr < a.addr + a_bytes;
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void brcb(DType dt, const LocalRef& dst, const LocalRef& src, uint32_t repeat, const AscendC::BrcbRepeatParams& p,
          Loc loc) {
  const char* api = "Brcb";
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint32_t es = dtype_size(dt), E = 32 / es;
  uint32_t blk = p.dstBlkStride == 0 ? 1 : p.dstBlkStride;   // 0 is treated as 1 (0302)
  uint64_t src_bytes = static_cast<uint64_t>(repeat) * 8 * es;
  uint64_t dst_span = repeat ? ((static_cast<uint64_t>(repeat - 1) * p.dstRepStride + 7ull * blk) * 32 + 32) : 0;
  if (repeat && ranges_overlap(dst, dst_span, src, src_bytes))
    fail("param", api, loc, "src0 and dst overlap; Brcb does not support src0 and dst in the same memory (0302)");
  issue(kV);
  // An element read from bytes nothing wrote is garbage, not a fault: the block it fills is (core.h LaneScope).
  LaneWise lanes;
  LaneScope& ls = cur().lanes;
  ls.read_operand(src.addr, es, 1, [&] { return touch(src, 0, src_bytes, false, kV, api, loc); });
  std::vector<uint8_t> garbage(static_cast<size_t>(repeat) * 8, 0);
  for (const auto& [a, b] : ls.poisoned)
    for (uint64_t k = a; k < b && k < garbage.size(); ++k) garbage[k] = 1;
  std::vector<uint8_t> in(bs + src.addr, bs + src.addr + src_bytes);
  const Mem m = mem_of(dst.pos, *cur().soc);
  for (uint32_t r = 0; r < repeat; ++r)
    for (uint32_t i = 0; i < 8; ++i) {
      uint64_t off = (static_cast<uint64_t>(r) * p.dstRepStride + static_cast<uint64_t>(i) * blk) * 32;
      touch(dst, off, 32, true, kV, api, loc);
      if (garbage[r * 8 + i]) poison(m, dst.addr + static_cast<uint32_t>(off), 32, ls.p_file, ls.p_line, ls.p_api);
      for (uint32_t e = 0; e < E; ++e) std::memcpy(bd + dst.addr + off + e * es, in.data() + (r * 8 + i) * es, es);
    }
  trace_vec(api, dt, static_cast<uint64_t>(repeat) * 8 * E, repeat, &dst, &src, nullptr, loc);
}

namespace {
// One gathered element: dst byte offset `doff` <- src byte (srcBaseAddr + offset[i]).
void gather_one(DType dt, const LocalRef& dst, const LocalRef& src, uint8_t* bd, const uint8_t* bs, uint32_t base,
                uint32_t off, uint64_t i, uint64_t doff, const char* api, const Loc& loc) {
  uint32_t es = dtype_size(dt);
  uint64_t s = static_cast<uint64_t>(base) + off;
  if (s % es != 0)
    fail("param", api, loc, "srcBaseAddr + srcOffset[" + std::to_string(i) + "] = " + std::to_string(s) +
                                " bytes is not a multiple of sizeof(T) = " + std::to_string(es) +
                                " (srcOffset is in bytes, not elements)");
  if (s + es > src.len)
    fail("ub-overflow", api, loc, "srcBaseAddr + srcOffset[" + std::to_string(i) + "] = " + std::to_string(s) +
                                      " bytes reads past the end of src (" + std::to_string(src.len) +
                                      " bytes); offsets are in bytes relative to src");
  touch(src, s, es, false, kV, api, loc);
  touch(dst, doff, es, true, kV, api, loc);
  std::memcpy(bd + dst.addr + doff, bs + src.addr + s, es);
}
}  // namespace

void gather_count(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& offset, uint32_t base,
                  uint32_t count, Loc loc) {
  const char* api = "Gather";
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint8_t* bo = vec_operand(offset, api, loc);
  uint32_t es = dtype_size(dt);
  issue(kV);
  touch(offset, 0, static_cast<uint64_t>(count) * 4, false, kV, api, loc);
  if (!values_on()) {   // timing-only (timing.h): offsets may be values it lacks, and no record depends on them
    touch(dst, 0, static_cast<uint64_t>(count) * es, true, kV, api, loc);
    trace_vec(api, dt, count, (static_cast<uint64_t>(count) * es + 255) / 256, &dst, &src, &offset, loc);
    return;
  }
  std::vector<uint32_t> offs(count);
  if (count) std::memcpy(offs.data(), bo + offset.addr, static_cast<size_t>(count) * 4);
  std::vector<uint8_t> snapshot(bs + src.addr, bs + src.addr + src.len);   // dst may alias src: read first
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t s = static_cast<uint64_t>(base) + offs[i];
    if (s % es != 0 || s + es > src.len) gather_one(dt, dst, src, bd, bs, base, offs[i], i, i * es, api, loc);  // fails
    touch(src, s, es, false, kV, api, loc);
  }
  touch(dst, 0, static_cast<uint64_t>(count) * es, true, kV, api, loc);
  for (uint32_t i = 0; i < count; ++i)
    std::memcpy(bd + dst.addr + static_cast<uint64_t>(i) * es, snapshot.data() + base + offs[i], es);
  trace_vec(api, dt, count, (static_cast<uint64_t>(count) * es + 255) / 256, &dst, &src, &offset, loc);
}

void gather_rep(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& offset, uint32_t base,
                const MaskArg& mask, uint32_t repeat, uint32_t dst_rep_stride, Loc loc) {
  const char* api = "Gather";
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint8_t* bo = vec_operand(offset, api, loc);
  RepeatWalk w = make_walk(mask, repeat, dt, api, loc);
  uint32_t es = w.elem, R = w.per_block * 8;
  issue(kV);
  // srcOffset holds one uint32 per lane, R per repeat, consumed contiguously
  for (uint32_t r = 0; r < w.repeat; ++r) {
    Mask128 m = w.mask_for(r);
    int first = -1, last = -1;
    for (uint32_t k = 0; k < R; ++k)
      if (m.test(k)) { if (first < 0) first = static_cast<int>(k); last = static_cast<int>(k); }
    if (first >= 0) touch(offset, (static_cast<uint64_t>(r) * R + first) * 4, static_cast<uint64_t>(last - first + 1) * 4, false, kV, api, loc);
  }
  for_each_lane(w, [&](uint32_t r, uint32_t j, uint32_t e) {
    uint64_t k = static_cast<uint64_t>(r) * R + j * w.per_block + e;
    uint32_t off = load<uint32_t>(bo + offset.addr + k * 4);
    uint64_t doff = static_cast<uint64_t>(r) * dst_rep_stride * 32 + (j * w.per_block + e) * es;
    if (!values_on()) touch(dst, doff, es, true, kV, api, loc);   // timing-only: offsets unknown (timing.h)
    else gather_one(dt, dst, src, bd, bs, base, off, k, doff, api, loc);
  });
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * R, w.repeat, &dst, &src, &offset, loc);
}

uint64_t gather_mask(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* pattern, DType pattern_dt,
                     uint8_t builtin, bool reduce_mode, uint32_t mask, const AscendC::GatherMaskParams& p, Loc loc) {
  const char* api = "GatherMask";
  require_dtype(api, dt, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* bs = vec_operand(src, api, loc);
  uint8_t* bp = pattern ? vec_operand(*pattern, api, loc) : nullptr;
  Core& c = cur();
  bool p310 = c.soc->arch == 2002;
  uint32_t es = dtype_size(dt), E = 32 / es, R = 256 / es;
  uint32_t pes = 0;
  if (pattern) {
    if (pattern_dt != DType::U16 && pattern_dt != DType::U32)
      fail("dtype", api, loc, std::string("src1Pattern must be uint16_t or uint32_t, not ") + dtype_name(pattern_dt));
    pes = dtype_size(pattern_dt);
    if (pes != es)
      fail("param", api, loc, std::string("src1Pattern is ") + dtype_name(pattern_dt) + " but " + dtype_name(dt) +
                                  " operands need a " + (es == 2 ? "uint16_t" : "uint32_t") + " pattern");
  } else {
    uint8_t hi = p310 ? 6 : 7;
    if (builtin < 1 || builtin > hi)
      fail("param", api, loc, "built-in src1Pattern " + std::to_string(builtin) + " is outside [1, " + std::to_string(hi) +
                                  "] on " + c.soc->name);
  }
  // Lanes per repeat and repeat count for each mode.
  uint32_t repeats = p.repeatTimes;
  uint64_t per_rep = R;
  uint64_t total = 0;
  if (reduce_mode) {
    if (mask == 0) fail("param", api, loc, "counter mode (reduceMode = true) needs mask in [1, 2^32-1]");
    if (p310) { total = mask; repeats = static_cast<uint32_t>((total + R - 1) / R); }
    else per_rep = mask;     // A2: each repeat takes `mask` elements (0279 "配置方式一")
  }
  if (!(reduce_mode && p310) && repeats > 255)
    fail("param", api, loc, "repeatTimes " + std::to_string(repeats) + " is outside [0, 255]");
  issue(kV);
  auto lanes_of = [&](uint32_t r) -> uint64_t {
    if (reduce_mode && p310) return std::min<uint64_t>(R, total - static_cast<uint64_t>(r) * R);
    return per_rep;
  };
  auto src_off = [&](uint32_t r, uint64_t k) {
    return (static_cast<uint64_t>(r) * p.src0RepeatStride + (k / E) * p.src0BlockStride) * 32 + (k % E) * es;
  };
  std::vector<uint8_t> out;
  for (uint32_t r = 0; r < repeats; ++r) {
    uint64_t n = lanes_of(r);
    for (uint64_t b = 0; b * E < n; ++b) {
      uint64_t cnt = std::min<uint64_t>(E, n - b * E);
      touch(src, src_off(r, b * E), cnt * es, false, kV, api, loc);
    }
    uint64_t pbase = static_cast<uint64_t>(r) * p.src1RepeatStride * 32;
    if (pattern) touch(*pattern, pbase, (n + 8 * pes - 1) / (8 * pes) * pes, false, kV, api, loc);
    for (uint64_t k = 0; k < n; ++k) {
      bool keep;
      if (pattern && !values_on()) {   // timing-only: the pattern's bits are values it does not have (timing.h)
        keep = true;
      } else if (pattern) {
        keep = (bp[pattern->addr + pbase + k / 8] >> (k % 8)) & 1;
      } else {
        switch (builtin) {
          case 1: keep = k % 2 == 0; break;
          case 2: keep = k % 2 == 1; break;
          case 7: keep = true; break;
          default: keep = k % 4 == static_cast<uint64_t>(builtin - 3); break;
        }
      }
      if (keep) out.insert(out.end(), bs + src.addr + src_off(r, k), bs + src.addr + src_off(r, k) + es);
    }
  }
  uint64_t kept = out.size() / es;
  if (pattern) note_value_read("GatherMask", loc);   // the kept count the kernel gets back depends on the pattern
  if (kept) {
    touch(dst, 0, out.size(), true, kV, api, loc);
    std::memcpy(bd + dst.addr, out.data(), out.size());
  }
  c.mask_counter = false;   // GatherMask leaves normal mask mode set (0279)
  uint64_t elems = 0;
  for (uint32_t r = 0; r < repeats; ++r) elems += lanes_of(r);
  trace_vec(api, dt, elems, repeats, &dst, &src, pattern, loc);
  return kept;
}
}  // namespace kgen::rt
