// Where kgen finds its headers, libraries and Python drivers: next to the executable (build/ in the source tree),
// falling back to the paths configured at build time. Sandboxed runs see exactly kgen_files(), read-only.
#pragma once
#include <string>
#include <vector>

namespace kgen::sandbox {
struct Paths {
  std::string include_dir;   // include/ascendc
  std::string lib_dir;       // directory of libkgen_sim.so
  std::string source_dir;    // project root (examples/, docs/)
};
const Paths& paths();
// kgen's own files a sandboxed compile or run needs: include/ (the AscendC and torch-shim headers), python/ (the
// MultiKernelBench driver), src/op/aclnn_call.h (the bindings' boundary header), and the executables and emulator libraries of lib_dir. Not the rest of the source tree
// or the build folder, where results and caches may live.
std::vector<std::string> kgen_files();
// KGEN_LIB_DIR=... and KGEN_SRC_DIR=...: how a sandboxed kgen process (no /proc/self/exe there) finds the same
// paths as its parent; paths() honours them.
std::vector<std::string> paths_env();
}  // namespace kgen::sandbox
