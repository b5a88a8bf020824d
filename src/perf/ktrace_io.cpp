// KTrace <-> bytes (see ktrace_io.h).
#include "perf/ktrace_io.h"

#include <cstring>
#include <limits>
#include <type_traits>

#include "base/huge_pages.h"

namespace kgen::perf {
namespace {
struct Out {
  std::string s;
  template <class T> void put(T v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& v) {
    put(static_cast<uint32_t>(v.size()));
    s += v;
  }
};
struct In {
  const std::string& s;
  size_t at = 0;
  bool ok = true;
  template <class T> T get() {
    T v{};
    if (at + sizeof v > s.size()) { ok = false; return v; }
    std::memcpy(&v, s.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string str(size_t max) {
    uint32_t n = get<uint32_t>();
    if (!ok || n > max || at + n > s.size()) { ok = false; return ""; }
    std::string v = s.substr(at, n);
    at += n;
    return v;
  }
};

// A record's fields as 64-bit values, in the order of the format (ktrace_io.h): the encoder's view. The decoder's
// add_field below takes the same order, a field at a time (a round trip of every field: tests/unit/ktrace_io_test.cpp).
constexpr int kFields = 19;
void fields_of(const Op& o, uint64_t* f) {
  f[0] = static_cast<uint8_t>(o.kind); f[1] = o.pipe; f[2] = o.pipe2; f[3] = o.dtype; f[4] = o.api; f[5] = o.line;
  f[6] = o.elems; f[7] = o.bytes; f[8] = o.repeats; f[9] = o.count;
  f[10] = static_cast<uint64_t>(static_cast<int64_t>(o.event)); f[11] = static_cast<uint64_t>(static_cast<int64_t>(o.id));
  f[12] = static_cast<uint64_t>(o.gm_buf); f[13] = o.gm_off; f[14] = o.m; f[15] = o.n; f[16] = o.k;
  f[17] = o.gm_rows; f[18] = o.gm_stride;
}
template <class T> bool narrow(uint64_t v, T& out) {
  if constexpr (std::is_signed_v<T>) {
    const int64_t s = static_cast<int64_t>(v);
    if (s < std::numeric_limits<T>::min() || s > std::numeric_limits<T>::max()) return false;
    out = static_cast<T>(s);
  } else {
    if (v > std::numeric_limits<T>::max()) return false;
    out = static_cast<T>(v);
  }
  return true;
}
// Adds `d` (wrapping at 64 bits) to field f of o; false when the result does not fit the field.
template <class T> bool add_to(T& v, uint64_t d) {
  return narrow(static_cast<uint64_t>(static_cast<int64_t>(v)) + d, v);
}
template <> bool add_to(uint64_t& v, uint64_t d) { v += d; return true; }
template <> bool add_to(int64_t& v, uint64_t d) { v = static_cast<int64_t>(static_cast<uint64_t>(v) + d); return true; }
bool add_field(Op& o, int f, uint64_t d) {
  switch (f) {
    case 0: {
      uint8_t k = static_cast<uint8_t>(o.kind);
      if (!add_to(k, d) || k > Op::CrossWait) return false;
      o.kind = static_cast<Op::Kind>(k);
      return true;
    }
    case 1: return add_to(o.pipe, d);
    case 2: return add_to(o.pipe2, d);
    case 3: return add_to(o.dtype, d);
    case 4: return add_to(o.api, d);
    case 5: return add_to(o.line, d);
    case 6: return add_to(o.elems, d);
    case 7: return add_to(o.bytes, d);
    case 8: return add_to(o.repeats, d);
    case 9: return add_to(o.count, d);
    case 10: return add_to(o.event, d);
    case 11: return add_to(o.id, d);
    case 12: return add_to(o.gm_buf, d);
    case 13: return add_to(o.gm_off, d);
    case 14: return add_to(o.m, d);
    case 15: return add_to(o.n, d);
    case 16: return add_to(o.k, d);
    case 17: return add_to(o.gm_rows, d);
    case 18: return add_to(o.gm_stride, d);
  }
  return false;
}

void put_varint(uint64_t v, std::string& out) {
  char b[10];
  int n = 0;
  while (v >= 0x80) {
    b[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  b[n++] = static_cast<char>(v);
  out.append(b, n);
}
bool get_varint(const std::string& s, size_t& at, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at >= s.size()) return false;
    const uint8_t c = static_cast<uint8_t>(s[at++]);
    if (shift == 63 && c > 1) return false;   // more than 64 bits
    v |= static_cast<uint64_t>(c & 0x7f) << shift;
    if (!(c & 0x80)) return true;
  }
  return false;
}
uint64_t zigzag(uint64_t d) { return (d << 1) ^ static_cast<uint64_t>(static_cast<int64_t>(d) >> 63); }
uint64_t unzigzag(uint64_t z) { return (z >> 1) ^ (~(z & 1) + 1); }
}  // namespace

std::string encode_ktrace_head(const KTrace& t, uint32_t ncores) {
  Out o;
  o.s = "KGT3";
  o.put(t.block_dim);
  o.str(t.kernel);
  o.str(t.soc);
  o.put(static_cast<uint32_t>(t.apis.size()));
  for (auto& a : t.apis) o.str(a);
  o.put(ncores);
  return o.s;
}

void encode_ktrace_core_head(int32_t block, bool aic, int32_t sub_block, uint64_t nops, std::string& out) {
  Out o;
  o.s.swap(out);
  o.put(block);
  o.put(static_cast<uint8_t>(aic));
  o.put(sub_block);
  o.put(nops);
  o.s.swap(out);
}

void CoreEncoder::put(const Op& op, std::string& out) {
  const uint64_t site = (static_cast<uint64_t>(op.line) << 32) ^ (static_cast<uint64_t>(op.api) << 8) ^
                        static_cast<uint8_t>(op.kind);
  auto it = slot_of_.find(site);
  uint32_t slot;
  static const Op kDefault{};
  const Op* base = &kDefault;
  if (it != slot_of_.end()) {
    slot = it->second;
    base = &base_[slot];
  } else {
    slot = static_cast<uint32_t>(base_.size());
  }
  uint64_t a[kFields], b[kFields], mask = 0;
  fields_of(op, a);
  fields_of(*base, b);
  for (int f = 0; f < kFields; ++f)
    if (a[f] != b[f]) mask |= 1ull << f;
  put_varint(slot, out);
  put_varint(mask, out);
  for (int f = 0; f < kFields; ++f)
    if (mask >> f & 1) put_varint(zigzag(a[f] - b[f]), out);
  if (slot < base_.size()) {
    base_[slot] = op;
  } else if (base_.size() < kKtraceMaxSlots) {
    slot_of_.emplace(site, slot);
    base_.push_back(op);
  }
}

void encode_ktrace_core(const KCore& c, std::string& out) {
  encode_ktrace_core_head(c.block, c.aic, c.sub_block, c.ops.size(), out);
  CoreEncoder e;
  for (const Op& op : c.ops) e.put(op, out);
}

std::string encode_ktrace(const KTrace& t) {
  std::string s = encode_ktrace_head(t, static_cast<uint32_t>(t.cores.size()));
  for (const KCore& c : t.cores) encode_ktrace_core(c, s);
  return s;
}

bool decode_ktrace(const std::string& bytes, KTrace& t, std::string& err, uint64_t max_ops) {
  t = KTrace{};
  if (bytes.size() < 4 || bytes.compare(0, 4, "KGT3") != 0) {
    err = "not a kgen binary trace";
    return false;
  }
  In in{bytes, 4};
  t.block_dim = in.get<uint32_t>();
  t.kernel = in.str(4096);
  t.soc = in.str(256);
  uint32_t napis = in.get<uint32_t>();
  if (!in.ok || napis == 0 || napis > 100000) {
    err = "bad header or api table";
    return false;
  }
  t.apis.reserve(napis);
  for (uint32_t i = 0; i < napis && in.ok; ++i) t.apis.push_back(in.str(4096));
  uint32_t ncores = in.get<uint32_t>();
  if (!in.ok || ncores > 3u * 65535u) {
    err = "bad api table or core count";
    return false;
  }
  uint64_t total = 0;
  struct Base {
    size_t index;     // the slot's last record in c.ops
    uint32_t count;   // its count as coded
  };
  std::vector<Base> base;
  for (uint32_t ci = 0; ci < ncores; ++ci) {
    KCore c;
    c.block = in.get<int32_t>();
    c.aic = in.get<uint8_t>() != 0;
    c.sub_block = in.get<int32_t>();
    uint64_t n = in.get<uint64_t>();
    total += n;
    // A record is at least two bytes (its slot and its mask): the count cannot promise more than the bytes hold.
    if (!in.ok || n > max_ops || total > max_ops || n > (bytes.size() - in.at) / 2) {
      err = "core " + std::to_string(ci) + ": bad record count";
      return false;
    }
    c.ops.reserve(static_cast<size_t>(n));   // each record is written once, in place (no default Ops first)
    advise_huge_pages(c.ops.data(), c.ops.capacity() * sizeof(Op));
    base.clear();
    size_t at = in.at;
    static const Op kDefault{};
    for (size_t i = 0; i < n; ++i) {
      uint64_t slot, mask, d;
      if (!get_varint(bytes, at, slot) || slot > base.size() || !get_varint(bytes, at, mask) ||
          mask >> kFields != 0) {
        err = "core " + std::to_string(ci) + ": a malformed record";
        return false;
      }
      // The base: the slot's last record as coded (its count before the 0 -> 1 below).
      Op& op = c.ops.emplace_back(slot < base.size() ? c.ops[base[slot].index] : kDefault);
      if (slot < base.size()) op.count = base[slot].count;
      for (; mask; mask &= mask - 1) {
        if (!get_varint(bytes, at, d) || !add_field(op, __builtin_ctzll(mask), unzigzag(d))) {
          err = "core " + std::to_string(ci) + ": a malformed or out-of-range record";
          return false;
        }
      }
      if (op.pipe >= kPipes || op.pipe2 >= kPipes || op.dtype > 13 || op.api >= napis) {
        err = "core " + std::to_string(ci) + ": a record out of range";
        return false;
      }
      if (slot < base.size()) base[slot] = {i, op.count};
      else if (base.size() < kKtraceMaxSlots) base.push_back({i, op.count});
      if (op.count == 0) op.count = 1;
    }
    in.at = at;
    t.cores.push_back(std::move(c));
  }
  if (in.at != bytes.size()) {
    err = "trailing bytes after the last core";
    return false;
  }
  return true;
}
}  // namespace kgen::perf
