// check (staged programs): workspaces, blocks loops and the sync() between them. Each loop is checked as a
// single-stage cube program whose inputs are the program's inputs plus the workspaces it reads.
#include <algorithm>
#include <functional>
#include <memory>
#include <fmt/format.h>

#include "tile/cube.h"
#include "tile/staged.h"

namespace kgen::tile {
namespace {

const char* kStagedShape =
    "hid = workspace(T[m, h])\n    for blk in blocks(m, h):\n        ...\n        store(hid[blk], ...)\n    sync()\n"
    "    for blk in blocks(m, n):\n        ... mma(hid[blk, kt], w[blk, kt]) ...";

bool is_call(const Expr* e, const char* fn) { return e && e->kind == ExprKind::Call && e->text == fn; }
bool is_blocks_loop(const Stmt& s) { return s.kind == StmtKind::For && is_call(s.value.get(), "blocks"); }
bool is_sync(const Stmt& s) { return s.kind == StmtKind::Expr && is_call(s.value.get(), "sync"); }
bool is_workspace(const Stmt& s) { return s.kind == StmtKind::Assign && is_call(s.value.get(), "workspace"); }
bool is_tiles_loop(const Stmt& s) { return s.kind == StmtKind::For && is_call(s.value.get(), "tiles"); }

// Every name the loop mentions, with where (the first mention wins).
void names_in(const Stmt& s, std::vector<const Expr*>& out) {
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if (e.kind == ExprKind::Name) out.push_back(&e);
    for (const ExprPtr& a : e.args)
      if (a) walk(*a);
    for (const auto& kw : e.kwargs)
      if (kw.second) walk(*kw.second);
  };
  if (s.value) walk(*s.value);
  for (const StmtPtr& b : s.body) names_in(*b, out);
}

// The tensor a blocks loop stores: store(NAME[blk], ...) as its last statement ("" when it has none).
std::string stored_name(const Stmt& loop) {
  if (loop.body.empty()) return "";
  const Stmt& last = *loop.body.back();
  const Expr* v = last.value.get();
  if (last.kind != StmtKind::Expr || !is_call(v, "store") || v->args.empty()) return "";
  const Expr& dst = *v->args[0];
  if (dst.kind != ExprKind::Subscript || dst.args.empty() || dst.args[0]->kind != ExprKind::Name) return "";
  return dst.args[0]->text;
}

class StagedChecker {
 public:
  StagedChecker(const Program& p, const std::string& soc, Kernel& k, Diags& d) : p_(p), soc_(soc), k_(k), d_(d) {}

  void run() {
    const Kernel header = k_;   // the header only: each stage's kernel starts from it
    auto sp = std::make_shared<StagedProgram>();
    sp_ = sp.get();
    bool pending_sync = false;
    const Stmt* last_sync = nullptr;
    for (const StmtPtr& s : p_.body) {
      if (is_workspace(*s)) {
        if (!sp_->stages.empty())
          d_.error(s->range, "a workspace declared after a stage", "declare every workspace before the first blocks loop");
        workspace(*s);
      } else if (is_sync(*s)) {
        if (!s->value->args.empty() || !s->value->kwargs.empty())
          d_.error(s->value->range, "sync() takes no arguments", "sync()   # every core's stores are in GM");
        if (sp_->stages.empty())
          d_.error(s->range, "sync() before the first stage", "sync() goes between two blocks loops");
        else if (pending_sync)
          d_.error(s->range, "a second sync() between the same stages", "one sync() orders all the stores before it");
        pending_sync = true;
        last_sync = s.get();
      } else if (is_blocks_loop(*s)) {
        stage(*s, header, pending_sync);
        pending_sync = false;
      } else if (is_tiles_loop(*s)) {
        cast_stage(*s, header, pending_sync);
        pending_sync = false;
      } else {
        d_.error(s->range, "a staged program is workspaces, blocks loops and sync() between them",
                 std::string("    ") + kStagedShape);
      }
    }
    if (pending_sync && last_sync)
      d_.error(last_sync->range, "sync() after the last stage", "the kernel's end already orders the last stores");
    finish();
    k_.cube = true;
    k_.staged = sp;
  }

 private:
  int ws_of(const std::string& name) const { return index_by_name(sp_->ws, name); }
  const Sym* sym(const std::string& name) const {
    for (const Sym& s : k_.syms)
      if (s.name == name) return &s;
    return nullptr;
  }

  // hid = workspace(T[m, h]): the dtype (a dtype variable or f32/f16/bf16) and the dims, by name.
  void workspace(const Stmt& s) {
    const Expr& call = *s.value;
    const char* hint = "hid = workspace(T[m, h])   # a GM tensor of the program's dims, in T (or f32)";
    if (ws_of(s.target) >= 0 || std::any_of(k_.tensors.begin(), k_.tensors.end(),
                                            [&](const TensorArg& t) { return t.name == s.target; })) {
      d_.error(s.target_range, "'" + s.target + "' is already a tensor", "give the workspace a name of its own");
      return;
    }
    if (call.args.size() != 1 || call.args[0]->kind != ExprKind::Subscript || call.args[0]->args.size() < 2 ||
        call.args[0]->args[0]->kind != ExprKind::Name || !call.kwargs.empty()) {
      d_.error(call.range, "workspace() takes one tensor type", hint);
      return;
    }
    const Expr& ty = *call.args[0];
    Workspace w;
    w.name = s.target;
    w.range = s.target_range;
    const std::string& tn = ty.args[0]->text;
    DType fixed;
    bool found = false;
    for (size_t i = 0; i < k_.dtype_vars.size(); ++i)
      if (k_.dtype_vars[i].name == tn) w.type.var = static_cast<int>(i), found = true;
    if (!found && parse_dtype(tn, fixed) && (fixed == DType::F32 || fixed == DType::F16 || fixed == DType::BF16)) {
      w.type.fixed = fixed;
      found = true;
    }
    if (!found) {
      d_.error(ty.args[0]->range, "'" + tn + "' is not a dtype variable or a float dtype",
               "a workspace holds the layers' activations: T (the operands' dtype) or f32");
      return;
    }
    for (size_t i = 1; i < ty.args.size(); ++i) {
      const Expr& x = *ty.args[i];
      const Sym* y = x.kind == ExprKind::Name ? sym(x.text) : nullptr;
      if (!y) {
        d_.error(x.range, "a workspace dim is a dim name of the inputs", hint);
        return;
      }
      Dim dm;
      dm.name = x.text;
      dm.star = y->star;
      dm.range = x.range;
      w.dims.push_back(dm);
    }
    sp_->ws.push_back(w);
  }

  // One blocks loop: which workspaces it reads and stores, then the cube checks on a kernel of its own.
  void stage(const Stmt& loop, const Kernel& header, bool sync_before) {
    const int si = static_cast<int>(sp_->stages.size());
    Stage st;
    st.sync_before = sync_before;
    st.range = loop.range;
    const std::string out = stored_name(loop);
    st.stores_ws = ws_of(out);
    std::vector<const Expr*> names;
    names_in(loop, names);
    reads_and_store(loop, names, si, st);
    int cubes = 0;
    for (const Stage& x : sp_->stages) cubes += !x.cast && !x.vector;
    if (cubes == 4)
      d_.error(loop.range, "a fifth cube stage", "a kernel drives at most 4 Matmul objects (one per stage): split the program");
    // The stage's kernel: the inputs, the workspaces it reads as inputs, the stored tensor as its one output.
    st.sub = header;
    st.sub.tensors.clear();
    auto named = [&](const std::string& n) {   // the inputs the loop reads (the stage's Init takes those only)
      return std::any_of(names.begin(), names.end(), [&](const Expr* e) { return e->text == n; });
    };
    for (const TensorArg& t : header.tensors)
      if (!t.output && named(t.name)) st.sub.tensors.push_back(t);
    for (int w : st.reads_ws) st.sub.tensors.push_back(as_tensor(sp_->ws[w], false));
    if (st.stores_ws >= 0) st.sub.tensors.push_back(as_tensor(sp_->ws[st.stores_ws], true));
    else {   // the output it names (or the first: the cube checks then say the name is not an output)
      const TensorArg* o = nullptr;
      for (const TensorArg& t : header.tensors)
        if (t.output && (!o || t.name == out)) o = (o && o->name == out) ? o : &t;
      if (o) st.sub.tensors.push_back(*o);
    }
    st.sub.op_type = k_.op_type.substr(0, k_.op_type.size() - 6) + "Stage" + std::to_string(si) + "Custom";
    check_cube_loop(loop, soc_, st.sub, d_);
    sp_->stages.push_back(std::move(st));
  }

  // for r in tiles(m): store(xf[r, :], load(x[r, :], f32)) — an input copied into a workspace in the workspace's
  // dtype on the vector cores (the layers' operands share one dtype: an f16 input of f32 layers is cast first).
  void cast_stage(const Stmt& loop, const Kernel& header, bool sync_before) {
    const char* hint = "for r in tiles(m):\n        store(xf[r, :], load(x[r, :], f32))   # x in the workspace's dtype";
    Stage st;
    st.sync_before = sync_before;
    st.range = loop.range;
    const Expr& it = *loop.value;
    const Stmt* body = loop.body.size() == 1 ? loop.body[0].get() : nullptr;
    const Expr* v = body && body->kind == StmtKind::Expr ? body->value.get() : nullptr;
    const Expr* dst = is_call(v, "store") && v->args.size() == 2 ? v->args[0].get() : nullptr;
    const Expr* ld = dst ? v->args[1].get() : nullptr;
    const Expr* src = is_call(ld, "load") && ld->args.size() == 2 && ld->args[1]->kind == ExprKind::Name
                          ? ld->args[0].get() : nullptr;
    auto row_of = [&](const Expr* e) {   // NAME[r, :] -> NAME
      return e && e->kind == ExprKind::Subscript && e->args.size() == 3 && e->args[0]->kind == ExprKind::Name &&
                     e->args[1]->kind == ExprKind::Name && loop.loop_vars.size() == 1 &&
                     e->args[1]->text == loop.loop_vars[0] && e->args[2]->kind == ExprKind::Slice
                 ? e->args[0]->text : std::string();
    };
    (void)hint;
    if (it.args.size() != 1 || !it.kwargs.empty() || !src || row_of(dst).empty() || row_of(src).empty())
      return vector_stage(loop, header, sync_before);
    const std::string to = row_of(dst), from = row_of(src);
    const TensorArg* out = nullptr;
    const TensorArg* in = nullptr;
    for (const TensorArg& t : header.tensors) {
      if (t.output && t.name == to) out = &t;
      if (!t.output && !t.optional && t.name == from) in = &t;
    }
    const int w = ws_of(to), rw = ws_of(from);
    if (w < 0 && !out) {
      d_.error(dst->args[0]->range, "'" + to + "' is not a workspace or an output", "a vector stage stores one of them");
      return;
    }
    if (rw < 0 && !in) {
      d_.error(src->args[0]->range, "'" + from + "' is not a required input or a workspace", "a vector stage copies one of them");
      return;
    }
    const int si = static_cast<int>(sp_->stages.size());
    if (rw >= 0) {
      st.reads_ws.push_back(rw);
      read_order(*src->args[0], rw, si, sync_before);
    }
    const TypeOf& wt = w >= 0 ? sp_->ws[w].type : out->type;
    const std::string want = wt.var >= 0 ? k_.dtype_vars[wt.var].name : dtype_name(wt.fixed);
    if (ld->args[1]->text != want)
      d_.error(ld->args[1]->range, "the copy converts to '" + ld->args[1]->text + "' but '" + to + "' holds " + want,
               "load(" + from + "[r, :], " + want + ")");
    const std::vector<Dim>& dd = w >= 0 ? sp_->ws[w].dims : out->dims;
    const std::vector<Dim>& sd = rw >= 0 ? sp_->ws[rw].dims : in->dims;
    bool same = dd.size() == sd.size();
    for (size_t i = 0; same && i < dd.size(); ++i) same = dd[i].name == sd[i].name;
    if (!same)
      d_.error(src->args[0]->range, "'" + from + "' does not have the dims of '" + to + "'",
               "the copy keeps the shape: give both the same dims");
    st.stores_ws = w;
    stored_by(loop, si, st);
    st.cast = true;
    st.cast_from = from;
    st.cast_to = to;
    st.cast_dims = dd;
    st.cast_text = print_expr(*v);
    st.sub = header;
    st.sub.op_type = k_.op_type.substr(0, k_.op_type.size() - 6) + "Stage" + std::to_string(si) + "Custom";
    sp_->stages.push_back(std::move(st));
  }

  // Any other tiles loop: a vector program of its own over the inputs and workspaces it reads, storing a workspace or
  // the output (sema_vector_stage.cpp).
  void vector_stage(const Stmt& loop, const Kernel& header, bool sync_before) {
    const int si = static_cast<int>(sp_->stages.size());
    Stage st;
    st.sync_before = sync_before;
    st.range = loop.range;
    st.vector = true;
    const std::string out = stored_name(loop);
    st.stores_ws = ws_of(out);
    std::vector<const Expr*> names;
    names_in(loop, names);
    std::vector<TensorArg> inputs;
    for (const TensorArg& t : header.tensors)
      if (!t.output && std::any_of(names.begin(), names.end(), [&](const Expr* e) { return e->text == t.name; }))
        inputs.push_back(t);
    reads_and_store(loop, names, si, st);   // (stores nothing when `out` is no workspace: checked below)
    for (int w : st.reads_ws) inputs.push_back(as_tensor(sp_->ws[w], false));
    const TensorArg* o = nullptr;
    for (const TensorArg& t : header.tensors)
      if (t.output && t.name == out) o = &t;
    if (st.stores_ws < 0 && !o) {
      d_.error(loop.range, out.empty() ? "a vector stage ends with the store of a workspace or the output"
                                       : "'" + out + "' is not a workspace or an output",
               "end the loop with store(hid[r, :], ...) into a workspace (or the output in the last stage)");
      return;
    }
    const TensorArg output = st.stores_ws >= 0 ? as_tensor(sp_->ws[st.stores_ws], true) : *o;
    check_vector_stage(p_, loop, si, header, inputs, output, soc_, st.sub, d_);
    sp_->stages.push_back(std::move(st));   // kept when its check failed too: no follow-on errors about a missing stage
  }

  // The workspaces a stage's loop names (other than the one it stores), in order of first mention, each read in
  // order (read_order); then the workspace it stores marked as stored by it.
  void reads_and_store(const Stmt& loop, const std::vector<const Expr*>& names, int si, Stage& st) {
    for (const Expr* e : names) {
      const int w = ws_of(e->text);
      if (w < 0 || w == st.stores_ws || std::find(st.reads_ws.begin(), st.reads_ws.end(), w) != st.reads_ws.end())
        continue;
      st.reads_ws.push_back(w);
      read_order(*e, w, si, st.sync_before);
    }
    stored_by(loop, si, st);
  }

  // Stage si stores st.stores_ws (when it stores a workspace): once, no other stage before it.
  void stored_by(const Stmt& loop, int si, const Stage& st) {
    if (st.stores_ws < 0) return;
    Workspace& w = sp_->ws[st.stores_ws];
    if (w.written_by >= 0)
      d_.error(loop.range, fmt::format("workspace '{}' is stored again (stage {} stored it)", w.name, w.written_by),
               "each workspace holds one stage's result: declare another one");
    else w.written_by = si;
  }

  // A stage reads a workspace only after an earlier stage stored it, with a sync() in between.
  void read_order(const Expr& at, int w, int si, bool sync_before) {
    const Workspace& ws = sp_->ws[w];
    if (ws.written_by < 0) {
      d_.error(at.range, "'" + ws.name + "' is read before any stage stores it",
               "a stage reads a workspace that an earlier stage stored: move this stage after that one");
      return;
    }
    bool synced = sync_before;
    for (int s = ws.written_by + 1; s < si; ++s) synced |= sp_->stages[s].sync_before;
    if (!synced)
      d_.error(at.range, fmt::format("'{}' is read without a sync() after stage {} stored it", ws.name, ws.written_by),
               "put sync() between the stages: every core's blocks must be in GM before another core reads them");
    if (sp_->ws[w].read_by < 0) sp_->ws[w].read_by = si;
  }

  TensorArg as_tensor(const Workspace& w, bool output) const {
    TensorArg t;
    t.name = w.name;
    t.output = output;
    t.type = w.type;
    t.dims = w.dims;
    t.range = w.range;
    return t;
  }

  // Every workspace is stored and read; the program's output is stored by exactly one stage.
  void finish() {
    for (const Workspace& w : sp_->ws) {
      if (w.written_by < 0 && w.read_by < 0)
        d_.error(w.range, "workspace '" + w.name + "' is never used", "drop it, or store a stage into it");
      else if (w.read_by < 0 && w.written_by >= 0)
        d_.error(w.range, "workspace '" + w.name + "' is stored but never read",
                 "a later stage reads it (mma(" + w.name + "[blk, kt], ...) or load(" + w.name + "[blk])), or store the "
                 "stage into the output");
    }
    int outputs = 0;
    for (const TensorArg& t : k_.tensors) {
      if (!t.output) continue;
      if (++outputs > 1) d_.error(t.range, "a staged program has one output", "compute the other output in its own kernel");
      int stores = 0;
      for (const Stage& s : sp_->stages)
        stores += s.cast     ? s.cast_to == t.name
                  : s.vector ? s.stores_ws < 0
                             : s.stores_ws < 0 && s.sub.mm.c >= 0 && s.sub.tensors[s.sub.mm.c].name == t.name;
      if (stores == 0 && !d_.has_errors())
        d_.error(t.range, "output '" + t.name + "' is stored by no stage", "the last stage stores the output");
      if (stores > 1) d_.error(t.range, "output '" + t.name + "' is stored by two stages", "store earlier stages into workspaces");
    }
  }

  const Program& p_;
  const std::string& soc_;
  Kernel& k_;
  Diags& d_;
  StagedProgram* sp_ = nullptr;
};
}  // namespace

bool is_staged_program(const Program& p) {
  int loops = 0;
  for (const StmtPtr& s : p.body) {
    if (is_workspace(*s) || is_sync(*s)) return true;
    loops += is_blocks_loop(*s);
  }
  return loops > 1;
}

void check_staged(const Program& p, const std::string& soc, Kernel& k, Diags& d) { StagedChecker(p, soc, k, d).run(); }
}  // namespace kgen::tile
