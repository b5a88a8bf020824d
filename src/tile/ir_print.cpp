// print_ir: the tile IR as text, as far as the passes have filled it in (ir.h).
#include <fmt/format.h>

#include "tile/ir.h"

namespace kgen::tile {
namespace {
std::string type_str(const Kernel& k, TypeOf t) {
  return t.var >= 0 && t.var < static_cast<int>(k.dtype_vars.size()) ? k.dtype_vars[t.var].name : dtype_name(t.fixed);
}
std::string dims_str(const std::vector<Dim>& ds) {
  std::string s;
  for (const Dim& d : ds) {
    if (!s.empty()) s += ", ";
    s += d.star ? "*" + d.name : d.name.empty() ? std::to_string(d.value) : d.name;
    if (!d.axis_attr.empty()) s += " @ " + d.axis_attr;
  }
  return "[" + s + "]";
}
std::string value_str(const Kernel& k, int id) {
  if (id < 0) return "_";
  const Value& v = k.values[id];
  return fmt::format("%{}{}", id, v.name.empty() ? "" : "(" + v.name + ")");
}
const char* kind_name(BufKind b) {
  switch (b) {
    case BufKind::InQueue: return "in-queue";
    case BufKind::OutQueue: return "out-queue";
    case BufKind::Temp: return "temp";
    case BufKind::Resident: return "resident";
    case BufKind::MathTmp: return "math-scratch";
    case BufKind::Work: return "work";
    case BufKind::RowWork: return "row-work";
    case BufKind::Accumulator: return "accumulator";
    case BufKind::Partials: return "partials";
    case BufKind::CombineWork: return "combine-work";
    case BufKind::Epilogue: return "epilogue";
    case BufKind::AxisWork: return "axis-work";
    case BufKind::ScanWork: return "scan-work";
    case BufKind::AcrossWork: return "across-work";
  }
  return "?";
}
void instr(std::string& o, const Kernel& k, const Instr& in) {
  o += "    ";
  if (in.dst >= 0) {
    const Value& v = k.values[in.dst];
    o += fmt::format("{}: {} {}{} = ", value_str(k, in.dst), form_name(v.form), type_str(k, v.type), v.mask ? " mask" : "");
  }
  o += op_name(in.op);
  if (!in.fn.empty() && in.fn != op_name(in.op)) o += "." + in.fn;
  if (in.tensor >= 0) o += " " + k.tensors[in.tensor].name;
  for (int s : in.srcs) o += " " + value_str(k, s);
  if (in.period >= 0) o += " [row % " + k.syms[in.period].name + "]";   // a periodic column: its field is the scalar
  else if (!in.scalar.cpp.empty()) o += " {" + in.scalar.cpp + "}";
  if (!in.scalar2.cpp.empty()) o += " {" + in.scalar2.cpp + "}";
  if (in.reverse) o += " reverse";
  if (in.exclusive) o += " exclusive";
  if (in.across) o += " across";                 // over the slab's positions (axis=1)
  if (in.chunk >= 0) o += fmt::format(" row={}", in.chunk);   // a row of K values per position (y[j, c])
  if (in.trunc) o += " trunc";
  if (in.group) o += " group=" + k.group.text;   // reduced over the rows of each group too
  if (in.dst >= 0) {
    const Value& v = k.values[in.dst];
    if (v.buffer >= 0) o += "    -> " + k.buffers[v.buffer].name;
    if (v.alias_of >= 0) o += " (via " + k.buffers[v.alias_of].name + ")";
  }
  o += fmt::format("    # {}:{}\n", in.range.begin.line, in.range.begin.col);
}
}  // namespace

std::string print_ir(const Kernel& k) {
  std::string o = fmt::format("kernel {} (op {}, kernel {})\n", k.name, k.op_type, k.kernel_symbol);
  for (const auto& v : k.dtype_vars) {
    std::string ts;
    for (DType t : v.types) ts += (ts.empty() ? "" : ", ") + std::string(dtype_name(t));
    if (v.base >= 0)   // a mapped variable: its type in each of its base's columns
      o += fmt::format("  dtype {} = {} per column ({})\n", v.name, k.dtype_vars[v.base].name, ts);
    else o += fmt::format("  dtype {} in ({})\n", v.name, ts);
  }
  for (const auto& t : k.tensors)
    o += fmt::format("  {} {}: {}{}\n", t.output ? "output" : "input", t.name, type_str(k, t.type), dims_str(t.dims));
  for (const auto& a : k.attrs) o += fmt::format("  attr {}: {} = {:g}\n", a.name, dtype_name(a.type), a.default_value);
  static const char* parts[] = {"the product of the dims before the axis", "the axis", "the product of the dims after the axis"};
  for (const auto& s : k.syms)
    o += fmt::format("  dim {}{} = {} of {}\n", s.star ? "*" : "", s.name,
                     s.part >= 0 ? std::string(parts[s.part]) + " (" + k.attrs[k.axis_attr].name + ")"
                     : !s.star && s.first != s.last ? fmt::format("the product of dims -{} to -{}", s.first + 1, s.last + 1)
                     : !s.star ? fmt::format("dim -{}", s.first + 1)
                     : s.first == 0 ? std::string("the product of all dims")
                                    : fmt::format("the product of the dims before the last {}", s.first),
                     k.tensors[s.tensor].name);
  if (k.axis && k.outer_sym >= 0 && k.inner_sym >= 0)
    o += fmt::format("  loop {} in tiles({}, {}): the positions of {} x {}, each reduced over {}, queues of depth {}{}\n",
                     k.loop_var, k.syms[k.outer_sym].name, k.syms[k.inner_sym].name, k.syms[k.outer_sym].name,
                     k.syms[k.inner_sym].name, k.syms[k.axis_sym].name, k.queue_depth,
                     k.tile_request ? fmt::format(", tile={}", k.tile_request) : ", tile=auto");
  else if (k.extent_sym >= 0)
    o += fmt::format("  loop {} in tiles({}) over {}{}, queues of depth {}{}\n", k.loop_var, k.syms[k.extent_sym].name,
                     k.rows ? "rows of " : "elements", k.rows && k.row_sym >= 0 ? k.syms[k.row_sym].name : "",
                     k.queue_depth, k.tile_request ? fmt::format(", tile={}", k.tile_request) : ", tile=auto");
  if (!k.prologue.empty()) {
    o += "  prologue (once per core):\n";
    for (const Instr& in : k.prologue) instr(o, k, in);
  }
  o += "  body (per tile):\n";
  for (const Instr& in : k.body) instr(o, k, in);
  if (!k.epilogue.empty()) {
    o += "  epilogue (after the loop, on core 0, once the accumulators are combined over the cores):\n";
    for (const Instr& in : k.epilogue) instr(o, k, in);
  }
  if (!k.buffers.empty()) {
    o += "  buffers:\n";
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      const Buffer& b = k.buffers[i];
      o += fmt::format("    {} {} {} {}{}{}", b.name, kind_name(b.kind), form_name(b.form),
                       b.mask ? "mask" : type_str(k, b.type), b.depth > 1 ? fmt::format(" depth {}", b.depth) : "",
                       b.only_if_var_differs >= 0 ? fmt::format(" (only where {} != {})",
                                                                k.dtype_vars[b.only_if_var_differs].name,
                                                                dtype_name(b.differs_from))
                                                  : "");
      for (const UbTerm& t : k.ub_terms)
        if (t.buffer == static_cast<int>(i))
          o += fmt::format("   ub: {}{}", t.per_unit.empty() ? "" : t.per_unit + " per unit",
                           t.fixed.empty() ? "" : (t.per_unit.empty() ? "" : " + ") + t.fixed + " fixed");
      o += "\n";
    }
  }
  if (!k.queue_ops.empty()) {
    o += "  stages:\n";
    static const char* names[] = {"copy-in: alloc", "copy-in: enque", "compute: deque", "compute: free",
                                  "compute: alloc", "compute: enque", "copy-out: deque", "copy-out: free"};
    for (const QueueOp& q : k.queue_ops)
      o += fmt::format("    {} {}{}\n", names[q.kind], k.buffers[q.buffer].name,
                       q.after >= 0 && (q.kind == QueueOp::FreeIn || q.kind == QueueOp::AllocOut ||
                                        q.kind == QueueOp::EnQueOut)
                           ? fmt::format(" after body[{}]", q.after)
                           : "");
  }
  if (k.chunks.possible) {
    o += fmt::format("  long rows: {} pass(es) over chunks of columns{}\n", k.chunks.passes,
                     k.chunks.split ? "; a row may be shared by several cores" : "");
    auto list = [&](const std::vector<int>& v) {
      std::string s;
      for (int i : v) s += (s.empty() ? "" : ", ") + fmt::format("body[{}]", i);
      return s.empty() ? std::string("-") : s;
    };
    for (size_t i = 0; i < k.chunks.finalize.size(); ++i) {
      if (i > 0) o += fmt::format("    pass {}: per chunk {}\n", i - 1, list(k.chunks.pass_body[i - 1]));
      if (!k.chunks.finalize[i].empty())
        o += fmt::format("    {} columns: {}\n", i == 0 ? "before the passes" : fmt::format("after pass {}", i - 1),
                         list(k.chunks.finalize[i]));
    }
  } else if (!k.chunks.why_not.empty() && k.rows) {
    o += "  long rows: not supported here (" + k.chunks.why_not + ")\n";
  }
  if (!k.fields.empty()) {
    o += "  tiling:\n";
    for (const auto& f : k.fields) o += fmt::format("    {} {} = {}   // {}\n", f.type, f.name, f.host_expr, f.why);
  }
  return o;
}
}  // namespace kgen::tile
