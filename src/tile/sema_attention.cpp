// check (attention programs): blocks(*batch, s) over query rows, `mma(q[blk, d], k[t, d])` (the scores), a chain of
// row operations (scale, causal_mask, where(mask), softmax) and `store(y[blk, e], mma(p, v[t, e]))` into k.attn.
#include <algorithm>
#include <fmt/format.h>

#include "tile/attention.h"

namespace kgen::tile {
namespace {

const char* kShape =
    "for blk in blocks(bh, s):\n        scores = mma(q[blk, d], k[t, d]) / sqrt(d)\n        p = softmax(scores)\n"
    "        store(y[blk, e], mma(p, v[t, e]))";
const char* kRowForms =
    "the scores take: * or / a scalar, causal_mask(x), where(load(mask[b, t]), x, -inf), softmax(x)";

bool mentions_softmax(const Expr& e) {
  if (e.kind == ExprKind::Call && e.text == "softmax") return true;
  for (const ExprPtr& a : e.args)
    if (a && mentions_softmax(*a)) return true;
  for (const auto& kw : e.kwargs)
    if (kw.second && mentions_softmax(*kw.second)) return true;
  return false;
}

class AttnChecker {
 public:
  AttnChecker(const Program& p, Kernel& k, Diags& d) : p_(p), k_(k), d_(d) {}

  void run() {
    k_.cube = k_.attention = true;
    const Stmt* loop = nullptr;
    for (const StmtPtr& s : p_.body) {
      if (s->kind == StmtKind::For && !loop) {
        loop = s.get();
        continue;
      }
      d_.error(s->range, loop ? "a statement after the blocks loop" : "a statement before the blocks loop",
               "an attention program is one blocks loop:\n    " + std::string(kShape));
    }
    if (!loop || !blocks(*loop)) return;
    body(*loop);
    if (!d_.has_errors()) tensors();
  }

 private:
  Attention& at() { return k_.attn; }

  // for blk in blocks(*batch, s): the batch dims of q, then its query rows.
  bool blocks(const Stmt& s) {
    const Expr* it = s.value.get();
    if (s.loop_vars.size() != 1) {
      d_.error(s.range, "a blocks loop has one loop variable", "for blk in blocks(bh, s):");
      return false;
    }
    at().block_var = s.loop_vars[0];
    for (size_t i = 0; i < it->kwargs.size(); ++i)
      d_.error(it->kwarg_ranges[i], "blocks() has no option '" + it->kwargs[i].first + "'",
               "the block of query rows is chosen by the host for the core count");
    if (it->args.empty()) {
      d_.error(it->range, "blocks() of an attention program takes q's batch dims and its query rows",
               "for blk in blocks(bh, s):  (q: T[*bh, s, d])");
      return false;
    }
    for (const ExprPtr& a : it->args) {
      int sym = a->kind == ExprKind::Name ? sym_index(k_, a->text) : -1;
      if (sym < 0) {
        d_.error(a->range, "blocks() takes dim names of the inputs", "for blk in blocks(bh, s):  (q: T[*bh, s, d])");
        return false;
      }
      at().batch_syms.push_back(sym);
    }
    at().s_sym = at().batch_syms.back();
    at().batch_syms.pop_back();
    blocks_range_ = it->range;
    return true;
  }

  void body(const Stmt& loop) {
    for (const StmtPtr& st : loop.body) {
      if (stored_) {
        d_.error(st->range, "a statement after the store", "the store of mma(p, v[t, e]) ends the block");
        continue;
      }
      if (st->kind == StmtKind::Assign) {
        if (row_value(*st->value)) {
          names_.push_back(st->target);
          head_ = st->target;
        }
        continue;
      }
      if (st->kind == StmtKind::Expr && st->value->kind == ExprKind::Call && st->value->text == "store") {
        store(*st->value);
        continue;
      }
      d_.error(st->range, "an attention block is `name = ...` statements and one store", kShape);
    }
    if (!stored_) d_.error(loop.range, "the block is never stored", "end the block with store(y[blk, e], mma(p, v[t, e]))");
  }

  // A value of the row chain: the scores, or one row operation of the previous value.
  bool row_value(const Expr& e) {
    if (e.kind == ExprKind::Name) {
      if (e.text == head_ && !head_.empty()) return true;
      if (std::find(names_.begin(), names_.end(), e.text) != names_.end())
        d_.error(e.range, "'" + e.text + "' is an earlier value of the row chain",
                 "each row operation applies to the latest value, '" + head_ + "'");
      else d_.error(e.range, "unknown name '" + e.text + "'", head_.empty() ? kShape : "use '" + head_ + "'");
      return false;
    }
    if (e.kind == ExprKind::Call && e.text == "mma") return scores(e);
    if (softmaxed_) {
      d_.error(e.range, "no row operation after the softmax", "the softmax's probabilities go to mma(p, v[t, e])");
      return false;
    }
    if (e.kind == ExprKind::Binary && (e.text == "*" || e.text == "/")) {
      const bool left_scalar = is_scalar(*e.args[0]);
      if (left_scalar && e.text == "/") {
        d_.error(e.range, "a scalar divided by the scores", "scale the scores: scores / sqrt(d) or scores * scale");
        return false;
      }
      const Expr& tile = left_scalar ? *e.args[1] : *e.args[0];
      const Expr& sc = left_scalar ? *e.args[0] : *e.args[1];
      if (!row_value(tile)) return false;
      std::string h;
      if (!host_scalar(sc, h)) return false;
      at().ops.push_back({AttnOp::Scale, e.text == "/" ? "1.0 / (" + h + ")" : h, -1, print_expr(e)});
      return true;
    }
    if (e.kind == ExprKind::Call && e.text == "causal_mask") {
      if (e.args.size() != 1 || !e.kwargs.empty()) {
        d_.error(e.range, "causal_mask takes the scores", "masked = causal_mask(scores)");
        return false;
      }
      if (!row_value(*e.args[0])) return false;
      at().ops.push_back({AttnOp::Causal, "", -1, print_expr(e)});
      return true;
    }
    if (e.kind == ExprKind::Call && e.text == "where") return key_mask(e);
    if (e.kind == ExprKind::Call && e.text == "softmax") {
      if (e.args.size() != 1) {
        d_.error(e.range, "softmax takes the scores", "p = softmax(scores)  (along each row: the keys)");
        return false;
      }
      for (size_t i = 0; i < e.kwargs.size(); ++i) {
        const Expr& v = *e.kwargs[i].second;
        const bool last = v.kind == ExprKind::Number ? v.number == 1 :
                          v.kind == ExprKind::Unary && v.args[0]->kind == ExprKind::Number && v.args[0]->number == 1;
        if (e.kwargs[i].first != "axis" || !last)
          d_.error(e.kwarg_ranges[i], "softmax of attention scores runs along the keys only", "softmax(x) or softmax(x, axis=1)");
      }
      if (!row_value(*e.args[0])) return false;
      at().ops.push_back({AttnOp::Softmax, "", -1, print_expr(e)});
      softmaxed_ = true;
      return true;
    }
    d_.error(e.range, "not an operation of attention scores", kRowForms);
    return false;
  }

  // where(load(mask[b, t]), x, -inf): keys whose mask is false get -inf.
  bool key_mask(const Expr& e) {
    const char* hint = "where(load(key_mask[b, t]), scores, -inf)  (key_mask: bool[b, t], true = attend)";
    if (e.args.size() != 3 || e.args[0]->kind != ExprKind::Call || e.args[0]->text != "load" ||
        e.args[0]->args.size() != 1 || e.args[0]->args[0]->kind != ExprKind::Subscript) {
      d_.error(e.range, "a mask of the scores is where(load(mask[...]), scores, -inf)", hint);
      return false;
    }
    const Expr& fill = *e.args[2];
    const bool neg_inf = fill.kind == ExprKind::Unary && fill.text == "-" && fill.args[0]->kind == ExprKind::Number &&
                         std::isinf(fill.args[0]->number);
    if (!neg_inf) {
      d_.error(fill.range, "masked scores are filled with -inf", hint);
      return false;
    }
    const Expr& sub = *e.args[0]->args[0];
    const int t = tensor_index(k_, sub.args[0]->text);
    if (t < 0 || k_.tensors[t].output || k_.tensors[t].type.var >= 0 || k_.tensors[t].type.fixed != DType::Bool) {
      d_.error(sub.args[0]->range, "the mask is a bool input", hint);
      return false;
    }
    mask_subs_.push_back(&sub);
    if (!row_value(*e.args[1])) return false;
    at().ops.push_back({AttnOp::KeyMask, "", t, print_expr(e)});
    return true;
  }

  bool is_scalar(const Expr& e) const {
    if (e.kind == ExprKind::Number) return true;
    if (e.kind == ExprKind::Name) return attr_index(k_, e.text) >= 0 || (sym_index(k_, e.text) >= 0 && tensor_index(k_, e.text) < 0);
    if (e.kind == ExprKind::Call) return e.text != "mma" && e.text != "softmax" && e.text != "causal_mask" &&
                                         e.text != "where" && e.text != "load" && !e.args.empty() && is_scalar(*e.args[0]);
    for (const ExprPtr& a : e.args)
      if (!is_scalar(*a)) return false;
    return e.kind == ExprKind::Binary || e.kind == ExprKind::Unary;
  }

  // A scalar of numbers, attrs and dims as a C++ double expression of the TilingFunc (host_scalar_expr below).
  bool host_scalar(const Expr& e, std::string& out) { return host_scalar_expr(k_, e, out, d_, "not a scale of the scores"); }

  // mma(q[blk, d], k[t, d]): the scores; the names of the indices are checked with the tensors.
  bool scores(const Expr& e) {
    if (at().q >= 0) {
      d_.error(e.range, "the scores are computed once per block", "scores = mma(q[blk, d], k[t, d]) starts the chain");
      return false;
    }
    if (!operands(e, "mma(q[blk, d], k[t, d])")) return false;
    q_sub_ = e.args[0].get();
    k_sub_ = e.args[1].get();
    at().q = tensor_index(k_, q_sub_->args[0]->text);
    at().k = tensor_index(k_, k_sub_->args[0]->text);
    at().scores_text = print_expr(e);
    return true;
  }
  bool operands(const Expr& e, const char* hint) {
    if (e.args.size() != 2 || !e.kwargs.empty()) {
      d_.error(e.range, "mma takes two operands", hint);
      return false;
    }
    for (const ExprPtr& a : e.args) {
      if (a->kind != ExprKind::Subscript || a->args.size() != 3 || tensor_index(k_, a->args[0]->text) < 0 ||
          k_.tensors[tensor_index(k_, a->args[0]->text)].output) {
        d_.error(a->range, "an operand of the scores is an input indexed by two dim names", hint);
        return false;
      }
    }
    return true;
  }

  // store(y[blk, e], mma(p, v[t, e])): O = P V.
  void store(const Expr& call) {
    stored_ = true;
    const char* hint = "store(y[blk, e], mma(p, v[t, e]))";
    if (call.args.size() != 2 || call.args[0]->kind != ExprKind::Subscript || call.args[0]->args.size() != 3 ||
        call.args[1]->kind != ExprKind::Call || call.args[1]->text != "mma" || call.args[1]->args.size() != 2) {
      d_.error(call.range, "an attention block stores mma(p, v[t, e])", hint);
      return;
    }
    const Expr& mma = *call.args[1];
    if (!row_value(*mma.args[0])) return;
    if (!softmaxed_) {
      d_.error(mma.args[0]->range, "the probabilities of mma(p, v) are a softmax of the scores", "p = softmax(scores)");
      return;
    }
    const Expr& vs = *mma.args[1];
    if (vs.kind != ExprKind::Subscript || vs.args.size() != 3 || tensor_index(k_, vs.args[0]->text) < 0) {
      d_.error(vs.range, "the values are an input indexed by two dim names", hint);
      return;
    }
    v_sub_ = &vs;
    y_sub_ = call.args[0].get();
    at().v = tensor_index(k_, vs.args[0]->text);
    at().y = tensor_index(k_, y_sub_->args[0]->text);
    at().out_text = print_expr(call);
    if (at().y < 0 || !k_.tensors[at().y].output) {
      d_.error(y_sub_->args[0]->range, "the block is stored into an output", hint);
      at().y = -1;
    }
  }

  // --- the tensors against their indices ------------------------------------------------------------------------
  std::string dim_name(const TensorArg& t, size_t from_end) const {
    return from_end < t.dims.size() ? t.dims[t.dims.size() - 1 - from_end].name : std::string();
  }
  std::vector<std::string> leading(const TensorArg& t) const {
    std::vector<std::string> v;
    for (size_t i = 0; i + 2 < t.dims.size(); ++i) v.push_back(t.dims[i].name);
    return v;
  }
  // The index at `pos` of `sub` must name the dim `want` of its tensor (two from the end: pos 1, last: pos 2).
  bool index_is(const Expr& sub, size_t pos, const std::string& want, const std::string& what) {
    const Expr& ix = *sub.args[pos];
    const TensorArg& t = k_.tensors[tensor_index(k_, sub.args[0]->text)];
    const std::string stored = dim_name(t, 2 - pos);
    const std::string dim = want == at().block_var ? k_.syms[at().s_sym].name : want;   // blk stands for s
    if (ix.kind == ExprKind::Name && ix.text == want && stored == dim) return true;
    d_.error(ix.range,
             fmt::format("index '{}' at dim '{}' of '{}': expected '{}' ({})", print_expr(ix), stored.empty() ? "?" : stored,
                         t.name, want, what),
             "operands are indexed in the order they are stored: q[blk, d], k[t, d], v[t, e], y[blk, e]");
    return false;
  }

  void tensors() {
    Attention& a = at();
    const TensorArg &q = k_.tensors[a.q], &kk = k_.tensors[a.k], &v = k_.tensors[a.v], &y = k_.tensors[a.y];
    for (const TensorArg* t : {&q, &kk, &v, &y})
      if (t->dims.size() < 2 || dim_name(*t, 0).empty() || dim_name(*t, 1).empty()) {
        d_.error(t->range, "'" + t->name + "' needs two named trailing dims (rows, head dim)", "q: T[*bh, s, d]");
        return;
      }
    const std::string s = k_.syms[a.s_sym].name, d = dim_name(q, 0), tk = dim_name(kk, 1), e = dim_name(v, 0);
    if (dim_name(q, 1) != s) {
      d_.error(blocks_range_, "the last dim of blocks() is q's query rows '" + dim_name(q, 1) + "'",
               "for blk in blocks(bh, " + dim_name(q, 1) + "):");
      return;
    }
    if (!index_is(*q_sub_, 1, a.block_var, "the block of query rows") || !index_is(*q_sub_, 2, d, "the head dim") ||
        !index_is(*k_sub_, 1, tk, "the keys") || !index_is(*k_sub_, 2, d, "the head dim (k[t, d]: k is read transposed)") ||
        !index_is(*v_sub_, 1, tk, "the keys of k") || !index_is(*v_sub_, 2, e, "the value dim") ||
        !index_is(*y_sub_, 1, a.block_var, "the block of query rows") || !index_is(*y_sub_, 2, e, "v's last dim"))
      return;
    a.t_sym = sym_index(k_, tk);
    a.d_sym = sym_index(k_, d);
    a.e_sym = sym_index(k_, e);
    // batch dims: blocks() lists q's leading dims; y has them; k and v have them but for a group dim (GQA) last
    std::vector<std::string> names;
    for (int sym : a.batch_syms) names.push_back(k_.syms[sym].name);
    if (leading(q) != names) {
      d_.error(blocks_range_, "blocks() lists q's batch dims, then its query rows", "for blk in blocks(" + [&] {
        std::string o;
        for (const auto& n : leading(q)) o += n + ", ";
        return o + s;
      }() + "):");
      return;
    }
    if (leading(y) != names) d_.error(y.range, "the output has q's batch dims", "y: T[*bh, s, e]");
    if (leading(v) != leading(kk)) d_.error(v.range, "v has k's batch dims", "k: T[*bh, t, d], v: T[*bh, t, e]");
    std::vector<std::string> kl = leading(kk);
    if (kl != names) {
      if (kl.size() != names.size() || names.size() < 2 ||
          !std::equal(kl.begin(), kl.end() - 1, names.begin()) || q.dims[q.dims.size() - 3].star) {
        d_.error(kk.range, "k has q's batch dims, or a group of heads as its last batch dim",
                 "q: T[b, h, s, d], k: T[b, g, t, d]  (grouped-query: query head i uses key head i / (h / g))");
        return;
      }
      a.group_sym = sym_index(k_, kl.back());
    }
    for (const Expr* sub : mask_subs_) mask(*sub, names);
    if (q.type != kk.type || q.type != v.type || q.type != y.type)
      d_.error(y.range, "q, k, v and the output share one dtype", "q: T[...], k: T[...], v: T[...] -> (y: T[...])");
    const std::vector<DType> types = q.type.var >= 0 ? k_.dtype_vars[q.type.var].types : std::vector<DType>{q.type.fixed};
    for (DType t : types)
      if (t != DType::F32 && t != DType::F16 && t != DType::BF16)
        d_.error(q.range, std::string("the cube multiplies f32, f16 and bf16, not ") + dtype_name(t), "dtype T in (f32, f16, bf16)");
  }

  // mask[b..., t]: a prefix of q's batch dims (the batch, not the heads), then the keys.
  void mask(const Expr& sub, const std::vector<std::string>& names) {
    const TensorArg& m = k_.tensors[tensor_index(k_, sub.args[0]->text)];
    const std::string tk = k_.syms[at().t_sym].name;
    bool ok = m.dims.size() >= 2 && m.dims.back().name == tk && m.dims.size() - 1 < names.size() + 1;
    for (size_t i = 0; ok && i + 1 < m.dims.size(); ++i) ok = i < names.size() && m.dims[i].name == names[i] && !m.dims[i].star;
    if (!ok) {
      d_.error(m.range, "a key mask is [b, " + tk + "]: leading batch dims of q, then the keys",
               "key_mask: bool[b, " + tk + "] with q: T[b, h, s, d]");
      return;
    }
    for (size_t i = 1; i < sub.args.size(); ++i) {
      const Expr& ix = *sub.args[i];
      if (sub.args.size() != m.dims.size() + 1 || ix.kind != ExprKind::Name || ix.text != m.dims[i - 1].name)
        d_.error(ix.range, "the mask is indexed by its own dims, in order", "load(" + m.name + "[" + [&] {
          std::string o;
          for (size_t j = 0; j < m.dims.size(); ++j) o += (j ? ", " : "") + m.dims[j].name;
          return o;
        }() + "])");
    }
  }

  const Program& p_;
  Kernel& k_;
  Diags& d_;
  Range blocks_range_;
  std::string head_;
  std::vector<std::string> names_;
  bool softmaxed_ = false, stored_ = false;
  const Expr *q_sub_ = nullptr, *k_sub_ = nullptr, *v_sub_ = nullptr, *y_sub_ = nullptr;
  std::vector<const Expr*> mask_subs_;
};
}  // namespace

bool is_attention_program(const Program& p) {
  for (const StmtPtr& s : p.body) {
    if (s->kind != StmtKind::For || !s->value || s->value->kind != ExprKind::Call || s->value->text != "blocks") continue;
    bool softmax = false;
    for (const StmtPtr& b : s->body) {
      if (b->kind == StmtKind::For) return false;   // a K loop: a cube matmul program
      softmax |= b->value && mentions_softmax(*b->value);
    }
    return softmax;
  }
  return false;
}

void check_attention(const Program& p, Kernel& k, Diags& d) { AttnChecker(p, k, d).run(); }

bool host_scalar_expr(const Kernel& k, const Expr& e, std::string& out, Diags& d, const std::string& what) {
  const char* hint = "a scalar of numbers, attrs and dims: sqrt(d), 0.125, scale, 1.0 / sqrt(d)";
  auto rec = [&](const Expr& x, std::string& o) { return host_scalar_expr(k, x, o, d, what); };
  switch (e.kind) {
    case ExprKind::Number: out = fmt::format("{:.17g}", e.number); return true;
    case ExprKind::Name: {
      if (int a = attr_index(k, e.text); a >= 0) {
        out = fmt::format("static_cast<double>(*attr{}Ptr)", a);
        return true;
      }
      if (sym_index(k, e.text) >= 0) {
        out = "static_cast<double>(d_" + camel_lower(e.text) + ")";
        return true;
      }
      d.error(e.range, "'" + e.text + "' is not an attr or a dim", hint);
      return false;
    }
    case ExprKind::Unary: {
      std::string a;
      if (e.text != "-" || !rec(*e.args[0], a)) break;
      out = "(-" + a + ")";
      return true;
    }
    case ExprKind::Binary: {
      std::string a, b;
      if (!rec(*e.args[0], a) || !rec(*e.args[1], b)) return false;
      if (e.text == "**") out = "std::pow(" + a + ", " + b + ")";
      else if (e.text == "+" || e.text == "-" || e.text == "*" || e.text == "/") out = "(" + a + " " + e.text + " " + b + ")";
      else break;
      return true;
    }
    case ExprKind::Call: {
      std::string a;
      if (e.args.size() != 1 || !e.kwargs.empty()) break;
      if (e.text != "sqrt" && e.text != "rsqrt" && e.text != "exp" && e.text != "log") break;
      if (!rec(*e.args[0], a)) return false;
      out = e.text == "rsqrt" ? "(1.0 / std::sqrt(" + a + "))" : "std::" + e.text + "(" + a + ")";
      return true;
    }
    default: break;
  }
  d.error(e.range, what, hint);
  return false;
}

std::string print_attention(const Kernel& k) {
  const Attention& a = k.attn;
  auto tn = [&](int t) { return t >= 0 ? k.tensors[t].name : std::string("?"); };
  auto sn = [&](int s) { return s >= 0 ? k.syms[s].name : std::string("-"); };
  std::string batch;
  for (int s : a.batch_syms) batch += sn(s) + ", ";
  std::string o = fmt::format("attention kernel {} ({})\n", k.name, k.op_type);
  o += fmt::format("  blocks: {} over ({}{}) query rows, keys {}, head dim {}, value dim {}{}\n", a.block_var, batch,
                   sn(a.s_sym), sn(a.t_sym), sn(a.d_sym), sn(a.e_sym),
                   a.group_sym >= 0 ? ", k/v heads " + sn(a.group_sym) : "");
  o += fmt::format("  cube: S = {} @ {}^T -> f32 workspace\n", tn(a.q), tn(a.k));
  for (const AttnOp& op : a.ops) {
    const char* names[] = {"scale", "causal", "key_mask", "softmax"};
    o += fmt::format("  vector: {}{}{}  # {}\n", names[op.kind], op.host_expr.empty() ? "" : " " + op.host_expr,
                     op.tensor >= 0 ? " " + tn(op.tensor) : "", op.text);
  }
  o += fmt::format("  cube: {} <- P @ {}\n", tn(a.y), tn(a.v));
  return o;
}
}  // namespace kgen::tile
