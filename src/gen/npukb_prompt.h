// The prompt variables of an NPUKernelBench task folder (api_desc.md, validation/, question/): what NPUKernelBench's
// own prompts are built from (its docs/BENCHMARK_EVALUATION.md, "Code Generation"), for prompts/task_ascendc_npukb.md.
#pragma once
#include <map>
#include <string>

namespace kgen::gen {
// Fills op_name and op_type (the folder's name before any '_', as the harness names the op), kernel_name (its snake
// case: op_kernel/<kernel_name>.cpp and the kernel's entry point), task_source (module.py), module_source,
// prepare_source, pybind_source, api_desc, test_cases (the CSV, long ones cut with the count left out) and skeleton
// (question/'s files, each in a fenced block with its path). False with err naming a file it cannot read.
bool npukb_task_vars(const std::string& folder, std::map<std::string, std::string>& v, std::string& err);
}  // namespace kgen::gen
