// The state of one emulated AI core and the checks every API runs against it.
// Internal to the emulator library; kernels see only include/ascendc.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kgen/runtime.h"
#include "sim/soc.h"

namespace kgen::sim {
using rt::Loc;
using AscendC::TPosition;

// Pipes of one core. S is the scalar unit, which also issues every other pipe's instructions in program order.
enum Pipe : uint8_t { kS, kV, kM, kMTE1, kMTE2, kMTE3, kFIX, kPipeCount };
const char* pipe_name(Pipe p);
Pipe pipe_from(pipe_t p);
// Source and destination pipe of a HardEvent such as MTE2_V.
void event_pipes(AscendC::HardEvent e, Pipe& src, Pipe& dst);
const char* event_name(AscendC::HardEvent e);
const char* dtype_name(DType dt);
uint32_t dtype_size(DType dt);
const char* position_name(TPosition pos);
Mem mem_of(TPosition pos, const Soc& soc);

using VClock = std::array<uint32_t, kPipeCount>;
inline void join(VClock& a, const VClock& b) {
  for (int i = 0; i < kPipeCount; ++i) a[i] = a[i] > b[i] ? a[i] : b[i];
}

// A run of bytes of one on-chip memory with the same history: whether all of it was written, its last
// writer (pipe, clock, API, line) and each pipe's last read clock. Accesses split and merge runs, so a
// kernel that moves whole tiles keeps a handful of runs per memory and every check is O(runs touched).
struct Seg {
  uint32_t end;                  // exclusive; a run starts where the previous one ends
  uint8_t init;                  // 1 when every byte of the run was written (with defined values)
  uint8_t w_pipe;
  uint32_t w_clock;              // 0: never written
  uint32_t w_line;
  const char* w_api;
  uint32_t r_clock[kPipeCount];
  // A run a count-form instruction wrote from lanes nothing wrote (init 0, w_api set): where that garbage entered,
  // the first instruction that read never-written bytes (LaneScope below).
  const char* p_file;
  uint32_t p_line;
  const char* p_api;
};

// A count-form vector instruction works lane by lane: a lane it reads from UB bytes nothing wrote holds garbage on the
// chip, not a fault, so the lanes it writes from them are marked unwritten ("poisoned") instead of failing there
// (elementwise.h LaneWise). The error comes where such bytes are used otherwise: copied to GM, read by the scalar
// unit or by an instruction that mixes lanes (a reduction, a gather, a repeat-form call), naming where the garbage
// entered. The lanes of one instruction are numbered from 0 in each operand.
struct LaneScope {
  // Runs `touch` (an operand's reads) with lanes of `unit_bytes` (`lanes_per_unit` each) numbered from `base_addr`:
  // never-written bytes it reads are added to `poisoned` instead of failing. Returns what touch returns.
  template <class F> decltype(auto) read_operand(uint32_t base_addr, uint32_t unit_bytes, uint32_t lanes_per_unit, F&& touch) {
    base = base_addr;
    unit = unit_bytes;
    lanes = lanes_per_unit;
    operand = true;
    struct Off {
      bool& on;
      ~Off() { on = false; }
    } off{operand};
    return touch();
  }

  // Where the instruction's garbage entered: the first source noted is kept.
  void note_source(const char* file, uint32_t line, const char* api) {
    if (p_api) return;
    p_file = file;
    p_line = line;
    p_api = api;
  }
  // Whether lane i (numbered as the operands' lanes) was read from never-written bytes so far: its value is garbage,
  // so a documented input-range check does not apply to it.
  bool is_poisoned(uint64_t lane) const {
    for (const auto& [a, b] : poisoned)
      if (lane >= a && lane < b) return true;
    return false;
  }

  bool active = false;           // inside one count-form instruction
  bool operand = false;          // inside touch_count of one of its operands
  uint32_t base = 0;             // the operand's first byte
  uint32_t unit = 4;             // bytes per lane group ...
  uint32_t lanes = 1;            // ... of this many lanes (8 for a mask of bits)
  std::vector<std::pair<uint64_t, uint64_t>> poisoned;   // lanes [a, b) read from never-written bytes
  const char* p_file = nullptr;  // where the garbage entered (the first such read)
  uint32_t p_line = 0;
  const char* p_api = nullptr;
};

struct Pool {
  uint32_t size = 0;
  std::unique_ptr<uint8_t[]> data;
  std::vector<Seg> segs;         // ordered runs covering [0, size)
  void allocate(uint32_t bytes);
};

struct Buffer {
  Mem mem;
  TPosition pos;
  uint32_t addr, len;
  int32_t queue;                     // owning queue or TBuf handle
  uint32_t gen = 1;                  // bumped when freed; stale tensors carry older generations
  enum State : uint8_t { Free, Allocated, Queued } state = Free;
  bool has_token = false;            // FreeTensor's flag that the next AllocTensor waits on
  VClock token{};
  uint32_t alloc_line = 0;
  const char* enque_file = nullptr;  // where it was last EnQue'd (for the end-of-kernel queue check)
  uint32_t enque_line = 0;
  std::string past_end;              // InitBuffer placed it past the end of its memory: why, said when an access
                                     // goes beyond the memory: on the chip neither InitBuffer nor AllocTensor faults
};

struct Queue {
  TPosition src, dst;
  int32_t depth;
  bool is_tbuf;
  Pipe prod, cons;                   // pipes the implied EnQue/DeQue flag connects
  std::vector<int16_t> bufs;
  uint32_t cursor = 0;               // AllocTensor takes buffers round-robin from here, as CANN's queues do
  std::vector<int16_t> fifo;         // buffers in EnQue order
  std::vector<VClock> fifo_tokens;
};

// A SetFlag/WaitFlag event id: the hardware flag counts. CANN calls a second SetFlag before the WaitFlag undefined
// behaviour that hangs a PipeBarrier<PIPE_ALL> between them, yet answers correct on the chip set twice and wait
// twice (double_set_flag.h); each WaitFlag takes the oldest set.
struct Flag {
  struct Set {
    VClock token{};
    uint32_t line = 0;
  };
  std::vector<Set> pending;
};

// One trace record: a pipe instruction or a synchronisation edge.
struct TraceRec {
  enum Kind : uint8_t { Instr, SetFlag, WaitFlag, Barrier, EnQue, DeQue, AllocTensor, FreeTensor, SyncAll,
                        CrossSet, CrossWait } kind;   // Cross*: CrossCoreSetFlag/WaitFlag (event: mode, id: flag)
  uint8_t pipe;         // issuing pipe (for flags: source pipe)
  uint8_t pipe2;        // flags: destination pipe
  uint8_t dtype;
  uint32_t line;
  const char* api;
  uint64_t elems;       // elements computed or moved
  uint64_t bytes;       // bytes moved or touched
  uint32_t repeats;
  uint32_t count;       // identical consecutive scalar records merged into one
  int32_t event;        // flags: HardEvent; queues: handle
  int32_t id;           // flags: event id; queues: buffer
  uint32_t dst, src0, src1;   // on-chip byte addresses (0xffffffff: none)
  uint32_t cube_m, cube_n, cube_k;   // cube instructions (pipes M, MTE1, FIX): matrix shape; 0 otherwise
  // The GM footprint: `bytes` from `gm` on, in gm_rows rows of bytes / gm_rows each, gm_stride bytes apart
  // (gm_rows <= 1: one contiguous range). The performance model's L2 keys on it (set_gm_footprint).
  uint32_t gm_rows, gm_stride;
  uint64_t gm;          // GM address touched, if any (the first byte)
};
// In this order the fields need no padding: a timing-only run keeps millions of records (docs/emulator.md).
static_assert(sizeof(TraceRec) == 88, "TraceRec grew: keep its fields ordered without padding");
// Records the GM side of a DMA: its first byte, and for a strided copy its rows and their pitch in bytes (a pitch
// equal to the row length is contiguous; one beyond 4 GiB is recorded as 0xffffffff, a key rather than a distance).
// row_bytes is the length of one row in GM.
void set_gm_footprint(TraceRec& r, const void* first, uint64_t rows = 1, uint64_t stride = 0, uint64_t row_bytes = 0);

struct TPipeState {
  int32_t id;
  void* self;
  uint32_t bump[kMemCount] = {};
  uint32_t total_buffers = 0;
  uint32_t events_alloc[64] = {};   // per HardEvent: bitmask of ids handed out by AllocEventID
  bool destroyed = false;           // TPipe::Destroy ran: a new TPipe may start (its pools from offset 0)
};

enum class CoreKind : uint8_t { AIV, AIC };

struct Core {
  const Soc* soc;
  CoreKind kind = CoreKind::AIV;     // vector core (UB, V pipe) or cube core (L1/L0, M pipe)
  int32_t block = 0, block_num = 1, sub_block = 0, task_ratio = 1;
  Pool pools[kMemCount];
  std::vector<Buffer> bufs;
  std::vector<Queue> queues;
  std::unique_ptr<TPipeState> pipe;
  int32_t next_pipe_id = 1;
  // happens-before: clock[p] counts p's instructions; vc[q][p] is how much of p's history q has waited for
  uint32_t clock[kPipeCount] = {};
  VClock vc[kPipeCount] = {};
  VClock scalar_waited{};          // what the scalar unit blocked on: every later-issued instruction is after it
  // L0C unit flags (Mmad/Fixpipe unitFlag 2 or 3, 910B): one bit per 512-byte block, set by a Mmad with unitFlag 3
  // and cleared by a Fixpipe with unitFlag 3; the waiting instruction takes the other pipe's clock (unit_flag.h).
  struct UnitFlag {
    bool set = false;
    VClock setter{}, clearer{};
  };
  std::vector<UnitFlag> unit_flags;
  bool auto_sync_scalar = true;     // KGEN_AUTO_SYNC=0: kernels built with --cce-auto-sync=off
  Flag flags[64][8];
  uint64_t va_regs[8][8] = {};      // bisheng's VA0-VA7: UB addresses for scatter_vnchwconv (set_va_reg_sb)
  int flags_set_twice = 0;          // flags with two or more sets pending: a PipeBarrier<PIPE_ALL> now hangs
  // vector mask registers
  bool mask_counter = false;
  uint64_t mask_hi = ~0ull, mask_lo = ~0ull;
  // MAX_MIN_CNT: the extreme of the last WholeReduceMax/Min over all its repeats, value bits low, index high
  uint64_t max_min_spr = 0;
  // ACC_VAL: the sum of the last vcadd in accumulate mode (value bits low)
  uint64_t acc_val = 0;
  // DEQSCALE: SetDeqScale(half)'s factor, applied by Cast int32 -> half
  float deq_scale = 1.0f;
  // GM atomics for MTE3 writes
  int atomic_op = 0;
  DType atomic_dt = DType::Unknown;
  std::vector<TraceRec> trace;
  // An MTE3 store whose GM bytes land in an allocation's rounding (gm.h gm_set_granule) and in no tensor: the
  // UB bytes it reads there may be uninitialised, as on the chip, where they only fill the padding.
  bool store_to_padding = false;
  LaneScope lanes;
  // A write that races with another pipe's access to the same bytes is harmless when it stores what they already
  // hold (a Duplicate of zeros over zeros another pipe is still reading: either order leaves the same bytes), so
  // the race is judged when the write is done: at the core's next instruction or end (memory.cpp settle_races).
  struct PendingRace {
    Mem m;
    uint32_t addr;
    std::vector<uint8_t> before;   // the bytes the racing write found
    const char* api;
    const char* file;
    uint32_t line;
    std::string msg;
  };
  std::vector<PendingRace> pending_races;
};

// The core that runs now; fails (category "param") when no kernel is running.
Core& cur();
Core* cur_or_null();
void set_cur(Core* c);
extern bool g_trace_on;

// ---- diagnostics ----
[[noreturn]] void fail(const char* category, const char* api, const Loc& loc, const std::string& msg);
// The same at a file and line other than the call's (where poisoned lanes came from).
[[noreturn]] void fail_at(const char* category, const char* api, const char* file, uint32_t line, const std::string& msg);
// Judges the writes that raced (Core::PendingRace): error[race] for the first that changed the bytes it raced on.
void settle_races(Core& c);
// Marks UB bytes [addr, addr + bytes) of memory m unwritten, their garbage having entered at (file, line, api).
void poison(Mem m, uint32_t addr, uint64_t bytes, const char* file, uint32_t line, const char* api);
// The one-line form of every emulator error: `error[CATEGORY] FILE:LINE block B API: message` (block < 0: host).
std::string error_line(const char* category, const char* file, uint32_t line, int32_t block, const char* api,
                       const std::string& msg);
std::string fmt_bytes(uint64_t b);

// ---- issuing and memory checks (memory.cpp) ----
// Starts an instruction on pipe p: advances its clock and applies what the scalar unit has waited for.
void issue(Pipe p);
// Checks a tensor handed to an API: live buffer, known position, address alignment of its memory.
// Returns the start of its memory. `align` = 0 uses the memory's rule.
uint8_t* resolve(const rt::LocalRef& t, const char* api, const Loc& loc, uint32_t align = 0);
// Bounds of bytes [off, off+bytes) of tensor t: beyond its memory is error[ub-overflow]; past its buffer only is
// counted (buffer_overrun.h), since the chip checks no buffer bounds.
void check_extent(const rt::LocalRef& t, uint64_t off, uint64_t bytes, bool write, const char* api, const Loc& loc);
// Declares that pipe p reads or writes bytes [off, off+bytes) of tensor t: bounds, init, race. Returns the pointer.
uint8_t* touch(const rt::LocalRef& t, uint64_t off, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc);
// touch() for each of the byte ranges `runs` (offset from t's start, length) in turn; in one pass over the memory's
// history when they are in increasing order and apart (the pieces of a strided operand).
void touch_runs(const rt::LocalRef& t, const std::vector<std::pair<uint64_t, uint64_t>>& runs, bool write, Pipe p,
                const char* api, const Loc& loc);
// The same for a byte range of a memory given absolutely (used by strided and repeat forms).
void touch_abs(Mem m, uint32_t addr, uint64_t bytes, bool write, Pipe p, const char* api, const Loc& loc);
uint8_t* mem_base(Mem m);

// ---- trace (trace.cpp) ----
TraceRec& trace_instr(Pipe p, const char* api, DType dt, uint64_t elems, uint64_t bytes, uint32_t repeats,
                      const Loc& loc);
void trace_sync(TraceRec::Kind k, Pipe a, Pipe b, int32_t event, int32_t id, const Loc& loc);

// ---- flags shared by queues and SetFlag/WaitFlag (sync.cpp) ----
VClock flag_token(Pipe src);
void flag_wait(Pipe dst, const VClock& token);

// ---- GM (gm.cpp) ----
void gm_check_range(const void* addr, uint64_t bytes, bool write, const char* api, const Loc& loc);

// ---- dtype support tables (dtype_rules.cpp) ----
// Fails with category "dtype" when `api` does not take `dt` on the running SoC.
void require_dtype(const char* api, DType dt, const Loc& loc);

struct SimError {
  std::string line;
};
}  // namespace kgen::sim
