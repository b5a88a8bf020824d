// Anti-cheat checks on a candidate's sources, before anything is compiled or run (src/eval/evaluate.cpp).
// Each finding is one diagnostic line `cheating FILE:LINE: what — why it is not allowed`; any finding makes the
// verdict `cheating`. Comments are ignored; string literals are looked at only for input/reference file names.
//
// C++ sources (every file of an op project but its json and markdown; a MultiKernelBench submission's kernel_src,
// host_operator_src, host_tiling_src and python_bind_src):
//   - PyTorch / ATen / aclnn built-ins: #include of torch/ATen/aclnn headers, at:: / torch:: / c10:: compute calls,
//     calls of aclnn* functions (a built-in CANN operator does the work instead of the kernel). The MultiKernelBench
//     binding's EXEC_NPU_CMD(aclnn<Op>Custom, ...) launch of the candidate's own op is allowed, as are at::empty*,
//     at::zeros*, at::ones*, at::full* (allocating outputs) and tensor metadata calls.
//   - file and process access: fopen/freopen/open/openat/ifstream/fstream/FILE*/mmap/popen/system/exec* (reading
//     reference outputs or the task file); a function the candidate defines itself (a helper named read) is not;
//   - reaching past the API into the evaluator's process: syscall, mprotect/munmap, signals, ptrace/kill/fork/clone,
//     setns/unshare, sockets, directory listing, raw fd writes, threads (std::thread, pthread_create), dlsym,
//     inline assembly, load-time constructors, and any name containing "kgen" (the evaluator's own code);
//   - special-casing the test: reading the environment (getenv, secure_getenv, environ: KGEN_* variables name the
//     run's files), string literals naming the test's files (input_000.npy, output_000.npy, /ref/, tasks/, kgen's
//     cache, /proc, the sandbox's input folder); a plain ".npy" is not.
// MultiKernelBench submissions (python helper python/kgen_eval/static_mkb.py, AST, strings computed from constants
// resolved): the top level only assigns; ModelNew's methods and every helper they reach may call only
// custom_ops_lib functions and tensor plumbing (view/reshape/contiguous/to/size/...), as MultiKernelBench's own
// check requires, through getattr and aliases too; nothing in model_src may reach out of the model (eval/exec,
// frames, files, other modules' attributes).
// This is the second line: the sandbox (docs/sandbox.md) is the first, and a finding only makes the verdict
// explicit. Not detected: hard-coded comparisons against the task's shape constants inside the kernel (the secret
// trials catch outputs that do not follow from the inputs).
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
