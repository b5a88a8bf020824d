// The tile compiler's kernel-side helpers (src/tile/prelude/kgen_tile.h) on one emulated core: moves, row
// reductions, row/vector broadcasts, compare/select and the multi-instruction activations, for every dtype they
// take, against plain C++ references, over shapes that hit every regime (rows = 1, n = 1, n not a multiple of a
// block, rows > 255, rows > 4095 for DataCopyPad's blockCount, rows longer than 255 blocks, tails). The emulator
// throws on any error (alignment, UB bounds, uninitialised reads, pipe races): each call must raise none, and the
// outputs are read back with GetValue, so any element a helper promises to define but leaves uninitialised fails.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/testing.h"
#include "tikicpulib.h"
#include "tile/prelude/kgen_tile.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
constexpr uint32_t kUbBytes = 184 * 1024;   // below Select's 8 KB scratch at the top of the 910B's UB

struct Ub {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  uint32_t next = 0;
  Ub() { pipe.InitBuffer(buf, kUbBytes); }
  // `elems` elements of T at the next 256-byte-aligned offset
  template <class T> LocalTensor<T> alloc(uint32_t elems) {
    uint32_t bytes = (elems * sizeof(T) + 255) / 256 * 256;
    EXPECT_LE(next + bytes, kUbBytes) << "test tile does not fit the UB";
    LocalTensor<T> t = buf.GetWithOffset<T>(elems, next);
    next += bytes;
    return t;
  }
};
template <class T> struct Gm {
  T* p;
  size_t n;
  explicit Gm(size_t count) : p(static_cast<T*>(GmAlloc(count * sizeof(T)))), n(count) {}
  ~Gm() { GmFree(p); }
  GlobalTensor<T> tensor() const {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(p, n);
    return g;
  }
};
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 7) {}
  uint64_t next() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
  double uni(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) / 9007199254740992.0; }
};
template <class T> T from_d(double v) {
  if constexpr (std::is_same_v<T, int32_t>) return static_cast<int32_t>(std::lround(v * 100));
  else return static_cast<T>(static_cast<float>(v));
}
template <class T> double to_d(T v) { return static_cast<double>(static_cast<float>(v)); }
template <> double to_d<int32_t>(int32_t v) { return static_cast<double>(v); }
template <class T> uint32_t bits(T v) {
  uint32_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T> const char* tname() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, half>) return "half";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bf16";
  else return "int32";
}
void ub_sync() { PipeBarrier<PIPE_ALL>(); }
template <class T> void set(const LocalTensor<T>& t, uint32_t i, T v) { t.SetValue(i, v); }

// ------------------------------------------------------------------------------------------------ moves
template <class T> void check_flat(uint32_t len) {
  SCOPED_TRACE(std::string(tname<T>()) + " len=" + std::to_string(len));
  Ub ub;
  Rng rng(len);
  uint32_t cap = kt::RoundRep<T>(len);
  Gm<T> in(len), out(len + 40);
  for (uint32_t i = 0; i < len; ++i) in.p[i] = from_d<T>(rng.uni(-8, 8));
  for (uint32_t i = 0; i < len + 40; ++i) out.p[i] = from_d<T>(77);
  auto t = ub.alloc<T>(cap);
  EXPECT_EQ(error_of([&] {
              kt::LoadFlat(t, in.tensor(), len);
              ub_sync();
              for (uint32_t i = 0; i < cap; ++i)
                ASSERT_EQ(bits(t.GetValue(i)), bits(i < len ? in.p[i] : from_d<T>(0))) << i;
              ub_sync();
              kt::StoreFlat(out.tensor(), t, len);
              ub_sync();
            }),
            "");
  for (uint32_t i = 0; i < len + 40; ++i) ASSERT_EQ(bits(out.p[i]), bits(i < len ? in.p[i] : from_d<T>(77))) << i;
}

template <class T> void check_rows(uint32_t rows, uint32_t n, uint32_t npad16 = false) {
  uint32_t npad = npad16 ? static_cast<uint32_t>(kt::RoundUp(n, 16)) : kt::PadRow<T>(n);
  SCOPED_TRACE(std::string(tname<T>()) + " rows=" + std::to_string(rows) + " n=" + std::to_string(n) +
               " npad=" + std::to_string(npad));
  Ub ub;
  Rng rng(rows * 31 + n);
  uint32_t cap = kt::RoundRep<T>(rows * npad);
  size_t total = static_cast<size_t>(rows) * n;
  Gm<T> in(total), out(total + 40);
  for (size_t i = 0; i < total; ++i) in.p[i] = from_d<T>(rng.uni(-8, 8));
  for (size_t i = 0; i < total + 40; ++i) out.p[i] = from_d<T>(77);
  auto t = ub.alloc<T>(cap);
  EXPECT_EQ(error_of([&] {
              kt::LoadRows(t, in.tensor(), rows, n, npad);
              ub_sync();
              for (uint32_t i = 0; i < cap; ++i) {
                uint32_t r = i / npad, c = i % npad;
                T want = (r < rows && c < n) ? in.p[static_cast<size_t>(r) * n + c] : from_d<T>(0);
                ASSERT_EQ(bits(t.GetValue(i)), bits(want)) << "r=" << r << " c=" << c;
              }
              ub_sync();
              kt::StoreRows(out.tensor(), t, rows, n, npad);
              ub_sync();
            }),
            "");
  for (size_t i = 0; i < total + 40; ++i) ASSERT_EQ(bits(out.p[i]), bits(i < total ? in.p[i] : from_d<T>(77))) << i;
}

template <class T> void moves_for_type() {
  for (uint32_t len : {1u, 7u, 8u, 16u, 63u, 64u, 65u, 129u, 1000u, 1025u, 4099u}) check_flat<T>(len);
  const uint32_t shapes[][2] = {{1, 1}, {1, 8}, {3, 7}, {5, 8}, {2, 33}, {300, 5}, {17, 130}, {2, 2100}};
  for (auto& s : shapes) check_rows<T>(s[0], s[1]);
  for (auto& s : shapes) check_rows<T>(s[0], s[1], true);   // the compiler's npad = AlignUp(n, 16)
}

// ------------------------------------------------------------------------------------------------ row reductions
template <class T> void check_reduce(int op, uint32_t rows, uint32_t n, bool npad16 = false) {
  const char* names[] = {"RowSum", "RowMax", "RowMin"};
  SCOPED_TRACE(std::string(names[op]) + " " + tname<T>() + " rows=" + std::to_string(rows) + " n=" + std::to_string(n));
  Ub ub;
  Rng rng(rows * 7 + n + op);
  uint32_t npad = npad16 ? static_cast<uint32_t>(kt::RoundUp(n, 16)) : kt::PadRow<T>(n);
  auto src = ub.alloc<T>(kt::RoundRep<T>(rows * npad));
  auto col = ub.alloc<T>(kt::RoundRep<T>(rows));
  auto work = ub.alloc<T>(kt::RowReduceWorkElems<T>(rows, npad));
  std::vector<double> ref(rows), mag(rows, 0.0);
  ub_sync();
  for (uint32_t r = 0; r < rows; ++r) {
    double acc = op == 0 ? 0.0 : op == 1 ? -1e30 : 1e30;
    for (uint32_t c = 0; c < npad; ++c) {
      // the padding holds values that would win every reduction: it must be excluded
      T v = c < n ? from_d<T>(rng.uni(-4, 4)) : from_d<T>(op == 2 ? -1000.0 : 1000.0);
      src.SetValue(r * npad + c, v);
      if (c < n) {
        double x = to_d(v);
        acc = op == 0 ? acc + x : op == 1 ? std::max(acc, x) : std::min(acc, x);
        mag[r] += std::fabs(x);
      }
    }
    ref[r] = acc;
  }
  ub_sync();
  EXPECT_EQ(error_of([&] {
              if (op == 0) kt::RowSum(col, src, work, rows, n, npad);
              else if (op == 1) kt::RowMax(col, src, work, rows, n, npad);
              else kt::RowMin(col, src, work, rows, n, npad);
              ub_sync();
              bool h = sizeof(T) == 2;
              for (uint32_t r = 0; r < kt::RoundRep<T>(rows); ++r) {
                double got = to_d(col.GetValue(r));
                if (r >= rows) { ASSERT_EQ(got, 0.0) << r; continue; }
                double tol = op ? 0.0 : (h ? 4e-3 * mag[r] + 1e-3 : 1e-6 * mag[r] + 1e-6);
                ASSERT_NEAR(got, ref[r], tol) << "row " << r;
              }
            }),
            "");
}
template <class T> void reductions_for_type() {
  // n <= one repeat, chunked rows (many rows per instruction, rows > 255), rows longer than 255 blocks
  std::vector<std::pair<uint32_t, uint32_t>> shapes = {{1, 1}, {1, 64}, {3, 7}, {4, 65}, {2, 200}, {300, 5},
                                                       {260, 70}, {9, 1000}};
  if (sizeof(T) == 4) shapes.insert(shapes.end(), {{3, 2041}, {2, 2100}, {1, 3000}, {2, 10000}});
  else shapes.insert(shapes.end(), {{3, 4081}, {2, 4100}, {1, 6000}, {1, 20000}});
  for (int op = 0; op < 3; ++op)
    for (auto& s : shapes) {
      check_reduce<T>(op, s.first, s.second);
      check_reduce<T>(op, s.first, s.second, true);
    }
}

// ------------------------------------------------------------------------------------------------ broadcasts
double apply(int op, double a, double b) {
  switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    case 4: return std::max(a, b);
    default: return std::min(a, b);
  }
}
template <class T> T ref_op(int op, T a, T b) {
  if constexpr (std::is_same_v<T, int32_t>) return static_cast<int32_t>(apply(op, a, b));
  else if constexpr (std::is_same_v<T, float>) {
    float x = a, y = b;
    float r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : op == 3 ? x / y : op == 4 ? std::max(x, y) : std::min(x, y);
    return r;
  } else {
    float x = static_cast<float>(a), y = static_cast<float>(b);
    float r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : op == 3 ? x / y : op == 4 ? std::max(x, y) : std::min(x, y);
    return static_cast<T>(r);
  }
}
template <class T>
void call_row(int op, const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& c,
              const LocalTensor<T>& w, uint32_t rows, uint32_t n, uint32_t npad) {
  switch (op) {
    case 0: kt::RowAdd(d, a, c, w, rows, n, npad); break;
    case 1: kt::RowSub(d, a, c, w, rows, n, npad); break;
    case 2: kt::RowMul(d, a, c, w, rows, n, npad); break;
    case 3: kt::RowDiv(d, a, c, w, rows, n, npad); break;
    case 4: kt::RowMax(d, a, c, w, rows, n, npad); break;
    default: kt::RowMin(d, a, c, w, rows, n, npad); break;
  }
}
template <class T>
void call_vec(int op, const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& v, uint32_t rows,
              uint32_t n, uint32_t npad) {
  switch (op) {
    case 0: kt::VecAdd(d, a, v, rows, n, npad); break;
    case 1: kt::VecSub(d, a, v, rows, n, npad); break;
    case 2: kt::VecMul(d, a, v, rows, n, npad); break;
    case 3: kt::VecDiv(d, a, v, rows, n, npad); break;
    case 4: kt::VecMax(d, a, v, rows, n, npad); break;
    default: kt::VecMin(d, a, v, rows, n, npad); break;
  }
}
// kind 0: row broadcast (column), 1: vector broadcast. alias: dst == a.
template <class T> void check_bcast(int kind, int op, uint32_t rows, uint32_t n, bool alias, bool npad16 = false) {
  SCOPED_TRACE(std::string(kind ? "Vec" : "Row") + " op=" + std::to_string(op) + " " + tname<T>() +
               " rows=" + std::to_string(rows) + " n=" + std::to_string(n) + (alias ? " in place" : ""));
  Ub ub;
  Rng rng(rows * 13 + n * 3 + op + kind);
  uint32_t npad = npad16 ? static_cast<uint32_t>(kt::RoundUp(n, 16)) : kt::PadRow<T>(n), cap = kt::RoundRep<T>(rows * npad);
  auto a = ub.alloc<T>(cap);
  auto d = alias ? a : ub.alloc<T>(cap);
  uint32_t bl = kind ? npad : kt::RoundRep<T>(rows);
  auto b = ub.alloc<T>(bl);
  LocalTensor<T> w;
  if (!kind) w = ub.alloc<T>(kt::RowBroadcastWorkElems<T>(rows));
  std::vector<T> av(rows * npad), bv(bl);
  auto operand = [&] {   // divisors away from 0
    double x = rng.uni(0.5, 3.0);
    return rng.next() & 1 ? x : -x;
  };
  ub_sync();
  for (uint32_t i = 0; i < rows * npad; ++i) a.SetValue(i, av[i] = from_d<T>(i % npad < n ? rng.uni(-5, 5) : 0.0));
  for (uint32_t i = 0; i < bl; ++i) b.SetValue(i, bv[i] = from_d<T>(operand()));
  ub_sync();
  EXPECT_EQ(error_of([&] {
              if (kind) call_vec(op, d, a, b, rows, n, npad);
              else call_row(op, d, a, b, w, rows, n, npad);
              ub_sync();
              for (uint32_t i = 0; i < cap; ++i) {
                uint32_t r = i / npad, c = i % npad;
                T want = r < rows ? ref_op(op, av[i], bv[kind ? c : r]) : from_d<T>(0);
                ASSERT_EQ(bits(d.GetValue(i)), bits(want)) << "r=" << r << " c=" << c;
              }
            }),
            "");
}
template <class T> void broadcasts_for_type() {
  std::vector<std::pair<uint32_t, uint32_t>> shapes = {{1, 1}, {3, 7}, {9, 64}, {300, 5}, {260, 70}, {2, 300}};
  if (sizeof(T) == 4) shapes.insert(shapes.end(), {{2, 2100}, {1, 12000}});
  else shapes.insert(shapes.end(), {{2, 4100}, {1, 24000}});
  int ops = std::is_same_v<T, int32_t> ? 6 : 6;
  for (int kind = 0; kind < 2; ++kind)
    for (int op = 0; op < ops; ++op) {
      if (std::is_same_v<T, int32_t> && op == 3) continue;   // no integer Div on the vector unit
      for (auto& s : shapes) check_bcast<T>(kind, op, s.first, s.second, false);
      check_bcast<T>(kind, op, 13, 37, true);
      check_bcast<T>(kind, op, 300, 7, false, true);   // npad = AlignUp(n, 16)
      check_bcast<T>(kind, op, 2, sizeof(T) == 4 ? 2100 : 4100, true);
    }
}

// ------------------------------------------------------------------------------------------------ compare / select
template <class T> bool cmp_ref(CMPMODE m, double a, double b) {
  switch (m) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    case CMPMODE::EQ: return a == b;
    default: return a != b;
  }
}
template <class T> void check_select(uint32_t count) {
  SCOPED_TRACE(std::string(tname<T>()) + " count=" + std::to_string(count));
  Ub ub;
  Rng rng(count + 5);
  uint32_t cap = kt::RoundRep<T>(count);
  auto a = ub.alloc<T>(cap), b = ub.alloc<T>(cap), d = ub.alloc<T>(cap);
  auto mask = ub.alloc<uint8_t>(kt::MaskBytes<T>(count));
  std::vector<T> av(cap), bv(cap);
  ub_sync();
  for (uint32_t i = 0; i < cap; ++i) {
    a.SetValue(i, av[i] = from_d<T>(std::round(rng.uni(-3, 3))));   // small integers: ties are frequent
    b.SetValue(i, bv[i] = from_d<T>(std::round(rng.uni(-3, 3))));
  }
  ub_sync();
  const T sa = from_d<T>(1.5), sb = from_d<T>(-2.25);
  auto bit = [&](uint32_t i) { return (mask.GetValue(i / 8) >> (i % 8)) & 1; };
  EXPECT_EQ(error_of([&] {
              const bool i32 = std::is_same_v<T, int32_t>;   // the vector unit compares int32 for EQ (NE via Not)
              for (CMPMODE m : {CMPMODE::LT, CMPMODE::GT, CMPMODE::LE, CMPMODE::GE, CMPMODE::EQ, CMPMODE::NE}) {
                if (i32 && m != CMPMODE::EQ && m != CMPMODE::NE) continue;
                kt::Cmp(mask, a, b, m, count);
                ub_sync();
                for (uint32_t i = 0; i < count; ++i)
                  ASSERT_EQ(bit(i), cmp_ref<T>(m, to_d(av[i]), to_d(bv[i]))) << "Cmp mode " << int(m) << " i=" << i;
                ub_sync();
                kt::CmpScalar(mask, a, sa, m, count);
                ub_sync();
                for (uint32_t i = 0; i < count; ++i)
                  ASSERT_EQ(bit(i), cmp_ref<T>(m, to_d(av[i]), to_d(sa))) << "CmpScalar mode " << int(m) << " i=" << i;
                ub_sync();
              }
              kt::Cmp(mask, a, b, i32 ? CMPMODE::NE : CMPMODE::LT, count);
              ub_sync();
              std::vector<int> mb(count);
              for (uint32_t i = 0; i < count; ++i) mb[i] = bit(i);
              std::vector<uint8_t> mbytes(kt::MaskBytes<T>(count));
              for (uint32_t i = 0; i < mbytes.size(); ++i) mbytes[i] = mask.GetValue(i);
              ub_sync();
              auto check = [&](const LocalTensor<T>& out, auto want, const char* what) {
                ub_sync();
                for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(bits(out.GetValue(i)), bits(want(i))) << what << " i=" << i;
                for (uint32_t i = 0; i < mbytes.size(); ++i) ASSERT_EQ(mask.GetValue(i), mbytes[i]) << what << " mask";
                ub_sync();
              };
              kt::Where(d, mask, a, b, count);
              check(d, [&](uint32_t i) { return mb[i] ? av[i] : bv[i]; }, "Where");
              kt::WhereTS(d, mask, a, sb, count);
              check(d, [&](uint32_t i) { return mb[i] ? av[i] : sb; }, "WhereTS");
              kt::WhereST(d, mask, sa, b, count);
              check(d, [&](uint32_t i) { return mb[i] ? sa : bv[i]; }, "WhereST");
              kt::WhereSS(d, mask, sa, sb, count);
              check(d, [&](uint32_t i) { return mb[i] ? sa : sb; }, "WhereSS");
              kt::WhereST(b, mask, sa, b, count);   // dst aliases b: mask inverted and restored in place
              check(b, [&](uint32_t i) { return mb[i] ? sa : bv[i]; }, "WhereST in place");
              kt::Where(a, mask, a, d, count);      // dst aliases a
              check(a, [&](uint32_t i) { return mb[i] ? av[i] : (mb[i] ? sa : sb); }, "Where in place");
            }),
            "");
}

// ------------------------------------------------------------------------------------------------ activations
double erf_gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double tanh_gelu(double x) { return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x))); }
double softplus(double x) { return x > 20 ? x : std::log1p(std::exp(x)); }
template <class T> void check_act(int op, uint32_t count, bool inplace) {
  const char* names[] = {"Gelu", "GeluTanh", "Silu", "Softplus", "Elu", "HardSigmoid", "LeakyRelu", "Rsqrt",
                         "Reciprocal", "Rsqrt(work)", "Reciprocal(work)"};
  SCOPED_TRACE(std::string(names[op]) + " " + tname<T>() + " count=" + std::to_string(count) +
               (inplace ? " in place" : ""));
  Ub ub;
  Rng rng(count * 11 + op);
  uint32_t cap = kt::RoundRep<T>(count);
  auto s = ub.alloc<T>(cap);
  auto d = inplace ? s : ub.alloc<T>(cap);
  auto w = ub.alloc<T>(cap);
  auto tmp = ub.alloc<uint8_t>(kt::kMathTmpBytes);
  bool pos = op == 7 || op == 9;
  std::vector<double> x(count);
  ub_sync();
  for (uint32_t i = 0; i < count; ++i) {
    double v = pos ? rng.uni(0.01, 50) : rng.uni(-8, 8);
    if (op == 3 && i % 7 == 0) v = (i % 14 ? 1 : -1) * rng.uni(15, 60);   // softplus far from 0
    if ((op == 8 || op == 10) && std::fabs(v) < 0.05) v = 0.5;
    T t = from_d<T>(v);
    s.SetValue(i, t);
    x[i] = to_d(t);
  }
  ub_sync();
  const double alpha = 0.7, slope = 0.05;
  EXPECT_EQ(error_of([&] {
              switch (op) {
                case 0: kt::Gelu(d, s, tmp, count); break;
                case 1: kt::GeluTanh(d, s, tmp, count); break;
                case 2: kt::Silu(d, s, tmp, count); break;
                case 3: kt::Softplus(d, s, w, count); break;
                case 4: kt::Elu(d, s, static_cast<T>(alpha), w, count); break;
                case 5: kt::HardSigmoid(d, s, count); break;
                case 6: kt::LeakyRelu(d, s, static_cast<T>(slope), count); break;
                case 7: kt::Rsqrt(d, s, count); break;
                case 8: kt::Reciprocal(d, s, count); break;
                case 9: kt::Rsqrt(d, s, w, count); break;
                default: kt::Reciprocal(d, s, w, count); break;
              }
              ub_sync();
              bool h = sizeof(T) == 2;
              double al = to_d(static_cast<T>(alpha)), sl = to_d(static_cast<T>(slope));
              for (uint32_t i = 0; i < count; ++i) {
                double v = x[i], ref = 0;
                switch (op) {
                  case 0: ref = erf_gelu(v); break;
                  case 1: ref = tanh_gelu(v); break;
                  case 2: ref = v / (1 + std::exp(-v)); break;
                  case 3: ref = softplus(v); break;
                  case 4: ref = v > 0 ? v : al * std::expm1(v); break;
                  case 5: ref = std::min(std::max(v + 3, 0.0), 6.0) / 6; break;
                  case 6: ref = v >= 0 ? v : sl * v; break;
                  case 7: case 9: ref = 1 / std::sqrt(v); break;
                  default: ref = 1 / v; break;
                }
                double tol = h ? 4e-3 * std::fabs(ref) + 2e-3 : 4e-6 * std::fabs(ref) + 2e-6;
                ASSERT_NEAR(to_d(d.GetValue(i)), ref, tol) << "i=" << i << " x=" << v;
              }
            }),
            "");
}
}  // namespace

TEST(TilePrelude, MovesFloat) { moves_for_type<float>(); }
TEST(TilePrelude, MovesHalf) { moves_for_type<half>(); }
TEST(TilePrelude, MovesBf16) { moves_for_type<bfloat16_t>(); }
TEST(TilePrelude, MovesInt32) { moves_for_type<int32_t>(); }
TEST(TilePrelude, MovesManyRowsPastBlockCount) {
  check_rows<float>(4100, 3);   // DataCopyPad's blockCount <= 4095: two copies
  check_rows<half>(4100, 3);
}
TEST(TilePrelude, VectorAndColumnLoads) {
  Ub ub;
  Gm<float> v(37);
  for (int i = 0; i < 37; ++i) v.p[i] = 0.5f * i;
  auto t = ub.alloc<float>(64), c = ub.alloc<float>(64);
  EXPECT_EQ(error_of([&] {
              kt::LoadVector(t, v.tensor(), 37);
              kt::LoadColumn(c, v.tensor(), 37);
              ub_sync();
              for (uint32_t i = 0; i < 64; ++i) {
                ASSERT_EQ(t.GetValue(i), i < 37 ? 0.5f * i : 0.f);
                ASSERT_EQ(c.GetValue(i), i < 37 ? 0.5f * i : 0.f);
              }
            }),
            "");
}
TEST(TilePrelude, RowReduceFloat) { reductions_for_type<float>(); }
TEST(TilePrelude, RowReduceHalf) { reductions_for_type<half>(); }
TEST(TilePrelude, WorkSizes) {
  EXPECT_EQ(kt::RowReduceWorkElems<float>(3, 8), 3u * 64);
  EXPECT_EQ(kt::RowReduceWorkElems<float>(1000, 8), 248u * 64);
  EXPECT_EQ(kt::RowReduceWorkElems<float>(2, 2048), 2u * 64 + 2048);
  EXPECT_EQ(kt::RowReduceWorkElems<half>(2, 4096), 2u * 128 + 4096);
  EXPECT_EQ(kt::RowBroadcastWorkElems<float>(3), 64u);
  EXPECT_EQ(kt::RowBroadcastWorkElems<half>(9), 256u);
  EXPECT_EQ(kt::MaskBytes<float>(1), 8u);
  EXPECT_EQ(kt::MaskBytes<half>(129), 32u);
}

// ------------------------------------------------------------------------------------------------ axis reductions
// LoadCols: a column chunk [rows, len] of a GM matrix [rows, stride] into UB rows of stride cpad; padding zero.
template <class T> void check_cols(uint32_t rows, uint32_t len, uint32_t stride, uint32_t first, uint32_t cpad) {
  SCOPED_TRACE(std::string(tname<T>()) + " rows=" + std::to_string(rows) + " len=" + std::to_string(len) +
               " stride=" + std::to_string(stride) + " cpad=" + std::to_string(cpad));
  Ub ub;
  Rng rng(rows * 13 + len);
  const size_t total = static_cast<size_t>(rows) * stride;
  Gm<T> in(total);
  for (size_t i = 0; i < total; ++i) in.p[i] = from_d<T>(rng.uni(-8, 8));
  const uint32_t cap = kt::RoundRep<T>(rows * cpad);
  auto t = ub.alloc<T>(cap);
  EXPECT_EQ(error_of([&] {
              kt::LoadCols(t, in.tensor()[first], rows, len, stride, cpad);
              ub_sync();
              for (uint32_t i = 0; i < cap; ++i) {
                const uint32_t r = i / cpad, c = i % cpad;
                T want = r < rows && c < len ? in.p[static_cast<size_t>(r) * stride + first + c] : from_d<T>(0);
                ASSERT_EQ(bits(t.GetValue(i)), bits(want)) << "r=" << r << " c=" << c;
              }
            }),
            "");
}
TEST(TilePrelude, LoadCols) {
  check_cols<float>(3, 5, 129, 7, 16);
  check_cols<float>(33, 96, 1000, 0, 96);
  check_cols<half>(4100, 3, 20, 17, 16);    // past DataCopyPad's 4095 blocks
  check_cols<half>(7, 40, 65, 25, 48);
  check_cols<int32_t>(5, 16, 16, 0, 16);    // the whole width: no GM gap
}

double fold(int op, double a, double b) {
  return op == 0 ? a + b : op == 1 ? std::max(a, b) : op == 2 ? std::min(a, b) : a * b;
}
// ColSum/ColMax/ColMin/ColProd over the rows of a [rows, cpad] slab, with a work buffer or in place.
template <class T> void check_col_reduce(int op, uint32_t rows, uint32_t cpad, bool in_place) {
  const char* names[] = {"ColSum", "ColMax", "ColMin", "ColProd"};
  SCOPED_TRACE(std::string(names[op]) + " " + tname<T>() + " rows=" + std::to_string(rows) + " cpad=" +
               std::to_string(cpad) + (in_place ? " in place" : ""));
  Ub ub;
  Rng rng(rows * 5 + cpad + op);
  auto src = ub.alloc<T>(kt::RoundRep<T>(rows * cpad));
  auto dst = ub.alloc<T>(kt::RoundRep<T>(cpad));
  auto work = in_place ? src : ub.alloc<T>(kt::ColWorkElems(rows, cpad));
  std::vector<double> ref(cpad), mag(cpad, 0.0);
  ub_sync();
  for (uint32_t c = 0; c < cpad; ++c)
    for (uint32_t r = 0; r < rows; ++r) {
      T v = from_d<T>(op == 3 ? rng.uni(0.95, 1.05) : rng.uni(-4, 4));
      src.SetValue(r * cpad + c, v);
      ref[c] = r == 0 ? to_d(v) : fold(op, ref[c], to_d(v));
      mag[c] += std::fabs(to_d(v));
    }
  ub_sync();
  EXPECT_EQ(error_of([&] {
              if (op == 0) kt::ColSum(dst, src, work, rows, cpad);
              else if (op == 1) kt::ColMax(dst, src, work, rows, cpad);
              else if (op == 2) kt::ColMin(dst, src, work, rows, cpad);
              else kt::ColProd(dst, src, work, rows, cpad);
              ub_sync();
              const bool h = sizeof(T) == 2;
              for (uint32_t c = 0; c < kt::RoundRep<T>(cpad); ++c) {
                double got = to_d(dst.GetValue(c));
                if (c >= cpad) { ASSERT_EQ(got, 0.0) << c; continue; }
                double tol = op == 1 || op == 2 || std::is_same_v<T, int32_t> ? 0.0
                             : op == 3 ? (h ? 1e-3 : 2e-7) * (std::log2(rows) + 1) * std::fabs(ref[c])   // tree depth
                                       : (h ? 4e-3 * mag[c] + 1e-3 : 1e-6 * mag[c] + 1e-6);
                ASSERT_NEAR(got, ref[c], tol) << "column " << c;
              }
            }),
            "");
}
template <class T> void col_reductions_for_type() {
  const uint32_t shapes[][2] = {{1, 16}, {2, 16}, {3, 32}, {7, 48}, {33, 96}, {256, 16}, {1000, 16}};
  for (int op = 0; op < 4; ++op)
    for (auto& s : shapes) {
      if (op == 3 && std::is_same_v<T, int32_t>) continue;   // products of int32 wrap; checked on floats
      if (op == 3 && sizeof(T) == 2 && s[0] > 64) continue;    // long half products drift (programs multiply in f32)
      check_col_reduce<T>(op, s[0], s[1], false);
      check_col_reduce<T>(op, s[0], s[1], true);
    }
}
TEST(TilePrelude, ColReduceFloat) { col_reductions_for_type<float>(); }
TEST(TilePrelude, ColReduceHalf) { col_reductions_for_type<half>(); }
TEST(TilePrelude, ColReduceInt32) { col_reductions_for_type<int32_t>(); }

// Row reductions without WholeReduce (products; int32 sums, maxima, minima): one Gather transposes the rows.
template <class T> void check_row_gather(int op, uint32_t rows, uint32_t n) {
  const char* names[] = {"RowSum", "RowMax", "RowMin", "RowProd"};
  SCOPED_TRACE(std::string(names[op]) + " " + tname<T>() + " rows=" + std::to_string(rows) + " n=" + std::to_string(n));
  Ub ub;
  Rng rng(rows * 3 + n + op);
  const uint32_t npad = static_cast<uint32_t>(kt::RoundUp(n, 16));
  auto src = ub.alloc<T>(kt::RoundRep<T>(rows * npad));
  auto col = ub.alloc<T>(kt::RoundRep<T>(kt::RoundUp(rows, 16)));
  auto work = ub.alloc<T>(kt::RowGatherWorkBytes<T>(rows, n) / sizeof(T));
  std::vector<double> ref(rows);
  ub_sync();
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < npad; ++c) {
      T v = c < n ? from_d<T>(op == 3 ? rng.uni(0.95, 1.05) : rng.uni(-40, 40)) : from_d<T>(op == 2 ? -1000.0 : 1000.0);
      src.SetValue(r * npad + c, v);
      if (c < n) ref[r] = c == 0 ? to_d(v) : fold(op, ref[r], to_d(v));
    }
  ub_sync();
  EXPECT_EQ(error_of([&] {
              if (op == 0) kt::RowSum(col, src, work, rows, n, npad);
              else if (op == 1) kt::RowMax(col, src, work, rows, n, npad);
              else if (op == 2) kt::RowMin(col, src, work, rows, n, npad);
              else kt::RowProd(col, src, work, rows, n, npad);
              ub_sync();
              for (uint32_t r = 0; r < rows; ++r) {
                const double tol = op == 3 ? (sizeof(T) == 2 ? 1e-3 : 2e-7) * (std::log2(n) + 1) * std::fabs(ref[r]) : 0.0;
                ASSERT_NEAR(to_d(col.GetValue(r)), ref[r], tol) << "row " << r;
              }
            }),
            "");
}
TEST(TilePrelude, RowReduceByGather) {
  const uint32_t shapes[][2] = {{1, 1}, {5, 1}, {3, 7}, {17, 40}, {40, 250}, {300, 3}};
  for (auto& s : shapes) {
    for (int op = 0; op < 3; ++op) check_row_gather<int32_t>(op, s[0], s[1]);
    check_row_gather<float>(3, s[0], s[1]);
    if (s[1] <= 64) check_row_gather<half>(3, s[0], s[1]);   // long half products drift (programs multiply in f32)
  }
  EXPECT_EQ(kt::RowGatherWorkBytes<float>(3, 40), 16u * 40 * 8);
  EXPECT_EQ(kt::AxisWorkBytes<float>(false, false, 32, 33, 48), 17u * 32 * 4);
  EXPECT_EQ(kt::AxisWorkBytes<half>(true, false, 3, 8, 16), kt::RowReduceWorkElems<half>(3, 16) * 2);
}

TEST(TilePrelude, BroadcastFloat) { broadcasts_for_type<float>(); }
TEST(TilePrelude, BroadcastHalf) { broadcasts_for_type<half>(); }
TEST(TilePrelude, BroadcastInt32) { broadcasts_for_type<int32_t>(); }
TEST(TilePrelude, RowBroadcastPastOneBrcb) {   // > 254 Brcb repeats (8 rows each): a second Brcb, aligned
  check_bcast<float>(0, 2, 2100, 3, true);
  check_bcast<half>(0, 0, 2100, 3, true);
}
TEST(TilePrelude, CompareSelectFloat) {
  for (uint32_t c : {1u, 63u, 64u, 65u, 200u, 1000u}) check_select<float>(c);
}
TEST(TilePrelude, CompareSelectHalf) {
  for (uint32_t c : {1u, 127u, 128u, 129u, 1000u}) check_select<half>(c);
}
TEST(TilePrelude, CompareSelectInt32) {
  for (uint32_t c : {1u, 64u, 65u, 1000u}) check_select<int32_t>(c);
}
TEST(TilePrelude, ActivationsFloat) {
  for (int op = 0; op < 11; ++op)
    for (uint32_t c : {1u, 100u, 1000u, 3000u})
      for (bool ip : {false, true}) check_act<float>(op, c, ip);
}
TEST(TilePrelude, ActivationsHalf) {
  for (int op = 0; op < 11; ++op)
    for (uint32_t c : {1u, 100u, 1000u, 3000u})
      for (bool ip : {false, true}) check_act<half>(op, c, ip);
}

// The helpers cover many rows per instruction: the V-pipe instruction counts stay independent of the element count.
TEST(TilePrelude, InstructionCounts) {
  Ub ub;
  auto v_instrs = [&] {
    size_t k = 0;
    for (auto& r : ub.tc.core().trace)
      if (r.kind == kgen::sim::TraceRec::Instr && r.pipe == kgen::sim::kV) ++k;
    return k;
  };
  const uint32_t rows = 240, n = 30, npad = kt::PadRow<float>(n);
  auto src = ub.alloc<float>(kt::RoundRep<float>(rows * npad));
  auto col = ub.alloc<float>(kt::RoundRep<float>(rows));
  auto work = ub.alloc<float>(kt::RowReduceWorkElems<float>(rows, npad));
  auto bw = ub.alloc<float>(kt::RowBroadcastWorkElems<float>(rows));
  auto vec = ub.alloc<float>(npad);
  EXPECT_EQ(error_of([&] {
              AscendC::Duplicate(src, 1.0f, static_cast<int32_t>(kt::RoundRep<float>(rows * npad)));
              AscendC::Duplicate(vec, 2.0f, static_cast<int32_t>(npad));
              size_t k0 = v_instrs();
              kt::RowSum(col, src, work, rows, n, npad);   // Duplicate + one WholeReduceSum
              size_t k1 = v_instrs();
              EXPECT_EQ(k1 - k0, 2u);
              kt::RowMul(src, src, col, bw, rows, n, npad);   // Brcb + one Mul (+ the tail Duplicate)
              size_t k2 = v_instrs();
              EXPECT_LE(k2 - k1, 3u);
              kt::VecAdd(src, src, vec, rows, n, npad);   // one Add (+ the tail Duplicate)
              EXPECT_LE(v_instrs() - k2, 2u);
              ub_sync();
              EXPECT_EQ(src.GetValue(3 * npad + 5), 32.0f);   // 1 * 30 + 2
            }),
            "");
}

TEST(TilePrelude, ConvertAndScalars) {
  Ub ub;
  const uint32_t n = 300;
  auto f = ub.alloc<float>(kt::RoundRep<float>(n)), f2 = ub.alloc<float>(kt::RoundRep<float>(n));
  auto h = ub.alloc<half>(kt::RoundRep<half>(n)), h2 = ub.alloc<half>(kt::RoundRep<half>(n));
  auto b = ub.alloc<bfloat16_t>(kt::RoundRep<bfloat16_t>(n));
  auto i = ub.alloc<int32_t>(kt::RoundRep<int32_t>(n)), i2 = ub.alloc<int32_t>(kt::RoundRep<int32_t>(n));
  Rng rng(3);
  std::vector<float> x(n);
  ub_sync();
  for (uint32_t k = 0; k < n; ++k) f.SetValue(k, x[k] = static_cast<float>(rng.uni(-300, 300)));
  ub_sync();
  EXPECT_EQ(error_of([&] {
              kt::Convert(h, f, n);
              kt::Convert(b, f, n);
              kt::Convert(i, f, n);
              kt::Convert(f2, f, n);
              kt::Convert(h2, h, n);
              kt::Convert(i2, i, n);
              ub_sync();
              for (uint32_t k = 0; k < n; ++k) {
                ASSERT_EQ(bits(h.GetValue(k)), bits(half(x[k])));
                ASSERT_EQ(bits(b.GetValue(k)), bits(bfloat16_t(x[k])));
                ASSERT_EQ(i.GetValue(k), static_cast<int32_t>(x[k]));   // truncation
                ASSERT_EQ(bits(f2.GetValue(k)), bits(x[k]));
                ASSERT_EQ(bits(h2.GetValue(k)), bits(half(x[k])));
                ASSERT_EQ(i2.GetValue(k), static_cast<int32_t>(x[k]));
              }
              ub_sync();
              kt::Convert(f, h, n);
              kt::Convert(f2, b, n);
              ub_sync();
              for (uint32_t k = 0; k < n; ++k) {
                ASSERT_EQ(f.GetValue(k), static_cast<float>(half(x[k])));
                ASSERT_EQ(f2.GetValue(k), static_cast<float>(bfloat16_t(x[k])));
              }
              ub_sync();
              kt::Convert(f, i, n);
              ub_sync();
              for (uint32_t k = 0; k < n; ++k) ASSERT_EQ(f.GetValue(k), static_cast<float>(static_cast<int32_t>(x[k])));
            }),
            "");
  EXPECT_EQ(kt::ScalarMax(2, 3.5f), 3.5f);
  EXPECT_EQ(kt::ScalarMin(2, 3.5f), 2.0f);
  EXPECT_EQ(kt::RoundUp256(1), 512u);
  EXPECT_EQ(kt::RoundUp(17, 16), 32u);
  EXPECT_TRUE(std::isinf(kt::kInf));
}

TEST(TilePrelude, SyncMte2ToVOrdersAResidentLoad) {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  Gm<float> g(100);
  for (int k = 0; k < 100; ++k) g.p[k] = static_cast<float>(k);
  auto t = buf.Get<float>();
  EXPECT_EQ(error_of([&] {
              kt::LoadFlat(t, g.tensor(), 100);
              kt::SyncMte2ToV();
              AscendC::Muls(t, t, 2.0f, 128);
              ub_sync();
              ASSERT_EQ(t.GetValue(99), 198.0f);
            }),
            "");
}

// A float cumulative sum over a long axis (4097, the cumsum_exclusive task's case, in row mode; 2048 in column mode,
// where [r, 8 lanes] tiles of more would not fit a test's UB) stays within a few ulp of the running sum computed in
// double (Kahan's compensation): a plain float32 running sum drifts by about 1e-4 there, the float32 tolerance,
// where the sum crosses zero.
TEST(TilePrelude, LongFloatCumSumIsCompensated) {
  auto check = [&](bool row_mode, uint32_t r) {
    SCOPED_TRACE(row_mode ? "row mode" : "column mode");
    const uint32_t lanes = row_mode ? 1 : 8;   // row mode: one row of r; column mode: [r, 8]
    Rng rng(11);
    std::vector<double> x(static_cast<size_t>(lanes) * r);
    for (double& v : x) v = static_cast<float>(rng.uni(-2, 2));
    Ub ub;
    const uint32_t npad = static_cast<uint32_t>(kt::RoundUp(r, 8));
    const uint32_t elems = row_mode ? npad : r * lanes;
    auto src = ub.alloc<float>(kt::RoundRep<float>(elems));
    auto dst = ub.alloc<float>(kt::RoundRep<float>(elems));
    auto work = ub.alloc<float>(kt::ScanWorkBytes<float>(row_mode, false, true, false, lanes, r, npad) / 4);
    auto at = [&](uint32_t u, uint32_t k) { return row_mode ? u * npad + k : k * lanes + u; };
    ub_sync();
    for (uint32_t i = 0; i < elems; ++i) src.SetValue(i, 0.0f);
    for (uint32_t u = 0; u < lanes; ++u)
      for (uint32_t k = 0; k < r; ++k) src.SetValue(at(u, k), static_cast<float>(x[u * r + k]));
    ub_sync();
    EXPECT_EQ(error_of([&] {
                kt::CumSum<false, true>(dst, src, work, row_mode, lanes, r, npad, lanes);   // exclusive
                ub_sync();
                for (uint32_t u = 0; u < lanes; ++u) {
                  double want = 0, worst = 0;
                  for (uint32_t k = 0; k < r; ++k) {
                    worst = std::max(worst, std::fabs(static_cast<double>(dst.GetValue(at(u, k))) - want));
                    want += x[u * r + k];
                  }
                  EXPECT_LT(worst, 8e-6) << "lane " << u;   // about 2 ulp of the largest sums; plain: 1e-5 to 1e-4
                }
              }),
              "");
  };
  check(true, 4097);
  check(false, 2048);
}
