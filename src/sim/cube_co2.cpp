// Enhanced DataCopy CO1 -> CO2 (guide 0327 "增强数据搬运"): on the Atlas inference series AI Core (310P, arch
// 2002) L0C results reach UB through the vector pipe, not through Fixpipe. DataCopyParams counts, per blockMode:
//   BLOCK_MODE_MATRIX: blockLen in 16x16 fractals of the source (512 B half, 1024 B float/int32/uint32),
//   BLOCK_MODE_VECTOR: blockLen in 1x16 rows of the source (32 B half, 64 B float/int32/uint32);
//   srcStride (gap between blocks on L0C) in fractals in both modes, dstStride (gap on UB) in 32-byte DataBlocks.
//   A VECTOR block that ends inside a fractal: the gap counts from the end of that fractal (kgen's reading of the
//   1024 B srcStride unit; it makes blockLen = 1 row, srcStride = 0 read row 0 of consecutive fractals, the GEMV case).
// The layout is kept (an NZ fractal lands as an NZ fractal); a conversion shrinks the UB side of each block
// ("通路为UB的操作数的blockLen单位需要减半"). Element e of every 16-element row is column e of its column block,
// which is the element the 16-entry quant vectors (VDEQ, VDEQ8, VDEQ16) scale.
//   block i: L0C [i * (ceil(blockLen * unit / fractal) + srcStride) * fractal, + blockLen * unit)
//            UB  [i * (blockLen * unit_ub + dstStride * 32),   + blockLen * unit_ub)
// int8/uint8 results (DEQ8/VDEQ8) follow sidStoreMode: 0 and 1 put each 16 bytes in the first or second half of
// its own 32-byte DataBlock (the other half is left untouched), 2 packs them densely.
#include <cmath>
#include <cstring>
#include <string>

#include "kgen/cube_co2.h"
#include "sim/cube_common.h"

namespace kgen::sim {
namespace {
using AscendC::BlockMode;
using AscendC::DeqScale;

const char* deq_name(DeqScale d) {
  static const char* n[] = {"DEQ_NONE", "DEQ", "VDEQ", "DEQ8", "VDEQ8", "DEQ16", "VDEQ16"};
  unsigned i = static_cast<unsigned>(d);
  return i < 7 ? n[i] : "?";
}
bool is_b8(DType d) { return d == DType::I8 || d == DType::U8; }

// The (source, destination) pairs of each deqScale mode (guide 0327, table of deqScale and the isRelu note).
bool pair_ok(DeqScale q, DType s, DType d) {
  switch (q) {
    case DeqScale::DEQ_NONE:
      return (s == d && (s == DType::F16 || s == DType::F32 || s == DType::I32 || s == DType::U32)) ||
             (s == DType::F32 && d == DType::F16);
    case DeqScale::DEQ: return d == DType::F16 && (s == DType::I32 || s == DType::F16);
    case DeqScale::VDEQ: return s == DType::I32 && d == DType::F16;
    case DeqScale::DEQ8: case DeqScale::VDEQ8: return s == DType::I32 && is_b8(d);
    case DeqScale::DEQ16: case DeqScale::VDEQ16: return s == DType::I32 && (d == DType::F16 || d == DType::I16);
  }
  return false;
}
std::string pair_hint(DType s, DType d) {
  if (s == d) return "deqScale = DeqScale::DEQ_NONE (or DEQ for half)";
  if (s == DType::F32 && d == DType::F16) return "deqScale = DeqScale::DEQ_NONE (float -> half is implicit)";
  if (s == DType::I32 && d == DType::F16) return "deqScale = DEQ (half scale), VDEQ, DEQ16 or VDEQ16";
  if (s == DType::I32 && is_b8(d)) return "deqScale = DEQ8 or VDEQ8";
  if (s == DType::I32 && d == DType::I16) return "deqScale = DEQ16 or VDEQ16";
  return "a documented pair: half/float/int32_t/uint32_t to the same type, float -> half, int32_t -> "
         "half/int8_t/uint8_t/int16_t";
}

// A deqValue of the DEQ8 / DEQ16 family (and each element of the VDEQ8 / VDEQ16 vectors).
struct DeqWord {
  float m;          // bits 0-31
  uint32_t n;       // bits 32-35: shift 1..16
  bool mcb;         // bit 36
  int32_t offset;   // bits 37-45, signed 9 bits
  bool sign;        // bit 46
  bool relu;        // bit 47
};
DeqWord decode(uint64_t v) {
  DeqWord w;
  w.m = f32_from_bits(static_cast<uint32_t>(v));
  w.n = static_cast<uint32_t>((v >> 32) & 0xf) + 1;
  w.mcb = (v >> 36) & 1;
  int32_t off = static_cast<int32_t>((v >> 37) & 0x1ff);
  w.offset = off & 0x100 ? off - 0x200 : off;
  w.sign = (v >> 46) & 1;
  w.relu = (v >> 47) & 1;
  return w;
}
int32_t clamp_i(int64_t v, int64_t lo, int64_t hi) { return static_cast<int32_t>(v < lo ? lo : v > hi ? hi : v); }
// int32 >> n, saturated to int16 (the MCB path and the int16 result of DEQ16).
int32_t shift16(int32_t v, uint32_t n) { return clamp_i(static_cast<int64_t>(v) >> n, -32768, 32767); }
// half result of a dequantisation: saturates instead of overflowing to inf.
uint16_t half_sat(double x) {
  float f = static_cast<float>(x);
  if (f > 65504.0f) f = 65504.0f;
  if (f < -65504.0f) f = -65504.0f;
  return f32_to_f16_bits(f);
}
int32_t round_sat8(double y, bool sign) {
  double r = std::nearbyint(y);   // round half to even (default FP environment)
  return sign ? clamp_i(static_cast<int64_t>(std::fmax(std::fmin(r, 1e9), -1e9)), -128, 127)
              : clamp_i(static_cast<int64_t>(std::fmax(std::fmin(r, 1e9), -1e9)), 0, 255);
}
uint64_t load64(const uint8_t* p) { uint64_t v; std::memcpy(&v, p, 8); return v; }
}  // namespace
}  // namespace kgen::sim

namespace kgen::rt {
using namespace kgen::sim;

void cube_co2_copy(const LocalRef& dst, DType dd, const LocalRef& src, DType ds, const AscendC::DataCopyParams& p,
                   const AscendC::DataCopyEnhancedParams& e, Loc loc) {
  Core& c = cur();
  if (mem_of(src.pos, *c.soc) != Mem::L0C) {   // not CO1: the enhanced parameters have no effect
    if (dd != ds)
      fail("param", "DataCopy", loc,
           std::string("DataCopy with DataCopyEnhancedParams between different element types is CO1 -> CO2 (L0C -> "
                       "UB) on the Atlas inference series (Ascend310P) only, not ") +
               position_name(src.pos) + " -> " + position_name(dst.pos) + " (" + dtype_name(ds) + " -> " +
               dtype_name(dd) + ")");
    data_copy(dst.pos, &dst, nullptr, src.pos, &src, nullptr, ds, p, false, 0, loc);
    return;
  }
  const char* api = "DataCopy(DataCopyEnhancedParams)";
  if (c.soc->arch != 2002)
    fail("param", api, loc,
         std::string("DataCopy from CO1 (L0C) to ") + position_name(dst.pos) + " does not exist on " + c.soc->name +
             ": on that SoC L0C results go to GM (or L1) through Fixpipe on the FIX pipe; use Fixpipe(dstGM, srcCO1, "
             "FixpipeParamsV220{...}) (CO1 -> CO2 with DataCopyEnhancedParams is the Atlas inference series "
             "(Ascend310P) path, where CO2 is UB)");
  if (mem_of(dst.pos, *c.soc) != Mem::UB)
    fail("param", api, loc, std::string("CO1 (L0C) is copied to CO2 (UB on ") + c.soc->name +
                                ", or VECIN/VECCALC/VECOUT), not to " + position_name(dst.pos));
  if (e.blockMode != BlockMode::BLOCK_MODE_MATRIX && e.blockMode != BlockMode::BLOCK_MODE_VECTOR)
    fail("param", api, loc,
         "blockMode " + std::to_string(static_cast<int>(e.blockMode)) +
             " is not supported on CO1 -> CO2 (BLOCK_MODE_NORMAL, the default, and BLOCK_MODE_SMALL_CHANNEL / "
             "BLOCK_MODE_DEPTHWISE are 'not supported yet'); set blockMode = BlockMode::BLOCK_MODE_MATRIX (16x16 "
             "fractals) or BLOCK_MODE_VECTOR (1x16 rows)");
  if (static_cast<unsigned>(e.deqScale) > static_cast<unsigned>(DeqScale::VDEQ16))
    fail("param", api, loc, "deqScale " + std::to_string(static_cast<int>(e.deqScale)) + " is not a DeqScale");
  if (ds != DType::F16 && ds != DType::F32 && ds != DType::I32 && ds != DType::U32)
    fail("dtype", api, loc, std::string("the CO1 (L0C) source is half, float, int32_t or uint32_t, not ") + dtype_name(ds));
  const DeqScale q = e.deqScale;
  if (!pair_ok(q, ds, dd))
    fail("dtype", api, loc, std::string("deqScale ") + deq_name(q) + " does not turn a " + dtype_name(ds) +
                                " L0C result into " + dtype_name(dd) + "; use " + pair_hint(ds, dd));
  if (e.padMode != PAD_NONE)
    fail("param", api, loc, "padMode is reserved ('not supported yet' in guide 0327); leave it PAD_NONE");
  if (e.sidStoreMode > 2)
    fail("param", api, loc, "sidStoreMode " + std::to_string(e.sidStoreMode) +
                                " is outside [0, 2] (0: first 16 B of each DataBlock, 1: second 16 B, 2: whole block)");
  if (p.blockCount < 1 || p.blockCount > 4095)
    fail("param", api, loc, "blockCount " + std::to_string(p.blockCount) + " is outside [1, 4095]");
  if (p.blockLen == 0)
    fail("param", api, loc, e.blockMode == BlockMode::BLOCK_MODE_MATRIX
                                ? "blockLen is 0 (with BLOCK_MODE_MATRIX it counts 16x16 fractals of the source)"
                                : "blockLen is 0 (with BLOCK_MODE_VECTOR it counts 1x16 rows of the source)");
  // ReLU: which modes have it, and the constraint that isRelu and the deqValue flag agree.
  if (e.isRelu && ds == DType::U32)
    fail("param", api, loc, "isRelu has no effect on uint32_t (ReLU pairs without quantisation: half->half, "
                            "float->float, int32_t->int32_t, float->half)");
  if (e.isRelu && q == DeqScale::DEQ)
    fail("param", api, loc, "the DEQ mode has no ReLU (it uses only the half scale M of deqValue); use DEQ16 / VDEQ "
                            "for int32_t -> half with ReLU, or apply Relu on the vector unit after the copy");
  const bool scalar_word = q == DeqScale::DEQ8 || q == DeqScale::DEQ16;
  const bool vec_word = q == DeqScale::VDEQ8 || q == DeqScale::VDEQ16;
  if (scalar_word) {
    DeqWord w = decode(e.deqValue);
    if (w.relu != e.isRelu)
      fail("param", api, loc, std::string("isRelu is ") + (e.isRelu ? "true" : "false") + " but bit 47 (Relu) of deqValue is " +
                                  (w.relu ? "1" : "0") + ": the two must agree (guide 0327 constraint)");
    if (q == DeqScale::DEQ8 && dd == DType::U8 && w.sign)
      fail("param", api, loc, "bit 46 (Sign) of deqValue is 1, which makes a signed (int8_t) result, but the destination is uint8_t");
    if (q == DeqScale::DEQ8 && e.isRelu && w.offset != (dd == DType::I8 ? -128 : 0))
      fail("param", api, loc, std::string("with ReLU the DEQ8 Offset (bits 37-45 of deqValue) must be ") +
                                  (dd == DType::I8 ? "-128 for int8_t" : "0 for uint8_t") + ", not " + std::to_string(w.offset));
  }
  const bool vdeq = q == DeqScale::VDEQ || vec_word;
  uint64_t deq_bytes = 0;
  if (vdeq) {
    if (e.deqTensorAddr % 32 != 0)
      fail("align", api, loc, "deqTensorAddr " + std::to_string(e.deqTensorAddr) +
                                  " is not 32-byte aligned (it is the UB address of the quant vector: tensor.GetPhyAddr())");
    deq_bytes = q == DeqScale::VDEQ ? 32 : static_cast<uint64_t>(p.blockCount) * 128;
    if (e.deqTensorAddr + deq_bytes > c.soc->mem_size[static_cast<int>(Mem::UB)])
      fail("ub-overflow", api, loc, "the quant vector UB[" + std::to_string(e.deqTensorAddr) + ", " +
                                        std::to_string(e.deqTensorAddr + deq_bytes) + ") is past the end of UB (" +
                                        fmt_bytes(c.soc->mem_size[static_cast<int>(Mem::UB)]) + ")");
  }

  const bool matrix = e.blockMode == BlockMode::BLOCK_MODE_MATRIX;
  const uint32_t ssz = dtype_size(ds), dsz = dtype_size(dd);
  const bool b8 = is_b8(dd);
  const uint32_t sid = e.sidStoreMode;
  const uint64_t blk_elems = static_cast<uint64_t>(p.blockLen) * (matrix ? 256 : 16);
  const uint64_t s_len = blk_elems * ssz;
  // srcStride counts whole fractals after the block (a VECTOR block ends at the end of its last fractal)
  const uint64_t s_step = ((blk_elems + 255) / 256 + p.srcStride) * 256ull * ssz;
  const uint64_t d_row = b8 ? (sid == 2 ? 16 : 32) : 16ull * dsz;   // UB bytes per 16 elements
  const uint64_t d_len = blk_elems / 16 * d_row;
  if (d_len % 32 != 0)
    fail("param", api, loc, "with sidStoreMode 2 a block of " + std::to_string(blk_elems) +
                                " int8 elements fills half a 32-byte DataBlock; use an even blockLen");
  const uint64_t d_step = d_len + static_cast<uint64_t>(p.dstStride) * 32;
  const uint32_t cnt = p.blockCount;

  resolve(src, api, loc);
  resolve(dst, api, loc);
  cube_check_bounds(src, 0, s_step * (cnt - 1) + s_len, false, api, loc);
  cube_check_bounds(dst, 0, d_step * (cnt - 1) + d_len, true, api, loc);
  issue(kV);

  // Reads (L0C is written by Mmad in whole fractals: an uninitialised byte here is a real uninit-read), then the
  // quant vector.
  for (uint32_t i = 0; i < cnt; ++i) touch(src, i * s_step, s_len, false, kV, api, loc);
  if (vdeq) touch_abs(Mem::UB, static_cast<uint32_t>(e.deqTensorAddr), deq_bytes, false, kV, api, loc);
  const uint8_t* ub = mem_base(Mem::UB);
  const uint8_t* dq = vdeq ? ub + e.deqTensorAddr : nullptr;
  if (vec_word) {   // one MCB per vector (guide 0327); the Relu flags of the vector are ignored (isRelu rules)
    for (uint32_t i = 0; i < cnt; ++i)
      for (uint32_t k = 0; k < 16; ++k) {
        DeqWord w = decode(load64(dq + i * 128 + k * 8)), w0 = decode(load64(dq + i * 128));
        if (w.mcb != w0.mcb)
          fail("param", api, loc, "the MCB flags (bit 36) of quant vector " + std::to_string(i) + " differ (element " +
                                      std::to_string(k) + "); every element of one vector must have the same MCB");
        if (q == DeqScale::VDEQ8 && dd == DType::U8 && w.sign)
          fail("param", api, loc, "element " + std::to_string(k) + " of quant vector " + std::to_string(i) +
                                      " has Sign (bit 46) = 1 but the destination is uint8_t");
        if (q == DeqScale::VDEQ8 && e.isRelu && w.offset != (dd == DType::I8 ? -128 : 0))
          fail("param", api, loc, std::string("with ReLU every VDEQ8 Offset must be ") +
                                      (dd == DType::I8 ? "-128 for int8_t" : "0 for uint8_t") + "; element " +
                                      std::to_string(k) + " of quant vector " + std::to_string(i) + " has " +
                                      std::to_string(w.offset));
      }
  }

  // Writes: each block, or with sidStoreMode 0/1 only the chosen 16-byte half of each DataBlock.
  for (uint32_t i = 0; i < cnt; ++i) {
    if (b8 && sid != 2) {
      for (uint64_t g = 0; g < blk_elems / 16; ++g) touch(dst, i * d_step + g * 32 + (sid == 1 ? 16 : 0), 16, true, kV, api, loc);
    } else {
      touch(dst, i * d_step, d_len, true, kV, api, loc);
    }
  }

  // Compute.
  const uint8_t* sb = mem_base(Mem::L0C) + src.addr;
  uint8_t* db = mem_base(Mem::UB) + dst.addr;
  const float deq_half = f16_bits_to_f32(static_cast<uint16_t>(e.deqValue & 0xffff));
  const DeqWord word = decode(e.deqValue);
  for (uint32_t i = 0; i < cnt; ++i)
    for (uint64_t k = 0; k < blk_elems; ++k) {
      const uint8_t* s = sb + i * s_step + k * ssz;
      const uint32_t col = static_cast<uint32_t>(k % 16);
      uint8_t* d = db + i * d_step +
                   (b8 ? (sid == 2 ? k : (k / 16) * 32 + (sid == 1 ? 16 : 0) + col) : k * dsz);
      if (q == DeqScale::DEQ_NONE) {
        if (ds == DType::F16) {
          uint16_t h;
          std::memcpy(&h, s, 2);
          if (e.isRelu && f16_bits_to_f32(h) < 0) h = 0;
          std::memcpy(d, &h, 2);
        } else if (ds == DType::F32) {
          float v;
          std::memcpy(&v, s, 4);
          if (e.isRelu && v < 0) v = 0;
          if (dd == DType::F32) std::memcpy(d, &v, 4);
          else { uint16_t h = f32_to_f16_bits(v); std::memcpy(d, &h, 2); }
        } else {   // int32 / uint32
          int32_t v;
          std::memcpy(&v, s, 4);
          if (e.isRelu && ds == DType::I32 && v < 0) v = 0;
          std::memcpy(d, &v, 4);
        }
        continue;
      }
      if (q == DeqScale::DEQ) {
        double v;
        if (ds == DType::F16) { uint16_t h; std::memcpy(&h, s, 2); v = f16_bits_to_f32(h); }
        else { int32_t x; std::memcpy(&x, s, 4); v = x; }
        uint16_t h = ds == DType::F16 ? f32_to_f16_bits(static_cast<float>(v * deq_half)) : half_sat(v * deq_half);
        std::memcpy(d, &h, 2);
        continue;
      }
      int32_t x;
      std::memcpy(&x, s, 4);
      if (q == DeqScale::VDEQ) {
        uint16_t sh;
        std::memcpy(&sh, dq + col * 2, 2);
        double y = static_cast<double>(x) * f16_bits_to_f32(sh);
        if (e.isRelu && y < 0) y = 0;
        uint16_t h = half_sat(y);
        std::memcpy(d, &h, 2);
        continue;
      }
      const DeqWord w = vec_word ? decode(load64(dq + i * 128 + col * 8)) : word;
      const bool relu = e.isRelu;
      if (q == DeqScale::DEQ16 || q == DeqScale::VDEQ16) {
        if (dd == DType::I16) {   // M has no effect: shift right by N, saturate
          int32_t y = shift16(x, w.n);
          if (relu && y < 0) y = 0;
          int16_t o = static_cast<int16_t>(y);
          std::memcpy(d, &o, 2);
        } else {
          double y = static_cast<double>(w.mcb ? shift16(x, w.n) : x) * w.m;
          if (relu && y < 0) y = 0;
          uint16_t h = half_sat(y);
          std::memcpy(d, &h, 2);
        }
        continue;
      }
      // DEQ8 / VDEQ8: (x or int16(x >> N)) * M + Offset, ReLU on that result, rounded and saturated to 8 bits.
      double y = static_cast<double>(w.mcb ? shift16(x, w.n) : x) * w.m + w.offset;
      if (relu && y < 0) y = 0;
      *d = static_cast<uint8_t>(round_sat8(y, dd == DType::I8));
    }

  const uint64_t elems = static_cast<uint64_t>(cnt) * blk_elems;
  const uint32_t rows = static_cast<uint32_t>(elems / 16);
  TraceRec& tr = cube_trace(kV, api, dd, elems, elems * ssz, matrix ? cnt * p.blockLen : (rows + 15) / 16, rows, 16,
                            0, loc);
  tr.dst = dst.addr;
  tr.src0 = src.addr;
}
}  // namespace kgen::rt
