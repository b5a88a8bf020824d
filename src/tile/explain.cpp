// The compiler's reasoning as prose (explain.h).
#include "tile/explain.h"

#include <fmt/format.h>

#include <map>

namespace kgen::tile {
namespace {
std::string type_of(const Kernel& k, TypeOf t) {
  return t.var >= 0 && t.var < static_cast<int>(k.dtype_vars.size()) ? k.dtype_vars[t.var].name : dtype_name(t.fixed);
}

std::string bytes_text(uint64_t b) {
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} bytes ({} KiB)", b, b / 1024);
  return fmt::format("{} bytes", b);
}

const char* buffer_role(BufKind b) {
  switch (b) {
    case BufKind::InQueue: return "input queue (GM -> UB by MTE2, handed to the vector unit by EnQue/DeQue)";
    case BufKind::OutQueue: return "output queue (vector unit -> GM by MTE3, handed over by EnQue/DeQue)";
    case BufKind::Temp: return "temporary of the tile's computation";
    case BufKind::Resident: return "resident vector, loaded once per core";
    case BufKind::MathTmp: return "scratch of the math APIs (Exp, Erf, Sigmoid, ...)";
    case BufKind::Work: return "work buffer of the tile";
    case BufKind::RowWork: return "per-row work buffer";
    case BufKind::Accumulator: return "accumulator across the core's tiles";
    case BufKind::Partials: return "per-core partial results";
    case BufKind::CombineWork: return "work buffer combining the cores' partials";
    case BufKind::Epilogue: return "epilogue buffer";
    case BufKind::AxisWork: return "axis-reduction work buffer";
    case BufKind::ScanWork: return "scan work buffer";
    case BufKind::AcrossWork: return "work buffer of the reductions over the inner positions (axis=1 of a slab)";
  }
  return "buffer";
}

uint64_t as_u64(const std::string& v) {
  try {
    return std::stoull(v);
  } catch (...) {
    return 0;
  }
}
}  // namespace

std::string explain(const CompileResult& r, const ExplainFacts& f) {
  const Kernel& k = r.kernel;
  std::string o;
  int step = 0;
  auto add = [&](const std::string& text) { o += fmt::format("{}. {}\n", ++step, text); };

  std::string doc = k.doc;
  for (char& c : doc)
    if (c == '\n') c = ' ';
  if (doc.empty()) doc = k.name;
  if (doc.back() != '.') doc += '.';
  add(fmt::format("The operator: {} kgen compiles the tile program `{}` to the op {} (kernel {}).", doc, k.name,
                  k.op_type, k.kernel_symbol));
  std::string io;
  for (const TensorArg& t : k.tensors) io += (io.empty() ? "" : ", ") + t.name;
  add(fmt::format("Target: {} has {} vector cores (AIV) and {} cube cores (AIC); each vector core has {} of Unified "
                  "Buffer (UB), the only memory its vector unit computes in. The tensors ({}) live in global memory "
                  "(GM) and move through {} tile by tile. Here the inputs are {}.",
                  f.soc, f.aiv_cores, f.aic_cores, bytes_text(f.ub_bytes), io,
                  k.buffers.empty() ? "the cores' local memories (UB for vector work; L1, L0A, L0B and L0C for the "
                                      "cube)"
                                    : "UB",
                  f.shape));

  std::map<std::string, std::string> v;   // tiling values by field name
  for (const auto& x : f.tiling) v[x.name] = x.value;
  // The Matmul API's tiling (a TCubeTiling field, decoded as NAME.baseM, ...): its own step.
  std::string cube;
  for (const auto& x : f.tiling)
    if (x.name.size() > 6 && x.name.compare(x.name.size() - 6, 6, ".baseM") == 0) cube = x.name.substr(0, x.name.size() - 6);
  const bool generic = !k.buffers.empty();
  if (generic) {
    // dtypes: where the program converts, and which buffers exist only for a conversion
    std::string conversions;
    for (const Instr& in : k.body) {
      if ((in.op != Op::Load && in.op != Op::Store) || in.tensor < 0) continue;
      const TensorArg& t = k.tensors[in.tensor];
      const TypeOf vt = in.op == Op::Load ? k.values[in.dst].type : k.values[in.srcs.at(0)].type;
      if (vt == t.type) continue;
      const std::string said = fmt::format(fmt::runtime(in.op == Op::Load ? "{} is read in its dtype {} and cast to {} for the computation"
                                                        : "{} is written in its dtype {}, cast from the {} it is computed in"),
                                           t.name, type_of(k, t.type), type_of(k, vt));
      if (conversions.find(said) != std::string::npos) continue;   // rows stored one by one: said once
      conversions += (conversions.empty() ? "" : "; ") + said;
    }
    std::string conv;
    for (const Buffer& b : k.buffers)
      if (b.only_if_var_differs >= 0)
        conv += fmt::format("{}{} ({})", conv.empty() ? "" : ", ", b.name, type_of(k, b.type));
    std::string vars;
    for (const auto& d : k.dtype_vars) vars += (vars.empty() ? "" : ", ") + d.name;
    if (conversions.empty())
      add(fmt::format("Data types: the program computes in its tensors' own dtype{}; no conversion is needed.",
                      vars.empty() ? "" : " (" + vars + ")"));
    else
      add(fmt::format("Data types: {}.{}", conversions,
                      conv.empty() ? ""
                                   : fmt::format(" The conversion buffers {} are allocated only when the tensor's "
                                                 "dtype differs from the computed one; this call's first input is {}.",
                                                 conv, f.shape.substr(0, f.shape.find(' ')))));
    std::string bufs;
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      const Buffer& b = k.buffers[i];
      std::string ub;
      for (const UbTerm& t : k.ub_terms)
        if (t.buffer == static_cast<int>(i))
          ub = (t.per_unit.empty() ? "" : t.per_unit + " bytes per tile unit") +
               (t.fixed.empty() ? "" : (t.per_unit.empty() ? "" : " + ") + t.fixed + " fixed bytes");
      bufs += fmt::format("\n   - {}: {}, {} {}{}{}", b.name, buffer_role(b.kind), type_of(k, b.type),
                          form_name(b.form), b.depth > 1 ? fmt::format(", {} deep", b.depth) : "",
                          ub.empty() ? "" : "; UB " + ub);
    }
    add(fmt::format("UB buffers, each a fixed slice of the {} the kernel's InitBuffer calls carve out:{}", bytes_text(f.ub_bytes), bufs));
    // an axis program's units: rows of the axis (row mode) or positions; its work items: rows or column chunks
    const std::string inner = k.axis && k.inner_sym >= 0 ? camel_lower(k.syms[k.inner_sym].name) : "";
    const bool row_mode = !inner.empty() && v.count(inner) && v[inner] == "1";
    const std::string unit = k.rows || row_mode ? "rows" : k.axis ? "positions" : "elements";
    if (v.count("tileUnits"))
      add(fmt::format("Tile size: the host divides the UB left after the fixed bytes by the bytes one tile unit needs "
                      "in all buffers together, rounded down to whole 256-byte repeats. At this shape TilingFunc "
                      "chose {} {} per tile{}.",
                      v["tileUnits"], v["tileUnits"] == "1" ? unit.substr(0, unit.size() - 1) : unit,
                      v.count("depth") ? fmt::format(" with queues {} deep ({})", v["depth"],
                                                      v["depth"] == "1" ? "one buffer: copy and compute take turns"
                                                                        : "double buffering: the copy-in of the next "
                                                                          "tile overlaps the compute of this one")
                                       : ""));
    if (k.rows && v.count("chunk") && v["chunk"] != "0")
      add(fmt::format("Long rows: a row of {} elements does not fit in UB with its buffers, so TilingFunc set chunk = "
                      "{}: each row is streamed through UB in chunks of {} columns, in {} pass{} over the row's chunks "
                      "(values needed across the whole row, such as a row maximum or sum, are finished after the "
                      "pass that computes them and read by the next).",
                      v.count("n") ? v["n"] : "?", v["chunk"], v["chunk"], k.chunks.passes,
                      k.chunks.passes == 1 ? "" : "es"));
    if (k.axis && v.count("axisChunk") && v["axisChunk"] != "0")
      add(fmt::format("Long axis: the reduced axis does not fit in UB for 16 positions, so TilingFunc set axisChunk = "
                      "{}: each tile of 16 positions streams the axis in chunks of {} rows, reduces each chunk and "
                      "folds its partial into a running value per reduction, then computes the positions' results from "
                      "the folded values.",
                      v["axisChunk"], v["axisChunk"]));
    if (v.count("total") && v.count("perCore")) {
      const uint64_t total = as_u64(v["total"]), per = as_u64(v["perCore"]), tile = as_u64(v["tileUnits"]);
      std::string split = fmt::format("Core split: {} {} in all, {} per core in contiguous ranges, so the block dim "
                                      "is {} of the {} vector cores",
                                      total, unit, per, f.block_dim, f.aiv_cores);
      if (k.axis && !row_mode)   // column mode: a work item is one tile, a chunk of one outer index's positions
        split = fmt::format("Core split: {} work items in all (each outer index's positions in {} chunk{} of up to {}), "
                            "{} per core in contiguous ranges, so the block dim is {} of the {} vector cores; each "
                            "work item is one tile",
                            total, v.count("chunks") ? v["chunks"] : "?", v.count("chunks") && v["chunks"] == "1" ? "" : "s",
                            tile, per, f.block_dim, f.aiv_cores);
      else if (per > 0 && total > 0) {
        const uint64_t cores = (total + per - 1) / per, last = total - (cores - 1) * per;
        split += last == per ? fmt::format("; every core gets exactly {}", per)
                             : fmt::format("; the last core gets the remaining {}", last);
        if (tile > 0) {
          const uint64_t tiles = (per + tile - 1) / tile, tail = per - (tiles - 1) * tile;
          split += fmt::format(". A full core runs {} tile{}", tiles, tiles == 1 ? "" : "s");
          split += tail == tile ? " of equal size (no tail)"
                                : fmt::format(", the last a tail of {} {} that the loop copies and computes with "
                                              "its own length",
                                              tail, unit);
        }
      }
      const uint64_t parts = v.count("parts") ? as_u64(v["parts"]) : 1;
      if (parts > 1)
        split = fmt::format("Core split: {} {} in all, fewer than the cores, and each row longer than UB, so {} cores "
                            "share each row (block dim {} of the {} vector cores): each streams its range of the "
                            "row's columns, about {} of the {} (whole 512-byte blocks), and after each pass with a "
                            "reduction every core writes its partial to the workspace, meets the others at a SyncAll "
                            "and folds the row's partials in core order",
                            total, unit, parts, f.block_dim, f.aiv_cores,
                            v.count("n") ? (as_u64(v["n"]) + parts - 1) / parts : 0, v.count("n") ? v["n"] : "?");
      add(split + ".");
    }
    if (!k.queue_ops.empty()) {
      std::string in, out;
      for (const Buffer& b : k.buffers) {
        if (b.kind == BufKind::InQueue) in += (in.empty() ? "" : ", ") + b.name;
        if (b.kind == BufKind::OutQueue) out += (out.empty() ? "" : ", ") + b.name;
      }
      add(fmt::format("Pipeline: each tile runs in three stages on three pipes — copy-in (MTE2: AllocTensor and "
                      "DataCopy into {}, then EnQue), compute (DeQue, the vector instructions, FreeTensor of the "
                      "inputs, EnQue of {}), copy-out (MTE3: DeQue, DataCopy to GM, FreeTensor). The EnQue/DeQue "
                      "pairs are the synchronisation between the pipes, so no SetFlag/WaitFlag is written by hand.",
                      in.empty() ? "the input queues" : in, out.empty() ? "the output queues" : out));
    }
  } else {
    add("The program's form has a lowering of its own (matmul, attention, convolution, pooling, index or resize); its "
        "plan, as the compiler printed it, is at the end.");
  }
  if (!cube.empty()) {
    auto c = [&](const char* n) { return as_u64(v[cube + n]); };
    const std::string first = f.shape.substr(0, f.shape.find(' '));
    const std::string dt = first.substr(first.find('=') + 1, first.find(':') - first.find('=') - 1);
    const uint64_t elt = dt == "float32" || dt == "int32" ? 4 : dt == "int8" || dt == "uint8" ? 1 : 2;
    add(fmt::format(
        "Cube side: each cube core has {} of L1, {} of L0A, {} of L0B and {} of L0C. The matmul is M x N x K = {} x {} "
        "x {}; the Matmul API's tiling ({}) gives each core a block of {} x {} of the output over K = {}, computed in "
        "base blocks of {} x {} x {}: an A tile of {} bytes in L0A and a B tile of {} bytes in L0B ({}-byte inputs), "
        "accumulated in f32 in L0C ({} bytes), with {} A and {} B base tiles staged in L1 (depthA1, depthB1); the "
        "API's usedCoreNum is {}.",
        bytes_text(f.l1_bytes), bytes_text(f.l0a_bytes), bytes_text(f.l0b_bytes), bytes_text(f.l0c_bytes), c(".M"),
        c(".N"), c(".Ka"), cube, c(".singleCoreM"), c(".singleCoreN"), c(".singleCoreK"),
        c(".baseM"), c(".baseN"), c(".baseK"), c(".baseM") * c(".baseK") * elt, c(".baseK") * c(".baseN") * elt, elt,
        c(".baseM") * c(".baseN") * 4, c(".depthA1"), c(".depthB1"), c(".usedCoreNum")));
  }

  if (!f.tiling.empty()) {
    std::string t;
    for (const auto& x : f.tiling)
      if (cube.empty() || x.name.rfind(cube, 0) != 0)   // the cube tiling was its own step
      t += fmt::format("\n   - {} {} = {}{}", x.type, x.name, x.value.empty() ? "(not decoded)" : x.value,
                       x.comment.empty() ? "" : ": " + x.comment);
    add(fmt::format("The tiling data TilingFunc saved for the kernel (block dim {}):{}", f.block_dim, t));
  }
  if (!generic && !f.plan.empty()) o += "\nThe compiler's plan:\n" + f.plan;
  return o;
}
}  // namespace kgen::tile
