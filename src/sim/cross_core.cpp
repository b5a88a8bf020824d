// CrossCoreSetFlag / CrossCoreWaitFlag between the coroutine cores of a launch, and the workspace pointers.
//
// Each core has a counter per flag id (0-10 here; 11-14 belong to SyncAll's hardware barrier). A set reaches
// its targets when every core of its group has set (modes 0 and 1, and mode 2 from the AIVs): then each target's
// counter grows by one; a wait takes one or blocks the core (the scheduler runs another) until one arrives.
// A set carries what the setting core has done (its pipe clocks up to the set's pipe, and what it knew of other
// cores) to the waiter, so the GM race detector sees CrossCoreWaitFlag as ordered after the matching set.
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "kgen/cross_core.h"
#include "kgen/sys.h"
#include "sim/core.h"
#include "sim/gm.h"
#include "sim/gm_races.h"
#include "sim/launch.h"

namespace kgen::sim {
namespace {
constexpr uint16_t kMaxFlag = 10;
constexpr size_t kMaxPending = 15;   // the counter of a flag id counts 0..15
constexpr uint64_t kSysWorkspaceBytes = 16u << 20;   // RESERVED_WORKSPACE, GetLibApiWorkSpaceSize() on 910B

struct CoreFlags {
  std::deque<HbClock> pending[kMaxFlag + 1];   // sets delivered to this core and not yet waited, oldest first
};
std::unordered_map<int32_t, CoreFlags> g_flags;   // by core id (core_gid)

// Sets waiting for the rest of their group: (mode, scope, flag) -> per setting core, its sets not yet matched.
std::map<std::tuple<int, int, int>, std::map<int32_t, std::deque<HbClock>>> g_rounds;

const char* kSet = "CrossCoreSetFlag";
const char* kWait = "CrossCoreWaitFlag";

bool is_mix(Layout l) { return l == Layout::MIX_1_1 || l == Layout::MIX_1_2; }

void check_common(uint8_t mode, uint16_t flag, const char* api, const Loc& loc) {
  const Core& c = cur();
  if (c.soc->arch == 2002)
    fail("param", api, loc,
         std::string(c.soc->name) + " has coupled AI Cores and no inter-core synchronisation; cross-core flags exist "
                                    "on the split architecture (Atlas A2/A3) only");
  if (mode > 2)
    fail("param", api, loc,
         "modeId " + std::to_string(mode) + " is not 0 (all AIVs or all AICs), 1 (the AIVs of one block) or 2 (the AIC "
                                            "and the AIVs of one block)");
  if (flag > kMaxFlag)
    fail("param", api, loc,
         "flagId " + std::to_string(flag) + " is outside [0, 10] (ids 11-14 belong to SyncAll's hardware barrier)");
}

void check_pipe(pipe_t pipe, const Loc& loc) {
  const Core& c = cur();
  bool known = pipe == PIPE_V || pipe == PIPE_M || pipe == PIPE_MTE1 || pipe == PIPE_MTE2 || pipe == PIPE_MTE3 ||
               pipe == PIPE_FIX;
  if (!known)
    fail("param", kSet, loc,
         "the flag must be set on a pipe (PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3 or PIPE_FIX; not PIPE_S or "
         "PIPE_ALL): pick the pipe that produced the data the other core waits for");
  bool aic = c.kind == CoreKind::AIC;
  if (aic && (pipe == PIPE_V || pipe == PIPE_MTE3))
    fail("param", kSet, loc,
         std::string("an AIC has no ") + (pipe == PIPE_V ? "PIPE_V" : "PIPE_MTE3") +
             " (cube core pipes: PIPE_MTE1, PIPE_MTE2, PIPE_M, PIPE_FIX); a Fixpipe result is set with PIPE_FIX");
  if (!aic && (pipe == PIPE_M || pipe == PIPE_MTE1 || pipe == PIPE_FIX))
    fail("param", kSet, loc,
         std::string("an AIV has no ") + (pipe == PIPE_M ? "PIPE_M" : pipe == PIPE_MTE1 ? "PIPE_MTE1" : "PIPE_FIX") +
             " (vector core pipes: PIPE_V, PIPE_MTE2, PIPE_MTE3); data copied out to GM is set with PIPE_MTE3");
}

// Setters waiting for room in a full counter: (target core, flag) -> the setting cores.
std::map<std::pair<int32_t, uint16_t>, std::vector<int32_t>> g_full;

void deliver(int32_t target, uint16_t flag, const HbClock& tok, const Loc& loc) {
  // A full counter (15 sets no wait took) overflows on the chip, which raises an error; but there the cores run side
  // by side and the waiter takes its sets while the setter runs, where the emulator runs one core until it blocks.
  // So the setter waits here for the waiter to take one; when no core can go on, the deadlock report says why.
  while (g_flags[target].pending[flag].size() >= kMaxPending) {
    g_full[{target, flag}].push_back(core_gid(cur()));
    block_running_core(kSet, loc,
                       "room in flag " + std::to_string(flag) + " of " + core_label(target) +
                           ": its counter holds 15 sets no CrossCoreWaitFlag took, and counts at most 15 (the "
                           "hardware raises an error beyond); wait for the flag on that core before setting it again");
  }
  g_flags[target].pending[flag].push_back(tok);
  wake_core(target);
}
}  // namespace

void cross_core_forget(int32_t gid) {
  g_flags.erase(gid);
  if (!launch_info().active) g_rounds.clear();
}

void cross_core_reset() {
  g_flags.clear();
  g_rounds.clear();
  g_full.clear();
}
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void cross_core_set(uint8_t mode, pipe_t pipe, uint16_t flag, Loc loc) {
  check_common(mode, flag, kSet, loc);
  check_pipe(pipe, loc);
  Core& c = cur();
  LaunchInfo li = launch_info();
  if (li.declared && (li.kernel_type == KERNEL_TYPE_AIV_ONLY || li.kernel_type == KERNEL_TYPE_AIC_ONLY))
    fail("param", kSet, loc,
         std::string("the kernel is declared ") +
             (li.kernel_type == KERNEL_TYPE_AIV_ONLY ? "KERNEL_TYPE_AIV_ONLY" : "KERNEL_TYPE_AIC_ONLY") +
             ", for which the hardware starts no inter-core scheduler, so cross-core flags never arrive: declare " +
             (li.kernel_type == KERNEL_TYPE_AIV_ONLY ? "KERNEL_TYPE_MIX_AIV_1_0" : "KERNEL_TYPE_MIX_AIC_1_0") +
             " (mode 0), or KERNEL_TYPE_MIX_AIC_1_1 / KERNEL_TYPE_MIX_AIC_1_2 (modes 1 and 2)");
  if (mode != 0 && !is_mix(li.layout))
    fail("param", kSet, loc,
         "mode " + std::to_string(mode) + " synchronises the cores of one MIX block (" +
             (mode == 1 ? "its two AIVs" : "its AIC and its AIVs") + "), but this launch runs " + layout_name(li.layout) +
             ": declare KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) (or _1_1), or use mode 0 to synchronise all "
             "cores of one kind");
  if (mode == 1 && c.kind == CoreKind::AIC)
    fail("param", kSet, loc,
         "mode 1 synchronises the AIVs of one block and an AIC called it: use mode 2 (AIC <-> AIVs of its block) or "
         "mode 0 (all AICs)");
  bool aic = c.kind == CoreKind::AIC;
  uint32_t per_block = aic ? li.aic_per_block : li.aiv_per_block;
  if (!li.active) per_block = 1;
  if (mode == 0 && li.active) {
    uint32_t phys = li.layout == Layout::AIV ? c.soc->aiv_cores : c.soc->aic_cores;
    if (li.block_dim > phys)
      fail("deadlock", kSet, loc,
           "mode 0 waits until every " + std::string(aic ? "AIC" : "AIV") + " of the launch has set the flag, but blockDim " +
               std::to_string(li.block_dim) + " exceeds the " + std::to_string(phys) + " blocks " + c.soc->name +
               " runs at once: the last blocks start only after others finish; launch at most " + std::to_string(phys) +
               " blocks");
  }
  // The set is an instruction of `pipe`: it covers what that pipe has waited for, and the scalar unit's program order.
  Pipe p = pipe_from(pipe);
  issue(p);
  VClock own = c.vc[p];
  own[kS] = std::max(own[kS], c.clock[kS]);
  HbClock tok = hb_release(c, own);
  trace_sync(TraceRec::CrossSet, p, p, mode, flag, loc);
  int32_t me = core_gid(c);
  int32_t base = c.block * 3;
  std::vector<int32_t> setters, targets;
  if (mode == 2 && aic) {
    for (uint32_t s = 0; s < li.aiv_per_block; ++s) targets.push_back(base + 1 + static_cast<int32_t>(s));
  } else if (mode == 2) {
    for (uint32_t s = 0; s < li.aiv_per_block; ++s) setters.push_back(base + 1 + static_cast<int32_t>(s));
    targets.push_back(base);
  } else if (mode == 1) {
    for (uint32_t s = 0; s < li.aiv_per_block; ++s) setters.push_back(base + 1 + static_cast<int32_t>(s));
    targets = setters;
  } else {
    for (uint32_t b = 0; b < li.block_dim; ++b)
      for (uint32_t s = 0; s < per_block; ++s) setters.push_back(static_cast<int32_t>(b) * 3 + (aic ? 0 : 1 + static_cast<int32_t>(s)));
    if (!li.active) setters = {me};
    targets = setters;
  }
  if (setters.size() <= 1) {
    for (int32_t t : targets) deliver(t, flag, tok, loc);
    return;
  }
  auto& round = g_rounds[{mode, mode == 0 ? (aic ? -1 : -2) : c.block, flag}];
  round[me].push_back(tok);
  for (int32_t s : setters)
    if (round[s].empty()) return;   // the others have not set yet
  HbClock all;
  for (int32_t s : setters) {
    hb_join(all, round[s].front());
    round[s].pop_front();
  }
  for (int32_t t : targets) deliver(t, flag, all, loc);
}

void cross_core_wait(uint8_t mode, pipe_t pipe, uint16_t flag, Loc loc) {
  check_common(mode, flag, kWait, loc);
  (void)pipe;   // on Atlas A2/A3 the wait blocks every pipe whatever the template arguments say
  int32_t me = core_gid(cur());
  while (g_flags[me].pending[flag].empty())
    block_running_core(kWait, loc,
                       "flag " + std::to_string(flag) + " (its counter is 0: no CrossCoreSetFlag reached this core)");
  std::deque<HbClock>& q = g_flags[me].pending[flag];
  HbClock tok = std::move(q.front());
  q.pop_front();
  if (auto full = g_full.find({me, flag}); full != g_full.end()) {   // room for a waiting setter
    for (int32_t setter : full->second) wake_core(setter);
    g_full.erase(full);
  }
  hb_acquire(me, tok);
  trace_sync(TraceRec::CrossWait, kS, kS, mode, flag, loc);
}

uint8_t* sys_workspace() {
  static uint8_t* ws = nullptr;
  if (!ws) {
    void* p = mmap(nullptr, kSysWorkspaceBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) { std::perror("kgen: mmap system workspace"); std::exit(2); }
    ws = static_cast<uint8_t*>(p);
    gm_register_fixed(ws, kSysWorkspaceBytes, 0);
  }
  return ws;
}

void set_sys_workspace(const uint8_t* workspace, const char* api, Loc loc) {
  if (!workspace)
    fail("param", api, loc, "workspace can not be nullptr: pass the kernel's workspace argument (GmAlloc it on the host)");
  // As in CANN's CPU-debug mode the system workspace stays the emulator's own (GetSysWorkSpacePtr()).
}

uint8_t* user_workspace(uint8_t* workspace, Loc loc) {
  if (!workspace)
    fail("param", "GetUserWorkspace", loc,
         "workspace can not be nullptr: pass the kernel's workspace argument (GmAlloc it on the host)");
  return workspace;
}
}  // namespace kgen::rt
