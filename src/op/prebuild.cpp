// Building an op project's libraries ahead of its sandboxed run (see prebuild.h).
#include "op/prebuild.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "op/core_type_builds.h"
#include "op/predict.h"

namespace fs = std::filesystem;

namespace kgen::op {
Prebuilt prebuild(const Project& p, const std::string& soc, const std::vector<std::vector<int>>& input_dtypes) {
  auto t0 = std::chrono::steady_clock::now();
  Prebuilt b;
  // The host and the kernels compile at once (two compilers: the machine's two cores).
  auto host = build_host(p, soc);
  std::vector<std::pair<std::string, std::shared_future<BuildOut>>> kernels;   // library name, its build
  std::set<std::string> seen;
  for (const auto& dts : input_dtypes) {
    std::vector<std::pair<std::string, int>> in;
    for (int d : dts) in.emplace_back("", d);
    Defines d = predict_defines(p, in);
    std::string key;
    for (auto& [n, v] : d) key += n + "=" + v + ";";
    if (!d.empty() && seen.insert(key).second)
      for (const Defines& b : kernel_builds(p, soc, d))
        kernels.emplace_back(fs::path(kernel_library_path(p, soc, b)).filename().string(), build_kernel(p, soc, b));
  }
  b.host = host.get();
  if (b.host.ok) b.files.push_back(b.host.so);
  for (auto& [name, k] : kernels) {
    BuildOut o = k.get();
    if (o.ok) b.files.push_back(o.so);
    else if (o.diag.rfind("cheating", 0) == 0 && b.cheating.empty()) b.cheating = o.diag;
    else if (o.diag.rfind("error[compile]", 0) == 0) b.failed.emplace_back(name, o.diag);
  }
  if (!p.tiling_h.empty()) {
    if (std::string names = tiling_names_header(p.tiling_h); !names.empty()) b.files.push_back(names);
    if (std::string kernel = kernel_tiling_header(p.tiling_h); kernel != p.tiling_h) b.files.push_back(kernel);
  }
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return b;
}

std::string write_failed_builds(const Prebuilt& b, const std::string& dir) {
  if (b.failed.empty()) return "";
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (const auto& [name, diag] : b.failed) std::ofstream(dir + "/" + name) << diag;
  return dir;
}
}  // namespace kgen::op
