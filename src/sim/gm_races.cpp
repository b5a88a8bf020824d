// GM access history of the running launch, as spans of bytes with equal history: the last writer (core, pipe,
// clock, SyncAll phase, atomic or not) and the reader cores of the current phase. Cores run one after another
// on the CPU, so an order between cores exists only through SyncAll: two cores touching the same bytes in one
// phase, one of them writing, get a result that depends on timing on the chip.
#include "sim/gm_races.h"

#include <map>
#include <string>

#include "sim/gm.h"

namespace kgen::sim {
namespace {
constexpr int32_t kNone = -1, kMany = -2;

struct Span {
  uint64_t end;
  int32_t w_core = kNone;
  uint8_t w_pipe = kS;
  bool w_atomic = false;
  uint32_t w_clock = 0;      // 0: ordered with every pipe (scalar writes under automatic sync)
  uint32_t w_epoch = 0;
  uint32_t w_line = 0;
  const char* w_api = nullptr;
  int32_t r_core = kNone;    // reader core of phase r_epoch, or kMany
  uint32_t r_epoch = 0;
  bool same_history(const Span& o) const {
    return w_core == o.w_core && w_pipe == o.w_pipe && w_atomic == o.w_atomic && w_clock == o.w_clock &&
           w_epoch == o.w_epoch && w_line == o.w_line && w_api == o.w_api && r_core == o.r_core && r_epoch == o.r_epoch;
  }
};

std::map<uint64_t, Span>& spans() {   // start -> span; untouched GM has no span
  static std::map<uint64_t, Span> m;
  return m;
}

// Makes `at` a span boundary if a span covers it.
void split(std::map<uint64_t, Span>& m, uint64_t at) {
  auto it = m.upper_bound(at);
  if (it == m.begin()) return;
  --it;
  if (it->first == at || it->second.end <= at) return;
  Span tail = it->second;
  it->second.end = at;
  m.emplace(at, tail);
}

std::string where(uint64_t a, uint64_t b) {
  uint32_t id;
  uint64_t off;
  if (!gm_locate(a, id, off)) return "GM";
  return "GM buffer #" + std::to_string(id) + " bytes [" + std::to_string(off) + ", " + std::to_string(off + (b - a)) + ")";
}

const char* kCrossCoreHint =
    "; on the chip the cores run at the same time, so the result depends on timing: give each core a disjoint "
    "range (mind the tail core and 32-byte rounding), separate the phases with SyncAll, or use SetAtomicAdd";
}  // namespace

void gm_races_reset() { spans().clear(); }

void gm_access(const void* addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc) {
  if (bytes == 0) return;
  Core& c = cur();
  auto& m = spans();
  uint64_t a = reinterpret_cast<uintptr_t>(addr), b = a + bytes;
  uint32_t epoch = sync_epoch();
  int32_t me = c.block;
  bool atomic = write && c.atomic_op != 0;
  bool scalar_synced = p == kS && c.auto_sync_scalar;
  split(m, a);
  split(m, b);
  // Check every span inside [a, b); gaps have no history.
  for (auto it = m.lower_bound(a); it != m.end() && it->first < b; ++it) {
    const Span& s = it->second;
    uint64_t sa = it->first, sb = s.end;
    bool written = s.w_core != kNone;
    if (written && s.w_core != me && s.w_epoch == epoch && !(atomic && s.w_atomic))
      fail("race", api, loc,
           std::string("block ") + std::to_string(me) + (write ? " writes " : " reads ") + where(sa, sb) + ", which block " +
               std::to_string(s.w_core) + " wrote (" + (s.w_api ? s.w_api : "?") + " at line " + std::to_string(s.w_line) +
               ") with no SyncAll between them" + kCrossCoreHint);
    if (write && s.r_epoch == epoch && s.r_core != kNone && s.r_core != me)
      fail("race", api, loc,
           std::string("block ") + std::to_string(me) + " writes " + where(sa, sb) + ", which " +
               (s.r_core == kMany ? std::string("other blocks") : "block " + std::to_string(s.r_core)) +
               " read with no SyncAll between them" + kCrossCoreHint);
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
  for (auto it = m.lower_bound(a); at < b;) {
    uint64_t next = (it != m.end() && it->first < b) ? it->first : b;
    if (at < next) m.emplace(at, Span{next});
    if (it == m.end() || it->first >= b) break;
    at = it->second.end;
    ++it;
  }
  for (auto it = m.lower_bound(a); it != m.end() && it->first < b; ++it) {
    Span& s = it->second;
    if (write) {
      s.w_core = me;
      s.w_pipe = p;
      s.w_atomic = atomic;
      s.w_clock = scalar_synced ? 0 : c.clock[p];
      s.w_epoch = epoch;
      s.w_line = loc.line();
      s.w_api = api;
      s.r_core = kNone;
    } else if (s.r_epoch != epoch || s.r_core == kNone) {
      s.r_core = me;
      s.r_epoch = epoch;
    } else if (s.r_core != me) {
      s.r_core = kMany;
    }
  }
  // Coalesce spans of equal history around [a, b) so tiles and scalar loops stay a few spans.
  auto it = m.lower_bound(a);
  if (it != m.begin()) --it;
  while (it != m.end() && it->first <= b) {
    auto next = std::next(it);
    if (next != m.end() && it->second.end == next->first && it->second.same_history(next->second)) {
      it->second.end = next->second.end;
      m.erase(next);
    } else {
      it = next;
    }
  }
}
}  // namespace kgen::sim
