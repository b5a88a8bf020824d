// Neutral types exchanged between tiling_data_test.cpp (host side) and tiling_data_kernel_test.cpp (kernel side).
#pragma once
#include <cstddef>
#include <cstdint>

namespace kgen_tiling_test {
struct Layout {
  size_t size, inner_size, key1_size;
  size_t off_c, off_total, off_big, off_arr, off_f, off_inner, off_inner_b, off_s8, off_cube, off_last, off_tail;
};
struct Seen {
  uint8_t c;
  uint32_t total;
  int64_t big;
  int16_t arr[5];
  float f;
  uint16_t a;
  uint8_t b[3];
  int8_t s8;
  int32_t cubeM, cubeBaseK, cubeMx;
  uint64_t last;
  uint16_t tail;
};
Layout kernel_layout();
Seen read_through_kernel_struct(const void* blob);
Seen run_kernel(uint8_t* gmTiling, uint32_t blockDim);
}  // namespace kgen_tiling_test
