// check (cube programs): the shape of a matmul program — blocks(...) over the output, an f32 accumulator, tiles(k)
// with one mma, the store — and which operand is stored transposed, read from the order of its indices.
#include <algorithm>
#include <fmt/format.h>

#include "tile/cube.h"
#include "tile/staged.h"

namespace kgen::tile {
namespace {

const char* kShape =
    "for blk in blocks(m, n):\n        acc = zeros(f32)\n        for kt in tiles(k):\n            acc += mma(a[blk, kt], "
    "b[kt, blk])\n        store(c[blk], acc)";

class CubeChecker {
 public:
  CubeChecker(const Program& p, const std::string& soc, Kernel& k, Diags& d) : p_(p), soc_(soc), k_(k), d_(d) {}

  void run() {
    k_.cube = true;
    const Stmt* loop = nullptr;
    for (const StmtPtr& s : p_.body) {
      if (s->kind == StmtKind::For && !loop) {
        loop = s.get();
        continue;
      }
      d_.error(s->range, loop ? "a statement after the blocks loop" : "a statement before the blocks loop",
               "a cube program is one blocks loop:\n    " + std::string(kShape));
    }
    if (!loop) return;
    if (!blocks(*loop)) return;
    block_body(*loop);
    dtypes();
    if (stored_ && mm().c >= 0 && !d_.has_errors()) check_cube_epilogue(epi_, *stored_, k_, d_);
  }

  // One blocks loop on its own: a stage of a staged program (src/tile/sema_staged.cpp).
  void run_loop(const Stmt& loop) {
    k_.cube = true;
    if (!blocks(loop)) return;
    block_body(loop);
    dtypes();
    if (stored_ && mm().c >= 0 && !d_.has_errors()) check_cube_epilogue(epi_, *stored_, k_, d_);
  }

 private:
  std::vector<std::string> sym_names() const {
    std::vector<std::string> v;
    for (const Sym& s : k_.syms) v.push_back(s.name);
    return v;
  }
  int dim_sym(const Expr& e, const char* what) {
    if (e.kind != ExprKind::Name) {
      d_.error(e.range, std::string(what) + " takes dim names", "blocks(m, n), blocks(batch, m, n), tiles(k)");
      return -1;
    }
    int s = sym_index(k_, e.text);
    if (s < 0) {
      std::string c = closest(e.text, sym_names());
      d_.error(e.range, "'" + e.text + "' is not a dim of any input",
               c.empty() ? "use the dim names of the inputs' types" : "did you mean '" + c + "'?");
    }
    return s;
  }

  // blocks(batch, m, h * w): the output's columns are several trailing dims of b and c (a 1x1 conv's pixels), one
  // merged dim 'h_w' = h * w read from the input that binds them; they must be adjacent there, in this order.
  int merged_sym(const Expr& e) {
    std::vector<const Expr*> parts;
    std::function<bool(const Expr&)> flatten = [&](const Expr& x) {
      if (x.kind == ExprKind::Binary && x.text == "*" && x.args.size() == 2) return flatten(*x.args[0]) && flatten(*x.args[1]);
      if (x.kind != ExprKind::Name) return false;
      parts.push_back(&x);
      return true;
    };
    if (!flatten(e)) {
      d_.error(e.range, "a merged dim of blocks() is a product of dim names", "blocks(batch, m, h * w)");
      return -1;
    }
    std::vector<int> syms;
    for (const Expr* x : parts) syms.push_back(dim_sym(*x, "blocks()"));
    if (std::count(syms.begin(), syms.end(), -1) > 0) return -1;
    std::string joined;
    bool adjacent = true;
    for (size_t i = 0; i < syms.size(); ++i) {
      const Sym& y = k_.syms[syms[i]];
      joined += (i ? "_" : "") + y.name;
      adjacent &= !y.star && y.part < 0 && y.tensor == k_.syms[syms[0]].tensor &&
                  y.first == k_.syms[syms[0]].first - static_cast<int>(i);
    }
    if (!adjacent || sym_index(k_, joined) >= 0) {
      d_.error(e.range, "the dims " + print_expr(e) + " cannot be merged into the output's columns",
               sym_index(k_, joined) >= 0 ? "'" + joined + "' is already a dim: rename it"
                                   : "they must be the last dims of one input, in this order (x: T[batch, k, h, w])");
      return -1;
    }
    merged_.clear();
    for (const Expr* x : parts) merged_.push_back(x->text);
    merged_name_ = joined;
    k_.syms.push_back({joined, k_.syms[syms[0]].tensor, k_.syms[syms[0]].first, k_.syms[syms.back()].last, false});
    return static_cast<int>(k_.syms.size()) - 1;
  }
  // A tensor's dims with the merged run (h, w) as one dim named h_w.
  std::vector<Dim> collapse(const std::vector<Dim>& ds) const {
    std::vector<Dim> o;
    for (size_t i = 0; i < ds.size(); ++i) {
      bool run = !merged_.empty() && i + merged_.size() <= ds.size();
      for (size_t j = 0; run && j < merged_.size(); ++j) run = ds[i + j].name == merged_[j];
      o.push_back(ds[i]);
      if (!run) continue;
      o.back().name = merged_name_;
      i += merged_.size() - 1;
    }
    return o;
  }

  // for blk in blocks([batch,] m[, n]): the output blocks, split over the cores.
  bool blocks(const Stmt& s) {
    const Expr* it = s.value.get();
    if (s.loop_vars.size() != 1) {
      d_.error(s.range, "a blocks loop has one loop variable", "for blk in blocks(m, n):");
      return false;
    }
    mm().block_var = s.loop_vars[0];
    if (!it || it->kind != ExprKind::Call || it->text != "blocks") {
      d_.error(it ? it->range : s.range, "the outer loop of a cube program iterates over blocks(...)",
               "for blk in blocks(m, n):  (the output's blocks, split over the cube cores)");
      return false;
    }
    for (size_t i = 0; i < it->kwargs.size(); ++i)
      d_.error(it->kwarg_ranges[i], "blocks() has no option '" + it->kwargs[i].first + "'",
               "the block sizes are chosen by the host for the SoC's L0/L1 and the core count");
    if (it->args.empty() || it->args.size() > 3) {
      d_.error(it->range, "blocks() takes the output's dims: blocks(m, n), blocks(batch, m, n) or blocks(m) (a vector)",
               "for blk in blocks(m, n):");
      return false;
    }
    std::vector<int> syms;
    for (const ExprPtr& a : it->args)
      syms.push_back(a->kind == ExprKind::Binary && a->text == "*" ? merged_sym(*a) : dim_sym(*a, "blocks()"));
    if (std::count(syms.begin(), syms.end(), -1) > 0) return false;
    const size_t n = syms.size();
    if (n == 3) mm().batch_sym = syms[0];
    if (n == 1) {
      mm().m_sym = syms[0];
      mm().vec_b = true;
    } else {
      mm().m_sym = syms[n - 2];
      mm().n_sym = syms[n - 1];
    }
    blocks_range_ = it->range;
    return true;
  }

  void block_body(const Stmt& loop) {
    const auto& body = loop.body;
    size_t i = 0;
    // acc = zeros(f32)
    if (i < body.size() && body[i]->kind == StmtKind::Assign) accumulator(*body[i++]);
    else d_.error(body.empty() ? loop.range : body[0]->range, "the block has no accumulator",
                  "start the block with acc = zeros(f32): the L0C accumulator of the output block");
    // for kt in tiles(k): acc += mma(...)
    if (i < body.size() && body[i]->kind == StmtKind::For) k_loop(*body[i++]);
    else d_.error(i < body.size() ? body[i]->range : loop.range, "the block has no K loop",
                  "for kt in tiles(k):\n                acc += mma(a[blk, kt], b[kt, blk])");
    // the epilogue's values: h = ... (elementwise, on the vector cores)
    while (i < body.size() && body[i]->kind == StmtKind::Assign) epi_.push_back(body[i++].get());
    // store(c[blk], acc)
    if (i < body.size() && body[i]->kind == StmtKind::Expr) store(*body[i++]);
    else d_.error(i < body.size() ? body[i]->range : loop.range, "the block is never stored",
                  "end the block with store(c[" + mm().block_var + "], " + (mm().acc.empty() ? "acc" : mm().acc) + ")");
    for (; i < body.size(); ++i)
      d_.error(body[i]->range, "a statement after the block's store",
               "a cube program's block is: the accumulator, the K loop, the epilogue's values, the store");
  }

  void accumulator(const Stmt& s) {
    mm().acc = s.target;
    const Expr* v = s.value.get();
    if (!v || v->kind != ExprKind::Call || v->text != "zeros") {
      d_.error(v ? v->range : s.range, "the accumulator starts from zeros(f32)",
               s.target + " = zeros(f32)   # the block's accumulator in L0C");
      return;
    }
    if (v->args.size() != 1 || v->args[0]->kind != ExprKind::Name || v->args[0]->text != "f32") {
      d_.error(v->args.empty() ? v->range : v->args[0]->range, "the cube accumulates in f32",
               "zeros(f32): Mmad adds f32, f16 and bf16 products into float32");
    }
  }

  void k_loop(const Stmt& s) {
    const Expr* it = s.value.get();
    if (s.loop_vars.size() == 1) mm().k_var = s.loop_vars[0];
    if (!it || it->kind != ExprKind::Call || it->text != "tiles" || it->args.size() != 1 || s.loop_vars.size() != 1) {
      d_.error(it ? it->range : s.range, "the K loop iterates over tiles(k) of the reduced dim",
               "for kt in tiles(k):");
      return;
    }
    const int ks = dim_sym(*it->args[0], "tiles()");
    mm().k_sym = ks;
    for (size_t i = 0; i < it->kwargs.size(); ++i) {
      const Expr& v = *it->kwargs[i].second;
      if (it->kwargs[i].first == "tile" && v.kind == ExprKind::Name && v.text == "auto") continue;
      if (it->kwargs[i].first == "tile" && v.kind == ExprKind::Number && v.is_int && v.number >= 16 &&
          static_cast<int64_t>(v.number) % 16 == 0) {
        mm().k_tile = static_cast<int>(v.number);
        continue;
      }
      d_.error(it->kwarg_ranges[i], "tiles(k) of a cube program takes tile=auto or tile=INT (a multiple of 16)",
               "the K tile is the base block's k: leave it to the host (auto) unless you measured better");
    }
    if (ks >= 0 && (ks == mm().m_sym || ks == mm().n_sym || ks == mm().batch_sym))
      d_.error(it->args[0]->range, "'" + it->args[0]->text + "' is a dim of the output blocks",
               "the K loop runs over the reduced dim: the one a and b share and c has not");
    if (s.body.size() != 1 || s.body[0]->kind != StmtKind::AugAssign) {
      d_.error(s.body.empty() ? s.range : s.body[0]->range, "the K loop's body is one mma accumulation",
               mm().acc + " += mma(a[" + mm().block_var + ", " + mm().k_var + "], b[" + mm().k_var + ", " +
                   mm().block_var + "])");
      return;
    }
    mma(*s.body[0]);
  }

  void mma(const Stmt& s) {
    if (s.target != mm().acc || s.op != "+=")
      d_.error(s.target_range, "the K loop adds into the accumulator '" + mm().acc + "'",
               mm().acc + " += mma(...)");
    const Expr* v = s.value.get();
    if (!v || v->kind != ExprKind::Call || v->text != "mma" || v->args.size() != 2 || !v->kwargs.empty()) {
      d_.error(v ? v->range : s.range, "the accumulation is mma(A, B) of two operand tiles",
               "mma(a[blk, kt], b[kt, blk]); a stored [k, m] is a[kt, blk], b stored [n, k] is b[blk, kt]");
      return;
    }
    mm().mma_text = print_expr(*v);
    operand(*v->args[0], true);
    operand(*v->args[1], false);
  }

  // The operand's tensor and its two (or, for a vector b, one) indices: which stored dim is k decides the transpose.
  void operand(const Expr& e, bool is_a) {
    const char* which = is_a ? "the left operand" : "the right operand";
    if (e.kind != ExprKind::Subscript || e.args.empty() || e.args[0]->kind != ExprKind::Name) {
      d_.error(e.range, std::string(which) + " of mma is a tensor indexed by the block and the K tile",
               is_a ? "a[blk, kt]" : "b[kt, blk]");
      return;
    }
    const int ti = tensor_index(k_, e.args[0]->text);
    if (ti < 0 || k_.tensors[ti].output) {
      std::vector<std::string> ins;
      for (const TensorArg& t : k_.tensors)
        if (!t.output) ins.push_back(t.name);
      std::string c = closest(e.args[0]->text, ins);
      d_.error(e.args[0]->range, "'" + e.args[0]->text + "' is not an input tensor",
               c.empty() ? "mma reads two inputs" : "did you mean '" + c + "'?");
      return;
    }
    (is_a ? mm().a : mm().b) = ti;
    if (k_.tensors[ti].optional)
      d_.error(e.args[0]->range, "'" + e.args[0]->text + "' is optional (= None) but mma always reads it",
               "only the epilogue's loads may be optional: drop '= None'");
    const TensorArg& t = k_.tensors[ti];
    const std::vector<Dim> td = collapse(t.dims);   // h, w of blocks(batch, m, h * w) as one dim
    std::vector<const Dim*> dims;   // the matrix dims: all but a leading batch
    bool batched = false;
    for (size_t i = 0; i < td.size(); ++i) {
      if (i == 0 && mm().batch_sym >= 0 && td[i].name == k_.syms[mm().batch_sym].name && td.size() >= 2) {
        batched = true;
        continue;
      }
      if (td[i].name.empty() && td[i].value == 1) continue;   // a size-1 dim (a 1x1 kernel's) changes no offset
      dims.push_back(&td[i]);
    }
    (is_a ? mm().a_batched : mm().b_batched) = batched;
    const size_t nidx = e.args.size() - 1;
    const bool vec = !is_a && mm().vec_b;
    const size_t want = vec ? 1 : 2;
    if (nidx != want) {
      d_.error(e.range, fmt::format("{} takes {} index{} here", which, want, want == 1 ? "" : "es"),
               vec ? "a vector operand of blocks(m) is x[kt]" : is_a ? "a[blk, kt] (or a[kt, blk] when a is stored [k, m])"
                                                                     : "b[kt, blk] (or b[blk, kt] when b is stored [n, k])");
      return;
    }
    if (dims.size() != want) {
      d_.error(t.range, fmt::format("'{}' has {} matrix dims but mma reads it as {}", t.name, dims.size(),
                                    vec ? "a vector [k]" : "a matrix"),
               vec ? t.name + ": T[k]" : is_a ? t.name + ": T[m, k] (or T[*batch, m, k] with blocks(batch, m, n))"
                                              : t.name + ": T[k, n]");
      return;
    }
    const int other = is_a ? mm().m_sym : mm().n_sym;   // the block's dim this operand has
    int kpos = -1;
    for (size_t i = 0; i < nidx; ++i) {
      const Expr& ix = *e.args[i + 1];
      if (ix.kind != ExprKind::Name || (ix.text != mm().k_var && ix.text != mm().block_var)) {
        d_.error(ix.range, "an mma operand is indexed by the block '" + mm().block_var + "' and the K tile '" +
                               mm().k_var + "'",
                 is_a ? "a[blk, kt]" : "b[kt, blk]");
        return;
      }
      const Dim& dm = *dims[i];
      const bool is_k = ix.text == mm().k_var;
      const int want_sym = is_k ? mm().k_sym : other;
      if (want_sym < 0 || mm().k_sym < 0 || other < 0) return;   // the hint below names both dims
      const std::string& wn = k_.syms[want_sym].name;
      if (dm.name != wn) {
        d_.error(ix.range, fmt::format("index '{}' stands for dim '{}' of '{}', but that dim is '{}'", ix.text, wn, t.name,
                                       dm.name.empty() ? std::to_string(dm.value) : dm.name),
                 fmt::format("index the operand in its stored order: the K tile where '{}' has {}, the block where it "
                             "has {}",
                             t.name, k_.syms[mm().k_sym].name, k_.syms[other].name));
        return;
      }
      if (is_k) kpos = static_cast<int>(i);
    }
    if (kpos < 0) {
      d_.error(e.range, std::string(which) + " of mma has no K tile index", is_a ? "a[blk, kt]" : "b[kt, blk]");
      return;
    }
    if (!vec) (is_a ? mm().trans_a : mm().trans_b) = is_a ? kpos == 0 : kpos == 1;
  }

  // store(c[blk], acc): the whole block, converted from f32 to c's dtype by the copy out.
  void store(const Stmt& s) {
    const Expr* v = s.value.get();
    if (!v || v->kind != ExprKind::Call || v->text != "store" || v->args.size() != 2) {
      d_.error(v ? v->range : s.range, "the block ends with store(c[blk], acc)",
               "store(c[" + mm().block_var + "], " + mm().acc + ")");
      return;
    }
    mm().store_text = print_expr(*v);
    const Expr& dst = *v->args[0];
    if (dst.kind != ExprKind::Subscript || dst.args.size() != 2 || dst.args[0]->kind != ExprKind::Name ||
        dst.args[1]->kind != ExprKind::Name || dst.args[1]->text != mm().block_var) {
      d_.error(dst.range, "the store writes the output's block", "store(c[" + mm().block_var + "], " + mm().acc + ")");
      return;
    }
    const int ti = tensor_index(k_, dst.args[0]->text);
    if (ti < 0 || !k_.tensors[ti].output) {
      d_.error(dst.args[0]->range, "'" + dst.args[0]->text + "' is not an output", "store into an output after '->'");
      return;
    }
    mm().c = ti;
    stored_ = v->args[1].get();
    // The output's dims: [batch,] m, n (or [batch,] m for a vector product).
    std::vector<int> want;
    if (mm().batch_sym >= 0) want.push_back(mm().batch_sym);
    if (mm().m_sym >= 0) want.push_back(mm().m_sym);
    if (mm().n_sym >= 0) want.push_back(mm().n_sym);
    const TensorArg& c = k_.tensors[ti];
    const std::vector<Dim> cd = collapse(c.dims);
    bool same = cd.size() == want.size();
    for (size_t i = 0; same && i < want.size(); ++i) same = cd[i].name == k_.syms[want[i]].name;
    if (!same) {
      std::string w;
      for (int y : want) w += (w.empty() ? "" : ", ") + k_.syms[y].name;
      d_.error(c.range, "output '" + c.name + "' does not have the dims of blocks(...)",
               "the output of blocks(" + w + ") is " + c.name + ": T[" + w + "]");
    }
    for (size_t i = 0; i < k_.tensors.size(); ++i)
      if (k_.tensors[i].output && static_cast<int>(i) != ti)
        d_.error(k_.tensors[i].range, "a cube program has one output", "compute the other output in its own kernel");
  }

  // The operands' dtypes: one, and one the cube multiplies (f32, f16, bf16 into f32).
  void dtypes() {
    if (mm().a < 0 || mm().b < 0 || mm().c < 0) return;
    const TensorArg& a = k_.tensors[mm().a];
    const TensorArg& b = k_.tensors[mm().b];
    if (!(a.type == b.type)) {
      d_.error(b.range, "the operands of mma have different dtypes", "give both the same dtype variable: T");
      return;
    }
    // a left operand without the batch dim is shared by the batch's products (a 1x1 conv's weight)
    std::vector<DType> types;
    if (a.type.var >= 0) types = k_.dtype_vars[a.type.var].types;
    else types.push_back(a.type.fixed);
    for (DType t : types)
      if (t != DType::F32 && t != DType::F16 && t != DType::BF16)
        d_.error(a.range, std::string("the cube does not multiply ") + dtype_name(t) + " into f32",
                 "mma takes f32, f16 or bf16 operands");
      else if (t == DType::BF16 && soc_.find("310") != std::string::npos)
        d_.error(a.range, soc_ + "'s cube has no bfloat16", "drop bf16 for this SoC");
    const TensorArg& c = k_.tensors[mm().c];
    std::vector<DType> ctypes;
    if (c.type.var >= 0) ctypes = k_.dtype_vars[c.type.var].types;
    else ctypes.push_back(c.type.fixed);
    for (DType t : ctypes)
      if (t != DType::F32 && t != DType::F16 && t != DType::BF16)
        d_.error(c.range, std::string("the copy out converts f32 to f32, f16 or bf16, not ") + dtype_name(t),
                 "type the output T (the operands' dtype) or f32");
    // The Matmul API's combinations: A x A -> A or f32 (half x half -> half/float, float x float -> float only).
    if (a.type.var >= 0 && a.type.var == c.type.var) return;   // the same column: A -> A
    for (DType at : types)
      for (DType ct : ctypes) {
        if (at == ct || ct == DType::F32) continue;
        if (a.type.var >= 0 && c.type.var >= 0) continue;   // two variables: their columns pair up in the OpDef
        d_.error(stored_ ? stored_->range : c.range,
                 std::string("the cube multiplies ") + dtype_name(at) + " x " + dtype_name(at) + " into " +
                     (at == DType::F32 ? std::string("f32 only") : std::string(dtype_name(at)) + " or f32") +
                     ", not into " + dtype_name(ct) + " (" + c.name + ")",
                 std::string("store the product in float32 (an f32 output, or an f32 workspace rounded to ") + dtype_name(ct) +
                     " by a vector stage: store(y[r, :], load(yf[r, :], T)))");
        return;
      }
  }

  CubeMatmul& mm() { return k_.mm; }

  const Program& p_;
  const std::string& soc_;
  Kernel& k_;
  Diags& d_;
  Range blocks_range_;
  std::vector<std::string> merged_; // blocks(batch, m, h * w): the merged output dims (h, w), named merged_name_
  std::string merged_name_;
  std::vector<const Stmt*> epi_;   // the epilogue's assignments, between the K loop and the store
  const Expr* stored_ = nullptr;   // the stored value
};
}  // namespace

bool is_cube_program(const Program& p) {
  for (const StmtPtr& s : p.body)
    if (s->kind == StmtKind::For && s->value && s->value->kind == ExprKind::Call && s->value->text == "blocks")
      return true;
  return false;
}

void check_cube(const Program& p, const std::string& soc, Kernel& k, Diags& d) { CubeChecker(p, soc, k, d).run(); }

void check_cube_loop(const Stmt& loop, const std::string& soc, Kernel& k, Diags& d) {
  const Program none{};
  CubeChecker(none, soc, k, d).run_loop(loop);
}
}  // namespace kgen::tile
