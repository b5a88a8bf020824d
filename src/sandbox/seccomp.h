// The seccomp filter of a sandboxed run, as the BPF program bubblewrap's --seccomp FD loads.
#pragma once
#include <string>

namespace kgen::sandbox {
// A memfd (close-on-exec, offset 0) holding the filter; -1 with `err` set when libseccomp fails.
int seccomp_filter_fd(std::string& err);
// The system calls the filter refuses (EPERM), for docs and tests.
const char* const* seccomp_denied(int& count);
}  // namespace kgen::sandbox
