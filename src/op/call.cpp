// `kgen-oprun call`: runs one function of a MultiKernelBench binding (python_bind_src) on the emulator.
//
//   kgen-oprun call --project P --bind BIND.cpp --fn NAME --args ARGS.json --out DIR [--soc S] [--trusted-binding]
//
// --trusted-binding: the binding is the task's (an NPUKernelBench pybind.cpp), so its results need not be tensors
// a kernel launch wrote (it may post-process them on the host, as the harness's bindings do).
//
// The binding is compiled against kgen's torch shim (include/torch_shim) into bind.so, cached by content hash under
// $KGEN_CACHE/op/bind-<hash>.so; the project's host library is opened (aclnn_open), bind.so is dlopen'ed (its
// EXEC_NPU_CMD calls resolve kgen::op::exec_aclnn in this executable) and kgen_bind_call(NAME, args) runs. ARGS.json
// is a list of {"kind": "tensor", "path": "x.npy", "dtype": "float32"|"bfloat16"|...} / {"kind": "int"|"float"|
// "bool"|"str"|"int_list"|"float_list"|"bool_list", "value": ...} / {"kind": "none"} / {"kind": "tensor_list",
// "items": [tensor, ...]} (an at::TensorList or std::vector<at::Tensor> parameter); the returned tensors are
// written as DIR/result<i>.npy and listed in DIR/results.json the same way (a returned vector as a tensor_list).
// Exit status: 0, 3 (the submission or its op is wrong: diagnostics on stderr), 2 (usage), 1 (internal).
#include "op/call.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <fstream>
#include <future>
#include <random>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "op/aclnn_call.h"
#include "op/aclnn_session.h"
#include "op/bind_build.h"
#include "op/build.h"
#include "op/npy.h"
#include "sandbox/digest.h"
#include "sandbox/paths.h"

namespace kgen::op {
namespace {
namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}


int usage(const char* msg) {
  std::fprintf(stderr,
               "kgen-oprun call: %s\nusage: kgen-oprun call --project P --bind BIND.cpp --fn NAME --args ARGS.json "
               "--out DIR [--soc S]\n",
               msg);
  return 2;
}
}  // namespace

int call_main(int argc, char** argv) {
  std::string project, bind, fn, args_path, out_dir, soc = "Ascend910B2";
  bool trusted_binding = false;   // the task's own binding (NPUKernelBench's pybind.cpp), not the candidate's
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&](std::string& dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    bool ok = true;
    if (a == "--project") ok = val(project);
    else if (a == "--bind") ok = val(bind);
    else if (a == "--fn") ok = val(fn);
    else if (a == "--args") ok = val(args_path);
    else if (a == "--out") ok = val(out_dir);
    else if (a == "--soc") ok = val(soc);
    else if (a == "--trusted-binding") trusted_binding = true;
    else return usage(("unknown option " + a).c_str());
    if (!ok) return usage(("option " + a + " needs a value").c_str());
  }
  if (project.empty() || bind.empty() || fn.empty() || args_path.empty() || out_dir.empty())
    return usage("--project, --bind, --fn, --args and --out are required");

  // The binding builds while the project's host library is built and loaded.
  auto bind_future = std::async(std::launch::async, [&] { return build_bind(bind); });
  int code = 0;
  std::string err = aclnn_open(project, soc, &code);
  BindBuild bb = bind_future.get();
  if (!err.empty()) {
    std::fputs(err.c_str(), stderr);
    return code ? code : 3;
  }
  if (!bb.ok) {
    std::fputs(bb.diag.c_str(), stderr);
    return bb.exit;
  }
  void* lib = dlopen(bb.so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "error[compile] %s: the binding library does not load: %s\n", bind.c_str(), dlerror());
    return 3;
  }
  using CallFn = int (*)(const char*, const BindArg*, size_t, std::vector<BindArg>*, std::string*);
  auto call = reinterpret_cast<CallFn>(dlsym(lib, "kgen_bind_call"));
  if (!call) {
    std::fprintf(stderr, "error[internal] %s: kgen_bind_call missing from %s\n", bind.c_str(), bb.so.c_str());
    return 1;
  }

  // Arguments.
  nlohmann::json spec;
  try {
    spec = nlohmann::json::parse(slurp(args_path));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kgen-oprun call: %s: %s\n", args_path.c_str(), e.what());
    return 2;
  }
  std::deque<NpyArray> arrays;   // stable addresses: the BindArgs point into them
  std::string bad;
  std::function<bool(const nlohmann::json&, BindArg&)> parse_arg = [&](const nlohmann::json& s, BindArg& a) {
    std::string kind = s.value("kind", "");
    if (kind == "tensor") {
      NpyArray arr;
      std::string path = s.value("path", "");
      if (std::string e = read_npy(path, arr); !e.empty()) {
        bad = path + ": " + e;
        return false;
      }
      if (s.value("dtype", "") == "bfloat16") arr.dtype = kDtBf16;
      arrays.push_back(std::move(arr));
      auto& A = arrays.back();
      a.kind = BindArg::Tensor;
      a.shape = A.shape;
      a.dtype = A.dtype;
      a.data = A.data.data();
      a.bytes = A.data.size();
    } else if (kind == "tensor_list") {
      a.kind = BindArg::TensorList;
      for (const auto& x : s.value("items", nlohmann::json::array())) {
        BindArg e;
        if (!parse_arg(x, e)) return false;
        if (e.kind != BindArg::Tensor) {
          bad = args_path + ": a tensor_list item is not a tensor";
          return false;
        }
        a.items.push_back(std::move(e));
      }
    } else if (kind == "none") {
      a.kind = BindArg::None;
    } else if (kind == "int") {
      a.kind = BindArg::Int;
      a.i = s["value"].get<int64_t>();
    } else if (kind == "float") {
      a.kind = BindArg::Float;
      a.f = s["value"].get<double>();
    } else if (kind == "bool") {
      a.kind = BindArg::Bool;
      a.b = s["value"].get<bool>();
    } else if (kind == "str") {
      a.kind = BindArg::Str;
      a.s = s["value"].get<std::string>();
    } else if (kind == "int_list") {
      a.kind = BindArg::IntList;
      a.ints = s["value"].get<std::vector<int64_t>>();
    } else if (kind == "float_list") {
      a.kind = BindArg::FloatList;
      a.floats = s["value"].get<std::vector<double>>();
    } else if (kind == "bool_list") {
      a.kind = BindArg::BoolList;
      a.bools = s["value"].get<std::vector<bool>>();
    } else {
      bad = args_path + ": unknown argument kind '" + kind + "'";
      return false;
    }
    return true;
  };
  std::vector<BindArg> args;
  try {
    for (auto& s : spec) {
      BindArg a;
      if (!parse_arg(s, a)) {
        std::fprintf(stderr, "kgen-oprun call: %s\n", bad.c_str());
        return 2;
      }
      args.push_back(std::move(a));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kgen-oprun call: %s: %s\n", args_path.c_str(), e.what());
    return 2;
  }

  std::vector<BindArg> results;
  std::string error;
  int rc = call(fn.c_str(), args.data(), args.size(), &results, &error);
  if (rc != 0) {
    if (rc == 3 || error.rfind("error[", 0) == 0) {   // exec_aclnn's own diagnostics
      std::fputs(error.c_str(), stderr);
      if (error.empty() || error.back() != '\n') std::fputc('\n', stderr);
      return 3;
    }
    std::string text = slurp(bind);
    Origin o = origin_of(text, bind);
    std::smatch m;
    static const std::regex check(R"(^([\s\S]*) \(TORCH_CHECK at ([^\n]*):(\d+)\)$)");
    if (std::regex_match(error, m, check)) {
      std::fprintf(stderr, "error[submission] %s:%s: TORCH_CHECK failed in python_bind_src's %s: %s\n",
                   m[2].str().c_str(), m[3].str().c_str(), fn.c_str(), m[1].str().c_str());
      return 3;
    }
    int line = bind_line(text, o, std::regex("\\.\\s*def\\s*\\(\\s*\"" + fn + "\""));
    std::fprintf(stderr, "error[submission] %s:%d: python_bind_src's %s failed: %s\n", o.file.c_str(), line,
                 fn.c_str(), error.c_str());
    return 3;
  }

  // Results: a returned tensor must be what a kernel launch wrote (python_bind_src computing in plain C++ is not).
  {
    std::string text = slurp(bind);
    Origin o = origin_of(text, bind);
    int line = bind_line(text, o, std::regex("\\.\\s*def\\s*\\(\\s*\"" + fn + "\""));
    for (size_t i = 0; i < results.size(); ++i) {
      std::vector<const BindArg*> ts;
      if (results[i].kind == BindArg::TensorList)
        for (const BindArg& x : results[i].items) ts.push_back(&x);
      else
        ts.push_back(&results[i]);
      for (size_t k = 0; k < ts.size(); ++k) {
        const BindArg& r = *ts[k];
        std::string why;
        if (!trusted_binding && r.kind == BindArg::Tensor && r.bytes && !launch_output(r.data, r.bytes, why)) {
          std::string which = std::to_string(i) + (results[i].kind == BindArg::TensorList ? "[" + std::to_string(k) + "]" : "");
          std::fprintf(stderr, "cheating %s:%d: python_bind_src's %s returns a tensor (result %s) that is not the "
                       "kernel's work: %s — return the output tensor EXEC_NPU_CMD filled\n",
                       o.file.c_str(), line, fn.c_str(), which.c_str(), why.c_str());
          return 3;
        }
      }
    }
  }
  nlohmann::json out = nlohmann::json::array();
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  int files = 0;
  std::function<bool(const BindArg&, nlohmann::json&)> put = [&](const BindArg& r, nlohmann::json& j) {
    if (r.kind == BindArg::Tensor) {
      std::string path = out_dir + "/result" + std::to_string(files++) + ".npy";
      if (std::string e = write_npy(path, r.shape, r.dtype, r.data, r.bytes); !e.empty()) {
        std::fprintf(stderr, "kgen-oprun call: %s\n", e.c_str());
        return false;
      }
      j = {{"kind", "tensor"}, {"path", path}, {"dtype", npy_dtype_name(r.dtype)}, {"shape", r.shape}};
    } else if (r.kind == BindArg::TensorList) {
      j = {{"kind", "tensor_list"}, {"items", nlohmann::json::array()}};
      for (const BindArg& x : r.items) {
        nlohmann::json e;
        if (!put(x, e)) return false;
        j["items"].push_back(e);
      }
    } else if (r.kind == BindArg::Int) {
      j = {{"kind", "int"}, {"value", r.i}};
    } else if (r.kind == BindArg::Float) {
      j = {{"kind", "float"}, {"value", r.f}};
    } else if (r.kind == BindArg::Bool) {
      j = {{"kind", "bool"}, {"value", r.b}};
    } else {
      j = {{"kind", "none"}};
    }
    return true;
  };
  for (const BindArg& r : results) {
    nlohmann::json j;
    if (!put(r, j)) return 1;
    out.push_back(j);
  }
  std::ofstream(out_dir + "/results.json") << out.dump() << "\n";
  return 0;
}
}  // namespace kgen::op
