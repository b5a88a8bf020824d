// Rows repeated over a dim (repeat_rows.h): which inputs of a row program broadcast over a run of size-1 leading dims
// (an attention mask [b, 1, q, k] shared by the heads of x [b, h, q, k]), their checks, tiling fields and host checks.
#include "tile/repeat_rows.h"

#include <fmt/format.h>

namespace kgen::tile {
namespace {
bool one(const Dim& d) { return d.name.empty() && !d.star && d.value == 1; }
int input_number(const Kernel& k, int tensor) {
  int n = 0;
  for (int i = 0; i < tensor; ++i) n += !k.tensors[i].output;
  return n;
}
}  // namespace

size_t row_dim_count(const Kernel& k) {
  if (k.row_sym < 0) return 1;
  const Sym& s = k.syms[k.row_sym];
  return static_cast<size_t>(s.first - s.last + 1);
}

namespace {
// The shape alone: named leading dims around one run of 1s, then named row dims.
bool repeat_shape(const Kernel& k, int tensor, size_t row_dims, RepeatRows* rr) {
  const TensorArg& t = k.tensors[tensor];
  if (!k.rows || t.output || t.dims.size() <= row_dims || k.extent_sym < 0) return false;
  const size_t lead = t.dims.size() - row_dims;
  RepeatRows r;
  for (size_t i = 0; i < lead; ++i) {
    const Dim& d = t.dims[i];
    if (d.star || (!one(d) && d.name.empty())) return false;
    if (one(d)) {
      if (r.ones_first < 0) r.ones_first = static_cast<int>(i);
      r.ones_last = static_cast<int>(i);
    } else (r.ones_first < 0 ? r.outer : r.inner).push_back(static_cast<int>(i));
  }
  for (size_t i = lead; i < t.dims.size(); ++i)
    if (t.dims[i].name.empty() || t.dims[i].star) return false;   // a column [*m, 1] or literal row dims
  if (r.ones_first < 0 || (r.outer.empty() && r.inner.empty())) return false;   // [1, n]: a row vector, w[:]
  if (rr) *rr = r;
  return true;
}
}  // namespace

bool repeat_rows(const Kernel& k, int tensor, size_t row_dims, RepeatRows* rr) {
  bool rows = false;   // after the checks: a tensor the loop reads as rows (load(mask[r, :])), not a vector (w[:])
  for (const Instr& in : k.body)
    if (in.op == Op::Load && in.tensor == tensor) rows = k.values[in.dst].form == Form::Rows;
  return rows && repeat_shape(k, tensor, row_dims, rr);
}

int check_repeat_rows(const Kernel& k, int tensor, const std::vector<std::string>& row_dims, Range at, Diags& d) {
  RepeatRows r;
  if (!repeat_shape(k, tensor, row_dims.empty() ? 1 : row_dims.size(), &r)) return 0;
  const TensorArg& t = k.tensors[tensor];
  const size_t lead = t.dims.size() - (row_dims.empty() ? 1 : row_dims.size());
  for (size_t i = 0; i < row_dims.size(); ++i)
    if (t.dims[lead + i].name != row_dims[i]) {
      d.error(at, "the rows of '" + t.name + "' are not the loop's rows",
              "end its dims with the row's dims: " + t.name + ": bool[b, 1, q, " + row_dims.back() + "]");
      return -1;
    }
  for (int i : r.inner)
    if (i < r.ones_last) {
      d.error(at, "'" + t.name + "' repeats over two runs of size-1 dims",
              "one run of 1s between its leading dims: " + t.name + ": bool[b, 1, q, n] (a mask shared by the heads)");
      return -1;
    }
  return 1;
}

std::string repeat_field(const Kernel& k, int tensor, const char* which) {
  return camel_lower(k.tensors[tensor].name) + which + "_";
}

void repeat_rows_fields(Kernel& k) {
  for (size_t ti = 0; ti < k.tensors.size(); ++ti) {
    RepeatRows r;
    if (!repeat_rows(k, static_cast<int>(ti), row_dim_count(k), &r)) continue;
    const TensorArg& t = k.tensors[ti];
    std::string inner = "1", named = "1";
    for (int i : r.inner) inner += " * d_" + camel_lower(t.dims[i].name);
    for (const auto* v : {&r.outer, &r.inner})
      for (int i : *v) named += " * d_" + camel_lower(t.dims[i].name);
    const std::string name = camel_lower(t.name);
    k.fields.push_back({name + "Inner", "uint64_t", "uint64_t(" + inner + ")",
                        t.name + "'s rows per repeat: the product of its dims after the size-1 ones"});
    k.fields.push_back({name + "Repeat", "uint64_t", "total / uint64_t(" + named + ")",
                        "times each row of " + t.name + " is repeated: the product of x's dims at its size-1 dims"});
  }
}

void repeat_rows_host_checks(const Kernel& k, const std::function<void(const std::string&)>& line) {
  if (!k.rows || k.extent_sym < 0) return;
  const int x = k.syms[k.extent_sym].tensor;
  for (size_t ti = 0; ti < k.tensors.size(); ++ti) {
    RepeatRows r;
    if (!repeat_rows(k, static_cast<int>(ti), row_dim_count(k), &r)) continue;
    const TensorArg& t = k.tensors[ti];
    line(fmt::format("  {{  // {}'s rows repeat over x's dims at its 1s (torch broadcasting): one rank, its other dims "
                     "x's", t.name));
    line(fmt::format("    const gert::Shape& xs = context->GetInputShape({})->GetOriginShape();", input_number(k, x)));
    line(fmt::format("    const gert::Shape& ms = context->GetInputShape({})->GetOriginShape();",
                     input_number(k, static_cast<int>(ti))));
    line("    if (xs.GetDimNum() != ms.GetDimNum()) return ge::GRAPH_FAILED;");
    for (const auto* v : {&r.outer, &r.inner})
      for (int i : *v) line(fmt::format("    if (ms.GetDim({0}) != xs.GetDim({0})) return ge::GRAPH_FAILED;   // {1}", i,
                                        t.dims[i].name));
    line("  }");
  }
}
}  // namespace kgen::tile
