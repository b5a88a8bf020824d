#include "op/npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace kgen::op {
namespace {
struct Kind {
  int dtype;
  const char* descr;   // numpy descr, little-endian
  size_t size;
  const char* name;
};
constexpr Kind kKinds[] = {
    {0, "<f4", 4, "float32"}, {1, "<f2", 2, "float16"},  {2, "|i1", 1, "int8"},    {3, "<i4", 4, "int32"},
    {4, "|u1", 1, "uint8"},   {6, "<i2", 2, "int16"},    {7, "<u2", 2, "uint16"},  {8, "<u4", 4, "uint32"},
    {9, "<i8", 8, "int64"},   {10, "<u8", 8, "uint64"},  {11, "<f8", 8, "float64"}, {12, "|b1", 1, "bool"},
};
const Kind* by_dtype(int dt) {
  if (dt == kDtBf16) dt = 7;
  for (const Kind& k : kKinds)
    if (k.dtype == dt) return &k;
  return nullptr;
}
const Kind* by_descr(std::string d) {
  if (d.size() == 3 && (d[0] == '=' || (d[0] == '|' && d[2] != '1') )) d[0] = '<';
  if (d.size() == 3 && d[2] == '1' && (d[0] == '<' || d[0] == '=')) d[0] = '|';
  for (const Kind& k : kKinds)
    if (d == k.descr) return &k;
  return nullptr;
}
// Value of `'key': ...` in the header dict, as text up to the next top-level comma or closing brace.
bool dict_value(const std::string& h, const std::string& key, std::string& v) {
  size_t p = h.find("'" + key + "'");
  if (p == std::string::npos) return false;
  p = h.find(':', p);
  if (p == std::string::npos) return false;
  ++p;
  while (p < h.size() && h[p] == ' ') ++p;
  int depth = 0;
  size_t e = p;
  for (; e < h.size(); ++e) {
    char c = h[e];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if ((c == ',' || c == '}') && depth == 0) break;
  }
  v = h.substr(p, e - p);
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return true;
}
std::string supported() {
  std::string s;
  for (const Kind& k : kKinds) s += std::string(s.empty() ? "" : ", ") + k.name;
  return s;
}
}  // namespace

size_t NpyArray::elements() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}
size_t npy_dtype_size(int dtype) {
  const Kind* k = by_dtype(dtype);
  return k ? k->size : 0;
}
const char* npy_dtype_name(int dtype) {
  if (dtype == kDtBf16) return "bfloat16";
  const Kind* k = by_dtype(dtype);
  return k ? k->name : "unsupported";
}

std::string read_npy(const std::string& path, NpyArray& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot open " + path + ": " + std::strerror(errno);
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return path + " is not a .npy file (no \\x93NUMPY magic); write it with numpy.save";
  int major = static_cast<unsigned char>(magic[6]);
  uint32_t hlen = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) return path + ": truncated header";
    hlen = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) return path + ": truncated header";
    hlen = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  } else {
    return path + ": .npy format version " + std::to_string(major) + " is not supported (1, 2 or 3)";
  }
  std::string h(hlen, '\0');
  if (!in.read(h.data(), hlen)) return path + ": truncated header";
  std::string descr, order, shape;
  if (!dict_value(h, "descr", descr) || !dict_value(h, "fortran_order", order) || !dict_value(h, "shape", shape))
    return path + ": malformed .npy header: " + h;
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"'))
    return path + ": structured dtype " + descr + " is not supported; save a plain array (" + supported() + ")";
  descr = descr.substr(1, descr.size() - 2);
  const Kind* k = by_descr(descr);
  if (!k) {
    std::string why = descr.size() == 3 && descr[0] == '>' ? " (big-endian: use arr.astype(arr.dtype.newbyteorder('<')))" : "";
    return path + ": dtype '" + descr + "' is not supported" + why + "; supported: " + supported() +
           " (bfloat16 as uint16 raw bits)";
  }
  if (order.find("True") != std::string::npos)
    return path + ": Fortran-order array; save np.ascontiguousarray(arr) instead";
  out.shape.clear();
  std::string num;
  for (char c : shape) {
    if (c >= '0' && c <= '9') num += c;
    else if (!num.empty()) { out.shape.push_back(std::stoll(num)); num.clear(); }
  }
  if (!num.empty()) out.shape.push_back(std::stoll(num));
  out.dtype = k->dtype;
  size_t bytes = out.elements() * k->size;
  out.data.resize(bytes);
  if (bytes && !in.read(reinterpret_cast<char*>(out.data.data()), static_cast<std::streamsize>(bytes)))
    return path + ": data is shorter than the header's shape " + shape + " of " + k->name + " needs (" +
           std::to_string(bytes) + " bytes)";
  return "";
}

std::string write_npy(const std::string& path, const std::vector<int64_t>& shape, int dtype, const void* data,
                      size_t bytes) {
  const Kind* k = by_dtype(dtype);
  if (!k) return "cannot write dtype " + std::to_string(dtype) + " as .npy";
  std::ostringstream d;
  d << "{'descr': '" << k->descr << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) d << shape[i] << (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
  d << "), }";
  std::string h = d.str();
  size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  std::string tmp = path + ".tmp";
  std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
  if (!o) return "cannot write " + tmp + ": " + std::strerror(errno);
  uint16_t hl = static_cast<uint16_t>(h.size());
  o.write("\x93NUMPY\x01\x00", 8);
  char lb[2] = {static_cast<char>(hl & 0xff), static_cast<char>(hl >> 8)};
  o.write(lb, 2);
  o.write(h.data(), static_cast<std::streamsize>(h.size()));
  o.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  o.close();
  if (!o) return "cannot write " + tmp + ": " + std::strerror(errno);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return "cannot rename " + tmp + " to " + path;
  return "";
}
}  // namespace kgen::op
