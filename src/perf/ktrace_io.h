// The model's input (KTrace) as bytes: how a sandboxed kgen-oprun hands its launch trace to the evaluator, which runs
// the performance model itself. Little-endian:
//   "KGT3" u32 block_dim, str kernel, str soc, u32 napis, napis x str, u32 ncores,
//   per core: i32 block, u8 aic, i32 sub_block, u64 nops, nops x record
// (str = u32 length + bytes). A record is coded against the last record of its slot: a table per core of the call
// sites (kind, api, line) seen so far, so that a record a loop repeats costs a few bytes instead of 80:
//   varint slot (== the table's size: a new slot, its base the default Op), varint mask (bit f: field f differs from
//   the base, fields in the order kind pipe pipe2 dtype api line elems bytes repeats count event id gm_buf gm_off m n
//   k gm_rows gm_stride), then per set bit the zigzag varint of (field - base), wrapping at 64 bits.
// The record becomes its slot's new base. A timing-only trace of 4.3 M records is 5 to 6 bytes a record (80 before).
// The decoder treats the bytes as hostile: every count, index, width and enum is checked, so a forged trace can give
// wrong times (bounded by the evaluator's physical lower bound) but never bad memory access.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "perf/model.h"

namespace kgen::perf {
std::string encode_ktrace(const KTrace& t);
// The same in pieces, so that a large trace is never held in the model's form twice: the head (t's kernel, soc,
// block dim and api table, then the core count), then each core: its head announcing nops records, then records
// through one CoreEncoder per core (whatever the chunks, the bytes are those of encode_ktrace).
std::string encode_ktrace_head(const KTrace& t, uint32_t ncores);
void encode_ktrace_core_head(int32_t block, bool aic, int32_t sub_block, uint64_t nops, std::string& out);
class CoreEncoder {
 public:
  void put(const Op& op, std::string& out);

 private:
  std::unordered_map<uint64_t, uint32_t> slot_of_;   // call site -> slot (a collision only costs bytes)
  std::vector<Op> base_;                             // per slot, its last record
};
void encode_ktrace_core(const KCore& c, std::string& out);
// The most call-site slots a core's table holds; later sites are coded against the default Op.
constexpr size_t kKtraceMaxSlots = 1u << 16;
// max_ops: the most records accepted over all cores. False with `err` set on anything malformed.
bool decode_ktrace(const std::string& bytes, KTrace& t, std::string& err, uint64_t max_ops = 200000000);
}  // namespace kgen::perf
