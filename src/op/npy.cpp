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
    {16, "<c8", 8, "complex64"},   // ge::DT_COMPLEX64: pairs of float32 (real, imaginary)
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
int npy_dtype_from_name(const std::string& name) {
  if (name == "bfloat16" || name == "bf16") return kDtBf16;
  for (const Kind& k : kKinds)
    if (name == k.name) return k.dtype;
  return -1;
}

const char* npy_dtype_name(int dtype) {
  if (dtype == kDtBf16) return "bfloat16";
  const Kind* k = by_dtype(dtype);
  return k ? k->name : "unsupported";
}

std::string parse_npy(const std::string& bytes, NpyArray& out, const std::string& path) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    return path + " is not a .npy file (no \\x93NUMPY magic); write it with numpy.save";
  int major = static_cast<unsigned char>(bytes[6]);
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t at = 0;
  uint32_t hlen = 0;
  if (major == 1) {
    hlen = b[8] | (b[9] << 8);
    at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return path + ": truncated header";
    hlen = b[8] | (b[9] << 8) | (b[10] << 16) | (static_cast<uint32_t>(b[11]) << 24);
    at = 12;
  } else {
    return path + ": .npy format version " + std::to_string(major) + " is not supported (1, 2 or 3)";
  }
  if (hlen > 65536 || at + hlen > bytes.size()) return path + ": truncated header";
  std::string h = bytes.substr(at, hlen);
  at += hlen;
  std::string descr, order, shape;
  if (!dict_value(h, "descr", descr) || !dict_value(h, "fortran_order", order) || !dict_value(h, "shape", shape))
    return path + ": malformed .npy header: " + h.substr(0, 200);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"'))
    return path + ": structured dtype " + descr.substr(0, 80) + " is not supported; save a plain array (" +
           supported() + ")";
  descr = descr.substr(1, descr.size() - 2);
  const Kind* k = by_descr(descr);
  if (!k) {
    std::string why = descr.size() == 3 && descr[0] == '>' ? " (big-endian: use arr.astype(arr.dtype.newbyteorder('<')))" : "";
    return path + ": dtype '" + descr.substr(0, 40) + "' is not supported" + why + "; supported: " + supported() +
           " (bfloat16 as uint16 raw bits)";
  }
  if (order.find("True") != std::string::npos)
    return path + ": Fortran-order array; save np.ascontiguousarray(arr) instead";
  out.shape.clear();
  std::string num;
  for (char c : shape + ",") {
    if (c >= '0' && c <= '9') {
      num += c;
      if (num.size() > 15) return path + ": a dimension of the shape " + shape.substr(0, 80) + " is too large";
    } else if (!num.empty()) {
      out.shape.push_back(std::stoll(num));
      num.clear();
    } else if (c == '-') {
      return path + ": negative dimension in the shape " + shape.substr(0, 80);
    }
    if (out.shape.size() > 64) return path + ": more than 64 dimensions";
  }
  out.dtype = k->dtype;
  size_t n = k->size;
  for (int64_t d : out.shape)
    if (__builtin_mul_overflow(n, static_cast<size_t>(d), &n)) return path + ": the shape " + shape + " overflows";
  if (bytes.size() - at != n)
    return path + ": " + std::to_string(bytes.size() - at) + " data bytes, but the header's shape " + shape +
           " of " + k->name + " needs " + std::to_string(n);
  out.data.assign(bytes.begin() + static_cast<long>(at), bytes.end());
  return "";
}

std::string read_npy(const std::string& path, NpyArray& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot open " + path + ": " + std::strerror(errno);
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_npy(ss.str(), out, path);
}

std::string npy_encode(const std::vector<int64_t>& shape, int dtype, const void* data, size_t bytes) {
  const Kind* k = by_dtype(dtype);
  if (!k) return "";
  std::ostringstream d;
  d << "{'descr': '" << k->descr << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) d << shape[i] << (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
  d << "), }";
  std::string h = d.str();
  size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  uint16_t hl = static_cast<uint16_t>(h.size());
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(hl & 0xff);
  out += static_cast<char>(hl >> 8);
  out += h;
  out.append(static_cast<const char*>(data), bytes);
  return out;
}

std::string write_npy(const std::string& path, const std::vector<int64_t>& shape, int dtype, const void* data,
                      size_t bytes) {
  if (!by_dtype(dtype)) return "cannot write dtype " + std::to_string(dtype) + " as .npy";
  std::string enc = npy_encode(shape, dtype, data, bytes);
  std::string tmp = path + ".tmp";
  std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
  if (!o) return "cannot write " + tmp + ": " + std::strerror(errno);
  o.write(enc.data(), static_cast<std::streamsize>(enc.size()));
  o.close();
  if (!o) return "cannot write " + tmp + ": " + std::strerror(errno);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return "cannot rename " + tmp + " to " + path;
  return "";
}
}  // namespace kgen::op
