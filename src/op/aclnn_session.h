// The op project exec_aclnn (aclnn_call.h) runs: the `call` mode (src/op/call*.cpp) opens it once, before the
// binding's functions are called.
#pragma once
#include <string>

namespace kgen::op {
// Builds (cached) and loads the project's host library for `soc`. Returns "" on success, else the diagnostic
// text (error[...] lines, possibly followed by compiler output). `exit_code` gets 3 (op error), 2 or 1.
std::string aclnn_open(const std::string& project_dir, const std::string& soc, int* exit_code = nullptr);
}  // namespace kgen::op
