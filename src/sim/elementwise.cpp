#include "sim/elementwise.h"

#include "sim/core_kind.h"

#include <algorithm>

namespace kgen::sim {
uint8_t* vec_operand(const rt::LocalRef& t, const char* api, const Loc& loc) {
  require_core_kind(CoreKind::AIV, api, loc);
  uint8_t* base = resolve(t, api, loc, 32);
  if (t.pos != TPosition::VECIN && t.pos != TPosition::VECOUT && t.pos != TPosition::VECCALC)
    fail("param", api, loc, std::string("vector operands must be in VECIN, VECCALC or VECOUT, not ") + position_name(t.pos));
  return base;
}

Mask128 RepeatWalk::mask_for(uint32_t r) const {
  if (!counter) return mask;
  uint64_t R = per_block * 8;
  uint64_t start = static_cast<uint64_t>(r) * R;
  uint64_t n = total > start ? std::min<uint64_t>(R, total - start) : 0;
  Mask128 m;
  m.lo = n >= 64 ? ~0ull : ((1ull << n) - 1);
  m.hi = n >= 128 ? ~0ull : n > 64 ? ((1ull << (n - 64)) - 1) : 0;
  return m;
}

RepeatWalk make_walk(const rt::MaskArg& m, uint32_t repeat, DType dt, const char* api, const Loc& loc) {
  Core& c = cur();
  RepeatWalk w;
  w.elem = dtype_size(dt);
  w.per_block = 32 / w.elem;
  uint32_t R = w.per_block * 8;
  uint32_t max_mask = R > 128 ? 128 : R;   // 8-bit types still have 128 mask bits
  w.repeat = repeat;
  if (m.kind == rt::MaskArg::External) {
    if (c.mask_counter) {
      w.counter = true;
      w.total = c.mask_lo;
      w.repeat = static_cast<uint32_t>((w.total + R - 1) / R);
      return w;
    }
    w.mask.lo = c.mask_lo;
    w.mask.hi = c.mask_hi;
  } else if (m.kind == rt::MaskArg::Contiguous) {
    if (m.count < 1 || m.count > max_mask)
      fail("param", api, loc,
           "mask " + std::to_string(m.count) + " is outside [1, " + std::to_string(max_mask) + "] for " +
               std::to_string(w.elem * 8) + "-bit " + dtype_name(dt) + " (one repeat is 256 bytes)");
    w.mask.lo = m.count >= 64 ? ~0ull : ((1ull << m.count) - 1);
    w.mask.hi = m.count >= 128 ? ~0ull : m.count > 64 ? ((1ull << (m.count - 64)) - 1) : 0;
  } else {
    w.mask.lo = m.lo;
    w.mask.hi = m.hi;
    if (w.elem >= 4 && m.hi != 0)
      fail("param", api, loc, "mask[1] must be 0 for 32-bit types (a repeat has only 64 elements)");
    if (w.mask.lo == 0 && w.mask.hi == 0) fail("param", api, loc, "mask bits are all zero: no element is enabled");
  }
  if (w.elem == 8) {   // 64-bit types: 32 elements per repeat
    w.mask.hi = 0;
    w.mask.lo &= 0xffffffffull;
  } else if (w.elem == 4) {
    w.mask.hi = 0;
  }
  return w;
}

void touch_walk(const rt::LocalRef& t, const RepeatWalk& w, uint32_t blk_stride, uint32_t rep_stride, bool write,
                const char* api, const Loc& loc, uint32_t elem_override) {
  uint32_t elem = elem_override ? elem_override : w.elem;
  uint32_t per_block = 32 / elem;
  // Touch exactly the enabled lanes (masked-off lanes are neither read nor written), as runs: lanes that
  // follow each other in memory are merged, so a dense walk is one access.
  uint64_t run_start = 0, run_end = 0;
  bool open = false;
  std::vector<std::pair<uint64_t, uint64_t>> runs;   // checked together: one pass over the memory's history
  auto flush = [&] {
    if (open) runs.push_back({run_start, run_end - run_start});
    open = false;
  };
  const uint32_t lanes = std::min(per_block, w.per_block);   // lanes of one block this operand holds
  for (uint32_t r = 0; r < w.repeat; ++r) {
    Mask128 m = w.mask_for(r);
    for (uint32_t j = 0; j < 8; ++j) {
      if (m.all(j * w.per_block, lanes)) {   // a whole block enabled: its lanes follow each other, one piece
        const uint64_t off = walk_offset(r, j, 0, blk_stride, rep_stride, elem);
        if (open && off == run_end) {
          run_end += static_cast<uint64_t>(lanes) * elem;
          continue;
        }
        flush();
        run_start = off;
        run_end = off + static_cast<uint64_t>(lanes) * elem;
        open = true;
        continue;
      }
      for (uint32_t e = 0; e < lanes; ++e) {
        if (!m.test(j * w.per_block + e)) continue;
        uint64_t off = walk_offset(r, j, e, blk_stride, rep_stride, elem);
        if (open && off == run_end) {
          run_end += elem;
          continue;
        }
        flush();
        run_start = off;
        run_end = off + elem;
        open = true;
      }
    }
  }
  flush();
  touch_runs(t, runs, write, kV, api, loc);
}

uint8_t* touch_count(const rt::LocalRef& t, uint64_t count, uint32_t elem, bool write, const char* api, const Loc& loc,
                     bool bits) {
  Core& c = cur();
  LaneScope& ls = c.lanes;
  if (!ls.active) return touch(t, 0, count * elem, write, kV, api, loc);
  if (!write) {   // check_and_record numbers the lanes it finds never written from the operand's base
    return ls.read_operand(t.addr, bits ? 1 : elem, bits ? 8 : 1,
                           [&] { return touch(t, 0, count * elem, false, kV, api, loc); });
  }
  uint8_t* p = touch(t, 0, count * elem, true, kV, api, loc);
  // the lanes written from garbage: whole lanes of a value operand; a mask's bytes whose 8 lanes all are
  if (!ls.poisoned.empty()) {
    const Mem m = mem_of(t.pos, *c.soc);
    const uint64_t total = count * elem;
    for (const auto& [a, b] : ls.poisoned) {
      uint64_t from = bits ? (a + 7) / 8 : a * elem, to = bits ? b / 8 : b * elem;
      to = std::min(to, total);
      if (from < to) poison(m, t.addr + static_cast<uint32_t>(from), to - from, ls.p_file, ls.p_line, ls.p_api);
    }
  }
  return p;
}

void LaneWalk::read(const rt::LocalRef& t, uint32_t blk_stride, uint32_t rep_stride, const char* api, const Loc& loc) {
  LaneScope& ls = cur().lanes;
  ls.poisoned.clear();
  ls.read_operand(t.addr, w_.elem, 1, [&] { touch_walk(t, w_, blk_stride, rep_stride, false, api, loc); });
  Source s{std::move(ls.poisoned), blk_stride, rep_stride};
  ls.poisoned.clear();
  std::sort(s.garbage.begin(), s.garbage.end());
  sources_.push_back(std::move(s));
}

void LaneWalk::write(const rt::LocalRef& dst, uint32_t blk_stride, uint32_t rep_stride, const char* api,
                     const Loc& loc) {
  touch_walk(dst, w_, blk_stride, rep_stride, true, api, loc);
  LaneScope& ls = cur().lanes;
  if (!ls.p_api) return;   // no source lane held garbage
  auto garbage = [](const Source& s, uint64_t i) {   // is element i of the source in one of its garbage ranges
    auto it = std::upper_bound(s.garbage.begin(), s.garbage.end(), std::make_pair(i, ~uint64_t{0}));
    return it != s.garbage.begin() && i < std::prev(it)->second;
  };
  std::vector<uint64_t> bad;   // byte offsets of the destination lanes computed from garbage
  for_each_lane(w_, [&](uint32_t r, uint32_t j, uint32_t e) {
    for (const Source& s : sources_)
      if (!s.garbage.empty() && garbage(s, walk_offset(r, j, e, s.blk_stride, s.rep_stride, w_.elem) / w_.elem)) {
        bad.push_back(walk_offset(r, j, e, blk_stride, rep_stride, w_.elem));
        return;
      }
  });
  std::sort(bad.begin(), bad.end());
  const Mem m = mem_of(dst.pos, *cur().soc);
  for (size_t i = 0; i < bad.size();) {   // runs of adjacent lanes, one poison each
    size_t k = i + 1;
    while (k < bad.size() && bad[k] <= bad[k - 1] + w_.elem) ++k;
    poison(m, dst.addr + static_cast<uint32_t>(bad[i]), bad[k - 1] + w_.elem - bad[i], ls.p_file, ls.p_line, ls.p_api);
    i = k;
  }
}

LaneWise::LaneWise() {
  LaneScope& ls = cur().lanes;
  ls = LaneScope{};
  ls.active = true;
}
LaneWise::~LaneWise() {
  if (Core* c = cur_or_null()) c->lanes = LaneScope{};
}

void trace_vec(const char* api, DType dt, uint64_t elems, uint32_t repeats, const rt::LocalRef* dst,
               const rt::LocalRef* a, const rt::LocalRef* b, const Loc& loc) {
  TraceRec& r = trace_instr(kV, api, dt, elems, elems * dtype_size(dt), repeats, loc);
  if (dst) r.dst = dst->addr;
  if (a) r.src0 = a->addr;
  if (b) r.src1 = b->addr;
}

void atomic_combine(DType dt, int op, uint8_t* dst, const uint8_t* src) {
  auto apply = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = Calc<T>;
    C a = static_cast<C>(load<T>(dst)), b = static_cast<C>(load<T>(src));
    C r = op == 1 ? a + b : op == 2 ? (a > b ? a : b) : (a < b ? a : b);
    store<T>(dst, static_cast<T>(r));
  };
  dispatch(dt, "SetAtomicAdd", Loc::current(), apply);
}

uint64_t checked_count(int64_t count, const char* api, const Loc& loc) {
  if (count < 0) fail("param", api, loc, "count " + std::to_string(count) + " is negative");
  return static_cast<uint64_t>(count);
}
}  // namespace kgen::sim
