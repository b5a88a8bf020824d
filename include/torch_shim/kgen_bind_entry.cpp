// Compiled together with a MultiKernelBench python_bind_src against kgen's torch shim: the entry point through
// which kgen-oprun calls a function registered with m.def(name, ...) in the binding's PYBIND11_MODULE.
#include <exception>
#include "kgen_torch.h"

extern "C" int kgen_bind_call(const char* name, const kgen::op::BindArg* args, size_t n,
                              std::vector<kgen::op::BindArg>* results, std::string* error) {
  auto& fns = kgen::shim::functions();
  auto it = fns.find(name);
  if (it == fns.end()) {
    std::string known;
    for (auto& [k, v] : fns) known += (known.empty() ? "" : ", ") + k;
    *error = std::string("no function '") + name + "' is registered with m.def(...) in PYBIND11_MODULE (registered: " +
             (known.empty() ? "none" : known) + ")";
    return 2;
  }
  try {
    it->second(args, n, results);
    return 0;
  } catch (const kgen::shim::ExecError& e) {
    *error = e.what();
    return 3;
  } catch (const std::exception& e) {
    *error = e.what();
    return 1;
  }
}

// The names the binding registered, one per line (for kgen: the functions custom_ops_lib offers).
extern "C" const char* kgen_bind_functions() {
  static std::string s;
  s.clear();
  for (auto& [k, v] : kgen::shim::functions()) s += k + "\n";
  return s.c_str();
}
