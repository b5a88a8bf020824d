// Locating the files of an op project on disk: the msopgen layout (P/op_host/*.cpp + *_tiling.h, P/op_kernel/*.cpp,
// optional P/*.json) or the three files side by side in P.
//   host        = the .cpp that includes register/op_def_registry.h; in the msopgen layout the one that defines the
//                 OpDef (OP_ADD), and every .cpp/.cc of op_host/ is compiled and linked with it as CANN's CMake
//                 does (def, tiling, infershape in separate files), except the aclnn layer (aclnn_*.cpp,
//                 *_l0.cpp: kgen's generated aclnn call replaces it)
//   kernel      = op_kernel/<op_snake>.cpp, the file CANN compiles for the op (OP_ADD's type in snake case); else
//                 the .cpp that includes kernel_operator.h
//   tiling      = the .h with BEGIN_TILING_DATA_DEF (or BEGIN_TILING_DATA_DEF-less: the local header the host
//                 includes), optional
#pragma once
#include <string>
#include <vector>

#include "op/kernel_name.h"   // snake_case: CANN's kernel name of an op type

namespace kgen::op {
struct Project {
  std::string dir;       // as given, absolute
  bool msopgen = false;
  std::string host_cpp, kernel_cpp, tiling_h, json;   // absolute paths ("" when absent: tiling_h, json)
  std::vector<std::string> host_sources;               // every host file compiled, host_cpp first
  // The project's CMakeLists.txt puts its built op_host files into several of CANN's libraries (no one of its
  // target_sources targets — optiling, opsproto, op_host_aclnnInner... — lists them all): there a header's
  // non-inline function compiled into two of them is no clash, so kgen's one host library links with
  // --allow-multiple-definition (one copy of each; they are the same code).
  bool host_split_over_libraries = false;
  // The kernel uses g_coreType as a constant, so it is built once per core type (core_type_builds.h).
  bool core_type_builds = false;
};
// Empty string on success, else the reason (which files were found, what is missing or ambiguous).
std::string find_project(const std::string& dir, Project& p);

// Text helpers used for diagnostics that point into the project's own files.
std::string read_text(const std::string& path);
// 1-based line of the first match of the ECMAScript regex in the file, 0 when none.
int find_line(const std::string& path, const std::string& regex);
// Names of the extern "C" __global__ functions a kernel file defines.
std::vector<std::string> kernel_functions(const std::string& kernel_cpp);
// Whether a file of op_host/ belongs to the aclnn layer of a cann-ops project (aclnn_*.cpp/.h, *_l0.cpp/.h), which
// kgen does not build: its generated aclnn call stands in for it.
bool aclnn_layer_file(const std::string& path);
}  // namespace kgen::op
