// Attention programs: per (batch, block of query rows) S = Q K^T on the cube, the row operations and the softmax on
// the vector cores, O = P V on the cube (`for blk in blocks(*batch, s)` around two mma calls and a softmax).
// Checked by sema_attention.cpp, emitted by emit_attention.cpp. docs/tile-language.md, "Attention programs".
#pragma once
#include <functional>
#include <map>
#include <string>

#include "tile/ast.h"
#include "tile/diag.h"
#include "tile/ir.h"

namespace kgen::tile {
// Whether the program is an attention program: a blocks loop without a K loop whose body calls softmax.
bool is_attention_program(const Program& p);
// Checks the body of an attention program and fills k.attn (k.cube = k.attention = true); the header is checked.
void check_attention(const Program& p, Kernel& k, Diags& d);
// The program's IR as text (`kgen tile compile --dump-after check`).
std::string print_attention(const Kernel& k);
// The op project's files of a checked attention program (kernel, tiling header, host, json).
std::map<std::string, std::string> emit_attention(const Kernel& k);
// The TilingFunc's lines that read every dim from the input shapes and check the inputs against their declared
// dims (d_<name> locals); shared with the cube host emitter (emit_cube.cpp).
void cube_host_dims(const Kernel& k, const std::function<void(const std::string&)>& line);
// The start of a cube host file up to the TilingFunc's platform line: the includes (<cmath> when asked), CubeType
// (ge -> matmul_tiling data types), `static ge::graphStatus TilingFunc(...) {`. Shared by every cube host emitter.
void cube_host_open(const Kernel& k, bool cmath, const std::function<void(const std::string&)>& line);
// The TilingFunc's lines that fill a MatmulApiTiling `name` for one [m, n, k] product of GM operands (B transposed
// when trans_b; C of c_type) inside matrices of org_m rows and org_n columns (n when null); shared with the row matmul
// emitter (emit_row_matmul.cpp).
void host_matmul(const char* name, const char* a_type, bool trans_b, const char* c_type, const char* m, const char* n,
                 const char* kk, const char* org_m, const std::function<void(const std::string&)>& line,
                 const char* org_n = nullptr);
// A scalar of numbers, attrs and dims as a C++ double expression of the TilingFunc (false and an error whose message
// is `what` when it is not one); shared with sema_row_matmul.cpp.
bool host_scalar_expr(const Kernel& k, const Expr& e, std::string& out, Diags& d, const std::string& what);
}  // namespace kgen::tile
