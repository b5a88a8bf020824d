// A small Apache Parquet writer for the RL prompt files verl reads (datasets.load_dataset("parquet")): one row group,
// PLAIN values, RLE levels, no compression, the footer in Thrift's compact protocol (docs/data.md cites the format
// specification). Columns are required strings, int64s, structs of them, and lists of such structs or strings.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kgen::data {
struct ParquetField {
  enum Kind { String, Int64, Struct, List } kind = String;
  std::string name;
  std::vector<ParquetField> children;   // Struct: its fields; List: one field, the element
};
// Writes `rows` (JSON objects with every field of `schema`; a missing or mistyped field is an error naming the row
// and field) to `out` whole: a temporary file beside it, then renamed. False with err when a row does not fit the
// schema or the file cannot be written.
bool write_parquet(const std::string& out, const std::vector<ParquetField>& schema,
                   const std::vector<nlohmann::json>& rows, std::string& err);
}  // namespace kgen::data
