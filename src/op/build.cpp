#include "op/build.h"
#include "op/kernel_tiling.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>

#include "op/core_type_builds.h"
#include "op/host_pch.h"
#include "op/imports.h"
#include "sandbox/digest.h"
#include "sandbox/paths.h"

namespace kgen::op {
namespace fs = std::filesystem;

namespace {
// Build-cache keys: SHA-256 (sandbox/digest.h), 32 hex digits in file names. No candidate's project can be made to
// share another's key and so load the other's compiled library.
struct Hash : kgen::Digest {
  std::string hex() { return Digest::hex(32); }
};


std::string default_cache() {
  if (const char* e = std::getenv("KGEN_CACHE"); e && *e) return e;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kgen";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/kgen";
}

std::mutex g_env_mu;
BuildEnv& env_ref() {
  static BuildEnv e = [] {
    BuildEnv d;
    d.cache = default_cache();
    if (const char* b = std::getenv("KGEN_BUILD_DIR"); b && *b) {
      d.build_dir = b;
    } else if (const char* p = std::getenv("KGEN_PRIVATE_BUILD"); p && std::string(p) == "1") {
      const char* t = std::getenv("TMPDIR");
      d.build_dir = std::string(t && *t ? t : "/tmp") + "/kgen-build";
    }
    if (const char* f = std::getenv("KGEN_FAILED_BUILDS"); f && *f) d.failed_dir = f;
    return d;
  }();
  return e;
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
    const auto& P = kgen::sandbox::paths();
    add_stat(h, fs::path(P.lib_dir) / "kgen");
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

// Every regular file under the project folder, subfolders included (relative path and content): a header in a
// subfolder or an .inl file changes the key like the .cpp does.
void add_project(Hash& h, const std::string& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (auto& f : files) {
    h.add(fs::relative(f, dir, ec).string());
    h.add(read_text(f.string()));
  }
}

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

sandbox::Result plain_compile(const CompileJob& job) {
  sandbox::Limits l;
  l.wall_s = job.timeout_s;
  sandbox::Child c;
  c.argv = job.argv;
  return sandbox::run(c, l);
}

// Where a library is, or is to be built: the shared cache first, then the private build folder.
std::string existing(const std::string& name) {
  const BuildEnv& e = build_env();
  std::error_code ec;
  std::string shared = e.cache + "/op/" + name;
  if (fs::exists(shared, ec)) return shared;
  if (!e.build_dir.empty() && fs::exists(e.build_dir + "/" + name, ec)) return e.build_dir + "/" + name;
  return "";
}
std::string target_dir() {
  const BuildEnv& e = build_env();
  return e.build_dir.empty() ? e.cache + "/op" : e.build_dir;
}

BuildOut compile_now(const std::string& name, std::vector<std::string> cmd, const std::vector<std::string>& reads,
                     const std::string& src, const std::string& what) {
  auto t0 = std::chrono::steady_clock::now();
  BuildOut b;
  std::error_code ec;
  const std::string dir = target_dir(), final_path = dir + "/" + name;
  fs::create_directories(dir, ec);
  std::random_device rd;
  const std::string out_dir = dir + "/.tmp-" + std::to_string(getpid()) + "-" + std::to_string(rd());
  fs::create_directories(out_dir, ec);
  const std::string out = out_dir + "/out.so";
  cmd.push_back("-o");
  cmd.push_back(out);
  if (std::getenv("KGEN_OP_VERBOSE")) {
    for (auto& a : cmd) std::fprintf(stderr, "%s ", a.c_str());
    std::fprintf(stderr, "\n");
  }
  CompileJob job{cmd, out_dir, reads, build_env().timeout_s};
  const BuildEnv& e = build_env();
  sandbox::Result r = e.compile ? e.compile(job) : plain_compile(job);
  struct stat st{};
  if (r.status == -1) {
    b.diag = (r.start_error.rfind("error[", 0) == 0 ? r.start_error : "error[internal] " + src + ": the compile of " +
                                                                          what + " did not start: " + r.start_error) +
             "\n";
  } else if (r.timed_out) {
    b.diag = "error[compile] " + src + ": " + what + " did not compile within " +
             std::to_string(static_cast<int>(job.timeout_s)) + " s (the compiler was stopped)\n";
  } else if (r.status != 0) {
    b.diag = compile_diag(r.out, src, what);
  } else if (::lstat(out.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    b.diag = "error[internal] " + src + ": the compiler succeeded but wrote no library for " + what + "\n";
  } else if (auto bad = forbidden_imports(out, name.rfind("bind-", 0) == 0); !bad.empty()) {
    // Not cached: the library is never loaded (imports.h).
    for (const std::string& x : bad)
      b.diag += "cheating " + src + ": " + what + " compiles to a library that imports " + x +
                " — a candidate computes through the AscendC API\n";
  } else if (std::rename(out.c_str(), final_path.c_str()) != 0) {
    b.diag = "error[internal] cannot move " + out + " to " + final_path + "\n";
  } else {
    b.ok = true;
    b.so = final_path;
  }
  fs::remove_all(out_dir, ec);
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return b;
}

std::shared_future<BuildOut> compile_cached(const std::string& name, std::vector<std::string> cmd,
                                            std::vector<std::string> reads, const std::string& src,
                                            const std::string& what) {
  static std::mutex mu;
  static std::map<std::string, std::shared_future<BuildOut>> running;
  std::lock_guard<std::mutex> lock(mu);
  auto it = running.find(name);
  if (it != running.end()) return it->second;
  if (std::string have = existing(name); !have.empty()) {
    std::promise<BuildOut> pr;
    BuildOut b;
    b.ok = true;
    b.so = have;
    b.cached = true;
    pr.set_value(b);
    return running[name] = pr.get_future().share();
  }
  if (const std::string& fd = build_env().failed_dir; !fd.empty()) {
    std::error_code ec;
    if (fs::is_regular_file(fd + "/" + name, ec)) {   // the evaluator's compile of this very command failed
      std::promise<BuildOut> pr;
      BuildOut b;
      b.diag = read_text(fd + "/" + name);
      pr.set_value(b);
      return running[name] = pr.get_future().share();
    }
  }
  auto fut = std::async(std::launch::async, [name, cmd, reads, src, what] {
    return compile_now(name, cmd, reads, src, what);
  });
  return running[name] = fut.share();
}

// A header of kgen's that every host (register/tilingdata_base.h) or every kernel (kernel_operator.h) reads first,
// precompiled once per kgen build and SoC with the compile's own flags.
struct Pch {
  std::string header;               // under include/ascendc
  std::vector<std::string> flags;   // the compile command that makes the .gch, without the header and -o
};
struct Command {
  std::string name;                  // <kind>-<hash>.so
  std::vector<std::string> argv, reads;
  size_t pch_arg = 0;                // argv[pch_arg]: the header force-included first (0: none), see use_pch()
  Pch pch;
};

// <kind>-<hash>.so: the hash of the command, kgen's build and every file of the project (build.h).
std::string library_name(const std::string& kind, const Command& c, const Project& p) {
  Hash h;
  h.add(kind + "-v2");
  h.add(kgen_stamp());
  for (auto& a : c.argv) h.add(a);
  add_project(h, p.dir);
  return kind + "-" + h.hex() + ".so";
}

// The flags a host file compiles with that a precompiled header must share.
std::vector<std::string> host_flags(const std::string& soc) {
  return {"g++", "-std=c++17", "-O1", "-fPIC", "-I" + kgen::sandbox::paths().include_dir, "-DKGEN_SOC=\"" + soc + "\""};
}

Pch host_pch(const std::string& soc) {
  std::vector<std::string> f = host_flags(soc);
  for (const char* a : {"-x", "c++-header"}) f.push_back(a);
  return {"register/tilingdata_base.h", f};
}
Pch kernel_pch(const std::string& soc, const std::string& core_type) {
  // kgen cc adds the emulator's flags (-std=c++20 -O1 -DASCENDC_CPU_DEBUG -D__NPU_ARCH__ ...), as for the kernel.
  Pch p{"kernel_operator.h", {kgen::sandbox::paths().lib_dir + "/kgen", "cc", "--soc", soc, "-fPIC", "-g1", "-c", "-x",
                              "c++-header"}};
  if (!core_type.empty()) p.flags.push_back("-D" + std::string(kCoreTypeMacro) + "=" + core_type);   // sys.h reads it
  return p;
}

// Where the precompiled header lives: DIR/<header>, a one-line header that includes kgen's, beside its .gch (gcc
// takes the .gch when it is valid for the compile, else reads the header). Written by ensure_pch().
std::string pch_path(const Pch& p) {
  Hash h;
  h.add("pch-v2");
  h.add(kgen_stamp());
  for (auto& a : p.flags) h.add(a);
  return target_dir() + "/pch-" + h.hex() + "/" + p.header;
}

// kgen's own header, which a compile includes when there is no precompiled one.
std::string plain_header(const Pch& p) { return kgen::sandbox::paths().include_dir + "/" + p.header; }

// The precompiled header to force-include, built here once (per process; across processes by an atomic rename);
// "" where there is none: in a private build folder (kgen-oprun's, inside the sandbox) none is made, as a precompile
// there would cost more than the one compile it serves, and a failed precompile only means the compiles parse the
// header themselves.
std::string ensure_pch(const Pch& p) {
  static std::mutex mu;
  static std::set<std::string> done;
  const std::string header = pch_path(p), gch = header + ".gch";
  std::lock_guard<std::mutex> lock(mu);
  std::error_code ec;
  if (!build_env().build_dir.empty() || done.count(header)) return fs::exists(gch, ec) ? header : "";
  done.insert(header);
  const fs::path dir = fs::path(header).parent_path();
  fs::create_directories(dir, ec);
  if (!fs::exists(header, ec)) {
    const std::string tmp = header + ".tmp-" + std::to_string(getpid());
    std::ofstream(tmp) << "#include \"" << plain_header(p) << "\"\n";
    std::rename(tmp.c_str(), header.c_str());
  }
  if (fs::exists(gch, ec)) return header;
  std::random_device rd;
  const std::string out_dir = dir.string() + "/.tmp-" + std::to_string(getpid()) + "-" + std::to_string(rd());
  fs::create_directories(out_dir, ec);
  std::vector<std::string> cmd = p.flags;
  cmd.push_back(header);
  cmd.push_back("-o");
  cmd.push_back(out_dir + "/out.gch");
  CompileJob job{cmd, out_dir, {dir.string()}, build_env().timeout_s};
  const BuildEnv& e = build_env();
  sandbox::Result r = e.compile ? e.compile(job) : plain_compile(job);
  if (r.status == 0) std::rename((out_dir + "/out.gch").c_str(), gch.c_str());
  fs::remove_all(out_dir, ec);
  return fs::exists(gch, ec) ? header : "";
}

Command host_command(const Project& p, const std::string& soc) {
  const auto& P = kgen::sandbox::paths();
  std::string hdir = fs::path(p.host_cpp).parent_path().string();
  Command c;
  c.argv = host_flags(soc);
  c.reads = {p.dir};
  // The same translation unit, its first header precompiled where that changes nothing (host_pch.h). The name
  // hashes a placeholder: whether the .gch was there or not, the library is the same.
  if (host_pch_applies(p)) {
    c.argv.push_back("-include");
    c.pch_arg = c.argv.size();
    c.argv.push_back("<host-pch>");
    c.pch = host_pch(soc);
  }
  c.argv.insert(c.argv.end(), {"-shared", kFastLinker, "-I" + hdir});
  // Every host file of the project in one command (one library, as CANN's CMake links them); a project found by
  // hand (Project without host_sources) is its host file.
  if (p.host_sources.empty()) c.argv.push_back(p.host_cpp);
  else c.argv.insert(c.argv.end(), p.host_sources.begin(), p.host_sources.end());
  if (p.host_split_over_libraries) c.argv.push_back("-Wl,--allow-multiple-definition");   // project.h
  c.argv.insert(c.argv.end(), {"-L" + P.lib_dir, "-Wl,-rpath," + P.lib_dir, "-lkgen_host"});
  c.name = library_name("host", c, p);
  if (c.pch_arg) c.argv[c.pch_arg] = plain_header(c.pch);
  return c;
}

Command kernel_command(const Project& p, const std::string& soc, const Defines& defines) {
  std::string kgen = kgen::sandbox::paths().lib_dir + "/kgen";
  std::string kdir = fs::path(p.kernel_cpp).parent_path().string();
  Command c;
  // -g1: line tables only (no measurable compile cost), so that a raw GM access names its source line (sim/gm.h).
  // kernel_operator.h first, force-included: always the same start of the translation unit, so always precompiled.
  std::string core_type;   // a per-core-type build (core_type_builds.h): the macro goes before the header, as in its pch
  for (auto& [n, v] : defines)
    if (n == kCoreTypeMacro) core_type = v;
  c.argv = {kgen, "cc", "--soc", soc, "-fPIC", "-shared", "-g1", "-I" + kdir};
  if (!core_type.empty()) c.argv.push_back("-D" + std::string(kCoreTypeMacro) + "=" + core_type);
  c.argv.insert(c.argv.end(), {"-include", "<kernel-pch>"});
  c.pch_arg = c.argv.size() - 1;
  c.pch = kernel_pch(soc, core_type);
  c.reads = {p.dir};
  if (!p.tiling_h.empty()) {
    // the tiling header may include host headers, which use ge::DT_FLOAT... as names: the kernel-side macros of
    // those names (kgen/kernel_type_defs.h) are undone around it
    c.argv.insert(c.argv.end(), {"-include", "kgen/kernel_type_undef.h"});
    const std::string tiling = kernel_tiling_header(p.tiling_h);
    c.argv.push_back("-include");
    c.argv.push_back(tiling);
    if (tiling != p.tiling_h) c.reads.push_back(tiling);
    if (std::string names = tiling_names_header(p.tiling_h); !names.empty()) {
      c.argv.push_back("-include");
      c.argv.push_back(names);
      c.reads.push_back(names);
    }
    c.argv.insert(c.argv.end(), {"-include", "kgen/kernel_type_defs.h"});
  }
  for (auto& [n, v] : defines)
    if (n != kCoreTypeMacro) c.argv.push_back("-D" + n + "=" + v);
  c.argv.push_back(p.kernel_cpp);
  c.name = library_name("kernel", c, p);
  c.argv[c.pch_arg] = plain_header(c.pch);
  return c;
}

// Before a compile: the precompiled header in place of kgen's own where there is one (ensure_pch).
void use_pch(Command& c) {
  if (!c.pch_arg) return;
  const std::string h = ensure_pch(c.pch);
  if (h.empty()) return;
  c.argv[c.pch_arg] = h;
  fs::path root = fs::path(h);
  const fs::path rel = c.pch.header;
  for (auto it = rel.begin(); it != rel.end(); ++it) root = root.parent_path();
  c.reads.push_back(root.string());   // pch-<hash>/
}
}  // namespace

void set_build_env(const BuildEnv& e) {
  std::lock_guard<std::mutex> lock(g_env_mu);
  env_ref() = e;
}
const BuildEnv& build_env() { return env_ref(); }
std::string cache_dir() { return build_env().cache; }

sandbox::Result sandboxed_compile(const CompileJob& job) {
  sandbox::Policy p;
  for (const std::string& f : kgen::sandbox::kgen_files()) p.binds.push_back({f, false});
  for (const std::string& f : job.reads) p.binds.push_back({f, false});
  p.binds.push_back({job.out_dir, true});
  p.tmp_bytes = 2ull << 30;   // cc1plus's assembly and the linker's temporaries
  p.processes = 64;
  sandbox::Child c;
  c.argv = job.argv;
  c.clear_env = true;
  sandbox::Limits l;
  l.wall_s = job.timeout_s;
  l.cpu_s = job.timeout_s * 1.5 + 5;
  l.memory_bytes = 8ull << 30;
  l.file_bytes = 2ull << 30;
  sandbox::Mode m = sandbox::default_mode();
  if (m == sandbox::Mode::Isolated && !sandbox::available()) {
    sandbox::Result r;
    r.start_error = sandbox::unavailable_message();
    return r;
  }
  return sandbox::run(c, l, p, m);
}

std::shared_future<BuildOut> build_host(const Project& p, const std::string& soc) {
  Command c = host_command(p, soc);
  if (existing(c.name).empty()) use_pch(c);
  return compile_cached(c.name, c.argv, c.reads, p.host_cpp, "the op's host file");
}

std::shared_future<BuildOut> build_kernel(const Project& p, const std::string& soc, const Defines& defines) {
  Command c = kernel_command(p, soc, defines);
  if (existing(c.name).empty()) use_pch(c);
  return compile_cached(c.name, c.argv, c.reads, p.kernel_cpp, "the op's kernel file");
}

std::string host_library_path(const Project& p, const std::string& soc) {
  return cache_dir() + "/op/" + host_command(p, soc).name;
}
std::string kernel_library_path(const Project& p, const std::string& soc, const Defines& defines) {
  return cache_dir() + "/op/" + kernel_command(p, soc, defines).name;
}

BuildOut compile_library(const std::string& name, std::vector<std::string> cmd, const std::vector<std::string>& reads,
                         const std::string& src, const std::string& what) {
  return compile_cached(name, std::move(cmd), reads, src, what).get();
}

// Writes text into the build's target folder under a name made of prefix and the text's hash (once: an existing one
// is reused) and returns the path.
std::string generated_header(const std::string& prefix, const std::string& text) {
  Hash h;
  h.add(text);
  const std::string name = prefix + h.hex() + ".h";
  if (std::string have = existing(name); !have.empty()) return have;
  std::error_code ec;
  const std::string dir = target_dir();
  fs::create_directories(dir, ec);
  const std::string path = dir + "/" + name, tmp = path + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream f(tmp);
    f << text;
  }
  std::rename(tmp.c_str(), path.c_str());
  return path;
}

std::string kernel_tiling_header(const std::string& tiling_h) {
  const std::string text = kernel_tiling_text(read_text(tiling_h));
  return text.empty() ? tiling_h : generated_header("kernel-tiling-", text);
}

// CANN's kernel build generates the tiling structs of the op's tiling header at global scope, so a kernel may name
// them (`const AddCustomTilingData* t`). kgen's kernel side of BEGIN_TILING_DATA_DEF defines them where the header
// does, usually in namespace optiling; this writes `using optiling::<Name>;` for each into a small header the kernel
// build force-includes after the tiling header. Returns its path, or "" when there is nothing to bring into scope.
std::string tiling_names_header(const std::string& tiling_h) {
  std::string text = read_text(tiling_h);
  if (!std::regex_search(text, std::regex(R"(\bnamespace\s+optiling\b)"))) return "";
  std::string out = "// generated by kgen-oprun: the tiling structs of " + tiling_h + " at global scope, as CANN's kernel build has them\n";
  std::regex def(R"(\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
  size_t n = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), def); it != std::sregex_iterator(); ++it, ++n)
    out += "using optiling::" + (*it)[1].str() + ";\n";
  if (!n) return "";
  return generated_header("tiling-names-", out);
}
}  // namespace kgen::op
