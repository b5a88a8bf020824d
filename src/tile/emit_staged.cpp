// emit (staged programs): one MIX kernel that runs the stages' cube programs in order, each with its own Matmul
// object and tiling, the workspaces in the user workspace, a SyncAll at each sync() and the UB re-planned per stage.
#include <algorithm>
#include <fmt/format.h>

#include "tile/attention.h"
#include "tile/cube.h"
#include "tile/emit.h"
#include "tile/staged.h"

namespace kgen::tile {
namespace {

std::string sym_var(const std::string& name) { return "d_" + camel_lower(name); }
const StagedProgram& sp_of(const Kernel& k) { return *k.staged; }
std::string stage_cls(const Stage& s) { return "Kernel" + s.sub.op_type.substr(0, s.sub.op_type.size() - 6); }
std::string stage_td(const Stage& s) { return s.sub.op_type + "TilingData"; }
// The tensor of a stage's kernel as a C++ name of the generated kernel (a program tensor or a workspace pointer).
std::string gm_name(const TensorArg& t) { return camel_lower(t.name); }
// The input whose dtype a dtype variable takes (the host reads it; the kernel's DTYPE_ macro names it).
int input_of_var(const Kernel& k, int var) {
  for (size_t i = 0; i < k.tensors.size(); ++i)
    if (!k.tensors[i].output && k.tensors[i].type.var == var) return static_cast<int>(i);
  return -1;
}
std::string dtype_macro(const Kernel& k, const TypeOf& t) {
  if (t.var < 0) return t.fixed == DType::F32 ? "float" : t.fixed == DType::F16 ? "half" : "bfloat16_t";
  const int i = input_of_var(k, t.var);
  return "DTYPE_" + upper(i >= 0 ? k.tensors[i].name : "?");
}
// The host's ge::DataType of a type: the dtype of the input that carries its variable, or the fixed one.
std::string host_dtype(const Kernel& k, const TypeOf& t) {
  if (t.var < 0) return dtype_ge(t.fixed);
  return fmt::format("context->GetInputDesc({})->GetDataType()", input_index(k, input_of_var(k, t.var)));
}
std::string dims_text(const std::vector<Dim>& ds) {
  std::string o;
  for (const Dim& d : ds) o += (o.empty() ? "" : ", ") + std::string(d.star ? "*" : "") + d.name;
  return o;
}
std::string stored_text(const Kernel& k, const Stage& s) {
  if (s.cast) return s.cast_to;
  if (s.vector) return s.sub.tensors.back().name;   // the stage kernel's one output, last
  return s.stores_ws >= 0 ? sp_of(k).ws[s.stores_ws].name : s.sub.tensors[s.sub.mm.c].name;
}

// The class of one stage: the single-stage cube kernel's class, renamed by its op type (Kernel<Op>Stage<i>).
std::string stage_class(const Stage& s) {
  const std::string text = cube_kernel_text(s.sub);
  const size_t from = text.find("template <typename T, typename CT>");
  const size_t to = text.find("extern \"C\"");
  return text.substr(from, to - from);
}

// A vector stage's pieces, cut from the files its own vector program compiles to: the kernel class (between the
// includes and the entry), its instantiation, the tiling struct and the TilingFunc's body.
std::string cut(const std::string& s, const std::string& from, const std::string& to, bool keep_from) {
  const size_t a = s.find(from);
  if (a == std::string::npos) return "";
  const size_t b = s.find(to, a + from.size());
  const size_t start = keep_from ? a : a + from.size();
  return s.substr(start, (b == std::string::npos ? s.size() : b) - start);
}
// The kernel file gives the class and its instantiation (Kernel<Name><DTYPE_...>), the tiling header the struct's
// fields, the host file the TilingFunc's body and its UB reserve; each file is emitted once, where it is used.
struct VectorStageKernel {
  std::string cls, inst;
};
VectorStageKernel vector_stage_kernel(const Stage& s) {
  const std::string kern = emit_kernel(s.sub);
  const std::string entry = cut(kern, "extern \"C\"", "\n}", true);
  return {cut(kern, "#include \"kgen_tile.h\"\n\n", "extern \"C\"", false),
          "Kernel" + cut(entry, "\n  Kernel", " op;", false)};
}
std::string vector_stage_tiling_fields(const Stage& s) {
  return cut(emit_tiling_header(s.sub), "BEGIN_TILING_DATA_DEF(" + s.sub.op_type + "TilingData)\n",
             "END_TILING_DATA_DEF;", false);
}
struct VectorStageHost {
  std::string tiling_body, reserve;
};
VectorStageHost vector_stage_host(const Stage& s) {
  const std::string host = emit_host(s.sub);
  return {cut(host, "static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n",
              "\n}\n}  // namespace optiling", false),
          cut(host, "constexpr uint64_t kReserveBytes = ", ";", false)};
}

// The class of a cast stage: each vector core converts a contiguous range of the elements, chunk by chunk.
std::string cast_class(const Stage& s) {
  const std::string cls = stage_cls(s), td = stage_td(s);
  const std::string src = s.cast_from, dst = s.cast_to;
  std::string o;
  auto line = [&](const std::string& x = "") { o += x + "\n"; };
  line(fmt::format("// {}: {} converted, on the vector cores (each a contiguous range of the elements).", s.cast_text, src));
  line("template <typename TI, typename TO>");
  line("class " + cls + " {");
  line(" public:");
  line(fmt::format("  __aicore__ inline void Init(GM_ADDR {}, GM_ADDR {}, AscendC::TPipe* pipe, const {}& tiling) {{",
                   camel_lower(src), camel_lower(dst), td));
  line("    const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * tiling.perCore;");
  line("    const uint64_t end = begin + tiling.perCore < tiling.total ? begin + tiling.perCore : tiling.total;");
  line("    len_ = begin < end ? end - begin : 0;");
  line("    chunk_ = tiling.chunk;");
  line(fmt::format("    srcGm_.SetGlobalBuffer((__gm__ TI*){} + (len_ ? begin : 0));", camel_lower(src)));
  line(fmt::format("    dstGm_.SetGlobalBuffer((__gm__ TO*){} + (len_ ? begin : 0));", camel_lower(dst)));
  line("    pipe->InitBuffer(inQueue_, 2, chunk_ * sizeof(TI));    // double-buffered: the next chunk's copy in overlaps");
  line("    pipe->InitBuffer(outQueue_, 2, chunk_ * sizeof(TO));");
  line("  }");
  line();
  line("  __aicore__ inline void Process() {");
  line("    for (uint64_t o = 0; o < len_; o += chunk_) {");
  line("      const uint32_t n = len_ - o < chunk_ ? static_cast<uint32_t>(len_ - o) : chunk_;");
  line("      AscendC::LocalTensor<TI> in = inQueue_.AllocTensor<TI>();");
  line("      kt::LoadFlat(in, srcGm_[o], n);");
  line("      inQueue_.EnQue(in);");
  line("      in = inQueue_.DeQue<TI>();");
  line("      AscendC::LocalTensor<TO> out = outQueue_.AllocTensor<TO>();");
  line("      kt::Convert(out, in, n);   // half / bfloat16 -> float exact; the same type: a copy");
  line("      outQueue_.EnQue(out);");
  line("      inQueue_.FreeTensor(in);");
  line("      out = outQueue_.DeQue<TO>();");
  line("      kt::StoreFlat(dstGm_[o], out, n);");
  line("      outQueue_.FreeTensor(out);");
  line("    }");
  line("  }");
  line();
  line(" private:");
  line("  AscendC::GlobalTensor<TI> srcGm_;");
  line("  AscendC::GlobalTensor<TO> dstGm_;");
  line("  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;");
  line("  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue_;");
  line("  uint64_t len_ = 0;");
  line("  uint32_t chunk_ = 0;");
  line("};");
  line();
  return o;
}

// --- kernel ---------------------------------------------------------------------------------------------------
std::string kernel(const Kernel& k) {
  const StagedProgram& sp = sp_of(k);
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  bool epi = false;
  for (const Stage& s : sp.stages) epi |= !s.sub.mm.epi.empty() || s.cast || s.vector;
  line(fmt::format("// {} kernel, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  if (!k.doc.empty()) line(doc_comment(k.doc));
  int cubes = 0;
  for (const Stage& s : sp.stages) cubes += !s.cast && !s.vector;
  line(fmt::format("// A staged program: {} stages in one MIX kernel, {} of them cube programs, each with its own Matmul object",
                   sp.stages.size(), cubes));
  line("// and tiling (its output blocks round robin over the vector cores), the others converting copies on the vector");
  line("// cores. A stage stores into a GM workspace that a later stage reads; a SyncAll between them orders every");
  line("// core's stores before any core's reads.");
  line("#include \"kernel_operator.h\"");
  line("#include \"lib/matmul_intf.h\"");
  if (epi) line("#include \"kgen_tile.h\"");
  line();
  if (epi) line("constexpr float ktInf = __builtin_huge_valf();");
  for (const Workspace& w : sp.ws)
    line(fmt::format("#define DTYPE_{} {}   // workspace {}: [{}]", upper(w.name), dtype_macro(k, w.type), w.name,
                     dims_text(w.dims)));
  line();
  std::vector<VectorStageKernel> vk(sp.stages.size());   // the vector stages' classes and instantiations
  for (size_t i = 0; i < sp.stages.size(); ++i) {
    line(fmt::format("// Stage {}: stores {}.", i, stored_text(k, sp.stages[i])));
    if (sp.stages[i].vector) vk[i] = vector_stage_kernel(sp.stages[i]);
    o += sp.stages[i].cast ? cast_class(sp.stages[i]) : sp.stages[i].vector ? vk[i].cls : stage_class(sp.stages[i]);
  }
  std::string params;
  for (const auto& t : k.tensors) params += "GM_ADDR " + camel_lower(t.name) + ", ";
  line(fmt::format("extern \"C\" __global__ __aicore__ void {}({}GM_ADDR workspace, GM_ADDR tiling) {{",
                   k.kernel_symbol, params));
  line("  GET_TILING_DATA(tilingData, tiling);");
  if (cubes == 0)   // vector stages only: no Matmul object puts the cube cores to work, so none is launched
    line("  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);   // the vector cores, with SyncAll between stages");
  line("  // No early return for cores without work: every vector core meets the others at each SyncAll.");
  line("  AscendC::TPipe pipe;");
  line("  GM_ADDR user = AscendC::GetUserWorkspace(workspace);   // after the Matmul API's system workspace");
  for (size_t w = 0; w < sp.ws.size(); ++w)
    line(fmt::format("  GM_ADDR {} = user + tilingData.wsOffset{};   // {} = workspace([{}])", camel_lower(sp.ws[w].name), w,
                     sp.ws[w].name, dims_text(sp.ws[w].dims)));
  std::string regist;
  for (size_t i = 0; i < sp.stages.size(); ++i) {
    const Stage& s = sp.stages[i];
    const CubeMatmul& mm = s.sub.mm;
    if (s.cast) {
      line(fmt::format("  {}<DTYPE_{}, DTYPE_{}> stage{};", stage_cls(s), upper(s.cast_from), upper(s.cast_to), i));
      continue;
    }
    if (s.vector) {
      line(fmt::format("  {} stage{};", vk[i].inst, i));
      continue;
    }
    line(fmt::format("  {}<DTYPE_{}, DTYPE_{}> stage{};", stage_cls(s), upper(s.sub.tensors[mm.a].name),
                     upper(s.sub.tensors[mm.c].name), i));
    regist += fmt::format(", stage{}.mm, &tilingData.stage{}.cubeTiling", i, i);
  }
  if (!regist.empty()) {   // (a program of vector stages only has no Matmul object to register)
    line("  // every stage's Matmul object is registered before the first UB buffer");
    line(fmt::format("  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(){});", regist));
  }
  for (size_t i = 0; i < sp.stages.size(); ++i) {
    const Stage& s = sp.stages[i];
    if (i > 0) {
      if (s.sync_before)
        line(fmt::format("  AscendC::SyncAll();   // sync(): every core's stores of stage {} are in GM before stage {} reads them",
                         i - 1, i));
      // this core's copies and vector work of the stage before are done before its UB is planned again (pipe.Reset
      // orders nothing: the next stage's first MTE2 copy could overwrite a buffer the last vector op still reads)
      line("  AscendC::PipeBarrier<PIPE_ALL>();");
      line(fmt::format("  pipe.Reset();   // stage {}'s UB buffers replace stage {}'s", i, i - 1));
    }
    const CubeMatmul& mm = s.sub.mm;
    std::string args;
    if (s.cast) {
      line(fmt::format("  // stage {} (vector cores): {}", i, s.cast_text));
      line(fmt::format("  stage{}.Init({}, {}, &pipe, tilingData.stage{});", i, camel_lower(s.cast_from),
                       camel_lower(s.cast_to), i));
    } else if (s.vector) {
      line(fmt::format("  // stage {} (vector cores): a vector program storing {}", i, stored_text(k, s)));
      for (const TensorArg& t : s.sub.tensors) args += gm_name(t) + ", ";
      line(fmt::format("  stage{}.Init(&pipe, {}tilingData.stage{});", i, args, i));
    } else if (mm.epi.empty()) {
      line(fmt::format("  // stage {}: for {} in blocks(...): {} += {}; {}", i, mm.block_var, mm.acc, mm.mma_text, mm.store_text));   // the plain cube class: A, B, C
      for (int t : {mm.a, mm.b, mm.c}) args += gm_name(s.sub.tensors[t]) + ", ";
      line(fmt::format("  stage{}.Init({}tilingData.stage{});", i, args, i));
    } else {
      line(fmt::format("  // stage {}: for {} in blocks(...): {} += {}; {}", i, mm.block_var, mm.acc, mm.mma_text, mm.store_text));
      for (const TensorArg& t : s.sub.tensors) args += gm_name(t) + ", ";
      line(fmt::format("  stage{}.Init({}&pipe, tilingData.stage{});", i, args, i));
    }
    line(fmt::format("  stage{}.Process();", i));
  }
  line("}");
  return o;
}

// --- tiling header --------------------------------------------------------------------------------------------
std::string tiling_header(const Kernel& k) {
  const StagedProgram& sp = sp_of(k);
  std::string o = tiling_header_open(k, true);
  for (size_t i = 0; i < sp.stages.size(); ++i) {
    const std::string td = stage_td(sp.stages[i]);
    if (sp.stages[i].vector) {
      o += fmt::format("// stage {}: a vector program's tiling\n", i);
      o += "BEGIN_TILING_DATA_DEF(" + td + ")\n" + vector_stage_tiling_fields(sp.stages[i]) + "END_TILING_DATA_DEF;\n";
      o += "REGISTER_TILING_DATA_CLASS(" + td + "Op, " + td + ")\n\n";
      continue;
    }
    if (sp.stages[i].cast) {
      o += fmt::format("// stage {}: a converting copy on the vector cores\n", i);
      o += "BEGIN_TILING_DATA_DEF(" + td + ")\n";
      o += "TILING_DATA_FIELD_DEF(uint64_t, total);     // elements\n";
      o += "TILING_DATA_FIELD_DEF(uint64_t, perCore);   // elements per vector core (a multiple of 64)\n";
      o += "TILING_DATA_FIELD_DEF(uint32_t, chunk);     // elements per UB chunk\n";
      o += "END_TILING_DATA_DEF;\n";
      o += "REGISTER_TILING_DATA_CLASS(" + td + "Op, " + td + ")\n\n";
      continue;
    }
    o += fmt::format("// stage {}: one cube program's tiling\n", i);
    o += "BEGIN_TILING_DATA_DEF(" + td + ")\n";
    o += "TILING_DATA_FIELD_DEF(uint32_t, mBlocks);   // output blocks along m (ceil(M / singleCoreM))\n";
    o += "TILING_DATA_FIELD_DEF(uint32_t, nBlocks);   // output blocks along n\n";
    o += "TILING_DATA_FIELD_DEF(uint32_t, items);     // work items: batch * mBlocks * nBlocks\n";
    for (const AttrArg& a : k.attrs) o += "TILING_DATA_FIELD_DEF(float, attr_" + a.name + ");   // attr " + a.name + "\n";
    o += "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);   // the Matmul API's tiling of one block\n";
    o += "END_TILING_DATA_DEF;\n";
    o += "REGISTER_TILING_DATA_CLASS(" + td + "Op, " + td + ")\n\n";
  }
  o += "BEGIN_TILING_DATA_DEF(" + k.op_type + "TilingData)\n";
  for (size_t w = 0; w < sp.ws.size(); ++w)
    o += fmt::format("TILING_DATA_FIELD_DEF(uint64_t, wsOffset{});   // workspace {}: bytes into the user workspace\n", w,
                     sp.ws[w].name);
  for (size_t i = 0; i < sp.stages.size(); ++i)
    o += fmt::format("TILING_DATA_FIELD_DEF_STRUCT({}, stage{});\n", stage_td(sp.stages[i]), i);
  o += tiling_header_close(k);
  return o;
}

// --- host -----------------------------------------------------------------------------------------------------
// A vector stage's TilingFunc, as its own vector program's host computes it, run in a lambda: its inputs are the
// program's inputs it reads (from the context) and the workspaces (shapes made from the program's dims), its
// tiling struct is the stage's field of the staged one, and the vector cores it uses count as the stage's items.
void host_vector_stage(const Kernel& k, size_t i, const std::function<void(const std::string&)>& line) {
  const Stage& s = sp_of(k).stages[i];
  const VectorStageHost v = vector_stage_host(s);
  line(fmt::format("  {{  // stage {} (vector cores): a vector program storing {}", i, stored_text(k, s)));
  std::string shapes, dts;
  for (const TensorArg& t : s.sub.tensors) {
    if (t.output) continue;
    const int ws = index_by_name(sp_of(k).ws, t.name);
    if (ws >= 0) {   // its dims as the program declared them (the stage's kernel may merge the leading ones)
      std::string dims;
      for (const Dim& d : sp_of(k).ws[ws].dims)
        dims += (dims.empty() ? "" : ", ") + ("static_cast<int64_t>(" + sym_var(d.name) + ")");
      line(fmt::format("    const gert::StorageShape {}Shape({{{}}}, {{{}}});   // workspace {}", camel_lower(t.name), dims,
                       dims, t.name));
      shapes += (shapes.empty() ? "&" : ", &") + camel_lower(t.name) + "Shape";
      dts += (dts.empty() ? "" : ", ") + host_dtype(k, t.type);
    } else {
      const int in = input_index(k, tensor_index(k, t.name));
      shapes += (shapes.empty() ? "" : ", ") + fmt::format("context->GetInputShape({})", in);
      dts += (dts.empty() ? "" : ", ") + fmt::format("context->GetInputDesc({})->GetDataType()", in);
    }
  }
  line(fmt::format("    const gert::StorageShape* stageIn[] = {{{}}};", shapes));
  line(fmt::format("    const ge::DataType stageDt[] = {{{}}};", dts));
  line("    (void)stageDt;");
  line("    uint64_t stageCores = 0;");
  line("    auto& staged = tiling;");
  line("    const ge::graphStatus stageStatus = [&]() -> ge::graphStatus {");
  line(fmt::format("      constexpr uint64_t kMathTmpBytes = 4096, kReserveBytes = {};", v.reserve));
  line("      auto SizeOf = [](ge::DataType t) -> uint64_t {");
  line("        return t == ge::DT_INT64 ? 8 : t == ge::DT_FLOAT || t == ge::DT_INT32 ? 4 : "
       "t == ge::DT_FLOAT16 || t == ge::DT_BF16 ? 2 : 1;");
  line("      };");
  const std::string sub_td = s.sub.op_type + "TilingData tiling;";
  std::string body = v.tiling_body;
  auto replace_all = [&](const std::string& from, const std::function<std::string(const std::string&)>& to) {
    for (size_t at = body.find(from); at != std::string::npos; at = body.find(from, at)) {
      const size_t close = body.find(')', at + from.size());
      const std::string arg = body.substr(at + from.size(), close - at - from.size());
      const std::string with = to(arg);
      body.replace(at, close + 1 - at, with);
      at += with.size();
    }
  };
  replace_all("context->GetInputShape(", [](const std::string& j) { return "stageIn[" + j + "]"; });
  replace_all("context->GetInputDesc(", [](const std::string& j) { return "stageDt[" + j + "]"; });
  for (size_t a = 0, b; a < body.size(); a = b + 1) {
    b = body.find('\n', a);
    if (b == std::string::npos) b = body.size();
    std::string l = body.substr(a, b - a);
    // what the staged TilingFunc does once for all stages: the raw tiling data, the block dim, the workspace
    if (l.find("SaveToBuffer") != std::string::npos || l.find("SetDataSize") != std::string::npos ||
        l.find("GetWorkspaceSizes") != std::string::npos || l.find("workspace[0]") != std::string::npos)
      continue;
    if (l.find("->GetDataType()") != std::string::npos) {   // stageDt[j]->GetDataType() -> stageDt[j]
      const size_t at = l.find("]->GetDataType()");
      if (at != std::string::npos) l.replace(at, 16, "]");
    }
    if (l.find(sub_td) != std::string::npos) l = fmt::format("  auto& tiling = staged.stage{};", i);
    if (l.find("context->SetBlockDim(") != std::string::npos) l = "  stageCores = blockDim;";
    line("    " + l);
  }
  line("    }();");
  line("    if (stageStatus != ge::GRAPH_SUCCESS) return stageStatus;");
  line("    maxItems = stageCores > maxItems ? stageCores : maxItems;");
  line("  }");
}

// The TilingFunc's lines of one stage: its MultiCoreMatmulTiling, as a single-stage cube program's host fills it.
void host_stage(const Kernel& k, size_t i, const std::function<void(const std::string&)>& line) {
  const Stage& s = sp_of(k).stages[i];
  if (s.vector) return host_vector_stage(k, i, line);
  if (s.cast) {   // the elements split evenly over the vector cores, in chunks of 8192
    std::string elems;
    for (const Dim& d : s.cast_dims) elems += (elems.empty() ? "" : " * ") + sym_var(d.name);
    line(fmt::format("  {{  // stage {}: {}", i, s.cast_text));
    line(fmt::format("    const uint64_t total = {};", elems));
    line("    const uint64_t perCore = ((total + aivNum - 1) / aivNum + 63) / 64 * 64;");
    line(fmt::format("    tiling.stage{}.set_total(total);", i));
    line(fmt::format("    tiling.stage{}.set_perCore(perCore);", i));
    line(fmt::format("    tiling.stage{}.set_chunk(8192);", i));
    line("    const uint64_t items = perCore == 0 ? 0 : (total + perCore - 1) / perCore;");
    line("    maxItems = items > maxItems ? items : maxItems;");
    line("  }");
    return;
  }
  const Kernel& sub = s.sub;
  const CubeMatmul& mm = sub.mm;
  const std::string t = fmt::format("tiling.stage{}", i);
  auto sv = [&](int sym, const char* none) { return sym >= 0 ? sym_var(sub.syms[sym].name) : std::string(none); };
  line(fmt::format("  {{  // stage {}: {} -> {}", i, mm.mma_text, stored_text(k, s)));
  line(fmt::format("    const uint64_t batch = {}, m = {}, n = {}, k = {};", sv(mm.batch_sym, "1"), sv(mm.m_sym, "1"),
                   sv(mm.n_sym, "1"), sv(mm.k_sym, "1")));
  line("    if (m > 0x7fffffff || n > 0x7fffffff || k > 0x7fffffff) return ge::GRAPH_FAILED;");
  line(fmt::format("    const matmul_tiling::DataType inType = CubeType({});", host_dtype(k, sub.tensors[mm.a].type)));
  line(fmt::format("    const matmul_tiling::DataType outType = CubeType({});", host_dtype(k, sub.tensors[mm.c].type)));
  for (const AttrArg& at : k.attrs) line(fmt::format("    {}.set_attr_{}(attr_{});", t, at.name, at.name));
  line("    uint64_t items = 0;");
  line("    if (batch > 0 && m > 0 && n > 0 && k > 0) {");
  line("      const uint64_t perMatrix = batch >= aivNum ? 1 : (aivNum + batch - 1) / batch;");
  line("      matmul_tiling::MultiCoreMatmulTiling cubeTiling(platform);");
  line("      cubeTiling.SetDim(static_cast<int32_t>(perMatrix));");
  line(fmt::format("      cubeTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, {});",
                   mm.trans_a ? "true" : "false"));
  line(fmt::format("      cubeTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, {});",
                   mm.trans_b ? "true" : "false"));
  if (mm.epi.empty()) line("      cubeTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, outType);");
  else line("      cubeTiling.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, "
            "matmul_tiling::DataType::DT_FLOAT);");
  line("      cubeTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, "
       "matmul_tiling::DataType::DT_FLOAT);");
  line("      cubeTiling.SetShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));");
  line("      cubeTiling.SetOrgShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));");
  line("      cubeTiling.EnableBias(false);");
  line("      cubeTiling.SetBufferSpace(-1, -1, -1);");
  if (!mm.epi.empty())
    line(fmt::format("      cubeTiling.SetFixSplit({}, {}, {});", cube_epi_base_m(sub), kCubeEpiBaseN,
                     mm.k_tile > 0 ? mm.k_tile : -1));
  else if (mm.k_tile > 0) line(fmt::format("      cubeTiling.SetFixSplit(-1, -1, {});", mm.k_tile));
  line(fmt::format("      if (cubeTiling.GetTiling({}.cubeTiling) == -1) return ge::GRAPH_FAILED;", t));
  line(fmt::format("      const uint64_t blockM = static_cast<uint64_t>({}.cubeTiling.get_singleCoreM());", t));
  line(fmt::format("      const uint64_t blockN = static_cast<uint64_t>({}.cubeTiling.get_singleCoreN());", t));
  line(fmt::format("      {}.set_mBlocks(static_cast<uint32_t>((m + blockM - 1) / blockM));", t));
  line(fmt::format("      {}.set_nBlocks(static_cast<uint32_t>((n + blockN - 1) / blockN));", t));
  line(fmt::format("      items = batch * {}.get_mBlocks() * {}.get_nBlocks();", t, t));
  line("    }");
  line("    if (items > 0xffffffffu) return ge::GRAPH_FAILED;");
  line(fmt::format("    {}.set_items(static_cast<uint32_t>(items));", t));
  line("    maxItems = items > maxItems ? items : maxItems;");
  line("  }");
}

std::string host(const Kernel& k) {
  const StagedProgram& sp = sp_of(k);
  std::string o;
  auto line = [&](const std::string& s = "") { o += s + "\n"; };
  line(fmt::format("// {} host side, generated by `kgen tile compile` from {}.", k.op_type, k.file));
  line("// Tiling: each stage's MultiCoreMatmulTiling as for a single cube program; the block dim covers the stage with");
  line("// the most work items; the workspace is the Matmul API's plus the program's workspaces.");
  cube_host_open(k, false, line);
  cube_host_dims(k, line);
  line("  const uint32_t aicNum = platform.GetCoreNumAic(), aivNum = platform.GetCoreNumAiv();");
  line(fmt::format("  {}TilingData tiling;", k.op_type));
  for (size_t a = 0; a < k.attrs.size(); ++a) {
    const AttrArg& at = k.attrs[a];
    const char* ty = at.type == DType::F32 ? "float" : at.type == DType::I32 ? "int64_t" : "bool";
    line(fmt::format("  const {}* attr{}Ptr = context->GetAttrs()->GetAttrPointer<{}>({});", ty, a, ty, a));
    line(fmt::format("  if (attr{}Ptr == nullptr) return ge::GRAPH_FAILED;", a));
    line(fmt::format("  const float attr_{} = static_cast<float>(*attr{}Ptr);", at.name, a));
  }
  line("  // The workspaces, 512-byte aligned, one after the other in the user workspace.");
  line("  uint64_t wsBytes = 0;");
  for (size_t w = 0; w < sp.ws.size(); ++w) {
    const Workspace& ws = sp.ws[w];
    std::string elems;
    for (const Dim& d : ws.dims) elems += (elems.empty() ? "" : " * ") + sym_var(d.name);
    line(fmt::format("  tiling.set_wsOffset{}(wsBytes);   // {}", w, ws.name));
    line(fmt::format("  wsBytes += ({} * ({} == ge::DT_FLOAT ? 4 : 2) + 511) / 512 * 512;", elems, host_dtype(k, ws.type)));
  }
  line("  uint64_t maxItems = 0;");
  for (size_t i = 0; i < sp.stages.size(); ++i) host_stage(k, i, line);
  line("  const uint64_t usedCores = maxItems == 0 ? 1 : maxItems < aivNum ? maxItems : aivNum;");
  int cubes = 0;
  for (const Stage& s : sp.stages) cubes += !s.cast && !s.vector;
  if (cubes == 0) line("  context->SetBlockDim(static_cast<uint32_t>(usedCores));   // vector cores only (MIX_AIV_1_0)");
  else line("  context->SetBlockDim(platform.CalcTschBlockDim(static_cast<uint32_t>(usedCores), aicNum, aivNum));");
  line("  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());");
  line("  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());");
  line("  size_t* workspace = context->GetWorkspaceSizes(1);");
  line("  workspace[0] = platform.GetLibApiWorkSpaceSize() + wsBytes;   // the Matmul API's, then the workspaces");
  line("  return ge::GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace optiling");
  line();
  int out = -1;
  for (size_t i = 0; i < k.tensors.size(); ++i)
    if (k.tensors[i].output) out = static_cast<int>(i);
  const TensorArg& c = k.tensors[out];
  line("namespace ge {");
  line("static ge::graphStatus InferShape(gert::InferShapeContext* context) {");
  line(fmt::format("  gert::Shape* out = context->GetOutputShape(0);   // {}", c.name));
  line("  out->SetDimNum(0);");
  for (const Dim& d : c.dims) {
    const Sym* s = nullptr;
    for (const Sym& y : k.syms)
      if (y.name == d.name) s = &y;
    if (!s) {
      line(fmt::format("  out->AppendDim({});", d.value));
      continue;
    }
    const std::string sh = fmt::format("context->GetInputShape({})", input_index(k, s->tensor));
    if (s->star)
      line(fmt::format("  for (size_t d = 0; d + {} < {}->GetDimNum(); ++d) out->AppendDim({}->GetDim(d));", s->first,
                       sh, sh));
    else line(fmt::format("  out->AppendDim({}->GetDim({}->GetDimNum() - {}));", sh, sh, s->first + 1));
  }
  line("  return GRAPH_SUCCESS;");
  line("}");
  line();
  line("static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {");
  if (c.type.var >= 0)
    line(fmt::format("  context->SetOutputDataType(0, context->GetInputDataType({}));",
                     input_index(k, input_of_var(k, c.type.var))));
  else line(fmt::format("  context->SetOutputDataType(0, {});", dtype_ge(c.type.fixed)));
  line("  return GRAPH_SUCCESS;");
  line("}");
  line("}  // namespace ge");
  line();
  // The OpDef's dtype columns: the values of the first dtype variable (one column when there is none).
  const size_t ncols = k.dtype_vars.empty() ? 1 : k.dtype_vars[0].types.size();
  std::vector<std::vector<DType>> tensor_types;
  for (const TensorArg& t : k.tensors) {
    tensor_types.emplace_back();
    for (size_t ci = 0; ci < ncols; ++ci) {
      if (t.type.var < 0) tensor_types.back().push_back(t.type.fixed);
      else {
        const auto& types = k.dtype_vars[t.type.var].types;
        tensor_types.back().push_back(types[ci < types.size() ? ci : 0]);
      }
    }
  }
  o += emit_op_def(k, tensor_types);
  return o;
}
}  // namespace

std::string print_staged(const Kernel& k) {
  const StagedProgram& sp = sp_of(k);
  std::string o = fmt::format("staged kernel {} ({}): {} stage(s)\n", k.name, k.op_type, sp.stages.size());
  for (const Workspace& w : sp.ws)
    o += fmt::format("  workspace {}: [{}] (stored by stage {}, read by stage {})\n", w.name, dims_text(w.dims),
                     w.written_by, w.read_by);
  for (size_t i = 0; i < sp.stages.size(); ++i) {
    const Stage& s = sp.stages[i];
    if (s.sync_before) o += "  sync (SyncAll)\n";
    o += fmt::format("  stage {} -> {}:\n", i, stored_text(k, s));
    if (s.cast) {
      o += fmt::format("    vector cores: {} = {} converted ({})\n", s.cast_to, s.cast_from, s.cast_text);
      continue;
    }
    const std::string body = s.vector ? print_ir(s.sub) : print_cube(s.sub);
    for (size_t a = 0, b; a < body.size(); a = b + 1) {
      b = body.find('\n', a);
      if (b == std::string::npos) b = body.size();
      o += "    " + body.substr(a, b - a) + "\n";
    }
  }
  return o;
}

std::map<std::string, std::string> emit_staged(const Kernel& k) {
  return project_files(k, kernel(k), tiling_header(k), host(k), emit_json(k));
}
}  // namespace kgen::tile
