// ICPU_RUN_KF: runs blockDim logical cores as coroutines on one thread, in block order, switching only at
// SyncAll. Deterministic; cores that meet at SyncAll are all resident at once, as on the chip.
#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "sim/core.h"
#include "sim/gm_races.h"
#include "sim/launch.h"
#include "sim/trace_io.h"

int8_t g_coreType = AscendC::AIV;

namespace kgen::sim {
namespace {
constexpr size_t kStackBytes = 16u << 20;   // reserved, not committed: only touched pages cost memory
constexpr size_t kGuard = 64u << 10;

struct Fiber {
  ucontext_t ctx;
  void* stack = nullptr;
  std::unique_ptr<Core> core;
  enum St { Ready, Blocked, Done } st = Ready;
  uint32_t sync_line = 0;
  const char* sync_file = nullptr;
};

struct Launch {
  const char* kernel;
  uint32_t block_dim;
  const Soc* soc;
  void (*thunk)(void*);
  void* arg;
  ucontext_t sched;
  std::vector<std::unique_ptr<Fiber>> active;
  Fiber* running = nullptr;
  uint32_t arrived = 0;
  uint32_t generation = 0;
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
int g_kernel_type = -1;
bool g_throw = false;
int g_launch_count = 0;

void* take_stack() {
  if (!g_stacks.empty()) { void* s = g_stacks.back(); g_stacks.pop_back(); return s; }
  void* s = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (s == MAP_FAILED) { std::perror("kgen: mmap core stack"); std::exit(2); }
  mprotect(s, kGuard, PROT_NONE);   // overflow faults instead of corrupting memory
  return s;
}

// An error line in the format of fail(), for errors found by the launcher rather than inside an API call.
std::string diag_line(const char* category, const char* file, uint32_t line, int32_t block, const char* api,
                      const std::string& msg) {
  const char* slash = file ? std::strrchr(file, '/') : nullptr;
  return std::string("error[") + category + "] " + (slash ? slash + 1 : file ? file : "kernel") + ":" +
         std::to_string(line) + " block " + std::to_string(block) + " " + api + ": " + msg;
}

// Protocol errors visible only when a core finishes.
void end_of_core_checks(Core& c) {
  for (const Queue& q : c.queues) {
    if (!q.fifo.empty()) {
      const Buffer& b = c.bufs[q.fifo.front()];
      throw SimError{diag_line("queue", b.enque_file, b.enque_line, c.block, "EnQue",
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
    // the core finished early on purpose
  } catch (const SimError& e) {
    if (L.error.empty()) L.error = e.line;
  } catch (const std::exception& e) {
    if (L.error.empty()) L.error = std::string("error[crash] block ") + std::to_string(f.core->block) + ": C++ exception: " + e.what();
  }
  f.st = Fiber::Done;
}

std::unique_ptr<Fiber> new_fiber(Launch& L, int32_t block) {
  auto f = std::make_unique<Fiber>();
  f->core = make_core(*L.soc, block, static_cast<int32_t>(L.block_dim));
  f->stack = take_stack();
  getcontext(&f->ctx);
  f->ctx.uc_stack.ss_sp = static_cast<char*>(f->stack) + kGuard;
  f->ctx.uc_stack.ss_size = kStackBytes - kGuard;
  f->ctx.uc_link = &L.sched;
  makecontext(&f->ctx, fiber_main, 0);
  return f;
}

void run_fiber(Launch& L, Fiber& f) {
  L.running = &f;
  set_cur(f.core.get());
  g_coreType = AscendC::AIV;
  swapcontext(&L.sched, &f.ctx);
  set_cur(nullptr);
  L.running = nullptr;
}

void retire(Launch& L, size_t i) {
  Fiber& f = *L.active[i];
  CoreTrace ct;
  ct.block = f.core->block;
  ct.core_type = "AIV";
  ct.recs = std::move(f.core->trace);
  L.trace.cores.push_back(std::move(ct));
  g_stacks.push_back(f.stack);
  L.active.erase(L.active.begin() + static_cast<long>(i));
}
}  // namespace

void set_throw_on_error(bool on) { g_throw = on; }
void finish_core() { throw CoreExit{}; }
uint32_t sync_epoch() { return g_launch ? g_launch->generation : 0; }
const LaunchTrace& last_launch_trace() { return g_last; }

std::unique_ptr<Core> make_core(const Soc& soc, int32_t block, int32_t block_num) {
  auto c = std::make_unique<Core>();
  c->soc = &soc;
  c->block = block;
  c->block_num = block_num;
  const char* auto_sync = std::getenv("KGEN_AUTO_SYNC");
  c->auto_sync_scalar = !(auto_sync && std::string(auto_sync) == "0");
  return c;
}

void run_launch(const char* kernel, uint32_t block_dim, const Soc& soc, void (*thunk)(void*), void* arg) {
  Launch L{};
  L.kernel = kernel;
  L.block_dim = block_dim;
  L.soc = &soc;
  L.thunk = thunk;
  L.arg = arg;
  L.trace.kernel = kernel;
  L.trace.soc = soc.name;
  L.trace.block_dim = block_dim;
  g_launch = &L;
  gm_races_reset();
  uint32_t next_block = 0;
  while (L.error.empty()) {
    Fiber* pick = nullptr;
    for (auto& f : L.active)
      if (f->st == Fiber::Ready) { pick = f.get(); break; }
    if (!pick && next_block < block_dim) {
      L.active.push_back(new_fiber(L, static_cast<int32_t>(next_block++)));
      pick = L.active.back().get();
    }
    if (!pick) {
      if (!L.active.empty()) {
        Fiber& w = *L.active.front();
        L.error = diag_line("deadlock", w.sync_file, w.sync_line, w.core->block, "SyncAll",
                            std::to_string(L.arrived) + " of " + std::to_string(block_dim) +
                                " cores reached SyncAll and the others finished without it; every core must call "
                                "SyncAll the same number of times");
      }
      break;
    }
    run_fiber(L, *pick);
    for (size_t i = 0; i < L.active.size(); ++i)
      if (L.active[i]->st == Fiber::Done) { retire(L, i); --i; }
  }
  for (auto& f : L.active) g_stacks.push_back(f->stack);
  L.active.clear();
  g_launch = nullptr;
  std::sort(L.trace.cores.begin(), L.trace.cores.end(), [](const CoreTrace& a, const CoreTrace& b) { return a.block < b.block; });
  g_last = std::move(L.trace);
  if (const char* path = std::getenv("KGEN_TRACE")) {
    std::string p = path;
    if (g_launch_count > 0) p += "." + std::to_string(g_launch_count);
    if (!write_trace_json(p, g_last)) std::fprintf(stderr, "kgen: cannot write trace to %s\n", p.c_str());
  }
  ++g_launch_count;
  if (!L.error.empty()) {
    if (g_throw) throw SimError{L.error};
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", L.error.c_str());
    std::exit(kSimErrorExit);
  }
}

void sync_all_cores(const Loc& loc) {
  Launch* L = g_launch;
  Core& c = cur();
  if (!L) return;   // a single test core: nothing to meet
  if (L->block_dim > c.soc->aiv_cores)
    fail("deadlock", "SyncAll", loc,
         "blockDim " + std::to_string(L->block_dim) + " exceeds the " + std::to_string(c.soc->aiv_cores) +
             " vector cores of " + c.soc->name +
             ": cores beyond them start only after others finish, so SyncAll never completes; launch at most " +
             std::to_string(c.soc->aiv_cores) + " blocks");
  rt::pipe_barrier(PIPE_ALL, loc);
  trace_sync(TraceRec::SyncAll, kS, kS, 0, static_cast<int32_t>(L->generation), loc);
  Fiber& me = *L->running;
  if (++L->arrived == L->block_dim) {
    L->arrived = 0;
    ++L->generation;
    for (auto& f : L->active)
      if (f->st == Fiber::Blocked) f->st = Fiber::Ready;
    return;
  }
  me.st = Fiber::Blocked;
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
  sim::run_launch(kernel, block_dim, *soc, thunk, ctx);
}
void sync_all(Loc loc) { sim::sync_all_cores(loc); }
void set_tiling_key(uint64_t key) { sim::g_tiling_key = key; }
uint64_t tiling_key() { return sim::g_tiling_key; }
void set_kernel_mode(AscendC::KernelMode) {}
void set_kernel_type(int type) { sim::g_kernel_type = type; }
int64_t block_idx() { return sim::cur().block; }
int64_t block_num() { return sim::cur().block_num; }
int64_t sub_block_idx() { return sim::cur().sub_block; }
int64_t task_ratio() { return sim::cur().task_ratio; }
int64_t system_cycle() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
}  // namespace kgen::rt
