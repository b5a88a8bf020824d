// The imports check of a candidate's library (see imports.h).
#include "op/imports.h"

#include <cxxabi.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>

#include "sandbox/process.h"

namespace kgen::op {
namespace {
// C library functions that reach out of the kernel's API (the names without a version suffix).
const std::set<std::string>& denied_c() {
  static const std::set<std::string> s = {
      "dlopen", "dlsym", "dlvsym", "dlmopen", "dladdr", "dlinfo", "syscall", "mprotect", "pkey_mprotect", "mmap",
      "mmap64", "munmap", "mremap", "madvise", "ptrace", "process_vm_readv", "process_vm_writev", "fork", "vfork",
      "clone", "clone3", "execve", "execv", "execvp", "execvpe", "execl", "execlp", "execle", "fexecve", "system",
      "popen", "posix_spawn", "posix_spawnp", "open", "open64", "openat", "openat64", "creat", "creat64", "fopen",
      "fopen64", "freopen", "freopen64", "fdopen", "opendir", "fdopendir", "readdir", "readdir64", "scandir",
      "scandir64", "nftw", "nftw64", "ftw", "glob", "glob64", "socket", "socketpair", "connect", "bind", "listen",
      "accept", "accept4", "sendto", "sendmsg", "recvfrom", "recvmsg", "sigaction", "signal", "sigaltstack",
      "sigprocmask", "kill", "tgkill", "killpg", "setns", "unshare", "prctl", "pthread_create", "getenv",
      "secure_getenv", "environ", "__environ", "setenv", "putenv", "write", "pwrite", "pwrite64", "writev",
      "pwritev", "read", "pread", "pread64", "readv", "dup", "dup2", "dup3", "ioctl", "fcntl", "fcntl64",
      "memfd_create", "shm_open", "getauxval", "chdir", "unlink", "rename", "mkdir", "rmdir", "chmod", "chown",
      "truncate", "ftruncate", "link", "symlink", "readlink", "stat", "lstat", "fstatat", "statx", "access",
      "faccessat", "__xstat", "__lxstat", "__fxstatat"};
  return s;
}
// Demangled prefixes of what is not the candidate's to call.
const char* const kDeniedPrefixes[] = {"kgen::sim::", "kgen::op::", "kgen::host::", "kgen::perf::", "kgen::eval::",
                                       "kgen::sandbox::", "kgen::tile::", "kgen::gen::", "std::thread",
                                       "std::basic_ifstream", "std::basic_ofstream", "std::basic_fstream",
                                       "std::basic_filebuf", "std::filesystem::", "std::__cxx11::basic_ifstream",
                                       "std::__cxx11::basic_ofstream"};

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : name;
}

template <class T> bool read_at(const std::string& f, uint64_t off, T& v) {
  if (off > f.size() || f.size() - off < sizeof v) return false;
  std::memcpy(&v, f.data() + off, sizeof v);
  return true;
}
}  // namespace

bool undefined_dynamic_symbols(const std::string& so, std::vector<std::string>& names, std::string& err) {
  std::ifstream in(so, std::ios::binary);
  if (!in) {
    err = "cannot open " + so;
    return false;
  }
  const std::string f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Elf64_Ehdr eh;
  if (!read_at(f, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr)) {
    err = so + " is not a 64-bit little-endian ELF file";
    return false;
  }
  auto section = [&](uint64_t i, Elf64_Shdr& sh) {
    return i < eh.e_shnum && read_at(f, eh.e_shoff + i * sizeof(Elf64_Shdr), sh);
  };
  for (uint64_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sym, str;
    if (!section(i, sym)) {
      err = so + ": section header " + std::to_string(i) + " lies outside the file";
      return false;
    }
    if (sym.sh_type != SHT_DYNSYM) continue;
    if (sym.sh_entsize != sizeof(Elf64_Sym) || !section(sym.sh_link, str) || str.sh_offset > f.size() ||
        f.size() - str.sh_offset < str.sh_size || sym.sh_offset > f.size() || f.size() - sym.sh_offset < sym.sh_size) {
      err = so + ": the dynamic symbol table or its strings lie outside the file";
      return false;
    }
    for (uint64_t k = 1; k < sym.sh_size / sizeof(Elf64_Sym); ++k) {   // entry 0 is the null symbol
      Elf64_Sym s;
      read_at(f, sym.sh_offset + k * sizeof(Elf64_Sym), s);
      if (s.st_shndx != SHN_UNDEF || s.st_name == 0) continue;
      if (s.st_name >= str.sh_size) {
        err = so + ": a symbol name lies outside its string table";
        return false;
      }
      const char* p = f.data() + str.sh_offset + s.st_name;
      names.push_back(demangle(std::string(p, strnlen(p, str.sh_size - s.st_name))));
    }
    return true;
  }
  return true;   // no dynamic symbols: a library that imports nothing
}

std::vector<std::string> forbidden_imports(const std::string& so, bool binding) {
  std::vector<std::string> bad, syms;
  std::string err;
  if (!undefined_dynamic_symbols(so, syms, err)) {
    bad.push_back("(the library's symbol table cannot be read: " + err.substr(0, 200) + ")");
    return bad;
  }
  for (const std::string& base : syms) {
    if (binding && base.rfind("kgen::op::exec_aclnn(", 0) == 0) continue;
    if (denied_c().count(base)) {
      bad.push_back(base + " (files, processes, signals, memory maps, threads or the environment: outside the "
                           "kernel's API)");
      continue;
    }
    for (const char* p : kDeniedPrefixes)
      if (base.rfind(p, 0) == 0) {
        bad.push_back(base.substr(0, 120) + (base.rfind("kgen::", 0) == 0
                                                 ? " (kgen's own internals: the emulator runs in this process)"
                                                 : " (files or threads: outside the kernel's API)"));
        break;
      }
  }
  sandbox::Result od = sandbox::run({"objdump", "-d", "--no-show-raw-insn", so}, 120);
  std::istringstream dis(od.out);
  for (std::string l; std::getline(dis, l);) {
    size_t t = l.find('\t');
    if (t == std::string::npos) continue;
    std::string ins = l.substr(t + 1);
    if (ins.rfind("syscall", 0) == 0 || ins.rfind("sysenter", 0) == 0 || ins.rfind("int    $0x80", 0) == 0) {
      bad.push_back("a " + ins.substr(0, ins.find(' ')) + " instruction (a system call without the C library)");
      break;
    }
  }
  return bad;
}
}  // namespace kgen::op
