// Helpers of the vector API unit tests: one emulated core with a TBuf, fill/read through SetValue/GetValue with
// the barriers the chip needs, and the mask/repeat walk written out from the docs (independent of src/sim).
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/testing.h"

namespace vt {
using namespace AscendC;

struct Env {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  explicit Env(uint32_t bytes = 64 * 1024, const char* soc = "Ascend910B2") : tc(soc) { pipe.InitBuffer(buf, bytes); }
  // `count` elements of T at byte offset `off` of the buffer
  template <class T> LocalTensor<T> at(uint32_t off, uint32_t count) { return buf.GetWithOffset<T>(count, off); }
  const kgen::sim::TraceRec& last() { return tc.core().trace.back(); }
  // the last V-pipe instruction record
  const kgen::sim::TraceRec& last_v() {
    auto& t = tc.core().trace;
    for (size_t i = t.size(); i-- > 0;)
      if (t[i].kind == kgen::sim::TraceRec::Instr && t[i].pipe == kgen::sim::kV) return t[i];
    return t.back();
  }
};

template <class T> void fill(const LocalTensor<T>& t, const std::vector<T>& v) {
  PipeBarrier<PIPE_ALL>();
  for (size_t i = 0; i < v.size(); ++i) t.SetValue(static_cast<uint32_t>(i), v[i]);
  PipeBarrier<PIPE_ALL>();
}
template <class T> std::vector<T> read(const LocalTensor<T>& t, size_t n) {
  PipeBarrier<PIPE_ALL>();
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = t.GetValue(static_cast<uint32_t>(i));
  PipeBarrier<PIPE_ALL>();
  return v;
}
template <class T> uint64_t bits_of(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
// Deterministic pseudo-random numbers.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 1) {}
  uint64_t next() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
  double uni(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) / 9007199254740992.0; }
};

// Element index (in units of T) of lane k of repeat r, from the docs' formula:
// addr = (r * repStride + j * blkStride) * 32 + e * sizeof(T), with j = k / (32/sizeof(T)), e = k % (32/sizeof(T)).
inline uint64_t lane_index(uint32_t r, uint32_t k, uint32_t es, uint32_t blk, uint32_t rep) {
  uint32_t pb = 32 / es;
  return ((static_cast<uint64_t>(r) * rep + static_cast<uint64_t>(k / pb) * blk) * 32 + (k % pb) * es) / es;
}
inline bool mask_bit(uint64_t lo, uint64_t hi, uint32_t k) { return k < 64 ? (lo >> k) & 1 : (hi >> (k - 64)) & 1; }

inline bool has_category(const std::string& e, const char* cat) {
  return e.find(std::string("error[") + cat + "]") != std::string::npos;
}
}  // namespace vt

#define EXPECT_ERROR(cat, stmt)                                             \
  do {                                                                      \
    std::string kgen_err_ = kgen::sim::error_of([&] { stmt; });             \
    EXPECT_TRUE(vt::has_category(kgen_err_, cat)) << "got: " << kgen_err_;  \
  } while (0)
