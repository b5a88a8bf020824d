// Counting uses of released tensors (stale_tensor.h).
#include "sim/stale_tensor.h"

namespace kgen::sim {
namespace {
StaleUses g_uses;
}
void note_stale_use(const char* api, const rt::Loc& loc) { g_uses.note(api, loc); }
StaleUses stale_uses() { return g_uses; }
void reset_stale_uses() { g_uses = StaleUses{}; }
std::string stale_use_warning(const char* kernel) {
  if (g_uses.count == 0) return "";
  return "warning[use-after-free] kernel " + std::string(kernel) + ": " + std::to_string(g_uses.count) +
         " use(s) of a LocalTensor after FreeTensor released its buffer (first: " + g_uses.first +
         "); they read the bytes still there, as the chip does, and a later writer of the buffer not ordered after "
         "them would be error[race]: free a tensor after its last use";
}
}  // namespace kgen::sim
