// split_casts: a conversion the vector unit has no single Cast for (f32 -> i8, i32 -> u8, f16 <-> bf16, ...) becomes
// a chain of casts through the types it has one for, each an ordinary value that plan_buffers places.
//
// The Cast pairs are the Atlas A2 table of the Cast doc (src/sim/cast.cpp, docs/sources.md S61); kt::Convert adds the
// same-type copy and reads bool as u8. A float -> integer chain truncates at every step (f32 -> f16 with CAST_TRUNC,
// then f16 -> i8 with CAST_TRUNC), so it truncates toward zero once, as PyTorch's .to(torch.int8) does; narrowing to
// f16 first with rounding could round 3.9999 up to 4 before the truncation. Values out of the target's range
// saturate (the chip's rule), where PyTorch's result is undefined.
#include <algorithm>
#include <optional>

#include "tile/passes.h"

namespace kgen::tile {
namespace {
using D = DType;

bool is_int(D t) { return t == D::I32 || t == D::I8 || t == D::U8 || t == D::I64; }
bool is_byte(D t) { return t == D::I8 || t == D::U8 || t == D::Bool; }

// One kt::Convert (a Cast instruction, or a copy when the types are equal).
bool one_step(D s, D d) {
  if (s == D::Bool) s = D::U8;   // kt::Convert reads bool bytes as u8
  if (s == d) return true;
  switch (s) {
    case D::F16: return d == D::F32 || d == D::I32 || d == D::I8 || d == D::U8;
    case D::F32: return d == D::F16 || d == D::BF16 || d == D::I32 || d == D::I64;
    case D::BF16: return d == D::F32 || d == D::I32;
    case D::I8:
    case D::U8: return d == D::F16;
    case D::I32: return d == D::F32 || d == D::F16 || d == D::I64;
    case D::I64: return d == D::I32 || d == D::F32;
    default: return false;
  }
}

// The type a conversion of one column goes through first, when it takes more than one step.
std::optional<D> next_type(D s, D d) {
  if (one_step(s, d) || d == D::Bool) return std::nullopt;   // to bool: a comparison's business, not a cast's
  if (d == D::I8 || d == D::U8) return s == D::BF16 || s == D::I64 ? D::F32 : D::F16;
  if (is_byte(s)) return D::F16;
  return D::F32;   // f16 <-> bf16, i32 -> bf16, f16 / bf16 -> i64, i64 -> f16 / bf16
}

// The (from, to) dtype pairs of the kernel's columns: a dtype variable takes each of its types, a variable mapped
// from another (`dtype U = T(i32 -> i64)`) goes with it column by column.
std::vector<std::pair<D, D>> column_pairs(const Kernel& k, TypeOf from, TypeOf to) {
  auto types = [&](TypeOf t) { return t.var >= 0 ? k.dtype_vars[t.var].types : std::vector<D>{t.fixed}; };
  const std::vector<D> a = types(from), b = types(to);
  auto root = [&](int v) { return v >= 0 && k.dtype_vars[v].base >= 0 ? k.dtype_vars[v].base : v; };
  std::vector<std::pair<D, D>> pairs;
  if (from.var >= 0 && to.var >= 0 && root(from.var) == root(to.var) && a.size() == b.size()) {
    for (size_t i = 0; i < a.size(); ++i) pairs.push_back({a[i], b[i]});
    return pairs;
  }
  for (D x : a)
    for (D y : b) pairs.push_back({x, y});
  return pairs;
}

// The intermediate type of a conversion for every column at once, or nothing when each column takes one step. A
// column that converts in one step may detour through the intermediate only where that loses nothing (a widening,
// or the truncating f32 -> f16 step toward an integer).
std::optional<D> hop(const Kernel& k, TypeOf from, TypeOf to) {
  const auto pairs = column_pairs(k, from, to);
  std::vector<D> candidates;
  for (auto [s, d] : pairs)
    if (auto m = next_type(s, d)) candidates.push_back(*m);
  if (candidates.empty()) return std::nullopt;
  candidates.push_back(D::F32);
  for (D m : candidates) {
    bool ok = false;   // some column must move (a cast to the type a value has already is no step)
    for (auto [s, d] : pairs) ok |= s != m;
    for (auto [s, d] : pairs) {
      if (s == m || d == m) continue;
      const bool lossless = dtype_size(m) >= dtype_size(s == D::Bool ? D::U8 : s) || (is_int(d) && m == D::F16);
      ok &= one_step(s, m) && lossless && (one_step(m, d) || next_type(m, d).has_value());
    }
    if (ok) return m;
  }
  return std::nullopt;   // no common chain: left as written, the emulator names the pair
}

bool integral(const Kernel& k, TypeOf t) {
  if (t.var < 0) return is_int(t.fixed);
  const auto& ts = k.dtype_vars[t.var].types;
  return std::all_of(ts.begin(), ts.end(), is_int);
}

// A new value of type m after `src`: a Cast instruction, inserted before position `at` of the body.
int insert_cast(Kernel& k, int at, int src, D m, bool trunc, const Instr& like) {
  Value v = k.values[src];
  v.id = static_cast<int>(k.values.size());
  v.type = {-1, m};
  v.name.clear();
  v.mask = false;
  k.values.push_back(v);
  Instr c;
  c.op = Op::Cast;
  c.fn = "cast";
  c.dst = v.id;
  c.srcs = {src};
  c.trunc = trunc;
  c.range = like.range;
  c.text = like.text;
  k.body.insert(k.body.begin() + at, c);
  if (k.phase2 >= at) ++k.phase2;
  return v.id;
}
}  // namespace

void split_casts(Kernel& k) {
  int steps = 0;   // casts inserted before the instruction at i (a chain is at most three)
  for (int i = 0; i < static_cast<int>(k.body.size()); ++i) {
    Instr in = k.body[i];
    if (in.op != Op::Cast && in.op != Op::Store) continue;
    const int src = in.srcs[0];
    if (k.values[src].mask || k.values[src].accumulator) continue;
    const TypeOf from = k.values[src].type;
    const TypeOf to = in.op == Op::Cast ? k.values[in.dst].type : k.tensors[in.tensor].type;
    const std::optional<D> m = hop(k, from, to);
    if (!m || steps == 3) {
      steps = 0;
      continue;
    }
    ++steps;
    // A step toward an integer target truncates where it narrows a float (kt::ConvertTrunc); every other step is
    // exact or rounds to nearest even.
    const bool trunc = integral(k, to) && !is_int(*m);
    const int mid = insert_cast(k, i, src, *m, trunc, in);
    k.body[i + 1].srcs[0] = mid;   // the loop's ++i looks at it again: from m it may take another step
  }
}
}  // namespace kgen::tile
