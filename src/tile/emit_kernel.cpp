// emit (kernel side): the AscendC kernel of the op project. A class template over the dtype variables with Init
// (core range, GM views, UB buffers sized from the tiling data), Process (the resident prologue, then the tile loop)
// and the three stages CopyIn / Compute / CopyOut; each computation is preceded by the line of the program it
// implements. Conversions that are no-ops in some dtype columns are `if constexpr` aliases.
#include <fmt/format.h>
#include <algorithm>
#include <set>

#include "tile/emit.h"
#include "tile/passes.h"
#include "tile/repeat_rows.h"

namespace kgen::tile {
namespace {

class KernelEmitter {
 public:
  explicit KernelEmitter(const Kernel& k) : k_(k) {}

  std::string run() {
    header();
    klass();
    entry();
    return o_;
  }

 private:
  void line(const std::string& s = "") { o_ += s + "\n"; }
  // The TPipe the buffers are planned in: the class's own, or (a stage of a staged kernel) the kernel's, passed to Init.
  std::string init_buffer() const { return k_.external_pipe ? "pipe_->InitBuffer" : "pipe_.InitBuffer"; }

  std::string cpp(TypeOf t) const { return t.var >= 0 ? k_.dtype_vars[t.var].name : dtype_cpp(t.fixed); }
  std::string member(const Buffer& b) const { return b.name + "_"; }
  std::string gm(int tensor) const { return camel_lower(k_.tensors[tensor].name) + "Gm_"; }
  std::string var(int value) const {
    const Value& v = k_.values[value];
    return v.name.empty() ? fmt::format("t{}", value) : camel_lower(v.name) + (v.resident ? "_" : "");
  }
  // Elements an instruction on a value of form f and type t covers: the tile rounded up to whole 256-byte repeats
  // of t. The kt:: helpers define every buffer up to that boundary, so the rounded counts never read garbage and
  // leave the padding defined for the next instruction (e.g. Brcb reads a column in blocks of 8).
  std::string count(Form f, TypeOf t) const {
    const std::string c = t.var >= 0 ? cpp(t) : dtype_cpp(t.fixed);
    switch (f) {
      case Form::Flat: return "kt::RoundRep<" + c + ">(units)";
      case Form::Rows: return "kt::RoundRep<" + c + ">(units * npad_)";
      case Form::Col: return "kt::RoundRep<" + c + ">(units)";
      case Form::Vec: return "kt::RoundRep<" + c + ">(npad_)";
      case Form::Slab: return "kt::RoundRep<" + c + ">(SlabElems(units))";
      case Form::Scalar: return "1";
    }
    return "units";
  }
  // A conversion covers what both types have defined: the repeats of the wider type.
  std::string count_conv(Form f, TypeOf a, TypeOf b) const {
    auto size = [&](TypeOf t) { return t.var >= 0 ? 0u : dtype_size(t.fixed); };
    if (a.var >= 0 || b.var >= 0) {   // decided per column by the compiler of the kernel
      const std::string ca = a.var >= 0 ? cpp(a) : dtype_cpp(a.fixed), cb = b.var >= 0 ? cpp(b) : dtype_cpp(b.fixed);
      const std::string inner = f == Form::Rows   ? "units * npad_"
                                : f == Form::Slab ? "SlabElems(units)"
                                : f == Form::Vec  ? "npad_"
                                                  : "units";
      return "(sizeof(" + ca + ") > sizeof(" + cb + ") ? kt::RoundRep<" + ca + ">(" + inner + ") : kt::RoundRep<" + cb +
             ">(" + inner + "))";
    }
    return count(f, size(a) >= size(b) ? a : b);
  }
  std::string same(TypeOf a, TypeOf b) const { return "std::is_same<" + cpp(a) + ", " + cpp(b) + ">::value"; }

  // UB bytes of a buffer for tileUnits_ units, the same formula as the host's (size_tiles).
  std::string bytes(const Buffer& b) const {
    const std::string es = b.type.var >= 0 ? "sizeof(" + cpp(b.type) + ")" : std::to_string(dtype_size(b.type.fixed));
    std::string per;
    switch (b.form) {
      case Form::Flat:
      case Form::Col:
        per = b.kind == BufKind::RowWork ? "tileUnits_ * 256 + 8192 + 256"
              : b.mask                   ? "tileUnits_ / 8"
                                         : "tileUnits_ * " + es;
        break;
      case Form::Rows: per = b.mask ? "tileUnits_ * npad_ / 8" : "tileUnits_ * npad_ * " + es; break;
      case Form::Slab:
        per = b.kind == BufKind::ScanWork
                  ? "kt::ScanWorkBytes<" + cpp(b.type) + ">(rowMode_, " + (scan_of(b.type, "logsumexp") ? "true" : "false") +
                        ", " + (scan_of(b.type, "sum") ? "true" : "false") + ", " + (scan_reset(b.type) ? "true" : "false") +
                        ", tileUnits_, " + slab_rows() + ", npad_)"
              : b.kind == BufKind::AxisWork
                  ? "kt::AxisWorkBytes<" + cpp(b.type) + ">(rowMode_, " + gathers(b.type) + ", tileUnits_, " + slab_rows() +
                        ", npad_)"
              : b.kind == BufKind::AcrossWork ? across_work_bytes(b.type)
              : b.krows > 0 ? "kt::KRowsBytes<" + cpp(b.type) + ">(rowMode_, " + std::to_string(b.krows) + ", tileUnits_)"
              : b.mask      ? "tileUnits_ * slabPad_ / 8"
                            : "tileUnits_ * slabPad_ * " + es;
        break;
      case Form::Vec: per = "npad_ * " + es; break;
      case Form::Scalar:
        per = b.kind == BufKind::MathTmp       ? "kt::kMathTmpBytes"
              : b.kind == BufKind::Partials    ? "AscendC::GetBlockNum() * 32"
              : b.kind == BufKind::CombineWork ? "9216"
                                               : "0";
        break;
    }
    return "kt::RoundUp256(" + per + ")";
  }

  void header() {
    line(fmt::format("// {} kernel (AscendC), generated by `kgen tile compile` from {}.", k_.op_type, k_.file));
    line("// Edit the tile program and compile again rather than editing this file.");
    if (!k_.doc.empty()) line(doc_comment(k_.doc));
    line("#include <type_traits>");
    line();
    line("#include \"kernel_operator.h\"");
    line("#include \"kgen_tile.h\"");
    line();
  }

  std::string template_params() const {
    std::string s;
    for (const auto& v : k_.dtype_vars) s += (s.empty() ? "" : ", ") + std::string("typename ") + v.name;
    return s;
  }

  void klass() {
    const std::string cls = "Kernel" + k_.op_type.substr(0, k_.op_type.size() - 6);
    if (!k_.dtype_vars.empty()) line("template <" + template_params() + ">");
    line("class " + cls + " {");
    line(" public:");
    line("  __aicore__ inline " + cls + "() {}");
    init();
    process();
    if (k_.chunks.possible) {
      chunk_mode_ = true;
      process_chunked();
    }
    chunk_mode_ = false;
    line();
    line(" private:");
    if (k_.phase2 >= 0) {   // a two-phase program: the stages of each loop
      for (int p = 0; p < 2; ++p) {
        copy_in(p);
        compute_pass(p);
        copy_out(p);
      }
    } else {
      copy_in();
      compute();
      copy_out();
    }
    if (k_.chunks.possible) {
      chunk_mode_ = true;
      for (int p = 0; p < k_.chunks.passes; ++p) {
        copy_in(p);
        compute_pass(p);
        copy_out(p);
      }
      chunk_mode_ = false;
    }
    members();
    line("};");
    line();
  }

  std::string args_decl() const {
    std::string s = k_.external_pipe ? "AscendC::TPipe* pipe, " : "";
    for (const auto& t : k_.tensors) s += "GM_ADDR " + camel_lower(t.name) + ", ";
    if (uses_workspace()) s += "GM_ADDR workspace, ";
    return s + "const " + k_.op_type + "TilingData& tiling";
  }
  // Chunked rows that several cores may share (plan_chunks): their partial reductions meet in the workspace.
  bool split() const { return k_.rows && k_.chunks.possible && k_.chunks.split; }
  bool uses_workspace() const { return !k_.epilogue.empty() || split(); }
  // A reduction's 32-byte workspace slot index (per core) when cores share rows: reductions in body order.
  int reduce_slot(int body_index) const {
    int j = 0;
    for (int i = 0; i < body_index; ++i) j += k_.body[i].op == Op::Reduce;
    return j;
  }
  // Chunked mode: a column of the current row, kept across its chunks and passes in a 512-byte buffer of its own
  // (an accumulator keeps its buffer: it sums over the rows).
  static bool row_column(const Value& v) { return v.form == Form::Col && !v.mask && !v.resident && !v.accumulator; }
  // A reduction's kt:: helper suffix (RowSum, ColMax, GroupRed::Min...: the mean sums, then scales) and the vector
  // instruction that folds two of its partials into one.
  static std::string reduce_api(const std::string& fn) {
    return fn == "mean" ? "Sum" : std::string(1, static_cast<char>(std::toupper(fn[0]))) + fn.substr(1);
  }
  static const char* fold_api(const std::string& fn) {
    return fn == "max" ? "Max" : fn == "min" ? "Min" : fn == "prod" ? "Mul" : "Add";
  }
  int n_accumulators() const {
    int n = 0;
    for (const Value& v : k_.values) n += v.accumulator;
    return n;
  }

  void init() {
    line("  __aicore__ inline void Init(" + args_decl() + ") {");
    if (k_.external_pipe) line("    pipe_ = pipe;");
    for (const auto& f : k_.fields) line(fmt::format("    {}_ = tiling.{};", f.name, f.name));
    if (k_.axis) return init_axis();
    line("    // This core's range of the extent (" + std::string(k_.rows ? "rows" : "elements") + ").");
    if (split())
      line("    const uint64_t begin = (chunk_ > 0 && parts_ > 1 ? AscendC::GetBlockIdx() / parts_ : AscendC::GetBlockIdx()) "
           "* perCore_;   // parts_ cores share a row");
    else line("    const uint64_t begin = AscendC::GetBlockIdx() * perCore_;");
    line("    count_ = begin >= total_ ? 0 : (total_ - begin < perCore_ ? total_ - begin : perCore_);");
    if (k_.rows) {
      line(std::string("    npad_ = kt::RoundUp(n_, ") + (one_byte() ? "32" : "16") + ");   // row stride in UB");
      if (k_.chunks.possible) line("    if (chunk_ > 0) npad_ = chunk_;   // rows longer than UB: one chunk of a row per tile");
      line("    len_ = n_;");
    }
    if (split()) {
      line("    colEnd_ = n_;");
      line("    if (chunk_ > 0 && parts_ > 1) {   // this core's range of its row's columns, whole 512-byte blocks of f32");
      line("      const uint64_t span = ((n_ + parts_ - 1) / parts_ + 127) / 128 * 128;");
      line("      colBegin_ = (AscendC::GetBlockIdx() % parts_) * span;");
      line("      if (colBegin_ > n_) colBegin_ = n_;");
      line("      colEnd_ = colBegin_ + span < n_ ? colBegin_ + span : n_;");
      line(fmt::format("      wsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace), {} * AscendC::GetBlockNum() * 8);"
                       "   // a 32-byte slot per core and reduction",
                       reduce_slot(static_cast<int>(k_.body.size()))));
      line("    }");
    }
    gm_buffers();
    if (!k_.epilogue.empty())
      line(fmt::format("    wsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace), {} * AscendC::GetBlockNum() * 8);"
                       "   // a 32-byte slot per core and accumulator",
                       n_accumulators()));
    line("    // UB: queues of depth_ tiles for the copies, one buffer per temporary (shared when lifetimes do not overlap).");
    for (const Buffer& b : k_.buffers) {
      std::string call = b.kind == BufKind::InQueue || b.kind == BufKind::OutQueue
                             ? fmt::format("{}({}, depth_, {});", init_buffer(), member(b), bytes(b))
                             : fmt::format("{}({}, {});", init_buffer(), member(b), bytes(b));
      if (b.only_if_var_differs >= 0)
        line(fmt::format("    if constexpr (!std::is_same<{}, {}>::value) {}", k_.dtype_vars[b.only_if_var_differs].name,
                         dtype_cpp(b.differs_from), call));
      else line("    " + call);
    }
    if (k_.chunks.possible) {
      line("    if (chunk_ > 0) {   // the columns of one row, kept across its chunks and passes");
      for (const Value& v : k_.values)
        if (row_column(v))
          line(fmt::format("      {}({}, 512);", init_buffer(), col_member(v.id)));
      for (const Instr& in : k_.body)
        if (in.op == Op::Reduce) line(fmt::format("      {}(part{}_, 512);", init_buffer(), in.dst));
      for (size_t i = 0; i < k_.body.size(); ++i)
        if (is_col_io(k_.body[i])) line(fmt::format("      {}(colIo{}_, 512);", init_buffer(), i));
      if (split()) line("      if (parts_ > 1) " + init_buffer() + "(partsIo_, kt::RoundUp256(parts_ * 32));   // the row's partials");
      line("    }");
    }
    line("  }");
    line();
  }

  // GM views of the tensors: this core's part of each (whole tensors in axis programs: offsets per tile).
  void gm_buffers() {
    for (size_t i = 0; i < k_.tensors.size(); ++i) {
      const TensorArg& t = k_.tensors[i];
      bool vec = false;
      for (const Instr& in : k_.prologue) vec |= in.op == Op::Load && in.tensor == static_cast<int>(i);
      std::string off = vec || t.dims.empty() ? "0" : k_.rows && !is_col(i) ? "begin * n_" : "begin";
      std::string len = vec ? "n_" : t.dims.empty() ? "1" : k_.rows && !is_col(i) ? "count_ * n_" : "count_";
      if (!period_of(static_cast<int>(i)).empty()) off = "0", len = period_of(static_cast<int>(i));   // bias[r % c]
      if (repeat_rows(k_, static_cast<int>(i), row_dim_count(k_)))   // mask[b, 1, q, n]: the whole of it
        off = "0", len = "total_ / " + repeat_field(k_, static_cast<int>(i), "Repeat") + " * n_";
      if (k_.axis) {
        const AxisShape as = axis_shape(k_, t);
        off = "0";
        len = as == AxisShape::Outer      ? outer_len()
              : as == AxisShape::Inner    ? inner_len()
              : as == AxisShape::Periodic ? camel_lower(t.name) + "Period_ * " + inner_len()
              : as == AxisShape::KRows    ? outer_len() + " * " + inner_len() + " * " + std::to_string(t.dims[1].value)
                                          : outer_len() + " * " + inner_len() + (is_slab(i) ? " * " + axis_len() : "");
      }
      line(fmt::format("    {}.SetGlobalBuffer(reinterpret_cast<__gm__ {}*>({}) + {}, {});", gm(static_cast<int>(i)),
                       cpp(t.type), camel_lower(t.name), off, len));
    }
  }

  // Axis programs: the tiling fields of the view's dims, and which tensors are viewed around the axis.
  std::string axis_len() const { return camel_lower(k_.syms[k_.axis_sym].name) + "_"; }
  // Rows of the axis in a slab tile: the whole axis, or (an axis streamed in chunks) the current chunk's axisRows_.
  std::string slab_rows() const { return k_.chunks.axis ? "axisRows_" : axis_len(); }
  std::string inner_len() const { return camel_lower(k_.syms[k_.inner_sym].name) + "_"; }
  std::string outer_len() const { return camel_lower(k_.syms[k_.outer_sym].name) + "_"; }
  bool is_slab(size_t tensor) const {
    const auto& d = k_.tensors[tensor].dims;
    return k_.axis && d.size() == 3 && (!d[1].axis_attr.empty() || d[1].name == k_.syms[k_.axis_sym].name);
  }
  // The scratch of the reductions and scans of type t over a slab's positions (axis=1): each kind's, added.
  std::string across_work_bytes(TypeOf t) const {
    const AcrossUse u = across_use(k_, t);
    std::string s;
    if (u.reduce) s = "kt::SlabAcrossWorkBytes<" + cpp(t) + ">(" + slab_rows() + ", tileUnits_)";
    if (u.scan)
      s += (s.empty() ? "" : " + ") + std::string("kt::SlabScanAcrossWorkBytes<") + cpp(t) + ">(" +
           (u.lse ? "true" : "false") + ", " + slab_rows() + ", tileUnits_)";
    return s;
  }
  // A scratch buffer of that kind and type as the kernel reads it.
  std::string scratch(BufKind kind, TypeOf t) const {
    const int b = buffer_of(k_, kind, t);
    return b < 0 ? "/*no work buffer*/" : member(k_.buffers[b]) + ".Get<" + cpp(t) + ">()";
  }
  // Whether a scan of type t restarts at resets (its scratch holds the resets and their bounds).
  bool scan_reset(TypeOf t) const {
    for (const Instr& in : k_.body)
      if (in.op == Op::Scan && in.srcs.size() > 1 && k_.values[in.srcs[0]].type == t) return true;
    return false;
  }
  // Whether a scan of type t is a `fn` (a log-sum-exp's scratch holds two more slabs, a sum's its compensation).
  bool scan_of(TypeOf t, const char* fn) const {
    for (const Instr& in : k_.body)
      if (in.op == Op::Scan && !in.across && in.fn == fn && k_.values[in.srcs[0]].type == t) return true;
    return false;
  }
  // Whether the row mode of the axis reductions of type t transposes (kt::RowReduceByGather: products, int32).
  std::string gathers(TypeOf t) const {
    for (const Instr& in : k_.body)
      if (in.op == Op::Reduce && in.fn == "prod" && k_.values[in.srcs[0]].type == t) return "true";
    return t.var >= 0 ? "std::is_same<" + cpp(t) + ", int32_t>::value" : t.fixed == DType::I32 ? "true" : "false";
  }

  void init_axis() {
    line("    // This core's range of the work items: rows of " + k_.syms[k_.axis_sym].name + " (row mode, " +
         k_.syms[k_.inner_sym].name + " == 1) or (" + k_.syms[k_.outer_sym].name + " index, column chunk) pairs.");
    line("    const uint64_t begin = AscendC::GetBlockIdx() * perCore_;");
    line("    begin_ = begin;");
    line("    count_ = begin >= total_ ? 0 : (total_ - begin < perCore_ ? total_ - begin : perCore_);");
    line("    rowMode_ = " + inner_len() + " == 1;");
    line(std::string("    npad_ = kt::RoundUp(") + axis_len() + ", " + (one_byte() ? "32" : "16") +
         ");   // row stride in UB (row mode)");
    if (k_.chunks.axis) {
      line("    axisRows_ = " + axis_len() + ";");
      line("    if (!rowMode_ && axisChunk_ > 0) axisRows_ = axisChunk_;   // the axis streamed in chunks of rows");
    }
    line("    slabPad_ = rowMode_ ? npad_ : " + slab_rows() + ";   // UB elements of a slab per position");
    gm_buffers();
    line("    // UB: queues of depth_ tiles for the copies, one buffer per temporary (shared when lifetimes do not overlap).");
    for (const Buffer& b : k_.buffers) {
      std::string call = b.kind == BufKind::InQueue || b.kind == BufKind::OutQueue
                             ? fmt::format("{}({}, depth_, {});", init_buffer(), member(b), bytes(b))
                             : fmt::format("{}({}, {});", init_buffer(), member(b), bytes(b));
      if (b.only_if_var_differs >= 0)
        line(fmt::format("    if constexpr (!std::is_same<{}, {}>::value) {}", k_.dtype_vars[b.only_if_var_differs].name,
                         dtype_cpp(b.differs_from), call));
      else line("    " + call);
    }
    if (k_.chunks.axis) {
      line("    if (!rowMode_ && axisChunk_ > 0) {   // each reduction's running value and a chunk's partial");
      for (const Instr& in : k_.body)
        if (in.op == Op::Reduce)
          for (const char* n : {"axAcc", "axPart"})
            line(fmt::format("      {}({}{}_, kt::RoundUp256(tileUnits_ * sizeof({})));", init_buffer(), n, in.dst,
                             cpp(k_.values[in.dst].type)));
      line("    }");
    }
    line("  }");
    line();
  }

  // Axis programs: the work items of this core, one tile each (column mode) or tileUnits_ rows per tile (row mode).
  void process_axis() {
    line("  __aicore__ inline void Process() {");
    line("    const uint32_t tiles = static_cast<uint32_t>(rowMode_ ? (count_ + tileUnits_ - 1) / tileUnits_ : count_);");
    line("    for (uint32_t i = 0; i < tiles; ++i) {");
    line("      uint64_t slabOff = 0, posOff = 0;");
    line("      uint32_t units = 0;");
    line("      Locate(i, slabOff, posOff, units);");
    if (k_.chunks.axis) {
      line("      if (!rowMode_ && axisChunk_ > 0) {   // the axis in chunks of rows, each reduction's partials folded");
      line(fmt::format("        for (uint64_t r0 = 0; r0 < {0}; r0 += axisChunk_) {{", axis_len()));
      line(fmt::format("          axisRows_ = {0} - r0 < axisChunk_ ? {0} - r0 : axisChunk_;", axis_len()));
      line(fmt::format("          CopyIn(slabOff + r0 * {}, posOff, units);", inner_len()));
      line("          ComputeChunk(units, r0 == 0);");
      line("        }");
      line("        ComputeFinish(units);");
      line("        CopyOut(slabOff, posOff, units);");
      line("        continue;");
      line("      }");
    }
    line("      CopyIn(slabOff, posOff, units);");
    line("      Compute(units);");
    line("      CopyOut(slabOff, posOff, units);");
    line("    }");
    line("  }");
    line();
    if (k_.chunks.axis) compute_axis_chunks();
    const std::string r = axis_len(), inner = inner_len();
    line("  // Tile i of this core: the GM offsets of its slab and of its positions, and how many positions it has.");
    line("  __aicore__ inline void Locate(uint32_t i, uint64_t& slabOff, uint64_t& posOff, uint32_t& units) const {");
    line("    if (rowMode_) {   // tileUnits_ contiguous rows of " + r.substr(0, r.size() - 1));
    line("      const uint64_t row = begin_ + uint64_t(i) * tileUnits_;");
    line("      units = static_cast<uint32_t>(begin_ + count_ - row < tileUnits_ ? begin_ + count_ - row : tileUnits_);");
    line("      slabOff = row * " + r + ";");
    line("      posOff = row;");
    line("      return;");
    line("    }");
    line("    // one chunk of tileUnits_ columns of " + inner.substr(0, inner.size() - 1) + " for one outer index");
    line("    const uint64_t item = begin_ + i, o = item / chunks_, c = (item % chunks_) * tileUnits_;");
    line("    units = static_cast<uint32_t>(" + inner + " - c < tileUnits_ ? " + inner + " - c : tileUnits_);");
    line("    slabOff = o * " + r + " * " + inner + " + c;");
    line("    posOff = o * " + inner + " + c;");
    line("  }");
    line();
    line("  // Elements of a slab tile: units rows of npad_ (row mode) or " + r.substr(0, r.size() - 1) +
         " rows of tileUnits_ columns.");
    line("  __aicore__ inline uint32_t SlabElems(uint32_t units) const {");
    line("    return rowMode_ ? units * npad_ : " + slab_rows() + " * tileUnits_;");
    line("  }");
  }

  // An axis streamed in chunks (column mode): ComputeChunk runs the slab work on one chunk of the axis and folds each
  // reduction's partial into its running value; ComputeFinish starts from the folded values (the mean's 1/r there)
  // and runs the work on the positions, into the outputs.
  bool slab_level(const Instr& in) const { return in.dst >= 0 && k_.values[in.dst].form == Form::Slab; }
  void compute_axis_chunks() {
    line("  // A chunk of the axis (axisRows_ rows of it): the slab work, each reduction's partial folded into its value.");
    line("  __aicore__ inline void ComputeChunk(uint32_t units, bool first) {");
    queue_calls(true, true, false, -1);
    declared_.clear();
    for (int i = 0; i < static_cast<int>(k_.body.size()); ++i) {
      const Instr& in = k_.body[i];
      if (in.op == Op::Reduce) {
        const std::string t = cpp(k_.values[in.dst].type), part = fmt::format("axPart{}_.Get<{}>()", in.dst, t),
                          acc = fmt::format("axAcc{}_.Get<{}>()", in.dst, t), cnt = "kt::RoundRep<" + t + ">(units)";
        line("    // " + in.text + ": this chunk's partial");
        line(fmt::format("    kt::Col{}({}, {}, {}, axisRows_, tileUnits_);", reduce_api(in.fn), part, var(in.srcs[0]),
                         work(k_.values[in.srcs[0]].type, true)));
        line("    AscendC::PipeBarrier<PIPE_V>();");
        line(fmt::format("    if (first) AscendC::Muls({}, {}, static_cast<{}>(1), {});", acc, part, t, cnt));
        line(fmt::format("    else AscendC::{}({}, {}, {}, {});", fold_api(in.fn), acc, acc, part, cnt));
        line("    AscendC::PipeBarrier<PIPE_V>();");
      } else if (slab_level(in)) {
        instr(in, i, false, "    ");
      }
    }
    queue_calls(false, true, false, -1);
    line("  }");
    line();
    line("  // After the last chunk: the folded reductions (the mean's 1/r), then the work on the positions.");
    line("  __aicore__ inline void ComputeFinish(uint32_t units) {");
    queue_calls(true, false, true, -1);
    declared_.clear();
    for (int i = 0; i < static_cast<int>(k_.body.size()); ++i) {
      const Instr& in = k_.body[i];
      if (in.op == Op::Reduce) {
        const std::string t = cpp(k_.values[in.dst].type), cnt = "kt::RoundRep<" + t + ">(units)";
        line("    // " + in.text);
        declare(in.dst, "    ");
        line(fmt::format("    AscendC::Muls({}, axAcc{}_.Get<{}>(), static_cast<{}>({}), {});", var(in.dst), in.dst, t, t,
                         in.fn == "mean" ? "1.0f / static_cast<float>(" + axis_len() + ")" : "1", cnt));
        line("    AscendC::PipeBarrier<PIPE_V>();");
      } else if (!slab_level(in)) {   // the positions' work (a load is a slab's: plan_chunks)
        instr(in, i, false, "    ");
      }
    }
    queue_calls(false, false, true, -1);
    line("  }");
    line();
  }

  bool one_byte() const {
    for (const Buffer& b : k_.buffers) {
      if (b.mask) continue;
      for (DType d : types_of(b.type))
        if (dtype_size(d) == 1) return true;
    }
    return false;
  }
  std::vector<DType> types_of(TypeOf t) const {
    if (t.var < 0) return {t.fixed};
    return k_.dtype_vars[t.var].types;
  }
  // One value per row in a row program: [*m, 1] or [*m].
  // The period field of a column loaded as bias[r % c, :] ("c_"), else "".
  std::string period_of(int tensor) const {
    for (const Instr& in : k_.body)
      if (in.op == Op::Load && in.tensor == tensor && in.period >= 0) return camel_lower(k_.syms[in.period].name) + "_";
    return "";
  }

  bool is_col(size_t tensor) const {
    const auto& d = k_.tensors[tensor].dims;
    bool ones = d.size() >= 2;   // [*m, 1] or [*m, 1, 1] (a column of rows of several dims)
    for (size_t i = 1; i < d.size(); ++i) ones &= d[i].name.empty() && d[i].value == 1;
    return ones ||
           (k_.rows && d.size() == 1 && k_.extent_sym >= 0 && d[0].name == k_.syms[k_.extent_sym].name);
  }

  void process() {
    if (k_.axis) return process_axis();
    if (k_.phase2 >= 0) return process_phases();
    line("  __aicore__ inline void Process() {");
    const bool accs = !k_.epilogue.empty();
    auto zero_accumulators = [&](const std::string& ind) {
      for (const Value& v : k_.values)
        if (v.accumulator) {
          line(ind + "// " + v.name + " starts at 0 on every core");
          line(ind + fmt::format("AscendC::Duplicate({}.Get<float>(), 0.0f, kt::RoundRep<float>(tileUnits_));",
                                 member(k_.buffers[v.buffer])));
        }
    };
    if (k_.chunks.possible) {
      line("    if (chunk_ > 0) {   // a row does not fit in UB: the host chose chunks of columns");
      zero_accumulators("      ");
      line("      ProcessChunked();");
      if (accs) line("      Combine();");
      line("      return;");
      line("    }");
    }
    if (!k_.prologue.empty()) {
      line("    // Once per core, before the loop: values that stay in UB.");
      for (size_t i = 0; i < k_.prologue.size(); ++i) instr(k_.prologue[i], static_cast<int>(i), true, "    ");
    }
    zero_accumulators("    ");
    line("    const uint32_t tiles = static_cast<uint32_t>((count_ + tileUnits_ - 1) / tileUnits_);");
    line("    for (uint32_t i = 0; i < tiles; ++i) {");
    line("      const uint32_t units = i + 1 == tiles ? static_cast<uint32_t>(count_ - uint64_t(i) * tileUnits_) : "
         "tileUnits_;");
    line("      CopyIn(i, units);");
    line("      Compute(units);");
    line("      CopyOut(i, units);");
    line("    }");
    if (accs) line("    Combine();");
    line("  }");
    if (!accs) return;
    line();
    line("  // Each core's sum of each accumulator into its workspace slot; once all cores are there, core 0 finishes.");
    line("  __aicore__ inline void Combine() {");
    write_partials();
    line("    AscendC::SyncAll();");
    line("    if (AscendC::GetBlockIdx() == 0) Epilogue();");
    line("  }");
    epilogue();
  }

  // Each core's sum of each accumulator into its 32-byte workspace slot.
  void write_partials() {
    int k = 0;
    for (const Value& v : k_.values) {
      if (!v.accumulator) continue;
      line(fmt::format("    {{  // {}", v.name));
      line("      AscendC::LocalTensor<float> slot = partials_.Get<float>();");
      line(fmt::format("      kt::RowSum(slot, {}.Get<float>(), combineWork_.Get<float>(), 1, tileUnits_, "
                       "kt::RoundUp(tileUnits_, 16));",
                       member(k_.buffers[v.buffer])));
      line("      AscendC::PipeBarrier<PIPE_ALL>();");
      line(fmt::format("      AscendC::DataCopy(wsGm_[({} * AscendC::GetBlockNum() + AscendC::GetBlockIdx()) * 8], slot, 8);",
                       k++));
      line("      AscendC::PipeBarrier<PIPE_ALL>();");
      line("    }");
    }
  }

  // A two-phase program: the first loop accumulates; every core combines the totals (the epilogue) after a SyncAll;
  // the second loop streams the tensor again with the epilogue's values as scalars.
  void process_phases() {
    phases_ = {{}, {}};
    for (int i = 0; i < static_cast<int>(k_.body.size()); ++i) phases_[i >= k_.phase2].push_back(i);
    line("  __aicore__ inline void Process() {");
    if (!k_.prologue.empty()) {
      line("    // Once per core, before the loops: values that stay in UB.");
      for (size_t i = 0; i < k_.prologue.size(); ++i) instr(k_.prologue[i], static_cast<int>(i), true, "    ");
    }
    for (const Value& v : k_.values)
      if (v.accumulator) {
        line("    // " + v.name + " starts at 0 on every core");
        line(fmt::format("    AscendC::Duplicate({}.Get<float>(), 0.0f, kt::RoundRep<float>(tileUnits_));",
                         member(k_.buffers[v.buffer])));
      }
    line("    const uint32_t tiles = static_cast<uint32_t>((count_ + tileUnits_ - 1) / tileUnits_);");
    for (int p = 0; p < 2; ++p) {
      line(p == 0 ? "    // Loop 1: the accumulators over this core's tiles."
                  : "    // Loop 2: this core's tiles again, with the combined totals.");
      line("    for (uint32_t i = 0; i < tiles; ++i) {");
      line("      const uint32_t units = i + 1 == tiles ? static_cast<uint32_t>(count_ - uint64_t(i) * tileUnits_) : "
           "tileUnits_;");
      line(fmt::format("      CopyInPass{}(i, units);", p));
      line(fmt::format("      ComputePass{}(units);", p));
      line(fmt::format("      CopyOutPass{}(i, units);", p));
      line("    }");
      if (p == 1) break;
      line("    // Each core's partial sums into the workspace; after the SyncAll every core adds all the slots.");
      write_partials();
      line("    AscendC::SyncAll();");
      line("    Epilogue();");
    }
    line("  }");
    epilogue();
  }

  // Core 0, after every core's partials are in the workspace: combine them, compute the outputs, write them.
  void epilogue() {
    line();
    line("  __aicore__ inline void Epilogue() {");
    line("    const uint32_t units = 1;   // one value");
    std::vector<int> acc_index(k_.values.size(), -1);
    int n = 0;
    for (const Value& v : k_.values)
      if (v.accumulator) acc_index[v.id] = n++;
    for (const Instr& in : k_.epilogue) {
      if (in.op == Op::Combine) {
        line("    // " + in.text + ": the partials of all cores");
        line("    {");
        line("      AscendC::LocalTensor<float> parts = partials_.Get<float>();");
        line("      const uint32_t count = static_cast<uint32_t>(AscendC::GetBlockNum()) * 8;");
        line("      AscendC::Duplicate(parts, 0.0f, kt::RoundRep<float>(count));");
        line("      AscendC::PipeBarrier<PIPE_ALL>();");
        line(fmt::format("      AscendC::DataCopy(parts, wsGm_[{} * count], count);", acc_index[in.srcs[0]]));
        line("      AscendC::PipeBarrier<PIPE_ALL>();");
        line(fmt::format("      kt::RowSum({}.Get<float>(), parts, combineWork_.Get<float>(), 1, count, kt::RoundUp(count, 16));",
                         member(k_.buffers[k_.values[in.dst].buffer])));
        line("      AscendC::PipeBarrier<PIPE_V>();");
        line("    }");
        line(fmt::format("    AscendC::LocalTensor<float> {} = {}.Get<float>();", var(in.dst),
                         member(k_.buffers[k_.values[in.dst].buffer])));
        continue;
      }
      if (in.op == Op::Store) {
        const TensorArg& t = k_.tensors[in.tensor];
        const std::string tt = cpp(t.type), fin = camel_lower(t.name) + "Fin_";
        line("    // " + in.text);
        if (k_.phase2 >= 0) line("    if (AscendC::GetBlockIdx() == 0) {   // every core computes it; core 0 writes it");
        line(fmt::format("    AscendC::LocalTensor<{}> out = {}.Get<{}>();", tt, fin, tt));
        line(fmt::format("    kt::Convert(out, {}, {});", var(in.srcs[0]),
                         count_conv(Form::Flat, t.type, k_.values[in.srcs[0]].type)));
        line("    AscendC::PipeBarrier<PIPE_ALL>();");
        line(fmt::format("    kt::StoreFlat({}, out, 1);", gm(in.tensor)));
        line("    AscendC::PipeBarrier<PIPE_ALL>();");
        if (k_.phase2 >= 0) line("    }");
        continue;
      }
      instr(in, 0, false, "    ");
    }
    if (!k_.phase_scalars.empty()) {
      line("    AscendC::PipeBarrier<PIPE_ALL>();   // the scalar unit reads the results the second loop uses");
      for (const auto& [value, m] : k_.phase_scalars) line(fmt::format("    {} = {}.GetValue(0);", m, var(value)));
    }
    line("  }");
  }

  // GM offset of tile i (whole rows: the i-th tile; chunked: `i` is the element offset row * n + column).
  std::string gm_offset(int tensor) const {
    if (chunk_mode_) return "i";
    if (k_.axis) return "posOff";   // (slabs take slabOff)
    return k_.rows && !is_col(static_cast<size_t>(tensor)) ? "uint64_t(i) * tileUnits_ * n_" : "uint64_t(i) * tileUnits_";
  }

  // Queues a pass of the chunked mode uses (all of them for the whole-row path, pass = -1).
  bool queue_in_pass(int buffer, int pass) const {
    if (pass < 0) return true;
    for (int i : pass_body(pass)) {
      const Instr& in = k_.body[i];
      if (in.op == Op::Load && k_.buffers[buffer].kind == BufKind::InQueue && k_.buffers[buffer].tensor == in.tensor) return true;
      if (in.op == Op::Store && k_.buffers[buffer].kind == BufKind::OutQueue && k_.buffers[buffer].tensor == in.tensor)
        return true;
    }
    return false;
  }
  // The body instructions of pass p: the chunked mode's passes, or a two-phase program's two loops.
  const std::vector<int>& pass_body(int p) const { return k_.phase2 >= 0 ? phases_[p] : k_.chunks.pass_body[p]; }
  std::vector<std::vector<int>> phases_;

  std::string pass_suffix(int pass) const { return pass < 0 ? "" : "Pass" + std::to_string(pass); }

  void copy_in(int pass = -1) {
    line(pass < 0           ? "  // Stage 1, copy-in (MTE2): the tile of each input, GM -> UB."
         : k_.phase2 >= 0 ? "  // Loop " + std::to_string(pass + 1) + ", copy-in: the tile of each input the loop reads."
                          : "  // Pass " + std::to_string(pass) + ", copy-in: this chunk of each input the pass reads.");
    line("  __aicore__ inline void CopyIn" + pass_suffix(pass) +
         (k_.axis ? "(uint64_t slabOff, uint64_t posOff, uint32_t units) {" : "(uint64_t i, uint32_t units) {"));
    for (size_t bi = 0; bi < k_.buffers.size(); ++bi) {
      const Buffer& b = k_.buffers[bi];
      if (b.kind != BufKind::InQueue || !queue_in_pass(static_cast<int>(bi), pass)) continue;
      const std::string t = cpp(b.type), v = b.name;
      const AxisShape as = k_.axis ? axis_shape(k_, k_.tensors[b.tensor]) : AxisShape::None;
      line(fmt::format("    AscendC::LocalTensor<{}> {} = {}.AllocTensor<{}>();", t, v, member(b), t));
      if (b.form == Form::Slab) {
        line(fmt::format("    if (rowMode_) kt::LoadRows({}, {}[slabOff], units, {}, npad_);", v, gm(b.tensor), slab_rows()));
        line(fmt::format("    else kt::LoadCols({}, {}[slabOff], {}, units, {}, tileUnits_);", v, gm(b.tensor), slab_rows(),
                         inner_len()));
      } else if (b.form == Form::Rows && repeat_rows(k_, b.tensor, row_dim_count(k_)))   // x's rows' rows of it
        line(fmt::format("    kt::LoadRepeatedRows({}, {}, AscendC::GetBlockIdx() * perCore_ + uint64_t(i) * tileUnits_, "
                         "units, len_, npad_, {}, {});", v, gm(b.tensor), repeat_field(k_, b.tensor, "Inner"),
                         repeat_field(k_, b.tensor, "Repeat")));
      else if (b.form == Form::Rows)
        line(fmt::format("    kt::LoadRows({}, {}[{}], units, len_, npad_);", v, gm(b.tensor), gm_offset(b.tensor)));
      else if (as == AxisShape::Outer) {
        // lengths[o] for the positions (o, c): row mode's positions are outer indices; a column chunk has one
        line(fmt::format("    if (rowMode_) kt::LoadFlat({}, {}[posOff], units);", v, gm(b.tensor)));
        line(fmt::format("    else kt::FillFlat({}, {}.GetValue(posOff / {}), units);", v, gm(b.tensor), inner_len()));
      } else if (as == AxisShape::Inner) {
        // w[c] for the positions (o, c): row mode has inner == 1; a column chunk is a contiguous run of c
        line(fmt::format("    if (rowMode_) kt::FillFlat({}, {}.GetValue(0), units);", v, gm(b.tensor)));
        line(fmt::format("    else kt::LoadFlat({}, {}[posOff % {}], units);", v, gm(b.tensor), inner_len()));
      } else if (as == AxisShape::Periodic) {
        // cos[o % period, c] for the positions (o, c): row mode's positions are outer indices (a run that wraps at
        // the period: the scalar unit copies it); a column chunk is a contiguous run of c of one outer index
        const std::string period = camel_lower(k_.tensors[b.tensor].name) + "Period_";
        line(fmt::format("    if (rowMode_) kt::LoadPeriodicColumn({}, {}, posOff, units, {});", v, gm(b.tensor), period));
        line(fmt::format("    else kt::LoadFlat({0}, {1}[posOff / {2} % {3} * {2} + posOff % {2}], units);", v,
                         gm(b.tensor), inner_len(), period));
      } else if (std::string p = period_of(b.tensor); !p.empty())   // the rows' own indices, modulo the period
        line(fmt::format("    kt::LoadPeriodicColumn({}, {}, AscendC::GetBlockIdx() * perCore_ + uint64_t(i) * tileUnits_, "
                         "units, {});", v, gm(b.tensor), p));
      else line(fmt::format("    kt::LoadFlat({}, {}[{}], units);", v, gm(b.tensor), gm_offset(b.tensor)));
      line(fmt::format("    {}.EnQue({});", member(b), v));
    }
    line("  }");
    line();
  }

  void copy_out(int pass = -1) {
    line(pass < 0           ? "  // Stage 3, copy-out (MTE3): each output tile, UB -> GM."
         : k_.phase2 >= 0 ? "  // Loop " + std::to_string(pass + 1) + ", copy-out: the tile of each output the loop writes."
                          : "  // Pass " + std::to_string(pass) + ", copy-out: this chunk of each output the pass writes.");
    line("  __aicore__ inline void CopyOut" + pass_suffix(pass) +
         (k_.axis ? "(uint64_t slabOff, uint64_t posOff, uint32_t units) {" : "(uint64_t i, uint32_t units) {"));
    bool slab_out = false;   // a scan's whole slab goes out at slabOff; the reductions' positions at posOff
    for (const Buffer& b : k_.buffers) slab_out |= b.kind == BufKind::OutQueue && b.form == Form::Slab;
    if (k_.axis && !slab_out) line("    (void)slabOff;");
    for (size_t bi = 0; bi < k_.buffers.size(); ++bi) {
      const Buffer& b = k_.buffers[bi];
      if (b.kind != BufKind::OutQueue || !queue_in_pass(static_cast<int>(bi), pass)) continue;
      const std::string t = cpp(b.type), v = b.name;
      line(fmt::format("    AscendC::LocalTensor<{}> {} = {}.DeQue<{}>();", t, v, member(b), t));
      if (b.krows > 0) {   // K values per position, stored row by row: [*outer, K, *inner]
        const std::string K = std::to_string(b.krows), inner = inner_len();
        line(fmt::format("    if (rowMode_) kt::StoreRows({}[posOff * {}], {}, units, {}, kt::KRowsPad<{}>({}));   // a row per position",
                         gm(b.tensor), K, v, K, t, K));
        line(fmt::format("    else kt::StoreCols({}[posOff / {} * {} * {} + posOff % {}], {}, {}, units, {}, tileUnits_);",
                         gm(b.tensor), inner, K, inner, inner, v, K, inner));
      } else if (b.form == Form::Slab) {   // a whole slab (a scan's result): back along the axis
        line(fmt::format("    if (rowMode_) kt::StoreRows({}[slabOff], {}, units, {}, npad_);", gm(b.tensor), v, slab_rows()));
        line(fmt::format("    else kt::StoreCols({}[slabOff], {}, {}, units, {}, tileUnits_);", gm(b.tensor), v, slab_rows(),
                         inner_len()));
      } else if (b.form == Form::Rows)
        line(fmt::format("    kt::StoreRows({}[{}], {}, units, len_, npad_);", gm(b.tensor), gm_offset(b.tensor), v));
      else line(fmt::format("    kt::StoreFlat({}[{}], {}, units);", gm(b.tensor), gm_offset(b.tensor), v));
      line(fmt::format("    {}.FreeTensor({});", member(b), v));
    }
    line("  }");
    line();
  }

  void queue_ops_after(int after) {
    for (const QueueOp& q : k_.queue_ops) {
      if (q.after != after) continue;
      const Buffer& b = k_.buffers[q.buffer];
      const std::string t = cpp(b.type);
      if (q.kind == QueueOp::FreeIn) line(fmt::format("    {}.FreeTensor({});", member(b), b.name));
      if (q.kind == QueueOp::AllocOut)
        line(fmt::format("    AscendC::LocalTensor<{}> {} = {}.AllocTensor<{}>();", t, b.name, member(b), t));
      if (q.kind == QueueOp::EnQueOut && b.krows > 0)   // row mode: one row of K per position, from the staged rows
        line(fmt::format("    if (rowMode_) kt::RowsFromChunks({}, {}, tileUnits_, units);", b.name, b.krows));
      if (q.kind == QueueOp::EnQueOut) line(fmt::format("    {}.EnQue({});", member(b), b.name));
    }
  }

  void compute() {
    line("  // Stage 2, compute (V): the program's loop body on the tiles in UB.");
    line("  __aicore__ inline void Compute(uint32_t units) {");
    for (const Buffer& b : k_.buffers)
      if (b.kind == BufKind::InQueue)
        line(fmt::format("    AscendC::LocalTensor<{}> {} = {}.DeQue<{}>();", cpp(b.type), b.name, member(b), cpp(b.type)));
    queue_ops_after(-1);
    for (size_t i = 0; i < k_.body.size(); ++i) {
      instr(k_.body[i], static_cast<int>(i), false, "    ");
      queue_ops_after(static_cast<int>(i));
    }
    line("  }");
    line();
  }

  // Chunked mode, pass p: the instructions the pass needs on one chunk (a [1, len_] tile); reductions accumulate
  // into their column; the queues are dequeued/allocated first and freed/enqueued last.
  void compute_pass(int p) {
    line((k_.phase2 >= 0 ? "  // Loop " + std::to_string(p + 1) : "  // Pass " + std::to_string(p)) + ", compute: " +
         pass_summary(p) + ".");
    line("  __aicore__ inline void ComputePass" + std::to_string(p) + "(uint32_t units) {");
    queue_calls(true, true, true, p);
    declared_.clear();
    for (int i : pass_body(p))   // the columns this pass reads (final since an earlier pass)
      for (int v : k_.body[i].srcs)
        if (v >= 0 && row_column(k_.values[v])) declare(v, "    ");
    for (int i : pass_body(p))
      if (k_.body[i].op == Op::Reduce) declare(k_.body[i].dst, "    ");
    for (int i : pass_body(p)) instr(k_.body[i], i, false, "    ");
    queue_calls(false, true, true, p);
    line("  }");
    line();
  }

  // The queue calls around a compute function, for the input (ins) and output (outs) queues pass p uses (all of them:
  // -1): DeQue / AllocTensor of their tiles (open), FreeTensor / EnQue (close).
  void queue_calls(bool open, bool ins, bool outs, int pass) {
    for (size_t bi = 0; bi < k_.buffers.size(); ++bi) {
      const Buffer& b = k_.buffers[bi];
      if (!queue_in_pass(static_cast<int>(bi), pass)) continue;
      const std::string t = cpp(b.type);
      if (ins && b.kind == BufKind::InQueue)
        line(open ? fmt::format("    AscendC::LocalTensor<{0}> {1} = {2}.DeQue<{0}>();", t, b.name, member(b))
                  : fmt::format("    {}.FreeTensor({});", member(b), b.name));
      if (outs && b.kind == BufKind::OutQueue)
        line(open ? fmt::format("    AscendC::LocalTensor<{0}> {1} = {2}.AllocTensor<{0}>();", t, b.name, member(b))
                  : fmt::format("    {}.EnQue({});", member(b), b.name));
    }
  }

  std::string pass_summary(int p) const {
    std::string s;
    for (int i : pass_body(p))
      if (k_.body[i].op == Op::Accumulate) s += (s.empty() ? "" : ", ") + k_.body[i].text;
      else if (k_.body[i].op == Op::Reduce || k_.body[i].op == Op::Store)
        s += (s.empty() ? "" : ", ") + std::string(k_.body[i].op == Op::Reduce ? "accumulates " : "") + k_.body[i].text;
    return s;
  }

  std::string col_member(int value) const { return fmt::format("col{}_", value); }
  bool is_col_io(const Instr& in) const {
    return (in.op == Op::Load && k_.values[in.dst].form == Form::Col) ||
           (in.op == Op::Store && k_.values[in.srcs[0]].form == Form::Col);
  }

  // Once per row in chunked mode: accumulator start values of the reductions of pass p (sum 0, max -inf, min +inf).
  void init_accumulators(int p, const std::string& ind) {
    for (int i : k_.chunks.pass_body[p]) {
      const Instr& in = k_.body[i];
      if (in.op != Op::Reduce) continue;
      const std::string t = cpp(k_.values[in.dst].type);
      const std::string start = in.fn == "max" ? "-kt::kInf" : in.fn == "min" ? "kt::kInf" : "0";
      line(ind + fmt::format("AscendC::Duplicate({}.Get<{}>(), static_cast<{}>({}), kt::RoundRep<{}>(1));",
                             col_member(in.dst), t, t, start, t));
    }
  }

  // Chunked mode, finalize[idx] (after pass idx - 1; idx 0: before the first pass): the mean's scaling, then the
  // column operations that are final now.
  void finalize(int idx, const std::string& ind) {
    if (idx > 0)
      for (int i : k_.chunks.pass_body[idx - 1]) {
        const Instr& in = k_.body[i];
        if (in.op != Op::Reduce || in.fn != "mean") continue;
        const std::string t = cpp(k_.values[in.dst].type), c = col_member(in.dst) + ".Get<" + t + ">()";
        line(ind + "AscendC::PipeBarrier<PIPE_V>();");
        line(ind + fmt::format("AscendC::Muls({0}, {0}, static_cast<{1}>(1.0f / static_cast<float>(n_)), "
                               "kt::RoundRep<{1}>(1));",
                               c, t));
      }
    for (int i : k_.chunks.finalize[idx]) {
      const Instr& in = k_.body[i];
      if (in.op == Op::Load || in.op == Op::Store) {
        col_io(in, i, ind);
        continue;
      }
      instr(in, i, false, ind);
    }
  }

  // Chunked mode: the one value per row of a column input or output, moved outside the queues.
  void col_io(const Instr& in, int index, const std::string& ind) {
    const TensorArg& t = k_.tensors[in.tensor];
    const std::string tt = cpp(t.type), io = fmt::format("colIo{}_.Get<{}>()", index, tt);
    line(ind + "// " + in.text + " (one value of this row)");
    line(ind + "AscendC::PipeBarrier<PIPE_ALL>();");
    if (in.op == Op::Load) {
      const Value& v = k_.values[in.dst];
      declare(in.dst, ind);
      if (in.period >= 0)
        line(ind + fmt::format("kt::LoadPeriodicColumn({}, {}, AscendC::GetBlockIdx() * perCore_ + row, 1, {});", io,
                               gm(in.tensor), period_of(in.tensor)));
      else line(ind + fmt::format("kt::LoadFlat({}, {}[row], 1);", io, gm(in.tensor)));
      line(ind + "kt::SyncMte2ToV();");
      line(ind + fmt::format("kt::Convert({}, {}, {});", var(in.dst), io, count_conv(Form::Col, t.type, v.type)));
    } else {
      const Value& v = k_.values[in.srcs[0]];
      line(ind + fmt::format("kt::Convert({}, {}, {});", io, var(in.srcs[0]), count_conv(Form::Col, t.type, v.type)));
      line(ind + "AscendC::PipeBarrier<PIPE_ALL>();");
      line(ind + fmt::format("kt::StoreFlat({}[row], {}, 1);", gm(in.tensor), io));
    }
    line(ind + "AscendC::PipeBarrier<PIPE_ALL>();");
  }

  void process_chunked() {
    const ChunkPlan& c = k_.chunks;
    line();
    line("  // Rows longer than UB: each row in chunks of chunk_ columns, " + std::to_string(c.passes) +
         " pass(es) over its chunks (one per level of reductions).");
    line("  __aicore__ inline void ProcessChunked() {");
    line("    const uint32_t units = 1;");
    declared_.clear();
    for (const Value& v : k_.values)
      if (row_column(v)) declare(v.id, "    ");
    line("    for (uint64_t row = 0; row < count_; ++row) {");
    finalize(0, "      ");
    for (int p = 0; p < c.passes; ++p) {
      init_accumulators(p, "      ");
      if (split()) {
        line("      for (uint64_t c = colBegin_; c < colEnd_; c += chunk_) {");
        line("        len_ = static_cast<uint32_t>(colEnd_ - c < chunk_ ? colEnd_ - c : chunk_);");
      } else {
        line("      for (uint64_t c = 0; c < n_; c += chunk_) {");
        line("        len_ = static_cast<uint32_t>(n_ - c < chunk_ ? n_ - c : chunk_);");
      }
      const std::vector<bool> need = prologue_of_pass(p);
      if (std::find(need.begin(), need.end(), true) != need.end()) {
        line("        AscendC::PipeBarrier<PIPE_ALL>();   // the previous chunk's readers of the vectors are done");
        for (size_t i = 0; i < k_.prologue.size(); ++i)
          if (need[i]) instr(k_.prologue[i], static_cast<int>(i), true, "        ");
      }
      line(fmt::format("        CopyInPass{0}(row * n_ + c, units);", p));
      line(fmt::format("        ComputePass{0}(units);", p));
      line(fmt::format("        CopyOutPass{0}(row * n_ + c, units);", p));
      line("      }");
      combine_parts(p, "      ");
      finalize(p + 1, "      ");
    }
    line("    }");
    line("    len_ = n_;");
    line("  }");
  }

  // Shared rows, after pass p: each core's partial of each reduction of the pass into its workspace slot; after the
  // SyncAll every core of the row folds the row's slots, in core order, into its column (the same value on each).
  void combine_parts(int p, const std::string& ind) {
    std::vector<int> reds;
    for (int i : k_.chunks.pass_body[p])
      if (k_.body[i].op == Op::Reduce) reds.push_back(i);
    if (!split() || reds.empty()) return;
    line(ind + "if (parts_ > 1) {   // the row's other cores hold the rest of its columns");
    line(ind + "  AscendC::PipeBarrier<PIPE_ALL>();");
    for (int i : reds)
      line(ind + fmt::format("  AscendC::DataCopy(wsGm_[({} * AscendC::GetBlockNum() + AscendC::GetBlockIdx()) * 8], "
                             "{}.Get<float>(), 8);   // {}",
                             reduce_slot(i), col_member(k_.body[i].dst), k_.body[i].text));
    line(ind + "  AscendC::PipeBarrier<PIPE_ALL>();");
    line(ind + "  AscendC::SyncAll();");
    line(ind + "  const uint64_t firstPart = AscendC::GetBlockIdx() / parts_ * parts_;");
    line(ind + "  AscendC::LocalTensor<float> partials = partsIo_.Get<float>();");
    for (int i : reds) {
      const Instr& in = k_.body[i];
      line(ind + fmt::format("  AscendC::DataCopy(partials, wsGm_[({} * AscendC::GetBlockNum() + firstPart) * 8], "
                             "parts_ * 8);",
                             reduce_slot(i)));
      line(ind + "  AscendC::PipeBarrier<PIPE_ALL>();");
      line(ind + "  {");
      line(ind + "    float v = partials.GetValue(0);");
      const std::string fold = in.fn == "max"   ? "v = w > v ? w : v;"
                               : in.fn == "min" ? "v = w < v ? w : v;"
                                                : "v = v + w;";
      line(ind + "    for (uint32_t q = 1; q < parts_; ++q) {");
      line(ind + "      const float w = partials.GetValue(q * 8);");
      line(ind + "      " + fold);
      line(ind + "    }");
      line(ind + fmt::format("    {}.Get<float>().SetValue(0, v);", col_member(in.dst)));
      line(ind + "  }");
      line(ind + "  AscendC::PipeBarrier<PIPE_ALL>();");
    }
    line(ind + "}");
  }

  // Chunked mode: the prologue instructions pass p reads, directly or through another resident value. A pass reloads
  // only these per chunk: the chunks of a vector it does not read are DMA for nothing, and without any it needs no
  // PIPE_ALL barrier, so its copies overlap its compute through the queues.
  std::vector<bool> prologue_of_pass(int p) const {
    std::vector<bool> read(k_.values.size(), false), need(k_.prologue.size(), false);
    for (const std::vector<int>* list : {&k_.chunks.pass_body[p], &k_.chunks.finalize[p + 1]})
      for (int i : *list)
        for (int v : k_.body[i].srcs)
          if (v >= 0) read[v] = true;
    for (size_t i = k_.prologue.size(); i-- > 0;) {
      const Instr& in = k_.prologue[i];
      if (in.dst >= 0 && !read[in.dst]) continue;
      need[i] = true;
      for (int v : in.srcs)
        if (v >= 0) read[v] = true;
    }
    return need;
  }

  // The LocalTensor a value lives in; declares it (`decl`) from its buffer.
  void declare(int value, const std::string& ind) {
    const Value& v = k_.values[value];
    const std::string t = v.mask ? "uint8_t" : cpp(v.type), name = var(value);
    if (chunk_mode_ && v.form == Form::Col && !v.mask && !v.accumulator) {   // lives across a row's chunks and passes
      if (!declared_.insert(value).second) return;
      line(ind + "AscendC::LocalTensor<" + t + "> " + name + " = " + col_member(value) + ".Get<" + t + ">();");
      return;
    }
    if (v.buffer < 0) return;
    const Buffer& b = k_.buffers[v.buffer];
    const bool queue = b.kind == BufKind::OutQueue;
    const std::string decl_prefix = v.resident ? "" : "AscendC::LocalTensor<" + t + "> ";
    if (v.alias_of >= 0 && k_.buffers[v.alias_of].kind == BufKind::OutQueue && b.only_if_var_differs >= 0) {
      // Computed straight into the output queue in the columns where the dtypes agree, else into a buffer.
      const Buffer& q = k_.buffers[v.alias_of];
      line(ind + decl_prefix.substr(0, decl_prefix.size()) + (v.resident ? "" : "") + name + ";");
      line(ind + "if constexpr (" + same(q.type, v.type) + ") " + name + " = " + q.name +
           ".template ReinterpretCast<" + t + ">();");
      line(ind + "else " + name + " = " + member(b) + ".Get<" + t + ">();");
      return;
    }
    if (queue) line(ind + decl_prefix + name + " = " + b.name + ";");
    else line(ind + decl_prefix + name + " = " + member(b) + ".Get<" + t + ">();");
  }

  std::string scalar(const ScalarExpr& s, TypeOf t) const {
    return "static_cast<" + cpp(t) + ">(" + s.cpp + ")";
  }

  std::string work(TypeOf t, bool row = false) const {
    int w = work_buffer(k_, t, row);
    return w < 0 ? "/*no work buffer*/" : member(k_.buffers[w]) + ".Get<" + cpp(t) + ">()";
  }
  std::string math() const {
    int m = math_buffer(k_);
    return m < 0 ? "/*no math buffer*/" : member(k_.buffers[m]) + ".Get<uint8_t>()";
  }

  void instr(const Instr& in, int index, bool prologue, const std::string& ind) {
    (void)index;
    line(ind + "// " + in.text);
    const std::string d = in.dst >= 0 ? var(in.dst) : "";
    const Value* dv = in.dst >= 0 ? &k_.values[in.dst] : nullptr;
    const std::string c = dv ? count(dv->form, dv->type) : "";
    auto src = [&](int i) { return var(in.srcs[i]); };
    switch (in.op) {
      case Op::Load: {
        const Buffer* conv = dv->alias_of >= 0 ? &k_.buffers[dv->buffer] : nullptr;
        const Buffer& raw = k_.buffers[conv ? dv->alias_of : dv->buffer];
        const std::string t = cpp(dv->type), rt = cpp(raw.type);
        if (prologue) {
          line(ind + fmt::format("AscendC::LocalTensor<{}> {} = {}.Get<{}>();", rt, raw.name, member(raw), rt));
          line(ind + (chunk_mode_ ? fmt::format("kt::LoadFlat({}, {}[c], len_);", raw.name, gm(in.tensor))
                                  : fmt::format("kt::LoadFlat({}, {}, n_);", raw.name, gm(in.tensor))));
          line(ind + "kt::SyncMte2ToV();   // the vector unit reads it next");
        }
        if (!conv) {
          line(ind + (prologue ? "" : "AscendC::LocalTensor<" + t + "> ") + d + " = " + raw.name + ";");
          return;
        }
        if (!prologue) line(ind + "AscendC::LocalTensor<" + t + "> " + d + ";");
        if (conv->only_if_var_differs >= 0)
          line(ind + "if constexpr (" + same(raw.type, dv->type) + ") " + d + " = " + raw.name +
               ".template ReinterpretCast<" + t + ">();");
        line(ind + (conv->only_if_var_differs >= 0 ? "else {" : "{") + " " + d + " = " + member(*conv) + ".Get<" + t +
             ">(); kt::Convert(" + d + ", " + raw.name + ", " + count_conv(dv->form, raw.type, dv->type) + "); }");
        return;
      }
      case Op::Store: {
        const Value& sv = k_.values[in.srcs[0]];
        int q = -1;
        for (size_t b = 0; b < k_.buffers.size(); ++b)
          if (k_.buffers[b].kind == BufKind::OutQueue && k_.buffers[b].tensor == in.tensor) q = static_cast<int>(b);
        const Buffer& qb = k_.buffers[q];
        if (in.chunk >= 0) {   // row k of the output's K (rows of tileUnits_ positions, staged after a block in row mode)
          line(ind + fmt::format("kt::Convert({}[kt::KRowsRow<{}>(rowMode_, {}, tileUnits_, {})], {}, units);", qb.name,
                                 cpp(qb.type), qb.krows, in.chunk, src(0)));
          return;
        }
        if (sv.buffer == q) return;   // computed in place
        // computed in the queue where the dtypes agree, converted into it elsewhere (a buffer of two dtype variables,
        // `dtype U = T(i32 -> i64)`, exists in every column: then always converted)
        if (sv.alias_of == q && sv.buffer >= 0 && k_.buffers[sv.buffer].only_if_var_differs >= 0) {
          line(ind + "if constexpr (!" + same(qb.type, sv.type) + ") kt::Convert(" + qb.name + ", " + src(0) + ", " +
               count_conv(sv.form, qb.type, sv.type) + ");");
          return;
        }
        line(ind + "kt::Convert(" + qb.name + ", " + src(0) + ", " + count_conv(sv.form, qb.type, sv.type) + ");");
        return;
      }
      default: break;
    }
    declare(in.dst, ind);
    const std::string t = cpp(dv->type);
    switch (in.op) {
      case Op::Cast: {   // a value: defined over its whole 256-byte repeats, as the next reader reads it
        const TypeOf st = k_.values[in.srcs[0]].type;
        line(ind + (in.trunc ? "kt::CastValueTrunc(" : "kt::CastValue(") + d + ", " + src(0) + ", " +
             count_conv(dv->form, st, dv->type) + ");");
        break;
      }
        break;
      case Op::Unary: {
        static const std::pair<const char*, const char*> direct[] = {
            {"exp", "AscendC::Exp"}, {"log", "AscendC::Ln"},     {"sqrt", "AscendC::Sqrt"},
            {"abs", "AscendC::Abs"}, {"relu", "AscendC::Relu"},  {"rsqrt", "kt::Rsqrt"},
            {"reciprocal", "kt::Reciprocal"}, {"hardsigmoid", "kt::HardSigmoid"}};
        static const std::pair<const char*, const char*> with_tmp[] = {
            {"sigmoid", "AscendC::Sigmoid"}, {"tanh", "AscendC::Tanh"}, {"erf", "AscendC::Erf"},
            {"gelu", "kt::Gelu"}, {"gelu_tanh", "kt::GeluTanh"}, {"silu", "kt::Silu"}};
        for (auto& [fn, api] : direct)
          if (in.fn == fn) line(ind + fmt::format("{}({}, {}, {});", api, d, src(0), c));
        for (auto& [fn, api] : with_tmp)
          if (in.fn == fn) line(ind + fmt::format("{}({}, {}, {}, {});", api, d, src(0), math(), c));
        if (in.fn == "softplus") line(ind + fmt::format("kt::Softplus({}, {}, {}, {});", d, src(0), work(dv->type), c));
        // float32 to an integral float32: torch.round (half to even), floor, ceil, trunc
        static const std::pair<const char*, const char*> rounding[] = {
            {"round", "CAST_RINT"}, {"floor", "CAST_FLOOR"}, {"ceil", "CAST_CEIL"}, {"trunc", "CAST_TRUNC"}};
        for (auto& [fn, mode] : rounding)
          if (in.fn == fn) line(ind + fmt::format("AscendC::Cast({}, {}, AscendC::RoundMode::{}, {});", d, src(0), mode, c));
        break;
      }
      case Op::UnaryScalar:
        if (in.fn == "leaky_relu")
          line(ind + fmt::format("AscendC::LeakyRelu({}, {}, {}, {});", d, src(0), scalar(in.scalar, dv->type), c));
        else if (in.fn == "elu")
          line(ind + fmt::format("kt::Elu({}, {}, {}, {}, {});", d, src(0), scalar(in.scalar, dv->type),
                                 work(dv->type), c));
        break;
      case Op::Binary: {
        static const std::pair<const char*, const char*> apis[] = {{"add", "Add"}, {"sub", "Sub"}, {"mul", "Mul"},
                                                                   {"div", "Div"}, {"max", "Max"}, {"min", "Min"}};
        for (auto& [fn, api] : apis)
          if (in.fn == fn) line(ind + fmt::format("AscendC::{}({}, {}, {}, {});", api, d, src(0), src(1), c));
        break;
      }
      case Op::Scalar: {
        const std::string s = scalar(in.scalar, dv->type);
        if (in.fn == "add") line(ind + fmt::format("AscendC::Adds({}, {}, {}, {});", d, src(0), s, c));
        if (in.fn == "mul") line(ind + fmt::format("AscendC::Muls({}, {}, {}, {});", d, src(0), s, c));
        if (in.fn == "max") line(ind + fmt::format("AscendC::Maxs({}, {}, {}, {});", d, src(0), s, c));
        if (in.fn == "min") line(ind + fmt::format("AscendC::Mins({}, {}, {}, {});", d, src(0), s, c));
        if (in.fn == "rsub") {   // s - a
          line(ind + fmt::format("AscendC::Muls({}, {}, static_cast<{}>(-1), {});", d, src(0), t, c));
          line(ind + "AscendC::PipeBarrier<PIPE_V>();");
          line(ind + fmt::format("AscendC::Adds({}, {}, {}, {});", d, d, s, c));
        }
        if (in.fn == "rdiv") {   // s / a
          line(ind + fmt::format("kt::Reciprocal({}, {}, {});", d, src(0), c));
          line(ind + "AscendC::PipeBarrier<PIPE_V>();");
          line(ind + fmt::format("AscendC::Muls({}, {}, {}, {});", d, d, s, c));
        }
        break;
      }
      case Op::RowBcast: {
        static const std::pair<const char*, const char*> apis[] = {{"add", "RowAdd"}, {"sub", "RowSub"},
                                                                   {"mul", "RowMul"}, {"div", "RowDiv"},
                                                                   {"max", "RowMax"}, {"min", "RowMin"}};
        for (auto& [fn, api] : apis)
          if (in.fn == fn)
            line(ind + fmt::format("kt::{}({}, {}, {}, {}, units, len_, npad_);", api, d, src(0), src(1), work(dv->type, true)));
        break;
      }
      case Op::VecBcast: {
        static const std::pair<const char*, const char*> apis[] = {{"add", "VecAdd"}, {"sub", "VecSub"},
                                                                   {"mul", "VecMul"}, {"div", "VecDiv"},
                                                                   {"max", "VecMax"}, {"min", "VecMin"}};
        for (auto& [fn, api] : apis)
          if (in.fn == fn) line(ind + fmt::format("kt::{}({}, {}, {}, units, len_, npad_);", api, d, src(0), src(1)));
        break;
      }
      case Op::SlabBcast: {
        static const std::pair<const char*, const char*> apis[] = {{"add", "SlabAdd"}, {"sub", "SlabSub"},
                                                                   {"mul", "SlabMul"}, {"div", "SlabDiv"},
                                                                   {"max", "SlabMax"}, {"min", "SlabMin"}};
        for (auto& [fn, api] : apis)
          if (in.fn == fn)
            line(ind + fmt::format("kt::{}({}, {}, {}, {}, rowMode_, units, {}, npad_, tileUnits_);", api, d, src(0),
                                   src(1), work(dv->type, true), slab_rows()));
        break;
      }
      case Op::SlabAcross:   // over the positions of each row that share an outer index, repeated over them
        line(ind + fmt::format("kt::SlabAcross{}({}, {}, {}, rowMode_, units, {}, npad_, tileUnits_);",
                               in.fn == "mean" ? std::string("Mean") : reduce_api(in.fn), d, src(0),
                               scratch(BufKind::AcrossWork, dv->type), slab_rows()));
        break;
      case Op::Reduce: {
        const TypeOf st = k_.values[in.srcs[0]].type;
        if (k_.values[in.srcs[0]].form == Form::Slab) {
          axis_reduce(in, ind);
          break;
        }
        const std::string api = "Row" + reduce_api(in.fn);
        if (chunk_mode_) {   // this chunk's partial, folded into the row's accumulator
          const std::string part = fmt::format("part{}_.Get<{}>()", in.dst, t);
          line(ind + fmt::format("kt::{}({}, {}, {}, units, len_, npad_);", api, part, src(0), work(st, true)));
          line(ind + "AscendC::PipeBarrier<PIPE_V>();");
          line(ind + fmt::format("AscendC::{}({}, {}, {}, kt::RoundRep<{}>(1));", fold_api(in.fn), d, d, part, t));
          break;
        }
        line(ind + fmt::format("kt::{}({}, {}, {}, units, len_, npad_);", api, d, src(0), work(st, true)));
        if (in.group)   // group=K: each group's rows fold into one value, written back to each of its rows
          line(ind + fmt::format("kt::GroupFold<kt::GroupRed::{}>({}, units, groupRows_);", reduce_api(in.fn), d));
        if (in.fn == "mean") {
          line(ind + "AscendC::PipeBarrier<PIPE_V>();");
          line(ind + fmt::format("AscendC::Muls({}, {}, static_cast<{}>(1.0f / static_cast<float>({})), {});", d, d, t,
                                 in.group ? "n_ * groupRows_" : "n_", c));
        }
        break;
      }
      case Op::Compare: {
        static const std::pair<const char*, const char*> modes[] = {{"lt", "LT"}, {"le", "LE"}, {"gt", "GT"},
                                                                    {"ge", "GE"}, {"eq", "EQ"}, {"ne", "NE"}};
        const char* mode = "LT";
        for (auto& [fn, m] : modes)
          if (in.fn == fn) mode = m;
        const TypeOf st = k_.values[in.srcs[0]].type;
        const std::string sc = count(k_.values[in.srcs[0]].form, k_.values[in.srcs[0]].type);
        if (in.srcs.size() == 2)
          line(ind + fmt::format("kt::Cmp({}, {}, {}, AscendC::CMPMODE::{}, {});", d, src(0), src(1), mode, sc));
        else
          line(ind + fmt::format("kt::CmpScalar({}, {}, {}, AscendC::CMPMODE::{}, {});", d, src(0),
                                 scalar(in.scalar, st), mode, sc));
        break;
      }
      case Op::Select: {
        const bool ta = in.srcs[1] >= 0, tb = in.srcs[2] >= 0;
        const std::string a = ta ? src(1) : scalar(in.scalar, dv->type), b = tb ? src(2) : scalar(in.scalar2, dv->type);
        const char* api = ta && tb ? "Where" : ta ? "WhereTS" : tb ? "WhereST" : "WhereSS";
        line(ind + fmt::format("kt::{}({}, {}, {}, {}, {});", api, d, src(0), a, b, c));
        break;
      }
      case Op::Fill:
        if (in.fn == "axis_index" && dv->form == Form::Rows)   // a row tile: each element's column (row mode)
          line(ind + fmt::format("kt::AxisIndex({}, true, units, len_, npad_, 0);", d));
        else if (in.fn == "axis_index")   // each element's index along the axis (row mode: along the row)
          line(ind + fmt::format("kt::AxisIndex({}, rowMode_, units, {}, npad_, tileUnits_);", d, slab_rows()));
        else line(ind + fmt::format("AscendC::Duplicate({}, {}, {});", d, scalar(in.scalar, dv->type), c));
        break;
      case Op::Scan:
        scan(in, ind);
        break;
      case Op::Accumulate:   // exactly this tile's elements: the padding past `units` is not part of the sum
        line(ind + fmt::format("AscendC::Add({0}, {0}, {1}, units);", d, src(0)));
        break;
      default: break;
    }
    line(ind + "AscendC::PipeBarrier<PIPE_V>();");
  }

  // A cumulative op along the axis of a slab (kt::CumSum, ...): transposed rows (row mode) or down a column chunk.
  void scan(const Instr& in, const std::string& ind) {
    static const std::pair<const char*, const char*> apis[] = {
        {"sum", "CumSum"}, {"prod", "CumProd"}, {"max", "CumMax"}, {"min", "CumMin"}, {"logsumexp", "LogCumSumExp"}};
    const char* api = "CumSum";
    for (auto& [fn, a] : apis)
      if (in.fn == fn) api = a;
    const TypeOf t = k_.values[in.srcs[0]].type;
    const std::string w = scratch(in.across ? BufKind::AcrossWork : BufKind::ScanWork, t);
    if (in.across) {   // over the positions of each slab row (the dims after the axis)
      line(ind + fmt::format("kt::{}Across<{}, {}>({}, {}, {}, rowMode_, units, {}, npad_, tileUnits_);", api,
                             in.reverse ? "true" : "false", in.exclusive ? "true" : "false", var(in.dst), var(in.srcs[0]),
                             w, slab_rows()));
      return;
    }
    if (in.srcs.size() > 1) {   // restarting where the reset slab (1 / 0) is set
      line(ind + fmt::format("kt::{}Reset<{}>({}, {}, {}, {}, rowMode_, units, {}, npad_, tileUnits_);", api,
                             in.reverse ? "true" : "false", var(in.dst), var(in.srcs[0]), var(in.srcs[1]), w,
                             slab_rows()));
      return;
    }
    line(ind + fmt::format("kt::{}<{}, {}>({}, {}, {}, rowMode_, units, {}, npad_, tileUnits_);", api,
                           in.reverse ? "true" : "false", in.exclusive ? "true" : "false", var(in.dst), var(in.srcs[0]), w,
                           slab_rows()));
  }

  // A reduction over the axis of a slab: along contiguous rows (row mode) or over the rows of a column chunk.
  void axis_reduce(const Instr& in, const std::string& ind) {
    const std::string d = var(in.dst), v = var(in.srcs[0]), t = cpp(k_.values[in.dst].type);
    const std::string w = work(k_.values[in.srcs[0]].type, true);
    const std::string fn = reduce_api(in.fn);
    line(ind + fmt::format("if (rowMode_) kt::Row{}({}, {}, {}, units, {}, npad_);", fn, d, v, w, slab_rows()));
    line(ind + fmt::format("else kt::Col{}({}, {}, {}, {}, tileUnits_);", fn, d, v, w, slab_rows()));
    if (in.fn == "mean") {
      line(ind + "AscendC::PipeBarrier<PIPE_V>();");
      line(ind + fmt::format("AscendC::Muls({0}, {0}, static_cast<{1}>(1.0f / static_cast<float>({2})), "
                             "kt::RoundRep<{1}>(units));",
                             d, t, axis_len()));
    }
  }

  void members() {
    line(k_.external_pipe ? "  AscendC::TPipe* pipe_ = nullptr;   // the staged kernel's, reset before this stage"
                          : "  AscendC::TPipe pipe_;");
    for (const Buffer& b : k_.buffers) {
      const char* pos = b.kind == BufKind::InQueue ? "TQue<AscendC::TPosition::VECIN, 1>"
                        : b.kind == BufKind::OutQueue ? "TQue<AscendC::TPosition::VECOUT, 1>"
                                                      : "TBuf<AscendC::TPosition::VECCALC>";
      line(fmt::format("  AscendC::{} {};", pos, member(b)));
    }
    for (size_t i = 0; i < k_.tensors.size(); ++i)
      line(fmt::format("  AscendC::GlobalTensor<{}> {};", cpp(k_.tensors[i].type), gm(static_cast<int>(i))));
    if (!k_.epilogue.empty()) line("  AscendC::GlobalTensor<float> wsGm_;   // the accumulators' per-core partials");
    else if (split()) line("  AscendC::GlobalTensor<float> wsGm_;   // shared rows: the partial reductions of each core");
    for (const auto& [value, m] : k_.phase_scalars)
      line(fmt::format("  float {} = 0;   // {}: the first loop's result, read by the second", m, k_.values[value].name));
    for (const Instr& in : k_.prologue)
      if (in.dst >= 0) line(fmt::format("  AscendC::LocalTensor<{}> {};", cpp(k_.values[in.dst].type), var(in.dst)));
    for (const auto& f : k_.fields) line(fmt::format("  {} {}_ = 0;", f.type, f.name));
    line("  uint64_t count_ = 0;   // this core's extent");
    if (k_.axis) {
      line("  uint64_t begin_ = 0;   // this core's first work item");
      line("  bool rowMode_ = false; // reducing the last dim: contiguous rows");
      line("  uint32_t npad_ = 0;    // row stride in UB (row mode)");
      line("  uint32_t slabPad_ = 0; // UB elements of a slab per position");
      if (k_.chunks.axis) {
        line("  uint64_t axisRows_ = 0; // rows of the axis in a slab tile: the axis, or a chunk of it");
        for (const Instr& in : k_.body)
          if (in.op == Op::Reduce)
            line(fmt::format("  AscendC::TBuf<AscendC::TPosition::VECCALC> axAcc{0}_, axPart{0}_;   // the axis in chunks: "
                             "its running value and a chunk's partial",
                             in.dst));
      }
    }
    if (k_.rows) {
      line("  uint32_t npad_ = 0;    // row stride in UB (elements)");
      line("  uint32_t len_ = 0;     // elements of a row the helpers work on: n_, or the current chunk's length");
    }
    if (k_.chunks.possible) {
      for (const Value& v : k_.values)
        if (row_column(v))
          line(fmt::format("  AscendC::TBuf<AscendC::TPosition::VECCALC> {};   // chunked mode: a column of the row",
                           col_member(v.id)));
      for (const Instr& in : k_.body)
        if (in.op == Op::Reduce)
          line(fmt::format("  AscendC::TBuf<AscendC::TPosition::VECCALC> part{}_;   // chunked mode: a chunk's partial",
                           in.dst));
      for (size_t i = 0; i < k_.body.size(); ++i)
        if (is_col_io(k_.body[i]))
          line(fmt::format("  AscendC::TBuf<AscendC::TPosition::VECCALC> colIo{}_;   // chunked mode: a row's {} value",
                           i, k_.tensors[k_.body[i].tensor].name));
      if (split()) {
        line("  AscendC::TBuf<AscendC::TPosition::VECCALC> partsIo_;   // shared rows: the partials of the row's cores");
        line("  uint64_t colBegin_ = 0, colEnd_ = 0;   // chunked mode: this core's columns of its row");
      }
    }
  }

  // `dtype U = T(i32 -> i64)`: U's template argument follows T's (a std::conditional per mapped type), so a
  // mapped variable that types no tensor (an accumulation type) still gets its column's type.
  std::string mapped_template_args(const std::string& targs) const {
    std::vector<std::string> args;
    size_t start = 0;
    for (size_t i = 0; i <= targs.size(); ++i)
      if (i == targs.size() || (targs[i] == ',' && targs.compare(i, 2, ", ") == 0)) {
        args.push_back(targs.substr(start, i - start));
        start = i + 2;
      }
    if (args.size() != k_.dtype_vars.size()) return targs;
    std::string out;
    for (size_t v = 0; v < args.size(); ++v) {
      const DtypeVar& u = k_.dtype_vars[v];
      std::string a = args[v];
      if (u.base >= 0) {
        const std::string b = args[u.base];
        a = b;
        for (size_t i = 0; i < u.types.size(); ++i)
          if (u.types[i] != k_.dtype_vars[u.base].types[i])
            a = fmt::format("std::conditional_t<std::is_same<{}, {}>::value, {}, {}>", b,
                            dtype_cpp(k_.dtype_vars[u.base].types[i]), dtype_cpp(u.types[i]), a);
      }
      out += (out.empty() ? "" : ", ") + a;
    }
    return out;
  }

  void entry() {
    std::string params, args;
    for (const auto& t : k_.tensors) {
      params += "GM_ADDR " + camel_lower(t.name) + ", ";
      args += camel_lower(t.name) + ", ";
    }
    line(fmt::format("extern \"C\" __global__ __aicore__ void {}({}GM_ADDR workspace, GM_ADDR tiling) {{",
                     k_.kernel_symbol, params));
    line("  GET_TILING_DATA(tilingData, tiling);");
    std::string inst = "Kernel" + k_.op_type.substr(0, k_.op_type.size() - 6);
    if (!k_.dtype_vars.empty()) {
      std::string targs;
      for (const auto& v : k_.dtype_vars) {
        // DTYPE_<NAME> of the first tensor typed by the variable: the column CANN compiles this binary for.
        std::string macro;
        for (const auto& t : k_.tensors)
          if (t.type.var >= 0 && k_.dtype_vars[t.type.var].name == v.name) {
            macro = "DTYPE_";
            for (char ch : t.name) macro += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            break;
          }
        targs += (targs.empty() ? "" : ", ") + (macro.empty() ? std::string("float") : macro);
      }
      targs = mapped_template_args(targs);
      inst += "<" + targs + ">";
    }
    if (uses_workspace()) {
      line("  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);   // SyncAll across the vector cores needs a MIX type");
      args += "AscendC::GetUserWorkspace(workspace), ";
    }
    line("  " + inst + " op;");
    line("  op.Init(" + args + "tilingData);");
    line("  op.Process();");
    line("}");
  }

  const Kernel& k_;
  std::string o_;
  bool chunk_mode_ = false;   // emitting the chunked (long rows) path
  std::set<int> declared_;    // chunked mode: columns declared in the function being emitted
};
}  // namespace

std::string emit_kernel(const Kernel& k) { return KernelEmitter(k).run(); }
}  // namespace kgen::tile
