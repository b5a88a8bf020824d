// GM access history of the running launch, as spans of bytes with equal history: the last writer (core, pipe,
// clock, atomic or not) and the reader cores. Cores run one after another on the CPU, so an order between cores
// exists only through synchronisation: SyncAll, or CrossCoreSetFlag -> CrossCoreWaitFlag. Each core keeps a
// sparse vector clock of what it knows of the other cores (HbClock); two cores touching the same bytes, one of
// them writing, race unless the later one knows the earlier access.
#include "sim/gm_races.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>

#include "sim/gm.h"
#include "sim/launch.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
constexpr int32_t kNone = -1;
constexpr int kMaxReaders = 4;   // readers tracked one by one; beyond that "many", ordered only by a full SyncAll

struct Reader {
  int32_t core;
  uint8_t pipe;
  uint32_t clock;
  uint32_t rel;     // releases of `core` before the read (see Span::w_rel)
  bool operator==(const Reader& o) const { return core == o.core && pipe == o.pipe && clock == o.clock; }
  // Scalar reads of one core with no release between them are known by every other core together: a release
  // publishes the scalar unit's current clock (SyncAll, CrossCoreSetFlag), so only the latest clock matters.
  bool same_but_clock(const Reader& o) const { return core == o.core && pipe == o.pipe && pipe == kS && rel == o.rel; }
};

struct Span {
  uint64_t end;
  int32_t w_core = kNone;    // core id (core_gid)
  uint8_t w_pipe = kS;
  bool w_atomic = false;
  uint32_t w_clock = 0;      // 0: ordered with every pipe of its core (scalar writes under automatic sync)
  uint32_t w_xclock = 0;     // the writer pipe's clock, for other cores
  uint32_t w_line = 0;
  uint32_t w_rel = 0;        // how many times the writer core had released (SyncAll, CrossCoreSetFlag) before it
  const char* w_api = nullptr;
  uint8_t n_readers = 0;
  bool many = false;         // more readers than tracked, in full-SyncAll phase r_gen
  uint32_t r_gen = 0;        // full-SyncAll phase of the readers
  Reader readers[kMaxReaders] = {};
  // Equal history up to the clocks of scalar accesses that no release separates: other cores learn of those
  // accesses all at once, so the span can keep the latest clock. (A scalar loop over GM then stays one span;
  // without this, every element of it was a map node: index_add's 40M scalar accesses took 11 GB.)
  bool mergeable(const Span& o) const {
    if (!(w_core == o.w_core && w_pipe == o.w_pipe && w_atomic == o.w_atomic && w_clock == o.w_clock &&
          w_line == o.w_line && w_api == o.w_api && n_readers == o.n_readers && many == o.many && r_gen == o.r_gen))
      return false;
    if (w_xclock != o.w_xclock && !(w_core != kNone && w_pipe == kS && w_rel == o.w_rel)) return false;
    for (int i = 0; i < n_readers; ++i)
      if (!(readers[i] == o.readers[i]) && !readers[i].same_but_clock(o.readers[i])) return false;
    return true;
  }
  void merge_clocks(const Span& o) {   // after mergeable(o)
    w_xclock = std::max(w_xclock, o.w_xclock);
    for (int i = 0; i < n_readers; ++i) readers[i].clock = std::max(readers[i].clock, o.readers[i].clock);
  }
};

using SpanMap = std::map<uint64_t, Span>;
SpanMap& spans() {   // start -> span; untouched GM has no span
  static SpanMap m;
  return m;
}

// Where the last accesses ended: a kernel walks GM tile after tile, a few streams at a time (inputs, outputs), so
// the span before the next access is usually one of these and a lookup costs no walk down a tree of a million spans
// (a timing-only run at a real size: one span per tile). Each hint is a valid iterator of spans() (or end()) with
// the start of the span after it (`bound`), kept exact as spans are inserted (insert_span) and merged (coalescing
// moves a hint off a span it erases); a reset clears them. On relu at 4096 x 393216 (786,432 spans), 5.5 M lookups
// miss 14 times.
struct Hint {
  SpanMap::iterator it;
  uint64_t bound;   // the next span's start, or UINT64_MAX
};
struct Hints {
  static constexpr int kSlots = 4;
  Hint at[kSlots];
  int next_slot = 0;
  Hints() { clear(); }
  void clear() {
    for (auto& h : at) h = Hint{spans().end(), 0};
  }
  static uint64_t bound_after(SpanMap::iterator it) {
    auto n = std::next(it);
    return n == spans().end() ? UINT64_MAX : n->first;
  }
  // A span was inserted at `it` inside a hint's range: the hint moves onto it (its successor, the bound, is the same),
  // as a kernel's next access goes on from there.
  void inserted(SpanMap::iterator it) {
    for (auto& h : at)
      if (h.it != spans().end() && h.it->first < it->first && it->first < h.bound) h.it = it;
  }
  // Before `gone` is merged into `into`, its predecessor, and erased: hints on either are on `into`, whose next span
  // is then gone's.
  void merging(SpanMap::iterator into, SpanMap::iterator gone) {
    const uint64_t after = bound_after(gone);
    for (auto& h : at)
      if (h.it == gone || h.it == into) h = Hint{into, after};
  }
  void remember(SpanMap::iterator it) {
    for (auto& h : at)
      if (h.it == it) return;
    at[next_slot] = Hint{it, bound_after(it)};
    next_slot = (next_slot + 1) % kSlots;
  }
};
Hints& hints() {
  static Hints h;
  return h;
}

// The last span starting at or before `a` (end() when none), by a hint when one fits, else by a tree search.
SpanMap::iterator floor_span(SpanMap& m, uint64_t a) {
  for (const Hint& h : hints().at)
    if (h.it != m.end() && h.it->first <= a && a < h.bound) return h.it;
  auto it = m.upper_bound(a);
  return it == m.begin() ? m.end() : std::prev(it);
}

// The first span starting at or after `a`.
SpanMap::iterator lower_span(SpanMap& m, uint64_t a) {
  auto f = floor_span(m, a);
  if (f == m.end()) return m.begin();
  return f->first == a ? f : std::next(f);
}

// Inserts a span starting at `key` just before `pos` (its successor), keeping the hints exact.
SpanMap::iterator insert_span(SpanMap& m, SpanMap::iterator pos, uint64_t key, const Span& s) {
  auto it = m.emplace_hint(pos, key, s);
  hints().inserted(it);
  return it;
}

std::unordered_map<int32_t, HbClock>& knowledge() {   // core id -> what it knows of other cores
  static std::unordered_map<int32_t, HbClock> k;
  return k;
}

std::unordered_map<int32_t, uint32_t>& releases() {   // core id -> how many times it released
  static std::unordered_map<int32_t, uint32_t> r;
  return r;
}

// Whether core `me` knows that pipe `pipe` of core `other` reached `clock`.
bool knows(int32_t me, int32_t other, uint8_t pipe, uint32_t clock) {
  auto& k = knowledge();
  auto it = k.find(me);
  if (it == k.end()) return false;
  const HbClock& h = it->second;
  auto e = std::lower_bound(h.begin(), h.end(), other, [](const std::pair<int32_t, VClock>& a, int32_t b) { return a.first < b; });
  return e != h.end() && e->first == other && e->second[pipe] >= clock;
}

// Makes `at` a span boundary if a span covers it.
void split(SpanMap& m, uint64_t at) {
  auto it = floor_span(m, at);
  if (it == m.end() || it->first == at || it->second.end <= at) return;
  Span tail = it->second;
  it->second.end = at;
  insert_span(m, std::next(it), at, tail);
}

std::string where(uint64_t a, uint64_t b) {
  uint32_t id;
  uint64_t off;
  if (!gm_locate(a, id, off)) return "GM";
  return "GM buffer #" + std::to_string(id) + " bytes [" + std::to_string(off) + ", " + std::to_string(off + (b - a)) + ")";
}

const char* kCrossCoreHint =
    "; on the chip the cores run at the same time, so the result depends on timing: give each core a disjoint "
    "range (mind the tail core and 32-byte rounding), separate the phases with SyncAll, order the two cores with "
    "CrossCoreSetFlag (on the pipe that wrote) and CrossCoreWaitFlag, or use SetAtomicAdd";
}  // namespace

int32_t core_gid(const Core& c) { return c.block * 3 + (c.kind == CoreKind::AIC ? 0 : 1 + c.sub_block); }

void hb_join(HbClock& into, const HbClock& from) {
  HbClock out;
  out.reserve(into.size() + from.size());
  size_t i = 0, j = 0;
  while (i < into.size() || j < from.size()) {
    if (j == from.size() || (i < into.size() && into[i].first < from[j].first)) {
      out.push_back(into[i++]);
    } else if (i == into.size() || from[j].first < into[i].first) {
      out.push_back(from[j++]);
    } else {
      VClock v = into[i].second;
      join(v, from[j].second);
      out.emplace_back(into[i].first, v);
      ++i, ++j;
    }
  }
  into.swap(out);
}

HbClock hb_release(const Core& c, const VClock& own) {
  int32_t me = core_gid(c);
  ++releases()[me];
  auto& k = knowledge();
  auto it = k.find(me);
  HbClock t = it == k.end() ? HbClock{} : it->second;
  hb_join(t, HbClock{{me, own}});
  return t;
}

void hb_acquire(int32_t gid, const HbClock& t) { hb_join(knowledge()[gid], t); }

static bool g_written = false;

void gm_races_reset() {
  spans().clear();
  hints().clear();
  knowledge().clear();
  releases().clear();
  g_written = false;
}

bool gm_written() { return g_written; }

size_t gm_span_count() { return spans().size(); }

std::vector<bool> gm_written_elements(const void* addr, uint64_t elements, uint32_t elem_size) {
  std::vector<bool> w(elements, false);
  if (elem_size == 0 || elements == 0) return w;
  const uint64_t a = reinterpret_cast<uintptr_t>(addr), b = a + elements * elem_size;
  auto& m = spans();
  auto it = m.upper_bound(a);
  if (it != m.begin()) --it;
  for (; it != m.end() && it->first < b; ++it) {
    if (it->second.w_core == kNone || it->second.end <= a) continue;
    const uint64_t s = std::max(it->first, a), e = std::min(it->second.end, b);
    for (uint64_t k = (s - a) / elem_size; k < (e - a + elem_size - 1) / elem_size; ++k) w[k] = true;
  }
  return w;
}

bool gm_range_written(const void* addr, uint64_t bytes) {
  const uint64_t a = reinterpret_cast<uintptr_t>(addr), b = a + bytes;
  auto& m = spans();
  auto it = m.upper_bound(a);
  if (it != m.begin()) --it;
  for (; it != m.end() && it->first < b; ++it)
    if (it->second.w_core != kNone && it->second.end > a) return true;
  return false;
}

void gm_access(const void* addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc,
               const void* data) {
  if (bytes == 0) return;
  Core& c = cur();
  auto& m = spans();
  uint64_t a = reinterpret_cast<uintptr_t>(addr), b = a + bytes;
  bool atomic = write && c.atomic_op != 0;
  if (write) g_written = true;
  bool scalar_synced = p == kS && c.auto_sync_scalar;
  uint32_t gen = sync_epoch();
  int32_t me = core_gid(c);
  uint32_t rel = 0;
  if (auto r = releases().find(me); r != releases().end()) rel = r->second;
  split(m, a);
  split(m, b);
  // Check every span inside [a, b); gaps have no history.
  for (auto it = lower_span(m, a); it != m.end() && it->first < b; ++it) {
    const Span& s = it->second;
    uint64_t sa = it->first, sb = s.end;
    bool written = s.w_core != kNone;
    // The same bytes over another core's write: the order cannot show (only with values: a timing-only run has none).
    const bool same_bytes = write && data && !atomic && values_on() &&
                            std::memcmp(gm_data(reinterpret_cast<const void*>(sa)),
                                        static_cast<const uint8_t*>(data) + (sa - a), sb - sa) == 0;
    if (written && s.w_core != me && !(atomic && s.w_atomic) && !same_bytes &&
        !knows(me, s.w_core, s.w_pipe, s.w_xclock))
      fail("race", api, loc,
           core_label(me) + (write ? " writes " : " reads ") + where(sa, sb) + ", which " + core_label(s.w_core) +
               " wrote (" + (s.w_api ? s.w_api : "?") + " at line " + std::to_string(s.w_line) +
               ") with no SyncAll between them" + kCrossCoreHint);
    if (write) {
      for (int i = 0; i < s.n_readers; ++i) {
        const Reader& r = s.readers[i];
        if (r.core != me && !knows(me, r.core, r.pipe, r.clock))
          fail("race", api, loc,
               core_label(me) + " writes " + where(sa, sb) + ", which " + core_label(r.core) +
                   " read with no SyncAll between them" + kCrossCoreHint);
      }
      if (s.many && s.r_gen == gen)
        fail("race", api, loc,
             core_label(me) + " writes " + where(sa, sb) + ", which other cores read with no SyncAll between them" +
                 kCrossCoreHint);
    }
    if (written && s.w_core == me && s.w_pipe != p && s.w_clock > c.vc[p][s.w_pipe] && !scalar_synced) {
      Pipe w = static_cast<Pipe>(s.w_pipe);
      fail("race", api, loc,
           std::string("pipe ") + pipe_name(p) + (write ? " writes " : " reads ") + where(sa, sb) + ", which pipe " +
               pipe_name(w) + " of this core wrote (" + (s.w_api ? s.w_api : "?") + " at line " + std::to_string(s.w_line) +
               ") with no synchronisation between them; insert SetFlag/WaitFlag<HardEvent::" + pipe_name(w) + "_" +
               pipe_name(p) + "> (or PipeBarrier<PIPE_ALL>) between them");
    }
  }
  // Record: fill the gaps with fresh spans, then update every span of [a, b).
  uint64_t at = a;
  for (auto it = lower_span(m, a); at < b;) {
    uint64_t next = (it != m.end() && it->first < b) ? it->first : b;
    if (at < next) insert_span(m, it, at, Span{next});
    if (it == m.end() || it->first >= b) break;
    at = it->second.end;
    ++it;
  }
  for (auto it = lower_span(m, a); it != m.end() && it->first < b; ++it) {
    Span& s = it->second;
    if (write) {
      s.w_core = me;
      s.w_pipe = p;
      s.w_atomic = atomic;
      s.w_clock = scalar_synced ? 0 : c.clock[p];
      s.w_xclock = c.clock[p];
      s.w_line = loc.line();
      s.w_rel = rel;
      s.w_api = api;
      s.n_readers = 0;
      s.many = false;
      s.r_gen = gen;
    } else {
      if (s.r_gen != gen) {   // a SyncAll of every core ordered the earlier readers before everyone
        s.n_readers = 0;
        s.many = false;
        s.r_gen = gen;
      }
      if (s.many) continue;
      bool found = false;
      for (int i = 0; i < s.n_readers; ++i)
        if (s.readers[i].core == me && s.readers[i].pipe == p) {
          s.readers[i].clock = c.clock[p];
          s.readers[i].rel = rel;
          found = true;
        }
      if (found) continue;
      if (s.n_readers < kMaxReaders) {
        s.readers[s.n_readers++] = Reader{me, static_cast<uint8_t>(p), c.clock[p], rel};
      } else {
        s.many = true;
        s.n_readers = 0;
      }
    }
  }
  // Coalesce spans of equal history around [a, b) so tiles and scalar loops stay a few spans.
  auto it = lower_span(m, a);
  if (it != m.begin()) --it;
  while (it != m.end() && it->first <= b) {
    auto next = std::next(it);
    if (next != m.end() && it->second.end == next->first && it->second.mergeable(next->second)) {
      it->second.merge_clocks(next->second);
      it->second.end = next->second.end;
      hints().merging(it, next);
      m.erase(next);
    } else {
      it = next;
    }
  }
  hints().remember(floor_span(m, b - 1));   // the span holding the access's last byte: the next one starts there
}
}  // namespace kgen::sim
