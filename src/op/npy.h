// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0 headers; little-endian, C order).
// dtypes are ge::DataType values (include/ascendc/tiling/tiling_api.h order): float32 -> DT_FLOAT (0),
// float16 -> DT_FLOAT16 (1), int8 (2), int32 (3), uint8 (4), int16 (6), uint16 (7), uint32 (8), int64 (9),
// uint64 (10), float64 -> DT_DOUBLE (11), bool (12).
// bfloat16 is not a NumPy dtype. Convention: a bf16 tensor travels as a uint16 .npy holding the raw bf16 bits
// (numpy: `x.view(np.uint16)` of an ml_dtypes array, or torch's `t.view(torch.int16).numpy().view(np.uint16)`);
// the op runner reads a uint16 input as DT_BF16 when the OpDef column needs bf16 there, and writes bf16 outputs
// as uint16 raw bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kgen::op {
constexpr int kDtBf16 = 27;   // ge::DT_BF16
struct NpyArray {
  std::vector<int64_t> shape;
  int dtype = 0;               // ge::DataType
  std::vector<uint8_t> data;   // C order
  size_t elements() const;
};
// Empty string on success, else a one-line reason (what was found, what is supported).
std::string read_npy(const std::string& path, NpyArray& out);
// The same from bytes in memory (a sandboxed child's channel frame): the data must be exactly what the shape needs.
std::string parse_npy(const std::string& bytes, NpyArray& out, const std::string& what);
// The .npy file's bytes ("" for a dtype .npy cannot carry).
std::string npy_encode(const std::vector<int64_t>& shape, int dtype, const void* data, size_t bytes);
std::string write_npy(const std::string& path, const std::vector<int64_t>& shape, int dtype, const void* data,
                      size_t bytes);
size_t npy_dtype_size(int dtype);        // 0 when not a dtype .npy can carry (bf16: 2, stored as uint16)
const char* npy_dtype_name(int dtype);   // "float32", ..., "bfloat16"
int npy_dtype_from_name(const std::string& name);   // the inverse; -1 for a name it does not know
}  // namespace kgen::op
