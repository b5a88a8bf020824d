// Global memory: allocations made by GmAlloc (or registered by the evaluator), bounds checks against them, and the
// raw-access guard (gm.h): two mappings per buffer, the visible one closed while a kernel runs.
#include <dlfcn.h>
#include <fcntl.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "sim/core.h"
#include "sim/gm.h"
#include "sim/gm_races.h"
#include "sim/launch.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
struct GmBlock {
  uint64_t size;
  uint32_t id;
  uint8_t* alias = nullptr;   // the emulator's mapping (GmAlloc buffers); nullptr: registered memory, no guard
  uint64_t mapped = 0;        // bytes mapped (whole pages)
  uint64_t reach = 0;         // bytes a kernel may touch when above size: the device allocator's rounding
  bool open = false;          // never closed (tiling data)
  bool closed = false;
  bool no_data = false;       // a timing-only run's tensor given by shape: never read or written (sim/timing.h)
  bool reserved = false;      // gm_reserve: address space only (always PROT_NONE, no alias)
  std::string label;
};
uint32_t g_next_id = 0;
std::map<uintptr_t, GmBlock>& blocks() {
  static std::map<uintptr_t, GmBlock> m;
  return m;
}

std::string where(const void* addr) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", addr);
  return buf;
}

// "N-byte buffer", with the allocation's size when the device allocator's rounding made it larger.
std::string buffer_desc(const GmBlock& b, const char* noun) {
  std::string s = std::to_string(b.size) + "-byte " + noun;
  if (b.reach > b.size)
    s += " (" + std::to_string(b.reach) + " bytes allocated: the device allocator rounds to 512)";
  return s;
}

GmBlock* block_of(const void* addr, uintptr_t& base) {
  auto& m = blocks();
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  auto it = m.upper_bound(a);
  if (it == m.begin()) return nullptr;
  --it;
  base = it->first;
  if (a >= base + std::max<uint64_t>(it->second.size, it->second.mapped) + (it->second.size == 0)) return nullptr;
  return &it->second;
}

// ---- the fault handler: plain data only (it runs in a signal handler) -----------------------------------------------
struct Closed {
  uintptr_t lo, hi;          // the buffer's pages with their guard pages
  uintptr_t base, size;      // the buffer itself
  uint32_t id;
  char label[64];
};
constexpr int kMaxClosed = 4096;
Closed g_closed[kMaxClosed];
int g_nclosed = 0;
bool g_handler = false;
char g_msg[2048];

void put(char*& p, const char* end, const char* s) {
  while (*s && p < end) *p++ = *s++;
}
void put_num(char*& p, const char* end, uint64_t v, int base = 10) {
  char t[24];
  int n = 0;
  do t[n++] = "0123456789abcdef"[v % base], v /= base; while (v);
  while (n && p < end) *p++ = t[--n];
}

// file:line of `pc` in `so` by addr2line (the kernel is built with -g1); empty when it cannot tell.
void addr2line(const char* so, uintptr_t off, char* out, size_t cap) {
  out[0] = 0;
  int fd[2];
  if (pipe(fd) != 0) return;
  char hex[24], *h = hex;
  put(h, hex + 20, "0x");
  put_num(h, hex + 20, off, 16);
  *h = 0;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    int null = open("/dev/null", 1);
    if (null >= 0) dup2(null, 2);
    const char* argv[] = {"/usr/bin/addr2line", "-e", so, hex, nullptr};
    execv(argv[0], const_cast<char* const*>(argv));
    _exit(127);
  }
  close(fd[1]);
  size_t n = 0;
  for (ssize_t k; n + 1 < cap && (k = read(fd[0], out + n, cap - 1 - n)) > 0;) n += static_cast<size_t>(k);
  close(fd[0]);
  int st;
  if (pid > 0) waitpid(pid, &st, 0);
  out[n] = 0;
  for (size_t i = 0; i < n; ++i)
    if (out[i] == '\n' || out[i] == ' ') { out[i] = 0; break; }
  const size_t len = std::strlen(out);   // "??:0", "file:0" or "file:?": no line known
  if (out[0] == '?' || (len >= 2 && out[len - 2] == ':' && (out[len - 1] == '0' || out[len - 1] == '?'))) out[0] = 0;
}

bool system_object(const char* f) {
  static const char* skip[] = {"libc.so", "libstdc++", "libgcc", "libkgen_sim", "linux-vdso", "libm.so", "ld-linux"};
  if (!f) return true;
  for (const char* s : skip)
    if (std::strstr(f, s)) return true;
  return false;
}

// A scalar read of GM through a plain pointer by the kernel's own code, let through once (on_fault -> on_trap).
struct Step {
  bool active = false;
  uintptr_t page = 0, len = 0;   // the pages opened for the one instruction
  uintptr_t addr = 0;
  uint64_t bytes = 0;
  uint32_t line = 0;
  char where[256] = {0};         // "file:line" of the read in the kernel's source
};
Step g_step;
constexpr uintptr_t kTrapFlag = 0x100;   // x86-64 EFLAGS.TF: a debug trap after the next instruction
constexpr const char* kRawReadApi = "GM scalar read through a pointer";

// addr2line of recent read sites, so that a loop of reads forks addr2line once per line.
struct LineCache {
  uintptr_t pc = 0;
  char line[256] = {0};
};
LineCache g_lines[32];
int g_next_line = 0;
const char* cached_line(const char* so, uintptr_t pc, uintptr_t off) {
  for (const LineCache& l : g_lines)
    if (l.pc == pc && l.line[0]) return l.line;
  LineCache& l = g_lines[g_next_line++ % 32];
  l.pc = pc;
  addr2line(so, off, l.line, sizeof l.line);
  return l.line;
}

// The accounting of a read let through: a traced scalar GM load as GlobalTensor::GetValue makes one (issued on the
// S pipe, race-checked against other cores' and pipes' writes). Returns "" or the error line, with the read's
// source line in place of this file's.
std::string account_raw_read() {
  try {
    issue(kS);
    const void* a = reinterpret_cast<const void*>(g_step.addr);
    gm_access(a, g_step.bytes, false, kS, kRawReadApi, Loc::current());
    TraceRec& r = trace_instr(kS, kRawReadApi, DType::Unknown, 1, g_step.bytes, 1, Loc::current());
    r.gm = g_step.addr;
    r.line = g_step.line;
    if (!gm_has_values(a)) note_value_read(kRawReadApi, Loc::current());
  } catch (const SimError& e) {
    std::string line = e.line;
    const size_t at = line.find("] gm.cpp:");
    if (at != std::string::npos && g_step.where[0]) {
      const size_t end = line.find(' ', at + 2);
      const char* base = std::strrchr(g_step.where, '/');
      line = line.substr(0, at + 2) + (base ? base + 1 : g_step.where) + line.substr(end);
    }
    return line;
  }
  return "";
}

void on_trap(int, siginfo_t*, void* ucv) {
  auto* uc = static_cast<ucontext_t*>(ucv);
  if (!g_step.active) {   // not a step of ours: the default action
    signal(SIGTRAP, SIG_DFL);
    return;
  }
  mprotect(reinterpret_cast<void*>(g_step.page), g_step.len, PROT_NONE);
  uc->uc_mcontext.gregs[REG_EFL] &= ~static_cast<greg_t>(kTrapFlag);
  g_step.active = false;
  const std::string err = account_raw_read();
  if (err.empty()) return;
  (void)!::write(2, err.data(), err.size());
  (void)!::write(2, "\n", 1);
  _exit(kSimErrorExit);
}

void on_fault(int sig, siginfo_t* si, void* ucv) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(si->si_addr);
  const Closed* hit = nullptr;
  for (int i = 0; i < g_nclosed && !hit; ++i)
    if (a >= g_closed[i].lo && a < g_closed[i].hi) hit = &g_closed[i];
  if (!hit) {   // an ordinary crash: the default action, as if no handler were installed
    signal(sig, SIG_DFL);
    return;
  }
  auto* uc = static_cast<ucontext_t*>(ucv);
  const bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  // The first frame outside libc and the emulator: the candidate's code (a memcpy of GM is its call).
  void* frames[64];
  int nf = backtrace(frames, 64);
  uintptr_t pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  Dl_info di{};
  bool own = dladdr(reinterpret_cast<void*>(pc), &di) && !system_object(di.dli_fname);
  // A read by an instruction of the kernel's own code inside the buffer: the chip's scalar unit loads GM so
  // (NPUKernelBench's Fill reads its fill value through a pointer). The page opens for that one instruction, the
  // trap flag stops right after it (on_trap), and the read is accounted as a scalar GM load. Writes, reads past the
  // buffer and reads by library code (a memcpy of GM) stay errors.
  if (own && !write && !g_step.active && a >= hit->base && a < hit->base + hit->size && cur_or_null() &&
      di.dli_fname && di.dli_fbase) {
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    g_step.addr = a;
    g_step.bytes = std::min<uint64_t>(8, hit->base + hit->size - a);
    g_step.page = a / page * page;
    g_step.len = (a + g_step.bytes + page - 1) / page * page - g_step.page;
    const char* where = cached_line(di.dli_fname, pc, pc - reinterpret_cast<uintptr_t>(di.dli_fbase));
    if (where[0]) std::snprintf(g_step.where, sizeof g_step.where, "%s", where);
    else   // no line tables: the function, as the raw-gm-access error names it
      std::snprintf(g_step.where, sizeof g_step.where, "%s:0", di.dli_sname ? di.dli_sname : "kernel");
    const char* colon = std::strrchr(where, ':');
    g_step.line = colon ? static_cast<uint32_t>(std::strtoul(colon + 1, nullptr, 10)) : 0;
    if (mprotect(reinterpret_cast<void*>(g_step.page), g_step.len, PROT_READ) == 0) {
      g_step.active = true;
      uc->uc_mcontext.gregs[REG_EFL] |= static_cast<greg_t>(kTrapFlag);
      return;
    }
  }
  for (int i = 0; i < nf && !own; ++i) {
    Dl_info d{};
    if (dladdr(frames[i], &d) && !system_object(d.dli_fname) && d.dli_fbase) {
      di = d;
      pc = reinterpret_cast<uintptr_t>(frames[i]) - 1;
      own = true;
    }
  }
  const bool in_emulator = !own && dladdr(reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]), &di) &&
                           di.dli_fname && std::strstr(di.dli_fname, "libkgen_sim");
  char line[512] = {0};
  if (own && di.dli_fname && di.dli_fbase)
    addr2line(di.dli_fname, pc - reinterpret_cast<uintptr_t>(di.dli_fbase), line, sizeof line);
  char* p = g_msg;
  const char* end = g_msg + sizeof g_msg - 2;
  if (in_emulator) {
    put(p, end, "error[internal] the emulator touched GM buffer ");
    put(p, end, hit->label);
    put(p, end, " through its closed mapping (a kgen bug: report it)");
  } else {
    put(p, end, "error[raw-gm-access] ");
    if (line[0]) {
      const char* base = std::strrchr(line, '/');
      put(p, end, base ? base + 1 : line);
    } else {
      put(p, end, own && di.dli_sname ? di.dli_sname : "kernel");
      put(p, end, ":0");
    }
    Core* c = cur_or_null();
    if (c) {
      put(p, end, " block ");
      put_num(p, end, static_cast<uint64_t>(c->block));
    }
    put(p, end, write ? " GM: writes " : " GM: reads ");
    put(p, end, hit->label);
    if (a < hit->base) {
      put(p, end, " (");
      put_num(p, end, hit->base - a);
      put(p, end, " bytes before its start)");
    } else if (a >= hit->base + hit->size) {
      put(p, end, " (");
      put_num(p, end, a - hit->base - hit->size);
      put(p, end, " bytes past its end)");
    } else {
      put(p, end, " (byte ");
      put_num(p, end, a - hit->base);
      put(p, end, ")");
    }
    put(p, end, " through a plain pointer, outside the AscendC API: no pipe instruction is traced, timed or "
                "race-checked for it, and the chip's scalar unit would pay for every element — move data with "
                "DataCopy (GlobalTensor::GetValue/SetValue for single elements)");
  }
  *p++ = '\n';
  (void)!::write(2, g_msg, static_cast<size_t>(p - g_msg));
  _exit(kSimErrorExit);
}

void install_handler() {
  if (g_handler) return;
  g_handler = true;
  static char altstack[1 << 16];
  stack_t ss{};
  ss.ss_sp = altstack;
  ss.ss_size = sizeof altstack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, nullptr);
  sigaction(SIGBUS, &sa, nullptr);
  struct sigaction st{};
  st.sa_sigaction = on_trap;
  st.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&st.sa_mask);
  sigaction(SIGTRAP, &st, nullptr);
  void* warm[1];
  backtrace(warm, 1);   // loads libgcc's unwinder now, not inside the handler
}
}  // namespace

void gm_register(void* ptr, uint64_t size) {
  GmBlock b;
  b.size = size;
  b.id = g_next_id++;
  blocks()[reinterpret_cast<uintptr_t>(ptr)] = b;
}

bool gm_locate(uint64_t addr, uint32_t& id, uint64_t& offset) {
  auto& m = blocks();
  auto it = m.upper_bound(static_cast<uintptr_t>(addr));
  if (it == m.begin()) return false;
  --it;
  if (addr >= it->first + it->second.size + (it->second.size == 0)) return false;
  id = it->second.id;
  offset = addr - it->first;
  return true;
}
void gm_set_granule(const void* ptr, uint64_t granule) {
  auto& m = blocks();
  auto it = m.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == m.end() || granule == 0) return;
  GmBlock& b = it->second;
  uint64_t reach = std::max<uint64_t>(granule, (b.size + granule - 1) / granule * granule);
  if (b.alias || b.reserved) reach = std::min(reach, b.mapped);
  if (reach <= b.size) return;
  if (b.alias) std::memset(b.alias + b.size, 0xFF, reach - b.size);   // not the data of any tensor
  b.reach = reach;
}
uint64_t gm_tensor_bytes(const void* addr, uint64_t bytes) {
  uintptr_t base = 0;
  const GmBlock* b = block_of(addr, base);
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (!b || a >= base + b->size) return b ? 0 : bytes;
  return std::min<uint64_t>(bytes, base + b->size - a);
}
// Numbering restarts once every numbered buffer is gone, so each run of a process names its buffers alike (traces
// compare); process-lifetime buffers (gm_register_fixed) keep ids of their own.
namespace {
constexpr uint32_t kFixedIds = 0xFFFF0000u;
void renumber_when_empty() {
  for (const auto& [base, b] : blocks())
    if (b.id < kFixedIds) return;
  g_next_id = 0;
}
}  // namespace
void gm_unregister(void* ptr) {
  blocks().erase(reinterpret_cast<uintptr_t>(ptr));
  renumber_when_empty();
}
void gm_register_fixed(void* ptr, uint64_t size, uint32_t id) {
  GmBlock b;
  b.size = size;
  b.id = kFixedIds + id;
  blocks()[reinterpret_cast<uintptr_t>(ptr)] = b;
}

bool gm_find(const void* addr, uintptr_t& base, uint64_t& size) {
  auto& m = blocks();
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  auto it = m.upper_bound(a);
  if (it == m.begin()) return false;
  --it;
  base = it->first;
  size = it->second.size;
  return a >= base && a < base + size + (size == 0);
}

uint8_t* gm_data(const void* addr) {
  uintptr_t base;
  GmBlock* b = block_of(addr, base);
  if (!b || !b->alias) return static_cast<uint8_t*>(const_cast<void*>(addr));
  return b->alias + (reinterpret_cast<uintptr_t>(addr) - base);
}

void gm_set_label(const void* ptr, const char* label) {
  uintptr_t base;
  if (GmBlock* b = block_of(ptr, base)) b->label = label;
}
void gm_set_open(const void* ptr, bool open) {
  uintptr_t base;
  if (GmBlock* b = block_of(ptr, base)) b->open = open;
}
bool gm_has_values(const void* addr) {
  uintptr_t base;
  const GmBlock* b = block_of(addr, base);
  return !b || !b->no_data;
}
void* gm_reserve(uint64_t size) {
  // Whole pages with a guard page on each side, like GmAlloc, but never backed: PROT_NONE and no alias, so neither
  // the kernel nor the emulator can touch it and it costs neither memory nor the file-size limit of a memfd.
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t mapped = (std::max<uint64_t>(size, 1) + page - 1) / page * page;
  void* region = mmap(nullptr, mapped + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) return nullptr;
  uint8_t* p = static_cast<uint8_t*>(region) + page;
  gm_register(p, size);
  GmBlock& b = blocks()[reinterpret_cast<uintptr_t>(p)];
  b.mapped = mapped;
  b.reserved = true;
  b.no_data = true;
  return p;
}

bool& guard_on() {
  static bool on = [] {
    const char* e = std::getenv("KGEN_GM_GUARD");
    return e && std::string(e) == "1";
  }();
  return on;
}
void gm_guard(bool on) { guard_on() = on; }

void gm_protect(bool on) {
  if (on && !guard_on()) return;
  if (on) install_handler();
  g_nclosed = 0;
  for (auto& [base, b] : blocks()) {
    if (!b.alias && !b.reserved) continue;
    const bool close_it = on && !b.open;
    if (b.alias && close_it != b.closed)   // a reservation is never open
      mprotect(reinterpret_cast<void*>(base), b.mapped, close_it ? PROT_NONE : PROT_READ | PROT_WRITE);
    b.closed = close_it;
    if (close_it && g_nclosed < kMaxClosed) {
      const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
      Closed& c = g_closed[g_nclosed++];
      c.lo = base - page;
      c.hi = base + b.mapped + page;
      c.base = base;
      c.size = b.size;
      c.id = b.id;
      std::string l = b.label.empty() ? "GM buffer #" + std::to_string(b.id) + " (" + std::to_string(b.size) + " bytes)"
                                      : b.label;
      std::snprintf(c.label, sizeof c.label, "%s", l.c_str());
    }
  }
}

void gm_check_range(const void* addr, uint64_t bytes, bool write, const char* api, const Loc& loc) {
  if (bytes == 0) return;
  uintptr_t base = 0;
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const GmBlock* blk = block_of(addr, base);
  const uint64_t size = blk ? std::max(blk->size, blk->reach) : 0;   // what the allocation really holds
  if (!blk || a >= base + size + (size == 0)) {
    if (addr == nullptr)
      fail("gm-out-of-bounds", api, loc, std::string(write ? "writes" : "reads") + " through a null GM address (SetGlobalBuffer was not called, or the argument is null)");
    // Just past the end of a buffer (within one buffer length): most likely an offset or tail error.
    auto& m = blocks();
    auto it = m.upper_bound(a);
    if (it != m.begin()) {
      --it;
      uint64_t past = a - (it->first + it->second.size);
      if (past < it->second.size || past < 4096)
        fail("gm-out-of-bounds", api, loc,
             std::string(write ? "writes " : "reads ") + fmt_bytes(bytes) + " starting " + std::to_string(past) +
                 " bytes past the end of a " + buffer_desc(it->second, "GM buffer") + " (byte offset " +
                 std::to_string(a - it->first) +
                 " of it); check the block offset and tail length");
    }
    fail("gm-out-of-bounds", api, loc,
         std::string(write ? "writes " : "reads ") + fmt_bytes(bytes) + " at " + where(addr) +
             ", which is not inside any GM buffer (allocate GM with GmAlloc; check the offset arithmetic)");
  }
  if (a + bytes > base + size) {
    uint64_t off = a - base;
    const std::string what = buffer_desc(*blk, "buffer");
    fail("gm-out-of-bounds", api, loc,
         std::string(write ? "writes" : "reads") + " GM bytes [" + std::to_string(off) + ", " +
             std::to_string(off + bytes) + ") of a " + what + ": " + std::to_string(a + bytes - base - size) +
             " bytes past its end (check the block offset and tail length)");
  }
}
}  // namespace kgen::sim

namespace kgen::rt {
void gm_check(const void* addr, uint64_t bytes, bool write, const char* api, Loc loc) {
  sim::gm_check_range(addr, bytes, write, api, loc);
}

namespace {
// `in`: the bytes a store writes (the GM race check lets the same bytes over another core's write pass).
uint8_t* gm_scalar(const void* addr, uint32_t elem, bool write, const char* api, Loc loc, const void* in = nullptr) {
  using namespace kgen::sim;
  gm_check_range(addr, elem, write, api, loc);
  issue(kS);
  gm_access(addr, elem, write, kS, api, loc, in);
  trace_instr(kS, write ? "GlobalTensor::SetValue" : "GlobalTensor::GetValue", DType::Unknown, 1, elem, 1, loc).gm =
      reinterpret_cast<uintptr_t>(addr);
  return gm_data(addr);
}
}  // namespace
void gm_load(const void* addr, uint32_t elem, void* out, const char* api, Loc loc) {
  uint8_t* p = gm_scalar(addr, elem, false, api, loc);
  if (sim::gm_has_values(addr)) {
    std::memcpy(out, p, elem);
  } else {   // a timing-only run's tensor: no value to read
    std::memset(out, 0, elem);
    sim::note_value_read("GlobalTensor::GetValue", loc);
  }
}
void gm_store(void* addr, uint32_t elem, const void* in, const char* api, Loc loc) {
  uint8_t* p = gm_scalar(addr, elem, true, api, loc, in);
  if (sim::gm_has_values(addr)) std::memcpy(p, in, elem);
}

void tiling_copy(void* dst, const void* gm, uint32_t bytes, Loc loc) {
  sim::gm_check_range(gm, bytes, false, "GET_TILING_DATA", loc);
  std::memcpy(dst, sim::gm_data(gm), bytes);
}
}  // namespace kgen::rt

namespace AscendC {
void* GmAlloc(size_t size) {
  // Whole pages, zero-filled like CANN's shared-memory GM files (and 512-byte aligned like device allocations);
  // one memfd mapped twice: the address handed out, and the emulator's alias (gm.h).
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t mapped = (std::max<size_t>(size, 1) + page - 1) / page * page;
  int fd = memfd_create("kgen-gm", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  if (ftruncate(fd, static_cast<off_t>(mapped)) != 0) {
    close(fd);
    return nullptr;
  }
  // A guard page before and after (always PROT_NONE): a plain pointer that runs off the buffer faults instead of
  // landing in a neighbour's alias.
  void* region = mmap(nullptr, mapped + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  void* p = region == MAP_FAILED ? MAP_FAILED
                                 : mmap(static_cast<uint8_t*>(region) + page, mapped, PROT_READ | PROT_WRITE,
                                        MAP_SHARED | MAP_FIXED, fd, 0);
  void* alias = p == MAP_FAILED ? MAP_FAILED : mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED || alias == MAP_FAILED) {
    if (region != MAP_FAILED) munmap(region, mapped + 2 * page);
    return nullptr;
  }
  kgen::sim::gm_register(p, size);
  auto& b = kgen::sim::blocks()[reinterpret_cast<uintptr_t>(p)];
  b.alias = static_cast<uint8_t*>(alias);
  b.mapped = mapped;
  return p;
}
void GmFree(void* ptr) {
  if (!ptr) return;
  auto& m = kgen::sim::blocks();
  auto it = m.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == m.end()) return;
  if (it->second.reserved) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    munmap(static_cast<uint8_t*>(ptr) - page, it->second.mapped + 2 * page);
  } else if (it->second.alias) {   // registered memory (not GmAlloc's) belongs to whoever registered it
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    munmap(static_cast<uint8_t*>(ptr) - page, it->second.mapped + 2 * page);
    munmap(it->second.alias, it->second.mapped);
  }
  m.erase(it);
  kgen::sim::renumber_when_empty();
}
}  // namespace AscendC
