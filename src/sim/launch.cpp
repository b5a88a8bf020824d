// ICPU_RUN_KF: runs blockDim blocks as coroutine cores on one thread, in block order, switching only when a
// core blocks (SyncAll, CrossCoreWaitFlag). A block is one AIV, one AIC, or a MIX group (1 AIC + 1 or 2 AIVs)
// by kernel type. Deterministic; cores that meet at a barrier are all resident at once, as on the chip.
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/huge_pages.h"
#include "sim/core.h"
#include "sim/gm_races.h"
#include "sim/launch.h"
#include "sim/trace_io.h"
#include "sim/gm.h"
#include "sim/int_div_trap.h"
#include "sim/buffer_overrun.h"
#include "sim/double_set_flag.h"
#include "sim/stale_tensor.h"
#include "perf/report.h"

int8_t g_coreType = AscendC::AIV;

namespace kgen::sim {
namespace {
constexpr size_t kStackBytes = 16u << 20;   // reserved, not committed: only touched pages cost memory
constexpr size_t kGuard = 64u << 10;

enum class Wait : uint8_t { None, SyncAll, Flag };

struct Fiber {
  ucontext_t ctx;
  void* stack = nullptr;
  std::unique_ptr<Core> core;
  int32_t gid = 0;
  bool started = false;
  enum St { Ready, Blocked, Done } st = Ready;
  Wait wait = Wait::None;
  int bar = 0;              // the SyncAll barrier it waits in
  uint32_t sync_line = 0;
  const char* sync_file = nullptr;
  const char* wait_api = nullptr;
  std::string wait_what;
  std::string first_error;   // the error this core is unwinding from (note_core_error)
};

// What kind of cores a launch runs and why.
struct Config {
  Layout layout = Layout::AIV;
  int type = -1;          // KernelMetaType, -1: not declared by anyone
  bool declared = false;  // by the kernel (KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE), not the host
  bool keyed = false;     // by KERNEL_TASK_TYPE for the launch's tiling key (wins over the default)
};

struct RestartLaunch {};

struct Launch {
  const char* kernel;
  uint32_t block_dim;
  const Soc* soc;
  void (*thunk)(void*);
  void* arg;
  const char* host_file = nullptr;
  uint32_t host_line = 0;
  Config cfg;
  ucontext_t sched;
  std::vector<std::unique_ptr<Fiber>> active;
  Fiber* running = nullptr;
  // the SyncAll barriers in progress: [0] every core, [1] the AIVs of a MIX kernel (SyncAll<true>)
  struct Barrier {
    uint32_t arrived = 0;
    HbClock token;
  } bar[2];
  uint32_t generation = 0;   // SyncAlls that every core of the launch took part in
  uint32_t barriers = 0;     // all SyncAlls
  bool restart = false;
  Config restart_cfg;
  std::string error;
  LaunchTrace trace;
};

Launch* g_launch = nullptr;
}  // namespace
std::unique_ptr<Core> make_core(const Soc& soc, int32_t block, int32_t block_num);
namespace {
std::vector<void*> g_stacks;
LaunchTrace g_last;
uint64_t g_tiling_key = 0;
bool g_throw = false;
int g_launch_count = 0;
bool g_host_mode_set = false;
AscendC::KernelMode g_host_mode = AscendC::KernelMode::MIX_MODE;
// What each kernel declared in earlier launches (per tiling key), so that later launches start in that type.
std::map<std::pair<std::string, uint64_t>, Config> g_type_cache;

uint32_t aic_per_block(Layout l) { return l == Layout::AIV ? 0 : 1; }
uint32_t aiv_per_block(Layout l) { return l == Layout::MIX_1_2 ? 2 : l == Layout::AIC ? 0 : 1; }
uint32_t cores_per_block(Layout l) { return aic_per_block(l) + aiv_per_block(l); }
bool is_mix(Layout l) { return l == Layout::MIX_1_1 || l == Layout::MIX_1_2; }
// Groups that can be resident at once: SyncAll and cross-core flags of mode 0 need every block resident.
uint32_t physical_blocks(Layout l, const Soc& soc) { return l == Layout::AIV ? soc.aiv_cores : soc.aic_cores; }

const char* type_name(int t) {
  static const char* n[] = {"KERNEL_TYPE_AIV_ONLY", "KERNEL_TYPE_AIC_ONLY", "KERNEL_TYPE_MIX_AIV_1_0",
                            "KERNEL_TYPE_MIX_AIC_1_0", "KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2",
                            "KERNEL_TYPE_AICORE", "KERNEL_TYPE_VECTORCORE", "KERNEL_TYPE_MIX_AICORE",
                            "KERNEL_TYPE_MIX_VECTOR_CORE"};
  return t >= 0 && t < 10 ? n[t] : "an unknown kernel type";
}

// Another architecture's kernel type: CANN's op build looks the type up in the table of the target's architecture
// only (adapter/kernel_info_infer.py get_kernel_type_enum) and finds none, so the declaration is ignored and the type
// comes from the code (NPUKernelBench's GeGluV2 declares KERNEL_TYPE_MIX_VECTOR_CORE and runs on 910B). Said once.
Layout ignored_type(int type, const Soc& soc, const char* api, const Loc& loc) {
  static std::atomic<bool> said{false};
  if (!said.exchange(true))
    std::fprintf(stderr,
                 "warning[kernel-type] %s:%u %s: %s is a kernel type of %s; CANN's build for %s ignores it and takes "
                 "the type from the code (here: vector cores)\n",
                 loc.file_name(), loc.line(), api, type_name(type),
                 soc.arch == 2002 ? "the split architecture (Atlas A2/A3)" : "the Atlas inference series (310P)",
                 soc.name);
  return Layout::AIV;
}

// The cores per block a kernel type runs on `soc`; fails (param) for types CANN does not support.
Layout layout_for(int type, const Soc& soc, const char* api, const Loc& loc) {
  bool coupled = soc.arch == 2002;
  switch (type) {
    case KERNEL_TYPE_AIV_ONLY:
    case KERNEL_TYPE_MIX_AIV_1_0:
    case KERNEL_TYPE_AIC_ONLY:
    case KERNEL_TYPE_MIX_AIC_1_0:
    case KERNEL_TYPE_MIX_AIC_1_1:
    case KERNEL_TYPE_MIX_AIC_1_2:
      if (coupled) return ignored_type(type, soc, api, loc);
      if (type == KERNEL_TYPE_AIV_ONLY || type == KERNEL_TYPE_MIX_AIV_1_0) return Layout::AIV;
      if (type == KERNEL_TYPE_AIC_ONLY || type == KERNEL_TYPE_MIX_AIC_1_0) return Layout::AIC;
      return type == KERNEL_TYPE_MIX_AIC_1_1 ? Layout::MIX_1_1 : Layout::MIX_1_2;
    case KERNEL_TYPE_AICORE:
    case KERNEL_TYPE_MIX_VECTOR_CORE:
      if (!coupled) return ignored_type(type, soc, api, loc);
      return Layout::AIV;
    case KERNEL_TYPE_VECTORCORE:
    case KERNEL_TYPE_MIX_AICORE:
      if (!coupled) return ignored_type(type, soc, api, loc);
      fail("param", api, loc, std::string(type_name(type)) + " is reserved and not supported by CANN");
    default:
      fail("param", api, loc,
           "kernel type " + std::to_string(type) + " is not a KernelMetaType value (KERNEL_TYPE_AIV_ONLY .. "
           "KERNEL_TYPE_MIX_VECTOR_CORE)");
  }
}

Config initial_config(const char* kernel, const Soc& soc) {
  auto it = g_type_cache.find({kernel, g_tiling_key});
  if (it != g_type_cache.end()) return it->second;
  Config c;
  if (soc.arch == 2002 || !g_host_mode_set) return c;   // default: vector cores only (CANN's default is MIX_MODE)
  switch (g_host_mode) {
    case AscendC::KernelMode::AIV_MODE: c.layout = Layout::AIV; break;
    case AscendC::KernelMode::AIC_MODE: c.layout = Layout::AIC; break;
    default: c.layout = Layout::MIX_1_2; break;
  }
  return c;
}

void* take_stack() {
  if (!g_stacks.empty()) { void* s = g_stacks.back(); g_stacks.pop_back(); return s; }
  void* s = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (s == MAP_FAILED) { std::perror("kgen: mmap core stack"); std::exit(2); }
  mprotect(s, kGuard, PROT_NONE);   // overflow faults instead of corrupting memory
  return s;
}

// An error line in the format of fail(), for errors found by the launcher rather than inside an API call.

// Protocol errors visible only when a core finishes.
void end_of_core_checks(Core& c) {
  settle_races(c);
  for (const Queue& q : c.queues) {
    if (!q.fifo.empty()) {
      const Buffer& b = c.bufs[q.fifo.front()];
      throw SimError{error_line("queue", b.enque_file, b.enque_line, c.block, "EnQue",
                               "kernel ended with a tensor (allocated at line " + std::to_string(b.alloc_line) +
                                   ") still in a queue: every EnQue needs a DeQue, or its flag stays set into the "
                                   "next kernel")};
    }
  }
}

void fiber_main() {
  Launch& L = *g_launch;
  Fiber& f = *L.running;
  try {
    L.thunk(L.arg);
    end_of_core_checks(*f.core);
  } catch (const CoreExit&) {
    // the core finished early on purpose; its last instruction's racing writes are judged still
    try {
      settle_races(*f.core);
    } catch (const SimError& e) {
      if (L.error.empty()) L.error = e.line;
    }
  } catch (const RestartLaunch&) {
    // request_kernel_type set L.restart: the launch starts again in another kernel type
  } catch (const SimError& e) {
    if (L.error.empty()) L.error = e.line;
  } catch (const std::exception& e) {
    if (L.error.empty()) L.error = std::string("error[crash] block ") + std::to_string(f.core->block) + ": C++ exception: " + e.what();
  }
  f.st = Fiber::Done;
}

std::unique_ptr<Fiber> new_fiber(Launch& L, int32_t block, CoreKind kind, int32_t sub) {
  auto f = std::make_unique<Fiber>();
  f->core = make_core(*L.soc, block, static_cast<int32_t>(L.block_dim));
  f->core->kind = kind;
  f->core->sub_block = sub;
  f->core->task_ratio = kind == CoreKind::AIC ? 1 : static_cast<int32_t>(aiv_per_block(L.cfg.layout));
  f->gid = core_gid(*f->core);
  cross_core_forget(f->gid);
  f->stack = take_stack();
  getcontext(&f->ctx);
  f->ctx.uc_stack.ss_sp = static_cast<char*>(f->stack) + kGuard;
  f->ctx.uc_stack.ss_size = kStackBytes - kGuard;
  f->ctx.uc_link = &L.sched;
  makecontext(&f->ctx, fiber_main, 0);
  return f;
}

// Starts the cores of one block: its AIC (if any) first, then its AIVs by sub-block.
void start_block(Launch& L, int32_t block) {
  Layout l = L.cfg.layout;
  if (is_mix(l) && static_cast<uint32_t>(block) >= L.soc->aic_cores) {
    L.error = error_line("param", L.host_file, L.host_line, -1, "launch",
                        "blockDim " + std::to_string(L.block_dim) + " of a MIX kernel (" + layout_name(l) +
                            ") exceeds the " + std::to_string(L.soc->aic_cores) + " AI Cores (AIC) of " + L.soc->name +
                            ": a MIX block is one AIC with its AIVs, so launch at most " +
                            std::to_string(L.soc->aic_cores) + " blocks and loop over the work inside the kernel");
    return;
  }
  if (aic_per_block(l)) L.active.push_back(new_fiber(L, block, CoreKind::AIC, 0));
  for (uint32_t s = 0; s < aiv_per_block(l); ++s) L.active.push_back(new_fiber(L, block, CoreKind::AIV, static_cast<int32_t>(s)));
}

void run_fiber(Launch& L, Fiber& f) {
  L.running = &f;
  if (!f.started) {
    // The cores of a launch mostly do the same work: room for as many records as the largest core that finished,
    // so that a timing-only run's core (a million records) is not copied at every doubling of its trace, nor again
    // by retire's shrink_to_fit when it ends at that size.
    size_t hint = 0;
    for (const CoreTrace& ct : L.trace.cores) hint = std::max(hint, ct.recs.size());
    f.core->trace.reserve(hint);
    advise_huge_pages(f.core->trace.data(), f.core->trace.capacity() * sizeof(TraceRec));
  }
  f.started = true;
  set_cur(f.core.get());
  g_coreType = f.core->kind == CoreKind::AIC ? AscendC::AIC : AscendC::AIV;
  swapcontext(&L.sched, &f.ctx);
  set_cur(nullptr);
  g_coreType = AscendC::AIV;
  L.running = nullptr;
}

void retire(Launch& L, size_t i) {
  Fiber& f = *L.active[i];
  CoreTrace ct;
  ct.block = f.core->block;
  ct.core_type = f.core->kind == CoreKind::AIC ? "AIC" : "AIV";
  ct.sub_block = f.core->kind == CoreKind::AIC ? 0 : f.core->sub_block;
  ct.recs = std::move(f.core->trace);
  ct.recs.shrink_to_fit();   // a timing-only run keeps millions of records: not the growth's slack on top
  L.trace.cores.push_back(std::move(ct));
  g_stacks.push_back(f.stack);
  L.active.erase(L.active.begin() + static_cast<long>(i));
}

std::string deadlock_report(Launch& L) {
  for (auto& f : L.active)
    if (f->st == Fiber::Blocked && f->wait == Wait::Flag)
      return error_line("deadlock", f->sync_file, f->sync_line, f->core->block, f->wait_api,
                       core_label(f->gid) + " waits for " + f->wait_what +
                           ", but every other core has finished or waits too: add the matching CrossCoreSetFlag "
                           "(mode 2: the AIC and the AIVs of one block signal each other; mode 1: both AIVs of the "
                           "block must set; mode 0: every core of the same kind must set) before the wait can pass");
  Fiber& w = *L.active.front();
  uint32_t members = w.bar == 1 ? aiv_per_block(L.cfg.layout) : cores_per_block(L.cfg.layout);
  return error_line("deadlock", w.sync_file, w.sync_line, w.core->block, "SyncAll",
                   std::to_string(L.bar[w.bar].arrived) + " of " + std::to_string(L.block_dim * members) +
                       " cores reached SyncAll and the others finished without it; every core must call "
                       "SyncAll the same number of times");
}

// Runs the launch's cores until all finish, one fails, or a kernel type declaration asks for a restart.
void schedule(Launch& L) {
  uint32_t next_block = 0;
  while (L.error.empty() && !L.restart) {
    Fiber* pick = nullptr;
    for (auto& f : L.active)
      if (f->st == Fiber::Ready) { pick = f.get(); break; }
    if (!pick && next_block < L.block_dim) {
      size_t before = L.active.size();
      start_block(L, static_cast<int32_t>(next_block++));
      if (!L.error.empty()) break;
      pick = L.active[before].get();
    }
    if (!pick) {
      if (!L.active.empty()) L.error = deadlock_report(L);
      break;
    }
    run_fiber(L, *pick);
    for (size_t i = 0; i < L.active.size(); ++i)
      if (L.active[i]->st == Fiber::Done) { retire(L, i); --i; }
  }
  for (auto& f : L.active) g_stacks.push_back(f->stack);
  L.active.clear();
}
}  // namespace

void set_throw_on_error(bool on) { g_throw = on; }

void note_core_error(const std::string& line) {
  Launch* L = g_launch;
  if (!L || !L->running) return;
  Fiber& f = *L->running;
  if (std::uncaught_exceptions() == 0) {   // the core's first error: it unwinds as a SimError
    f.first_error = line;
    return;
  }
  // A second error while the first unwinds (a destructor of the kernel's, e.g. Catlass's ~BlockMmad waiting for
  // its flags): throwing would reach std::terminate. The core ends here, with its first error, as if it returned.
  if (L->error.empty()) L->error = f.first_error.empty() ? line : f.first_error;
  f.st = Fiber::Done;
  swapcontext(&f.ctx, &L->sched);
  std::abort();   // never resumed: the scheduler retires a Done core
}
void reset_kernel_modes() {
  g_host_mode_set = false;
  g_type_cache.clear();
}
void finish_core() { throw CoreExit{}; }
uint32_t sync_epoch() { return g_launch ? g_launch->generation : 0; }
const LaunchTrace& last_launch_trace() { return g_last; }

const char* layout_name(Layout l) {
  switch (l) {
    case Layout::AIV: return "AIV only";
    case Layout::AIC: return "AIC only";
    case Layout::MIX_1_1: return "MIX AIC:AIV 1:1";
    default: return "MIX AIC:AIV 1:2";
  }
}

LaunchInfo launch_info() {
  LaunchInfo i;
  if (!g_launch) return i;
  i.active = true;
  i.block_dim = g_launch->block_dim;
  i.layout = g_launch->cfg.layout;
  i.kernel_type = g_launch->cfg.type;
  i.declared = g_launch->cfg.declared;
  i.aic_per_block = aic_per_block(i.layout);
  i.aiv_per_block = aiv_per_block(i.layout);
  return i;
}

std::string core_label(int32_t gid) {
  std::string s = "block " + std::to_string(gid / 3);
  if (!g_launch || cores_per_block(g_launch->cfg.layout) == 1) return s;
  return gid % 3 == 0 ? s + " AIC" : s + " AIV " + std::to_string(gid % 3 - 1);
}

void block_running_core(const char* api, const Loc& loc, const std::string& what) {
  Launch* L = g_launch;
  if (!L || !L->running)
    fail("deadlock", api, loc, "waits for " + what + ", but no other core runs outside a launch to set it");
  Fiber& me = *L->running;
  me.st = Fiber::Blocked;
  me.wait = Wait::Flag;
  me.sync_line = loc.line();
  me.sync_file = loc.file_name();
  me.wait_api = api;
  me.wait_what = what;
  swapcontext(&me.ctx, &L->sched);
}

void wake_core(int32_t gid) {
  if (!g_launch) return;
  for (auto& f : g_launch->active)
    if (f->gid == gid && f->st == Fiber::Blocked && f->wait == Wait::Flag) {
      f->st = Fiber::Ready;
      f->wait = Wait::None;
    }
}

void request_kernel_type(int type, bool keyed, const char* api, const Loc& loc) {
  Launch* L = g_launch;
  if (!L) return;   // a single test core
  Layout want = layout_for(type, *L->soc, api, loc);
  if (!keyed && L->cfg.keyed) return;   // KERNEL_TASK_TYPE of this tiling key wins over KERNEL_TASK_TYPE_DEFAULT
  Config want_cfg{want, type, true, keyed};
  if (want == L->cfg.layout) {
    L->cfg = want_cfg;
    g_type_cache[{L->kernel, g_tiling_key}] = want_cfg;
    return;
  }
  if (is_mix(want) && L->block_dim > L->soc->aic_cores)
    fail("param", api, loc,
         std::string(type_name(type)) + " runs one AIC with its AIVs per block, but blockDim " +
             std::to_string(L->block_dim) + " exceeds the " + std::to_string(L->soc->aic_cores) +
             " AI Cores (AIC) of " + L->soc->name + ": launch at most " + std::to_string(L->soc->aic_cores) +
             " blocks and loop over the work inside the kernel");
  int started = 0;
  for (auto& f : L->active) started += f->started;
  bool first_core = L->trace.cores.empty() && started == 1 && L->running && L->running->core->block == 0;
  if (first_core && !gm_written()) {
    L->restart = true;
    L->restart_cfg = want_cfg;
    g_type_cache[{L->kernel, g_tiling_key}] = want_cfg;
    throw RestartLaunch{};
  }
  fail("param", api, loc,
       std::string(type_name(type)) + " needs " + layout_name(want) + " cores per block, but this launch already runs " +
           layout_name(L->cfg.layout) + (L->cfg.declared ? std::string(" (declared by the kernel as ") + type_name(L->cfg.type) + ")"
                                                          : std::string(" (the host's SetKernelMode, or kgen's default AIV_MODE)")) +
           " and other cores ran or GM was written: make KERNEL_TASK_TYPE_DEFAULT the kernel's first statement, declare "
           "the same type on every core, or call AscendC::SetKernelMode(" +
           (want == Layout::AIV ? "KernelMode::AIV_MODE" : want == Layout::AIC ? "KernelMode::AIC_MODE" : "KernelMode::MIX_MODE") +
           ") on the host before the launch");
}

std::unique_ptr<Core> make_core(const Soc& soc, int32_t block, int32_t block_num) {
  auto c = std::make_unique<Core>();
  c->soc = &soc;
  c->block = block;
  c->block_num = block_num;
  const char* auto_sync = std::getenv("KGEN_AUTO_SYNC");
  c->auto_sync_scalar = !(auto_sync && std::string(auto_sync) == "0");
  if (!g_launch) cross_core_forget(core_gid(*c));   // a test core starts with no flags pending
  return c;
}

void run_launch(const char* kernel, uint32_t block_dim, const Soc& soc, void (*thunk)(void*), void* arg,
                const char* host_file, uint32_t host_line) {
  Launch L{};
  L.kernel = kernel;
  L.block_dim = block_dim;
  L.soc = &soc;
  L.thunk = thunk;
  L.arg = arg;
  L.host_file = host_file;
  L.host_line = host_line;
  L.cfg = initial_config(kernel, soc);
  g_launch = &L;
  // GM's visible mapping is closed while the kernel runs: only the emulated API (through its alias) touches GM.
  struct Guard {
    Guard() { gm_protect(true); }
    ~Guard() { gm_protect(false); }
  } gm_closed;
  IntDivNoTrap no_trap;   // the scalar unit does not trap on an integer division by zero (int_div_trap.h)
  for (;;) {
    L.trace = LaunchTrace{};
    L.trace.kernel = kernel;
    L.trace.soc = soc.name;
    L.trace.block_dim = block_dim;
    L.bar[0] = L.bar[1] = Launch::Barrier{};
    L.generation = L.barriers = 0;
    gm_races_reset();
    cross_core_reset();
    reset_stale_uses();
    reset_double_sets();
    reset_buffer_overruns();
    schedule(L);
    if (!L.restart || !L.error.empty()) break;
    L.restart = false;
    L.cfg = L.restart_cfg;
  }
  g_launch = nullptr;
  if (const std::string w = stale_use_warning(kernel); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
  if (const std::string w = double_set_warning(kernel); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
  if (const std::string w = buffer_overrun_warning(kernel); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
  if (const uint64_t n = IntDivNoTrap::count())
    std::fprintf(stderr,
                 "warning[div-by-zero] kernel %s: %llu integer division(s) by zero ran without a trap, as on the chip "
                 "(its scalar unit does not trap; the quotient is 0 here, undocumented there): the results must not "
                 "depend on them\n",
                 kernel, static_cast<unsigned long long>(n));
  std::sort(L.trace.cores.begin(), L.trace.cores.end(), [](const CoreTrace& a, const CoreTrace& b) {
    if (a.block != b.block) return a.block < b.block;
    bool aic_a = std::strcmp(a.core_type, "AIC") == 0, aic_b = std::strcmp(b.core_type, "AIC") == 0;
    if (aic_a != aic_b) return aic_a;
    return a.sub_block < b.sub_block;
  });
  g_last = std::move(L.trace);
  if (const char* path = std::getenv("KGEN_TRACE")) {
    std::string p = path;
    if (g_launch_count > 0) p += "." + std::to_string(g_launch_count);
    if (!write_trace_json(p, g_last)) std::fprintf(stderr, "kgen: cannot write trace to %s\n", p.c_str());
  }
  if (const char* dir = std::getenv("KGEN_TRACE_BIN_DIR"); dir && *dir && L.error.empty()) {
    // The binary trace for a parent that models it (the MultiKernelBench driver collects these): <pid>-<n>.ktrace.
    std::string p = std::string(dir) + "/" + std::to_string(getpid()) + "-" + std::to_string(g_launch_count) + ".ktrace";
    std::string bytes = encode_trace(g_last);
    if (std::FILE* f = std::fopen(p.c_str(), "wb")) {
      std::fwrite(bytes.data(), 1, bytes.size(), f);
      std::fclose(f);
    }
  }
  if (const char* dir = std::getenv("KGEN_PROFILE"); dir && *dir && L.error.empty())   // performance model report
    kgen::perf::profile_launch_to_dir(g_last, dir, g_launch_count, &gm_locate);
  ++g_launch_count;
  if (!L.error.empty()) {
    if (g_throw) throw SimError{L.error};
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", L.error.c_str());
    std::exit(kSimErrorExit);
  }
}

void run_launch(const char* kernel, uint32_t block_dim, const Soc& soc, void (*thunk)(void*), void* arg) {
  run_launch(kernel, block_dim, soc, thunk, arg, nullptr, 0);
}

void sync_all_cores(const Loc& loc, bool aiv_only, uint32_t participants) {
  Launch* L = g_launch;
  Core& c = cur();
  if (!L) return;   // a single test core: nothing to meet
  Layout lay = L->cfg.layout;
  bool mix = is_mix(lay);
  // SyncAll<true> synchronises the vector cores only; on the cube core of a MIX kernel it does nothing.
  if (mix && aiv_only && c.kind == CoreKind::AIC) return;
  uint32_t phys = physical_blocks(lay, *c.soc);
  if (L->block_dim > phys)
    fail("deadlock", "SyncAll", loc,
         "blockDim " + std::to_string(L->block_dim) + " exceeds the " + std::to_string(phys) + " " +
             (lay == Layout::AIV ? "vector cores" : "AI Cores (AIC)") + " of " + c.soc->name +
             ": cores beyond them start only after others finish, so SyncAll never completes; launch at most " +
             std::to_string(phys) + " blocks");
  int bi = mix && aiv_only ? 1 : 0;   // SyncAll<true> of a MIX kernel is a barrier of the AIVs alone
  Launch::Barrier& bar = L->bar[bi];
  uint32_t expected = L->block_dim * (bi ? aiv_per_block(lay) : cores_per_block(lay));
  if (participants) expected = participants;
  rt::pipe_barrier(PIPE_ALL, loc);
  trace_sync(TraceRec::SyncAll, kS, kS, 0, static_cast<int32_t>(L->barriers), loc);
  VClock own{};
  for (int p = 0; p < kPipeCount; ++p) own[p] = c.clock[p];
  hb_join(bar.token, hb_release(c, own));
  Fiber& me = *L->running;
  if (++bar.arrived == expected) {
    HbClock all;
    all.swap(bar.token);
    bar.arrived = 0;
    ++L->barriers;
    if (!bi) ++L->generation;
    for (auto& f : L->active)
      if (f->st == Fiber::Blocked && f->wait == Wait::SyncAll && f->bar == bi) {
        f->st = Fiber::Ready;
        f->wait = Wait::None;
        hb_acquire(f->gid, all);
      }
    hb_acquire(me.gid, all);
    return;
  }
  me.st = Fiber::Blocked;
  me.wait = Wait::SyncAll;
  me.bar = bi;
  me.sync_line = loc.line();
  me.sync_file = loc.file_name();
  swapcontext(&me.ctx, &L->sched);
  // resumed: every core has arrived
}
}  // namespace kgen::sim

namespace kgen::rt {
void launch(const char* kernel, uint32_t block_dim, const char* soc_name, void (*thunk)(void*), void* ctx, Loc loc) {
  const char* env = std::getenv("KGEN_SOC");
  const sim::Soc* soc = sim::find_soc(env && *env ? env : soc_name);
  if (!soc) {
    std::fprintf(stderr, "error[param] unknown SoC '%s'; known: %s\n", env && *env ? env : soc_name, sim::soc_names());
    std::exit(sim::kSimErrorExit);
  }
  if (block_dim < 1 || block_dim > 65535) {
    std::fprintf(stderr, "error[param] %s:%u host ICPU_RUN_KF: blockDim %u is outside [1, 65535]\n", loc.file_name(),
                 loc.line(), block_dim);
    std::exit(sim::kSimErrorExit);
  }
  sim::run_launch(kernel, block_dim, *soc, thunk, ctx, loc.file_name(), loc.line());
}
void sync_all(Loc loc, bool aiv_only) { sim::sync_all_cores(loc, aiv_only); }
void sync_all_soft(const void* gm, uint64_t gm_bytes, const LocalRef& ub, int32_t used_cores, bool aiv_only, Loc loc) {
  const char* api = "SyncAll";
  const sim::Core& c = sim::cur();
  const sim::LaunchInfo li = sim::launch_info();
  if (!aiv_only)
    sim::fail("param", api, loc, "the software SyncAll (with workspaces) synchronises vector cores only: isAIVOnly must "
                                 "be true; a MIX kernel uses the hardware form SyncAll<false>()");
  if (c.kind != sim::CoreKind::AIV)
    sim::fail("param", api, loc, "the software SyncAll runs on vector cores only (a pure Vector operator)");
  const uint64_t need = static_cast<uint64_t>(c.block_num) * 32;
  const uint32_t aivs = li.active ? li.block_dim * li.aiv_per_block : 1;
  if (!gm) sim::fail("param", api, loc, "gmWorkspace has no buffer: SetGlobalBuffer it on the workspace first");
  if (gm_bytes && gm_bytes < need)   // a GlobalTensor set without a size says 0: then the allocation decides
    sim::fail("param", api, loc, "gmWorkspace holds " + std::to_string(gm_bytes) + " bytes; the software SyncAll needs "
              "GetBlockNum() * 32 = " + std::to_string(need) + " bytes (zeroed), one 32-byte flag per core");
  sim::gm_check_range(gm, need, true, api, loc);   // every core writes its flag, and reads all of them
  if (ub.len < need)
    sim::fail("param", api, loc, "ubWorkspace holds " + std::to_string(ub.len) + " bytes; the software SyncAll needs "
              "GetBlockNum() * 32 = " + std::to_string(need) + " bytes");
  if (used_cores < 0 || static_cast<uint32_t>(used_cores) > aivs)
    sim::fail("param", api, loc, "usedCores " + std::to_string(used_cores) + " is outside [0, " + std::to_string(aivs) +
              "] (GetBlockNum() * GetTaskRatio() vector cores; 0: all of them)");
  sim::sync_all_cores(loc, true, static_cast<uint32_t>(used_cores));
}
void set_tiling_key(uint64_t key) { sim::g_tiling_key = key; }
uint64_t tiling_key() { return sim::g_tiling_key; }
void set_kernel_mode(AscendC::KernelMode mode) {
  sim::g_host_mode = mode;
  sim::g_host_mode_set = true;
}
void set_kernel_type(int type) { sim::request_kernel_type(type, false, "KERNEL_TASK_TYPE_DEFAULT", Loc::current()); }
void kernel_task_type(int type, Loc loc) { sim::request_kernel_type(type, false, "KERNEL_TASK_TYPE_DEFAULT", loc); }
void kernel_task_type_key(uint64_t key, int type, Loc loc) {
  if (key == sim::g_tiling_key) sim::request_kernel_type(type, true, "KERNEL_TASK_TYPE", loc);
}
int64_t block_idx() {
  const sim::Core& c = sim::cur();
  return c.kind == sim::CoreKind::AIV ? static_cast<int64_t>(c.block) * c.task_ratio + c.sub_block : c.block;
}
int64_t block_num() { return sim::cur().block_num; }
int64_t sub_block_idx() {
  const sim::Core& c = sim::cur();
  return c.kind == sim::CoreKind::AIV ? c.sub_block : 0;
}
int64_t task_ratio() { return sim::cur().task_ratio; }
int64_t system_cycle() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
}  // namespace kgen::rt
