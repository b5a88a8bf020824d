#include "sandbox/paths.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace kgen::sandbox {
namespace fs = std::filesystem;

const Paths& paths() {
  static const Paths p = [] {
    Paths r{KGEN_SOURCE_DIR "/include/ascendc", KGEN_SIM_LIB_DIR, KGEN_SOURCE_DIR};
    const char* lib = std::getenv("KGEN_LIB_DIR");
    const char* src = std::getenv("KGEN_SRC_DIR");
    if (lib && *lib && src && *src) return Paths{std::string(src) + "/include/ascendc", lib, src};
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
}  // namespace kgen::sandbox

namespace kgen::sandbox {
std::vector<std::string> kgen_files() {
  const Paths& p = paths();
  // src/op/aclnn_call.h: the boundary header MultiKernelBench bindings compile against (include/torch_shim).
  std::vector<std::string> r = {p.source_dir + "/include", p.source_dir + "/python", p.source_dir + "/src/op/aclnn_call.h"};
  for (const char* f : {"kgen", "kgen-oprun", "libkgen_sim.so", "libkgen_host.so"}) {
    std::error_code ec;
    std::string path = p.lib_dir + "/" + f;
    if (fs::exists(path, ec)) r.push_back(path);
  }
  return r;
}
}  // namespace kgen::sandbox

namespace kgen::sandbox {
std::vector<std::string> paths_env() {
  const Paths& p = paths();
  return {"KGEN_LIB_DIR=" + p.lib_dir, "KGEN_SRC_DIR=" + p.source_dir};
}
}  // namespace kgen::sandbox
