// The kernel's view of an op's tiling header. CANN's kernel build never compiles the op_host tiling header: it loads
// the host library and writes the registered tiling structs (class name, fields) into a header of its own
// (asc-devkit tools/build/asc_op_compile_base/adapter/get_op_tiling.py). kgen force-includes the tiling header into
// the kernel instead, which is the same when the header holds only BEGIN_TILING_DATA_DEF blocks; a header that also
// holds host code (a TilingFunc helper reading gert::TilingContext) would not compile there, so the kernel gets what
// CANN's generated header has: the blocks, their REGISTER_TILING_DATA_CLASS lines, and the constants they may size
// arrays with.
#pragma once
#include <string>

namespace kgen::op {
// "" when the header text names no host API (gert::, TilingContext, platform_ascendc::, ge::graphStatus,
// context->): force-include it as it is. Otherwise the kernel's header text: #pragma once, kgen's tilingdata_base.h,
// then, in the header's namespace optiling (if it has one), each BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF block,
// each REGISTER_TILING_DATA_CLASS / REGISTER_TILING_DEFAULT line and each namespace-scope constant (`constexpr` /
// `const` with an initializer, object-like `#define`), in the header's order.
std::string kernel_tiling_text(const std::string& header);
}  // namespace kgen::op
