#include "op/build.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include "cli/paths.h"
#include "cli/subprocess.h"

namespace kgen::op {
namespace fs = std::filesystem;

namespace {
struct Hash {
  uint64_t a = 1469598103934665603ull, b = 0x9e3779b97f4a7c15ull;
  void add(const void* p, size_t n) {
    auto* s = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
      a = (a ^ s[i]) * 1099511628211ull;
      b = (b ^ s[i]) * 0x100000001b3ull + 0x7f4a7c15ull;
    }
  }
  void add(const std::string& s) {
    add(s.data(), s.size());
    uint64_t n = s.size();
    add(&n, sizeof n);
  }
  std::string hex() const {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return buf;
  }
};

std::string exe_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
}

void add_stat(Hash& h, const fs::path& p) {
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0) { h.add("missing:" + p.string()); return; }
  h.add(p.string());
  h.add(&st.st_size, sizeof st.st_size);
  h.add(&st.st_mtim, sizeof st.st_mtim);
}

// What identifies the kgen build: its executables, libraries and the newest header.
const std::string& kgen_stamp() {
  static const std::string s = [] {
    Hash h;
    const auto& P = kgen::cli::paths();
    add_stat(h, fs::path(exe_dir()) / "kgen");
    add_stat(h, fs::path(P.lib_dir) / "libkgen_sim.so");
    add_stat(h, fs::path(P.lib_dir) / "libkgen_host.so");
    std::error_code ec;
    int64_t newest = 0;
    for (auto it = fs::recursive_directory_iterator(P.include_dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      struct stat st{};
      if (it->is_regular_file(ec) && ::stat(it->path().c_str(), &st) == 0)
        newest = std::max<int64_t>(newest, st.st_mtim.tv_sec * 1000000000ll + st.st_mtim.tv_nsec);
    }
    h.add(&newest, sizeof newest);
    h.add(P.include_dir);
    return h.hex();
  }();
  return s;
}

void add_sources(Hash& h, const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(dir, ec)) {
    auto x = e.path().extension().string();
    if (e.is_regular_file() && (x == ".cpp" || x == ".h" || x == ".hpp" || x == ".cc" || x == ".inc")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (auto& f : files) {
    h.add(f.filename().string());
    h.add(read_text(f.string()));
  }
}

// A compile, its output captured (cli::run_process: close-on-exec pipes, so the host and kernel compiles that run
// at once on two threads do not hold each other's output open).
cli::ProcResult run(const std::vector<std::string>& argv) { return cli::run_process(argv, 1e9); }

// error[compile] FILE:LINE: first error message, then the compiler's output as is.
std::string compile_diag(const std::string& out, const std::string& src, const std::string& what) {
  std::smatch m;
  std::regex re(R"((?:^|\n)([^\s:][^:\n]*):(\d+):(?:\d+:)? (?:fatal )?error: ([^\n]*))");
  std::string head;
  if (std::regex_search(out, m, re))
    head = "error[compile] " + m[1].str() + ":" + m[2].str() + ": " + m[3].str() + " — " + what +
           " does not compile; fix the line above (the compiler's messages follow)";
  else
    head = "error[compile] " + src + ": " + what + " does not build (the compiler/linker output follows)";
  return head + "\n" + out + (out.empty() || out.back() == '\n' ? "" : "\n");
}

std::shared_future<BuildOut> compile_cached(const std::string& final_path, std::vector<std::string> cmd,
                                            const std::string& src, const std::string& what) {
  static std::mutex mu;
  static std::map<std::string, std::shared_future<BuildOut>> running;
  std::lock_guard<std::mutex> lock(mu);
  auto it = running.find(final_path);
  if (it != running.end()) return it->second;
  std::error_code ec;
  if (fs::exists(final_path, ec)) {
    std::promise<BuildOut> pr;
    BuildOut b;
    b.ok = true;
    b.so = final_path;
    b.cached = true;
    pr.set_value(b);
    return running[final_path] = pr.get_future().share();
  }
  auto fut = std::async(std::launch::async, [final_path, cmd, src, what]() mutable {
    auto t0 = std::chrono::steady_clock::now();
    BuildOut b;
    std::error_code ec;
    fs::create_directories(fs::path(final_path).parent_path(), ec);
    std::random_device rd;
    std::string tmp = final_path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(rd());
    cmd.push_back("-o");
    cmd.push_back(tmp);
    cli::ProcResult r = run(cmd);
    if (std::getenv("KGEN_OP_VERBOSE")) {
      for (auto& a : cmd) std::fprintf(stderr, "%s ", a.c_str());
      std::fprintf(stderr, "\n");
    }
    if (r.status != 0) {
      fs::remove(tmp, ec);
      b.diag = compile_diag(r.out, src, what);
    } else if (std::rename(tmp.c_str(), final_path.c_str()) != 0) {
      fs::remove(tmp, ec);
      b.diag = "error[internal] cannot move " + tmp + " to " + final_path + "\n";
    } else {
      b.ok = true;
      b.so = final_path;
    }
    b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return b;
  });
  return running[final_path] = fut.share();
}
}  // namespace

std::string cache_dir() {
  if (const char* e = std::getenv("KGEN_CACHE"); e && *e) return e;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kgen";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/kgen";
}

std::shared_future<BuildOut> build_host(const Project& p, const std::string& soc) {
  const auto& P = kgen::cli::paths();
  std::string hdir = fs::path(p.host_cpp).parent_path().string();
  std::vector<std::string> cmd = {"g++", "-std=c++17", "-O1", "-fPIC", "-shared", "-I" + P.include_dir, "-I" + hdir,
                                  "-DKGEN_SOC=\"" + soc + "\"", p.host_cpp, "-L" + P.lib_dir,
                                  "-Wl,-rpath," + P.lib_dir, "-lkgen_host"};
  Hash h;
  h.add("host-v1");
  h.add(kgen_stamp());
  for (auto& a : cmd) h.add(a);
  add_sources(h, hdir);
  return compile_cached(cache_dir() + "/op/host-" + h.hex() + ".so", cmd, p.host_cpp, "the op's host file");
}

// CANN's kernel build generates the tiling structs of the op's tiling header at global scope, so a kernel may name
// them (`const AddCustomTilingData* t`). kgen's kernel side of BEGIN_TILING_DATA_DEF defines them where the header
// does, usually in namespace optiling; this writes `using optiling::<Name>;` for each into a small header the kernel
// build force-includes after the tiling header. Returns its path, or "" when there is nothing to bring into scope.
static std::string tiling_names_header(const std::string& tiling_h) {
  std::ifstream in(tiling_h);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!std::regex_search(text, std::regex(R"(\bnamespace\s+optiling\b)"))) return "";
  std::string out = "// generated by kgen-oprun: the tiling structs of " + tiling_h + " at global scope, as CANN's kernel build has them\n";
  std::regex def(R"(\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
  size_t n = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), def); it != std::sregex_iterator(); ++it, ++n)
    out += "using optiling::" + (*it)[1].str() + ";\n";
  if (!n) return "";
  Hash h;
  h.add(out);
  std::string path = cache_dir() + "/op/tiling-names-" + h.hex() + ".h";
  if (fs::exists(path)) return path;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::string tmp = path + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream f(tmp);
    f << out;
  }
  std::rename(tmp.c_str(), path.c_str());
  return path;
}

std::shared_future<BuildOut> build_kernel(const Project& p, const std::string& soc, const Defines& defines) {
  std::string kgen = exe_dir() + "/kgen";
  std::string kdir = fs::path(p.kernel_cpp).parent_path().string();
  std::vector<std::string> cmd = {kgen, "cc", "--soc", soc, "-fPIC", "-shared", "-I" + kdir, "-include", "kernel_operator.h"};
  if (!p.tiling_h.empty()) {
    cmd.push_back("-include");
    cmd.push_back(p.tiling_h);
    if (std::string names = tiling_names_header(p.tiling_h); !names.empty()) {
      cmd.push_back("-include");
      cmd.push_back(names);
    }
  }
  for (auto& [n, v] : defines) cmd.push_back("-D" + n + "=" + v);
  cmd.push_back(p.kernel_cpp);
  Hash h;
  h.add("kernel-v1");
  h.add(kgen_stamp());
  for (auto& a : cmd) h.add(a);
  add_sources(h, kdir);
  if (!p.tiling_h.empty()) {
    add_sources(h, fs::path(p.tiling_h).parent_path());
  }
  return compile_cached(cache_dir() + "/op/kernel-" + h.hex() + ".so", cmd, p.kernel_cpp, "the op's kernel file");
}
}  // namespace kgen::op
