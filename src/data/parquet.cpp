// Parquet files written whole (parquet.h). The layout, after the format specification (apache/parquet-format,
// README.md and src/main/thrift/parquet.thrift): "PAR1", one data page per leaf column (a PageHeader, then the
// repetition and definition levels, then the values), the FileMetaData, its length, "PAR1". Nested values are
// shredded into levels as in the Dremel paper: a list is `required group NAME (LIST) { repeated group list {
// required ELEMENT element; } }`, the three-level form every reader accepts.
#include "data/parquet.h"

#include "data/jsonl.h"

#include <cstdint>
#include <fmt/core.h>

namespace kgen::data {
namespace {
using nlohmann::json;

// Thrift's compact protocol, the encoder side: field headers as deltas of the field id, zigzag varints.
class Thrift {
 public:
  std::string out;
  void begin_struct() { last_.push_back(0); }
  void end_struct() {
    out += '\0';   // STOP
    last_.pop_back();
  }
  void i32(int id, int32_t v) { head(id, 5), zigzag(v); }
  void i64(int id, int64_t v) { head(id, 6), zigzag(v); }
  void binary(int id, const std::string& s) { head(id, 8), bytes(s); }
  void struct_field(int id) { head(id, 12), begin_struct(); }
  void list_field(int id, uint8_t elem_type, size_t n) {
    head(id, 9);
    if (n < 15) {
      out += static_cast<char>((n << 4) | elem_type);
    } else {
      out += static_cast<char>(0xF0 | elem_type);
      varint(n);
    }
  }
  void list_i32(int32_t v) { zigzag(v); }
  void list_binary(const std::string& s) { bytes(s); }

 private:
  std::vector<int> last_;
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out += static_cast<char>((v & 0x7F) | 0x80);
      v >>= 7;
    }
    out += static_cast<char>(v);
  }
  void zigzag(int64_t v) { varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void bytes(const std::string& s) {
    varint(s.size());
    out += s;
  }
  void head(int id, uint8_t type) {
    const int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      out += static_cast<char>((delta << 4) | type);
    } else {
      out += static_cast<char>(type);
      zigzag(id);
    }
    last_.back() = id;
  }
};

// Thrift enum values of parquet.thrift.
enum : int32_t { kInt64 = 2, kByteArray = 6 };                  // Type
enum : int32_t { kRequired = 0, kRepeated = 2 };                // FieldRepetitionType
enum : int32_t { kUtf8 = 0, kListType = 3 };                    // ConvertedType
enum : int32_t { kPlain = 0, kRle = 3 };                        // Encoding
enum : uint8_t { kTI32 = 5, kTBinary = 8, kTStruct = 12 };      // compact-protocol element types

struct Column {   // one leaf, shredded
  ParquetField::Kind kind;
  std::vector<std::string> path;
  int max_rep = 0, max_def = 0;
  std::vector<int> rep, def;
  std::string values;   // PLAIN
};

void leaves(const ParquetField& f, std::vector<std::string> path, int rep, std::vector<Column>& cols) {
  path.push_back(f.name);
  if (f.kind == ParquetField::Struct) {
    for (const auto& c : f.children) leaves(c, path, rep, cols);
  } else if (f.kind == ParquetField::List) {
    path.push_back("list");
    ParquetField e = f.children.at(0);
    e.name = "element";
    leaves(e, path, rep + 1, cols);
  } else {
    cols.push_back({f.kind, path, rep, rep, {}, {}, {}});
  }
}

size_t count_leaves(const ParquetField& f) {
  if (f.kind == ParquetField::String || f.kind == ParquetField::Int64) return 1;
  size_t n = 0;
  for (const auto& c : f.children) n += count_leaves(c);
  return n;
}

// Dremel's shredding of one value of field f into its leaves' columns, from column `col` on. `list_rep` is the
// repetition level a list directly under f repeats at.
bool shred(const ParquetField& f, const json& v, int r, int d, int list_rep, std::vector<Column>& cols, size_t& col,
           std::string& err) {
  auto wrong = [&](const char* want) {
    err = fmt::format("field '{}' must be {} (got {})", f.name, want, v.type_name());
    return false;
  };
  switch (f.kind) {
    case ParquetField::String: {
      if (!v.is_string()) return wrong("a string");
      const std::string& s = v.get_ref<const std::string&>();
      Column& c = cols[col++];
      c.rep.push_back(r), c.def.push_back(d);
      const uint32_t n = static_cast<uint32_t>(s.size());
      for (int i = 0; i < 4; ++i) c.values += static_cast<char>((n >> (8 * i)) & 0xFF);
      c.values += s;
      return true;
    }
    case ParquetField::Int64: {
      if (!v.is_number_integer()) return wrong("an integer");
      const uint64_t x = static_cast<uint64_t>(v.get<int64_t>());
      Column& c = cols[col++];
      c.rep.push_back(r), c.def.push_back(d);
      for (int i = 0; i < 8; ++i) c.values += static_cast<char>((x >> (8 * i)) & 0xFF);
      return true;
    }
    case ParquetField::Struct:
      if (!v.is_object()) return wrong("an object");
      for (const auto& c : f.children) {
        if (!v.contains(c.name)) {
          err = fmt::format("field '{}' has no '{}'", f.name, c.name);
          return false;
        }
        if (!shred(c, v[c.name], r, d, list_rep, cols, col, err)) return false;
      }
      return true;
    case ParquetField::List: {
      if (!v.is_array()) return wrong("an array");
      const ParquetField& e = f.children.at(0);
      if (v.empty()) {   // an empty list: one entry in each leaf, defined only up to the list itself
        for (size_t i = 0, n = count_leaves(e); i < n; ++i, ++col) cols[col].rep.push_back(r), cols[col].def.push_back(d);
        return true;
      }
      const size_t first = col;
      for (size_t i = 0; i < v.size(); ++i) {
        col = first;
        if (!shred(e, v[i], i == 0 ? r : list_rep + 1, d + 1, list_rep + 1, cols, col, err)) return false;
      }
      return true;
    }
  }
  return false;
}

// The RLE/bit-packed hybrid of levels as RLE runs, prefixed by its byte length (data page v1).
std::string levels(const std::vector<int>& lv, int max_level) {
  int bw = 0;
  while ((1 << bw) <= max_level) ++bw;
  const int value_bytes = (bw + 7) / 8;
  std::string runs;
  for (size_t i = 0; i < lv.size();) {
    size_t j = i;
    while (j < lv.size() && lv[j] == lv[i]) ++j;
    uint64_t head = static_cast<uint64_t>(j - i) << 1;
    while (head >= 0x80) {
      runs += static_cast<char>((head & 0x7F) | 0x80);
      head >>= 7;
    }
    runs += static_cast<char>(head);
    for (int b = 0; b < value_bytes; ++b) runs += static_cast<char>((lv[i] >> (8 * b)) & 0xFF);
    i = j;
  }
  std::string out;
  const uint32_t n = static_cast<uint32_t>(runs.size());
  for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xFF);
  return out + runs;
}

void schema_elements(const ParquetField& f, int repetition, Thrift& t) {
  t.begin_struct();
  if (f.kind == ParquetField::String || f.kind == ParquetField::Int64)
    t.i32(1, f.kind == ParquetField::String ? kByteArray : kInt64);
  t.i32(3, repetition);
  t.binary(4, f.name);
  if (f.kind == ParquetField::Struct) t.i32(5, static_cast<int32_t>(f.children.size()));
  if (f.kind == ParquetField::List) t.i32(5, 1);
  if (f.kind == ParquetField::String) t.i32(6, kUtf8);
  if (f.kind == ParquetField::List) t.i32(6, kListType);
  t.end_struct();
  if (f.kind == ParquetField::Struct) {
    for (const auto& c : f.children) schema_elements(c, kRequired, t);
  } else if (f.kind == ParquetField::List) {
    t.begin_struct();   // repeated group list
    t.i32(3, kRepeated);
    t.binary(4, "list");
    t.i32(5, 1);
    t.end_struct();
    ParquetField e = f.children.at(0);
    e.name = "element";
    schema_elements(e, kRequired, t);
  }
}

size_t schema_count(const ParquetField& f) {   // the field's schema elements (a LIST adds its "list" group)
  size_t n = f.kind == ParquetField::List ? 2 : 1;
  for (const auto& c : f.children) n += schema_count(c);
  return n;
}
}  // namespace

bool write_parquet(const std::string& out, const std::vector<ParquetField>& schema, const std::vector<json>& rows,
                   std::string& err) {
  std::vector<Column> cols;
  for (const auto& f : schema) leaves(f, {}, 0, cols);
  const ParquetField root{ParquetField::Struct, "row", schema};
  for (size_t i = 0; i < rows.size(); ++i) {
    size_t col = 0;
    std::string e;
    if (!shred(root, rows[i], 0, 0, 0, cols, col, e)) {
      err = fmt::format("parquet row {}: {}", i, e);
      return false;
    }
  }

  std::string file = "PAR1";
  std::vector<std::pair<int64_t, int64_t>> chunks;   // per column: data page offset, bytes with the header
  for (const Column& c : cols) {
    std::string body;
    if (c.max_rep > 0) body += levels(c.rep, c.max_rep);
    if (c.max_def > 0) body += levels(c.def, c.max_def);
    body += c.values;
    Thrift h;
    h.begin_struct();
    h.i32(1, 0);   // DATA_PAGE
    h.i32(2, static_cast<int32_t>(body.size()));
    h.i32(3, static_cast<int32_t>(body.size()));
    h.struct_field(5);
    h.i32(1, static_cast<int32_t>(c.def.size()));
    h.i32(2, kPlain);
    h.i32(3, kRle);
    h.i32(4, kRle);
    h.end_struct();
    h.end_struct();
    chunks.push_back({static_cast<int64_t>(file.size()), static_cast<int64_t>(h.out.size() + body.size())});
    file += h.out + body;
  }

  Thrift m;
  m.begin_struct();
  m.i32(1, 1);   // version
  size_t elements = 1;
  for (const auto& f : schema) elements += schema_count(f);
  m.list_field(2, kTStruct, elements);
  m.begin_struct();   // the root
  m.binary(4, "schema");
  m.i32(5, static_cast<int32_t>(schema.size()));
  m.end_struct();
  for (const auto& f : schema) schema_elements(f, kRequired, m);
  m.i64(3, static_cast<int64_t>(rows.size()));
  m.list_field(4, kTStruct, 1);
  m.begin_struct();   // the row group
  m.list_field(1, kTStruct, cols.size());
  int64_t total = 0;
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    m.begin_struct();   // ColumnChunk
    m.i64(2, chunks[i].first);
    m.struct_field(3);   // ColumnMetaData
    m.i32(1, c.kind == ParquetField::String ? kByteArray : kInt64);
    m.list_field(2, kTI32, 2);
    m.list_i32(kPlain);
    m.list_i32(kRle);
    m.list_field(3, kTBinary, c.path.size());
    for (const auto& p : c.path) m.list_binary(p);
    m.i32(4, 0);   // UNCOMPRESSED
    m.i64(5, static_cast<int64_t>(c.def.size()));
    m.i64(6, chunks[i].second);
    m.i64(7, chunks[i].second);
    m.i64(9, chunks[i].first);
    m.end_struct();
    m.end_struct();
    total += chunks[i].second;
  }
  m.i64(2, total);
  m.i64(3, static_cast<int64_t>(rows.size()));
  m.end_struct();
  m.binary(6, "kgen data (parquet.cpp)");
  m.end_struct();
  file += m.out;
  const uint32_t n = static_cast<uint32_t>(m.out.size());
  for (int i = 0; i < 4; ++i) file += static_cast<char>((n >> (8 * i)) & 0xFF);
  file += "PAR1";

  return write_whole(out, file, err);
}
}  // namespace kgen::data
