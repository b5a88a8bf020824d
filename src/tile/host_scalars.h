// Scalars the host computes: an expression of attrs, dims and literals (a power of scalars, exp/log/sqrt of a scalar)
// that the kernel's scalar unit has no instruction for is evaluated once by the TilingFunc, in double, and reaches the
// kernel as a float tiling field (Kernel::host_scalars; docs/tile-language.md, "Scalars computed on the host").
#pragma once
#include <map>
#include <string>

#include "tile/ir.h"

namespace kgen::tile {
// The host C++ of scalar expression `e`: attrs are the TilingFunc's attr_<name>, dims its d_<name>, scalar locals
// (`bc = 1.0 - beta1 ** step`) their own expressions. False, with `bad` at the offending node, for anything else.
bool host_scalar_cpp(const Expr& e, const Kernel& k, const std::map<std::string, const Expr*>& scalar_locals,
                     std::string& out, const Expr*& bad);
// Adds a host scalar for `e` (host C++ `host`) to k and returns the kernel's C++ for it: the tiling member.
std::string add_host_scalar(Kernel& k, const std::string& host, const std::string& text);
}  // namespace kgen::tile
