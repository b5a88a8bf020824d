// Building an op project's libraries ahead of its sandboxed run (see prebuild.h).
#include "op/prebuild.h"

#include <chrono>
#include <set>

#include "op/predict.h"

namespace kgen::op {
Prebuilt prebuild(const Project& p, const std::string& soc, const std::vector<std::vector<int>>& input_dtypes) {
  auto t0 = std::chrono::steady_clock::now();
  Prebuilt b;
  // The host and the kernels compile at once (two compilers: the machine's two cores).
  auto host = build_host(p, soc);
  std::vector<std::shared_future<BuildOut>> kernels;
  std::set<std::string> seen;
  for (const auto& dts : input_dtypes) {
    std::vector<std::pair<std::string, int>> in;
    for (int d : dts) in.emplace_back("", d);
    Defines d = predict_defines(p, in);
    std::string key;
    for (auto& [n, v] : d) key += n + "=" + v + ";";
    if (!d.empty() && seen.insert(key).second) kernels.push_back(build_kernel(p, soc, d));
  }
  b.host = host.get();
  if (b.host.ok) b.files.push_back(b.host.so);
  for (auto& k : kernels) {
    BuildOut o = k.get();
    if (o.ok) b.files.push_back(o.so);
    else if (o.diag.rfind("cheating", 0) == 0 && b.cheating.empty()) b.cheating = o.diag;
  }
  if (!p.tiling_h.empty())
    if (std::string names = tiling_names_header(p.tiling_h); !names.empty()) b.files.push_back(names);
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return b;
}
}  // namespace kgen::op
