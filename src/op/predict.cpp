// DTYPE_ macros before the host library is loaded (see predict.h).
#include "op/predict.h"

#include <cctype>
#include <nlohmann/json.hpp>
#include <regex>

#include "op/npy.h"

namespace kgen::op {
namespace {
// Type names of the json and ge::DT_ enumerators, each with the C++ name of the kernel's DTYPE_ macros.
constexpr std::pair<const char*, const char*> kTypeNames[] = {
    {"float", "float"},         {"float32", "float"},     {"DT_FLOAT", "float"},        {"float16", "half"},
    {"half", "half"},           {"DT_FLOAT16", "half"},   {"bfloat16", "bfloat16_t"},   {"bf16", "bfloat16_t"},
    {"DT_BF16", "bfloat16_t"},  {"int8", "int8_t"},       {"DT_INT8", "int8_t"},        {"uint8", "uint8_t"},
    {"DT_UINT8", "uint8_t"},    {"int16", "int16_t"},     {"DT_INT16", "int16_t"},      {"uint16", "uint16_t"},
    {"DT_UINT16", "uint16_t"},  {"int32", "int32_t"},     {"DT_INT32", "int32_t"},      {"uint32", "uint32_t"},
    {"DT_UINT32", "uint32_t"},  {"int64", "int64_t"},     {"DT_INT64", "int64_t"},      {"uint64", "uint64_t"},
    {"DT_UINT64", "uint64_t"},  {"bool", "bool"},         {"DT_BOOL", "bool"},          {"double", "double"},
    {"float64", "double"},      {"DT_DOUBLE", "double"}};
// C++ names of the kernel's DTYPE_ macros, from a type name of the json or a ge::DT_ enumerator.
std::string cpp_type(const std::string& s) {
  for (auto& [a, b] : kTypeNames)
    if (s == a) return b;
  return "";
}
// The ge::DT_ enumerator of a DTYPE_ type name (the kernel's ORIG_DTYPE_ macros).
std::string dt_enum(const std::string& cpp) {
  for (auto& [a, b] : kTypeNames)
    if (cpp == b && std::string(a).rfind("DT_", 0) == 0) return a;
  return "DT_UNDEFINED";
}
bool matches(const std::string& column_type, int npy_dtype) {
  std::string given = cpp_type(npy_dtype_name(npy_dtype));
  return column_type == given || (npy_dtype == 7 && column_type == "bfloat16_t");
}

struct Param {
  std::string name;
  std::vector<std::string> types;   // per column (one entry: every column)
  std::string follow;               // Follow("x"): x's type
};
std::string type_at(const std::vector<Param>& ps, const Param& p, size_t c, int depth = 0) {
  if (!p.follow.empty() && depth < 8)
    for (const Param& q : ps)
      if (q.name == p.follow) return type_at(ps, q, c, depth + 1);
  if (p.types.size() == 1) return p.types[0];
  return c < p.types.size() ? p.types[c] : "";
}

Defines pick(const std::vector<Param>& in, const std::vector<Param>& out,
             const std::vector<std::pair<std::string, int>>& inputs) {
  if (in.size() != inputs.size() || in.empty()) return {};
  size_t columns = 1;
  for (auto* v : {&in, &out})
    for (const Param& p : *v) columns = std::max(columns, p.types.size());
  std::vector<Param> all = in;
  all.insert(all.end(), out.begin(), out.end());
  for (size_t c = 0; c < columns; ++c) {
    bool ok = true;
    for (size_t i = 0; ok && i < in.size(); ++i) {
      std::string t = type_at(all, in[i], c);
      ok = inputs[i].second < 0 || (!t.empty() && matches(t, inputs[i].second));
    }
    if (!ok) continue;
    Defines d;
    for (const Param& p : all) {
      std::string t = type_at(all, p, c);
      if (t.empty()) return {};
      d.emplace_back("DTYPE_" + upper(p.name), t);
      d.emplace_back("ORIG_DTYPE_" + upper(p.name), dt_enum(t));
      d.emplace_back("FORMAT_" + upper(p.name), "FORMAT_ND");
    }
    return d;
  }
  return {};
}

// Input("x")...DataType({ge::DT_FLOAT16, ...}) chains of the host source, up to each statement's ';'.
void opdef_params(const std::string& text, std::vector<Param>& in, std::vector<Param>& out) {
  static const std::regex head(R"re(\b(Input|Output)\s*\(\s*"(\w+)"\s*\))re");
  static const std::regex list(R"re(\.\s*DataType(?:List)?\s*\(\s*\{([^}]*)\})re");
  static const std::regex follow(R"re(\.\s*Follow\s*\(\s*"(\w+)")re");
  static const std::regex dt(R"(\b(DT_\w+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), head); it != std::sregex_iterator(); ++it) {
    Param p;
    p.name = (*it)[2].str();
    size_t from = static_cast<size_t>(it->position(0) + it->length(0));
    size_t end = text.find(';', from);
    std::string chain = text.substr(from, end == std::string::npos ? std::string::npos : end - from);
    std::smatch m;
    if (std::regex_search(chain, m, list)) {
      std::string l = m[1].str();
      for (auto d = std::sregex_iterator(l.begin(), l.end(), dt); d != std::sregex_iterator(); ++d)
        p.types.push_back(cpp_type((*d)[1].str()));
    }
    if (std::regex_search(chain, m, follow)) p.follow = m[1].str();
    ((*it)[1].str() == "Input" ? in : out).push_back(p);
  }
}
}  // namespace

std::string upper(const std::string& s) {
  std::string r = s;
  for (char& c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

Defines predict_defines(const Project& p, const std::vector<std::pair<std::string, int>>& inputs) {
  if (!p.json.empty()) {
    try {
      auto j = nlohmann::json::parse(read_text(p.json));
      auto& op = j.is_array() ? j[0] : j;
      std::vector<Param> in, out;
      for (auto [v, dst] : {std::pair{&op["input_desc"], &in}, std::pair{&op["output_desc"], &out}})
        for (auto& e : *v) {
          Param q;
          q.name = e["name"].get<std::string>();
          for (auto& t : e["type"]) q.types.push_back(cpp_type(t.get<std::string>()));
          dst->push_back(q);
        }
      if (Defines d = pick(in, out, inputs); !d.empty()) return d;
    } catch (...) {
    }
  }
  std::vector<Param> in, out;
  opdef_params(read_text(p.host_cpp), in, out);
  return pick(in, out, inputs);
}
}  // namespace kgen::op
