// split_cores: the tiling struct. The extent (elements of a flat program, rows of a row program) is split into
// contiguous per-core ranges: a flat range is a multiple of 64 elements, so every core's transfers start on a
// 32-byte boundary for 1- to 4-byte types and only the last core has a tail; rows need no rounding (each row is its
// own transfer). Then the tile size, attrs and the dims the program uses as scalars. Tail tiles (the last of a core,
// shorter than tileUnits) are moved with DataCopyPad by the kt:: helpers; nothing past the tensor is touched. Axis
// programs split work items instead: rows of the axis, or (outer index, column chunk) pairs, sized by the host.
#include <fmt/format.h>

#include "tile/passes.h"
#include "tile/repeat_rows.h"

namespace kgen::tile {
namespace {
// Axis programs: the work items are rows of r (row mode) or (outer index, column chunk) pairs; the view's dims travel
// too, since the kernel computes its offsets from them.
void axis_fields(Kernel& k) {
  k.fields.push_back({"total", "uint64_t", "total", "work items in all: rows of the axis (row mode) or column chunks"});
  k.fields.push_back({"perCore", "uint64_t", "perCore", "work items per core (the last core may have fewer)"});
  k.fields.push_back({"tileUnits", "uint32_t", "tileUnits",
                      "positions per tile: rows (row mode) or columns, a multiple of 16 (column mode)"});
  k.fields.push_back({"depth", "uint32_t", "depth", "tiles per queue: the program's buffers=, or fewer when a tile would not fit"});
  k.fields.push_back({"chunks", "uint32_t", "chunks", "column chunks per outer index (column mode)"});
  if (k.chunks.axis)
    k.fields.push_back({"axisChunk", "uint32_t", "axisChunk",
                        "0: the whole axis per tile; else (column mode) rows of the axis per chunk, the reductions folded"});
  for (int s : {k.outer_sym, k.axis_sym, k.inner_sym}) {
    const std::string f = camel_lower(k.syms[s].name);
    k.fields.push_back({f, "uint64_t", "d_" + f, "dim " + k.syms[s].name});
  }
  // An input of one value per position repeating over the leading outer dims (cos: T[s, *inner]): the product of its
  // leading dims, the period of the outer index (its elements over inner; the host checked the dims).
  const std::string inner = "d_" + camel_lower(k.syms[k.inner_sym].name);
  int input = 0;
  for (const TensorArg& t : k.tensors) {
    if (t.output) continue;
    if (axis_shape(k, t) == AxisShape::Periodic)
      k.fields.push_back({camel_lower(t.name) + "Period", "uint64_t",
                          fmt::format("[&] {{ const gert::Shape& ps = context->GetInputShape({})->GetOriginShape(); "
                                      "uint64_t p = 1; for (size_t d = 0; d < ps.GetDimNum(); ++d) p *= ps.GetDim(d); "
                                      "return {} == 0 ? uint64_t(1) : p / {}; }}()",
                                      input, inner, inner),
                          "outer indices per repeat of " + t.name + " (its leading dims' product)"});
    ++input;
  }
}

// Flat and row programs: one contiguous range of the extent per core.
void extent_fields(Kernel& k) {
  const std::string unit = k.rows ? "rows" : "elements";
  k.fields.push_back({"total", "uint64_t", "total", "the loop's extent: " + unit + " in all"});
  if (k.rows)
    k.fields.push_back({"n", "uint32_t", k.row_sym >= 0 ? "d_" + camel_lower(k.syms[k.row_sym].name) : "1",
                        "length of a row (elements)"});
  k.fields.push_back({"perCore", "uint64_t", "perCore", unit + " per core (the last core may have fewer)"});
  k.fields.push_back({"tileUnits", "uint32_t", "tileUnits", unit + " per tile (the last tile of a core may have fewer)"});
  k.fields.push_back({"depth", "uint32_t", "depth", "tiles per queue: the program's buffers=, or fewer when a tile would not fit"});
  if (k.chunks.possible)
    k.fields.push_back({"chunk", "uint32_t", "chunk", "0: whole rows per tile; else rows longer than UB, in chunks of this many columns"});
  if (k.chunks.possible && k.chunks.split)
    k.fields.push_back({"parts", "uint32_t", "parts", "chunked rows: cores sharing each row, each a range of its columns"});
  repeat_rows_fields(k);   // inputs whose rows repeat over a dim (mask[b, 1, q, n]): sema_repeat_rows.cpp
  if (!k.group.host.empty())
    k.fields.push_back({"groupRows", "uint32_t", "groupRows", "rows per group of the grouped reductions (group=" + k.group.text + ")"});
}
}  // namespace

void split_cores(Kernel& k) {
  k.fields.clear();
  if (k.axis) axis_fields(k);
  else extent_fields(k);
  for (const AttrArg& a : k.attrs)
    // CANN tiling fields are integers or float: a bool attr travels as uint8_t.
    k.fields.push_back({camel_lower(a.name), a.type == DType::F32 ? "float" : a.type == DType::I32 ? "int64_t" : "uint8_t",
                        "attr_" + camel_lower(a.name), "attr " + a.name});
  // Scalars the kernel cannot compute (beta1 ** step): the host evaluates them once, in double.
  for (const HostScalar& h : k.host_scalars) {
    bool used = false;   // one hoisted inside a larger hoisted one is not read by the kernel
    for (const auto* list : {&k.prologue, &k.body, &k.epilogue})
      for (const Instr& in : *list)
        used |= in.scalar.cpp.find(h.field + "_") != std::string::npos ||
                in.scalar2.cpp.find(h.field + "_") != std::string::npos;
    if (used) k.fields.push_back({h.field, "float", h.host_expr, h.text + ", computed on the host"});
  }
  // Dims used as scalars in the computation (e.g. `/ n`), other than the ones above.
  for (const Sym& s : k.syms) {
    const std::string f = camel_lower(s.name);
    bool used = false;
    for (const auto* list : {&k.prologue, &k.body, &k.epilogue})
      for (const Instr& in : *list)
        used |= in.scalar.cpp.find(f + "_)") != std::string::npos || in.scalar2.cpp.find(f + "_)") != std::string::npos;
    bool have = false;
    for (const auto& fd : k.fields) have |= fd.name == f;
    if (used && !have) k.fields.push_back({f, "uint64_t", "d_" + f, "dim " + s.name});
  }
}
}  // namespace kgen::tile
