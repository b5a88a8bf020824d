// Building an op project's two libraries, cached by content hash:
//   host.so   g++ -std=c++17 -O1 -fPIC -shared -I<include/ascendc> -I<host dir> -DKGEN_SOC="S" HOST.cpp -lkgen_host
//   kernel.so kgen cc --soc S -fPIC -shared -include kernel_operator.h -include TILING.h -DDTYPE_<NAME>=<type> ...
//             KERNEL.cpp            (one per dtype combination, as CANN builds one binary per OpDef column)
// Cache: <cache>/op/<kind>-<hash>.so where the hash covers every file of the project folder (relative path and
// content, subfolders included), the compile command (so also the project's location and the SoC) and kgen itself
// (size and mtime of kgen, libkgen_sim.so, libkgen_host.so and the newest header under include/ascendc). Each
// library is compiled into a fresh folder and renamed into place, so concurrent and killed runs never leave a partial
// file under a final name.
//
// Who compiles (BuildEnv): the evaluator compiles a candidate in a sandbox of its own (sandboxed_compile: only the
// compiler runs there, so its library may enter the shared cache); kgen-oprun, which runs candidate code, only reads
// the shared cache (what the evaluator bound into its sandbox) and builds whatever is missing into its private
// KGEN_BUILD_DIR, which dies with the sandbox.
#pragma once
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "op/project.h"
#include "sandbox/process.h"
#include "sandbox/sandbox.h"

namespace kgen::op {
// The linker of every library kgen builds (host, kernel, binding): gold links a kernel library in about half bfd's
// time here (0.05 against 0.10 s; bfd also loads binutils' LTO plugins), and the libraries are the same to the
// loader. Measured in docs/benchmark.md, "Throughput".
inline constexpr const char* kFastLinker = "-fuse-ld=gold";
struct BuildOut {
  bool ok = false;
  std::string so;        // path of the library when ok
  std::string diag;      // when !ok: "error[compile] FILE:LINE: ...\n" followed by the compiler's own output
  bool cached = false;
  double seconds = 0;
};
using Defines = std::vector<std::pair<std::string, std::string>>;   // NAME, value

// One compile: the command (without -o), the folder its output goes to (OUT/out.so), the paths it reads besides
// kgen's own files and the toolchain (the project folder, generated headers).
struct CompileJob {
  std::vector<std::string> argv;
  std::string out_dir;
  std::vector<std::string> reads;
  double timeout_s = 600;
};
struct BuildEnv {
  std::string cache;        // libraries are looked up in <cache>/op/
  std::string build_dir;    // "": build into <cache>/op/; else build what the cache lacks here
  std::function<sandbox::Result(const CompileJob&)> compile;   // empty: a plain child process
  double timeout_s = 600;   // one compile, wall clock (the evaluator: its per-run timeout)
  std::string failed_dir;   // kgen-oprun: the evaluator's failed compiles, DIR/<library name> = diag (prebuild.h)
};
// The environment of this process: set once at start (kgen-oprun: from KGEN_CACHE / KGEN_BUILD_DIR; the evaluator:
// its cache and sandboxed_compile). Default: $KGEN_CACHE (else ${XDG_CACHE_HOME:-$HOME/.cache}/kgen), plain
// compiles, KGEN_BUILD_DIR and KGEN_FAILED_BUILDS when set.
void set_build_env(const BuildEnv& e);
const BuildEnv& build_env();
// A compile under sandbox::run: the job's reads and kgen's files read-only, its out_dir writable, job.timeout_s.
sandbox::Result sandboxed_compile(const CompileJob& job);

std::string cache_dir();   // build_env().cache
// Starts (or finds in the cache) the host library build.
std::shared_future<BuildOut> build_host(const Project& p, const std::string& soc);
// Starts (or joins, or finds in the cache) the kernel library build for one set of DTYPE_ macros.
std::shared_future<BuildOut> build_kernel(const Project& p, const std::string& soc, const Defines& defines);
// The final path the library would have in the shared cache (whether or not it exists): what the evaluator binds
// into kgen-oprun's sandbox after building it.
std::string host_library_path(const Project& p, const std::string& soc);
std::string kernel_library_path(const Project& p, const std::string& soc, const Defines& defines);
// Builds a library from a finished command (the MultiKernelBench binding): NAME is "<kind>-<hash>.so".
BuildOut compile_library(const std::string& name, std::vector<std::string> cmd, const std::vector<std::string>& reads,
                         const std::string& src, const std::string& what);
// The generated header that brings a tiling header's structs to global scope ("" when not needed), created in the
// build folder on first use.
std::string tiling_names_header(const std::string& tiling_h);
// The tiling header the kernel build force-includes: tiling_h itself, or, when it also holds host code, a generated
// header of its tiling structs (kernel_tiling.h), in the build's target folder.
std::string kernel_tiling_header(const std::string& tiling_h);
}  // namespace kgen::op
