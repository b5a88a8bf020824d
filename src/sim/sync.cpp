// SetFlag/WaitFlag, PipeBarrier and atomics. A flag carries the setter pipe's vector clock to the waiting pipe,
// which is how the race detector learns that one pipe's work happens before another's.
#include <string>

#include "sim/core.h"
#include "sim/double_set_flag.h"

namespace kgen::sim {
VClock flag_token(Pipe src) {
  issue(src);
  return cur().vc[src];
}

void flag_wait(Pipe dst, const VClock& token) {
  Core& c = cur();
  issue(dst);
  join(c.vc[dst], token);
  if (dst == kS) join(c.scalar_waited, token);   // the scalar unit blocks: everything issued later is after it
}

namespace {
Flag& flag_slot(AscendC::HardEvent evt, int32_t id, const char* api, const Loc& loc) {
  if (static_cast<int>(evt) >= static_cast<int>(AscendC::HardEvent::MAX))
    fail("param", api, loc, "unknown HardEvent " + std::to_string(static_cast<int>(evt)));
  if (id < 0 || id > 7)
    fail("param", api, loc, "event id " + std::to_string(id) + " is outside [0, 7] (the hardware has 8 ids per event)");
  return cur().flags[static_cast<int>(evt)][id];
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void set_flag(AscendC::HardEvent evt, int32_t id, Loc loc) {
  Flag& f = flag_slot(evt, id, "SetFlag", loc);
  if (!f.pending.empty()) {
    note_double_set("SetFlag", loc);
    if (f.pending.size() == 1) ++cur().flags_set_twice;
  }
  Pipe src, dst;
  event_pipes(evt, src, dst);
  f.pending.push_back({flag_token(src), loc.line()});
  trace_sync(TraceRec::SetFlag, src, dst, static_cast<int32_t>(evt), id, loc);
}

void wait_flag(AscendC::HardEvent evt, int32_t id, Loc loc) {
  Flag& f = flag_slot(evt, id, "WaitFlag", loc);
  if (f.pending.empty())
    fail("deadlock", "WaitFlag", loc,
         std::string("WaitFlag<HardEvent::") + event_name(evt) + ">(" + std::to_string(id) +
             ") with no SetFlag pending for that event and id: the pipe would wait forever; add the matching "
             "SetFlag before it");
  Pipe src, dst;
  event_pipes(evt, src, dst);
  flag_wait(dst, f.pending.front().token);
  f.pending.erase(f.pending.begin());
  if (f.pending.size() == 1) --cur().flags_set_twice;
  trace_sync(TraceRec::WaitFlag, src, dst, static_cast<int32_t>(evt), id, loc);
}

namespace {
// PipeBarrier<PIPE_ALL> while an id holds two unwaited SetFlags: the hang CANN's SetFlag/WaitFlag page shows.
[[noreturn]] void fail_barrier_after_double_set(const Loc& loc) {
  const Core& c = cur();
  for (int e = 0; e < 64; ++e)
    for (int id = 0; id < 8; ++id) {
      const Flag& f = c.flags[e][id];
      if (f.pending.size() < 2) continue;
      fail("deadlock", "PipeBarrier", loc,
           std::string("PipeBarrier<PIPE_ALL> while SetFlag<HardEvent::") +
               event_name(static_cast<AscendC::HardEvent>(e)) + ">(" + std::to_string(id) + ") is set twice (lines " +
               std::to_string(f.pending[0].line) + " and " + std::to_string(f.pending[1].line) +
               ") with no WaitFlag between: the chip hangs here; wait each SetFlag before setting its id again");
    }
  fail("deadlock", "PipeBarrier", loc, "PipeBarrier<PIPE_ALL> while an event id is set twice");
}
}  // namespace

namespace {
void barrier_all(const Loc& loc) {
  Core& c = cur();
  VClock all{};
  for (int p = 0; p < kPipeCount; ++p) join(all, c.vc[p]);
  for (int p = 0; p < kPipeCount; ++p) c.vc[p] = all;
  c.scalar_waited = all;
  trace_sync(TraceRec::Barrier, kS, kS, PIPE_ALL, 0, loc);
}
}  // namespace

void pipe_barrier(pipe_t pipe, Loc loc) {
  if (pipe == PIPE_S)
    fail("param", "PipeBarrier", loc, "PipeBarrier<PIPE_S> raises a hardware error; the scalar unit is already in order");
  if (pipe == PIPE_ALL) {
    if (cur().flags_set_twice > 0) fail_barrier_after_double_set(loc);
    barrier_all(loc);
    return;
  }
  Pipe p = pipe_from(pipe);
  issue(p);
  trace_sync(TraceRec::Barrier, p, p, pipe, 0, loc);
}

void data_sync_barrier(Loc loc) { barrier_all(loc); }

void set_atomic(DType dt, int op, Loc loc) {
  Core& c = cur();
  if (op != 0) {
    bool ok = dt == DType::F32 || dt == DType::F16 || dt == DType::I16 || dt == DType::I32 || dt == DType::I8 ||
              (dt == DType::BF16 && c.soc->has_bf16);
    if (!ok)
      fail("dtype", op == 1 ? "SetAtomicAdd" : op == 2 ? "SetAtomicMax" : "SetAtomicMin", loc,
           std::string("atomic operations do not support ") + dtype_name(dt) + " on " + c.soc->name +
               " (float, half, int16_t, int32_t, int8_t" + (c.soc->has_bf16 ? ", bfloat16_t" : "") + ")");
  }
  c.atomic_op = op;
  c.atomic_dt = dt;
}
}  // namespace kgen::rt
