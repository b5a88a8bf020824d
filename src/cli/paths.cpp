#include "cli/paths.h"

#include <unistd.h>

#include <filesystem>

namespace kgen::cli {
namespace fs = std::filesystem;

const Paths& paths() {
  static const Paths p = [] {
    Paths r{KGEN_SOURCE_DIR "/include/ascendc", KGEN_SIM_LIB_DIR, KGEN_SOURCE_DIR};
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      fs::path dir = exe.parent_path();
      if (fs::exists(dir / "libkgen_sim.so")) r.lib_dir = dir.string();
      fs::path root = dir.parent_path();
      if (fs::exists(root / "include/ascendc/kernel_operator.h")) {
        r.include_dir = (root / "include/ascendc").string();
        r.source_dir = root.string();
      }
    }
    return r;
  }();
  return p;
}
}  // namespace kgen::cli
