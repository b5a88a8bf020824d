// KTrace <-> bytes (see ktrace_io.h).
#include "perf/ktrace_io.h"

#include <cstring>

namespace kgen::perf {
namespace {
constexpr size_t kOpBytes = kKtraceOpBytes;

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
}  // namespace

std::string encode_ktrace_head(const KTrace& t, uint32_t ncores, uint64_t nops) {
  Out o;
  size_t names = 0;
  for (auto& a : t.apis) names += 4 + a.size();
  o.s.reserve(64 + t.kernel.size() + t.soc.size() + names + ncores * 17ull + nops * kOpBytes);
  o.s = "KGT2";
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

void encode_ktrace_ops(const std::vector<Op>& ops, std::string& out) {
  size_t base = out.size();
  out.resize(base + ops.size() * kOpBytes);
  char* p = out.data() + base;
  for (const Op& op : ops) {
    auto w = [&p](const auto& v) {
      std::memcpy(p, &v, sizeof v);
      p += sizeof v;
    };
    w(static_cast<uint8_t>(op.kind)); w(op.pipe); w(op.pipe2); w(op.dtype);
    w(op.api); w(op.line); w(op.elems); w(op.bytes); w(op.repeats); w(op.count); w(op.event); w(op.id);
    w(op.gm_buf); w(op.gm_off); w(op.m); w(op.n); w(op.k); w(op.gm_rows); w(op.gm_stride);
  }
}

void encode_ktrace_core(const KCore& c, std::string& out) {
  encode_ktrace_core_head(c.block, c.aic, c.sub_block, c.ops.size(), out);
  encode_ktrace_ops(c.ops, out);
}

std::string encode_ktrace(const KTrace& t) {
  uint64_t nops = 0;
  for (const KCore& c : t.cores) nops += c.ops.size();
  std::string s = encode_ktrace_head(t, static_cast<uint32_t>(t.cores.size()), nops);
  for (const KCore& c : t.cores) encode_ktrace_core(c, s);
  return s;
}

bool decode_ktrace(const std::string& bytes, KTrace& t, std::string& err, uint64_t max_ops) {
  t = KTrace{};
  if (bytes.size() < 4 || bytes.compare(0, 4, "KGT2") != 0) {
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
  for (uint32_t ci = 0; ci < ncores; ++ci) {
    KCore c;
    c.block = in.get<int32_t>();
    c.aic = in.get<uint8_t>() != 0;
    c.sub_block = in.get<int32_t>();
    uint64_t n = in.get<uint64_t>();
    total += n;
    if (!in.ok || n > max_ops || total > max_ops || in.at + n * kOpBytes > bytes.size()) {
      err = "core " + std::to_string(ci) + ": bad record count";
      return false;
    }
    c.ops.resize(static_cast<size_t>(n));
    const char* p = bytes.data() + in.at;
    for (Op& op : c.ops) {
      auto r = [&p](auto& v) {
        std::memcpy(&v, p, sizeof v);
        p += sizeof v;
      };
      uint8_t kind;
      r(kind); r(op.pipe); r(op.pipe2); r(op.dtype);
      r(op.api); r(op.line); r(op.elems); r(op.bytes); r(op.repeats); r(op.count); r(op.event); r(op.id);
      r(op.gm_buf); r(op.gm_off); r(op.m); r(op.n); r(op.k); r(op.gm_rows); r(op.gm_stride);
      if (kind > Op::CrossWait || op.pipe >= kPipes || op.pipe2 >= kPipes || op.dtype > 13 || op.api >= napis) {
        err = "core " + std::to_string(ci) + ": a record out of range";
        return false;
      }
      op.kind = static_cast<Op::Kind>(kind);
      if (op.count == 0) op.count = 1;
    }
    in.at += static_cast<size_t>(n) * kOpBytes;
    t.cores.push_back(std::move(c));
  }
  if (in.at != bytes.size()) {
    err = "trailing bytes after the last core";
    return false;
  }
  return true;
}
}  // namespace kgen::perf
