// plan_chunks: a row program whose rows do not fit in UB runs each row in chunks of columns, in as many passes as
// its reductions are deep: softmax needs max(v) before exp(v - max), then the sum, then the output — three passes,
// each streaming the row again. A value's stage is the pass in which it is final: loads 0, an elementwise op the
// latest of its operands, a reduction one more than its operand (it is accumulated over the chunks of that pass).
// Row ops run per chunk in every pass that needs them; column ops run once when their operands are final. With fewer
// rows than cores, several cores may share a row (split): each streams its range of the columns.
#include "tile/passes.h"
#include "tile/repeat_rows.h"

#include <algorithm>

namespace kgen::tile {
void plan_chunks(Kernel& k) {
  ChunkPlan& c = k.chunks;
  c = ChunkPlan{};
  if (k.axis) {   // column mode's axis in chunks: slab work that only feeds reductions, one position's values apart
    c.axis = k.epilogue.empty() && k.phase2 < 0;
    for (const Instr& in : k.body) {
      const bool slab_dst = in.dst >= 0 && k.values[in.dst].form == Form::Slab;
      bool slab_src = false, flat_src = false;
      for (int v : in.srcs)
        if (v >= 0) (k.values[v].form == Form::Slab ? slab_src : flat_src) = true;
      if (in.op == Op::Reduce)
        c.axis &= slab_src && (in.fn == "sum" || in.fn == "mean" || in.fn == "max" || in.fn == "min" || in.fn == "prod");
      else if (in.op == Op::Load) c.axis &= slab_dst || in.dst < 0;
      else if (in.op == Op::Store) c.axis &= !slab_src;
      else if (in.op == Op::Scan || in.op == Op::SlabBcast || in.op == Op::SlabAcross || in.op == Op::Fill ||
               in.op == Op::Accumulate ||
               in.op == Op::Combine)
        c.axis = false;
      else c.axis &= slab_dst ? !flat_src : !slab_src;   // slab work from slabs; flat work from the reductions
    }
    c.why_not = c.axis ? "" : "axis programs chunk their axis only when its slabs feed reductions alone";
    return;
  }
  if (!k.rows) {
    c.why_not = "flat programs never need it";
    return;
  }
  if (!k.group.host.empty()) {
    c.why_not = "grouped reductions (group=) need whole groups of rows per tile";
    return;
  }
  for (const Instr& in : k.body)
    if (in.op == Op::Fill && in.fn == "axis_index") {   // a chunk's columns would be numbered from 0 again
      c.why_not = "axis_index() numbers whole rows";
      return;
    }
  for (size_t ti = 0; ti < k.tensors.size(); ++ti)
    if (repeat_rows(k, static_cast<int>(ti), row_dim_count(k))) {   // its rows are read by runs of whole rows
      c.why_not = "rows of '" + k.tensors[ti].name + "' repeated over a dim";
      return;
    }
  std::vector<int> def(k.values.size(), -1);
  for (size_t i = 0; i < k.body.size(); ++i)
    if (k.body[i].dst >= 0) def[k.body[i].dst] = static_cast<int>(i);
  c.value_stage.assign(k.values.size(), 0);
  for (const Instr& in : k.body) {
    if (in.dst < 0) continue;
    int s = 0;
    for (int v : in.srcs)
      if (v >= 0 && !k.values[v].resident) s = std::max(s, c.value_stage[v]);
    if (in.op == Op::Reduce) ++s;
    c.value_stage[in.dst] = s;
  }
  // Which row instructions each pass needs: those feeding a reduction accumulated in the pass or a store in it.
  // Column loads and stores move one value per row, before the passes and after the pass that makes it final.
  int passes = 1;
  for (const Instr& in : k.body) {
    const bool col_store = in.op == Op::Store && k.values[in.srcs[0]].form == Form::Col;
    if (in.op == Op::Store && !col_store) passes = std::max(passes, c.value_stage[in.srcs[0]] + 1);
    if (col_store) passes = std::max(passes, c.value_stage[in.srcs[0]]);
    if (in.op == Op::Reduce) passes = std::max(passes, c.value_stage[in.srcs[0]] + 1);
  }
  c.passes = passes;
  c.pass_body.assign(passes, {});
  c.finalize.assign(passes + 1, {});   // finalize[p + 1]: after pass p; finalize[0]: before the first pass
  for (int p = 0; p < passes; ++p) {
    std::vector<bool> need(k.body.size(), false);
    for (int i = static_cast<int>(k.body.size()) - 1; i >= 0; --i) {
      const Instr& in = k.body[i];
      const bool col_store = in.op == Op::Store && k.values[in.srcs[0]].form == Form::Col;
      bool root = (in.op == Op::Store && !col_store && c.value_stage[in.srcs[0]] == p) ||
                  (in.op == Op::Reduce && c.value_stage[in.srcs[0]] == p);
      if (!root && !need[i]) continue;
      need[i] = true;
      for (int v : in.srcs)   // row operands are recomputed in the chunk; columns are final already
        if (v >= 0 && def[v] >= 0 && k.values[v].form != Form::Col) need[def[v]] = true;
    }
    for (size_t i = 0; i < k.body.size(); ++i)
      if (need[i]) c.pass_body[p].push_back(static_cast<int>(i));
  }
  for (size_t i = 0; i < k.body.size(); ++i) {
    const Instr& in = k.body[i];
    if (in.op == Op::Store && k.values[in.srcs[0]].form == Form::Col) {
      c.finalize[c.value_stage[in.srcs[0]]].push_back(static_cast<int>(i));
      continue;
    }
    if (in.dst < 0 || in.op == Op::Reduce || k.values[in.dst].form != Form::Col) continue;
    c.finalize[c.value_stage[in.dst]].push_back(static_cast<int>(i));
  }
  c.possible = true;
  // A row may be shared by several cores when combining their partials is a fold of one f32 value per reduction
  // (sum, mean, max, min) and nothing else depends on which core holds which columns: no column outputs (each part
  // would write the row's value), no periodic column loads (they index rows by core), no accumulators (each part
  // would add the row's value).
  c.split = k.epilogue.empty();   // an accumulator adds each row once: on one core
  for (const Instr& in : k.body) {
    if (in.op == Op::Reduce) {
      const TypeOf& t = k.values[in.dst].type;
      c.split &= !in.group && t.var < 0 && t.fixed == DType::F32 &&
                 (in.fn == "sum" || in.fn == "mean" || in.fn == "max" || in.fn == "min");
    }
    if (in.op == Op::Store && k.values[in.srcs[0]].form == Form::Col) c.split = false;
    if (in.period >= 0) c.split = false;
  }
}
}  // namespace kgen::tile
