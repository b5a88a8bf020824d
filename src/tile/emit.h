// The emitters: the files of the op project (docs/op-projects.md) from a fully lowered Kernel.
#pragma once
#include <string>

#include "tile/ir.h"

namespace kgen::tile {
std::string emit_kernel(const Kernel& k);          // op_kernel/<op>_custom.cpp
std::string emit_tiling_header(const Kernel& k);   // op_host/<op>_custom_tiling.h
std::string emit_host(const Kernel& k);            // op_host/<op>_custom.cpp
std::string emit_json(const Kernel& k);            // <op>_custom.json
}  // namespace kgen::tile
