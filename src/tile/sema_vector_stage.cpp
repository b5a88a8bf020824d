// check (staged programs): a `tiles` loop between cube stages is a vector program of its own. Its kernel is written
// out as a one-loop program (the tensors it reads and stores, the dtypes and attrs of the whole program) with the
// loop's own source lines at their own line numbers, then parsed, checked and lowered by the vector passes like any
// program, so every construct of the vector language works in a stage and its diagnostics point into the file.
#include <algorithm>
#include <fmt/format.h>
#include <sstream>

#include "tile/parser.h"
#include "tile/passes.h"
#include "tile/sema.h"
#include "tile/staged.h"

namespace kgen::tile {
namespace {
std::string dims_of(const std::vector<Dim>& ds) {
  std::string o;
  for (const Dim& d : ds) o += (o.empty() ? "" : ", ") + (d.name.empty() ? std::to_string(d.value) : (d.star ? "*" : "") + d.name);
  return o;
}
std::string type_of(const Kernel& k, const TypeOf& t) {
  return t.var >= 0 ? k.dtype_vars[t.var].name : dtype_name(t.fixed);
}
std::string declare(const Kernel& k, const TensorArg& t) {
  return t.name + ": " + type_of(k, t.type) + "[" + dims_of(t.dims) + "]";
}
// The last source line of a statement (its body's, for a loop).
int last_line(const Stmt& s) {
  int l = std::max(s.range.end.line, s.range.begin.line);
  for (const StmtPtr& b : s.body) l = std::max(l, last_line(*b));
  return l;
}
}  // namespace

bool check_vector_stage(const Program& p, const Stmt& loop, int index, const Kernel& header,
                        std::vector<TensorArg> inputs, TensorArg output, const std::string& soc, Kernel& sub,
                        Diags& d) {
  std::vector<std::string> src;
  {
    std::istringstream in(p.source);
    for (std::string l; std::getline(in, l);) src.push_back(l);
  }
  // Rows over several leading dims, `for r in tiles(b, s)` over q: T[*b, s, d] (a cube stage needs b as its batch):
  // in the stage's kernel those dims are one starred dim `b_s` of every tensor that starts with them.
  const Expr* it = loop.value.get();
  if (it && it->kind == ExprKind::Call && it->text == "tiles" && it->args.size() >= 2 &&
      std::all_of(it->args.begin(), it->args.end(), [](const ExprPtr& a) { return a && a->kind == ExprKind::Name; }) &&
      it->args.front()->range.begin.line == it->args.back()->range.end.line &&
      it->args.front()->range.begin.line >= 1 && it->args.front()->range.begin.line <= static_cast<int>(src.size())) {
    std::string merged;
    for (const ExprPtr& a : it->args) merged += (merged.empty() ? "" : "_") + a->text;
    auto merge = [&](TensorArg& t) {
      if (t.dims.size() <= it->args.size()) return;
      for (size_t i = 0; i < it->args.size(); ++i)
        if (t.dims[i].name != it->args[i]->text || (i > 0 && t.dims[i].star)) return;
      Dim m = t.dims[0];
      m.name = merged;
      m.star = true;
      t.dims.erase(t.dims.begin(), t.dims.begin() + static_cast<long>(it->args.size()));
      t.dims.insert(t.dims.begin(), m);
    };
    for (TensorArg& t : inputs) merge(t);
    merge(output);
    std::string& l = src[it->args.front()->range.begin.line - 1];
    const int from = it->args.front()->range.begin.col - 1, to = it->args.back()->range.end.col - 1;
    if (from >= 0 && to > from && to <= static_cast<int>(l.size())) l.replace(from, to - from, merged);
  }
  // The stage's own kernel: its header on one line, the program's dtype lines, then the loop where it stands.
  std::string params;
  for (const TensorArg& t : inputs) params += (params.empty() ? "" : ", ") + declare(header, t);
  for (const AttrArg& a : header.attrs)
    params += ", " + a.name + ": " +
              (a.type == DType::F32   ? fmt::format("f32 = {}", a.default_value)
               : a.type == DType::I32 ? fmt::format("i32 = {}", static_cast<long long>(a.default_value))
                                      : std::string("bool = ") + (a.default_value != 0 ? "true" : "false"));
  const std::string stage_name = fmt::format("{}_stage{}", p.name, index);
  std::vector<std::string> lines = {"kernel " + stage_name + "(" + params + ") -> (" + declare(header, output) + "):"};
  for (const DtypeDecl& dd : p.dtypes)
    for (int l = dd.range.begin.line; l <= std::max(dd.range.begin.line, dd.range.end.line); ++l)
      if (l >= 1 && l <= static_cast<int>(src.size()) && (lines.empty() || lines.back() != src[l - 1]))
        lines.push_back(src[l - 1]);
  const int first = loop.range.begin.line, last = last_line(loop);
  while (static_cast<int>(lines.size()) + 1 < first) lines.push_back("");
  for (int l = first; l <= last && l <= static_cast<int>(src.size()); ++l) lines.push_back(src[l - 1]);
  std::string text;
  for (const std::string& l : lines) text += l + "\n";

  Diags sd(p.file, &text);
  Program sp;
  bool ok = parse(p.file, text, sp, sd) && check(sp, soc, sub, sd);
  if (ok && (sub.cube || sub.staged || sub.index || sub.conv || sub.pool || sub.resize || sub.attention ||
             sub.row_mm)) {
    sd.error(loop.range, "a vector stage is one tiles loop of vector work", "matmuls go in their own blocks loop");
    ok = false;
  }
  if (ok && (!sub.epilogue.empty() || sub.phase2 >= 0)) {
    sd.error(loop.range, "a vector stage stores its tensor tile by tile; accumulators and second loops are not part of one",
             "compute whole-tensor totals in a kernel of their own");
    ok = false;
  }
  for (const Diagnostic& x : sd.all()) {
    if (x.severity == Severity::Error) d.error(x.range, x.message, x.hint);
    else if (x.severity == Severity::Warning) d.warning(x.range, x.message, x.hint);
  }
  if (!ok) return false;
  // The vector passes; cores never share a row in a stage (their partials would need the workspace and a SyncAll
  // only the stage's cores reach).
  sub.external_pipe = true;
  split_casts(sub);
  plan_buffers(sub);
  assign_stages(sub);
  size_tiles(sub);
  plan_chunks(sub);
  sub.chunks.split = false;
  split_cores(sub);
  return true;
}
}  // namespace kgen::tile
