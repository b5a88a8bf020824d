// exec_aclnn: the aclnn two-phase call of a MultiKernelBench binding, run through the op runner (runner.h).
#include <cmath>
#include <cstring>
#include <memory>

#include "op/aclnn_call.h"
#include "op/aclnn_session.h"
#include "op/npy.h"
#include "op/runner.h"

namespace kgen::op {
namespace {
std::unique_ptr<OpRunner> g_runner;

uint64_t digest(const void* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(p)[i]) * 1099511628211ull;
  return h;
}
struct LaunchOutput {
  const uint8_t* data;
  size_t bytes;
  uint64_t digest;
  bool complete;   // every element written by a traced instruction
  std::string name;
};
std::vector<LaunchOutput>& launch_outputs() {
  static std::vector<LaunchOutput> v;
  return v;
}

// Why an attr passed as C++ type a.cpp does not reach the aclnn function whose parameter opbuild generates for an
// attr of `type` (int: int64_t, float: double, bool: bool, str: char*, list_int: aclIntArray*, list_float:
// aclFloatArray*, list_bool: aclBoolArray*), or "" when it does. MultiKernelBench's EXEC_NPU_CMD
// (pytorch_npu_helper.hpp) converts tensors, at::Scalar, at::IntArrayRef, at::ArrayRef<bool> and at::ScalarType to
// their acl types and passes every other argument unchanged, through a function pointer whose parameter types are
// the converted arguments' types: a float lands where a double is read, an int64_t slot gets a 32-bit int's
// zero-extended register, a std::vector is passed as an object where a pointer is read.
std::string abi_mismatch(const std::string& type, const BindArg& a) {
  const std::string& c = a.cpp;
  if (c.empty() || a.kind == BindArg::None) return "";
  auto is_int = [&] { return c == "bool" || c.find("int") == 0 || c.find("uint") == 0; };
  if (type == "float") {
    if (c == "double" || c == "float") return "";   // a float: computed with what the chip reads (exec_aclnn)
    return "a " + c + " is passed where the generated aclnn function takes double: the value travels in another " +
           "register than the one the callee reads, so the chip computes with garbage — pass a double";
  }
  if (type == "int" || type == "bool") {
    if (c == "float" || c == "double" || c == "at::Scalar")
      return "a " + c + " is passed where the generated aclnn function takes " +
             (type == "int" ? "int64_t" : "bool") + ": the value travels in another register than the callee reads" +
             " — pass an " + (type == "int" ? "int64_t" : "bool");
    if (type == "int" && is_int() && c != "int64_t" && c != "uint64_t" && c != "bool" && a.kind == BindArg::Int && a.i < 0) {
      int bits = c.find("8") != std::string::npos ? 8 : c.find("16") != std::string::npos ? 16 : 32;
      uint64_t seen = static_cast<uint64_t>(a.i) & ((1ull << bits) - 1);
      return "a negative " + c + " (" + std::to_string(a.i) + ") is passed where the generated aclnn function takes " +
             "int64_t: the callee reads the whole register, which holds " + std::to_string(seen) +
             " on the chip — pass an int64_t";
    }
    return "";
  }
  if (type == "str")
    return c == "std::string" ? "a std::string object is passed where the generated aclnn function takes char*: "
                                "the chip reads the object's bytes as a pointer — pass s.c_str()"
                              : "";
  if (type == "list_int" || type == "list_float" || type == "list_bool") {
    if (c.rfind("std::vector", 0) != 0) return "";
    std::string want = type == "list_int" ? "at::IntArrayRef" : type == "list_bool" ? "at::ArrayRef<bool>" : "";
    return "a " + c + " is passed by value where the generated aclnn function takes an acl" +
           (type == "list_int" ? "Int" : type == "list_float" ? "Float" : "Bool") +
           "Array*: EXEC_NPU_CMD converts only " + (want.empty() ? "tensors, scalars, int and bool arrays" : want) +
           ", so the chip reads the vector object as a pointer" +
           (want.empty() ? " — pass the values another way (a tensor input)" : " — pass " + want + "(v)");
  }
  return "";
}

// The double an aclnn function reads from a parameter register that its caller filled with a float: on an aarch64
// host (the Kunpeng servers of Atlas 800T A2), writing a single-precision register clears the rest of it, so the
// float's 32 bits become the low half of a double whose high half is zero — a subnormal, 4.4e-315 for 1e-6.
double float_read_as_double(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const uint64_t wide = bits;
  double d;
  std::memcpy(&d, &wide, 8);
  return d;
}

// The dtype an aclScalar / aclScalarList input arrives in: the param's dtype in the first OpDef column that the
// tensors passed fit, the outputs' included (NPUKernelBench's Arange: three Scalar() inputs, the int32 output picks
// the int32 column), else its first dtype; -1 when the param lists none.
int scalar_dtype(const host::OpInfo& info, size_t i, const std::vector<BindArg>& args) {
  const auto& dts = info.inputs[i].dtypes;
  if (dts.empty()) return -1;
  const size_t ni = info.inputs.size(), na = info.attrs.size(), no = info.outputs.size();
  auto fits = [](const BindArg& a, const std::vector<int>& param_dts, size_t col) {
    const BindArg& t = a.kind == BindArg::TensorList && !a.items.empty() ? a.items[0] : a;
    if (t.kind != BindArg::Tensor || col >= param_dts.size()) return true;
    return param_dts[col] == t.dtype || (t.dtype == 7 && param_dts[col] == kDtBf16);   // uint16: bf16's bits
  };
  for (size_t col = 0; col < dts.size(); ++col) {
    bool ok = true;
    for (size_t k = 0; k < ni && k < args.size() && ok; ++k) ok = fits(args[k], info.inputs[k].dtypes, col);
    if (args.size() == ni + na + no)
      for (size_t o = 0; o < no && ok; ++o) ok = fits(args[ni + na + o], info.outputs[o].dtypes, col);
    if (ok) return dts[col];
  }
  return dts[0];
}

// One scalar (Int, Float or Bool) as an element of `dtype` at `out`, as the aclnn layer converts it; false for a
// dtype it cannot hold.
bool encode_scalar(const BindArg& a, int dtype, uint8_t* out) {
  const double v = a.kind == BindArg::Float ? a.f : a.kind == BindArg::Int ? static_cast<double>(a.i) : a.b;
  switch (dtype) {
    case 0: { float f = static_cast<float>(v); std::memcpy(out, &f, 4); return true; }
    case 11: { std::memcpy(out, &v, 8); return true; }
    case 1: case 27: {   // float16 / bfloat16, round to nearest even through float
      float f = static_cast<float>(v);
      uint32_t x;
      std::memcpy(&x, &f, 4);
      uint16_t h;
      if (dtype == 27) {
        h = static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
      } else {
        uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7FFFFFFFu;
        if (ax >= 0x7F800000u) h = static_cast<uint16_t>(sign | 0x7C00u | (ax > 0x7F800000u ? 0x200u : 0));
        else if (ax >= 0x477FF000u) h = static_cast<uint16_t>(sign | 0x7C00u);
        else if (ax < 0x38800000u) {   // subnormal half
          float m = std::fabs(f) * 16777216.0f;   // 2^24: units of the smallest subnormal
          h = static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(m)));
        } else {
          uint32_t r = ax + 0xFFFu + ((ax >> 13) & 1u) - 0x38000000u;
          h = static_cast<uint16_t>(sign | (r >> 13));
        }
      }
      std::memcpy(out, &h, 2);
      return true;
    }
    case 2: case 4: case 12: { out[0] = static_cast<uint8_t>(static_cast<int64_t>(v)); return true; }
    case 6: case 7: { int16_t x = static_cast<int16_t>(v); std::memcpy(out, &x, 2); return true; }
    case 3: case 8: { int32_t x = static_cast<int32_t>(v); std::memcpy(out, &x, 4); return true; }
    case 9: case 10: { int64_t x = static_cast<int64_t>(v); std::memcpy(out, &x, 8); return true; }
    default: return false;
  }
}

// The tensor an aclIntArray / aclFloatArray / aclBoolArray for a ValueDepend input arrives as: int64, float or bool.
// Returns its element count.
size_t value_array(const BindArg& a, std::vector<uint8_t>& buf, int& dtype) {
  if (a.kind == BindArg::IntList) {
    dtype = 9;
    buf.resize(a.ints.size() * 8);
    std::memcpy(buf.data(), a.ints.data(), buf.size());
    return a.ints.size();
  }
  if (a.kind == BindArg::FloatList) {
    dtype = 0;
    buf.resize(a.floats.size() * 4);
    for (size_t k = 0; k < a.floats.size(); ++k) {
      const float f = static_cast<float>(a.floats[k]);
      std::memcpy(buf.data() + 4 * k, &f, 4);
    }
    return a.floats.size();
  }
  dtype = 12;
  buf.resize(a.bools.size());
  for (size_t k = 0; k < a.bools.size(); ++k) buf[k] = a.bools[k] ? 1 : 0;
  return a.bools.size();
}

// The tensor a Scalar() input (one value) or ScalarList() input (a list) arrives as: the values in the input's dtype
// (scalar_dtype), one after the other. False when the dtype cannot hold them.
bool scalar_tensor(const host::OpInfo& info, size_t i, const std::vector<BindArg>& args, const std::vector<BindArg>& values,
                   std::vector<uint8_t>& buf, int& dtype) {
  dtype = scalar_dtype(info, i, args);
  const size_t es = dtype < 0 ? 0 : host::dtype_size(dtype);
  if (es == 0) return false;
  buf.assign(values.size() * es, 0);
  for (size_t k = 0; k < values.size(); ++k)
    if (!encode_scalar(values[k], dtype, buf.data() + k * es)) return false;
  return true;
}

}  // namespace

std::string aclnn_open(const std::string& project_dir, const std::string& soc, int* exit_code) {
  Project p;
  if (std::string e = find_project(project_dir, p); !e.empty()) {
    if (exit_code) *exit_code = 2;
    return "error[submission] " + project_dir + ": " + e + "\n";
  }
  auto r = std::make_unique<OpRunner>();
  if (auto f = r->open(p, soc)) {
    if (exit_code) *exit_code = f->exit;
    return f->text;
  }
  g_runner = std::move(r);
  if (exit_code) *exit_code = 0;
  return "";
}

std::string exec_aclnn(const std::string& api, std::vector<BindArg>& args, const std::string& site) {
  if (!g_runner) return "error[internal] exec_aclnn(" + api + ") called before the op project was opened (aclnn_open)\n";
  const auto& info = g_runner->info();
  const std::string& host = g_runner->project().host_cpp;
  std::string op = api.rfind("aclnn", 0) == 0 ? api.substr(5) : api;
  if (op != info.type)
    return fail("op-def", host, 0,
                "the binding calls " + api + " but the project's operator is " + info.type +
                    " — EXEC_NPU_CMD(aclnn" + info.type + ", ...)")->text;
  size_t ni = info.inputs.size(), na = info.attrs.size(), no = info.outputs.size();
  // An output named as an input is a ref parameter: opbuild's aclnn function takes it once, in the input's place
  // (`aclTensor *varRef`), and the op writes it in place.
  std::vector<int> ref_of(no, -1);
  size_t refs = 0;
  for (size_t o = 0; o < no; ++o) refs += (ref_of[o] = ref_input(info, o)) >= 0;
  if (args.size() != ni + na + no - refs) {
    std::string sig;
    for (auto& p : info.inputs) sig += (sig.empty() ? "" : ", ") + p.name;
    for (auto& a : info.attrs) sig += (sig.empty() ? "" : ", ") + a.name;
    for (size_t o = 0; o < no; ++o)
      if (ref_of[o] < 0) sig += (sig.empty() ? "" : ", ") + info.outputs[o].name;
    return fail("op-def", host, 0,
                api + " got " + std::to_string(args.size()) + " arguments; the OpDef of " + info.type + " takes " +
                    std::to_string(ni + na + no - refs) + ": inputs, attrs, outputs in order (" + sig + ")" +
                    (refs ? " — an output named as an input is that input, written in place (a ref parameter)" : ""))
        ->text;
  }
  if (refs) {   // the full layout: each ref output is its input's tensor
    std::vector<BindArg> full(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(ni + na));
    size_t next = ni + na;
    for (size_t o = 0; o < no; ++o) full.push_back(ref_of[o] >= 0 ? args[static_cast<size_t>(ref_of[o])] : args[next++]);
    args.swap(full);
  }
  RunSpec spec;
  std::vector<std::vector<uint8_t>> scalars(ni);   // the tensors of Scalar() / ScalarList() inputs, alive for the run
  for (size_t i = 0; i < ni; ++i) {
    BindArg& a = args[i];
    Tensor t;
    const bool number = a.kind == BindArg::Int || a.kind == BindArg::Float || a.kind == BindArg::Bool;
    if (a.kind == BindArg::None) {
      t.present = false;
    } else if (number && info.inputs[i].scalar && scalar_tensor(info, i, args, {a}, scalars[i], t.dtype)) {
      t.shape = {1};
      t.data = scalars[i].data();
      t.bytes = scalars[i].size();
    } else if (a.kind == BindArg::ScalarList && info.inputs[i].scalar_list) {
      if (!scalar_tensor(info, i, args, a.items, scalars[i], t.dtype))
        return fail("op-def", host, g_runner->param_line("Input", info.inputs[i].name),
                    api + " argument " + std::to_string(i + 1) + " (input '" + info.inputs[i].name +
                        "', a ScalarList): its DataType has no element type the scalars can be converted to")->text;
      t.shape = {static_cast<int64_t>(a.items.size())};
      t.data = scalars[i].data();
      t.bytes = scalars[i].size();
    } else if ((a.kind == BindArg::IntList || a.kind == BindArg::FloatList || a.kind == BindArg::BoolList) &&
               info.inputs[i].value_depend) {
      // A ValueDepend input's generated aclnn parameter is an aclIntArray (integer dtypes), aclFloatArray (DT_FLOAT)
      // or aclBoolArray (DT_BOOL) [S76]; the op sees it as a 1-d tensor of int64, float or bool.
      t.shape = {static_cast<int64_t>(value_array(a, scalars[i], t.dtype))};
      t.data = scalars[i].data();
      t.bytes = scalars[i].size();
    } else if (info.inputs[i].kind == host::ParamKind::Dynamic) {
      if (a.kind != BindArg::TensorList)
        return fail("op-def", host, g_runner->param_line("Input", info.inputs[i].name),
                    api + " argument " + std::to_string(i + 1) + " (input '" + info.inputs[i].name + "') is a " +
                        bind_kind_name(a.kind) + ", but the input is DYNAMIC: the generated aclnn function takes an "
                        "aclTensorList* — pass an at::TensorList")->text;
      t.is_list = true;
      for (const BindArg& x : a.items) {
        Tensor e;
        e.shape = x.shape;
        e.dtype = x.dtype;
        e.data = x.data;
        e.bytes = x.bytes;
        e.writeback = x.data;
        t.items.push_back(e);
      }
    } else if (a.kind != BindArg::Tensor) {
      return fail("op-def", host, g_runner->param_line("Input", info.inputs[i].name),
                  api + " argument " + std::to_string(i + 1) + " (input '" + info.inputs[i].name + "') is a " +
                      bind_kind_name(a.kind) + ", not a tensor" +
                      (a.kind == BindArg::TensorList ? " — the input is not DYNAMIC in the OpDef: declare it "
                                                                        ".ParamType(DYNAMIC) to take a tensor list, or pass one "
                                                                        "tensor" : ""))->text;
    } else {
      t.shape = a.shape;
      t.dtype = a.dtype;
      t.data = a.data;
      t.bytes = a.bytes;
      t.writeback = a.data;
    }
    t.origin = "argument " + std::to_string(i + 1);
    spec.inputs.push_back(t);
  }
  for (size_t k = 0; k < na; ++k) {
    BindArg& a = args[ni + k];
    host::AttrValue v = info.attrs[k].value;
    const std::string& t = v.type;
    if (t == "float" && a.cpp == "float" && a.kind == BindArg::Float) {
      // The chip computes with what its callee reads, and so does kgen: an error would call wrong an answer the
      // chip passes (NPUKernelBench's RmsNorm answer passes its epsilon so; about 0 instead of 1e-6 changes nothing).
      v.f = float_read_as_double(static_cast<float>(a.f));
      std::fprintf(stderr,
                   "warning[abi] %s%s%s argument %zu (attr '%s', float): a float is passed where the generated aclnn "
                   "function takes double; the callee reads the double register the float half fills: %.3g instead "
                   "of %g, on the chip and in kgen — pass a double (declare the binding's parameter double, as torch "
                   "requires anyway)\n",
                   site.c_str(), site.empty() ? "" : ": ", api.c_str(), ni + k + 1, info.attrs[k].name.c_str(), v.f, a.f);
      spec.attrs.push_back(v);
      continue;
    }
    if (std::string why = abi_mismatch(t, a); !why.empty())   // line 0: the shim names the EXEC_NPU_CMD call
      return fail("op-def", host, 0,
                  api + " argument " + std::to_string(ni + k + 1) + " (attr '" + info.attrs[k].name + "', " + t +
                      "): " + why)->text;
    bool ok = true;
    if (t == "int" && (a.kind == BindArg::Int || a.kind == BindArg::Bool)) v.i = a.kind == BindArg::Int ? a.i : a.b;
    else if (t == "float" && (a.kind == BindArg::Float || a.kind == BindArg::Int)) v.f = a.kind == BindArg::Float ? a.f : static_cast<double>(a.i);
    else if (t == "bool" && (a.kind == BindArg::Bool || a.kind == BindArg::Int)) v.b = a.kind == BindArg::Bool ? a.b : a.i != 0;
    else if (t == "str" && a.kind == BindArg::Str) v.s = a.s;
    else if (t == "list_int" && a.kind == BindArg::IntList) v.ints = a.ints;
    else if (t == "list_float" && (a.kind == BindArg::FloatList || a.kind == BindArg::IntList)) {
      v.floats = a.floats;
      if (a.kind == BindArg::IntList) v.floats.assign(a.ints.begin(), a.ints.end());
    } else if (t == "list_bool" && a.kind == BindArg::BoolList) v.bools = a.bools;
    else if (a.kind == BindArg::None && !info.attrs[k].required) { /* default */ }
    else ok = false;
    if (!ok)
      return fail("op-def", host, g_runner->param_line("Attr", info.attrs[k].name),
                  api + " argument " + std::to_string(ni + k + 1) + " (attr '" + info.attrs[k].name + "') is a " +
                      bind_kind_name(a.kind) + " but the attr is " + t)->text;
    spec.attrs.push_back(v);
  }
  // Output instances (runner.h): one per output, a DYNAMIC output's list tensors in turn.
  std::vector<const BindArg*> out_args;
  for (size_t o = 0; o < no; ++o) {
    BindArg& a = args[ni + na + o];
    const bool dynamic = info.outputs[o].kind == host::ParamKind::Dynamic;
    std::string where = api + " argument " + std::to_string(ni + na + o + 1) + " (output '" + info.outputs[o].name + "')";
    if (dynamic && a.kind != BindArg::TensorList)
      return fail("op-def", host, g_runner->param_line("Output", info.outputs[o].name),
                  where + " is a " + bind_kind_name(a.kind) + ", but the output is DYNAMIC: the generated aclnn function "
                  "takes an aclTensorList* — pass an at::TensorList of allocated tensors")->text;
    std::vector<const BindArg*> tensors;
    if (dynamic) {
      for (const BindArg& x : a.items) tensors.push_back(&x);
      spec.output_counts.push_back(static_cast<int>(a.items.size()));
    } else {
      tensors.push_back(&a);
      spec.output_counts.push_back(1);
    }
    for (const BindArg* x : tensors) {
      if (x->kind != BindArg::Tensor || !x->data)
        return fail("op-def", host, g_runner->param_line("Output", info.outputs[o].name),
                    where + " must be an allocated tensor" +
                        (a.kind == BindArg::TensorList && !dynamic ? " (a tensor list is passed, but the output is "
                                                                     "not DYNAMIC in the OpDef)" : ""))->text;
      spec.output_shapes.push_back(x->shape);
      spec.output_shape_given.push_back(true);
      spec.output_dtypes.push_back(x->dtype == 7 ? -1 : x->dtype);   // uint16 may be bf16's bits: the column says
      spec.output_dest.push_back(x->data);
      spec.output_dest_bytes.push_back(x->bytes);
      out_args.push_back(x);
    }
  }
  RunResult res;
  if (auto f = g_runner->run(spec, res)) return f->text;
  for (size_t k = 0; k < out_args.size() && k < res.outputs.size(); ++k) {
    int want = out_args[k]->dtype;
    int got = res.outputs[k].dtype;
    if (want != got && !(want == 7 && got == kDtBf16))
      return fail("op-def", host, g_runner->param_line("Output", info.outputs[res.outputs[k].param].name),
                  "output '" + res.outputs[k].name + "' is " + host::dtype_name(got) + " in the OpDef column used, "
                  "but the tensor passed for it is " + host::dtype_name(want) +
                  " — allocate it with the op's output dtype")->text;
  }
  for (size_t k = 0; k < out_args.size() && k < res.outputs.size(); ++k) {
    const BindArg& a = *out_args[k];
    launch_outputs().push_back({static_cast<const uint8_t*>(a.data), a.bytes, digest(a.data, a.bytes),
                                res.outputs[k].unwritten == 0 && res.outputs[k].untraced == 0, res.outputs[k].name});
  }
  for (auto& n : res.notes) std::fprintf(stderr, "%s\n", n.c_str());
  return "";
}

bool launch_output(const void* data, size_t bytes, std::string& why) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (auto it = launch_outputs().rbegin(); it != launch_outputs().rend(); ++it) {
    if (p < it->data || p + bytes > it->data + it->bytes) continue;
    if (digest(it->data, it->bytes) != it->digest) {
      why = "the kernel wrote it (output '" + it->name + "'), but the host code changed it afterwards";
      return false;
    }
    if (!it->complete) {
      why = "it is output '" + it->name + "' of a launch that did not write all of it";
      return false;
    }
    return true;
  }
  why = launch_outputs().empty() ? "no kernel was launched (EXEC_NPU_CMD never ran)"
                                 : "it is none of the outputs the kernel launches wrote";
  return false;
}
}  // namespace kgen::op
