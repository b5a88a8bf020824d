// TPipe, TQue/TQueBind and TBuf: buffer allocation per memory, queue protocol checks, and the pipe flags
// that EnQue/DeQue/AllocTensor/FreeTensor imply (ascendc-api.md §2.3).
#include <string>

#include "sim/core.h"

namespace kgen::sim {
namespace {
constexpr uint32_t kMaxBuffers = 64;   // QBUF_MAX_LEN in CANN's TPipe

TPipeState& live_pipe(int32_t id, const char* api, const Loc& loc) {
  Core& c = cur();
  if (!c.pipe || c.pipe->id != id)
    fail("param", api, loc, "this TPipe is not the live one (only one TPipe may exist at a time; it was destroyed or replaced)");
  return *c.pipe;
}

Queue& queue_at(int32_t handle, const char* api, const Loc& loc) {
  Core& c = cur();
  if (handle < 0 || static_cast<size_t>(handle) >= c.queues.size())
    fail("queue", api, loc, "queue was never given buffers: call pipe.InitBuffer(queue, num, bytes) first");
  return c.queues[handle];
}

// Which pipes produce into and consume from a queue between two positions (the flag EnQue/DeQue implies).
void queue_pipes(TPosition src, TPosition dst, const Soc& soc, Pipe& prod, Pipe& cons) {
  using P = TPosition;
  if (src == P::VECIN && dst == P::VECOUT) { prod = kMTE2; cons = kMTE3; return; }
  switch (src) {
    case P::VECIN: prod = kMTE2; cons = kV; return;
    case P::VECOUT: prod = kV; cons = kMTE3; return;
    case P::A1: case P::B1: case P::C1: prod = kMTE2; cons = kMTE1; return;
    case P::A2: case P::B2: case P::C2: prod = kMTE1; cons = kM; return;
    case P::CO1: prod = kM; cons = soc.arch == 2002 ? kV : kFIX; return;
    case P::CO2: prod = soc.arch == 2002 ? kV : kFIX; cons = kMTE3; return;
    case P::TSCM: prod = kMTE3; cons = kMTE1; return;
    default: prod = kV; cons = kV; return;
  }
}

uint32_t live_in_position(const Core& c, TPosition pos) {
  uint32_t n = 0;
  for (const Buffer& b : c.bufs)
    if (b.pos == pos && b.state != Buffer::Free && !c.queues[b.queue].is_tbuf) ++n;
  return n;
}

Buffer& owned_buffer(Queue& q, int32_t handle, const rt::LocalRef& t, const char* api, const Loc& loc) {
  Core& c = cur();
  if (t.buf < 0 || static_cast<size_t>(t.buf) >= c.bufs.size() || c.bufs[t.buf].queue != handle)
    fail("queue", api, loc, "tensor does not belong to this queue (it came from a queue between other pipes, a TBuf or "
                            "no buffer; on the chip the other queue's AllocTensor would wait for an event never set)");
  Buffer& b = c.bufs[t.buf];
  if (b.gen != t.gen)
    fail("use-after-free", api, loc, "tensor was already released by FreeTensor; it cannot be used again");
  (void)q;
  return b;
}

int32_t add_buffers(int32_t pipe_id, TPosition pos, TPosition src, TPosition dst, int32_t depth, bool tbuf, uint32_t num,
                    uint32_t len, const char* api, const Loc& loc) {
  Core& c = cur();
  TPipeState& p = live_pipe(pipe_id, api, loc);
  if (num == 0) fail("param", api, loc, "buffer count num is 0; use 1 (single buffer) or 2 (double buffering)");
  // len 0: CANN checks len > 0 in CPU-debug builds only (kernel_tpipe_impl.h, ASCENDC_DEBUG_ASSERT); on the chip the
  // buffer takes no UB and a tensor taken from it has no room, so an access to it is the error (ub-overflow).
  uint64_t rounded = (static_cast<uint64_t>(len) + 31) / 32 * 32;
  if (p.total_buffers + num > kMaxBuffers)
    fail("ub-overflow", api, loc,
         "TPipe would hold " + std::to_string(p.total_buffers + num) + " buffers; the limit is " +
             std::to_string(kMaxBuffers) + " per TPipe (merge queues or use fewer buffers per queue)");
  Mem m = mem_of(pos, *c.soc);
  uint32_t cap = c.soc->mem_size[static_cast<int>(m)];
  if (cap == 0) fail("param", api, loc, std::string(mem_name(m)) + " does not exist on " + c.soc->name);
  uint64_t need = rounded * num;
  uint32_t& bump = p.bump[static_cast<int>(m)];
  // Past the end of the memory: the chip's InitBuffer does not check (CANN asserts it in CPU debug builds only), nor
  // does AllocTensor; a buffer the kernel never reaches past the end is harmless there (NPUKernelBench's
  // MaskedSelectV3). An access beyond the memory is the error (memory.cpp touch), named with this InitBuffer's line.
  std::string past_end;
  if (bump + need > UINT32_MAX)   // nothing is placed that far: stop before the offsets wrap
    fail("ub-overflow", api, loc, std::to_string(num) + " x " + std::to_string(rounded) + " bytes at " + mem_name(m) +
                                      " offset " + std::to_string(bump) + " leave the 4 GB address range");
  if (bump + need > cap)
    past_end = "its buffer was placed by the InitBuffer at line " + std::to_string(loc.line()) + ": " +
               std::to_string(num) + " x " + std::to_string(rounded) + " bytes at " + mem_name(m) + " offset " +
               std::to_string(bump) + " end at " + std::to_string(bump + need) + ", past the " + std::to_string(cap) +
               "-byte " + mem_name(m) + " of " + c.soc->name + "; shrink the tile or the buffer count (" +
               std::to_string(cap > bump ? cap - bump : 0) + " bytes remained)";
  Queue q;
  q.src = src;
  q.dst = dst;
  q.depth = depth;
  q.is_tbuf = tbuf;
  queue_pipes(src, dst, *c.soc, q.prod, q.cons);
  int32_t handle = static_cast<int32_t>(c.queues.size());
  for (uint32_t i = 0; i < num; ++i) {
    Buffer b;
    b.mem = m;
    b.pos = pos;
    b.addr = bump;
    b.len = static_cast<uint32_t>(rounded);
    b.queue = handle;
    b.state = tbuf ? Buffer::Allocated : Buffer::Free;
    if (b.addr + rounded > cap) b.past_end = past_end;   // of a double buffer, the first may still fit
    bump += static_cast<uint32_t>(rounded);
    q.bufs.push_back(static_cast<int16_t>(c.bufs.size()));
    c.bufs.push_back(b);
  }
  p.total_buffers += num;
  c.queues.push_back(std::move(q));
  mem_base(m);
  return handle;
}

void release_all(Core& c) {
  c.bufs.clear();
  c.queues.clear();
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

int32_t pipe_create(void* self, Loc loc) {
  Core& c = cur();
  if (c.pipe && !c.pipe->destroyed)
    fail("param", "TPipe", loc,
         "a second TPipe while another is alive; a kernel has exactly one TPipe (pass a pointer to it instead)");
  c.pipe = std::make_unique<TPipeState>();
  c.pipe->id = c.next_pipe_id++;
  c.pipe->self = self;
  return c.pipe->id;
}

void* current_pipe_object() {
  Core* c = cur_or_null();
  return c && c->pipe ? c->pipe->self : nullptr;
}

void pipe_destroy(int32_t id) {
  Core* c = cur_or_null();
  if (!c || !c->pipe || c->pipe->id != id) return;
  // A kernel's TPipe dies before the kernel returns: keep queues that still hold tensors so that the
  // launcher's end-of-kernel check can report them (tests on a TestCore simply drop them).
  for (const Queue& q : c->queues)
    if (!q.fifo.empty()) { c->pipe.reset(); return; }
  release_all(*c);
  c->pipe.reset();
}

void pipe_reset(int32_t id, Loc loc) {
  Core& c = cur();
  TPipeState& p = live_pipe(id, "TPipe::Reset", loc);
  // Tensors handed out before the reset become stale: keep the slots, bump their generations.
  for (Buffer& b : c.bufs) { ++b.gen; b.state = Buffer::Free; b.queue = -1; }
  c.queues.clear();
  for (uint32_t& b : p.bump) b = 0;
  p.total_buffers = 0;
}

// CANN's Destroy (kernel_tpipe_impl.h) waits for the buffers' pending events and ends with PIPE_ALL; unlike Reset it
// does not reset the memory pools, so tensors taken before stay usable (Catlass destroys its pipe right after taking
// whole-memory TBufs and uses them for the rest of the kernel), and another TPipe may be made, which allocates from
// offset 0 again: its buffers alias the old ones, as on the chip.
void pipe_release(int32_t id, Loc loc) {
  TPipeState& p = live_pipe(id, "TPipe::Destroy", loc);
  pipe_barrier(PIPE_ALL, loc);
  p.destroyed = true;
}

bool pipe_init_queue(int32_t pipe, int32_t& handle, AscendC::TPosition src, AscendC::TPosition dst, int32_t depth,
                     uint32_t num, uint32_t len, Loc loc) {
  TPosition pos = src == TPosition::GM ? dst : src;
  handle = add_buffers(pipe, pos, src, dst, depth, false, num, len, "InitBuffer", loc);
  return true;
}

bool pipe_init_tbuf(int32_t pipe, int32_t& handle, AscendC::TPosition pos, uint32_t len, Loc loc) {
  handle = add_buffers(pipe, pos, pos, pos, 0, true, 1, len, "InitBuffer", loc);
  return true;
}

LocalRef queue_alloc(int32_t handle, uint32_t elem, Loc loc) {
  Core& c = cur();
  Queue& q = queue_at(handle, "AllocTensor", loc);
  if (q.is_tbuf) fail("queue", "AllocTensor", loc, "AllocTensor on a TBuf; use Get<T>() for TBuf");
  // Round-robin from the buffer after the last one handed out: with two buffers, the next tile's copy-in
  // goes to the other buffer while the vector unit still reads this one (double buffering).
  int32_t chosen = -1;
  for (size_t i = 0; i < q.bufs.size(); ++i) {
    size_t k = (q.cursor + i) % q.bufs.size();
    if (c.bufs[q.bufs[k]].state == Buffer::Free) {
      chosen = q.bufs[k];
      q.cursor = static_cast<uint32_t>((k + 1) % q.bufs.size());
      break;
    }
  }
  if (chosen < 0) {
    std::string lines;
    for (int16_t b : q.bufs) lines += (lines.empty() ? "" : ", ") + std::to_string(c.bufs[b].alloc_line);
    fail("queue", "AllocTensor", loc,
         "no free buffer: all " + std::to_string(q.bufs.size()) + " buffers of this queue are in use (allocated at lines " +
             lines + "); FreeTensor each tensor after its last use, or InitBuffer more buffers");
  }
  Buffer& b = c.bufs[chosen];
  if (live_in_position(c, b.pos) + 1 > c.soc->max_live_per_pos)
    fail("queue", "AllocTensor", loc,
         std::string("more than ") + std::to_string(c.soc->max_live_per_pos) + " live buffers in position " +
             position_name(b.pos) + " (the hardware has " + std::to_string(c.soc->max_live_per_pos) +
             " event ids per position; on the chip this hangs); free tensors earlier");
  if (b.has_token) { flag_wait(q.prod, b.token); b.has_token = false; }
  b.state = Buffer::Allocated;
  b.alloc_line = loc.line();
  trace_sync(TraceRec::AllocTensor, q.prod, q.cons, handle, chosen, loc);
  LocalRef r;
  r.addr = b.addr;
  r.len = b.len;
  r.pos = b.pos;
  r.buf = static_cast<int16_t>(chosen);
  r.gen = b.gen;
  (void)elem;
  return r;
}

bool queue_enque(int32_t handle, const LocalRef& t, Loc loc) {
  Core& c = cur();
  Queue& q = queue_at(handle, "EnQue", loc);
  Buffer& b = owned_buffer(q, handle, t, "EnQue", loc);
  if (b.state == Buffer::Queued)
    fail("queue", "EnQue", loc, "tensor is already in the queue (EnQue twice without a DeQue between)");
  if (q.depth > 0 && q.fifo.size() >= static_cast<size_t>(q.depth))
    fail("queue", "EnQue", loc,
         "queue is full: depth " + std::to_string(q.depth) + " and " + std::to_string(q.fifo.size()) +
             " tensors already enqueued; DeQue first or declare TQue<pos, depth> with a larger depth");
  q.fifo.push_back(t.buf);
  q.fifo_tokens.push_back(flag_token(q.prod));
  b.state = Buffer::Queued;
  b.enque_file = loc.file_name();
  b.enque_line = loc.line();
  trace_sync(TraceRec::EnQue, q.prod, q.cons, handle, t.buf, loc);
  (void)c;
  return true;
}

LocalRef queue_deque(int32_t handle, Loc loc) {
  Core& c = cur();
  Queue& q = queue_at(handle, "DeQue", loc);
  if (q.fifo.empty())
    fail("queue", "DeQue", loc, "DeQue on an empty queue: nothing was EnQue'd, so the pipe would wait forever");
  int16_t bi = q.fifo.front();
  VClock token = q.fifo_tokens.front();
  q.fifo.erase(q.fifo.begin());
  q.fifo_tokens.erase(q.fifo_tokens.begin());
  flag_wait(q.cons, token);
  Buffer& b = c.bufs[bi];
  b.state = Buffer::Allocated;
  trace_sync(TraceRec::DeQue, q.prod, q.cons, handle, bi, loc);
  LocalRef r;
  r.addr = b.addr;
  r.len = b.len;
  r.pos = b.pos;
  r.buf = bi;
  r.gen = b.gen;
  return r;
}

void queue_free(int32_t handle, const LocalRef& t, Loc loc) {
  Core& c = cur();
  queue_at(handle, "FreeTensor", loc);
  // CANN's FreeTensor frees the tensor's own buffer and sets the calling queue's free event (checking that the buffer
  // is the queue's in CPU-debug builds only, kernel_tquebind_impl.h): through another queue between the same pipes
  // that is the owner's own free (NPUKernelBench's DeepNormGrad frees its mean and rstd through each other's queue).
  int32_t owner = handle;
  if (t.buf >= 0 && static_cast<size_t>(t.buf) < c.bufs.size() && c.bufs[t.buf].queue != handle) {
    const int32_t o = c.bufs[t.buf].queue;
    if (o >= 0 && static_cast<size_t>(o) < c.queues.size() && !c.queues[o].is_tbuf &&
        c.queues[o].prod == c.queues[handle].prod && c.queues[o].cons == c.queues[handle].cons)
      owner = o;
  }
  Queue& q = c.queues[owner];
  Buffer& b = owned_buffer(q, owner, t, "FreeTensor", loc);
  if (b.state == Buffer::Queued)
    fail("queue", "FreeTensor", loc, "tensor is still in the queue; DeQue it before FreeTensor");
  if (b.state == Buffer::Free) fail("use-after-free", "FreeTensor", loc, "tensor was already freed (double FreeTensor)");
  b.token = flag_token(q.cons);
  b.has_token = true;
  b.state = Buffer::Free;
  ++b.gen;
  trace_sync(TraceRec::FreeTensor, q.cons, q.prod, owner, t.buf, loc);
}

int32_t queue_query(int32_t handle, int what) {
  Core& c = cur();
  if (handle < 0 || static_cast<size_t>(handle) >= c.queues.size()) return 0;
  Queue& q = c.queues[handle];
  int32_t n = static_cast<int32_t>(q.fifo.size());
  switch (what) {
    case 0: return q.depth <= 0 || n < q.depth;
    case 1: return n > 0;
    case 2: return n;
    default:
      for (int16_t b : q.bufs)
        if (c.bufs[b].state == Buffer::Free) return 1;
      return 0;
  }
}

void queue_free_all_events(int32_t handle) {
  Core& c = cur();
  if (handle < 0 || static_cast<size_t>(handle) >= c.queues.size()) return;
  for (int16_t b : c.queues[handle].bufs) {
    Buffer& buf = c.bufs[b];
    if (buf.has_token) { flag_wait(c.queues[handle].prod, buf.token); buf.has_token = false; }
  }
}

LocalRef tbuf_get(int32_t handle, uint32_t count, uint32_t elem, uint32_t byte_offset, bool whole, Loc loc) {
  Core& c = cur();
  const char* api = whole || byte_offset == 0 ? "Get" : "GetWithOffset";
  // A TBuf never given InitBuffer: the chip hands out a tensor all the same, and only its use is wrong
  // (NPUKernelBench's TanhMath takes one it uses only for float16): an unbound tensor, which every API refuses.
  if (handle < 0 || static_cast<size_t>(handle) >= c.queues.size()) return LocalRef{};
  Queue& q = queue_at(handle, api, loc);
  if (!q.is_tbuf) fail("queue", api, loc, "Get on a TQue; use AllocTensor for queues");
  Buffer& b = c.bufs[q.bufs[0]];
  if (byte_offset % 32 != 0)
    fail("align", api, loc, "byte offset " + std::to_string(byte_offset) + " is not a multiple of 32");
  // More than the TBuf holds: CANN checks it in CPU-debug builds only (kernel_tbuf_impl.h), so the tensor is
  // handed out; its accesses past the buffer are the chip's (buffer_overrun.h), beyond the memory the error.
  uint64_t bytes = whole ? b.len : static_cast<uint64_t>(count) * elem;
  if (static_cast<uint64_t>(b.addr) + byte_offset + bytes > UINT32_MAX)
    fail("ub-overflow", api, loc,
         "asks for " + std::to_string(bytes) + " bytes at offset " + std::to_string(byte_offset) + " of a " +
             std::to_string(b.len) + "-byte TBuf: beyond any on-chip memory");
  LocalRef r;
  r.addr = b.addr + byte_offset;
  r.len = static_cast<uint32_t>(bytes);
  r.pos = b.pos;
  r.buf = q.bufs[0];
  r.gen = b.gen;
  return r;
}

LocalRef pop_stack_buffer(TPosition pos, Loc loc) {
  const char* api = "PopStackBuffer";
  Core& c = cur();
  if (mem_of(pos, *c.soc) != Mem::UB)
    fail("param", api, loc, std::string("the stack buffer is in UB; position ") + position_name(pos) + " is not");
  if (!c.pipe || c.pipe->destroyed)
    fail("param", api, loc, "no TPipe is live (GetTPipePtr() is null): create the TPipe first");
  // CANN's GetEndAddress: on arch 2201 the last sizeof(KfcMsg) = 128 bytes of UB carry the cube-vector messages.
  const uint64_t end = c.soc->mem_size[static_cast<int>(Mem::UB)] - (c.soc->arch == 2201 ? 128 : 0);
  const uint64_t used = (c.pipe->bump[static_cast<int>(Mem::UB)] + 31) / 32 * 32;
  if (used >= end)
    fail("ub-overflow", api, loc, "the TPipe's buffers use " + std::to_string(used) + " bytes of UB, leaving nothing "
                                  "before the stack's end at " + std::to_string(end) + ": shrink the InitBuffer sizes");
  LocalRef r;
  r.addr = static_cast<uint32_t>(used);
  r.len = static_cast<uint32_t>(end - used);
  r.pos = pos;
  return r;
}

int32_t pipe_alloc_event(int32_t pipe, AscendC::HardEvent evt, Loc loc) {
  TPipeState& p = live_pipe(pipe, "AllocEventID", loc);
  uint32_t& mask = p.events_alloc[static_cast<int>(evt)];
  for (int32_t id = 0; id < 8; ++id)
    if (!(mask & (1u << id))) { mask |= 1u << id; return id; }
  fail("param", "AllocEventID", loc, std::string("all 8 event ids of HardEvent::") + event_name(evt) + " are allocated");
}

void pipe_release_event(int32_t pipe, AscendC::HardEvent evt, int32_t id) {
  Core* c = cur_or_null();
  if (!c || !c->pipe || c->pipe->id != pipe || id < 0 || id > 7) return;
  c->pipe->events_alloc[static_cast<int>(evt)] &= ~(1u << id);
}

int32_t pipe_fetch_event(int32_t pipe, AscendC::HardEvent evt) {
  Core& c = cur();
  if (!c.pipe) return 0;
  uint32_t mask = c.pipe->events_alloc[static_cast<int>(evt)];
  for (int32_t id = 0; id < 8; ++id)
    if (!(mask & (1u << id))) return id;
  return 0;
}
}  // namespace kgen::rt
