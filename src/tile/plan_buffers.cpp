// plan_buffers: gives every tile value a place in the Unified Buffer. Loads land in an input queue per tensor (a
// resident buffer before the loop), stores leave from an output queue per tensor, the value a store takes is computed
// straight into its queue when the dtypes allow, and temporaries share buffers when their lifetimes do not overlap.
#include "tile/passes.h"

#include <algorithm>

namespace kgen::tile {
namespace {

std::string fmt_name(const char* prefix, int id) { return prefix + std::to_string(id); }

bool needs_math_tmp(const Instr& in) {
  static const char* fns[] = {"sigmoid", "tanh", "erf", "gelu", "gelu_tanh", "silu", "softplus", "elu", "pow"};
  if (in.op != Op::Unary && in.op != Op::UnaryScalar) return false;
  return std::find(std::begin(fns), std::end(fns), in.fn) != std::end(fns);
}
// Scratch of a tile's size (kt::Softplus, kt::Elu).
bool needs_work(const Instr& in) {
  return (in.op == Op::Unary && in.fn == "softplus") || (in.op == Op::UnaryScalar && in.fn == "elu");
}
// Scratch of the row helpers: kt::RowReduceWorkElems (a repeat per row) or kt::RowBroadcastWorkElems (a block per
// row), never both at once.
bool needs_row_work(const Instr& in, const Kernel& k) {
  return (in.op == Op::Reduce && k.values[in.srcs[0]].form == Form::Rows) || in.op == Op::RowBcast;
}
// Scratch of the axis reductions (kt::AxisWorkBytes): half a slab in column mode, the row helpers' in row mode, where a
// position's value broadcast back along r also takes its blocks (kt::SlabBroadcast).
bool needs_axis_work(const Instr& in, const Kernel& k) {
  return (in.op == Op::Reduce && k.values[in.srcs[0]].form == Form::Slab) || in.op == Op::SlabBcast;
}
// A slab-sized scratch buffer `<name><i>` per value type of the instructions `uses` picks.
template <class Uses>
void add_slab_work(Kernel& k, const char* name, BufKind kind, Uses uses) {
  std::vector<TypeOf> types;
  for (const Instr& in : k.body)
    if (uses(in) && std::find(types.begin(), types.end(), k.values[in.srcs[0]].type) == types.end())
      types.push_back(k.values[in.srcs[0]].type);
  for (size_t w = 0; w < types.size(); ++w) {
    Buffer b;
    b.name = name + std::to_string(w);
    b.kind = kind;
    b.type = types[w];
    b.form = Form::Slab;
    k.buffers.push_back(b);
  }
}
// Scratch of the scans along the axis (kt::ScanWorkBytes): the transpose of row mode, the running maxima of a
// log-sum-exp. Scratch of the reductions and scans over a slab's positions (kt::SlabAcrossWorkBytes: a row of the
// slab reduced and the row helpers' work; kt::SlabScanAcrossWorkBytes: the row scans' transpose).
void add_scan_work(Kernel& k) {
  add_slab_work(k, "scanWork", BufKind::ScanWork, [](const Instr& in) { return in.op == Op::Scan && !in.across; });
  add_slab_work(k, "acrossWork", BufKind::AcrossWork,
                [](const Instr& in) { return in.op == Op::SlabAcross || (in.op == Op::Scan && in.across); });
}
}  // namespace

void plan_buffers(Kernel& k) {
  k.buffers.clear();
  auto add = [&](Buffer b) {
    k.buffers.push_back(std::move(b));
    return static_cast<int>(k.buffers.size()) - 1;
  };
  // A conversion buffer of type `to` for a value whose source has type `from`: always when both are concrete and
  // differ; only in the columns where they differ when one is a dtype variable; none when they are equal.
  auto conversion = [&](const std::string& name, TypeOf from, TypeOf to, Form f, BufKind kind) -> int {
    if (from == to) return -1;
    Buffer b;
    b.name = name;
    b.kind = kind;
    b.type = to;
    b.form = f;
    if (from.var >= 0 && to.var < 0) {
      b.only_if_var_differs = from.var;
      b.differs_from = to.fixed;
    } else if (to.var >= 0 && from.var < 0) {
      b.only_if_var_differs = to.var;
      b.differs_from = from.fixed;
    }
    return add(b);
  };

  // Prologue: resident whole vectors.
  for (const Instr& in : k.prologue) {
    if (in.op != Op::Load) continue;
    const TensorArg& t = k.tensors[in.tensor];
    Value& v = k.values[in.dst];
    Buffer raw;
    raw.name = camel_lower(t.name) + "Res";
    raw.kind = BufKind::Resident;
    raw.type = t.type;
    raw.form = Form::Vec;
    raw.tensor = in.tensor;
    int r = add(raw);
    int c = conversion(camel_lower(t.name) + "Vec", t.type, v.type, Form::Vec, BufKind::Resident);
    v.buffer = c >= 0 ? c : r;
    v.alias_of = c >= 0 ? r : -1;   // the raw buffer the conversion reads
  }

  // Liveness over the body.
  const int n = static_cast<int>(k.body.size());
  std::vector<int> def(k.values.size(), -1), last(k.values.size(), -1), uses(k.values.size(), 0);
  for (int i = 0; i < n; ++i) {
    const Instr& in = k.body[i];
    if (in.dst >= 0) def[in.dst] = i;
    for (int s : in.srcs)
      if (s >= 0) {
        last[s] = std::max(last[s], i);
        ++uses[s];
      }
  }

  // Queues.
  std::vector<int> in_queue(k.tensors.size(), -1), out_queue(k.tensors.size(), -1);
  for (const Instr& in : k.body) {
    const TensorArg* t = in.tensor >= 0 ? &k.tensors[in.tensor] : nullptr;
    if (in.op == Op::Load && in_queue[in.tensor] < 0) {
      Buffer b;
      b.name = camel_lower(t->name) + "In";
      b.kind = BufKind::InQueue;
      b.type = t->type;
      b.form = k.values[in.dst].form;
      b.tensor = in.tensor;
      b.depth = k.queue_depth;
      in_queue[in.tensor] = add(b);
    }
    if (in.op == Op::Store && out_queue[in.tensor] < 0) {
      Buffer b;
      b.name = camel_lower(t->name) + "Out";
      b.kind = BufKind::OutQueue;
      b.type = t->type;
      b.form = in.chunk >= 0 ? Form::Slab : k.values[in.srcs[0]].form;   // chunks are the rows of a slab
      if (in.chunk >= 0)   // y: T[*outer, K, *inner] (a literal K), or a chunk view's whole output (K chunks)
        b.krows = static_cast<int>(t->dims[1].name.empty() ? t->dims[1].value : k.axis_chunks);
      b.tensor = in.tensor;
      b.depth = k.queue_depth;
      out_queue[in.tensor] = add(b);
    }
  }

  // Values a store takes straight from its producer: computed in the body, used once (by this store).
  std::vector<int> direct_store(k.values.size(), -1);
  for (const Instr& in : k.body)
    if (in.op == Op::Store) {
      int s = in.srcs[0];
      if (def[s] >= 0 && k.body[def[s]].op != Op::Load && uses[s] == 1 && direct_store[s] < 0 && in.chunk < 0)
        direct_store[s] = in.tensor;
    }

  // Temporaries: a pool of buffers per (form, type, mask); a buffer is free again after its value's last use.
  struct Slot {
    int buffer;
    int busy_until;
  };
  std::vector<Slot> pool;
  int temps = 0;
  auto temp_for = [&](const Value& v, int from, int until) {
    const TypeOf held = v.mask ? TypeOf{-1, DType::U8} : v.type;   // a mask's bits live in a u8 buffer of any compare
    for (Slot& s : pool) {
      const Buffer& b = k.buffers[s.buffer];
      if (s.busy_until < from && b.form == v.form && b.type == held && b.mask == v.mask &&
          b.only_if_var_differs < 0) {
        s.busy_until = until;
        return s.buffer;
      }
    }
    Buffer b;
    b.name = (v.mask ? "mask" : "tmp") + std::to_string(temps++);
    b.kind = BufKind::Temp;
    b.type = held;
    b.form = v.form;
    b.mask = v.mask;
    int id = add(b);
    pool.push_back({id, until});
    return id;
  };

  for (int i = 0; i < n; ++i) {
    const Instr& in = k.body[i];
    if (in.dst < 0) continue;
    Value& v = k.values[in.dst];
    if (v.accumulator) {   // its own buffer, alive for the whole loop
      if (v.buffer < 0) {
        Buffer b;
        b.name = "acc" + std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(v.name[0])))) +
                 v.name.substr(1);
        b.kind = BufKind::Accumulator;
        b.type = v.type;
        b.form = v.form;
        v.buffer = add(b);
      }
      continue;
    }
    const int until = std::max(last[in.dst], i);
    if (in.op == Op::Load) {
      const int q = in_queue[in.tensor];
      const TensorArg& t = k.tensors[in.tensor];
      std::string cname = camel_lower(t.name) + (v.type.var >= 0 ? k.dtype_vars[v.type.var].name
                                                                   : std::string(dtype_name(v.type.fixed)));
      cname[camel_lower(t.name).size()] = static_cast<char>(std::toupper(static_cast<unsigned char>(cname[camel_lower(t.name).size()])));
      for (const Buffer& b : k.buffers)
        if (b.name == cname) cname += "b";
      int c = conversion(cname, t.type, v.type, v.form, BufKind::Temp);
      v.buffer = c >= 0 ? c : q;
      v.alias_of = c >= 0 ? q : -1;
      continue;
    }
    if (direct_store[in.dst] >= 0) {
      const int q = out_queue[direct_store[in.dst]];
      const TensorArg& t = k.tensors[direct_store[in.dst]];
      int c = conversion(camel_lower(t.name) + "Result", t.type, v.type, v.form, BufKind::Temp);
      v.buffer = c >= 0 ? c : q;
      v.alias_of = c >= 0 ? q : -1;   // converted into the queue at the store
      continue;
    }
    v.buffer = temp_for(v, i, until);
  }

  // Scratch of the helpers: one work buffer per value type that needs it, one math scratch (kMathTmpBytes).
  bool math = false;
  std::vector<TypeOf> work_types, row_work_types, axis_work_types;
  for (const Instr& in : k.body) {
    math |= needs_math_tmp(in);
    auto note = [&](std::vector<TypeOf>& v) {
      TypeOf t = k.values[in.srcs[0]].type;
      if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
    };
    if (needs_work(in)) note(work_types);
    if (needs_row_work(in, k)) note(row_work_types);
    if (needs_axis_work(in, k)) note(axis_work_types);
  }
  for (size_t w = 0; w < axis_work_types.size(); ++w) {
    Buffer b;
    b.name = "axisWork" + std::to_string(w);
    b.kind = BufKind::AxisWork;
    b.type = axis_work_types[w];
    b.form = Form::Slab;
    add(b);
  }
  add_scan_work(k);
  for (size_t w = 0; w < row_work_types.size(); ++w) {
    Buffer b;
    b.name = "rowWork" + std::to_string(w);
    b.kind = BufKind::RowWork;
    b.type = row_work_types[w];
    b.form = Form::Col;
    add(b);
  }
  for (size_t w = 0; w < work_types.size(); ++w) {
    Buffer b;
    b.name = "work" + std::to_string(w);
    b.kind = BufKind::Work;
    b.type = work_types[w];
    b.form = k.axis ? Form::Slab : k.rows ? Form::Rows : Form::Flat;
    add(b);
  }
  // Epilogue (core 0, after the loop): one small buffer per value, the partials of all cores, the helpers' scratch.
  if (!k.epilogue.empty()) {
    auto small = [&](const std::string& name, BufKind kind, TypeOf t) {
      Buffer b;
      b.name = name;
      b.kind = kind;
      b.type = t;
      b.form = Form::Scalar;
      return add(b);
    };
    for (const Instr& in : k.epilogue) {
      if (in.dst >= 0) k.values[in.dst].buffer = small(fmt_name("fin", in.dst), BufKind::Epilogue, k.values[in.dst].type);
      if (in.op == Op::Store) small(camel_lower(k.tensors[in.tensor].name) + "Fin", BufKind::Epilogue, k.tensors[in.tensor].type);
    }
    small("partials", BufKind::Partials, {-1, DType::F32});
    small("combineWork", BufKind::CombineWork, {-1, DType::F32});
  }
  if (math) {
    Buffer b;
    b.name = "mathTmp";
    b.kind = BufKind::MathTmp;
    b.type = {-1, DType::U8};
    b.form = Form::Scalar;
    add(b);
  }
}

int buffer_of(const Kernel& k, BufKind kind, TypeOf t) {
  for (size_t i = 0; i < k.buffers.size(); ++i)
    if (k.buffers[i].kind == kind && k.buffers[i].type == t) return static_cast<int>(i);
  return -1;
}
int work_buffer(const Kernel& k, TypeOf t, bool row) {
  return buffer_of(k, row ? (k.axis ? BufKind::AxisWork : BufKind::RowWork) : BufKind::Work, t);
}
AcrossUse across_use(const Kernel& k, TypeOf t) {
  AcrossUse u;
  for (const Instr& in : k.body) {
    if (in.srcs.empty() || !(k.values[in.srcs[0]].type == t)) continue;
    u.reduce |= in.op == Op::SlabAcross;
    u.scan |= in.op == Op::Scan && in.across;
    u.lse |= in.op == Op::Scan && in.across && in.fn == "logsumexp";
  }
  return u;
}
int math_buffer(const Kernel& k) {
  for (size_t i = 0; i < k.buffers.size(); ++i)
    if (k.buffers[i].kind == BufKind::MathTmp) return static_cast<int>(i);
  return -1;
}
}  // namespace kgen::tile
