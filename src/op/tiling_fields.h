// The tiling data TilingFunc saved, read back field by field with the op's tiling header: the fields of the class
// REGISTER_TILING_DATA_CLASS names, in order, each at its natural alignment (register/tilingdata_base.h lays them
// out the same way). `kgen op run --tiling-only` prints them; `kgen tile explain` states them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kgen::op {
struct TilingField {
  std::string name, type;     // "tileUnits", "uint32_t"
  std::string comment;        // the header's comment on the line ("" when none)
  std::string value;          // "8192"; an array "1, 2, 3"; "" when not decoded (see `note`)
};
// Fields of the tiling class registered for `op_type` (any registered one when op_type is ""). Decoding stops at a
// field whose size the header does not give (a TILING_DATA_FIELD_DEF_STRUCT of a class defined elsewhere, such as
// TCubeTiling): it and the fields after it come back without a value. `note` says so.
std::vector<TilingField> decode_tiling(const std::string& header_text, const std::string& op_type,
                                       const std::vector<uint8_t>& data, std::string& note);
}  // namespace kgen::op
