// Stepping over x86-64 div/idiv faults in kernel code (int_div_trap.h).
#include "sim/int_div_trap.h"

#include <signal.h>
#include <ucontext.h>

#include <atomic>
#include <cstring>

namespace kgen::sim {
namespace {
std::atomic<uint64_t> g_count{0};
struct sigaction g_previous;

// The length of the div/idiv instruction at p (opcode F6 or F7 with ModRM reg 6 or 7, after legacy and REX prefixes),
// or 0 when it is not one. `wide`: the F7 form (AX/EAX/RAX), else the byte form (AL, AH).
size_t div_length(const uint8_t* p, bool& wide) {
  size_t i = 0;
  while (i < 4 && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xF0 || p[i] == 0xF2 || p[i] == 0xF3 || p[i] == 0x2E ||
                   p[i] == 0x3E || p[i] == 0x26 || p[i] == 0x64 || p[i] == 0x65 || p[i] == 0x36))
    ++i;
  if ((p[i] & 0xF0) == 0x40) ++i;   // REX
  if (p[i] != 0xF6 && p[i] != 0xF7) return 0;
  wide = p[i] == 0xF7;
  const uint8_t modrm = p[i + 1];
  const uint8_t mod = modrm >> 6, reg = (modrm >> 3) & 7, rm = modrm & 7;
  if (reg != 6 && reg != 7) return 0;
  size_t n = i + 2;
  if (mod != 3 && rm == 4) {   // SIB
    const uint8_t base = p[n] & 7;
    ++n;
    if (mod == 0 && base == 5) n += 4;
  }
  if (mod == 1) n += 1;
  else if (mod == 2) n += 4;
  else if (mod == 0 && rm == 5) n += 4;   // RIP-relative
  return n;
}

void on_sigfpe(int sig, siginfo_t* info, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  greg_t* r = uc->uc_mcontext.gregs;
  const auto* pc = reinterpret_cast<const uint8_t*>(r[REG_RIP]);
  bool wide = true;
  const size_t len = (info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF) ? div_length(pc, wide) : 0;
  if (!len) {   // not an integer division: what the process would have done without this handler
    sigaction(SIGFPE, &g_previous, nullptr);
    raise(sig);
    return;
  }
  g_count.fetch_add(1, std::memory_order_relaxed);
  if (wide) {
    r[REG_RAX] = 0;
    r[REG_RDX] = 0;
  } else {
    r[REG_RAX] &= ~static_cast<greg_t>(0xFFFF);   // AL quotient, AH remainder
  }
  r[REG_RIP] += static_cast<greg_t>(len);
}
}  // namespace

IntDivNoTrap::IntDivNoTrap() {
  g_count = 0;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigfpe;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGFPE, &sa, &g_previous);
}
IntDivNoTrap::~IntDivNoTrap() { sigaction(SIGFPE, &g_previous, nullptr); }
uint64_t IntDivNoTrap::count() { return g_count.load(std::memory_order_relaxed); }
}  // namespace kgen::sim
