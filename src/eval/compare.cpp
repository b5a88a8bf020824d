// Output comparison (see compare.h).
#include "eval/compare.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/core.h>
#include <vector>

namespace kgen::eval {
namespace {
double half_to_double(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 0) v = std::ldexp(m, -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = std::ldexp(m + 1024, e - 25);
  return s ? -v : v;
}
double bf16_to_double(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::vector<double> to_doubles(const op::NpyArray& a, bool bf16_bits) {
  size_t n = a.elements();
  std::vector<double> v(n);
  const uint8_t* p = a.data.data();
  for (size_t i = 0; i < n; ++i) {
    switch (a.dtype) {
      case 0: { float f; std::memcpy(&f, p + 4 * i, 4); v[i] = f; break; }
      case 1: { uint16_t h; std::memcpy(&h, p + 2 * i, 2); v[i] = half_to_double(h); break; }
      case 2: v[i] = static_cast<int8_t>(p[i]); break;
      case 3: { int32_t x; std::memcpy(&x, p + 4 * i, 4); v[i] = x; break; }
      case 4: v[i] = p[i]; break;
      case 6: { int16_t x; std::memcpy(&x, p + 2 * i, 2); v[i] = x; break; }
      case 7:
      case op::kDtBf16: {
        uint16_t x;
        std::memcpy(&x, p + 2 * i, 2);
        v[i] = (bf16_bits || a.dtype == op::kDtBf16) ? bf16_to_double(x) : x;
        break;
      }
      case 8: { uint32_t x; std::memcpy(&x, p + 4 * i, 4); v[i] = x; break; }
      case 9: { int64_t x; std::memcpy(&x, p + 8 * i, 8); v[i] = static_cast<double>(x); break; }
      case 10: { uint64_t x; std::memcpy(&x, p + 8 * i, 8); v[i] = static_cast<double>(x); break; }
      case 11: std::memcpy(&v[i], p + 8 * i, 8); break;
      case 12: v[i] = p[i] ? 1 : 0; break;
      default: v[i] = NAN;
    }
  }
  return v;
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}
std::string index_str(size_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t n = std::max<int64_t>(shape[d], 1);
    idx[d] = static_cast<int64_t>(flat % static_cast<size_t>(n));
    flat /= static_cast<size_t>(n);
  }
  return shape_str(idx);
}
}  // namespace

Compared compare_arrays(size_t k, const std::string& name, const op::NpyArray& want, const std::string& want_dtype,
                        const op::NpyArray& got, const Tolerance& t, bool dtype_must_match) {
  Compared c;
  const bool bf = want_dtype == "bfloat16";
  std::string gdt = op::npy_dtype_name(got.dtype);
  if (bf && got.dtype == 7) gdt = "bfloat16";   // bf16 travels as uint16 raw bits
  if (dtype_must_match && gdt != want_dtype) {
    c.mismatch = fmt::format("output {} ('{}') is {}, the reference is {}", k, name, gdt, want_dtype);
    return c;
  }
  if (got.shape != want.shape) {
    c.mismatch = fmt::format("output {} ('{}') has shape {}, the reference {}", k, name, shape_str(got.shape),
                             shape_str(want.shape));
    return c;
  }
  auto w = to_doubles(want, bf), g = to_doubles(got, bf && got.dtype == 7);
  size_t first = SIZE_MAX;
  for (size_t i = 0; i < w.size(); ++i) {
    double a = w[i], b = g[i];
    bool ok;
    if (std::isnan(a) || std::isnan(b)) ok = std::isnan(a) && std::isnan(b);
    else if (std::isinf(a) || std::isinf(b)) ok = a == b;
    else {
      double d = std::fabs(b - a);
      c.max_abs = std::max(c.max_abs, d);
      if (std::fabs(a) > 0) c.max_rel = std::max(c.max_rel, d / std::fabs(a));
      const double allowed = t.atol + t.rtol * std::fabs(a);
      ok = d <= allowed;
      c.max_tol = std::max(c.max_tol, allowed > 0 ? d / allowed : d > 0 ? INFINITY : 0.0);
    }
    if (!ok) {
      if (first == SIZE_MAX) first = i;
      ++c.bad;
    }
  }
  if (c.bad)
    c.mismatch = fmt::format("output {} ('{}') index {}: got {:.9g}, want {:.9g} ({} of {} elements mismatch, "
                             "atol {:g}, rtol {:g})",
                             k, name, index_str(first, want.shape), g[first], w[first], c.bad, w.size(), t.atol, t.rtol);
  return c;
}
}  // namespace kgen::eval
