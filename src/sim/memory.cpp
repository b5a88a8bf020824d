// On-chip memories of a core and the per-access checks: live buffer, alignment, bounds, initialisation, races.
#include <cstring>
#include <string>

#include "sim/core.h"

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

void report_write_race(Core& c, Mem m, uint32_t b, bool write, Pipe p, const char* api, const Loc& loc) {
  Pool& pool = c.pools[static_cast<int>(m)];
  Pipe w = static_cast<Pipe>(pool.w_pipe[b]);
  fail("race", api, loc,
       std::string("pipe ") + pipe_name(p) + (write ? " writes " : " reads ") + range_str(m, b * 32ull, 32) +
           ", which pipe " + pipe_name(w) + " wrote (" + (pool.w_api[b] ? pool.w_api[b] : "?") + " at line " +
           std::to_string(pool.w_line[b]) + ") with no synchronisation between them; " + sync_hint(w, p));
}

void check_races(Core& c, Mem m, uint32_t addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc) {
  Pool& pool = c.pools[static_cast<int>(m)];
  const VClock& know = c.vc[p];
  uint32_t b0 = addr / 32, b1 = static_cast<uint32_t>((addr + bytes - 1) / 32) + 1;
  // read-after-write / write-after-write: the last writer must be known to pipe p (always true for p itself)
  const uint32_t* wc = pool.w_clock.get();
  const uint8_t* wp = pool.w_pipe.get();
  bool bad = false;
  for (uint32_t b = b0; b < b1; ++b) bad |= wc[b] > know[wp[b]];
  if (bad)
    for (uint32_t b = b0; b < b1; ++b)
      if (wc[b] > know[wp[b]]) report_write_race(c, m, b, write, p, api, loc);
  if (!write) {
    uint32_t* rc = pool.r_clock[p].get();
    for (uint32_t b = b0; b < b1; ++b) rc[b] = c.clock[p];
    return;
  }
  // write-after-read: every other pipe's reads of these blocks must be known to p
  for (int q = 0; q < kPipeCount; ++q) {
    if (q == p) continue;
    const uint32_t* rc = pool.r_clock[q].get();
    uint32_t most = 0;
    for (uint32_t b = b0; b < b1; ++b) most = rc[b] > most ? rc[b] : most;
    if (most > know[q])
      fail("race", api, loc,
           std::string("pipe ") + pipe_name(p) + " overwrites " + range_str(m, b0 * 32ull, (b1 - b0) * 32ull) +
               " while pipe " + pipe_name(static_cast<Pipe>(q)) +
               " may still be reading it (no synchronisation since that read); " + sync_hint(static_cast<Pipe>(q), p));
  }
  uint32_t now = c.clock[p];
  uint32_t line = loc.line();
  for (uint32_t b = b0; b < b1; ++b) {
    pool.w_clock[b] = now;
    pool.w_pipe[b] = p;
    pool.w_line[b] = line;
    pool.w_api[b] = api;
  }
}
}  // namespace

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
  init.reset(new uint8_t[bytes]());
  uint32_t blocks = (bytes + 31) / 32;
  w_clock.reset(new uint32_t[blocks]());
  w_pipe.reset(new uint8_t[blocks]());
  w_line.reset(new uint32_t[blocks]());
  w_api.reset(new const char*[blocks]());
  for (auto& r : r_clock) r.reset(new uint32_t[blocks]());
}

uint8_t* mem_base(Mem m) {
  Core& c = cur();
  Pool& pool = c.pools[static_cast<int>(m)];
  if (!pool.data) pool.allocate(c.soc->mem_size[static_cast<int>(m)]);
  return pool.data.get();
}

void issue(Pipe p) {
  Core& c = cur();
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
    const Buffer& b = c.bufs[t.buf];
    if (b.gen != t.gen)
      fail("use-after-free", api, loc,
           std::string("tensor's ") + mem_name(m) + " buffer [" + std::to_string(b.addr) + ", " +
               std::to_string(b.addr + b.len) + ") was released by FreeTensor (or TPipe::Reset) before this use; "
               "AllocTensor/DeQue a live tensor instead");
  } else if (t.len == 0 && t.addr == 0) {
    fail("param", api, loc, "LocalTensor was never bound to a buffer (AllocTensor, DeQue or TBuf::Get)");
  }
  uint32_t need = align ? align : c.soc->mem_align[static_cast<int>(m)];
  if (t.addr % need != 0)
    fail("align", api, loc,
         std::string(mem_name(m)) + " address " + std::to_string(t.addr) + " is not " + std::to_string(need) +
             "-byte aligned (a tensor view like x[k] must start on a " + std::to_string(need) +
             "-byte boundary; choose k so k*sizeof(T) is a multiple of " + std::to_string(need) + ")");
  return mem_base(m);
}

uint8_t* touch(const rt::LocalRef& t, uint64_t off, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc) {
  Core& c = cur();
  Mem m = mem_of(t.pos, *c.soc);
  uint8_t* base = mem_base(m);
  uint64_t start = static_cast<uint64_t>(t.addr) + off;
  if (bytes == 0) return base + start;
  uint64_t limit = c.pools[static_cast<int>(m)].size;
  const char* what = "memory";
  if (t.buf >= 0) {
    const Buffer& b = c.bufs[t.buf];
    limit = static_cast<uint64_t>(b.addr) + b.len;
    what = "buffer";
  }
  if (start + bytes > limit) {
    uint64_t buf_start = t.buf >= 0 ? c.bufs[t.buf].addr : 0;
    fail("ub-overflow", api, loc,
         std::string(write ? "writes " : "reads ") + range_str(m, start, bytes) + " past the end of its " + what +
             " " + range_str(m, buf_start, limit - buf_start) + " by " + fmt_bytes(start + bytes - limit) +
             "; the count or repeat parameters exceed the tensor (size the buffer with InitBuffer or reduce the count)");
  }
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
  if (!write) {
    const void* hole = std::memchr(pool.init.get() + addr, 0, bytes);
    if (hole) {
      uint64_t at = static_cast<const uint8_t*>(hole) - pool.init.get();
      fail("uninit-read", api, loc,
           std::string("reads ") + range_str(m, addr, bytes) + " but byte " + std::to_string(at) +
               " was never written (UB starts with garbage); copy data in, Duplicate a value, or shrink the count");
    }
  }
  check_races(c, m, addr, bytes, write, p, api, loc);
  if (write) std::memset(pool.init.get() + addr, 1, bytes);
}
}  // namespace kgen::sim

namespace kgen::rt {
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
void local_check_view(const LocalRef& t, const char* api, Loc loc) { sim::resolve(t, api, loc); }
}  // namespace kgen::rt
