// Reductions: ReduceSum/ReduceMax/ReduceMin (software-emulated multi-pass APIs with a sharedTmpBuffer),
// WholeReduceSum/Max/Min, BlockReduceSum/Max/Min, PairReduceSum, RepeatReduceSum (single instructions).
// Sums follow the documented pairwise binary tree inside a repeat; half intermediates saturate at +-65504.
#include <cstring>
#include <string>
#include <vector>

#include "kgen/adv_reduce.h"
#include "kgen/vec_reduce.h"
#include "sim/adv_common.h"
#include "sim/adv_tmp_sizes.h"
#include "sim/elementwise.h"

namespace kgen::sim {
namespace {
using rt::RedOp;

const char* red_api(RedOp op) { return op == RedOp::Sum ? "ReduceSum" : op == RedOp::Max ? "ReduceMax" : "ReduceMin"; }

// A reduction operand: live tensor in VECIN/VECCALC/VECOUT whose start meets `align` bytes.
uint8_t* red_operand(const rt::LocalRef& t, uint32_t align, const char* api, const Loc& loc) {
  uint8_t* base = resolve(t, api, loc, align);
  if (t.pos != TPosition::VECIN && t.pos != TPosition::VECOUT && t.pos != TPosition::VECCALC)
    fail("param", api, loc, std::string("vector operands must be in VECIN, VECCALC or VECOUT, not ") + position_name(t.pos));
  return base;
}

// One addition of the reduction tree: half results saturate at +-65504 and round to half.
inline float add_step(bool is_half, float a, float b) {
  float s = a + b;
  if (!is_half) return s;
  if (s > 65504.0f) s = 65504.0f;
  else if (s < -65504.0f) s = -65504.0f;
  return static_cast<float>(half(s));
}
// Pairwise tree over n values (n a power of two): (v0+v1), (v2+v3), ... then pairs of those, and so on.
float tree_sum(float* v, uint32_t n, bool is_half) {
  for (uint32_t w = n; w > 1; w /= 2)
    for (uint32_t i = 0; i < w / 2; ++i) v[i] = add_step(is_half, v[2 * i], v[2 * i + 1]);
  return v[0];
}

inline float load_f(DType dt, const uint8_t* p) {
  if (dt == DType::F16) return static_cast<float>(load<half>(p));
  return load<float>(p);
}
inline void store_f(DType dt, uint8_t* p, float v) {
  if (dt == DType::F16) store<half>(p, half(v));
  else store<float>(p, v);
}
inline void store_index(DType dt, uint8_t* p, uint32_t idx) {
  if (dt == DType::F16) store<uint16_t>(p, static_cast<uint16_t>(idx));
  else store<uint32_t>(p, idx);
}
// v as dt's bits in the low bytes of a special register (MAX_MIN_CNT, ACC_VAL).
inline uint32_t register_bits(DType dt, float v) {
  uint8_t bits[4] = {};
  store_f(dt, bits, v);
  uint32_t r = 0;
  std::memcpy(&r, bits, dtype_size(dt));
  return r;
}
inline bool better(RedOp op, float cand, float best) { return op == RedOp::Max ? cand > best : cand < best; }

// The lanes of repeat r of a walk over `src` (base already offset by src.addr): value per lane k, 0 when masked off.
struct Lanes {
  float v[128];
  bool en[128];
  uint32_t n;   // lanes per repeat
};
void load_lanes(DType dt, const uint8_t* base, const RepeatWalk& w, uint32_t r, uint32_t blk, uint32_t rep, Lanes& L) {
  L.n = w.per_block * 8;
  Mask128 m = w.mask_for(r);
  for (uint32_t j = 0; j < 8; ++j)
    for (uint32_t e = 0; e < w.per_block; ++e) {
      uint32_t k = j * w.per_block + e;
      L.en[k] = m.test(k);
      L.v[k] = L.en[k] ? load_f(dt, base + walk_offset(r, j, e, blk, rep, w.elem)) : 0.0f;
    }
}
// Extreme of the enabled lanes in [from, to): returns false when none is enabled. Ties keep the first lane.
bool lane_extreme(RedOp op, const Lanes& L, uint32_t from, uint32_t to, float& val, uint32_t& idx) {
  bool any = false;
  for (uint32_t k = from; k < to; ++k) {
    if (!L.en[k]) continue;
    if (!any || better(op, L.v[k], val)) { val = L.v[k]; idx = k; any = true; }
  }
  return any;
}

void check_stride(int64_t v, const char* name, const char* api, const Loc& loc) {
  if (v < 0 || v > 65535)
    fail("param", api, loc, std::string(name) + " " + std::to_string(v) + " is outside [0, 65535]");
}
void check_repeat255(int64_t repeat, const char* api, const Loc& loc) {
  if (repeat < 0 || repeat > 255)
    fail("param", api, loc, "repeatTime " + std::to_string(repeat) + " is outside [0, 255]; split the work into several calls");
}

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Minimum sharedTmpBuffer (elements) of ReduceMax/ReduceMin (0284 "sharedTmpBuffer空间计算"): each pass writes
// (value, index) pairs, 32-byte aligned; with calIndex every pass keeps its own space until one pair remains.
uint64_t maxmin_tmp_elems(uint64_t first_repeat, uint32_t R, uint32_t E, bool cal_index) {
  uint64_t cnt = first_repeat * 2;
  uint64_t need = align_up(cnt, E);
  if (cal_index)
    while (cnt > 2) {
      cnt = (cnt + R - 1) / R * 2;
      need += align_up(cnt, E);
    }
  return need;
}

struct RedResult {
  std::vector<float> rep_val;     // per repeat: sum, or extreme value
  std::vector<uint32_t> rep_idx;  // per repeat: lane of the extreme
  float val = 0;
  uint64_t idx = 0;
};

// Final value of ReduceSum from its per-repeat sums. sequential: A2 count form ("方式二"); otherwise the repeat
// sums are reduced again by the same tree, R at a time ("方式一").
float combine_sums(const std::vector<float>& s, bool sequential, bool is_half, uint32_t R) {
  if (sequential) {
    float acc = s[0];
    for (size_t i = 1; i < s.size(); ++i) acc = add_step(is_half, acc, s[i]);
    return acc;
  }
  std::vector<float> cur = s;
  std::vector<float> buf(R);
  while (cur.size() > 1) {
    std::vector<float> next;
    for (size_t g = 0; g < cur.size(); g += R) {
      for (uint32_t k = 0; k < R; ++k) buf[k] = g + k < cur.size() ? cur[g + k] : 0.0f;
      next.push_back(tree_sum(buf.data(), R, is_half));
    }
    cur.swap(next);
  }
  return cur[0];
}

// Shared tail of ReduceSum/Max/Min: tmp and dst writes, index bound, trace.
void finish_reduce(RedOp op, DType dt, const rt::LocalRef& dst, const rt::LocalRef& tmp, uint8_t* bd, uint8_t* bt,
                   const RedResult& res, uint64_t tmp_elems, bool cal_index, uint64_t elems, uint32_t repeats,
                   const rt::LocalRef& src, const char* api, const Loc& loc) {
  uint32_t es = dtype_size(dt);
  if (cal_index && dt == DType::F16 && res.idx > 65535)
    fail("param", api, loc, "the index " + std::to_string(res.idx) +
                                " does not fit the uint16 a half index is stored in (at most 65535); reduce fewer elements per call");
  // First-pass results land in sharedTmpBuffer (values, or value/index pairs), as many as its minimum size holds.
  if (tmp_elems) {
    uint64_t per = op == RedOp::Sum ? 1 : 2;
    uint64_t n = std::min<uint64_t>(tmp_elems, res.rep_val.size() * per);
    touch(tmp, 0, n * es, true, kV, api, loc);
    uint8_t* pt = bt + tmp.addr;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t r = i / per;
      if (i % per == 0) store_f(dt, pt + i * es, res.rep_val[r]);
      else store_index(dt, pt + i * es, res.rep_idx[r]);
    }
  }
  uint64_t out = (op != RedOp::Sum && cal_index) ? 2 : 1;
  touch(dst, 0, out * es, true, kV, api, loc);
  store_f(dt, bd + dst.addr, res.val);
  if (out == 2) store_index(dt, bd + dst.addr + es, static_cast<uint32_t>(res.idx));
  trace_vec(api, dt, elems, repeats, &dst, &src, &tmp, loc);
}

void check_tmp(const rt::LocalRef& tmp, uint64_t need_elems, uint32_t es, const char* api, const Loc& loc,
               const std::string& why) {
  if (static_cast<uint64_t>(tmp.len) < need_elems * es)
    fail("param", api, loc, "sharedTmpBuffer holds " + std::to_string(tmp.len) + " bytes but " + why + " needs at least " +
                                std::to_string(need_elems * es) + " bytes (" + std::to_string(need_elems) +
                                " elements, see the API's sharedTmpBuffer formula); enlarge the buffer");
}
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void reduce_count(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& tmp, int64_t count,
                  bool cal_index, Loc loc) {
  const char* api = red_api(op);
  require_dtype(api, dt, loc);
  uint32_t es = dtype_size(dt);
  uint8_t* bd = red_operand(dst, op == RedOp::Sum ? es : 2 * es, api, loc);
  uint8_t* bs = red_operand(src, 32, api, loc);
  uint8_t* bt = red_operand(tmp, 32, api, loc);
  if (count < 1) fail("param", api, loc, "count " + std::to_string(count) + " must be at least 1");
  uint64_t n = static_cast<uint64_t>(count);
  uint32_t R = 256 / es, E = 32 / es;
  uint64_t nrep = (n + R - 1) / R;
  uint64_t first = std::max<uint64_t>(1, n / R);
  bool a2 = cur().soc->arch != 2002;
  bool sequential = op == RedOp::Sum && a2;   // A2 count form: any tmp size, tmp left unchanged
  uint64_t need = 0;
  if (op == RedOp::Sum) need = sequential ? 0 : align_up(first, E);
  else need = maxmin_tmp_elems(first, R, E, cal_index);
  check_tmp(tmp, need, es, api, loc, std::string(api) + " of " + std::to_string(n) + " elements" + (cal_index ? " with calIndex" : ""));
  issue(kV);
  touch(src, 0, n * es, false, kV, api, loc);
  const uint8_t* ps = bs + src.addr;
  bool is_half = dt == DType::F16;
  RedResult res;
  std::vector<float> buf(R);
  for (uint64_t r = 0; r < nrep; ++r) {
    uint64_t start = r * R;
    uint32_t lanes = static_cast<uint32_t>(std::min<uint64_t>(R, n - start));
    if (op == RedOp::Sum) {
      for (uint32_t k = 0; k < R; ++k) buf[k] = k < lanes ? load_f(dt, ps + (start + k) * es) : 0.0f;
      res.rep_val.push_back(tree_sum(buf.data(), R, is_half));
    } else {
      float best = load_f(dt, ps + start * es);
      uint32_t bi = 0;
      for (uint32_t k = 1; k < lanes; ++k) {
        float v = load_f(dt, ps + (start + k) * es);
        if (better(op, v, best)) { best = v; bi = k; }
      }
      res.rep_val.push_back(best);
      res.rep_idx.push_back(bi);
    }
  }
  if (op == RedOp::Sum) {
    res.val = combine_sums(res.rep_val, sequential, is_half, R);
  } else {
    res.val = res.rep_val[0];
    res.idx = res.rep_idx[0];
    for (uint64_t r = 1; r < nrep; ++r)
      if (better(op, res.rep_val[r], res.val)) { res.val = res.rep_val[r]; res.idx = r * R + res.rep_idx[r]; }
  }
  finish_reduce(op, dt, dst, tmp, bd, bt, res, need, cal_index, n, static_cast<uint32_t>(nrep), src, api, loc);
}

void reduce_rep(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef& tmp, const MaskArg& mask,
                int64_t repeat, int64_t src_rep_stride, bool cal_index, Loc loc) {
  const char* api = red_api(op);
  require_dtype(api, dt, loc);
  uint32_t es = dtype_size(dt);
  uint8_t* bd = red_operand(dst, op == RedOp::Sum ? es : 2 * es, api, loc);
  uint8_t* bs = red_operand(src, 32, api, loc);
  uint8_t* bt = red_operand(tmp, 32, api, loc);
  if (repeat < 1 || repeat > 0x7fffffff)
    fail("param", api, loc, "repeatTime " + std::to_string(repeat) + " must be at least 1");
  check_stride(src_rep_stride, "srcRepStride", api, loc);
  RepeatWalk w = make_walk(mask, static_cast<uint32_t>(repeat), dt, api, loc);
  uint32_t R = w.per_block * 8, E = w.per_block;
  uint64_t need = op == RedOp::Sum ? align_up(w.repeat, E) : maxmin_tmp_elems(w.repeat, R, E, cal_index);
  check_tmp(tmp, need, es, api, loc,
            std::string(api) + " with repeatTime " + std::to_string(w.repeat) + (cal_index ? " and calIndex" : ""));
  issue(kV);
  uint32_t rs = static_cast<uint32_t>(src_rep_stride);
  touch_walk(src, w, 1, rs, false, api, loc);
  bool is_half = dt == DType::F16;
  RedResult res;
  bool found = false;
  Lanes L;
  for (uint32_t r = 0; r < w.repeat; ++r) {
    load_lanes(dt, bs + src.addr, w, r, 1, rs, L);
    if (op == RedOp::Sum) {
      res.rep_val.push_back(tree_sum(L.v, L.n, is_half));
    } else {
      float v = 0;
      uint32_t k = 0;
      bool any = lane_extreme(op, L, 0, L.n, v, k);
      res.rep_val.push_back(v);
      res.rep_idx.push_back(k);
      if (any && (!found || better(op, v, res.val))) { res.val = v; res.idx = static_cast<uint64_t>(r) * R + k; found = true; }
    }
  }
  if (op == RedOp::Sum) res.val = combine_sums(res.rep_val, false, is_half, R);
  finish_reduce(op, dt, dst, tmp, bd, bt, res, need, cal_index, static_cast<uint64_t>(w.repeat) * R, w.repeat, src, api, loc);
}

uint64_t max_min_spr() { return cur().max_min_spr; }
uint64_t acc_val() { return cur().acc_val; }

// bisheng's vcadd: WholeReduceSum's instruction on raw UB addresses, under the mask already set. With accumulate,
// the repeats' sums add up into the ACC_VAL register (read with get_acc_val) and nothing is written.
void vcadd(DType dt, uint64_t dst_addr, uint64_t src_addr, bool has_dst, int64_t repeat, int64_t dst_rep_stride,
           int64_t src_blk_stride, int64_t src_rep_stride, bool accumulate, Loc loc) {
  const char* api = "vcadd";
  const uint32_t es = dtype_size(dt);
  const uint64_t reps = repeat > 0 ? static_cast<uint64_t>(repeat) : 0;
  const LocalRef src = ub_ref(src_addr, (reps ? (reps - 1) * src_rep_stride * 32 : 0) + 7 * src_blk_stride * 32 + 32);
  MaskArg external;
  external.kind = MaskArg::External;
  if (!accumulate) {
    if (!has_dst) fail("param", api, loc, "dst is null but mode (accumulate into ACC_VAL) is false: give a UB address");
    const LocalRef dst = ub_ref(dst_addr, (reps ? (reps - 1) * dst_rep_stride : 0) * es + es);
    whole_reduce(RedOp::Sum, dt, dst, src, external, repeat, dst_rep_stride, src_blk_stride, src_rep_stride,
                 AscendC::ReduceOrder::ORDER_ONLY_VALUE, api, loc);
    return;
  }
  require_dtype("WholeReduceSum", dt, loc);
  const uint8_t* bs = red_operand(src, 32, api, loc);
  check_repeat255(repeat, api, loc);
  check_stride(src_blk_stride, "srcBlkStride", api, loc);
  check_stride(src_rep_stride, "srcRepStride", api, loc);
  RepeatWalk w = make_walk(external, static_cast<uint32_t>(repeat), dt, api, loc);
  issue(kV);
  const uint32_t bk = static_cast<uint32_t>(src_blk_stride), rs = static_cast<uint32_t>(src_rep_stride);
  touch_walk(src, w, bk, rs, false, api, loc);
  float total = 0.0f;
  Lanes L;
  for (uint32_t r = 0; r < w.repeat; ++r) {
    load_lanes(dt, bs + src.addr, w, r, bk, rs, L);
    total = add_step(dt == DType::F16, total, tree_sum(L.v, L.n, dt == DType::F16));
  }
  cur().acc_val = register_bits(dt, total);
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * w.per_block * 8, w.repeat, nullptr, &src, nullptr, loc);
}

void whole_reduce(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, const MaskArg& mask, int64_t repeat,
                  int64_t dst_rep_stride, int64_t src_blk_stride, int64_t src_rep_stride, AscendC::ReduceOrder order,
                  const char* api, Loc loc) {
  require_dtype(api, dt, loc);
  uint32_t es = dtype_size(dt);
  // dst holds one element per repeat, or a value-index pair for Max/Min with both: aligned to what it holds
  // (NPUKernelBench's CrossEntropyLoss, correct on the chip, writes ORDER_ONLY_VALUE float results 4 bytes in).
  const bool pairs = op != RedOp::Sum && order != AscendC::ReduceOrder::ORDER_ONLY_VALUE &&
                     order != AscendC::ReduceOrder::ORDER_ONLY_INDEX;
  uint8_t* bd = red_operand(dst, pairs ? 2 * es : es, api, loc);
  uint8_t* bs = red_operand(src, 32, api, loc);
  check_repeat255(repeat, api, loc);
  check_stride(dst_rep_stride, "dstRepStride", api, loc);
  check_stride(src_blk_stride, "srcBlkStride", api, loc);
  check_stride(src_rep_stride, "srcRepStride", api, loc);
  using AscendC::ReduceOrder;
  if (op != RedOp::Sum) {
    if (static_cast<int>(order) > 3) fail("param", api, loc, "unknown ReduceOrder " + std::to_string(static_cast<int>(order)));
    if (cur().soc->arch == 2002 && (order == ReduceOrder::ORDER_ONLY_VALUE || order == ReduceOrder::ORDER_ONLY_INDEX))
      fail("param", api, loc, std::string("ORDER_ONLY_VALUE and ORDER_ONLY_INDEX are not supported on ") + cur().soc->name +
                                  " (use ORDER_VALUE_INDEX or ORDER_INDEX_VALUE)");
  }
  RepeatWalk w = make_walk(mask, static_cast<uint32_t>(repeat), dt, api, loc);
  issue(kV);
  uint32_t bk = static_cast<uint32_t>(src_blk_stride), rs = static_cast<uint32_t>(src_rep_stride);
  touch_walk(src, w, bk, rs, false, api, loc);
  bool is_half = dt == DType::F16;
  std::vector<float> vals(w.repeat);
  std::vector<uint32_t> idxs(w.repeat);
  Lanes L;
  for (uint32_t r = 0; r < w.repeat; ++r) {
    load_lanes(dt, bs + src.addr, w, r, bk, rs, L);
    if (op == RedOp::Sum) vals[r] = tree_sum(L.v, L.n, is_half);
    else lane_extreme(op, L, 0, L.n, vals[r], idxs[r]);
  }
  if (op != RedOp::Sum && w.repeat > 0) {   // the special register: the extreme over every repeat, first on ties
    uint32_t best = 0;
    for (uint32_t r = 1; r < w.repeat; ++r)
      if (better(op, vals[r], vals[best])) best = r;
    const uint64_t index = static_cast<uint64_t>(best) * w.per_block * 8 + idxs[best];
    cur().max_min_spr = (index << 32) | register_bits(dt, vals[best]);
  }
  uint64_t ds = static_cast<uint64_t>(dst_rep_stride);
  for (uint32_t r = 0; r < w.repeat; ++r) {
    uint8_t* pd = bd + dst.addr;
    if (op == RedOp::Sum || order == ReduceOrder::ORDER_ONLY_VALUE) {
      uint64_t off = r * ds * es;
      touch(dst, off, es, true, kV, api, loc);
      store_f(dt, pd + off, vals[r]);
    } else if (order == ReduceOrder::ORDER_ONLY_INDEX) {
      uint64_t off = r * ds * 4;
      touch(dst, off, 4, true, kV, api, loc);
      store<uint32_t>(pd + off, idxs[r]);
    } else {
      uint64_t off = r * ds * 2 * es;
      touch(dst, off, 2 * es, true, kV, api, loc);
      bool vi = order == ReduceOrder::ORDER_VALUE_INDEX;
      store_f(dt, pd + off + (vi ? 0 : es), vals[r]);
      store_index(dt, pd + off + (vi ? es : 0), idxs[r]);
    }
  }
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * w.per_block * 8, w.repeat, &dst, &src, nullptr, loc);
}

void block_reduce(RedOp op, DType dt, const LocalRef& dst, const LocalRef& src, int64_t repeat, const MaskArg& mask,
                  int64_t dst_rep_stride, int64_t src_blk_stride, int64_t src_rep_stride, Loc loc) {
  const char* api = op == RedOp::Sum ? "BlockReduceSum" : op == RedOp::Max ? "BlockReduceMax" : "BlockReduceMin";
  require_dtype(api, dt, loc);
  uint32_t es = dtype_size(dt);
  uint8_t* bd = red_operand(dst, 8 * es, api, loc);   // 16 B for half, 32 B for float
  uint8_t* bs = red_operand(src, 32, api, loc);
  check_repeat255(repeat, api, loc);
  check_stride(dst_rep_stride, "dstRepStride", api, loc);
  check_stride(src_blk_stride, "srcBlkStride", api, loc);
  check_stride(src_rep_stride, "srcRepStride", api, loc);
  RepeatWalk w = make_walk(mask, static_cast<uint32_t>(repeat), dt, api, loc);
  issue(kV);
  uint32_t bk = static_cast<uint32_t>(src_blk_stride), rs = static_cast<uint32_t>(src_rep_stride);
  touch_walk(src, w, bk, rs, false, api, loc);
  bool is_half = dt == DType::F16;
  uint32_t E = w.per_block;
  struct Out { uint64_t off; float v; };
  std::vector<Out> outs;
  Lanes L;
  for (uint32_t r = 0; r < w.repeat; ++r) {
    load_lanes(dt, bs + src.addr, w, r, bk, rs, L);
    for (uint32_t j = 0; j < 8; ++j) {
      float v = 0;
      uint32_t k = 0;
      // A block with no enabled element produces no defined result on A2: it is left unwritten.
      if (!lane_extreme(RedOp::Max, L, j * E, (j + 1) * E, v, k)) continue;
      if (op == RedOp::Sum) v = tree_sum(L.v + j * E, E, is_half);
      else lane_extreme(op, L, j * E, (j + 1) * E, v, k);
      outs.push_back({(static_cast<uint64_t>(r) * dst_rep_stride * 8 + j) * es, v});
    }
  }
  for (const Out& o : outs) {
    touch(dst, o.off, es, true, kV, api, loc);
    store_f(dt, bd + dst.addr + o.off, o.v);
  }
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * E * 8, w.repeat, &dst, &src, nullptr, loc);
}

void pair_reduce_sum(DType dt, const LocalRef& dst, const LocalRef& src, int64_t repeat, const MaskArg& mask,
                     int64_t dst_rep_stride, int64_t src_blk_stride, int64_t src_rep_stride, Loc loc) {
  const char* api = "PairReduceSum";
  require_dtype(api, dt, loc);
  uint32_t es = dtype_size(dt);
  uint8_t* bd = red_operand(dst, 32, api, loc);
  uint8_t* bs = red_operand(src, 32, api, loc);
  check_repeat255(repeat, api, loc);
  check_stride(dst_rep_stride, "dstRepStride", api, loc);
  check_stride(src_blk_stride, "srcBlkStride", api, loc);
  check_stride(src_rep_stride, "srcRepStride", api, loc);
  RepeatWalk w = make_walk(mask, static_cast<uint32_t>(repeat), dt, api, loc);
  issue(kV);
  uint32_t bk = static_cast<uint32_t>(src_blk_stride), rs = static_cast<uint32_t>(src_rep_stride);
  touch_walk(src, w, bk, rs, false, api, loc);
  bool is_half = dt == DType::F16;
  uint32_t half_r = w.per_block * 4;   // results per repeat; dstRepStride unit = 128 bytes
  struct Out { uint64_t off; float v; };
  std::vector<Out> outs;
  Lanes L;
  for (uint32_t r = 0; r < w.repeat; ++r) {
    load_lanes(dt, bs + src.addr, w, r, bk, rs, L);
    for (uint32_t i = 0; i < half_r; ++i) {
      if (!L.en[2 * i] && !L.en[2 * i + 1]) continue;   // both masked off: dst keeps its value
      outs.push_back({(static_cast<uint64_t>(r) * dst_rep_stride * half_r + i) * es,
                      add_step(is_half, L.v[2 * i], L.v[2 * i + 1])});
    }
  }
  for (const Out& o : outs) {
    touch(dst, o.off, es, true, kV, api, loc);
    store_f(dt, bd + dst.addr + o.off, o.v);
  }
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * w.per_block * 8, w.repeat, &dst, &src, nullptr, loc);
}

namespace {
// Sum and Mean: each of `outter` rows' first n elements (rows `inner` apart, n padded to 32 bytes) summed per 256-byte
// repeat by ReduceSum's tree, the repeat sums again the same way (RepeatReduceSum in counter mode, then on its own
// results until one remains), in `acc` (float for a half source with Mean's accType float). The params are checked.
std::vector<float> row_sums(const char* api, DType dt, DType acc, const LocalRef& dst, const LocalRef& src,
                            uint32_t outter, uint32_t inner, uint32_t n, const Loc& loc) {
  const uint32_t es = dtype_size(dt), R = 256 / dtype_size(acc);
  const uint64_t want_inner = (static_cast<uint64_t>(n) * es + 31) / 32 * 32 / es;
  const std::string params = std::string(api) + "Params";
  if (outter == 0 || n == 0 || n > inner)
    fail("param", api, loc, params + " {outter " + std::to_string(outter) + ", inner " + std::to_string(inner) +
                                ", n " + std::to_string(n) + "}: outter and n must be at least 1 and n at most inner");
  if (inner != want_inner)
    fail("param", api, loc, params + ".inner is " + std::to_string(inner) + " but must be n padded to 32 bytes: (n * " +
                                std::to_string(es) + " + 31) / 32 * 32 / " + std::to_string(es) + " = " +
                                std::to_string(want_inner));
  const uint64_t src_bytes = static_cast<uint64_t>(outter) * inner * es;
  const uint64_t dst_bytes = (static_cast<uint64_t>(outter) * es + 31) / 32 * 32;
  if (src_bytes > src.len)
    fail("param", api, loc, std::to_string(outter) + " rows of " + std::to_string(inner) + " elements need " +
                                std::to_string(src_bytes) + " bytes but srcTensor holds " + std::to_string(src.len));
  if (static_cast<uint64_t>(outter) * es > dst.len)
    fail("param", api, loc, std::to_string(outter) + " results need " + std::to_string(outter * es) +
                                " bytes but dstTensor holds " + std::to_string(dst.len));
  if (src.pos == dst.pos && src.addr < dst.addr + dst_bytes && dst.addr < src.addr + src_bytes)
    fail("param", api, loc, std::string("srcTensor and dstTensor overlap; ") + api + " does not allow it (use separate buffers)");
  const bool is_half = acc == DType::F16;
  std::vector<float> buf(R), sums_of_rows(outter);
  for (uint32_t r = 0; r < outter; ++r) {   // each row's n elements (the padding is never read)
    const uint8_t* row = touch(src, static_cast<uint64_t>(r) * inner * es, static_cast<uint64_t>(n) * es, false, kV, api, loc);
    std::vector<float> sums;
    for (uint32_t g = 0; g < n; g += R) {
      for (uint32_t k = 0; k < R; ++k) buf[k] = g + k < n ? load_f(dt, row + static_cast<uint64_t>(g + k) * es) : 0.0f;
      sums.push_back(tree_sum(buf.data(), R, is_half));
    }
    sums_of_rows[r] = combine_sums(sums, false, is_half, R);
  }
  return sums_of_rows;
}
}  // namespace

void adv_sum(DType dt, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint32_t outter, uint32_t inner,
             uint32_t n, Loc loc) {
  const char* api = "Sum";
  require_dtype(api, dt, loc);
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  issue(kV);
  const std::vector<float> sums = row_sums(api, dt, dt, dst, src, outter, inner, n, loc);
  const uint32_t es = dtype_size(dt);
  uint8_t* out = touch(dst, 0, static_cast<uint64_t>(outter) * es, true, kV, api, loc);
  for (uint32_t r = 0; r < outter; ++r) store_f(dt, out + static_cast<uint64_t>(r) * es, sums[r]);
  trace_vec(api, dt, static_cast<uint64_t>(outter) * inner,
            static_cast<uint32_t>((static_cast<uint64_t>(outter) * inner * es + 255) / 256), &dst, &src, tmp, loc);
}

void adv_mean(DType dt, bool acc_float, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint32_t outter,
              uint32_t inner, uint32_t n, Loc loc) {
  const char* api = "Mean";
  require_dtype(api, dt, loc);
  if (acc_float && dt != DType::F16)
    fail("dtype", api, loc, "accType float is for a half source only ((T, accType) is (half, half), (float, float) or "
                            "(half, float))");
  vec_operand(dst, api, loc);
  vec_operand(src, api, loc);
  if (tmp) vec_operand(*tmp, api, loc);
  const uint32_t es = dtype_size(dt);
  adv_tmp(tmp, mean_min_tmp_bytes(n, es, acc_float ? 4 : es), api, loc, "Mean of n = " + std::to_string(n));
  issue(kV);
  const DType acc = acc_float ? DType::F32 : dt;
  const std::vector<float> sums = row_sums(api, dt, acc, dst, src, outter, inner, n, loc);
  // CANN's MeanCommon / MeanCast: the sums times 1/n, the scalar and the product in accType, then (half with float
  // accumulation) cast back to half.
  const float inv = 1.0f / static_cast<float>(static_cast<int32_t>(n));
  const bool half_math = acc == DType::F16;
  const float scale = half_math ? static_cast<float>(half(inv)) : inv;
  uint8_t* out = touch(dst, 0, static_cast<uint64_t>(outter) * es, true, kV, api, loc);
  for (uint32_t r = 0; r < outter; ++r) {
    const float m = sums[r] * scale;
    store_f(dt, out + static_cast<uint64_t>(r) * es, half_math ? static_cast<float>(half(m)) : m);
  }
  trace_vec(api, dt, static_cast<uint64_t>(outter) * inner,
            static_cast<uint32_t>((static_cast<uint64_t>(outter) * inner * es + 255) / 256), &dst, &src, tmp, loc);
}
}  // namespace kgen::rt
