// Anti-cheat checks on a candidate's sources, before anything is compiled or run (src/eval/evaluate.cpp).
// Each finding is one diagnostic line `cheating FILE:LINE: what — why it is not allowed`; any finding makes the
// verdict `cheating`. Comments are ignored; string literals are looked at only for input/reference file names.
//
// C++ sources (an op project's host, tiling and kernel files; a MultiKernelBench submission's kernel_src,
// host_operator_src, host_tiling_src and python_bind_src):
//   - PyTorch / ATen / aclnn built-ins: #include of torch/ATen/aclnn headers, at:: / torch:: / c10:: compute calls,
//     calls of aclnn* functions (a built-in CANN operator does the work instead of the kernel). The MultiKernelBench
//     binding's EXEC_NPU_CMD(aclnn<Op>Custom, ...) launch of the candidate's own op is allowed, as are at::empty*,
//     at::zeros*, at::ones*, at::full* (allocating outputs) and tensor metadata calls.
//   - file and process access: fopen/freopen/open/openat/ifstream/fstream/FILE*/mmap/popen/system/exec* (reading
//     reference outputs or the task file);
//   - special-casing the test: reading the environment (getenv, secure_getenv, environ: KGEN_* variables name the
//     run's files), string literals naming .npy files or the task/reference/cache paths.
// MultiKernelBench model_src (python helper python/kgen_eval/static_mkb.py, AST): ModelNew.forward may call only
// custom_ops_lib functions and tensor plumbing (view/reshape/contiguous/to/size/...), as MultiKernelBench's own
// check requires: a torch / torch.nn.functional / tensor-method computation or an nn.Module layer call is flagged.
// Not detected: hard-coded comparisons against the task's shape constants inside the kernel.
#pragma once
#include <string>
#include <vector>

namespace kgen::eval {
// C++ text of one file; `file` is the name printed, `first_line` the file line of the text's line 1. `binding`: a
// MultiKernelBench python_bind_src, which includes torch headers by design (its at:: compute calls are still flagged).
std::vector<std::string> check_cpp_source(const std::string& file, const std::string& text, int first_line = 1,
                                          bool binding = false);
// Every .cpp/.cc/.h/.hpp file under an op project directory.
std::vector<std::string> check_op_project(const std::string& dir);
// A MultiKernelBench submission .py (its C++ strings and model_src). Errors running the helper are returned as
// diagnostics in `error` (empty when the check ran).
std::vector<std::string> check_mkb_submission(const std::string& submission, const std::string& python,
                                              std::string& error);
}  // namespace kgen::eval
