// The model's input (KTrace) as bytes: how a sandboxed kgen-oprun hands its launch trace to the evaluator, which runs
// the performance model itself. Little-endian, fixed-size records:
//   "KGT2" u32 block_dim, str kernel, str soc, u32 napis, napis x str, u32 ncores,
//   per core: i32 block, u8 aic, i32 sub_block, u64 nops, nops x 80-byte Op
// (str = u32 length + bytes). The decoder treats the bytes as hostile: every count, index and enum is checked, so
// a forged trace can give wrong times (bounded by the evaluator's physical lower bound) but never bad memory access.
#pragma once
#include <string>

#include "perf/model.h"

namespace kgen::perf {
std::string encode_ktrace(const KTrace& t);
// The same in pieces, so that a large trace is never held twice in the model's form: the head (t's kernel, soc,
// block dim and api table, then the core count; room reserved for nops records), then each core appended.
std::string encode_ktrace_head(const KTrace& t, uint32_t ncores, uint64_t nops);
void encode_ktrace_core(const KCore& c, std::string& out);
// encode_ktrace_core in pieces: a core's head announcing nops records, then encode_ktrace_ops calls that together
// append exactly nops records.
void encode_ktrace_core_head(int32_t block, bool aic, int32_t sub_block, uint64_t nops, std::string& out);
void encode_ktrace_ops(const std::vector<Op>& ops, std::string& out);
constexpr size_t kKtraceCoreHeadBytes = 17;   // i32 block, u8 aic, i32 sub_block, u64 nops
constexpr size_t kKtraceOpBytes = 80;
// max_ops: the most records accepted over all cores. False with `err` set on anything malformed.
bool decode_ktrace(const std::string& bytes, KTrace& t, std::string& err, uint64_t max_ops = 200000000);
}  // namespace kgen::perf
