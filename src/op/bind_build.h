// A MultiKernelBench binding (python_bind_src) or an NPUKernelBench task's pybind.cpp compiled against kgen's torch
// shim (include/torch_shim) into a library, cached under $KGEN_CACHE/op/bind-<hash>.so by the binding's text and
// the shim's sources (not by the file's path: the evaluator builds a task's binding outside the sandbox and the
// candidate's run finds the same library inside). kgen-oprun call builds and loads it; the NPUKernelBench evaluator
// builds it ahead of the run.
#pragma once
#include <regex>
#include <string>

namespace kgen::op {
struct BindBuild {
  bool ok = false;
  std::string so, diag;   // the library; else the diagnostic (error[compile] / error[submission] at the binding's line)
  int exit = 3;           // kgen-oprun's exit status for the failure (1: internal)
};
BindBuild build_bind(const std::string& bind_path);

// The submission and first line a binding maps to (its `#line N "SUB.py"` directive, written by extract.py).
struct Origin {
  std::string file;
  int line = 0;   // line of the bind file's second line (the directive's N)
};
Origin origin_of(const std::string& bind_text, const std::string& bind_path);
// The submission line of the first match of `re` in the binding (0 when none).
int bind_line(const std::string& text, const Origin& o, const std::regex& re);
}  // namespace kgen::op
