// The boundary between the AscendC headers and the emulator library (libkgen_sim).
// Headers stay thin: every API forwards here with plain descriptors and the caller's source location.
#pragma once
#include <cstdint>
#include <source_location>
#include "kgen/macros.h"
#include "kgen/enums.h"
#include "kgen/types.h"

namespace kgen::rt {
using Loc = std::source_location;

// What a LocalTensor is: a byte range of one on-chip memory, plus the buffer it came from (for use-after-free).
struct LocalRef {
  uint32_t addr = 0;     // byte offset inside the memory of `pos`
  uint32_t len = 0;      // bytes
  AscendC::TPosition pos = AscendC::TPosition::VECCALC;
  int16_t buf = -1;      // buffer slot in the core's TPipe, -1 for raw tensors
  uint32_t gen = 0;      // generation of that slot when the tensor was handed out
};

// The UB bytes [addr, addr + len) at a raw address ((__ubuf__ T*)tensor.GetPhyAddr(), a bisheng intrinsic's
// operand): a tensor of no buffer, bounded by what the caller says it spans.
inline LocalRef ub_ref(uint64_t addr, uint64_t len) {
  LocalRef r;
  r.addr = static_cast<uint32_t>(addr);
  r.len = static_cast<uint32_t>(len);
  r.pos = AscendC::TPosition::VECCALC;
  return r;
}

// A scalar operand, carried as raw bits of its element type.
struct Scalar { uint64_t bits = 0; };
template <class T> inline Scalar scalar_of(T v) { Scalar s; std::memcpy(&s.bits, &v, sizeof(T)); return s; }

// A vector mask argument: contiguous count or two 64-bit words, or "use the mask already set" (isSetMask=false).
struct MaskArg {
  enum Kind : uint8_t { Contiguous, Bits, External } kind = Contiguous;
  uint64_t count = 0;
  uint64_t lo = 0, hi = 0;
};
inline MaskArg mask_contiguous(uint64_t m, bool set) { MaskArg a; a.kind = set ? MaskArg::Contiguous : MaskArg::External; a.count = m; return a; }
inline MaskArg mask_bits(const uint64_t* m, bool set, DType dt) {
  MaskArg a; a.kind = set ? MaskArg::Bits : MaskArg::External;
  if (set) { a.lo = m[0]; a.hi = (dt == DType::F16 || dt == DType::BF16 || dt == DType::I16 || dt == DType::U16) ? m[1] : 0; }
  return a;
}

// ---- local memory ----
// One element of a local tensor read into `out` / written from `in` (traced on the scalar pipe). Values are copied,
// never handed out as pointers: a pointer into the emulator's memory would let code compute outside the API.
void local_load(const LocalRef& t, uint64_t index, uint32_t elem, void* out, const char* api, Loc loc);
void local_store(const LocalRef& t, uint64_t index, uint32_t elem, const void* in, const char* api, Loc loc);
void local_check_view(const LocalRef& t, const char* api, Loc loc);

// ---- TPipe / TQue / TBuf ----
int32_t pipe_create(void* self, Loc loc);
void* current_pipe_object();
void pipe_destroy(int32_t pipe);
void pipe_reset(int32_t pipe, Loc loc);
void pipe_release(int32_t pipe, Loc loc);   // TPipe::Destroy (tpipe.h)
bool pipe_init_queue(int32_t pipe, int32_t& handle, AscendC::TPosition src, AscendC::TPosition dst, int32_t depth,
                     uint32_t num, uint32_t len, Loc loc);
bool pipe_init_tbuf(int32_t pipe, int32_t& handle, AscendC::TPosition pos, uint32_t len, Loc loc);
LocalRef queue_alloc(int32_t handle, uint32_t elem, Loc loc);
bool queue_enque(int32_t handle, const LocalRef& t, Loc loc);
LocalRef queue_deque(int32_t handle, Loc loc);
void queue_free(int32_t handle, const LocalRef& t, Loc loc);
int32_t queue_query(int32_t handle, int what);   // 0 vacant, 1 has tensor, 2 count in queue, 3 has idle buffer
void queue_free_all_events(int32_t handle);
LocalRef tbuf_get(int32_t handle, uint32_t count, uint32_t elem, uint32_t byte_offset, bool whole, Loc loc);
// PopStackBuffer: the UB from the end of the live TPipe's buffers to the end CANN gives the stack.
LocalRef pop_stack_buffer(AscendC::TPosition pos, Loc loc);
int32_t pipe_alloc_event(int32_t pipe, AscendC::HardEvent evt, Loc loc);
void pipe_release_event(int32_t pipe, AscendC::HardEvent evt, int32_t id);
int32_t pipe_fetch_event(int32_t pipe, AscendC::HardEvent evt);

// ---- global memory ----
void gm_check(const void* addr, uint64_t bytes, bool write, const char* api, Loc loc);
// One GM element read into `out` / written from `in` (traced on the scalar pipe; values copied, as local_load).
void gm_load(const void* addr, uint32_t elem, void* out, const char* api, Loc loc);
void gm_store(void* addr, uint32_t elem, const void* in, const char* api, Loc loc);

// ---- data movement ----
void data_copy(AscendC::TPosition dpos, const LocalRef* dl, void* dg, AscendC::TPosition spos, const LocalRef* sl,
               const void* sg, DType dt, const AscendC::DataCopyParams& p, bool count_form, uint64_t count, Loc loc);
// InitOutput: `count` elements of GM at dg set to `value` through the core's stack buffer (not the TPipe's UB).
void init_output(void* dg, uint64_t count, DType dt, Scalar value, Loc loc);
void data_copy_pad(const LocalRef* dl, void* dg, const LocalRef* sl, const void* sg, DType dt,
                   const AscendC::DataCopyExtParams& p, bool pad, uint8_t left, uint8_t right, Scalar pad_value,
                   bool ext, Loc loc);

// ---- sync ----
void set_flag(AscendC::HardEvent evt, int32_t id, Loc loc);
void wait_flag(AscendC::HardEvent evt, int32_t id, Loc loc);
void pipe_barrier(pipe_t pipe, Loc loc);
void data_sync_barrier(Loc loc);
void sync_all(Loc loc, bool aiv_only = true);
void sync_all_soft(const void* gm, uint64_t gm_bytes, const LocalRef& ub, int32_t used_cores, bool aiv_only, Loc loc);
void set_atomic(DType dt, int op, Loc loc);   // op: 0 none, 1 add, 2 max, 3 min

// ---- core identity ----
int64_t block_idx();
int64_t block_num();
int64_t sub_block_idx();
int64_t task_ratio();
void set_kernel_type(int type);
uint64_t tiling_key();
int64_t system_cycle();

// ---- tiling ----
void tiling_copy(void* dst, const void* gm, uint32_t bytes, Loc loc);

// ---- diagnostics ----
[[noreturn]] void report_error(const char* category, const char* api, Loc loc, const char* message);
}  // namespace kgen::rt
