#include "op/runner.h"

#include "sim/gm.h"
#include "sim/core.h"


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

#include "op/core_type_builds.h"
#include "op/npy.h"
#include "perf/model.h"
#include "sim/gm_races.h"
#include "sim/soc.h"
#include "sim/timing.h"
#include "sim/trace_export.h"
#include "sim/trace_io.h"
#include "tikicpulib.h"

extern int8_t g_coreType;   // the running core's type, AscendC::AIC or AIV (sim/launch.cpp)

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
int ref_input(const host::OpInfo& op, size_t output) {
  for (size_t i = 0; i < op.inputs.size(); ++i)
    if (op.inputs[i].name == op.outputs[output].name) return static_cast<int>(i);
  return -1;
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
// A given dtype fits a param's: the same, uint16 data for bfloat16 (a .npy has no bf16), or a bool tensor for a
// DT_UINT8 param (NPUKernelBench's ScatterList declares its mask DT_UINT8 and its harness passes torch.bool masks;
// the answer is correct on the chip, so the aclnn layer takes the one-byte bool as uint8; S85).
static bool dtype_matches(int given, int want) {
  return given == want || (given == 7 && want == kDtBf16) || (given == 12 && want == 4);
}
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
  host::set_target_soc(soc);   // its AddConfig for this SoC's family redefines params (op_host.h)
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

// The dtype of an input: a DYNAMIC input's list has one (run() refuses mixed lists before any column is picked).
static int tensor_dtype(const Tensor& t) { return t.is_list && !t.items.empty() ? t.items[0].dtype : t.dtype; }
static bool tensor_dtype_matches(const Tensor& t, int want) {
  return !t.present || (t.is_list && t.items.empty()) || dtype_matches(tensor_dtype(t), want);
}

std::optional<Failure> OpRunner::pick_column(const std::vector<Tensor>& inputs, const std::vector<int>& want_out,
                                             int& column) const {
  int n = std::max(1, column_count(info_));
  auto inputs_match = [&](int j) {
    for (size_t i = 0; i < info_.inputs.size(); ++i)
      if (!tensor_dtype_matches(inputs[i], param_dtype(info_.inputs[i], j))) return false;
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
      if (!inputs[i].present) continue;
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
    const int shown = tensor_dtype(inputs[i]);
    given += (i ? ", " : "") + info_.inputs[i].name + " " +
             (!inputs[i].present ? std::string("(absent)")
              : inputs[i].is_list ? "list of " + std::to_string(inputs[i].items.size()) + " " + npy_dtype_name(shown)
                                  : npy_dtype_name(shown));
    bool any = false;
    for (int j = 0; j < n; ++j) any = any || tensor_dtype_matches(inputs[i], param_dtype(info_.inputs[i], j));
    if (!any && !found_bad) { bad = i; found_bad = true; }
  }
  for (int j = 0; j < n; ++j) {
    accepts += "\n  column " + std::to_string(j) + ": (";
    for (size_t i = 0; i < info_.inputs.size(); ++i) accepts += (i ? ", " : "") + dname(param_dtype(info_.inputs[i], j));
    accepts += ")";
  }
  std::string nm = info_.inputs.empty() ? "" : info_.inputs[bad].name;
  std::string msg = found_bad ? "input '" + nm + "' has " + (inputs[bad].is_list ? "a tensor of " : "") + "dtype " +
                                    npy_dtype_name(tensor_dtype(inputs[bad])) + ", which its DataType list does not contain"
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
      // as CANN's kernel build defines them (asc-devkit ascendc_impl_build.py add_dtype_fmt_option_single)
      int dt = param_dtype(p, column);
      if (dt < 0) continue;
      d.emplace_back("DTYPE_" + upper(p.name), host::dtype_cpp_name(dt));
      d.emplace_back("ORIG_DTYPE_" + upper(p.name), host::dtype_enum_name(dt));
      d.emplace_back("FORMAT_" + upper(p.name), host::format_enum_name(param_format(p, column)));
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
  void* fn = nullptr;                        // the kernel function (one build)
  void* fn_aic = nullptr;                    // per-core-type builds: the function each core type runs (null: the
  void* fn_aiv = nullptr;                    // build does not link, unlinked_*: why)
  std::string unlinked_aic, unlinked_aiv, kernel_cpp;
  int kernel_line = 1;                       // the kernel function's line, for that error
  std::vector<uint8_t*> args;
};
// The kernel function the running core calls.
void* core_function(const LaunchCtx& L) {
  if (L.fn) return L.fn;
  const bool aic = g_coreType == AscendC::AIC;
  if (void* f = aic ? L.fn_aic : L.fn_aiv) return f;
  kgen::sim::fail_at("compile", "launch", L.kernel_cpp.c_str(), static_cast<uint32_t>(L.kernel_line),
                     std::string("the kernel runs on ") + (aic ? "AIC" : "AIV") + " cores, but its " + (aic ? "AIC" : "AIV") +
                         " build (the kernel is built per core type: it uses g_coreType as a constant) does not link: " +
                         (aic ? L.unlinked_aic : L.unlinked_aiv) + " — define the code path of that core type, or "
                         "declare a kernel type without it (KERNEL_TASK_TYPE_DEFAULT)");
}
// The tensor-list descriptor CANN passes a kernel for a DYNAMIC param (the layout AscendC::ListTensorDesc decodes,
// asc-devkit impl/basic_api/dav_c220/kernel_operator_list_tensor_impl.h, docs/sources.md): word 0 is the byte offset
// of the pointer table; then per tensor k a header word (rank | k << 32) and its dims; then the k data pointers.
std::vector<uint64_t> tensor_list_desc(const std::vector<std::vector<int64_t>>& shapes,
                                       const std::vector<uint8_t*>& ptrs) {
  std::vector<uint64_t> d(1, 0);
  for (size_t k = 0; k < shapes.size(); ++k) {
    d.push_back(static_cast<uint64_t>(shapes[k].size()) | (static_cast<uint64_t>(k) << 32));
    for (int64_t x : shapes[k]) d.push_back(static_cast<uint64_t>(x));
  }
  d[0] = d.size() * sizeof(uint64_t);
  for (uint8_t* p : ptrs) d.push_back(reinterpret_cast<uint64_t>(p));
  return d;
}
}  // namespace

std::optional<Failure> OpRunner::run(const RunSpec& spec, RunResult& res) {
  const std::string& host_cpp = project_.host_cpp;
  res = RunResult{};
  res.op = info_.type;
  res.soc = soc_;
  res.host_cached = host_cached_;
  // --- inputs against the OpDef: count, presence, lists only for DYNAMIC inputs -------------------------------
  if (spec.inputs.size() != info_.inputs.size())
    return fail("op-def", host_cpp, 0, "internal: input list does not match the OpDef", 1);
  std::vector<Tensor> inputs = spec.inputs;
  for (size_t i = 0; i < info_.inputs.size(); ++i) {
    const host::ParamInfo& p = info_.inputs[i];
    Tensor& t = inputs[i];
    if (!t.present && p.kind == host::ParamKind::Required)
      return fail("op-def", host_cpp, param_line("Input", p.name),
                  "required input '" + p.name + "' is not given — pass --input " + p.name + "=FILE.npy");
    if (!t.present && p.kind == host::ParamKind::Dynamic)
      return fail("op-def", host_cpp, param_line("Input", p.name),
                  "DYNAMIC input '" + p.name + "' is not given — pass its tensors (--input " + p.name +
                      "=A.npy,B.npy,...)");
    if (p.value_depend && t.present && !t.is_list && !t.data && t.bytes)
      return fail("op-def", host_cpp, param_line("Input", p.name),
                  "input '" + p.name + "' is ValueDepend (TilingFunc reads its values), so a timing-only run needs its "
                  "data too — give it as --input " + p.name + "=FILE.npy, not by shape");
    if (!t.data && t.bytes && t.present && !t.is_list && !spec.timing_only)
      return fail("op-def", host_cpp, param_line("Input", p.name),
                  "input '" + p.name + "' has a shape but no data: only a timing-only run (--timing-only) takes "
                  "inputs by shape", 2);
    if (t.is_list && p.kind != host::ParamKind::Dynamic)
      return fail("op-def", host_cpp, param_line("Input", p.name),
                  "input '" + p.name + "' is given a list of " + std::to_string(t.items.size()) +
                      " tensors but is not DYNAMIC in the OpDef — pass one tensor, or declare "
                      ".ParamType(DYNAMIC) for a tensor list");
    for (size_t k = 1; t.is_list && k < t.items.size(); ++k)
      if (t.items[k].dtype != t.items[0].dtype)
        return fail("op-def", host_cpp, param_line("Input", p.name),
                    "the tensors of list '" + p.name + "' have different dtypes (" + npy_dtype_name(t.items[0].dtype) +
                        " at 0, " + npy_dtype_name(t.items[k].dtype) + " at " + std::to_string(k) +
                        "): a tensor list has the one dtype of the DataType column — convert them to one dtype");
    if (!t.is_list && p.kind == host::ParamKind::Dynamic) {   // one tensor for a tensor list: a list of one
      Tensor one = t;
      t = Tensor{};
      t.is_list = true;
      t.origin = one.origin;
      t.items.push_back(one);
    }
  }
  // --- dtype column, InferShape / InferDataType ---------------------------------------------------------------
  int column = 0;
  if (auto f = pick_column(inputs, {}, column)) return f;
  auto tensor_arg = [&](const Tensor& t, int dtype, int format) {
    host::TensorArg a;
    a.present = t.present;
    a.shape = t.shape;
    a.dtype = t.present ? dtype : 0;
    a.format = plain_format(format) ? format : 2;
    a.data = t.data;
    return a;
  };
  host::OpCall call;
  call.op = info_.type;
  call.soc = soc_;
  size_t first_list = SIZE_MAX;   // tensors of the first DYNAMIC input: the default count of DYNAMIC outputs
  for (size_t i = 0; i < info_.inputs.size(); ++i) {
    int dt = param_dtype(info_.inputs[i], column), f = param_format(info_.inputs[i], column);
    if (!inputs[i].is_list) {
      call.inputs.push_back(tensor_arg(inputs[i], dt, f));
      continue;
    }
    host::TensorArg l;
    l.is_list = true;
    for (const Tensor& x : inputs[i].items) l.items.push_back(tensor_arg(x, dt, f));
    if (first_list == SIZE_MAX) first_list = inputs[i].items.size();
    call.inputs.push_back(l);
  }
  // Output instances: (param, k), with their shapes and dtypes as far as known.
  struct Out {
    size_t param;
    int k;           // -1: not DYNAMIC
    std::vector<int64_t> shape;
    bool given = false;
    int dtype = 0, format = 2;
    std::string name;
  };
  std::vector<Out> outs;
  for (size_t o = 0; o < info_.outputs.size(); ++o) {
    const host::ParamInfo& p = info_.outputs[o];
    int n = 1;
    if (p.kind == host::ParamKind::Dynamic) {
      n = o < spec.output_counts.size() && spec.output_counts[o] >= 0 ? spec.output_counts[o]
          : first_list != SIZE_MAX                                    ? static_cast<int>(first_list)
                                                                      : -1;
      if (n < 0)
        return fail("op-def", host_cpp, param_line("Output", p.name),
                    "output '" + p.name + "' is DYNAMIC and no count is given, and the op has no DYNAMIC input to "
                    "take it from — give its shapes with --output-shape " + p.name + "=D0,D1;D0,D1 (one per tensor)");
    }
    for (int k = 0; k < n; ++k) {
      Out x;
      x.param = o;
      x.k = p.kind == host::ParamKind::Dynamic ? k : -1;
      x.dtype = param_dtype(p, column);
      int f = param_format(p, column);
      x.format = plain_format(f) ? f : 2;
      x.name = p.name + (x.k >= 0 ? "[" + std::to_string(k) + "]" : "");
      size_t idx = outs.size();
      if (idx < spec.output_shape_given.size() && spec.output_shape_given[idx]) {
        x.given = true;
        x.shape = spec.output_shapes[idx];
      }
      outs.push_back(x);
    }
  }
  auto set_outputs = [&] {
    call.outputs.clear();
    for (size_t o = 0; o < info_.outputs.size(); ++o) {
      host::TensorArg l;
      l.is_list = info_.outputs[o].kind == host::ParamKind::Dynamic;
      for (const Out& x : outs) {
        if (x.param != o) continue;
        host::TensorArg a;
        a.shape = x.shape;
        a.dtype = x.dtype;
        a.format = x.format;
        if (l.is_list) l.items.push_back(a);
        else l = a;
      }
      call.outputs.push_back(l);
    }
  };
  set_outputs();
  call.attrs = spec.attrs;
  bool all_given = true;
  for (const Out& x : outs) all_given = all_given && x.given;
  if (info_.has_infer_shape) {
    host::InferResult ir = host::infer(call);
    if (!ir.ok && !all_given)
      return fail("infer-shape", host_cpp, func_line("SetInferShape"),
                  "the InferShape function failed: " + ir.message +
                      " — fix it, or give every output's shape with --output-shape NAME=D0,D1,...");
    if (ir.ok) {
      for (size_t k = 0; k < outs.size() && k < ir.shapes.size(); ++k)
        if (!outs[k].given) outs[k].shape = ir.shapes[k];
      bool differs = false;
      std::vector<int> want(info_.outputs.size(), -1);   // per output param: its first instance's inferred dtype
      if (!spec.output_dtypes.empty()) ir.dtypes = spec.output_dtypes;   // the caller's tensors (exec_aclnn)
      for (size_t k = 0; k < ir.dtypes.size() && k < outs.size(); ++k) {
        differs = differs || (ir.dtypes[k] >= 0 && ir.dtypes[k] != outs[k].dtype);
        if (want[outs[k].param] < 0) want[outs[k].param] = ir.dtypes[k];
      }
      if (differs) {
        int c2 = column;
        if (auto f = pick_column(inputs, want, c2)) return f;
        column = c2;
        for (size_t k = 0; k < outs.size(); ++k) {
          int w = k < ir.dtypes.size() && spec.output_dtypes.empty() ? ir.dtypes[k] : -1;   // the caller's: checked
          outs[k].dtype = w >= 0 ? w : param_dtype(info_.outputs[outs[k].param], column);   // against the column
        }
      }
      set_outputs();
    }
  } else if (!all_given) {
    std::string missing;
    for (const Out& x : outs)
      if (!x.given) missing += (missing.empty() ? "" : ", ") + x.name;
    return fail("infer-shape", host_cpp, find_line(host_cpp, R"(:\s*public\s+(?:ops::)?OpDef)"),
                "the OpDef sets no InferShape (SetInferShape) and no shape was given for output(s) " + missing +
                    " — add an InferShape function or pass --output-shape " + info_.outputs[outs[0].param].name +
                    (outs[0].k >= 0 ? "=D0,D1;D0,D1 (one shape per tensor)" : "=D0,D1,..."));
  }
  res.column = column;
  for (const Out& x : outs) {
    for (int64_t d : x.shape)
      if (d < 0)
        return fail("infer-shape", host_cpp, func_line("SetInferShape"),
                    "output '" + x.name + "' has shape " + shape_str(x.shape) +
                        " with an unknown (negative) dimension — give it with --output-shape");
    if (x.dtype < 0 || host::dtype_size(x.dtype) == 0)
      return fail("op-def", host_cpp, param_line("Output", info_.outputs[x.param].name),
                  "output '" + x.name + "' has no plain dtype in DataType column " + std::to_string(column));
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
                      for (size_t i = 0; i < call.inputs.size(); ++i) {
                        const host::TensorArg& t = call.inputs[i];
                        if (t.is_list) {
                          std::string l;
                          for (auto& x : t.items) l += (l.empty() ? "" : ", ") + shape_str(x.shape);
                          s += (s.empty() ? "" : ", ") + info_.inputs[i].name + " [" + l + "] " +
                               (t.items.empty() ? "" : dname(t.items[0].dtype));
                        } else if (t.present) {
                          s += (s.empty() ? "" : ", ") + info_.inputs[i].name + " " + shape_str(t.shape) + " " +
                               dname(t.dtype);
                        }
                      }
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
  res.tiling.assign(tr.tiling.begin(), tr.tiling.begin() + std::min(tr.data_size, tr.tiling.size()));
  if (spec.tiling_only) return std::nullopt;
  // --- kernel ---------------------------------------------------------------------------------------------------
  // A kernel built per core type (core_type_builds.h) has an AIC and an AIV library; a core type whose build does not
  // link (it calls a core-type specialization the kernel never defines) has no code, as CANN's build infers from the
  // instructions each build holds, and the kernel type leaves it out.
  const std::vector<Defines> builds = kernel_builds(project_, soc_, defines_for(column));
  std::vector<std::shared_future<BuildOut>> building;
  for (const Defines& d : builds) building.push_back(build_kernel(project_, soc_, d));
  res.kernel = snake_case(info_.type);
  LaunchCtx ctx;
  res.kernel_cached = true;
  double kernel_s = 0;
  for (size_t k = 0; k < building.size(); ++k) {
    BuildOut kb = building[k].get();
    if (!kb.ok) {
      Failure f;
      f.text = kb.diag;
      return f;
    }
    res.kernel_cached = res.kernel_cached && kb.cached;
    kernel_s = std::max(kernel_s, kb.cached ? 0.0 : kb.seconds);
    void* kh = dlopen(kb.so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!kh && builds.size() == 1)
      return fail("compile", project_.kernel_cpp, 0, std::string("the kernel library does not load: ") + dlerror());
    if (!kh) {
      (k == 0 ? ctx.unlinked_aic : ctx.unlinked_aiv) = dlerror();
      continue;
    }
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
    if (builds.size() == 1) ctx.fn = fn;
    else (k == 0 ? ctx.fn_aic : ctx.fn_aiv) = fn;
  }
  if (builds.size() > 1 && !ctx.fn_aic && !ctx.fn_aiv)
    return fail("compile", project_.kernel_cpp, 0,
                "neither the AIC nor the AIV build of the kernel (built per core type: it uses g_coreType as a "
                "constant) loads: " + ctx.unlinked_aiv);
  res.build_s = std::max(host_build_s_, kernel_s);   // the host and the kernel builds compile in parallel
  if (builds.size() > 1) {   // for core_function's error, should a core type without code be launched
    ctx.kernel_cpp = project_.kernel_cpp;
    if (int l = find_line(project_.kernel_cpp, R"(extern\s+"C")")) ctx.kernel_line = l;
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
  // A timing-only run's tensors without data are reservations (sim/gm.h gm_reserve): address space, no memory.
  auto alloc = [&](size_t n, const std::string& label, bool no_data = false) {
    void* p = no_data ? kgen::sim::gm_reserve(n ? n : 1) : AscendC::GmAlloc(n ? n : 1);
    if (!p) {
      alloc_failed = true;
      alloc_failed_bytes = n;
      static uint8_t dummy[64];
      return dummy;
    }
    owned.push_back(p);
    res.gm_bytes += n ? n : 1;
    kgen::sim::gm_set_label(p, label.c_str());
    kgen::sim::gm_set_granule(p, kDeviceAllocGranule);
    return static_cast<uint8_t*>(p);
  };
  // A DYNAMIC param reaches the kernel as one GM address: a tensor-list descriptor, which kernels read through
  // plain pointers (ListTensorDesc, or the pointer table directly), so it stays open like the tiling data.
  auto list_arg = [&](const std::vector<std::vector<int64_t>>& shapes, const std::vector<uint8_t*>& ptrs,
                      const std::string& label) {
    std::vector<uint64_t> d = tensor_list_desc(shapes, ptrs);
    uint8_t* p = alloc(d.size() * 8, label);
    if (alloc_failed) return p;
    std::memcpy(p, d.data(), d.size() * 8);
    kgen::sim::gm_set_open(p, true);
    return p;
  };
  std::vector<std::pair<const Tensor*, uint8_t*>> input_gm;   // for writing back in-place results
  auto tensor_gm = [&](const Tensor& t, const std::string& label) {
    uint8_t* p = alloc(t.bytes, label, spec.timing_only && !t.data);
    if (alloc_failed) return p;
    if (t.data && t.bytes) std::memcpy(p, t.data, t.bytes);
    input_gm.push_back({&t, p});
    return p;
  };
  for (size_t i = 0; i < info_.inputs.size() && !alloc_failed; ++i) {
    const Tensor& t = inputs[i];
    const std::string label = "input '" + info_.inputs[i].name + "'";
    if (!t.present) {
      ctx.args.push_back(nullptr);
    } else if (!t.is_list) {
      ctx.args.push_back(tensor_gm(t, label));
    } else {
      std::vector<std::vector<int64_t>> shapes;
      std::vector<uint8_t*> ptrs;
      for (size_t k = 0; k < t.items.size() && !alloc_failed; ++k) {
        ptrs.push_back(tensor_gm(t.items[k], "input '" + info_.inputs[i].name + "[" + std::to_string(k) + "]'"));
        shapes.push_back(t.items[k].shape);
      }
      if (!alloc_failed) ctx.args.push_back(list_arg(shapes, ptrs, "the tensor list of " + label));
    }
  }
  std::vector<uint8_t*> out_ptr;
  std::vector<size_t> out_bytes;
  std::vector<bool> out_is_ref;   // an output named as an input: that input's GM (a list's: its tensor), written in place
  std::vector<std::vector<uint8_t>> out_init;   // a caller's output tensor as it came (empty: poisoned, or a ref)
  for (size_t k = 0; k < outs.size() && !alloc_failed; ++k) {
    size_t n = 1;
    for (int64_t d : outs[k].shape) n *= static_cast<size_t>(d);
    size_t bytes = n * host::dtype_size(outs[k].dtype);
    if (k < spec.output_dest.size() && spec.output_dest[k] && spec.output_dest_bytes[k] != bytes)
      return fail("op-def", host_cpp, param_line("Output", info_.outputs[outs[k].param].name),
                  "output '" + outs[k].name + "' needs " + std::to_string(bytes) + " bytes (" + shape_str(outs[k].shape) +
                      " " + dname(outs[k].dtype) + ") but the caller's tensor has " +
                      std::to_string(spec.output_dest_bytes[k]) + " — allocate the output with the shape InferShape gives");
    uint8_t* ref = nullptr;
    if (const int i = ref_input(info_, outs[k].param); i >= 0) {
      // a ref output is its input's GM: the tensor itself, or for a DYNAMIC list the list's tensor of the same
      // index (NPUKernelBench's ScatterList updates its var list in place)
      const Tensor& in = inputs[static_cast<size_t>(i)];
      const Tensor* same = nullptr;
      if (in.present && !in.is_list && outs[k].k < 0) same = &in;
      if (in.present && in.is_list && outs[k].k >= 0 && static_cast<size_t>(outs[k].k) < in.items.size())
        same = &in.items[static_cast<size_t>(outs[k].k)];
      if (same && same->bytes == bytes)
        for (auto& [t, gp] : input_gm)
          if (t == same) ref = gp;
    }
    out_is_ref.push_back(ref != nullptr);
    if (ref) {
      out_init.emplace_back();
      out_ptr.push_back(ref);
      out_bytes.push_back(bytes);
      continue;
    }
    uint8_t* p = alloc(bytes, "output '" + outs[k].name + "'", spec.timing_only);
    if (alloc_failed) break;
    // The output's device memory as the caller left it (a binding's tensor: torch::empty's garbage, which the shim
    // makes 0xFF, or the zeros of zero_() a kernel may add to), else the 0xFF poison: NaN for floats; elements still
    // all-0xFF afterwards were never written.
    const bool given = k < spec.output_dest.size() && spec.output_dest[k];
    if (!spec.timing_only) {
      if (given) std::memcpy(p, spec.output_dest[k], bytes);
      else std::memset(p, 0xFF, bytes);
    }
    out_init.push_back(given && !spec.timing_only ? std::vector<uint8_t>(p, p + bytes) : std::vector<uint8_t>());
    out_ptr.push_back(p);
    out_bytes.push_back(bytes);
  }
  for (size_t o = 0; o < info_.outputs.size() && !alloc_failed; ++o) {
    std::vector<std::vector<int64_t>> shapes;
    std::vector<uint8_t*> ptrs;
    for (size_t k = 0; k < outs.size(); ++k)
      if (outs[k].param == o) {
        shapes.push_back(outs[k].shape);
        ptrs.push_back(out_ptr[k]);
      }
    if (info_.outputs[o].kind != host::ParamKind::Dynamic) ctx.args.push_back(ptrs.at(0));
    else ctx.args.push_back(list_arg(shapes, ptrs, "the tensor list of output '" + info_.outputs[o].name + "'"));
  }
  size_t ws = 0;
  for (size_t w : tr.workspace_sizes) ws += w;
  res.workspace_bytes = ws;
  if (!alloc_failed) ctx.args.push_back(alloc(ws ? ws : 32, "the workspace", spec.timing_only));
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
  AscendC::KernelMode mode = implied_kernel_mode(project_.kernel_cpp);
  if (!ctx.fn && !ctx.fn_aiv) mode = AscendC::KernelMode::AIC_MODE;   // per core type: only one build has code
  if (!ctx.fn && !ctx.fn_aic) mode = AscendC::KernelMode::AIV_MODE;
  kgen::rt::set_kernel_mode(mode);
  struct TimingOnly {   // reset even when the launch throws (tests run the emulator with throw_on_error)
    explicit TimingOnly(bool on) {
      kgen::sim::reset_value_reads();
      kgen::sim::set_timing_only(on);
    }
    ~TimingOnly() { kgen::sim::set_timing_only(false); }
  } timing_only(spec.timing_only);
  kgen::rt::launch(res.kernel.c_str(), tr.block_dim, soc_.c_str(),
                   [](void* c) {
                     auto* L = static_cast<LaunchCtx*>(c);
                     kCallTable[L->args.size()](core_function(*L), L->args.data());
                   },
                   &ctx, kgen::rt::Loc::current());
  for (const auto& core : kgen::sim::last_launch_trace().cores) res.records += core.recs.size();
  if (spec.trace && spec.trace_put)   // GM as (allocation, offset): deterministic
    perf::encode_launch(kgen::sim::last_launch_trace(), &kgen::sim::gm_locate, spec.trace_begin, spec.trace_put);
  else if (spec.trace)
    res.trace = kgen::sim::last_trace_encoded();
  if (spec.timing_only) {   // the trace is the result: no values to write back or read
    res.timing_only = true;
    const kgen::sim::ValueReads vr = kgen::sim::value_reads();
    res.value_reads = vr.count;
    res.first_value_read = vr.first;
  }
  // --- inputs the kernel wrote (in place), back to the caller's memory ------------------------------------------
  for (auto& [t, p] : input_gm) {
    if (!spec.timing_only && t->writeback && t->bytes && kgen::sim::gm_range_written(p, t->bytes))
      std::memcpy(t->writeback, p, t->bytes);
  }
  // --- outputs --------------------------------------------------------------------------------------------------
  for (size_t k = 0; k < outs.size(); ++k) {
    OutputResult r;
    r.name = outs[k].name;
    r.param = outs[k].param;
    r.shape = outs[k].shape;
    r.dtype = outs[k].dtype;
    size_t es = host::dtype_size(r.dtype);
    r.elements = es ? out_bytes[k] / es : 0;
    if (spec.timing_only) {   // a reservation: shape and dtype only
      res.outputs.push_back(std::move(r));
      continue;
    }
    // Unwritten: still the poison bytes and never the target of a GM write (the emulator's write record). A ref
    // output keeps its input's values where the kernel does not write: nothing to count.
    std::vector<bool> written = kgen::sim::gm_written_elements(out_ptr[k], r.elements, static_cast<uint32_t>(es));
    if (out_is_ref[k]) written.assign(r.elements, true);
    // Untraced: no traced write, yet neither the poison nor the caller's value: something outside the emulated API
    // wrote it. An element that keeps the value the caller's tensor came with (zero_() before the call) is fine.
    const std::vector<uint8_t>& init = out_init[k];
    for (size_t e = 0; e < r.elements; ++e) {
      if (written[e]) continue;
      const uint8_t* q = out_ptr[k] + e * es;
      bool all = true;
      for (size_t b = 0; b < es && all; ++b) all = q[b] == 0xFF;
      if (!all && !init.empty() && std::memcmp(q, init.data() + e * es, es) == 0) continue;
      (all ? r.unwritten : r.untraced) += 1;
    }
    if (k < spec.output_dest.size() && spec.output_dest[k]) {
      std::memcpy(spec.output_dest[k], out_ptr[k], out_bytes[k]);
    } else {
      r.data.assign(out_ptr[k], out_ptr[k] + out_bytes[k]);
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
