// What a candidate's compiled library may not import: the check that macros cannot hide. Whatever the source
// spells, the library's undefined dynamic symbols (what nm -D -u lists) say which functions it calls outside itself;
// a candidate may call the AscendC/CANN API (kgen::rt, the host API, the torch shim's kgen::op::exec_aclnn for bindings) and the C
// and C++ libraries, but not kgen's internals (kgen::sim, kgen::op, kgen::host, kgen::perf: the emulator's own
// state is in the same process), nor what reaches out of the kernel: files, processes, signals, memory mappings and
// protections, threads, sockets, the dynamic linker, the environment. A `syscall` instruction in its code
// (objdump -d) is refused the same way.
#pragma once
#include <string>
#include <vector>

namespace kgen::op {
// "SYMBOL (why)" for each forbidden import of the library at `so`; `binding`: a MultiKernelBench binding, which
// calls kgen::op::exec_aclnn by design. Empty when the library may be loaded.
std::vector<std::string> forbidden_imports(const std::string& so, bool binding);
// The undefined symbols of the ELF64 library's dynamic symbol table, demangled, read in this process (nm would load
// binutils' LTO plugins, LLVM's among them: 0.1-0.2 s a library). False with `err` on a file that is not one.
bool undefined_dynamic_symbols(const std::string& so, std::vector<std::string>& names, std::string& err);
}  // namespace kgen::op
