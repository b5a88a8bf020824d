// Integer division by zero in kernel code: the AI Core's scalar unit does not trap (a kernel whose unused quotient
// divides by zero runs on the chip: NPUKernelBench's Catlass Gemm, docs/sources.md S70), where x86-64's div raises
// SIGFPE. While a launch runs, the faulting div/idiv is stepped over with quotient and remainder 0.
#pragma once
#include <cstdint>

namespace kgen::sim {
// Installs the SIGFPE handler for the launch's lifetime (the previous one is restored by the destructor).
class IntDivNoTrap {
 public:
  IntDivNoTrap();
  ~IntDivNoTrap();
  IntDivNoTrap(const IntDivNoTrap&) = delete;
  IntDivNoTrap& operator=(const IntDivNoTrap&) = delete;
  // Divisions by zero (or INT_MIN / -1) stepped over since the handler was installed.
  static uint64_t count();
};
}  // namespace kgen::sim
