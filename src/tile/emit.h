// The emitters: the files of the op project (docs/op-projects.md) from a fully lowered Kernel.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "tile/ir.h"

namespace kgen::tile {
std::string emit_kernel(const Kernel& k);          // op_kernel/<op>_custom.cpp
std::string emit_tiling_header(const Kernel& k);   // op_host/<op>_custom_tiling.h
std::string emit_host(const Kernel& k);            // op_host/<op>_custom.cpp
std::string emit_json(const Kernel& k);            // <op>_custom.json
// The op's OpDef class and its OP_ADD (the end of the host file): one DataType list per tensor in the kernel's
// tensor order, one entry per dtype column. Shared by the vector and the cube host emitters.
std::string emit_op_def(const Kernel& k, const std::vector<std::vector<DType>>& tensor_types);
// Every combination of the dtype variables' types (a mapped variable follows its base): the OpDef's columns.
std::vector<std::vector<DType>> dtype_columns(const Kernel& k);
// An op project's four files by their place in the project (op_kernel/, op_host/, the json), named after the kernel.
std::map<std::string, std::string> project_files(const Kernel& k, std::string kernel, std::string tiling_header,
                                                 std::string host, std::string json);
// The program's docstring as C++ line comments, every line of it commented ("" without one).
std::string doc_comment(const std::string& doc);
// NAME in upper case (include guards, DTYPE_<NAME> macros).
std::string upper(const std::string& s);
// The OpDef input index of tensor `tensor` (outputs are not counted).
int input_index(const Kernel& k, int tensor);
// The tiling header's frame: a comment naming the program, the include guard, tilingdata_base.h (and tiling_api.h
// when a struct holds a TCubeTiling), `namespace optiling {`; the caller writes its structs between open and close.
std::string tiling_header_open(const Kernel& k, bool cube_tiling);
// Ends the op's <Op>TilingData struct, registers it under the op type, closes the namespace and the guard.
std::string tiling_header_close(const Kernel& k);
}  // namespace kgen::tile
