// Building an op project's two libraries, cached by content hash:
//   host.so   g++ -std=c++17 -O1 -fPIC -shared -I<include/ascendc> -I<host dir> -DKGEN_SOC="S" HOST.cpp -lkgen_host
//   kernel.so kgen cc --soc S -fPIC -shared -include kernel_operator.h -include TILING.h -DDTYPE_<NAME>=<type> ...
//             KERNEL.cpp            (one per dtype combination, as CANN builds one binary per OpDef column)
// Cache: $KGEN_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/kgen, files op/<kind>-<hash>.so where the hash
// covers the project's sources (every .cpp/.h/.hpp of the host or kernel directory and the tiling header), the
// compile flags, the SoC and kgen itself (size and mtime of kgen, libkgen_sim.so, libkgen_host.so and the newest
// header under include/ascendc). Each library is written to a unique temporary name and renamed into place, so
// concurrent runs and killed runs never leave a partial file under a final name.
#pragma once
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "op/project.h"

namespace kgen::op {
struct BuildOut {
  bool ok = false;
  std::string so;        // path of the library when ok
  std::string diag;      // when !ok: "error[compile] FILE:LINE: ...\n" followed by the compiler's own output
  bool cached = false;
  double seconds = 0;
};
using Defines = std::vector<std::pair<std::string, std::string>>;   // NAME, value

std::string cache_dir();
// Starts (or finds in the cache) the host library build.
std::shared_future<BuildOut> build_host(const Project& p, const std::string& soc);
// Starts (or joins, or finds in the cache) the kernel library build for one set of DTYPE_ macros.
std::shared_future<BuildOut> build_kernel(const Project& p, const std::string& soc, const Defines& defines);
}  // namespace kgen::op
