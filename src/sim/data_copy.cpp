// DataCopy and DataCopyPad: GM<->UB by MTE2/MTE3, UB->UB by the vector pipe. Units and padding rules of
// ascendc-api.md §3.1-3.2: DataCopy counts 32-byte blocks; DataCopyPad counts bytes on GM, blocks on UB.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "sim/core.h"
#include "sim/elementwise.h"
#include "sim/core_kind.h"
#include "sim/gm_races.h"
#include "kgen/cube.h"
#include "sim/gm.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
bool is_vec_pos(TPosition p) { return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC; }

// An MTE3 store into GM, honouring SetAtomicAdd/Max/Min.
void store_to_gm(Core& c, uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  if (c.atomic_op == 0) { std::memcpy(dst, src, bytes); return; }
  uint32_t es = dtype_size(c.atomic_dt);
  for (uint64_t i = 0; i + es <= bytes; i += es) atomic_combine(c.atomic_dt, c.atomic_op, dst + i, src + i);
}

// The UB side of an MTE3 store of `len` bytes to GM `gm`: read as any access, except that the bytes landing in the
// GM allocation's rounding (no tensor's data) may be uninitialised, as on the chip (core.h store_to_padding).
const uint8_t* store_source(const rt::LocalRef& ub, uint64_t off, const void* gm, uint64_t len, const char* api,
                            const Loc& loc) {
  const uint64_t inside = gm_tensor_bytes(gm, len);
  const uint8_t* s = touch(ub, off, inside, false, kMTE3, api, loc);
  if (inside < len) {
    struct Padding {   // reset even when a check throws (tests run the emulator with throw_on_error)
      Core& c;
      explicit Padding(Core& core) : c(core) { c.store_to_padding = true; }
      ~Padding() { c.store_to_padding = false; }
    } padding(cur());
    touch(ub, off + inside, len - inside, false, kMTE3, api, loc);
  }
  return s;   // touch returns the start of the range whatever its length
}

const char* copy_api(bool count_form) { return count_form ? "DataCopy" : "DataCopy"; }
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void data_copy(AscendC::TPosition dpos, const LocalRef* dl, void* dg, AscendC::TPosition spos, const LocalRef* sl,
               const void* sg, DType dt, const AscendC::DataCopyParams& p, bool count_form, uint64_t count, Loc loc) {
  Core& c = cur();
  const char* api = copy_api(count_form);
  uint32_t es = dtype_size(dt);
  AscendC::DataCopyParams q = p;
  if (count_form) {
    uint64_t bytes = count * es;
    if (bytes % 32 != 0)
      fail("align", api, loc,
           std::to_string(count) + " elements of " + dtype_name(dt) + " = " + std::to_string(bytes) +
               " bytes is not a multiple of 32 (the chip drops the last " + std::to_string(bytes % 32) +
               " bytes); use DataCopyPad for the tail, or round the count up to a multiple of " +
               std::to_string(32 / es) + " elements");
    if (bytes / 32 > 65535)
      fail("param", api, loc, std::to_string(bytes) + " bytes in one DataCopy exceed blockLen's 65535 blocks; split the copy");
    q.blockCount = 1;
    q.blockLen = static_cast<uint16_t>(bytes / 32);
    q.srcStride = q.dstStride = 0;
    if (bytes == 0) return;
  } else {
    if (q.blockCount < 1 || q.blockCount > 4095)
      fail("param", api, loc, "blockCount " + std::to_string(q.blockCount) + " is outside [1, 4095]");
    if (q.blockLen == 0) fail("param", api, loc, "blockLen is 0 (it counts 32-byte blocks)");
  }
  uint64_t len = static_cast<uint64_t>(q.blockLen) * 32;
  uint64_t sstep = (static_cast<uint64_t>(q.blockLen) + q.srcStride) * 32;
  uint64_t dstep = (static_cast<uint64_t>(q.blockLen) + q.dstStride) * 32;
  uint64_t total = len * q.blockCount;

  Pipe pipe;
  bool coupled = c.soc->arch == 2002;   // 310P: one AI Core holds UB and L1; 910B splits them over AIV and AIC
  if (sl == nullptr && dl != nullptr) {                       // GM -> local
    if (is_vec_pos(dpos)) require_core_kind(CoreKind::AIV, api, loc);
    else if (mem_of(dpos, *c.soc) == Mem::L1) require_core_kind(CoreKind::AIC, api, loc);
    else fail("param", api, loc, std::string("GM cannot be copied to ") + position_name(dpos) + " with DataCopy");
    pipe = kMTE2;
  } else if (sl != nullptr && dl == nullptr) {                // local -> GM
    if (!is_vec_pos(spos) && !(c.soc->arch == 2002 && spos == TPosition::CO2))   // CO2 is UB on 310P
      fail("param", api, loc, std::string("DataCopy from ") + position_name(spos) + " to GM is not a path on " + c.soc->name);
    require_core_kind(CoreKind::AIV, api, loc);
    pipe = kMTE3;
  } else if (sl && dl) {                                      // local -> local
    if (dpos == TPosition::C2 && mem_of(spos, *c.soc) == Mem::L1) {   // L1 -> bias table
      cube_copy_to_bias(*dl, dt, *sl, dt, p, loc);
      return;
    }
    if (is_vec_pos(spos) && is_vec_pos(dpos)) pipe = kV;
    else if (coupled && is_vec_pos(spos) && mem_of(dpos, *c.soc) == Mem::L1) pipe = kMTE3;
    else if (coupled && mem_of(spos, *c.soc) == Mem::L1 && is_vec_pos(dpos)) pipe = kMTE2;
    else fail("param", api, loc, std::string("DataCopy from ") + position_name(spos) + " to " + position_name(dpos) +
                                     " is not a path on " + c.soc->name + (coupled ? "" : " (UB and L1 are on different cores: go through GM)"));
    if (pipe == kV) require_core_kind(CoreKind::AIV, api, loc);
  } else {
    fail("param", api, loc, "DataCopy needs a local tensor on at least one side");
  }

  uint8_t* sbase = sl ? resolve(*sl, api, loc) : nullptr;
  uint8_t* dbase = dl ? resolve(*dl, api, loc) : nullptr;
  (void)sbase; (void)dbase;
  // The GM side is checked even when its address is null (an unset GlobalTensor): that is the error.
  if (!sl) gm_check_range(sg, sstep * (q.blockCount - 1) + len, false, api, loc);
  if (!dl) gm_check_range(dg, dstep * (q.blockCount - 1) + len, true, api, loc);
  issue(pipe);
  // A timing-only run moves no bytes to or from a GM tensor without data, nor between on-chip buffers (timing.h).
  const bool moves = values_on() || (sl ? dl == nullptr && gm_has_values(dg) : gm_has_values(sg));
  for (uint32_t i = 0; i < q.blockCount; ++i) {
    // GM addresses are the kernel's (race checks and the trace key on them); data moves through gm_data's alias.
    const uint8_t* sgi = sl ? nullptr : static_cast<const uint8_t*>(sg) + i * sstep;
    const uint8_t* s = sl ? (dl ? touch(*sl, i * sstep, len, false, pipe, api, loc)
                                : store_source(*sl, i * sstep, static_cast<uint8_t*>(dg) + i * dstep, len, api, loc))
                          : gm_data(sgi);
    if (!sl) gm_access(sgi, len, false, pipe, api, loc);
    if (!dl) gm_access(static_cast<uint8_t*>(dg) + i * dstep, len, true, pipe, api, loc, s);
    if (dl) {
      uint8_t* d = touch(*dl, i * dstep, len, true, pipe, api, loc);
      if (moves) std::memmove(d, s, len);
    } else if (moves) {
      store_to_gm(c, gm_data(static_cast<uint8_t*>(dg) + i * dstep), s, len);
    }
  }
  TraceRec& r = trace_instr(pipe, "DataCopy", dt, total / es, total, q.blockCount, loc);
  if (dl) r.dst = dl->addr;
  if (sl) r.src0 = sl->addr;
  set_gm_footprint(r, sg ? sg : dg, q.blockCount, sg ? sstep : dstep, len);
}

void data_copy_pad(const LocalRef* dl, void* dg, const LocalRef* sl, const void* sg, DType dt,
                   const AscendC::DataCopyExtParams& p, bool pad, uint8_t left, uint8_t right, Scalar pad_value,
                   bool ext, Loc loc) {
  Core& c = cur();
  const char* api = "DataCopyPad";
  require_core_kind(CoreKind::AIV, api, loc);
  if (!c.soc->has_data_copy_pad)
    fail("param", api, loc, std::string("DataCopyPad does not exist on ") + c.soc->name + "; use DataCopy with 32-byte multiples");
  uint32_t es = dtype_size(dt);
  if (p.blockCount < 1 || p.blockCount > 4095)
    fail("param", api, loc, "blockCount " + std::to_string(p.blockCount) + " is outside [1, 4095]");
  if (p.blockLen < 1 || p.blockLen > 2097151)
    fail("param", api, loc, "blockLen " + std::to_string(p.blockLen) + " bytes is outside [1, 2097151]");
  if (left * es > 32 || right * es > 32)
    fail("param", api, loc, "leftPadding/rightPadding may cover at most 32 bytes each (" + std::to_string(32 / es) + " elements of " + dtype_name(dt) + ")");
  if (p.blockLen % es != 0)
    fail("align", api, loc, "blockLen " + std::to_string(p.blockLen) + " bytes is not a whole number of " + dtype_name(dt) + " elements");
  uint64_t len = p.blockLen;
  if (dl && !sl) {   // GM -> UB, MTE2 (a null GM address fails the bounds check)
    if (!is_vec_pos(dl->pos)) fail("param", api, loc, std::string("DataCopyPad GM->") + position_name(dl->pos) + " is not a path; use VECIN/VECOUT");
    resolve(*dl, api, loc);
    uint64_t lbytes = static_cast<uint64_t>(left) * es, rbytes = static_cast<uint64_t>(right) * es;
    uint64_t row = (lbytes + len + rbytes + 31) / 32 * 32;
    uint64_t ustep = row + static_cast<uint64_t>(p.dstStride) * 32;
    uint64_t gstep = len + p.srcStride;
    gm_check_range(sg, gstep * (p.blockCount - 1) + len, false, api, loc);
    issue(kMTE2);
    const bool moves = values_on() || gm_has_values(sg);   // timing.h
    for (uint32_t i = 0; i < p.blockCount; ++i) {
      uint8_t* d = touch(*dl, i * ustep, row, true, kMTE2, api, loc);
      const uint8_t* sgi = static_cast<const uint8_t*>(sg) + i * gstep;
      gm_access(sgi, len, false, kMTE2, api, loc);
      if (!moves) continue;
      const uint8_t* s = gm_data(sgi);
      std::memcpy(d + lbytes, s, len);
      // Left/right pads and the dummy bytes up to 32: the row's first element when there is no padding at
      // all (whatever isPad says, DataCopyPad doc), else the pad value if isPad, else garbage (the poison).
      uint8_t* tail = d + lbytes + len;
      uint64_t tail_bytes = row - lbytes - len;
      if (left == 0 && right == 0) {
        for (uint64_t o = 0; o + es <= tail_bytes; o += es) std::memcpy(tail + o, s, es);
      } else if (pad) {
        for (uint64_t o = 0; o < lbytes; o += es) std::memcpy(d + o, &pad_value.bits, es);
        for (uint64_t o = 0; o + es <= tail_bytes; o += es) std::memcpy(tail + o, &pad_value.bits, es);
      } else {
        std::memset(d, 0xff, lbytes);
        std::memset(tail, 0xff, tail_bytes);
      }
    }
    TraceRec& r = trace_instr(kMTE2, api, dt, len * p.blockCount / es, len * p.blockCount, p.blockCount, loc);
    r.dst = dl->addr;
    set_gm_footprint(r, sg, p.blockCount, gstep, len);
    return;
  }
  if (sl && !dl) {   // UB -> GM, MTE3
    if (!is_vec_pos(sl->pos)) fail("param", api, loc, std::string("DataCopyPad ") + position_name(sl->pos) + "->GM is not a path");
    resolve(*sl, api, loc);
    uint64_t row = (len + 31) / 32 * 32;
    uint64_t ustep = row + static_cast<uint64_t>(p.srcStride) * 32;
    uint64_t gstep = len + p.dstStride;
    gm_check_range(dg, gstep * (p.blockCount - 1) + len, true, api, loc);
    issue(kMTE3);
    const bool moves = values_on() || gm_has_values(dg);   // timing.h
    for (uint32_t i = 0; i < p.blockCount; ++i) {
      const uint8_t* s = store_source(*sl, i * ustep, static_cast<uint8_t*>(dg) + i * gstep, len, api, loc);
      gm_access(static_cast<uint8_t*>(dg) + i * gstep, len, true, kMTE3, api, loc, s);
      if (moves) store_to_gm(c, gm_data(static_cast<uint8_t*>(dg) + i * gstep), s, len);
    }
    TraceRec& r = trace_instr(kMTE3, api, dt, len * p.blockCount / es, len * p.blockCount, p.blockCount, loc);
    r.src0 = sl->addr;
    set_gm_footprint(r, dg, p.blockCount, gstep, len);
    return;
  }
  (void)ext;
  fail("param", api, loc, "DataCopyPad copies GM->UB or UB->GM");
}

void init_output(void* dg, uint64_t count, DType dt, Scalar value, Loc loc) {
  const char* api = "InitOutput";
  Core& c = cur();
  if (c.kind == CoreKind::AIC) return;   // CANN: `if ASCEND_IS_AIC { return; }`
  const uint32_t es = dtype_size(dt);
  if (es == 0) fail("dtype", api, loc, "InitOutput needs an element type of 1, 2, 4 or 8 bytes");
  if (count == 0) return;
  gm_check_range(dg, count * es, true, api, loc);
  // The stack buffer holds at most 255 blocks (MAX_REPEAT_TIMES x 32 bytes): filled once by the vector unit, then
  // stored round after round.
  const uint64_t chunk = std::min<uint64_t>(count, 255 * 32 / es);
  std::vector<uint8_t> fill(chunk * es);
  for (uint64_t e = 0; e < chunk; ++e) std::memcpy(fill.data() + e * es, &value.bits, es);
  issue(kV);
  trace_instr(kV, api, dt, chunk, chunk * es, static_cast<uint32_t>((chunk * es + 255) / 256), loc);
  const bool moves = values_on() || gm_has_values(dg);   // timing.h
  for (uint64_t at = 0; at < count; at += chunk) {
    const uint64_t n = std::min(chunk, count - at), len = n * es;
    uint8_t* g = static_cast<uint8_t*>(dg) + at * es;
    issue(kMTE3);
    gm_access(g, len, true, kMTE3, api, loc, fill.data());
    if (moves) store_to_gm(c, gm_data(g), fill.data(), len);
    TraceRec& r = trace_instr(kMTE3, api, dt, n, len, 1, loc);
    set_gm_footprint(r, g, 1, len, len);
  }
}
}  // namespace kgen::rt
