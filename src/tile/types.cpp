// Dtype and form names of the tile IR (ir.h).
#include "tile/ir.h"

namespace kgen::tile {
namespace {
struct DInfo {
  DType t;
  const char *name, *cpp, *ge, *json;
  uint32_t size;
};
constexpr DInfo kTypes[] = {
    {DType::F32, "f32", "float", "ge::DT_FLOAT", "float", 4},
    {DType::F16, "f16", "half", "ge::DT_FLOAT16", "float16", 2},
    {DType::BF16, "bf16", "bfloat16_t", "ge::DT_BF16", "bfloat16", 2},
    {DType::I32, "i32", "int32_t", "ge::DT_INT32", "int32", 4},
    {DType::I8, "i8", "int8_t", "ge::DT_INT8", "int8", 1},
    {DType::U8, "u8", "uint8_t", "ge::DT_UINT8", "uint8", 1},
    {DType::Bool, "bool", "bool", "ge::DT_BOOL", "bool", 1},
    {DType::I64, "i64", "int64_t", "ge::DT_INT64", "int64", 8},
};
const DInfo& info(DType t) { return kTypes[static_cast<int>(t)]; }
}  // namespace

const char* dtype_name(DType t) { return info(t).name; }
const char* dtype_cpp(DType t) { return info(t).cpp; }
const char* dtype_ge(DType t) { return info(t).ge; }
const char* dtype_json(DType t) { return info(t).json; }
uint32_t dtype_size(DType t) { return info(t).size; }
bool parse_dtype(const std::string& s, DType& t) {
  for (const DInfo& d : kTypes)
    if (s == d.name) {
      t = d.t;
      return true;
    }
  return false;
}

const char* form_name(Form f) {
  switch (f) {
    case Form::Scalar: return "scalar";
    case Form::Flat: return "flat";
    case Form::Rows: return "rows";
    case Form::Col: return "col";
    case Form::Vec: return "vec";
    case Form::Slab: return "slab";
  }
  return "?";
}

std::string camel_lower(const std::string& s) {
  std::string o;
  bool up = false;
  for (char c : s) {
    if (c == '_') {
      up = true;
      continue;
    }
    o += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return o;
}

AxisShape axis_shape(const Kernel& k, const TensorArg& t) {
  auto part = [&](const Dim& d, int p) {
    const int si = sym_index(k, d.name);
    return !d.name.empty() && si >= 0 && k.syms[si].part == p && d.star == (p != 1);
  };
  const auto& ds = t.dims;
  if (ds.size() == 3 && part(ds[0], 0) && part(ds[2], 2)) {
    if (part(ds[1], 1)) return AxisShape::View;
    if (ds[1].name.empty() && ds[1].value == 1) return AxisShape::Positions;
    if (t.output && ds[1].name.empty() && ds[1].value >= 2) return AxisShape::KRows;
  }
  if (ds.size() == 2 && part(ds[0], 0) && part(ds[1], 2)) return AxisShape::Positions;
  if (ds.size() == 1 && part(ds[0], 0)) return AxisShape::Outer;
  if (ds.size() == 1 && part(ds[0], 2)) return AxisShape::Inner;
  if (ds.size() >= 2 && part(ds.back(), 2)) {   // [s, *inner]: leading names of its own (the host checks them)
    bool lead = true;
    for (size_t i = 0; i + 1 < ds.size(); ++i)
      lead &= !ds[i].name.empty() && !ds[i].star && ds[i].axis_attr.empty() && sym_index(k, ds[i].name) < 0;
    if (lead) return AxisShape::Periodic;
  }
  return AxisShape::None;
}

const char* op_name(Op o) {
  static const char* names[] = {"load", "store", "cast", "unary", "unary_scalar", "binary", "scalar", "row_bcast",
                                "vec_bcast", "reduce", "compare", "select", "fill", "accumulate", "combine",
                                "scan", "slab_bcast", "slab_across"};
  return names[static_cast<int>(o)];
}
}  // namespace kgen::tile
