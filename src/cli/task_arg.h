// A --task argument: a task file, or the id of a task of a suite ("activation/relu" -> SUITE/activation/relu.py; the
// suite defaults to tasks/ of the source tree, as `kgen tasks list` reads it), or an NPUKernelBench task folder, given
// as the folder or as <Category>/<Op> of an NPUKernelBench checkout passed as the suite.
#pragma once
#include <string>

namespace kgen::cli {
// The task file's absolute path, or "" with `err` saying what was tried and how to find the ids.
std::string resolve_task_arg(const std::string& task, const std::string& suite, std::string& err);
// tasks/ of the source tree: the default suite of every command.
std::string default_suite();
}  // namespace kgen::cli
