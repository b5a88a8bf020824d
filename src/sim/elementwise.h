// Shared machinery of the vector APIs: dtype dispatch, operand checks, the count-form and mask/repeat-form
// iteration with their memory accounting (bounds, init, races), and the trace record.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "sim/core.h"

namespace kgen::sim {
template <class T> struct Tag { using type = T; };

// Calls f(Tag<T>{}) for the C++ type of dt. Unknown dtypes fail with "dtype".
template <class F> void dispatch(DType dt, const char* api, const Loc& loc, F&& f) {
  switch (dt) {
    case DType::F16: f(Tag<half>{}); return;
    case DType::BF16: f(Tag<bfloat16_t>{}); return;
    case DType::F32: f(Tag<float>{}); return;
    case DType::F64: f(Tag<double>{}); return;
    case DType::I8: f(Tag<int8_t>{}); return;
    case DType::U8: f(Tag<uint8_t>{}); return;
    case DType::I16: f(Tag<int16_t>{}); return;
    case DType::U16: f(Tag<uint16_t>{}); return;
    case DType::I32: f(Tag<int32_t>{}); return;
    case DType::U32: f(Tag<uint32_t>{}); return;
    case DType::I64: f(Tag<int64_t>{}); return;
    case DType::U64: f(Tag<uint64_t>{}); return;
    case DType::B8: f(Tag<uint8_t>{}); return;
    default: fail("dtype", api, loc, "unsupported element type");
  }
}

// Arithmetic type used to compute on T: float for half/bf16, T otherwise.
template <class T> using Calc = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>, float, T>;
template <class T> inline T load(const uint8_t* p) { T v; std::memcpy(&v, p, sizeof(T)); return v; }
template <class T> inline void store(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }

// A vector operand: must be a live, 32-byte aligned tensor in VECIN/VECCALC/VECOUT.
uint8_t* vec_operand(const rt::LocalRef& t, const char* api, const Loc& loc);

// 128 mask bits of one repeat (bit k enables element k of the repeat).
struct Mask128 {
  uint64_t lo = 0, hi = 0;
  bool test(uint32_t k) const { return k < 64 ? (lo >> k) & 1 : (hi >> (k - 64)) & 1; }
  // Whether bits [from, from + n) are all set (n <= 64; false past bit 127).
  bool all(uint32_t from, uint32_t n) const {
    auto ones = [](uint32_t k) { return k >= 64 ? ~0ull : (1ull << k) - 1; };
    if (from + n > 128) return false;
    if (from >= 64) return ((hi >> (from - 64)) & ones(n)) == ones(n);
    const uint32_t in_lo = std::min<uint32_t>(n, 64 - from);
    if (((lo >> from) & ones(in_lo)) != ones(in_lo)) return false;
    return in_lo == n || (hi & ones(n - in_lo)) == ones(n - in_lo);
  }
};

// How a mask/repeat-form call walks memory: repeats, blocks per repeat, strides, and the mask per repeat.
struct RepeatWalk {
  uint32_t repeat = 0;
  uint32_t elem = 4;           // bytes per element
  uint32_t per_block = 8;      // elements per 32-byte block
  bool counter = false;        // counter mode: `total` elements, repeatTime ignored
  uint64_t total = 0;
  Mask128 mask;
  Mask128 mask_for(uint32_t r) const;
};
// Resolves the mask argument against the core's mask registers and validates it (category "param").
RepeatWalk make_walk(const rt::MaskArg& m, uint32_t repeat, DType dt, const char* api, const Loc& loc);

// Declares the accesses of one operand of a repeat-form call: for each repeat and block, the enabled lanes.
void touch_walk(const rt::LocalRef& t, const RepeatWalk& w, uint32_t blk_stride, uint32_t rep_stride, bool write,
                const char* api, const Loc& loc, uint32_t elem_override = 0);
// Same for a count-form operand of `count` elements of `elem` bytes. Inside a LaneWise instruction a read of
// never-written bytes poisons the lanes instead of failing, and the write marks the destination's lanes from them
// unwritten; `bits`: the operand is a mask, one bit per lane (count and elem in bytes).
uint8_t* touch_count(const rt::LocalRef& t, uint64_t count, uint32_t elem, bool write, const char* api, const Loc& loc,
                     bool bits = false);

// One count-form instruction whose lanes are independent (elementwise, casts, comparisons, selects): the scope of
// core.h LaneScope, from its first operand to its write.
class LaneWise {
 public:
  LaneWise();
  ~LaneWise();
  LaneWise(const LaneWise&) = delete;
  LaneWise& operator=(const LaneWise&) = delete;
};

// One repeat-form instruction whose lanes are independent (elementwise and scalar forms): as LaneWise for the count
// form, a lane read from bytes nothing wrote is garbage, not a fault, and the destination lanes computed from it are
// marked unwritten (poisoned) when the destination is written. read() each source, then write() the destination.
class LaneWalk {
 public:
  explicit LaneWalk(const RepeatWalk& w) : w_(w) {}
  void read(const rt::LocalRef& t, uint32_t blk_stride, uint32_t rep_stride, const char* api, const Loc& loc);
  void write(const rt::LocalRef& dst, uint32_t blk_stride, uint32_t rep_stride, const char* api, const Loc& loc);

 private:
  struct Source {
    std::vector<std::pair<uint64_t, uint64_t>> garbage;   // element ranges [a, b) from the operand's address
    uint32_t blk_stride, rep_stride;
  };
  LaneWise scope_;
  const RepeatWalk& w_;
  std::vector<Source> sources_;
};

// Byte offset of element e of block j in repeat r.
inline uint64_t walk_offset(uint32_t r, uint32_t j, uint32_t e, uint32_t blk_stride, uint32_t rep_stride, uint32_t elem) {
  return (static_cast<uint64_t>(r) * rep_stride + static_cast<uint64_t>(j) * blk_stride) * 32 + static_cast<uint64_t>(e) * elem;
}

// Visits every enabled element (r, j, e) of a walk in hardware order.
template <class F> void for_each_lane(const RepeatWalk& w, F&& f) {
  uint32_t R = w.per_block * 8;
  for (uint32_t r = 0; r < w.repeat; ++r) {
    Mask128 m = w.mask_for(r);
    for (uint32_t j = 0; j < 8; ++j)
      for (uint32_t e = 0; e < w.per_block; ++e) {
        uint32_t k = j * w.per_block + e;
        if (k < R && m.test(k)) f(r, j, e);
      }
  }
}

// One V-pipe trace record, with the operand addresses.
void trace_vec(const char* api, DType dt, uint64_t elems, uint32_t repeats, const rt::LocalRef* dst,
               const rt::LocalRef* a, const rt::LocalRef* b, const Loc& loc);

// GM atomics: *dst = op(*dst, *src) for one element of dt (op 1 add, 2 max, 3 min).
void atomic_combine(DType dt, int op, uint8_t* dst, const uint8_t* src);

// Count argument of a count-form API: negative counts are a parameter error.
uint64_t checked_count(int64_t count, const char* api, const Loc& loc);
}  // namespace kgen::sim
