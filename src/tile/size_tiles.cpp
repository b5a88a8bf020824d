// size_tiles: what each UB buffer costs per tile unit (an element of a flat program, a row of a row program) and
// what it costs regardless of the tile size, as C++ expressions of the host's variables (`n`, the row length;
// `sizeT`/`dtT`, the size and ge::DataType of each dtype variable's column). The host then takes the largest tile
// that fits the SoC's UB: tileUnits = (ub - fixed) / perUnit. Each buffer also gets up to 512 bytes of slack
// (kt::RoundUp256), because the count forms of compare/select round to 256-byte repeats.
#include <fmt/format.h>

#include "tile/passes.h"

namespace kgen::tile {
namespace {
std::string size_of(const Kernel& k, TypeOf t) {
  if (t.var >= 0) return "size" + k.dtype_vars[t.var].name;
  return std::to_string(dtype_size(t.fixed));
}
// Whether the axis reductions of type t reduce rows by a transpose (kt::RowReduceByGather: no WholeReduce for prod
// or int32), as a host condition.
std::string gathers(const Kernel& k, TypeOf t) {
  bool prod = false;
  for (const Instr& in : k.body)
    prod |= in.op == Op::Reduce && in.fn == "prod" && k.values[in.srcs[0]].type == t;
  if (prod) return "true";
  if (t.var >= 0) return "(dt" + k.dtype_vars[t.var].name + " == ge::DT_INT32)";
  return t.fixed == DType::I32 ? "true" : "false";
}
// The scans' scratch (kt::ScanWorkBytes): row mode, K transposes [npad, lanes] (lanes = positions rounded up to a
// 32-byte block: at most positions + 32/es - 1) and the gathers' offsets; column mode, 2 slabs for a log-sum-exp and
// 2 rows for a sum's compensation. A scan with resets adds (kt::detail::ScanResetBytes) two slabs of bounds (row mode:
// transposed), a row of scratch and a bit per element.
void scan_work(const Kernel& k, const Buffer& b, const std::string& es, const std::string& slack, UbTerm& t) {
  bool lse = false, sum = false, reset = false;
  for (const Instr& in : k.body) {
    const bool mine = in.op == Op::Scan && !in.across && k.values[in.srcs[0]].type == b.type;
    lse |= mine && in.fn == "logsumexp";
    sum |= mine && in.fn == "sum";
    reset |= mine && in.srcs.size() > 1;
  }
  const std::string K = lse ? "3.0" : "1.0", r = "d_" + camel_lower(k.syms[k.axis_sym].name);
  t.per_unit = fmt::format("(rowMode ? {0} * npadV * {1} + 4.0 : {2})", K, es,
                           lse ? "2.0 * " + r + " * " + es : sum ? "2.0 * " + es : "0.0");
  t.fixed = fmt::format("(rowMode ? {0} * (32.0 / {1} - 1.0) * npadV * {1} + 4.0 * (2048 + 32) : 32.0) + {2}", K, es,
                        slack);
  if (reset) {   // N = npad * lanes (row mode) or r * positions (column mode), each region rounded to 256 bytes
    t.per_unit += fmt::format(" + (rowMode ? 2.0 * npadV * {0} + {0} + npadV / 8.0 : 2.0 * {1} * {0} + {0} + {1} / 8.0)",
                              es, r);
    t.fixed += fmt::format(" + (rowMode ? (32.0 / {0} - 1.0) * npadV * (2.0 * {0} + 0.125) : 0.0) + 1024.0", es);
  }
}
// The scratch over a slab's positions (axis=1), bounded for any tile: the reductions' (kt::SlabAcrossWorkBytes: r
// values and the row helpers' work, fixed) plus the scans' (kt::SlabScanAcrossWorkBytes: the transpose of the slab's
// r rows, [tile, lanes of r], three for a log-sum-exp, and the gathers' offsets).
void across_work(const Kernel& k, const Buffer& b, const std::string& es, const std::string& slack, UbTerm& t) {
  const AcrossUse u = across_use(k, b.type);
  const std::string r = "d_" + camel_lower(k.syms[k.axis_sym].name);
  t.per_unit = u.scan ? fmt::format("{} * ({} + 32.0 / {}) * {}", u.lse ? "3.0" : "1.0", r, es, es) : "0";
  t.fixed = slack;
  if (u.reduce) t.fixed += fmt::format(" + ({0} * {1} + 256 + std::min<double>({0}, 248) * 256 + 8192 + ({0} + 8) * 32)", r, es);
  if (u.scan) t.fixed += fmt::format(" + 4.0 * (2048 + {} + 32)", r);
}
}  // namespace

void size_tiles(Kernel& k) {
  k.ub_terms.clear();
  for (size_t i = 0; i < k.buffers.size(); ++i) {
    const Buffer& b = k.buffers[i];
    UbTerm t;
    t.buffer = static_cast<int>(i);
    const std::string es = size_of(k, b.type);
    // Queues hold `depth` tiles (the program's buffers=, lowered by the host when a tile would not fit otherwise).
    const bool queue = b.kind == BufKind::InQueue || b.kind == BufKind::OutQueue;
    const std::string depth = queue ? "depth * " : "";
    // The kernel rounds each buffer up to whole 256-byte repeats and adds one more (kt::RoundUp256).
    const std::string slack = queue ? "512 * depth" : "512";
    // Mask buffers hold one bit per element of the compared tile (its dtype sets the row padding).
    switch (b.form) {
      case Form::Flat:
        t.per_unit = b.mask ? depth + "0.125" : depth + es;
        t.fixed = slack;
        break;
      case Form::Slab:   // a row of r (row mode) or a column of r (column mode): rowBytes is npadV elements
        if (b.kind == BufKind::ScanWork) {
          scan_work(k, b, es, slack, t);
          break;
        }
        if (b.kind == BufKind::AcrossWork) {
          across_work(k, b, es, slack, t);
          break;
        }
        if (b.krows > 0) {   // K values per position (kt::KRowsBytes): row mode a [tile, Kp] block, K staged rows, offsets
          const std::string K = std::to_string(b.krows);
          t.per_unit = fmt::format("{0}(rowMode ? ({1} * {2} + 31) / 32 * 32 + {1} * {2} : {1} * {2})",
                                   depth, K, es);
          t.fixed = fmt::format("{}(rowMode ? {} * 32.0 + 8192.0 : 0.0) + {}", depth, b.krows + 1, slack);
          break;
        }
        if (b.kind == BufKind::AxisWork) {
          const std::string g = gathers(k, b.type);
          t.per_unit = "axisWorkBytes(" + es + ", " + g + ")";
          t.fixed = "axisWorkFixed(" + es + ", " + g + ") + " + slack;
          break;
        }
        [[fallthrough]];
      case Form::Rows:
        t.per_unit = b.mask ? depth + "rowBytes(1) / 8.0" : depth + "rowBytes(" + es + ")";
        t.fixed = slack;
        break;
      case Form::Col:
        if (b.kind == BufKind::RowWork) {   // 256 bytes per row (a repeat), an 8 KB accumulator for long rows
          t.per_unit = "256";
          t.fixed = "8192 + 256 + " + slack;
          break;
        }
        t.per_unit = b.mask ? depth + "0.125" : depth + es;
        t.fixed = slack;
        break;
      case Form::Vec:
        t.fixed = "rowBytes(" + es + ") + 512";
        break;
      case Form::Scalar:
        t.fixed = b.kind == BufKind::MathTmp       ? "kMathTmpBytes + 512"
                  : b.kind == BufKind::Partials    ? "coreNum * 32 + 512"
                  : b.kind == BufKind::CombineWork ? "9216 + 512"
                                                   : "512";
        break;
    }
    if (b.only_if_var_differs >= 0) {
      const std::string cond = fmt::format("(dt{} != {} ? 1 : 0)", k.dtype_vars[b.only_if_var_differs].name,
                                           dtype_ge(b.differs_from));
      if (!t.per_unit.empty()) t.per_unit = cond + " * " + t.per_unit;
      if (!t.fixed.empty()) t.fixed = cond + " * (" + t.fixed + ")";
    }
    k.ub_terms.push_back(t);
  }
}
}  // namespace kgen::tile
