// Tiling data read back with the tiling header (tiling_fields.h).
#include "op/tiling_fields.h"

// TCubeTiling's fields, in order (all int32): the Matmul API's tiling, defined once in kgen's kernel headers.
#include "../../include/ascendc/kernel_tiling/kernel_tiling.h"

#include <cstring>
#include <cstdio>
#include <map>
#include <regex>

namespace kgen::op {
namespace {
struct Decl {
  std::string kind, type, name, comment;   // kind: FIELD, ARR, STRUCT
  size_t count = 1;
};

// Each BEGIN_TILING_DATA_DEF(Class) ... END_TILING_DATA_DEF block's field declarations, by class.
std::map<std::string, std::vector<Decl>> classes_of(const std::string& text) {
  std::map<std::string, std::vector<Decl>> out;
  static const std::regex begin(R"(BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
  static const std::regex field(
      R"(TILING_DATA_FIELD_DEF(_ARR|_STRUCT)?\s*\(\s*([\w:]+)\s*,\s*(?:(\d+)\s*,\s*)?(\w+)\s*\)\s*;?[ \t]*(?://[ \t]*([^\n]*))?)");
  for (std::sregex_iterator it(text.begin(), text.end(), begin), end; it != end; ++it) {
    const size_t from = static_cast<size_t>(it->position(0) + it->length(0));
    const size_t to = text.find("END_TILING_DATA_DEF", from);
    const std::string body = text.substr(from, to == std::string::npos ? std::string::npos : to - from);
    std::vector<Decl>& decls = out[(*it)[1].str()];
    for (std::sregex_iterator f(body.begin(), body.end(), field), fe; f != fe; ++f) {
      Decl d;
      d.kind = (*f)[1].str() == "_ARR" ? "ARR" : (*f)[1].str() == "_STRUCT" ? "STRUCT" : "FIELD";
      d.type = (*f)[2].str();
      if (d.kind == "ARR") d.count = std::stoul((*f)[3].str());
      d.name = (*f)[4].str();
      d.comment = (*f)[5].str();
      while (!d.comment.empty() && (d.comment.back() == ' ' || d.comment.back() == '\r')) d.comment.pop_back();
      decls.push_back(d);
    }
  }
  // CANN's TCubeTiling, as the host tiling headers nest it (TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...)).
  std::vector<Decl>& cube = out["TCubeTiling"];
#define KGEN_TCUBE_DECL(name) cube.push_back({"FIELD", "int32_t", #name, "", 1});
  KGEN_TCUBE_TILING_FIELDS(KGEN_TCUBE_DECL)
#undef KGEN_TCUBE_DECL
  return out;
}

size_t size_of(const std::string& type) {
  static const std::map<std::string, size_t> s = {
      {"int8_t", 1},  {"uint8_t", 1},  {"char", 1},     {"int16_t", 2}, {"uint16_t", 2}, {"int32_t", 4},
      {"uint32_t", 4}, {"float", 4},   {"int64_t", 8},  {"uint64_t", 8}, {"double", 8}};
  auto it = s.find(type);
  return it == s.end() ? 0 : it->second;
}

std::string value_at(const std::string& type, const uint8_t* p) {
  auto get = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  if (type == "int8_t" || type == "char") return std::to_string(get(int8_t{}));
  if (type == "uint8_t") return std::to_string(get(uint8_t{}));
  if (type == "int16_t") return std::to_string(get(int16_t{}));
  if (type == "uint16_t") return std::to_string(get(uint16_t{}));
  if (type == "int32_t") return std::to_string(get(int32_t{}));
  if (type == "uint32_t") return std::to_string(get(uint32_t{}));
  if (type == "int64_t") return std::to_string(get(int64_t{}));
  if (type == "uint64_t") return std::to_string(get(uint64_t{}));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", type == "float" ? static_cast<double>(get(float{})) : get(double{}));
  return buf;
}

// Appends the fields of `cls` at byte offset `base`; false when a size is unknown (the rest is not decoded).
bool decode(const std::map<std::string, std::vector<Decl>>& classes, const std::string& cls, const std::string& prefix,
            const std::vector<uint8_t>& data, size_t& off, std::vector<TilingField>& out, std::string& note) {
  for (const Decl& d : classes.at(cls)) {
    TilingField f{prefix + d.name, d.type, d.comment, ""};
    if (d.kind == "STRUCT") {
      if (!classes.count(d.type)) {
        note = f.name + " (" + d.type + ") and the fields after it are not decoded: its layout is not in the header";
        out.push_back(f);
        return false;
      }
      // A nested class is aligned as its widest field; its fields follow.
      size_t align = 1;
      for (const Decl& x : classes.at(d.type)) align = std::max(align, size_of(x.type));
      off = (off + align - 1) / align * align;
      if (!decode(classes, d.type, f.name + ".", data, off, out, note)) return false;
      continue;
    }
    const size_t sz = size_of(d.type);
    if (sz == 0) {
      note = f.name + " has type " + d.type + ", whose size kgen does not know: it and the fields after it are not "
             "decoded";
      out.push_back(f);
      return false;
    }
    off = (off + sz - 1) / sz * sz;
    if (off + sz * d.count > data.size()) {
      note = "the tiling data (" + std::to_string(data.size()) + " bytes) ends before " + f.name;
      out.push_back(f);
      return false;
    }
    for (size_t i = 0; i < d.count; ++i) f.value += (i ? ", " : "") + value_at(d.type, data.data() + off + i * sz);
    off += sz * d.count;
    out.push_back(f);
  }
  return true;
}
}  // namespace

std::vector<TilingField> decode_tiling(const std::string& header_text, const std::string& op_type,
                                       const std::vector<uint8_t>& data, std::string& note) {
  const auto classes = classes_of(header_text);
  static const std::regex reg(R"(REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\))");
  std::string cls;
  for (std::sregex_iterator it(header_text.begin(), header_text.end(), reg), end; it != end; ++it)
    if (cls.empty() || (*it)[1].str() == op_type) cls = (*it)[2].str();
  std::vector<TilingField> out;
  if (cls.empty() || !classes.count(cls)) {
    note = "the tiling header registers no tiling class (REGISTER_TILING_DATA_CLASS) defined in it";
    return out;
  }
  size_t off = 0;
  decode(classes, cls, "", data, off, out, note);
  return out;
}
}  // namespace kgen::op
