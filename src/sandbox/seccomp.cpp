// Refuses the system calls a candidate has no use for and that reach past its namespaces: debugging other processes
// (ptrace, process_vm_*), kernel facilities shared across namespaces (bpf, perf_event_open, keyrings, userfaultfd),
// mounts and namespace changes, modules, reboot and swap. Everything else is allowed: compilers, Python and PyTorch
// run unchanged. Other architectures' system calls (32-bit int 0x80 on x86-64) kill the process (libseccomp's
// default for a foreign architecture).
#include "sandbox/seccomp.h"

#include <seccomp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kgen::sandbox {
namespace {
const char* const kDenied[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "perf_event_open", "bpf", "userfaultfd", "keyctl",
    "add_key", "request_key", "mount", "umount2", "pivot_root", "chroot", "setns", "unshare", "open_by_handle_at",
    "name_to_handle_at", "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "syslog", "iopl", "ioperm", "lookup_dcookie", "fanotify_init",
    "fsopen", "fsmount", "fsconfig", "move_mount", "open_tree", "mount_setattr"};
}  // namespace

const char* const* seccomp_denied(int& count) {
  count = static_cast<int>(sizeof kDenied / sizeof kDenied[0]);
  return kDenied;
}

int seccomp_filter_fd(std::string& err) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) {
    err = "seccomp_init failed";
    return -1;
  }
  for (const char* name : kDenied) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) continue;   // not a system call of this architecture
    if (int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0); rc != 0) {
      err = std::string("seccomp_rule_add(") + name + "): " + std::strerror(-rc);
      seccomp_release(ctx);
      return -1;
    }
  }
  int fd = memfd_create("kgen-seccomp", MFD_CLOEXEC);
  if (fd < 0) {
    err = std::string("memfd_create: ") + std::strerror(errno);
    seccomp_release(ctx);
    return -1;
  }
  int rc = seccomp_export_bpf(ctx, fd);
  seccomp_release(ctx);
  if (rc != 0 || lseek(fd, 0, SEEK_SET) != 0) {
    err = std::string("seccomp_export_bpf: ") + std::strerror(rc ? -rc : errno);
    close(fd);
    return -1;
  }
  return fd;
}
}  // namespace kgen::sandbox
