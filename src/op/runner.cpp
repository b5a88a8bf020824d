#include "op/runner.h"

#include "sim/gm.h"


#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <utility>

#include "op/npy.h"
#include "sim/gm_races.h"
#include "sim/soc.h"
#include "tikicpulib.h"

namespace kgen::op {
namespace fs = std::filesystem;
using host::AttrValue;

std::optional<Failure> fail(const std::string& category, const std::string& file, int line, const std::string& msg,
                            int exit) {
  Failure f;
  f.exit = exit;
  std::string where = file.empty() ? "" : " " + file + (line > 0 ? ":" + std::to_string(line) : "") + ":";
  f.text = "error[" + category + "]" + where + " " + msg + (msg.empty() || msg.back() == '\n' ? "" : "\n");
  return f;
}

// CANN's compiler gives an op's kernel its type from what the kernel uses: a Matmul object (lib/matmul_intf.h) or
// cube instructions next to vector code make a MIX kernel (one AIC with two AIVs per block), cube code alone an AIC
// kernel, anything else an AIV kernel. kgen reads the same from the source; KERNEL_TASK_TYPE_DEFAULT still wins.
AscendC::KernelMode implied_kernel_mode(const std::string& kernel_cpp) {
  std::ifstream in(kernel_cpp);
  std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto has = [&](const char* re) { return std::regex_search(src, std::regex(re)); };
  bool cube_only = has(R"(#\s*define\s+ASCENDC_CUBE_ONLY\b)");
  bool matmul = has(R"(REGIST_MATMUL_OBJ|lib/matmul_intf\.h|\bMatmulImpl\b|\bMatmul\s*<)");
  bool cube = matmul || has(R"(\bMmad\s*[<(]|TPosition::(A1|A2|B1|B2|CO1)\b|QuePosition::(A1|A2|B1|B2|CO1)\b)");
  bool vector = has(R"(TPosition::VEC|QuePosition::VEC|\bTBuf\s*<\s*>)");
  if (matmul && !cube_only) return AscendC::KernelMode::MIX_MODE;
  if (cube) return vector ? AscendC::KernelMode::MIX_MODE : AscendC::KernelMode::AIC_MODE;
  return AscendC::KernelMode::AIV_MODE;
}

int column_count(const host::OpInfo& op) {
  size_t n = 0;
  for (auto* v : {&op.inputs, &op.outputs})
    for (auto& p : *v) n = std::max(n, p.dtypes.size());
  return static_cast<int>(n);
}
int param_dtype(const host::ParamInfo& p, int j) {
  if (p.dtypes.empty()) return -1;
  if (p.dtypes.size() == 1) return p.dtypes[0];   // DataTypeList-like: one type for every column
  return j < static_cast<int>(p.dtypes.size()) ? p.dtypes[static_cast<size_t>(j)] : -1;
}
static int param_format(const host::ParamInfo& p, int j) {
  if (p.formats.empty()) return 2;
  if (p.formats.size() == 1) return p.formats[0];
  return j < static_cast<int>(p.formats.size()) ? p.formats[static_cast<size_t>(j)] : p.formats.back();
}
static bool dtype_matches(int given, int want) { return given == want || (given == 7 && want == kDtBf16); }
// Formats whose data is a plain row-major array (what a .npy holds): NCHW, NHWC, ND, CHWN, HWCN, MD, NDHWC,
// NCDHW, DHWCN, CN, NC, DHWNC, ALL, NCL. Private formats (NC1HWC0, FRACTAL_Z, FRACTAL_NZ, ...) are not.
static bool plain_format(int f) {
  static const int ok[] = {0, 1, 2, 14, 16, 26, 27, 30, 31, 34, 35, 36, 41, 47};
  return std::find(std::begin(ok), std::end(ok), f) != std::end(ok);
}
static std::string dname(int dt) { return dt < 0 ? "?" : host::dtype_name(dt); }
static std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

int OpRunner::param_line(const char* what, const std::string& name) const {
  return find_line(project_.host_cpp, std::string(what) + "\\s*\\(\\s*\"" + name + "\"");
}
int OpRunner::func_line(const char* setter) const {
  std::string text = read_text(project_.host_cpp);
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(std::string(setter) + R"(\s*\(\s*(?:&\s*)?([\w:]+)\s*\))")))
    return find_line(project_.host_cpp, setter);
  std::string name = m[1].str();
  if (auto p = name.rfind("::"); p != std::string::npos) name = name.substr(p + 2);
  int l = find_line(project_.host_cpp, R"((?:graphStatus|UINT32|uint32_t|int|auto)\s+)" + name + R"(\s*\()");
  return l ? l : find_line(project_.host_cpp, "\\b" + name + "\\s*\\(");
}

std::optional<Failure> OpRunner::open(const Project& p, const std::string& soc, const std::string& want) {
  project_ = p;
  soc_ = soc;
  BuildOut b = build_host(p, soc).get();
  if (!b.ok) {
    Failure f;
    f.text = b.diag;
    return f;
  }
  host_cached_ = b.cached;
  host_build_s_ = b.cached ? 0 : b.seconds;
  void* h = dlopen(b.so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return fail("compile", p.host_cpp, 0, std::string("the host library does not load: ") + dlerror() +
                                              " — a symbol the host file uses is not in kgen's host API");
  std::vector<host::OpInfo> ops = host::registered_ops();
  if (ops.empty())
    return fail("op-def", p.host_cpp, 0,
                "the host file registers no operator — define `class X : public OpDef` and end with OP_ADD(X);");
  const host::OpInfo* pick = nullptr;
  if (!want.empty()) {
    for (auto& o : ops)
      if (o.type == want) pick = &o;
  } else if (ops.size() == 1) {
    pick = &ops[0];
  } else {
    auto fns = kernel_functions(p.kernel_cpp);
    std::string json_op;
    if (!p.json.empty()) {
      try {
        auto j = nlohmann::json::parse(read_text(p.json));
        if (j.is_array() && !j.empty() && j[0].contains("op")) json_op = j[0]["op"].get<std::string>();
      } catch (...) {
      }
    }
    for (auto& o : ops)
      if (o.type == json_op || std::find(fns.begin(), fns.end(), snake_case(o.type)) != fns.end()) pick = &o;
  }
  if (!pick) {
    std::string names;
    for (auto& o : ops) names += (names.empty() ? "" : ", ") + o.type;
    return fail("op-def", p.host_cpp, 0,
                (want.empty() ? std::string("cannot tell which operator to run") : "no operator " + want) +
                    ": the host file registers " + names + " — keep one OP_ADD per project");
  }
  info_ = *pick;
  return std::nullopt;
}

static bool parse_int(const std::string& s, int64_t& v) {
  try {
    size_t n = 0;
    v = std::stoll(s, &n, 0);
    return n == s.size();
  } catch (...) {
    return false;
  }
}
static bool parse_float(const std::string& s, double& v) {
  try {
    size_t n = 0;
    v = std::stod(s, &n);
    return n == s.size();
  } catch (...) {
    return false;
  }
}
static bool parse_bool(const std::string& s, bool& v) {
  if (s == "true" || s == "True" || s == "1") { v = true; return true; }
  if (s == "false" || s == "False" || s == "0") { v = false; return true; }
  return false;
}
static std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> r;
  std::string cur;
  for (char c : s) {
    if (c == sep) { r.push_back(cur); cur.clear(); }
    else if (c != ' ' && c != '[' && c != ']') cur += c;
  }
  if (!cur.empty() || !r.empty()) r.push_back(cur);
  return r;
}
static const char* attr_syntax(const std::string& t) {
  if (t == "int") return "an integer, e.g. 3";
  if (t == "float") return "a number, e.g. 0.1";
  if (t == "bool") return "true or false";
  if (t == "str") return "any text";
  if (t == "list_int") return "integers separated by commas, e.g. 1,2,3";
  if (t == "list_float") return "numbers separated by commas, e.g. 0.5,1";
  if (t == "list_bool") return "true/false separated by commas";
  if (t == "list_list_int") return "integer lists separated by ';', e.g. 1,2;3,4";
  return "?";
}

std::optional<Failure> OpRunner::parse_attrs(const std::vector<std::pair<std::string, std::string>>& given,
                                             std::vector<AttrValue>& out) const {
  out.clear();
  std::vector<bool> set(info_.attrs.size(), false);
  for (auto& a : info_.attrs) out.push_back(a.value);
  for (auto& [name, text] : given) {
    size_t i = 0;
    while (i < info_.attrs.size() && info_.attrs[i].name != name) ++i;
    if (i == info_.attrs.size()) {
      std::string names;
      for (auto& a : info_.attrs) names += (names.empty() ? "" : ", ") + a.name + " (" + a.value.type + ")";
      return fail("op-def", project_.host_cpp, 0,
                  "--attr " + name + ": the OpDef of " + info_.type + " has no attr '" + name + "'; its attrs: " +
                      (names.empty() ? "none" : names));
    }
    AttrValue& v = out[i];
    const std::string& t = v.type;
    bool ok = true;
    if (t == "int") ok = parse_int(text, v.i);
    else if (t == "float") ok = parse_float(text, v.f);
    else if (t == "bool") ok = parse_bool(text, v.b);
    else if (t == "str") v.s = text;
    else if (t == "list_int" || t == "list_float" || t == "list_bool") {
      v.ints.clear(); v.floats.clear(); v.bools.clear();
      for (auto& e : text.empty() ? std::vector<std::string>{} : split(text, ',')) {
        int64_t x; double d; bool b;
        if (t == "list_int" && (ok = ok && parse_int(e, x))) v.ints.push_back(x);
        if (t == "list_float" && (ok = ok && parse_float(e, d))) v.floats.push_back(d);
        if (t == "list_bool" && (ok = ok && parse_bool(e, b))) v.bools.push_back(b);
      }
    } else if (t == "list_list_int") {
      v.int_lists.clear();
      for (auto& row : split(text, ';')) {
        std::vector<int64_t> r;
        for (auto& e : row.empty() ? std::vector<std::string>{} : split(row, ',')) {
          int64_t x;
          if (!(ok = ok && parse_int(e, x))) break;
          r.push_back(x);
        }
        v.int_lists.push_back(r);
      }
    }
    if (!ok)
      return fail("op-def", project_.host_cpp, param_line("Attr", name),
                  "--attr " + name + "=" + text + ": attr '" + name + "' is " + t + "; give " + attr_syntax(t));
    set[i] = true;
  }
  for (size_t i = 0; i < info_.attrs.size(); ++i)
    if (info_.attrs[i].required && !set[i])
      return fail("op-def", project_.host_cpp, param_line("Attr", info_.attrs[i].name),
                  "attr '" + info_.attrs[i].name + "' (" + info_.attrs[i].value.type +
                      ") is REQUIRED and has no default — pass --attr " + info_.attrs[i].name + "=VALUE (" +
                      attr_syntax(info_.attrs[i].value.type) + ")");
  return std::nullopt;
}

std::optional<Failure> OpRunner::pick_column(const RunSpec& spec, const std::vector<int>& want_out, int& column) const {
  int n = std::max(1, column_count(info_));
  auto inputs_match = [&](int j) {
    for (size_t i = 0; i < info_.inputs.size(); ++i)
      if (spec.inputs[i].present && !dtype_matches(spec.inputs[i].dtype, param_dtype(info_.inputs[i], j))) return false;
    return true;
  };
  auto outputs_match = [&](int j) {
    for (size_t o = 0; o < info_.outputs.size() && o < want_out.size(); ++o)
      if (want_out[o] >= 0 && param_dtype(info_.outputs[o], j) != want_out[o]) return false;
    return true;
  };
  column = -1;
  for (int j = 0; j < n && column < 0; ++j)
    if (inputs_match(j) && outputs_match(j)) column = j;
  for (int j = 0; j < n && column < 0; ++j)
    if (inputs_match(j)) column = j;
  if (column >= 0) {
    for (size_t i = 0; i < info_.inputs.size(); ++i) {
      if (!spec.inputs[i].present) continue;
      int f = param_format(info_.inputs[i], column);
      if (!plain_format(f))
        return fail("op-def", project_.host_cpp, param_line("Input", info_.inputs[i].name),
                    "input '" + info_.inputs[i].name + "' is declared with format " + host::format_enum_name(f) +
                        " in the chosen DataType column " + std::to_string(column) +
                        ", a private layout a .npy array cannot carry — declare FORMAT_ND for plain tensors");
    }
    return std::nullopt;
  }
  // No column: say what was given and what the OpDef accepts.
  std::string given, accepts, names;
  size_t bad = 0;
  bool found_bad = false;
  for (size_t i = 0; i < info_.inputs.size(); ++i) {
    names += (i ? ", " : "") + info_.inputs[i].name;
    given += (i ? ", " : "") + info_.inputs[i].name + " " +
             (spec.inputs[i].present ? npy_dtype_name(spec.inputs[i].dtype) : "(absent)");
    bool any = false;
    for (int j = 0; j < n; ++j) any = any || !spec.inputs[i].present || dtype_matches(spec.inputs[i].dtype, param_dtype(info_.inputs[i], j));
    if (!any && !found_bad) { bad = i; found_bad = true; }
  }
  for (int j = 0; j < n; ++j) {
    accepts += "\n  column " + std::to_string(j) + ": (";
    for (size_t i = 0; i < info_.inputs.size(); ++i) accepts += (i ? ", " : "") + dname(param_dtype(info_.inputs[i], j));
    accepts += ")";
  }
  std::string nm = info_.inputs.empty() ? "" : info_.inputs[bad].name;
  std::string msg = found_bad ? "input '" + nm + "' has dtype " + npy_dtype_name(spec.inputs[bad].dtype) +
                                    ", which its DataType list does not contain"
                              : std::string("the input dtypes are no column of the OpDef's DataType lists");
  auto f = fail("op-def", project_.host_cpp, nm.empty() ? 0 : param_line("Input", nm),
                msg + " — given: " + given + "; convert the inputs (e.g. arr.astype(np.float16)) or add the "
                      "combination to every DataType list. The OpDef accepts (" + names + "):" + accepts);
  return f;
}

Defines OpRunner::defines_for(int column) const {
  Defines d;
  for (auto* v : {&info_.inputs, &info_.outputs})
    for (auto& p : *v) {
      int dt = param_dtype(p, column);
      if (dt >= 0) d.emplace_back("DTYPE_" + upper(p.name), host::dtype_cpp_name(dt));
    }
  return d;
}


namespace {
using Args = uint8_t*;
template <size_t... I>
void call_with(void* f, uint8_t** a, std::index_sequence<I...>) {
  reinterpret_cast<void (*)(decltype((void)I, Args{})...)>(f)(a[I]...);
}
template <size_t N>
void call_n(void* f, uint8_t** a) { call_with(f, a, std::make_index_sequence<N>{}); }
template <size_t... N>
constexpr auto make_table(std::index_sequence<N...>) {
  return std::array<void (*)(void*, uint8_t**), sizeof...(N)>{&call_n<N>...};
}
constexpr size_t kMaxArgs = 64;
// torch_npu's caching allocator rounds every device block up to 512 bytes (kMinBlockSize in
// torch_npu/csrc/core/npu/NPUCachingAllocator.cpp, docs/sources.md): the GM a kernel may touch without a fault.
constexpr uint64_t kDeviceAllocGranule = 512;
constexpr auto kCallTable = make_table(std::make_index_sequence<kMaxArgs + 1>{});
struct LaunchCtx {
  void* fn;
  std::vector<uint8_t*> args;
};
}  // namespace

std::optional<Failure> OpRunner::run(const RunSpec& spec, RunResult& res) {
  const std::string& host_cpp = project_.host_cpp;
  res = RunResult{};
  res.op = info_.type;
  res.soc = soc_;
  res.host_cached = host_cached_;
  // --- inputs against the OpDef: count, presence -----------------------------------------------------------
  for (auto& p : info_.inputs)
    if (p.kind == host::ParamKind::Dynamic)
      return fail("op-def", host_cpp, param_line("Input", p.name),
                  "input '" + p.name + "' is DYNAMIC (a tensor list); kgen op run does not support dynamic inputs yet");
  if (spec.inputs.size() != info_.inputs.size())
    return fail("op-def", host_cpp, 0, "internal: input list does not match the OpDef", 1);
  for (size_t i = 0; i < info_.inputs.size(); ++i)
    if (!spec.inputs[i].present && info_.inputs[i].kind == host::ParamKind::Required)
      return fail("op-def", host_cpp, param_line("Input", info_.inputs[i].name),
                  "required input '" + info_.inputs[i].name + "' is not given — pass --input " +
                      info_.inputs[i].name + "=FILE.npy");
  // --- dtype column, InferShape / InferDataType ---------------------------------------------------------------
  int column = 0;
  if (auto f = pick_column(spec, {}, column)) return f;
  host::OpCall call;
  call.op = info_.type;
  call.soc = soc_;
  for (size_t i = 0; i < info_.inputs.size(); ++i) {
    host::TensorArg t;
    t.present = spec.inputs[i].present;
    t.shape = spec.inputs[i].shape;
    t.dtype = t.present ? param_dtype(info_.inputs[i], column) : 0;
    t.format = param_format(info_.inputs[i], column);
    if (!plain_format(t.format)) t.format = 2;
    t.data = spec.inputs[i].data;
    call.inputs.push_back(t);
  }
  for (size_t o = 0; o < info_.outputs.size(); ++o) {
    host::TensorArg t;
    t.dtype = param_dtype(info_.outputs[o], column);
    t.format = plain_format(param_format(info_.outputs[o], column)) ? param_format(info_.outputs[o], column) : 2;
    if (o < spec.output_shape_given.size() && spec.output_shape_given[o]) t.shape = spec.output_shapes[o];
    call.outputs.push_back(t);
  }
  call.attrs = spec.attrs;
  bool all_given = true;
  for (size_t o = 0; o < info_.outputs.size(); ++o)
    all_given = all_given && o < spec.output_shape_given.size() && spec.output_shape_given[o];
  if (info_.has_infer_shape) {
    host::InferResult ir = host::infer(call);
    if (!ir.ok && !all_given)
      return fail("infer-shape", host_cpp, func_line("SetInferShape"),
                  "the InferShape function failed: " + ir.message +
                      " — fix it, or give every output's shape with --output-shape NAME=D0,D1,...");
    if (ir.ok) {
      for (size_t o = 0; o < info_.outputs.size() && o < ir.shapes.size(); ++o)
        if (!(o < spec.output_shape_given.size() && spec.output_shape_given[o])) call.outputs[o].shape = ir.shapes[o];
      bool differs = false;
      for (size_t o = 0; o < ir.dtypes.size() && o < call.outputs.size(); ++o)
        differs = differs || (ir.dtypes[o] >= 0 && ir.dtypes[o] != call.outputs[o].dtype);
      if (differs) {
        int c2 = column;
        if (auto f = pick_column(spec, ir.dtypes, c2)) return f;
        column = c2;
        for (size_t o = 0; o < call.outputs.size(); ++o) {
          int want = o < ir.dtypes.size() ? ir.dtypes[o] : -1;
          call.outputs[o].dtype = want >= 0 ? want : param_dtype(info_.outputs[o], column);
        }
      }
    }
  } else if (!all_given) {
    std::string missing;
    for (size_t o = 0; o < info_.outputs.size(); ++o)
      if (!(o < spec.output_shape_given.size() && spec.output_shape_given[o])) missing += (missing.empty() ? "" : ", ") + info_.outputs[o].name;
    return fail("infer-shape", host_cpp, find_line(host_cpp, R"(:\s*public\s+(?:ops::)?OpDef)"),
                "the OpDef sets no InferShape (SetInferShape) and no shape was given for output(s) " + missing +
                    " — add an InferShape function or pass --output-shape " + info_.outputs[0].name + "=D0,D1,...");
  }
  res.column = column;
  for (size_t o = 0; o < call.outputs.size(); ++o) {
    for (int64_t d : call.outputs[o].shape)
      if (d < 0)
        return fail("infer-shape", host_cpp, func_line("SetInferShape"),
                    "output '" + info_.outputs[o].name + "' has shape " + shape_str(call.outputs[o].shape) +
                        " with an unknown (negative) dimension — give it with --output-shape");
    if (call.outputs[o].dtype < 0 || host::dtype_size(call.outputs[o].dtype) == 0)
      return fail("op-def", host_cpp, param_line("Output", info_.outputs[o].name),
                  "output '" + info_.outputs[o].name + "' has no plain dtype in DataType column " + std::to_string(column));
  }
  // --- TilingFunc ---------------------------------------------------------------------------------------------
  if (!info_.has_tiling)
    return fail("tiling", host_cpp, find_line(host_cpp, R"(AICore\s*\(\s*\))"),
                "the OpDef sets no tiling function — add this->AICore().SetTiling(TilingFunc)");
  host::TilingResult tr = host::run_tiling(call, kTilingCapacity);
  int tl = func_line("SetTiling");
  if (!tr.ok)
    return fail("tiling", host_cpp, tl,
                (tr.message.empty() ? "TilingFunc failed (returned " + std::to_string(tr.status) + ")" : tr.message) +
                    " — aclnn stops here on the chip; check the conditions under which it returns failure for inputs " +
                    [&] {
                      std::string s;
                      for (size_t i = 0; i < call.inputs.size(); ++i)
                        if (call.inputs[i].present)
                          s += (s.empty() ? "" : ", ") + info_.inputs[i].name + " " + shape_str(call.inputs[i].shape) +
                               " " + dname(call.inputs[i].dtype);
                      return s;
                    }());
  if (tr.save_failures > 0)
    return fail("tiling", host_cpp, find_line(host_cpp, R"(SaveToBuffer\s*\()") ? find_line(host_cpp, R"(SaveToBuffer\s*\()") : tl,
                "SaveToBuffer did not fit: the tiling data is larger than the raw tiling buffer (capacity " +
                    std::to_string(tr.capacity) + " bytes, CANN's default maximum tiling data size) — make the "
                    "tiling struct smaller (fewer or shorter TILING_DATA_FIELD_DEF_ARR fields)");
  if (tr.data_size > tr.capacity)
    return fail("tiling", host_cpp, find_line(host_cpp, R"(SetDataSize\s*\()") ? find_line(host_cpp, R"(SetDataSize\s*\()") : tl,
                "SetDataSize(" + std::to_string(tr.data_size) + ") exceeds the raw tiling buffer's capacity of " +
                    std::to_string(tr.capacity) + " bytes — the tiling data must fit GetCapacity()");
  int bl = find_line(host_cpp, R"(SetBlockDim\s*\()");
  if (!tr.block_dim_set || tr.block_dim == 0)
    return fail("block-dim", host_cpp, bl ? bl : tl,
                std::string(tr.block_dim_set ? "SetBlockDim(0)" : "TilingFunc never calls SetBlockDim") +
                    ": the kernel would run on no core — set a block dim in [1, " + std::to_string(kMaxBlockDim) +
                    "], usually PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv() or fewer");
  if (tr.block_dim > kMaxBlockDim)
    return fail("block-dim", host_cpp, bl ? bl : tl,
                "SetBlockDim(" + std::to_string(tr.block_dim) + ") is above CANN's limit of " +
                    std::to_string(kMaxBlockDim) + " logical cores — use at most the core count (" +
                    [&] {
                      const sim::Soc* s = sim::find_soc(soc_);
                      return std::to_string(s ? s->aiv_cores : 0);
                    }() + " vector cores on " + soc_ + ") and loop inside the kernel");
  if (const sim::Soc* s = sim::find_soc(soc_); s && tr.block_dim > s->aiv_cores)
    res.notes.push_back("note: block dim " + std::to_string(tr.block_dim) + " exceeds the " +
                        std::to_string(s->aiv_cores) + " vector cores of " + soc_ +
                        ": on the chip the blocks run in waves");
  res.block_dim = tr.block_dim;
  res.tiling_key = tr.tiling_key;
  res.tiling_bytes = tr.data_size;
  // --- kernel ---------------------------------------------------------------------------------------------------
  BuildOut kb = build_kernel(project_, soc_, defines_for(column)).get();
  if (!kb.ok) {
    Failure f;
    f.text = kb.diag;
    return f;
  }
  res.kernel_cached = kb.cached;
  res.build_s = std::max(host_build_s_, kb.cached ? 0.0 : kb.seconds);   // the two compile in parallel
  void* kh = dlopen(kb.so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!kh)
    return fail("compile", project_.kernel_cpp, 0, std::string("the kernel library does not load: ") + dlerror());
  res.kernel = snake_case(info_.type);
  void* fn = dlsym(kh, res.kernel.c_str());
  if (!fn) {
    auto fns = kernel_functions(project_.kernel_cpp);
    std::string list;
    for (auto& f : fns) list += (list.empty() ? "" : ", ") + f;
    int l = find_line(project_.kernel_cpp, R"(extern\s+"C")");
    return fail("kernel-name", project_.kernel_cpp, l ? l : 1,
                "no kernel function '" + res.kernel + "': CANN launches op " + info_.type + " through `extern \"C\" "
                "__global__ __aicore__ void " + res.kernel + "(GM_ADDR inputs..., GM_ADDR outputs..., GM_ADDR "
                "workspace, GM_ADDR tiling)`; the kernel file defines " +
                    (list.empty() ? std::string("no extern \"C\" __global__ function") : list) + " — rename it");
  }
  // --- GM -------------------------------------------------------------------------------------------------------
  std::vector<void*> owned;
  struct FreeAll {
    std::vector<void*>& v;
    ~FreeAll() {
      for (void* p : v) AscendC::GmFree(p);
    }
  } free_all{owned};
  bool alloc_failed = false;
  size_t alloc_failed_bytes = 0;
  // Each buffer is named for the raw-access message (gm.h); the tiling data stays open to plain pointers.
  auto alloc = [&](size_t n, const std::string& label) {
    void* p = AscendC::GmAlloc(n ? n : 1);
    if (!p) {
      alloc_failed = true;
      alloc_failed_bytes = n;
      static uint8_t dummy[64];
      return dummy;
    }
    owned.push_back(p);
    kgen::sim::gm_set_label(p, label.c_str());
    kgen::sim::gm_set_granule(p, kDeviceAllocGranule);
    return static_cast<uint8_t*>(p);
  };
  LaunchCtx ctx;
  ctx.fn = fn;
  for (size_t i = 0; i < info_.inputs.size(); ++i) {
    const Tensor& t = spec.inputs[i];
    if (!t.present) { ctx.args.push_back(nullptr); continue; }
    uint8_t* p = alloc(t.bytes, "input '" + info_.inputs[i].name + "'");
    if (alloc_failed) break;
    if (t.bytes) std::memcpy(p, t.data, t.bytes);
    ctx.args.push_back(p);
  }
  std::vector<uint8_t*> outs;
  std::vector<size_t> out_bytes;
  for (size_t o = 0; o < info_.outputs.size(); ++o) {
    size_t n = 1;
    for (int64_t d : call.outputs[o].shape) n *= static_cast<size_t>(d);
    size_t bytes = n * host::dtype_size(call.outputs[o].dtype);
    if (o < spec.output_dest.size() && spec.output_dest[o] && spec.output_dest_bytes[o] != bytes)
      return fail("op-def", host_cpp, param_line("Output", info_.outputs[o].name),
                  "output '" + info_.outputs[o].name + "' needs " + std::to_string(bytes) + " bytes (" +
                      shape_str(call.outputs[o].shape) + " " + dname(call.outputs[o].dtype) + ") but the caller's tensor has " +
                      std::to_string(spec.output_dest_bytes[o]) + " — allocate the output with the shape InferShape gives");
    uint8_t* p = alloc(bytes, "output '" + info_.outputs[o].name + "'");
    if (alloc_failed) break;
    std::memset(p, 0xFF, bytes);   // poison: NaN for floats; elements still all-0xFF afterwards were never written
    outs.push_back(p);
    out_bytes.push_back(bytes);
    ctx.args.push_back(p);
  }
  size_t ws = 0;
  for (size_t w : tr.workspace_sizes) ws += w;
  res.workspace_bytes = ws;
  if (!alloc_failed) ctx.args.push_back(alloc(ws ? ws : 32, "the workspace"));
  uint8_t* tiling = alloc_failed ? nullptr : alloc(tr.data_size, "the tiling data");
  if (alloc_failed)
    return fail("gm-alloc", host_cpp, func_line("SetTiling"),
                "cannot allocate " + std::to_string(alloc_failed_bytes) + " bytes of GM (an input, output or the "
                "workspace TilingFunc asks for; the process is limited to its address-space limit) — check the "
                "shapes and GetWorkspaceSizes");
  kgen::sim::gm_set_open(tiling, true);
  if (tr.data_size) std::memcpy(tiling, tr.tiling.data(), tr.data_size);
  ctx.args.push_back(tiling);
  if (ctx.args.size() > kMaxArgs)
    return fail("op-def", host_cpp, 0, "the op has " + std::to_string(ctx.args.size()) + " kernel arguments; kgen supports " +
                                           std::to_string(kMaxArgs));
  // --- launch ---------------------------------------------------------------------------------------------------
  kgen::sim::gm_guard(true);   // candidates touch GM through the API only (sim/gm.h)
  kgen::rt::set_tiling_key(tr.tiling_key);
  kgen::rt::set_kernel_mode(implied_kernel_mode(project_.kernel_cpp));
  kgen::rt::launch(res.kernel.c_str(), tr.block_dim, soc_.c_str(),
                   [](void* c) {
                     auto* L = static_cast<LaunchCtx*>(c);
                     kCallTable[L->args.size()](L->fn, L->args.data());
                   },
                   &ctx, kgen::rt::Loc::current());
  // --- outputs --------------------------------------------------------------------------------------------------
  for (size_t o = 0; o < info_.outputs.size(); ++o) {
    OutputResult r;
    r.name = info_.outputs[o].name;
    r.shape = call.outputs[o].shape;
    r.dtype = call.outputs[o].dtype;
    size_t es = host::dtype_size(r.dtype);
    r.elements = es ? out_bytes[o] / es : 0;
    // Unwritten: still the poison bytes and never the target of a GM write (the emulator's write record).
    const std::vector<bool> written = kgen::sim::gm_written_elements(outs[o], r.elements, static_cast<uint32_t>(es));
    // Untraced: no traced write, yet no longer the poison: something outside the emulated API wrote it.
    for (size_t e = 0; e < r.elements; ++e) {
      if (written[e]) continue;
      const uint8_t* q = outs[o] + e * es;
      bool all = true;
      for (size_t b = 0; b < es && all; ++b) all = q[b] == 0xFF;
      (all ? r.unwritten : r.untraced) += 1;
    }
    if (o < spec.output_dest.size() && spec.output_dest[o]) {
      std::memcpy(spec.output_dest[o], outs[o], out_bytes[o]);
    } else {
      r.data.assign(outs[o], outs[o] + out_bytes[o]);
    }
    if (r.unwritten)
      res.notes.push_back("warning: " + std::to_string(r.unwritten) + " of " + std::to_string(r.elements) +
                          " elements of output '" + r.name + "' were never written by the kernel (they still hold "
                          "the 0xFF poison bytes kgen filled the output with)");
    res.outputs.push_back(std::move(r));
  }
  return std::nullopt;
}
}  // namespace kgen::op
