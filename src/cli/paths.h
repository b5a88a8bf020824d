// Where kgen finds its headers and emulator library: next to the executable (build/ in the source tree),
// falling back to the paths configured at build time.
#pragma once
#include <string>

namespace kgen::cli {
struct Paths {
  std::string include_dir;   // include/ascendc
  std::string lib_dir;       // directory of libkgen_sim.so
  std::string source_dir;    // project root (examples/, docs/)
};
const Paths& paths();
}  // namespace kgen::cli
