// On-chip memories of a core and the per-access checks: live buffer, alignment, bounds, initialisation, races.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "sim/core.h"
#include "sim/buffer_overrun.h"
#include "sim/stale_tensor.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
Core* g_core = nullptr;

std::string range_str(Mem m, uint64_t addr, uint64_t bytes) {
  return std::string(mem_name(m)) + "[" + std::to_string(addr) + ", " + std::to_string(addr + bytes) + ")";
}

std::string sync_hint(Pipe from, Pipe to) {
  if (from == kMTE2 && to == kV) return "EnQue the tensor after DataCopy and DeQue it before computing, or SetFlag/WaitFlag<HardEvent::MTE2_V>";
  if (from == kV && to == kMTE3) return "EnQue the result after computing and DeQue it before DataCopy to GM, or SetFlag/WaitFlag<HardEvent::V_MTE3>";
  if (from == kV && to == kMTE2) return "FreeTensor the input before the next AllocTensor reuses it, or SetFlag/WaitFlag<HardEvent::V_MTE2>";
  if (from == kMTE3 && to == kV) return "FreeTensor the output after DataCopy to GM before reusing it, or SetFlag/WaitFlag<HardEvent::MTE3_V>";
  return std::string("insert SetFlag/WaitFlag<HardEvent::") + pipe_name(from) + "_" + pipe_name(to) +
         "> (or PipeBarrier<PIPE_ALL>) between them";
}

// Index of the run that starts at byte `at`, splitting the run containing it if needed.
size_t boundary(Pool& pool, uint32_t at) {
  if (at >= pool.size) return pool.segs.size();
  auto it = std::upper_bound(pool.segs.begin(), pool.segs.end(), at, [](uint32_t a, const Seg& s) { return a < s.end; });
  size_t i = static_cast<size_t>(it - pool.segs.begin());
  uint32_t start = i ? pool.segs[i - 1].end : 0;
  if (start == at) return i;
  Seg head = pool.segs[i];
  head.end = at;
  pool.segs.insert(pool.segs.begin() + static_cast<long>(i), head);
  return i + 1;
}

// The runs [lo, hi) that cover exactly [addr, addr + bytes), splitting the runs at its ends.
std::pair<size_t, size_t> runs_of(Pool& pool, uint32_t addr, uint64_t bytes) {
  size_t hi = boundary(pool, static_cast<uint32_t>(addr + bytes));
  size_t before = pool.segs.size();
  size_t lo = boundary(pool, addr);
  if (pool.segs.size() > before) ++hi;
  return {lo, hi};
}

bool same_history(const Seg& a, const Seg& b) {
  if (a.init != b.init || a.w_pipe != b.w_pipe || a.w_clock != b.w_clock || a.w_line != b.w_line || a.w_api != b.w_api)
    return false;
  if (a.p_line != b.p_line || a.p_api != b.p_api || a.p_file != b.p_file) return false;
  for (int q = 0; q < kPipeCount; ++q)
    if (a.r_clock[q] != b.r_clock[q]) return false;
  return true;
}

// Merges run i with its neighbours when their histories are equal (e.g. the blocks of one strided DataCopy).
void coalesce(Pool& pool, size_t i) {
  if (i + 1 < pool.segs.size() && same_history(pool.segs[i], pool.segs[i + 1])) {
    pool.segs[i].end = pool.segs[i + 1].end;
    pool.segs.erase(pool.segs.begin() + static_cast<long>(i) + 1);
  }
  if (i > 0 && same_history(pool.segs[i - 1], pool.segs[i])) {
    pool.segs[i - 1].end = pool.segs[i].end;
    pool.segs.erase(pool.segs.begin() + static_cast<long>(i));
  }
}

// The checks of an access by pipe p to bytes [start, end) of one run `s`, part of the access [addr, addr + bytes):
// initialised (or lanes that only carry garbage on), written before by a pipe p knows of, not read since by a pipe
// p does not know of (for a write).
// Whether pipe p may access run `s` now without a finding: defined bytes for a read, its last writer known to p, and
// for a write every other pipe's reads known to p. check_piece says what is wrong otherwise.
bool clean(const Core& c, const Seg& s, bool write, Pipe p) {
  const VClock& know = c.vc[p];
  if (!write && !s.init && !c.store_to_padding) return false;
  if (s.w_clock > know[s.w_pipe]) return false;
  if (write)
    for (int q = 0; q < kPipeCount; ++q)
      if (q != p && s.r_clock[q] > know[q]) return false;
  return true;
}

// For a write-after-read race: the launch's first use of a tensor after its FreeTensor, the usual cause (the next
// AllocTensor of the buffer waits for the FreeTensor, not for a read after it); "" when there was none.
std::string stale_use_note() {
  const StaleUses u = stale_uses();
  return u.count ? " (a tensor was used after FreeTensor released its buffer, first at " + u.first +
                       ": free it after its last use)"
                 : "";
}

void check_piece(Core& c, Mem m, const Seg& s, uint32_t start, uint32_t addr, uint64_t bytes, bool write, Pipe p,
                 const char* api, const Loc& loc) {
  if (clean(c, s, write, p)) return;
  const VClock& know = c.vc[p];
  LaneScope& ls = c.lanes;
  if (!write && !s.init && !c.store_to_padding) {
    const bool never = s.w_api == nullptr || s.p_api == nullptr;   // never written, or written from garbage lanes (poison)
    if (ls.operand) {
      // a lane of a count-form instruction: garbage in, garbage out (its lanes are poisoned when it writes)
      const uint64_t o0 = std::max<uint64_t>(start, addr) - ls.base,
                     o1 = std::min<uint64_t>(s.end, addr + bytes) - ls.base;
      ls.poisoned.push_back({o0 / ls.unit * ls.lanes, (o1 + ls.unit - 1) / ls.unit * ls.lanes});
      if (never) ls.note_source(loc.file_name(), loc.line(), api);
      else ls.note_source(s.p_file, s.p_line, s.p_api);
    } else if (!never) {
      // lanes a count-form instruction computed from never-written bytes, now used where lanes matter
      fail_at("uninit-read", s.p_api, s.p_file, s.p_line,
              std::string("reads on-chip bytes nothing wrote (garbage on the chip), and the values computed from them "
                          "reach ") +
                  api + " at line " + std::to_string(loc.line()) + " (" + range_str(m, start, s.end - start) +
                  ", last written by " + s.w_api + " at line " + std::to_string(s.w_line) +
                  "); copy the data in, Duplicate a value, or keep the count to the data");
    } else {
      fail("uninit-read", api, loc,
           std::string("reads ") + range_str(m, addr, bytes) + " but " + range_str(m, start, s.end - start) +
               " was never written (" + (m == Mem::UB ? std::string("UB") : std::string(mem_name(m))) +
               " starts with garbage); copy data in, Duplicate a value, or shrink the count");
    }
  }
  // A racing write is judged once it is done: harmless if it stores the bytes already there (Core::PendingRace).
  auto race = [&](const std::string& msg) {
    if (!write) fail("race", api, loc, msg);
    const uint32_t a = std::max(start, addr), b = static_cast<uint32_t>(std::min<uint64_t>(s.end, addr + bytes));
    const uint8_t* base = c.pools[static_cast<int>(m)].data.get();
    c.pending_races.push_back({m, a, std::vector<uint8_t>(base + a, base + b), api, loc.file_name(), loc.line(), msg});
  };
  // read-after-write / write-after-write: the last writer must be known to pipe p (always true for p itself)
  if (s.w_clock > know[s.w_pipe]) {
    Pipe w = static_cast<Pipe>(s.w_pipe);
    race(std::string("pipe ") + pipe_name(p) + (write ? " writes " : " reads ") + range_str(m, start, s.end - start) +
         ", which pipe " + pipe_name(w) + " wrote (" + (s.w_api ? s.w_api : "?") + " at line " +
         std::to_string(s.w_line) + ") with no synchronisation between them; " + sync_hint(w, p));
    return;
  }
  // write-after-read: every other pipe's reads must be known to p
  if (write)
    for (int q = 0; q < kPipeCount; ++q)
      if (q != p && s.r_clock[q] > know[q]) {
        race(std::string("pipe ") + pipe_name(p) + " overwrites " + range_str(m, start, s.end - start) +
             " while pipe " + pipe_name(static_cast<Pipe>(q)) +
             " may still be reading it (no synchronisation since that read); " + sync_hint(static_cast<Pipe>(q), p) +
             stale_use_note());
        return;
      }
}

// The history of bytes pipe p has just written: defined, by this instruction (LaneWise may poison lanes of it next).
void written_by(Seg& w, const Core& c, Pipe p, const char* api, const Loc& loc) {
  w.init = 1;
  w.w_pipe = p;
  w.w_clock = c.clock[p];
  w.w_line = loc.line();
  w.w_api = api;
  w.p_file = nullptr, w.p_line = 0, w.p_api = nullptr;
}

void check_and_record(Core& c, Mem m, uint32_t addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc) {
  Pool& pool = c.pools[static_cast<int>(m)];
  auto [lo, hi] = runs_of(pool, addr, bytes);
  for (size_t i = lo; i < hi; ++i) check_piece(c, m, pool.segs[i], i ? pool.segs[i - 1].end : 0, addr, bytes, write, p, api, loc);
  if (!write) {
    for (size_t i = lo; i < hi; ++i) pool.segs[i].r_clock[p] = c.clock[p];
    if (hi - lo == 1) coalesce(pool, lo);
    return;
  }
  // A write gives the whole range one history; reads keep their latest clock (conservative and sound).
  Seg w = pool.segs[lo];
  for (size_t i = lo + 1; i < hi; ++i)
    for (int q = 0; q < kPipeCount; ++q) w.r_clock[q] = std::max(w.r_clock[q], pool.segs[i].r_clock[q]);
  w.end = pool.segs[hi - 1].end;
  written_by(w, c, p, api, loc);
  pool.segs[lo] = w;
  pool.segs.erase(pool.segs.begin() + static_cast<long>(lo) + 1, pool.segs.begin() + static_cast<long>(hi));
  coalesce(pool, lo);
}

// The union of byte ranges, in increasing order and apart (adjacent ones joined).
std::vector<std::pair<uint32_t, uint32_t>> union_of(std::vector<std::pair<uint32_t, uint32_t>> r) {
  std::sort(r.begin(), r.end());
  std::vector<std::pair<uint32_t, uint32_t>> u;
  for (const auto& x : r) {
    if (!u.empty() && x.first <= u.back().second) u.back().second = std::max(u.back().second, x.second);
    else u.push_back(x);
  }
  return u;
}

// Whether pipe p may read every byte of `runs` (increasing, apart) now: check_piece would not fail on any of them.
bool reads_pass(const Core& c, Mem m, const std::vector<std::pair<uint32_t, uint32_t>>& runs, Pipe p) {
  const Pool& pool = c.pools[static_cast<int>(m)];
  auto it = std::upper_bound(pool.segs.begin(), pool.segs.end(), runs.front().first,
                             [](uint32_t a, const Seg& s) { return a < s.end; });
  for (const auto& [a, b] : runs) {
    while (it != pool.segs.end() && it->end <= a) ++it;
    for (auto s = it; s != pool.segs.end(); ++s) {
      if (!clean(c, *s, false, p)) return false;
      if (s->end >= b) break;
    }
  }
  return true;
}

// check_and_record for accesses [runs[k].first, runs[k].second) in increasing order and apart (the pieces of one
// operand of a repeat-form instruction), in one pass over the runs they cover instead of a split, check and merge per
// access: each byte gets the history it gets from check_and_record called access after access, and the first
// failing check is the one those calls fail at. Adjacent runs of equal history are merged at the end.
void check_and_record_runs(Core& c, Mem m, const std::vector<std::pair<uint32_t, uint32_t>>& runs, bool write,
                           Pipe p, const char* api, const Loc& loc) {
  Pool& pool = c.pools[static_cast<int>(m)];
  const uint32_t first = runs.front().first, last = runs.back().second;
  auto it = std::upper_bound(pool.segs.begin(), pool.segs.end(), first, [](uint32_t a, const Seg& s) { return a < s.end; });
  const size_t lo = static_cast<size_t>(it - pool.segs.begin());
  size_t hi = lo;
  while (hi < pool.segs.size() && pool.segs[hi].end < last) ++hi;
  ++hi;   // the run holding the last byte
  std::vector<Seg> out;
  out.reserve(2 * runs.size() + 2);
  auto emit = [&out](const Seg& h, uint32_t end) {
    out.push_back(h);
    out.back().end = end;
  };
  size_t k = 0;
  Seg w{};            // a write access's history, built over the runs it covers (as check_and_record's)
  bool in_write = false;
  for (size_t i = lo; i < hi; ++i) {
    const Seg s = pool.segs[i];
    uint32_t pos = i ? pool.segs[i - 1].end : 0;
    while (k < runs.size() && runs[k].first < s.end) {
      const uint32_t a = std::max(runs[k].first, pos), b = std::min(runs[k].second, s.end);
      if (a > pos) emit(s, a);
      Seg piece = s;
      piece.end = b;
      check_piece(c, m, piece, a, runs[k].first, runs[k].second - runs[k].first, write, p, api, loc);
      if (!write) {
        piece.r_clock[p] = c.clock[p];
        out.push_back(piece);
      } else if (!in_write) {
        w = s;
        in_write = true;
      } else {
        for (int q = 0; q < kPipeCount; ++q) w.r_clock[q] = std::max(w.r_clock[q], s.r_clock[q]);
      }
      pos = b;
      if (runs[k].second > s.end) break;   // the access goes on into the next run
      if (write) {
        written_by(w, c, p, api, loc);
        emit(w, b);
        in_write = false;
      }
      ++k;
    }
    if (pos < s.end) emit(s, s.end);
  }
  // out replaces runs [lo, hi): the runs after them move once, by the difference
  if (out.size() > hi - lo)
    pool.segs.insert(pool.segs.begin() + static_cast<long>(hi), out.size() - (hi - lo), Seg{});
  else
    pool.segs.erase(pool.segs.begin() + static_cast<long>(lo + out.size()), pool.segs.begin() + static_cast<long>(hi));
  std::copy(out.begin(), out.end(), pool.segs.begin() + static_cast<long>(lo));
  // merge equal neighbours over the replaced runs and at their two edges
  size_t from = lo ? lo - 1 : 0, to = std::min(pool.segs.size(), lo + out.size() + 1);
  size_t dst = from;
  for (size_t i = from + 1; i < to; ++i) {
    if (same_history(pool.segs[dst], pool.segs[i])) {
      pool.segs[dst].end = pool.segs[i].end;
    } else {
      pool.segs[++dst] = pool.segs[i];
    }
  }
  pool.segs.erase(pool.segs.begin() + static_cast<long>(dst) + 1, pool.segs.begin() + static_cast<long>(to));
}
}  // namespace

void poison(Mem m, uint32_t addr, uint64_t bytes, const char* file, uint32_t line, const char* api) {
  if (bytes == 0) return;
  Core& c = cur();
  Pool& pool = c.pools[static_cast<int>(m)];
  auto [lo, hi] = runs_of(pool, addr, bytes);
  for (size_t i = lo; i < hi; ++i) {
    Seg& s = pool.segs[i];
    s.init = 0;
    s.p_file = file, s.p_line = line, s.p_api = api;
  }
  for (size_t i = hi; i-- > lo;) coalesce(pool, i);   // erases at i or i + 1 only: the runs below i stay put
}

Core& cur() {
  if (!g_core) fail("param", "kernel", Loc::current(), "AscendC API called outside a kernel launch (use ICPU_RUN_KF)");
  return *g_core;
}
Core* cur_or_null() { return g_core; }
void set_cur(Core* c) { g_core = c; }

void Pool::allocate(uint32_t bytes) {
  size = bytes;
  data.reset(new uint8_t[bytes]);
  std::memset(data.get(), 0xff, bytes);   // poison: NaN for floats, -1 for integers
  segs.assign(1, Seg{bytes, 0, kS, 0, 0, nullptr, {}, nullptr, 0, nullptr});
}

uint8_t* mem_base(Mem m) {
  Core& c = cur();
  Pool& pool = c.pools[static_cast<int>(m)];
  if (!pool.data) pool.allocate(c.soc->mem_size[static_cast<int>(m)]);
  return pool.data.get();
}

void settle_races(Core& c) {
  if (c.pending_races.empty()) return;
  std::vector<Core::PendingRace> races;
  races.swap(c.pending_races);
  for (const Core::PendingRace& r : races) {
    const uint8_t* now = c.pools[static_cast<int>(r.m)].data.get() + r.addr;
    if (std::memcmp(now, r.before.data(), r.before.size()) != 0) fail_at("race", r.api, r.file, r.line, r.msg);
  }
}

void issue(Pipe p) {
  Core& c = cur();
  settle_races(c);   // the previous instruction's racing writes are done
  ++c.clock[p];
  VClock& v = c.vc[p];
  if (p != kS) join(v, c.scalar_waited);
  v[p] = c.clock[p];
}

uint8_t* resolve(const rt::LocalRef& t, const char* api, const Loc& loc, uint32_t align) {
  Core& c = cur();
  if (t.pos == TPosition::GM || t.pos >= TPosition::MAX)
    fail("param", api, loc, std::string("tensor has position ") + position_name(t.pos) + ", which is not on-chip memory");
  Mem m = mem_of(t.pos, *c.soc);
  if (c.soc->mem_size[static_cast<int>(m)] == 0)
    fail("param", api, loc, std::string(mem_name(m)) + " does not exist on " + c.soc->name);
  if (t.buf >= 0) {
    if (static_cast<size_t>(t.buf) >= c.bufs.size())
      fail("use-after-free", api, loc, "tensor refers to a buffer of a TPipe that was reset or destroyed");
    // released by FreeTensor or TPipe::Reset since: no fault on the chip, the race check judges it (stale_tensor.h)
    if (c.bufs[t.buf].gen != t.gen) note_stale_use(api, loc);
  } else if (t.len == 0 && t.addr == 0) {
    fail("param", api, loc,
         "LocalTensor was never bound to a buffer (AllocTensor, DeQue or TBuf::Get of a TBuf given InitBuffer)");
  }
  uint32_t need = align ? align : c.soc->mem_align[static_cast<int>(m)];
  if (t.addr % need != 0)
    fail("align", api, loc,
         std::string(mem_name(m)) + " address " + std::to_string(t.addr) + " is not " + std::to_string(need) +
             "-byte aligned (a tensor view like x[k] must start on a " + std::to_string(need) +
             "-byte boundary; choose k so k*sizeof(T) is a multiple of " + std::to_string(need) + ")");
  return mem_base(m);
}

void check_extent(const rt::LocalRef& t, uint64_t off, uint64_t bytes, bool write, const char* api, const Loc& loc) {
  Core& c = cur();
  const Mem m = mem_of(t.pos, *c.soc);
  const uint64_t start = static_cast<uint64_t>(t.addr) + off;
  const uint64_t mem_end = c.soc->mem_size[static_cast<int>(m)];
  if (start + bytes > mem_end) {
    if (t.buf >= 0 && !c.bufs[t.buf].past_end.empty())
      fail("ub-overflow", api, loc,
           std::string(write ? "writes " : "reads ") + range_str(m, start, bytes) + ", beyond the memory: " +
               c.bufs[t.buf].past_end);
    fail("ub-overflow", api, loc,
         std::string(write ? "writes " : "reads ") + range_str(m, start, bytes) + " beyond the " + fmt_bytes(mem_end) +
             " of " + mem_name(m) + " on " + c.soc->name +
             (t.buf >= 0 ? "; the count or repeat parameters exceed the tensor (size the buffer with InitBuffer or "
                           "reduce the count)"
                         : ""));
  }
  if (t.buf < 0) return;
  const Buffer& b = c.bufs[t.buf];
  const uint64_t limit = static_cast<uint64_t>(b.addr) + b.len;
  if (start + bytes > limit)
    note_buffer_overrun(api, loc,
                        std::string(write ? "writes " : "reads ") + range_str(m, start, bytes) +
                            " past the end of its buffer " + range_str(m, b.addr, b.len) + " by " +
                            fmt_bytes(start + bytes - limit));
}

uint8_t* touch(const rt::LocalRef& t, uint64_t off, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc) {
  const Mem m = mem_of(t.pos, *cur().soc);
  uint8_t* base = mem_base(m);
  const uint64_t start = static_cast<uint64_t>(t.addr) + off;
  if (bytes == 0) return base + start;
  check_extent(t, off, bytes, write, api, loc);
  touch_abs(m, static_cast<uint32_t>(start), bytes, write, p, api, loc);
  return base + start;
}

void touch_abs(Mem m, uint32_t addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc) {
  if (bytes == 0) return;
  Core& c = cur();
  Pool& pool = c.pools[static_cast<int>(m)];
  if (!pool.data) mem_base(m);
  if (static_cast<uint64_t>(addr) + bytes > pool.size)
    fail("ub-overflow", api, loc,
         std::string(write ? "writes " : "reads ") + range_str(m, addr, bytes) + " beyond the " +
             fmt_bytes(pool.size) + " of " + mem_name(m) + " on " + c.soc->name);
  check_and_record(c, m, addr, bytes, write, p, api, loc);
}

void touch_runs(const rt::LocalRef& t, const std::vector<std::pair<uint64_t, uint64_t>>& runs, bool write, Pipe p,
                const char* api, const Loc& loc) {
  Core& c = cur();
  const Mem m = mem_of(t.pos, *c.soc);
  mem_base(m);
  const Pool& pool = c.pools[static_cast<int>(m)];
  uint64_t limit = pool.size;
  if (t.buf >= 0) limit = std::min<uint64_t>(limit, static_cast<uint64_t>(c.bufs[t.buf].addr) + c.bufs[t.buf].len);
  // One pass when no count-form lane bookkeeping is on and every piece lies inside the tensor's buffer; otherwise
  // (a fault to report) each goes through touch() in turn, which reports it.
  bool batch = runs.size() > 1 && !c.lanes.operand;
  bool apart = true;   // in increasing order, none overlapping the one before
  std::vector<std::pair<uint32_t, uint32_t>> abs;
  if (batch) {
    abs.reserve(runs.size());
    for (const auto& [off, bytes] : runs) {
      const uint64_t a = static_cast<uint64_t>(t.addr) + off, b = a + bytes;
      // the same bytes again (a broadcast operand: block or repeat stride 0): checked and recorded just before with
      // the same clocks, so touching them again changes nothing and cannot fail where the first did not
      if (!abs.empty() && a == abs.back().first && b == abs.back().second) continue;
      if (bytes == 0 || b > limit) {
        batch = false;
        break;
      }
      if (!abs.empty() && a < abs.back().second) apart = false;
      abs.push_back({static_cast<uint32_t>(a), static_cast<uint32_t>(b)});
    }
  }
  if (batch && !apart) {
    // Overlapping reads (a broadcast operand whose blocks repeat with a shift): a read's checks do not depend on
    // other reads, and every byte read gets the same clock, so the union read at once is the same — when no piece
    // fails. Checked first without recording; if one would fail, piece after piece reports it exactly.
    batch = !write && reads_pass(c, m, union_of(abs), p);
    if (batch) abs = union_of(abs);
  }
  if (!batch) {
    for (const auto& [off, bytes] : runs) touch(t, off, bytes, write, p, api, loc);
    return;
  }
  check_and_record_runs(c, m, abs, write, p, api, loc);
}
}  // namespace kgen::sim

namespace kgen::rt {
namespace {
uint8_t* local_scalar(const LocalRef& t, uint64_t index, uint32_t elem, bool write, const char* api, Loc loc) {
  using namespace kgen::sim;
  uint8_t* base = resolve(t, api, loc, elem);
  (void)base;
  if (t.pos != TPosition::VECIN && t.pos != TPosition::VECOUT && t.pos != TPosition::VECCALC)
    fail("param", api, loc, std::string("GetValue/SetValue work on VECIN, VECCALC and VECOUT only, not ") + position_name(t.pos));
  issue(kS);
  Core& c = cur();
  // With the compiler's automatic synchronisation (on by default in op and kernel-launch projects, guide
  // "Scalar 读写数据"), scalar UB accesses wait for the other pipes and later instructions wait for them.
  if (c.auto_sync_scalar)
    for (int q = 0; q < kPipeCount; ++q) join(c.vc[kS], c.vc[q]);
  uint8_t* p = touch(t, index * elem, elem, write, kS, api, loc);
  if (c.auto_sync_scalar) join(c.scalar_waited, c.vc[kS]);
  trace_instr(kS, api, DType::Unknown, 1, elem, 1, loc);
  return p;
}
}  // namespace
void local_load(const LocalRef& t, uint64_t index, uint32_t elem, void* out, const char* api, Loc loc) {
  std::memcpy(out, local_scalar(t, index, elem, false, api, loc), elem);
  sim::note_value_read("LocalTensor::GetValue", loc);   // a timing-only run computed no on-chip values (timing.h)
}
void local_store(const LocalRef& t, uint64_t index, uint32_t elem, const void* in, const char* api, Loc loc) {
  std::memcpy(local_scalar(t, index, elem, true, api, loc), in, elem);
}
void local_check_view(const LocalRef& t, const char* api, Loc loc) { sim::resolve(t, api, loc); }
}  // namespace kgen::rt
