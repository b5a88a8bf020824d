// Cumulative ops (scans) along the axis of an axis program: cumsum/cumprod/cummax/cummin/logcumsumexp(v, axis=0,
// reverse=, exclusive=) on a slab and the store of a whole slab, y: T[*outer, r, *inner] indexed y[:, c]. The IR and
// emitted code of the compiler, each misuse's diagnostic, and the kernel helpers (kt::CumSum, ...) on one emulated
// core against a plain C++ scan in both layouts (row mode: transposed by Gather; column mode: down the rows).
// tests/tile_test.sh runs the expert programs kernels/math/cumsum*.tile, cumprod, logcumsumexp, masked_cumsum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tile_test_util.h"
#include "kernel_operator.h"
#include "sim/testing.h"
#include "tikicpulib.h"
#include "tile/compile.h"
#include "tile/prelude/kgen_tile.h"

using namespace kgen::tile;
using namespace kgen::tile::test_util;
using kgen::sim::error_of;

namespace {
// A program whose loop body is `line` (v is the f32 slab of x).
std::string with(const std::string& line, const std::string& types = "f32, f16") {
  return "kernel scan(x: T[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: T[*outer, r, *inner]):\n"
         "    dtype T in (" + types + ")\n"
         "    for c in tiles(outer, inner):\n"
         "        v = load(x[:, c], f32)\n"
         "        " + line + "\n";
}
}  // namespace

TEST(TileScan, LowersToOneScanAndStoresTheWholeSlab) {
  Compiled c = compile(with("store(y[:, c], cumsum(v * 2, axis=0, reverse=true, exclusive=true))"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.check_ir, "output y: T[outer, r, inner]") || contains(c.check_ir, "output y: T[*outer, r, *inner]"))
      << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "slab f32 = scan.sum %")) << c.check_ir;
  EXPECT_TRUE(contains(c.check_ir, "reverse exclusive")) << c.check_ir;
  const std::string& kern = c.r.files.at("op_kernel/scan_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::CumSum<true, true>(")) << kern;
  EXPECT_TRUE(contains(kern, "scanWork0_.Get<float>(), rowMode_, units, r_, npad_, tileUnits_);")) << kern;
  EXPECT_TRUE(contains(kern, "kt::ScanWorkBytes<float>(rowMode_, false, true, false, tileUnits_, r_, npad_)")) << kern;
  EXPECT_TRUE(contains(kern, "if (rowMode_) kt::StoreRows(yGm_[slabOff], yOut, units, r_, npad_);")) << kern;
  EXPECT_TRUE(contains(kern, "else kt::StoreCols(yGm_[slabOff], yOut, r_, units, inner_, tileUnits_);")) << kern;
  // a scan needs the whole axis at once: it is never streamed in chunks (the slab tile is the axis, r_)
  EXPECT_FALSE(contains(kern, "axisChunk_")) << kern;
  EXPECT_TRUE(contains(kern, "CopyOut(slabOff, posOff, units);")) << kern;
  const std::string& host = c.r.files.at("op_host/scan_custom.cpp");
  EXPECT_TRUE(contains(host, "out->AppendDim(xs->GetDim(d));   // the whole axis")) << host;
  EXPECT_TRUE(contains(host, "scanWork0")) << host;   // its UB bytes are in the tile size
}

TEST(TileScan, EachFunctionHasItsHelper) {
  const std::pair<const char*, const char*> fns[] = {{"cumsum", "kt::CumSum<false, false>"},
                                                     {"cumprod", "kt::CumProd<false, false>"},
                                                     {"cummax", "kt::CumMax<false, false>"},
                                                     {"cummin", "kt::CumMin<false, false>"},
                                                     {"logcumsumexp", "kt::LogCumSumExp<false, false>"}};
  for (auto& [fn, api] : fns) {
    Compiled c = compile(with(std::string("store(y[:, c], ") + fn + "(v, axis=0))"));
    ASSERT_TRUE(c.ok) << fn << "\n" << c.diags;
    EXPECT_TRUE(contains(c.r.files.at("op_kernel/scan_custom.cpp"), api)) << fn;
  }
  // a log-sum-exp's scratch holds its running maxima too
  Compiled l = compile(with("store(y[:, c], logcumsumexp(v, axis=0))"));
  EXPECT_TRUE(contains(l.r.files.at("op_kernel/scan_custom.cpp"), "kt::ScanWorkBytes<float>(rowMode_, true, false, false,"));
}

TEST(TileScan, Int32ScansExactlyWithoutConversion) {
  const std::string src = "kernel s(x: T[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: T[*outer, r, *inner]):\n"
                          "    dtype T in (f32, i32)\n"
                          "    for c in tiles(outer, inner):\n"
                          "        store(y[:, c], cummax(load(x[:, c]), axis=0))\n";
  Compiled c = compile(src);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_TRUE(contains(c.r.files.at("op_kernel/s_custom.cpp"), "kt::CumMax<false, false>")) << c.diags;
}

TEST(TileScan, Diagnostics) {
  expect_error(with("store(y[:, c], cumsum(v, axis=-1))"), "5:39",
               "cumsum() runs along the axis r of a slab (axis=0) or over its positions (axis=1)",
               "cumsum(v, axis=0, reverse=false, exclusive=false)");
  expect_error(with("store(y[:, c], cumsum(v))"), "5:24", "cumsum() needs the axis it runs along", "axis=0");
  expect_error(with("store(y[:, c], cumsum(v, axis=0, reverse=2))"), "5:50", "reverse= is true or false", "");
  expect_error(with("store(y[:, c], cumprod(v, axis=0, flip=true))"), "5:43", "cumprod() has no argument 'flip'", "");
  expect_error(with("store(y[:, c], cumsum(v, v, axis=0))"), "5:24", "cumsum() takes one slab, got 2 arguments", "");
  expect_error(with("store(y[:, c], logcumsumexp(v, axis=0, exclusive=true))"), "5:24",
               "an exclusive logcumsumexp() starts at log(0) = -inf", "inclusive");
  expect_error(with("store(y[:, c], cumsum(sum(v, axis=0), axis=0))"), "5:31",
               "cumsum() runs along the axis r of a slab [r, cols]; this is a flat tile", "load(x[:, c])");
  expect_error(with("store(y[:, c], cumsum(v, axis=0) > 0)"), "5:24", "storing a comparison result", "");
  // bf16 has no vector arithmetic: computed in float32
  expect_error("kernel s(x: T[*outer, r @ dim, *inner], dim: i32 = 1) -> (y: T[*outer, r, *inner]):\n"
               "    dtype T in (f32, bf16)\n"
               "    for c in tiles(outer, inner):\n"
               "        store(y[:, c], cumsum(load(x[:, c]), axis=0))\n",
               "4:24", "cumsum() has no bf16 form on the vector unit", "load(x[...], f32)");
  // a whole slab goes into a tensor shaped like the view, indexed y[:, c]
  expect_error(with("store(y[c], cumsum(v, axis=0))"), "5:15", "takes one value per position", "load(y[:, c])");
  // outside axis programs
  expect_error("kernel s(x: f32[*m, n]) -> (y: f32[*m, n]):\n"
               "    for t in tiles(m):\n"
               "        store(y[t, :], cumsum(load(x[t, :]), axis=0))\n",
               "3:31", "cumsum() runs along the axis r of a slab", "x: T[*outer, r @ dim, *inner]");
  expect_error(with("store(y[:, c], cumsom(v, axis=0))"), "5:24", "unknown function 'cumsom'", "did you mean 'cumsum'?");
}

// ------------------------------------------------------------------------------------------------ kernel helpers
namespace {
constexpr uint32_t kUbBytes = 184 * 1024;
struct Ub {
  kgen::sim::TestCore tc;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  uint32_t next = 0;
  Ub() { pipe.InitBuffer(buf, kUbBytes); }
  template <class T> AscendC::LocalTensor<T> alloc(uint32_t elems) {
    uint32_t bytes = (elems * sizeof(T) + 255) / 256 * 256;
    EXPECT_LE(next + bytes, kUbBytes) << "test tile does not fit the UB";
    AscendC::LocalTensor<T> t = buf.GetWithOffset<T>(elems, next);
    next += bytes;
    return t;
  }
};

enum Fn { Sum, Prod, Max, Min, Lse };
double combine(Fn f, double a, double b) {
  switch (f) {
    case Sum: return a + b;
    case Prod: return a * b;
    case Max: return std::max(a, b);
    case Min: return std::min(a, b);
    case Lse: return std::max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
  }
  return 0;
}
double identity(Fn f) { return f == Sum ? 0 : f == Prod ? 1 : f == Max ? -INFINITY : INFINITY; }

// The scan of `len` values x(i), along i, as the helpers define it.
std::vector<double> reference(Fn f, bool rev, bool excl, uint32_t len, const std::function<double(uint32_t)>& x) {
  std::vector<double> y(len);
  double acc = identity(f);
  bool first = true;
  for (uint32_t k = 0; k < len; ++k) {
    const uint32_t i = rev ? len - 1 - k : k;
    if (excl) {
      y[i] = acc;
      acc = combine(f, acc, x(i));
    } else {
      acc = first && f == Lse ? x(i) : combine(f, acc, x(i));
      y[i] = acc;
    }
    first = false;
  }
  return y;
}

template <Fn F, bool Rev, bool Excl, class T>
void call(const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s, const AscendC::LocalTensor<T>& w, bool row,
          uint32_t units, uint32_t r, uint32_t npad, uint32_t cols) {
  if constexpr (F == Sum) kt::CumSum<Rev, Excl>(d, s, w, row, units, r, npad, cols);
  else if constexpr (F == Prod) kt::CumProd<Rev, Excl>(d, s, w, row, units, r, npad, cols);
  else if constexpr (F == Max) kt::CumMax<Rev, Excl>(d, s, w, row, units, r, npad, cols);
  else if constexpr (F == Min) kt::CumMin<Rev, Excl>(d, s, w, row, units, r, npad, cols);
  else kt::LogCumSumExp<Rev, false>(d, s, w, row, units, r, npad, cols);
}

// One slab of `units` positions along an axis of r, in row mode ([units, npad]) or column mode ([r, cols]); every
// element of dst up to the 256-byte boundary must be defined (GetValue of an unwritten element fails).
template <Fn F, bool Rev, bool Excl, class T> void check_scan(bool row, uint32_t units, uint32_t r) {
  SCOPED_TRACE(std::string(row ? "row" : "col") + " fn=" + std::to_string(F) + " rev=" + std::to_string(Rev) +
               " excl=" + std::to_string(Excl) + " units=" + std::to_string(units) + " r=" + std::to_string(r) +
               " int=" + std::to_string(std::is_same_v<T, int32_t>));
  Ub ub;
  const uint32_t npad = static_cast<uint32_t>(kt::RoundUp(r, 16)), cols = static_cast<uint32_t>(kt::RoundUp(units, 16));
  const uint32_t elems = row ? units * npad : r * cols, cap = kt::RoundRep<T>(elems);
  auto src = ub.alloc<T>(cap), dst = ub.alloc<T>(cap);
  auto work = ub.alloc<T>(kt::ScanWorkBytes<T>(row, F == Lse, F == Sum, false, row ? units : cols, r, npad) / sizeof(T) + 64);
  auto at = [&](uint32_t u, uint32_t i) { return row ? u * npad + i : i * cols + u; };
  auto val = [&](uint32_t u, uint32_t i) -> double {
    if constexpr (std::is_same_v<T, int32_t>) return static_cast<double>((u * 7 + i * 13) % 41) - 20;
    if (F == Prod) return 0.9 + 0.2 * static_cast<double>((u * 7 + i * 13) % 11) / 10;
    return static_cast<double>((u * 7 + i * 13) % 23) / 4 - 3;
  };
  EXPECT_EQ(error_of([&] {
              for (uint32_t i = 0; i < cap; ++i) src.SetValue(i, static_cast<T>(0));
              for (uint32_t u = 0; u < units; ++u)
                for (uint32_t i = 0; i < r; ++i) src.SetValue(at(u, i), static_cast<T>(val(u, i)));
              AscendC::PipeBarrier<PIPE_ALL>();
              call<F, Rev, Excl>(dst, src, work, row, units, r, npad, cols);
              AscendC::PipeBarrier<PIPE_ALL>();
              for (uint32_t u = 0; u < units; ++u) {
                std::vector<double> want = reference(F, Rev, Excl, r, [&](uint32_t i) { return val(u, i); });
                for (uint32_t i = 0; i < r; ++i) {
                  const double got = static_cast<double>(dst.GetValue(at(u, i)));
                  if (got != want[i])   // (equal infinities: an exclusive maximum's first value)
                    ASSERT_NEAR(got, want[i], 1e-4 * (1 + std::fabs(want[i])) * (std::is_same_v<T, int32_t> ? 0 : 1))
                      << "u=" << u << " i=" << i;
                }
              }
              for (uint32_t i = 0; i < cap; ++i) (void)dst.GetValue(i);   // all defined
            }),
            "");
}

// The same slab with resets: reset(u, i) restarts position u's scan at element i (y = x there). With `inf`, some
// float values are +-inf: the restart must drop them exactly (no inf * 0 = NaN).
template <Fn F, bool Rev, class T> void check_scan_reset(bool row, uint32_t units, uint32_t r, bool inf) {
  SCOPED_TRACE(std::string(row ? "row" : "col") + " reset fn=" + std::to_string(F) + " rev=" + std::to_string(Rev) +
               " units=" + std::to_string(units) + " r=" + std::to_string(r) + " inf=" + std::to_string(inf));
  Ub ub;
  const uint32_t npad = static_cast<uint32_t>(kt::RoundUp(r, 16)), cols = static_cast<uint32_t>(kt::RoundUp(units, 16));
  const uint32_t elems = row ? units * npad : r * cols, cap = kt::RoundRep<T>(elems);
  auto src = ub.alloc<T>(cap), dst = ub.alloc<T>(cap), rst = ub.alloc<T>(cap);
  auto work = ub.alloc<T>(kt::ScanWorkBytes<T>(row, false, F == Sum, true, row ? units : cols, r, npad) / sizeof(T));
  auto at = [&](uint32_t u, uint32_t i) { return row ? u * npad + i : i * cols + u; };
  auto reset = [&](uint32_t u, uint32_t i) { return (u * 5 + i * 3) % 7 == 0 || (i == r - 1 && u % 2); };
  auto val = [&](uint32_t u, uint32_t i) -> double {
    // (one sign for sums and products: inf - inf = NaN, which a Max/Min clamp may carry past a reset)
    if (inf && (u * 3 + i * 5) % 13 == 0) return (u + i) % 2 || F == Sum || F == Prod ? INFINITY : -INFINITY;
    if constexpr (std::is_same_v<T, int32_t>) return static_cast<double>((u * 7 + i * 13) % 41) - 20;
    if (F == Prod) return 0.9 + 0.2 * static_cast<double>((u * 7 + i * 13) % 11) / 10;
    return static_cast<double>((u * 7 + i * 13) % 23) / 4 - 3;
  };
  EXPECT_EQ(error_of([&] {
              for (uint32_t i = 0; i < cap; ++i) {
                src.SetValue(i, static_cast<T>(0));
                rst.SetValue(i, static_cast<T>(0));
              }
              for (uint32_t u = 0; u < units; ++u)
                for (uint32_t i = 0; i < r; ++i) {
                  src.SetValue(at(u, i), static_cast<T>(val(u, i)));
                  rst.SetValue(at(u, i), static_cast<T>(reset(u, i) ? 1 : 0));
                }
              AscendC::PipeBarrier<PIPE_ALL>();
              if constexpr (F == Sum) kt::CumSumReset<Rev>(dst, src, rst, work, row, units, r, npad, cols);
              else if constexpr (F == Prod) kt::CumProdReset<Rev>(dst, src, rst, work, row, units, r, npad, cols);
              else if constexpr (F == Max) kt::CumMaxReset<Rev>(dst, src, rst, work, row, units, r, npad, cols);
              else kt::CumMinReset<Rev>(dst, src, rst, work, row, units, r, npad, cols);
              AscendC::PipeBarrier<PIPE_ALL>();
              for (uint32_t u = 0; u < units; ++u) {
                double acc = identity(F);
                for (uint32_t k = 0; k < r; ++k) {
                  const uint32_t i = Rev ? r - 1 - k : k;
                  acc = reset(u, i) ? val(u, i) : combine(F, acc, val(u, i));
                  const double got = static_cast<double>(dst.GetValue(at(u, i)));
                  if (std::isnan(acc)) {
                    ASSERT_TRUE(std::isnan(got)) << "u=" << u << " i=" << i << " got " << got;
                  } else if (got != acc) {
                    ASSERT_NEAR(got, acc, 1e-4 * (1 + std::fabs(acc)) * (std::is_same_v<T, int32_t> ? 0 : 1))
                        << "u=" << u << " i=" << i;
                  }
                }
              }
              for (uint32_t i = 0; i < cap; ++i) (void)dst.GetValue(i);   // all defined
            }),
            "");
}

template <Fn F, bool Rev, class T> void both_layouts_reset(bool inf = false) {
  const uint32_t shapes[][2] = {{1, 1}, {1, 5}, {3, 33}, {9, 16}, {2, 1000}, {40, 7}};
  for (auto& s : shapes) check_scan_reset<F, Rev, T>(true, s[0], s[1], inf);
  for (auto& s : shapes) check_scan_reset<F, Rev, T>(false, s[0], s[1] > 300 ? 300 : s[1], inf);
}

template <Fn F, bool Rev, bool Excl, class T> void both_layouts() {
  const uint32_t shapes[][2] = {{1, 1}, {1, 5}, {3, 33}, {9, 16}, {2, 1000}, {1, 1500}, {40, 7}};
  for (auto& s : shapes) check_scan<F, Rev, Excl, T>(true, s[0], s[1]);
  for (auto& s : shapes) check_scan<F, Rev, Excl, T>(false, s[0], s[1] > 300 ? 300 : s[1]);
}
}  // namespace

TEST(TileScan, HelperSumEveryDirection) {
  both_layouts<Sum, false, false, float>();
  both_layouts<Sum, true, false, float>();
  both_layouts<Sum, false, true, float>();
  both_layouts<Sum, true, true, float>();
}
TEST(TileScan, HelperInt32Exact) {
  both_layouts<Sum, false, false, int32_t>();
  both_layouts<Sum, true, true, int32_t>();
  both_layouts<Max, true, false, int32_t>();
  both_layouts<Min, false, false, int32_t>();
}
TEST(TileScan, HelperProdMaxMin) {
  both_layouts<Prod, false, false, float>();
  both_layouts<Prod, true, true, float>();
  both_layouts<Max, false, false, float>();
  both_layouts<Min, true, false, float>();
  both_layouts<Max, false, true, float>();
}
TEST(TileScan, HelperLogSumExpIsStable) {
  both_layouts<Lse, false, false, float>();
  both_layouts<Lse, true, false, float>();
}

TEST(TileScan, HelperResetsRestartTheScan) {
  both_layouts_reset<Max, false, float>();
  both_layouts_reset<Max, true, float>(true);
  both_layouts_reset<Min, false, float>(true);
  both_layouts_reset<Sum, false, float>(true);
  both_layouts_reset<Sum, true, float>();
  both_layouts_reset<Prod, false, float>();
  both_layouts_reset<Max, false, int32_t>();
  both_layouts_reset<Sum, true, int32_t>();
}

namespace {
// A program with a bool view m beside x, whose loop body is `line`.
std::string with_mask(const std::string& line) {
  return "kernel scan(x: T[*outer, r @ dim, *inner], m: bool[*outer, r @ dim, *inner], dim: i32 = 1) -> "
         "(y: T[*outer, r, *inner]):\n"
         "    dtype T in (f32, f16)\n"
         "    for c in tiles(outer, inner):\n"
         "        v = load(x[:, c], f32)\n"
         "        " + line + "\n";
}
}  // namespace

TEST(TileScan, ResetsLowerToTheResetHelpers) {
  Compiled c = compile(with_mask("store(y[:, c], cummax(v, axis=0, reset=load(m[:, c])))"));
  ASSERT_TRUE(c.ok) << c.diags;
  const std::string& kern = c.r.files.at("op_kernel/scan_custom.cpp");
  EXPECT_TRUE(contains(kern, "kt::CumMaxReset<false>(")) << kern;
  EXPECT_TRUE(contains(kern, "kt::ScanWorkBytes<float>(rowMode_, false, false, true, tileUnits_, r_, npad_)")) << kern;
  EXPECT_TRUE(contains(kern, "kt::WhereSS(")) << kern;   // the mask as 1 / 0 in the scanned type
  // the host sizes the tiles with the resets' scratch
  EXPECT_TRUE(contains(c.r.files.at("op_host/scan_custom.cpp"), "npadV / 8.0")) << c.r.files.at("op_host/scan_custom.cpp");
  // a comparison of slabs is a reset too, reversed runs are allowed
  Compiled d = compile(with_mask("store(y[:, c], cumsum(v, axis=0, reverse=true, reset=v > 1.0))"));
  ASSERT_TRUE(d.ok) << d.diags;
  EXPECT_TRUE(contains(d.r.files.at("op_kernel/scan_custom.cpp"), "kt::CumSumReset<true>(")) << d.diags;
}

TEST(TileScan, ResetDiagnostics) {
  expect_error(with_mask("store(y[:, c], logcumsumexp(v, axis=0, reset=load(m[:, c])))"), "5:54",
               "logcumsumexp() has no reset=", "");
  expect_error(with_mask("store(y[:, c], cumsum(v, axis=0, exclusive=true, reset=load(m[:, c])))"), "5:64",
               "cumsum() with reset= is inclusive only", "drop exclusive=true");
  expect_error(with_mask("store(y[:, c], cummax(v, axis=0, reset=v))"), "5:48",
               "reset= of cummax() is a number slab tile", "reset=load(starts[:, c])");
  expect_error(with_mask("store(y[:, c], cummax(v, axis=0, reset=sum(v, axis=0) > 0))"), "5:48",
               "reset= of cummax() is a flat mask", "a slab mask");
  expect_error(with_mask("store(y[:, c], cummax(v, axis=0, rest=load(m[:, c])))"), "5:42",
               "cummax() has no argument 'rest'", "reset=m restarts the scan");
}
