// emit (MultiKernelBench): the six strings of a submission (docs/op-projects.md) from a compiled program. The kernel
// string carries the kt:: helpers inline (a submission has one kernel source); the binding allocates each output
// from the inputs' sizes as InferShape does; ModelNew takes the attrs as __init__ arguments in order (the task's
// get_init_inputs()) and passes its forward tensors to the op in order.
#include <fmt/format.h>

#include "tile/compile.h"

namespace kgen::tile {
namespace {

// Text of a header without its `#pragma once` and the includes the kernel string already has.
std::string inline_header(const std::string& text) {
  std::string o, line;
  size_t p = 0;
  while (p <= text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    line = text.substr(p, e - p);
    p = e + 1;
    if (line.rfind("#pragma once", 0) == 0 || line.rfind("#include \"kernel_operator.h\"", 0) == 0 ||
        line.rfind("#include \"kgen_tile", 0) == 0)
      continue;
    o += line + "\n";
  }
  return o;
}

const char* aten_dtype(DType t) {
  switch (t) {
    case DType::F32: return "at::kFloat";
    case DType::F16: return "at::kHalf";
    case DType::BF16: return "at::kBFloat16";
    case DType::I32: return "at::kInt";
    case DType::I8: return "at::kChar";
    case DType::U8: return "at::kByte";
    case DType::Bool: return "at::kBool";
    case DType::I64: return "at::kLong";
  }
  return "at::kFloat";
}

// Python string literal body: the sources contain no triple double quotes, but escape backslashes to be safe.
std::string py(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '\\') o += "\\\\";
    else o += c;
  }
  return o;
}
}  // namespace

std::string mkb_submission(const CompileResult& r) {
  const Kernel& k = r.kernel;
  auto file = [&](const std::string& rel) {
    auto it = r.files.find(rel);
    return it == r.files.end() ? std::string() : it->second;
  };
  const std::string base = k.kernel_symbol;
  std::string kernel = file("op_kernel/" + base + ".cpp");
  const std::string marker = "#include \"kgen_tile.h\"\n";
  if (size_t p = kernel.find(marker); p != std::string::npos)
    kernel.replace(p, marker.size(), inline_header(file("op_kernel/kgen_tile.h")));

  // The binding: inputs, attrs, outputs allocated from the input sizes.
  std::string params, call_args, allocs;
  for (const TensorArg& t : k.tensors)
    if (!t.output) {
      params += (params.empty() ? "" : ", ") + std::string("const at::Tensor& ") + camel_lower(t.name);
      call_args += camel_lower(t.name) + ", ";
    }
  for (const AttrArg& a : k.attrs) {
    params += std::string(", ") + (a.type == DType::F32 ? "double " : a.type == DType::I32 ? "int64_t " : "bool ") +
              camel_lower(a.name);
    call_args += camel_lower(a.name) + ", ";
  }
  std::string outs, rets;
  int first_input = -1;
  for (size_t i = 0; i < k.tensors.size(); ++i)
    if (!k.tensors[i].output) {
      first_input = static_cast<int>(i);
      break;
    }
  for (const TensorArg& t : k.tensors) {
    if (!t.output) continue;
    const std::string v = camel_lower(t.name);
    allocs += fmt::format("    std::vector<int64_t> {}Size;\n", v);
    for (const Dim& d : t.dims) {
      if (d.name.empty()) {
        allocs += fmt::format("    {}Size.push_back({});\n", v, d.value);
        continue;
      }
      for (const Sym& s : k.syms) {
        if (s.name != d.name) continue;
        const std::string src = camel_lower(k.tensors[s.tensor].name);
        if (s.star)
          allocs += fmt::format("    for (int64_t d = 0; d + {} < {}.dim(); ++d) {}Size.push_back({}.size(d));\n",
                                s.first, src, v, src);
        else allocs += fmt::format("    {}Size.push_back({}.size({}.dim() - {}));\n", v, src, src, s.first + 1);
      }
    }
    std::string opts = t.type.var >= 0 ? "" : std::string(".dtype(") + aten_dtype(t.type.fixed) + ")";
    if (t.type.var >= 0)
      for (const TensorArg& in : k.tensors)
        if (!in.output && in.type.var == t.type.var) {
          opts = ".dtype(" + camel_lower(in.name) + ".scalar_type())";
          break;
        }
    if (t.type.var >= 0 && k.dtype_vars[t.type.var].base >= 0)   // dtype U = T(i32 -> i64): from T's input
      for (const TensorArg& in : k.tensors)
        if (!in.output && in.type.var == k.dtype_vars[t.type.var].base) {
          const DtypeVar& u = k.dtype_vars[t.type.var];
          std::string e = camel_lower(in.name) + ".scalar_type()";
          for (size_t i = 0; i < u.types.size(); ++i)
            if (u.types[i] != k.dtype_vars[u.base].types[i])
              e = fmt::format("{}.scalar_type() == {} ? {} : {}", camel_lower(in.name),
                              aten_dtype(k.dtype_vars[u.base].types[i]), aten_dtype(u.types[i]), e);
          opts = ".dtype(" + e + ")";
          break;
        }
    allocs += fmt::format("    at::Tensor {} = at::empty({}Size, {}.options(){});\n", v, v,
                          camel_lower(k.tensors[first_input].name), opts);
    outs += (outs.empty() ? "" : ", ") + v;
    rets += (rets.empty() ? "" : ", ") + v;
  }
  int n_out = 0;
  for (const TensorArg& t : k.tensors) n_out += t.output;
  const std::string ret_type = n_out == 1 ? "at::Tensor" : "std::vector<at::Tensor>";
  std::string bind = "#include <torch/library.h>\n#include <torch/extension.h>\n#include \"pytorch_npu_helper.hpp\"\n\n";
  bind += fmt::format("{} {}_impl_npu({}) {{\n", ret_type, base, params);
  bind += allocs;
  bind += fmt::format("    EXEC_NPU_CMD(aclnn{}, {}{});\n", k.op_type, call_args, outs);
  bind += n_out == 1 ? "    return " + rets + ";\n}\n\n" : "    return {" + rets + "};\n}\n\n";
  bind += fmt::format("TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {{\n    m.impl(\"{0}\", &{0}_impl_npu);\n}}\n\n", base);
  bind += fmt::format("PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {{\n    m.def(\"{0}\", &{0}_impl_npu, \"{1}\");\n}}\n",
                      base, k.op_type);

  std::string init_params, init_body, fwd_params, fwd_args;
  for (const AttrArg& a : k.attrs) {
    std::string def = a.type == DType::F32 ? fmt::format("{:g}", a.default_value)
                      : a.type == DType::I32 ? fmt::format("{}", static_cast<int64_t>(a.default_value))
                                             : (a.default_value != 0 ? "True" : "False");
    if (a.type == DType::F32 && def.find_first_of(".e") == std::string::npos && def != "inf") def += ".0";
    init_params += ", " + a.name + "=" + def;
    init_body += fmt::format("        self.{0} = {0}\n", a.name);
  }
  for (const TensorArg& t : k.tensors)
    if (!t.output) {
      fwd_params += ", " + t.name;
      fwd_args += (fwd_args.empty() ? "" : ", ") + t.name;
    }
  for (const AttrArg& a : k.attrs) fwd_args += ", self." + a.name;
  std::string model = "import torch\nimport torch_npu\nimport custom_ops_lib\n\n\nclass ModelNew(torch.nn.Module):\n";
  model += "    def __init__(self" + init_params + ", *unused):\n        super().__init__()\n" + init_body;
  model += "\n    def forward(self" + fwd_params + "):\n        return custom_ops_lib." + base + "(" + fwd_args + ")\n";

  std::string o = fmt::format("# MultiKernelBench submission of {}, generated by `kgen tile compile --emit mkb` from {}.\n",
                              k.op_type, k.file);
  o += "project_json_src = '''\n" + py(file(base + ".json")) + "'''\n\n";
  o += "host_tiling_src = \"\"\"\n" + py(file("op_host/" + base + "_tiling.h")) + "\"\"\"\n\n";
  o += "host_operator_src = \"\"\"\n" + py(file("op_host/" + base + ".cpp")) + "\"\"\"\n\n";
  o += "kernel_src = \"\"\"\n" + py(kernel) + "\"\"\"\n\n";
  o += "python_bind_src = \"\"\"\n" + py(bind) + "\"\"\"\n\n";
  o += "model_src = '''\n" + py(model) + "'''\n";
  return o;
}
}  // namespace kgen::tile
