// The kernel performance model: the emulator's trace of one launch -> modeled time on a SoC profile.
//
// Entry points for other code (the calibration helper uses model_launch):
//   Result r = kgen::perf::model_launch(kgen::sim::last_launch_trace(), kgen::perf::load_profile("Ascend910B2"),
//                                       {.locate = &kgen::sim::gm_locate});
//   r.time_us (modeled µs incl. launch), r.gm_bytes, r.flops, r.busy_us[pipe], r.bound ("HBM", "vector", ...).
// Offline: KTrace t; load_trace_json("trace.json", t, err); Result r = model(t, profile);
//
// Design (docs/perf-model.md): per core, the scalar unit walks the records in program order, paying issue_cycles
// per pipe instruction and scalar_op_cycles x count per scalar record; each instruction goes to its pipe's
// in-order queue and starts at max(issue time, pipe free, sync edges). Flags (SetFlag/WaitFlag, TQue
// EnQue/DeQue and FreeTensor/AllocTensor) carry the producer pipe's completion time to the consumer pipe;
// PipeBarrier<PIPE_ALL>, SyncAll and CrossCoreWaitFlag stop the scalar unit. Blocks beyond the physical cores
// run in waves; within a wave HBM and L2 bandwidth are fair-shared (a uniform stretch of every core's GM
// transfers, iterated to a fixed point); GM byte ranges read or written earlier in the launch hit L2.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "perf/profile.h"

namespace kgen::sim { struct LaunchTrace; }

namespace kgen::perf {

enum PipeId : uint8_t { P_S, P_V, P_M, P_MTE1, P_MTE2, P_MTE3, P_FIX, kPipes };   // same order as kgen::sim::Pipe
const char* pipe_label(int p);   // "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"

// The model's input: the records of kgen::sim::TraceRec with GM addresses resolved to (allocation, offset).
struct Op {
  enum Kind : uint8_t { Instr, SetFlag, WaitFlag, Barrier, EnQue, DeQue, AllocTensor, FreeTensor, SyncAll,
                        CrossSet, CrossWait };   // same order as kgen::sim::TraceRec::Kind
  Kind kind = Instr;
  uint8_t pipe = 0, pipe2 = 0;
  uint8_t dtype = 13;             // kgen::DType value (13 = Unknown)
  uint32_t api = 0;               // index into KTrace::apis
  uint32_t line = 0;
  uint64_t elems = 0, bytes = 0;
  uint32_t repeats = 0, count = 1;
  int32_t event = 0, id = 0;      // flags: HardEvent / event id; queues: queue handle / buffer; barrier: pipe_t
  int64_t gm_buf = -1;            // GM allocation (-1: none)
  uint64_t gm_off = 0;            // the first byte in it
  uint32_t gm_rows = 0, gm_stride = 0;   // a strided footprint: rows of bytes / gm_rows, gm_stride apart (0: contiguous)
  uint32_t m = 0, n = 0, k = 0;   // cube shape
};
struct KCore {
  int32_t block = 0;
  bool aic = false;
  int32_t sub_block = 0;
  std::vector<Op> ops;
};
struct KTrace {
  std::string kernel, soc;
  uint32_t block_dim = 0;
  std::vector<KCore> cores;
  std::vector<std::string> apis;   // api names; apis[0] = ""
  uint32_t intern(const std::string& api);
};

using GmLocate = bool (*)(uint64_t addr, uint32_t& buf, uint64_t& off);
// From the in-memory trace. `locate` = kgen::sim::gm_locate (nullptr: the raw address is the offset in buffer 0).
KTrace from_launch(const sim::LaunchTrace& t, GmLocate locate = nullptr);
// From the in-memory trace straight to perf/ktrace_io.h bytes, a core at a time (a timing-only run's trace of
// millions of records is never held twice in the model's form): the bytes of encode_ktrace(from_launch(t, locate)).
std::string encode_launch(const sim::LaunchTrace& t, GmLocate locate = nullptr);
// The same bytes streamed: begin(total size) once, then put(piece) for the head and for each core in turn, so a
// trace is never held whole in encoded form either (kgen-oprun writes it straight into its channel frame).
bool encode_launch(const sim::LaunchTrace& t, GmLocate locate, const std::function<bool(uint64_t)>& begin,
                   const std::function<bool(const std::string&)>& put);
// From the KGEN_TRACE JSON file (src/sim/trace.cpp). False with `err` set on failure.
bool load_trace_json(const std::string& path, KTrace& out, std::string& err);

struct Options {
  bool keep_events = false;   // fill Result::events (timeline)
  GmLocate locate = nullptr;  // for model_launch
};

struct Event {                // one instruction on the timeline
  uint32_t core;              // index into Result::cores
  uint8_t pipe;
  uint32_t api;               // index into Result::apis
  uint32_t line;
  uint32_t count;
  double start_us, end_us;    // from kernel start (after launch overhead)
};
// A synchronisation edge the timeline waited on (with Options::keep_events): the producer's pipe on one core released
// the consumer's pipe, on the same core (SetFlag -> WaitFlag, EnQue -> DeQue, FreeTensor -> AllocTensor) or on
// another (CrossCoreSetFlag -> CrossCoreWaitFlag). Drawn as Perfetto flow arrows (chrome_trace.cpp).
struct Flow {
  enum Kind : uint8_t { Flag, Queue, Buffer, Cross };
  Kind kind = Flag;
  uint32_t from_core = 0, to_core = 0;     // indices into Result::cores
  uint8_t from_pipe = 0, to_pipe = 0;
  double from_us = 0;   // start of the producer pipe's last instruction before the signal (the slice the arrow leaves)
  double to_us = 0;     // when the consumer pipe may go on: its next instruction starts at or after this
  double waited_us = 0; // how long the consumer was held back by this edge (0: it was later anyway)
};
const char* flow_kind_name(Flow::Kind k);

struct CoreResult {
  int32_t block = 0;
  bool aic = false;
  int32_t sub_block = 0;
  int32_t wave = 0;
  double start_us = 0, end_us = 0;     // within the kernel body (launch overhead excluded)
  double busy_us[kPipes] = {};
  uint64_t instrs = 0;
};
struct Result {
  std::string kernel, soc;
  uint32_t block_dim = 0;
  int32_t waves = 0;
  double time_us = 0;          // modeled launch time: launch_us + body_us
  double launch_us = 0;        // launch + head overhead
  double steady_us = 0;        // per-launch time when launched back to back: Profile::pipelined_launch_us + body_us
  double body_us = 0;          // sum over waves of the slowest core
  uint64_t gm_bytes = 0;       // bytes moved between GM and the cores (MTE2 + MTE3 + FIX to GM)
  uint64_t hbm_bytes = 0;      // of which served by HBM (L2 misses)
  uint64_t l2_hit_bytes = 0;
  double flops = 0;            // cube 2*m*n*k + vector element operations
  double cube_flops = 0, vec_flops = 0;
  double busy_us[kPipes] = {}; // summed over cores
  double aic_time_us = 0, aiv_time_us = 0;     // longest AIC / AIV core span (msprof aic_time / aiv_time)
  double gbps = 0;             // gm_bytes / time
  double tflops = 0;
  double hbm_stretch = 1;      // fair-share factor applied to GM transfers (>1: HBM/L2 saturated)
  std::string bound;           // HBM, L2, DMA, vector, cube, scalar, sync/latency, launch
  std::string why;             // one line
  std::vector<CoreResult> cores;
  std::vector<Event> events;
  std::vector<Flow> flows;     // with Options::keep_events
  std::vector<std::string> apis;
};

Result model(const KTrace& t, const Profile& p, const Options& o = {});
Result model_launch(const sim::LaunchTrace& t, const Profile& p, const Options& o = {});
}  // namespace kgen::perf
