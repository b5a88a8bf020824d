// Shared checks of the high-level (adv) APIs: temporary-buffer size, free UB for framework-allocated
// temporaries, and operand overlap.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include "sim/elementwise.h"

namespace kgen::sim {
// One element of a half or float tensor, read or written as float (high-level APIs compute in float).
inline float ldf(DType dt, const uint8_t* p) { return dt == DType::F16 ? static_cast<float>(load<half>(p)) : load<float>(p); }
inline void stf(DType dt, uint8_t* p, float v) {
  if (dt == DType::F16) store<half>(p, half(v));
  else store<float>(p, v);
}

// Byte ranges [a.addr, a.addr+ab) and [b.addr, b.addr+bb) of the same memory intersect.
inline bool adv_overlap(const rt::LocalRef& a, uint64_t ab, const rt::LocalRef& b, uint64_t bb) {
  const Soc& soc = *cur().soc;
  if (mem_of(a.pos, soc) != mem_of(b.pos, soc) || ab == 0 || bb == 0) return false;
  return a.addr < b.addr + bb && b.addr < a.addr + ab;
}
inline void adv_no_overlap(const rt::LocalRef& a, uint64_t ab, const char* an, const rt::LocalRef& b, uint64_t bb,
                           const char* bn, const char* api, const Loc& loc) {
  if (adv_overlap(a, ab, b, bb))
    fail("param", api, loc, std::string(an) + " [" + std::to_string(a.addr) + ", " + std::to_string(a.addr + ab) +
                                ") overlaps " + bn + " [" + std::to_string(b.addr) + ", " + std::to_string(b.addr + bb) +
                                "); " + api + " does not allow it (use separate buffers)");
}
// The sharedTmpBuffer holds at least `need` bytes, or (tmp == nullptr) UB has `need` bytes left after the TPipe's
// buffers for the framework to take.
inline void adv_tmp(const rt::LocalRef* tmp, uint64_t need, const char* api, const Loc& loc, const std::string& why) {
  if (tmp) {
    if (tmp->len < need)
      fail("param", api, loc, "sharedTmpBuffer holds " + std::to_string(tmp->len) + " bytes but " + why +
                                  " needs at least " + std::to_string(need) + " bytes (CANN's minimum temporary size); enlarge it");
    return;
  }
  Core& c = cur();
  uint64_t cap = c.soc->mem_size[static_cast<int>(Mem::UB)];
  uint64_t used = c.pipe ? c.pipe->bump[static_cast<int>(Mem::UB)] : 0;
  if (used + need > cap)
    fail("ub-overflow", api, loc, std::string(api) + " allocates its " + std::to_string(need) +
                                      "-byte temporary buffer from free UB, but the TPipe's buffers leave only " +
                                      std::to_string(cap > used ? cap - used : 0) + " of " + std::to_string(cap) +
                                      " bytes; shrink the InitBuffer sizes or pass a sharedTmpBuffer");
}

// The [B, S, H] shape of a LayerNorm-family tiling, checked: nonzero, originalHLength <= hLength, and H padded
// to 32 bytes. Returns oriH (hLength when originalHLength is 0).
inline uint64_t norm_bsh(uint64_t B, uint64_t S, uint64_t H, uint64_t ori_h, DType dt, const char* tiling_name,
                         const char* tiling_func, const char* api, const Loc& loc) {
  uint64_t oriH = ori_h ? ori_h : H;
  if (B == 0 || S == 0 || H == 0)
    fail("param", api, loc, std::string(tiling_name) + " has bLength = " + std::to_string(B) + ", sLength = " +
                                std::to_string(S) + ", hLength = " + std::to_string(H) + "; fill it on the host with " +
                                tiling_func + " (or set the shape fields)");
  if (oriH > H) fail("param", api, loc, "originalHLength " + std::to_string(oriH) + " exceeds hLength " + std::to_string(H));
  uint64_t es = dtype_size(dt);
  if ((H * es) % 32 != 0)
    fail("align", api, loc, "hLength = " + std::to_string(H) + " elements is " + std::to_string(H * es) +
                                " bytes; the H axis must be padded (with zeros) to a multiple of 32 bytes");
  return oriH;
}

// Max and sum of exp(x - max) over the first n values of a row: the two reductions of every softmax.
inline void softmax_row_stats(const float* row, uint32_t n, float& mx, float& sum) {
  mx = row[0];
  for (uint32_t k = 1; k < n; ++k) mx = std::max(mx, row[k]);
  sum = 0;
  for (uint32_t k = 0; k < n; ++k) sum += std::exp(row[k] - mx);
}

// Rows of a SoftMax-family call: the shape from SoftMaxShapeInfo, else from the tiling (srcM/srcK, with the
// config's or the tiling's original sizes), checked; and CANN's minimum temporary bytes: (32/red_size + srcK + 64)
// floats per row, times splitM rows when the tiling was made for this srcK.
struct SoftmaxRows {
  uint32_t M, K, oriM, oriK;
  uint64_t row_tmp, tmp_need;
};
inline SoftmaxRows softmax_rows(uint32_t shape_m, uint32_t shape_k, uint32_t shape_ori_m, uint32_t shape_ori_k,
                                uint32_t tiling_m, uint32_t tiling_k, uint32_t tiling_split_m, uint32_t ori_m,
                                uint32_t ori_k, DType dt, DType red_dt, const char* tiling_name,
                                const char* tiling_func, const char* api, const Loc& loc) {
  SoftmaxRows r{shape_m, shape_k, shape_ori_m, shape_ori_k, 0, 0};
  if (r.M == 0 || r.K == 0) {   // no SoftMaxShapeInfo: the shape comes from the tiling
    r.M = tiling_m;
    r.K = tiling_k;
    r.oriM = ori_m ? ori_m : r.M;
    r.oriK = ori_k ? ori_k : r.K;
  }
  if (r.M == 0 || r.K == 0)
    fail("param", api, loc, std::string("no shape: SoftMaxShapeInfo is empty and ") + tiling_name + " has srcM = " +
                                std::to_string(tiling_m) + ", srcK = " + std::to_string(tiling_k) + "; fill the tiling on the host (" +
                                tiling_func + ") or pass SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK}");
  if (r.oriM == 0) r.oriM = r.M;
  if (r.oriK == 0) r.oriK = r.K;
  uint32_t es = dtype_size(dt);
  if ((static_cast<uint64_t>(r.K) * es) % 32 != 0)
    fail("align", api, loc, "srcK = " + std::to_string(r.K) + " elements is " + std::to_string(r.K * es) +
                                " bytes; the last axis must be padded to a multiple of 32 bytes (oriSrcK keeps the real length)");
  if (r.oriK > r.K || r.oriM > r.M)
    fail("param", api, loc, "oriSrcM/oriSrcK (" + std::to_string(r.oriM) + ", " + std::to_string(r.oriK) +
                                ") exceed srcM/srcK (" + std::to_string(r.M) + ", " + std::to_string(r.K) + ")");
  r.row_tmp = (static_cast<uint64_t>(32 / dtype_size(red_dt)) + r.K + 64) * 4;
  r.tmp_need = r.row_tmp;
  if (tiling_k == r.K && tiling_split_m > 1) r.tmp_need = r.row_tmp * std::min(tiling_split_m, r.M);
  return r;
}
}  // namespace kgen::sim
