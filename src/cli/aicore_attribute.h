// bisheng's function-space specifiers `[aicore]` and `[host, aicore]` (CANN's compiler defines __aicore__ as
// `[aicore]`; inlined Catlass code writes `__forceinline__ [aicore]` and `[host, aicore]`), rewritten to __aicore__ so
// that g++ reads the kernel as bisheng does (kgen runs every function on the host).
#pragma once
#include <string>

namespace kgen::cli {
// src with every `[aicore]` / `[host, aicore]` that follows a blank, a line start or an operator (not an identifier, `]` or `)`: an
// array subscript `a[aicore]` stays) replaced by __aicore__; lines keep their numbers. `changed` tells whether any was.
std::string rewrite_aicore_attribute(const std::string& src, bool& changed);
}  // namespace kgen::cli
