// Large buffers written once from start to end (a decoded timing-only trace, a core's trace records: hundreds of MB)
// in 2 MB pages where the kernel allows it (transparent huge pages in "madvise" mode): a page fault per 2 MB instead
// of one per 4 KB, which on a virtual machine is most of the cost of filling them.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace kgen {
// Advice only: where the kernel refuses it (THP off, a buffer too small to hold a whole 2 MB page) nothing changes.
inline void advise_huge_pages(void* p, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  if (bytes < 2 * kHuge) return;
  const uintptr_t b = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
}
}  // namespace kgen
