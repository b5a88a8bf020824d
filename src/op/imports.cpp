// The imports check of a candidate's library (see imports.h).
#include "op/imports.h"

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
}  // namespace

std::vector<std::string> forbidden_imports(const std::string& so, bool binding) {
  std::vector<std::string> bad;
  sandbox::Result nm = sandbox::run({"nm", "-D", "-u", "-C", so}, 60);
  if (nm.status != 0) {
    bad.push_back("(the library's symbol table cannot be read: " + nm.out.substr(0, 200) + ")");
    return bad;
  }
  std::istringstream in(nm.out);
  for (std::string l; std::getline(in, l);) {
    // "                 U name@VERSION" or " w name"
    size_t k = l.find_first_not_of(' ');
    if (k == std::string::npos || k + 2 >= l.size()) continue;
    std::string sym = l.substr(k + 2);
    std::string base = sym.substr(0, sym.find('@'));
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
