// Compare / CompareScalar (one result bit per element, LSB first, in a uint8_t tensor) and Select (SELMODE 0, 1, 2).
//
// Compare's mask/repeat form: on A2 and 310P the mask is a reserved parameter (docs: "保留参数，设置无效"), so every
// repeat compares all 256 / sizeof(T) elements; the result bits of consecutive repeats are packed contiguously
// (repeat r writes bytes [r*R/8, (r+1)*R/8)), which is what the docs' buffer sizes assume.
// Select: bit = 1 takes src0, 0 takes src1 (or the scalar). Mode 0 reuses the first R bits of selMask in every
// repeat; modes 1 and 2 consume selMask continuously across repeats and first write a value into UB at
// TMP_UB_OFFSET (184 KB on 910B, 248 KB on 310P): stage_select_tmp.
#include <cstring>
#include <string>

#include "kgen/vec_compare.h"
#include "sim/elementwise.h"
#include "sim/timing.h"

namespace kgen::sim {
namespace {
using AscendC::CMPMODE;
using AscendC::SELMODE;

const char* cmp_name(CMPMODE m) {
  static const char* n[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
  int i = static_cast<int>(m);
  return i >= 0 && i < 6 ? n[i] : "invalid";
}

template <class C> bool cmp(CMPMODE m, C a, C b) {
  switch (m) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    case CMPMODE::NE: return a != b;
  }
  return false;
}

void check_compare(const char* api, DType dt_dst, DType dt, CMPMODE mode, bool scalar, const Loc& loc) {
  require_dtype(api, dt, loc);
  if (static_cast<int>(mode) > 5)
    fail("param", api, loc, "cmpMode " + std::to_string(static_cast<int>(mode)) + " is not a CMPMODE (LT, GT, EQ, LE, GE, NE)");
  if (dt == DType::I32 && mode != CMPMODE::EQ)
    fail("dtype", api, loc,
         std::string(api) + " on int32_t supports only CMPMODE::EQ, not " + cmp_name(mode) +
             " (half and float support every mode); Cast to float first");
  bool ok = scalar ? dt_dst == DType::U8 : (dt_dst == DType::U8 || dt_dst == DType::I8);
  if (!ok)
    fail("dtype", api, loc,
         std::string(api) + " writes its result bits to a " + (scalar ? "uint8_t" : "uint8_t or int8_t") +
             " tensor, not " + dtype_name(dt_dst));
}

void check_count_align(const char* api, DType dt, uint64_t count, const Loc& loc) {
  uint32_t es = dtype_size(dt);
  if ((count * es) % 256 != 0)
    fail("align", api, loc,
         "count " + std::to_string(count) + " x " + std::to_string(es) + " bytes = " + std::to_string(count * es) +
             " bytes is not a multiple of 256 bytes; " + api + " works on whole 256-byte repeats, so count must be "
             "a multiple of " + std::to_string(256 / es) + " for " + dtype_name(dt) + " (pad the data)");
}

// A walk over `repeat` full repeats of dt (Compare ignores the mask).
RepeatWalk full_walk(uint32_t repeat, DType dt, const char* api, const Loc& loc) {
  uint32_t R = 256 / dtype_size(dt);
  return make_walk(rt::mask_contiguous(R > 128 ? 128 : R, true), repeat, dt, api, loc);
}

// Compares n elements; element i of src0 at a(i), of src1 at b(i) (b unused for the scalar form), into bits.
template <class T, class A, class B>
void compare_bits(CMPMODE m, uint8_t* out, uint64_t n, A&& a, B&& b) {
  using C = Calc<T>;
  for (uint64_t i = 0; i < n; i += 8) {
    uint8_t byte = 0;
    for (uint64_t k = 0; k < 8 && i + k < n; ++k)
      if (cmp<C>(m, static_cast<C>(a(i + k)), static_cast<C>(b(i + k)))) byte = static_cast<uint8_t>(byte | (1u << k));
    out[i / 8] = byte;
  }
}

template <class T> T scalar_value(rt::Scalar s) {
  T v;
  std::memcpy(&v, &s.bits, sizeof(T));
  return v;
}

void compare_count(DType dt_dst, DType dt, const rt::LocalRef& dst, const rt::LocalRef& src0,
                   const rt::LocalRef* src1, rt::Scalar s, CMPMODE mode, uint64_t count, const Loc& loc) {
  const char* api = src1 ? "Compare" : "CompareScalar";
  check_compare(api, dt_dst, dt, mode, !src1, loc);
  vec_operand(dst, api, loc);
  vec_operand(src0, api, loc);
  if (src1) vec_operand(*src1, api, loc);
  check_count_align(api, dt, count, loc);
  issue(kV);
  uint32_t es = dtype_size(dt);
  LaneWise lanes;   // garbage lanes compare to garbage bits, not a fault (core.h LaneScope)
  const uint8_t* pa = touch_count(src0, count, es, false, api, loc);
  const uint8_t* pb = src1 ? touch_count(*src1, count, es, false, api, loc) : nullptr;
  uint8_t* pd = touch_count(dst, count / 8, 1, true, api, loc, true);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    const T* a = reinterpret_cast<const T*>(pa);
    if (src1) {
      const T* b = reinterpret_cast<const T*>(pb);
      compare_bits<T>(mode, pd, count, [&](uint64_t i) { return a[i]; }, [&](uint64_t i) { return b[i]; });
    } else {
      T v = scalar_value<T>(s);
      compare_bits<T>(mode, pd, count, [&](uint64_t i) { return a[i]; }, [&](uint64_t) { return v; });
    }
  });
  trace_vec(api, dt, count, static_cast<uint32_t>(count * es / 256), &dst, &src0, src1, loc);
}

void compare_rep(DType dt_dst, DType dt, const rt::LocalRef& dst, const rt::LocalRef& src0, const rt::LocalRef* src1,
                 rt::Scalar s, CMPMODE mode, uint32_t repeat, uint32_t blk0, uint32_t rep0, uint32_t blk1,
                 uint32_t rep1, const Loc& loc) {
  const char* api = src1 ? "Compare" : "CompareScalar";
  check_compare(api, dt_dst, dt, mode, !src1, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  uint8_t* ba = vec_operand(src0, api, loc);
  uint8_t* bb = src1 ? vec_operand(*src1, api, loc) : nullptr;
  RepeatWalk w = full_walk(repeat, dt, api, loc);
  uint32_t R = w.per_block * 8;
  issue(kV);
  uint8_t* pd = nullptr;
  if (blk0 == 1 && rep0 == 8 && (!src1 || (blk1 == 1 && rep1 == 8))) {
    // Dense repeats read the sources as one run, lane by lane as the count form: lanes from bytes nothing wrote, or
    // past a source's buffer inside UB (the whole repeat is read whatever the mask: NPUKernelBench's
    // CrossEntropyLossGrad compares 8 floats of a 32-byte buffer), give garbage bits, not a fault.
    LaneWise lanes;
    const uint64_t n = static_cast<uint64_t>(repeat) * R;
    touch_count(src0, n, dtype_size(dt), false, api, loc);
    if (src1) touch_count(*src1, n, dtype_size(dt), false, api, loc);
    pd = touch_count(dst, n / 8, 1, true, api, loc, true);
  } else {
    touch_walk(src0, w, blk0, rep0, false, api, loc);
    if (src1) touch_walk(*src1, w, blk1, rep1, false, api, loc);
    pd = touch(dst, 0, static_cast<uint64_t>(repeat) * R / 8, true, kV, api, loc);
  }
  (void)bd;
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    T v = scalar_value<T>(s);
    for (uint32_t r = 0; r < repeat; ++r) {
      auto at = [&](const uint8_t* base, const rt::LocalRef& t, uint32_t blk, uint32_t rep, uint64_t k) {
        uint32_t kk = static_cast<uint32_t>(k);
        return load<T>(base + t.addr + walk_offset(r, kk / w.per_block, kk % w.per_block, blk, rep, sizeof(T)));
      };
      if (src1)
        compare_bits<T>(mode, pd + r * R / 8, R, [&](uint64_t k) { return at(ba, src0, blk0, rep0, k); },
                        [&](uint64_t k) { return at(bb, *src1, blk1, rep1, k); });
      else
        compare_bits<T>(mode, pd + r * R / 8, R, [&](uint64_t k) { return at(ba, src0, blk0, rep0, k); },
                        [&](uint64_t) { return v; });
    }
  });
  trace_vec(api, dt, static_cast<uint64_t>(repeat) * R, repeat, &dst, &src0, src1, loc);
}

// ---- Select ----
void check_select(DType dt, DType dt_mask, SELMODE mode, bool scalar, const Loc& loc) {
  const char* api = "Select";
  require_dtype(api, dt, loc);
  // The doc lists uint8_t..uint64_t, but the device build checks nothing (ASCENDC_ASSERT is empty there, [S62]) and
  // vsel reads the tensor's bits: a signed integer mask (an int8_t one, as NPUKernelBench's Less answer has) works on
  // the chip, so it works here; a float "mask" is refused.
  const bool integer = dt_mask == DType::U8 || dt_mask == DType::U16 || dt_mask == DType::U32 ||
                       dt_mask == DType::U64 || dt_mask == DType::I8 || dt_mask == DType::I16 ||
                       dt_mask == DType::I32 || dt_mask == DType::I64;
  if (!integer)
    fail("dtype", api, loc,
         std::string("selMask must be an integer tensor of mask bits (uint8_t, uint16_t, uint32_t or uint64_t), not ") +
             dtype_name(dt_mask));
  int m = static_cast<int>(mode);
  if (m > 2)
    fail("param", api, loc, "selMode " + std::to_string(m) + " is not a SELMODE (VSEL_CMPMASK_SPR, "
                            "VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE)");
  if (scalar && mode != SELMODE::VSEL_TENSOR_SCALAR_MODE)
    fail("param", api, loc,
         "the form with a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE (mode 1), not mode " + std::to_string(m));
  if (!scalar && mode == SELMODE::VSEL_TENSOR_SCALAR_MODE)
    fail("param", api, loc,
         "SELMODE::VSEL_TENSOR_SCALAR_MODE (mode 1) takes a scalar src1, but src1 is a tensor; use "
         "VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE, or pass a scalar");
}

// Modes 1 and 2 first stage a value in UB at TMP_UB_OFFSET (8 KB below the top of UB) and load the CMPMASK register
// from it (asc-devkit's VselIntrinsicsImplPre [S62]): 32 copies of the scalar src1 (mode 1, 32 elements of T) or of
// the selMask's UB address (mode 2, 32 uint32). Those bytes are written here as there: a buffer that holds data
// there loses those bytes and a later read sees them, as on the chip, which raises no error.
void stage_select_tmp(SELMODE mode, DType dt, rt::Scalar s1, const rt::LocalRef& sel, const Loc& loc) {
  if (mode == SELMODE::VSEL_CMPMASK_SPR) return;
  Core& c = cur();
  const uint32_t lo = c.soc->mem_size[static_cast<int>(Mem::UB)] - 8192;
  const uint32_t es = mode == SELMODE::VSEL_TENSOR_SCALAR_MODE ? dtype_size(dt) : 4;
  const uint32_t sel_addr = sel.addr;   // the selMask's UB address
  touch_abs(Mem::UB, lo, 32 * es, true, kV, "Select", loc);
  uint8_t* p = mem_base(Mem::UB) + lo;
  for (uint32_t i = 0; i < 32; ++i)
    std::memcpy(p + i * es, mode == SELMODE::VSEL_TENSOR_SCALAR_MODE ? static_cast<const void*>(&s1.bits) : &sel_addr, es);
}

inline bool sel_bit(const uint8_t* sel, uint64_t i) { return (sel[i / 8] >> (i % 8)) & 1u; }
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void vec_compare(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, const LocalRef& src1,
                 AscendC::CMPMODE mode, uint64_t count, Loc loc) {
  compare_count(dt_dst, dt, dst, src0, &src1, Scalar{}, mode, count, loc);
}

void vec_compare_rep(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, const LocalRef& src1,
                     AscendC::CMPMODE mode, const MaskArg&, uint8_t repeat, const AscendC::BinaryRepeatParams& p,
                     Loc loc) {
  compare_rep(dt_dst, dt, dst, src0, &src1, Scalar{}, mode, repeat, p.src0BlkStride, p.src0RepStride,
              p.src1BlkStride, p.src1RepStride, loc);
}

void vec_compare_scalar(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, Scalar s,
                        AscendC::CMPMODE mode, uint64_t count, Loc loc) {
  compare_count(dt_dst, dt, dst, src0, nullptr, s, mode, count, loc);
}

void vec_compare_scalar_rep(DType dt_dst, DType dt, const LocalRef& dst, const LocalRef& src0, Scalar s,
                            AscendC::CMPMODE mode, const MaskArg&, uint8_t repeat,
                            const AscendC::UnaryRepeatParams& p, Loc loc) {
  compare_rep(dt_dst, dt, dst, src0, nullptr, s, mode, repeat, p.srcBlkStride, p.srcRepStride, 0, 0, loc);
}

void vec_select(DType dt, DType dt_mask, const LocalRef& dst, const LocalRef& sel, const LocalRef& src0,
                const LocalRef* src1, Scalar s1, AscendC::SELMODE mode, uint64_t count, Loc loc) {
  const char* api = "Select";
  check_select(dt, dt_mask, mode, !src1, loc);
  vec_operand(dst, api, loc);
  vec_operand(sel, api, loc);
  vec_operand(src0, api, loc);
  if (src1) vec_operand(*src1, api, loc);
  stage_select_tmp(mode, dt, s1, sel, loc);
  issue(kV);
  uint32_t es = dtype_size(dt);
  uint64_t R = 256 / es;
  bool reuse = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;   // mode 0: the first R bits serve every repeat
  uint64_t sel_bits = reuse ? (count < R ? count : R) : count;
  LaneWise lanes;   // garbage lanes select garbage, not a fault (core.h LaneScope)
  // a mask whose first R bits serve every repeat (mode 0) maps no bit to its own lane: read strictly
  const uint8_t* ps = reuse ? touch(sel, 0, (sel_bits + 7) / 8, false, kV, api, loc)
                            : touch_count(sel, (sel_bits + 7) / 8, 1, false, api, loc, true);
  const uint8_t* pa = touch_count(src0, count, es, false, api, loc);
  const uint8_t* pb = src1 ? touch_count(*src1, count, es, false, api, loc) : nullptr;
  uint8_t* pd = touch_count(dst, count, es, true, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    const T* a = reinterpret_cast<const T*>(pa);
    const T* b = reinterpret_cast<const T*>(pb);
    T v;
    std::memcpy(&v, &s1.bits, sizeof(T));
    T* d = reinterpret_cast<T*>(pd);
    for (uint64_t i = 0; i < count; ++i) d[i] = sel_bit(ps, reuse ? i % R : i) ? a[i] : (b ? b[i] : v);
  });
  trace_vec(api, dt, count, static_cast<uint32_t>((count * es + 255) / 256), &dst, &src0, src1, loc);
}

void vec_select_rep(DType dt, DType dt_mask, const LocalRef& dst, const LocalRef& sel, const LocalRef& src0,
                    const LocalRef* src1, Scalar s1, AscendC::SELMODE mode, const MaskArg& mask, uint8_t repeat,
                    const AscendC::BinaryRepeatParams& p, Loc loc) {
  const char* api = "Select";
  check_select(dt, dt_mask, mode, !src1, loc);
  uint8_t* bd = vec_operand(dst, api, loc);
  vec_operand(sel, api, loc);
  uint8_t* ba = vec_operand(src0, api, loc);
  uint8_t* bb = src1 ? vec_operand(*src1, api, loc) : nullptr;
  RepeatWalk w = make_walk(mask, repeat, dt, api, loc);
  stage_select_tmp(mode, dt, s1, sel, loc);
  issue(kV);
  uint32_t R = w.per_block * 8;
  bool reuse = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
  uint64_t sel_bytes = reuse ? R / 8 : static_cast<uint64_t>(w.repeat) * R / 8;
  const uint8_t* ps = touch(sel, 0, w.repeat ? sel_bytes : 0, false, kV, api, loc);
  touch_walk(src0, w, p.src0BlkStride, p.src0RepStride, false, api, loc);
  if (src1) touch_walk(*src1, w, p.src1BlkStride, p.src1RepStride, false, api, loc);
  touch_walk(dst, w, p.dstBlkStride, p.dstRepStride, true, api, loc);
  if (computes(dt)) dispatch(dt, api, loc, [&](auto tag) {   // timing.h: no float values in a timing-only run
    using T = typename decltype(tag)::type;
    T v;
    std::memcpy(&v, &s1.bits, sizeof(T));
    for_each_lane(w, [&](uint32_t r, uint32_t j, uint32_t e) {
      uint64_t k = static_cast<uint64_t>(j) * w.per_block + e;
      bool take0 = sel_bit(ps, reuse ? k : r * static_cast<uint64_t>(R) + k);
      T x = take0 ? load<T>(ba + src0.addr + walk_offset(r, j, e, p.src0BlkStride, p.src0RepStride, sizeof(T)))
                  : (src1 ? load<T>(bb + src1->addr + walk_offset(r, j, e, p.src1BlkStride, p.src1RepStride, sizeof(T)))
                          : v);
      store<T>(bd + dst.addr + walk_offset(r, j, e, p.dstBlkStride, p.dstRepStride, sizeof(T)), x);
    });
  });
  trace_vec(api, dt, static_cast<uint64_t>(w.repeat) * R, w.repeat, &dst, &src0, src1, loc);
}
}  // namespace kgen::rt
