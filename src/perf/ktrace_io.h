// The model's input (KTrace) as bytes: how a sandboxed kgen-oprun hands its launch trace to the evaluator, which runs
// the performance model itself. Little-endian, fixed-size records:
//   "KGT1" u32 block_dim, str kernel, str soc, u32 napis, napis x str, u32 ncores,
//   per core: i32 block, u8 aic, i32 sub_block, u64 nops, nops x 72-byte Op
// (str = u32 length + bytes). The decoder treats the bytes as hostile: every count, index and enum is checked, so
// a forged trace can give wrong times (bounded by the evaluator's physical lower bound) but never bad memory access.
#pragma once
#include <string>

#include "perf/model.h"

namespace kgen::perf {
std::string encode_ktrace(const KTrace& t);
// max_ops: the most records accepted over all cores. False with `err` set on anything malformed.
bool decode_ktrace(const std::string& bytes, KTrace& t, std::string& err, uint64_t max_ops = 200000000);
}  // namespace kgen::perf
