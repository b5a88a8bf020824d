// First difference of two traces (trace_diff.h).
#include "perf/trace_diff.h"

#include "perf/ktrace_io.h"

#include <algorithm>

namespace kgen::perf {
namespace {
using std::to_string;
const char* kind_label(Op::Kind k) {
  static const char* n[] = {"instr", "set_flag", "wait_flag", "barrier", "enque", "deque", "alloc", "free",
                            "sync_all", "cross_set", "cross_wait"};
  return static_cast<unsigned>(k) < sizeof n / sizeof *n ? n[k] : "?";
}
const std::string& api_of(const KTrace& t, const Op& o) {
  static const std::string none;
  return o.api < t.apis.size() ? t.apis[o.api] : none;
}
std::string describe(const KTrace& t, const Op& o) {
  std::string s = std::string(kind_label(o.kind)) + " " + api_of(t, o) + " pipe " + pipe_label(o.pipe) + " line " +
                  to_string(o.line);
  if (o.kind == Op::Instr) {
    s += " elems " + to_string(o.elems) + " bytes " + to_string(o.bytes) + " repeats " + to_string(o.repeats) +
         " count " + to_string(o.count);
    if (o.gm_buf >= 0) s += " gm #" + to_string(o.gm_buf) + "+" + to_string(o.gm_off);
    if (o.gm_rows) s += " in " + to_string(o.gm_rows) + " rows " + to_string(o.gm_stride) + " B apart";
    if (o.m || o.n || o.k) s += " mnk " + to_string(o.m) + "x" + to_string(o.n) + "x" + to_string(o.k);
  } else {
    s += std::string(" to ") + pipe_label(o.pipe2) + " event " + to_string(o.event) + " id " + to_string(o.id);
  }
  return s;
}
bool same(const KTrace& a, const Op& x, const KTrace& b, const Op& y) {
  return x.kind == y.kind && x.pipe == y.pipe && x.pipe2 == y.pipe2 && x.dtype == y.dtype && x.line == y.line &&
         x.elems == y.elems && x.bytes == y.bytes && x.repeats == y.repeats && x.count == y.count &&
         x.event == y.event && x.id == y.id && x.gm_buf == y.gm_buf && x.gm_off == y.gm_off && x.gm_rows == y.gm_rows &&
         x.gm_stride == y.gm_stride && x.m == y.m &&
         x.n == y.n && x.k == y.k && api_of(a, x) == api_of(b, y);
}
std::string core_name(const KCore& c, size_t i) {
  return "core " + to_string(i) + " (block " + to_string(c.block) + (c.aic ? " AIC)" : " AIV " + to_string(c.sub_block) + ")");
}
}  // namespace

std::string first_difference(const KTrace& full, const KTrace& timing) {
  if (full.block_dim != timing.block_dim)
    return "block dim " + to_string(full.block_dim) + " in the full run, " + to_string(timing.block_dim) + " timing-only";
  if (full.cores.size() != timing.cores.size())
    return to_string(full.cores.size()) + " cores ran in the full run, " + to_string(timing.cores.size()) + " timing-only";
  for (size_t i = 0; i < full.cores.size(); ++i) {
    const KCore& a = full.cores[i];
    const KCore& b = timing.cores[i];
    if (a.block != b.block || a.aic != b.aic || a.sub_block != b.sub_block)
      return core_name(a, i) + " of the full run is " + core_name(b, i) + " timing-only";
    const size_t n = std::min(a.ops.size(), b.ops.size());
    for (size_t r = 0; r < n; ++r)
      if (!same(full, a.ops[r], timing, b.ops[r]))
        return core_name(a, i) + ", record " + to_string(r) + ": full run " + describe(full, a.ops[r]) +
               "; timing-only " + describe(timing, b.ops[r]);
    if (a.ops.size() != b.ops.size()) {
      const bool full_longer = a.ops.size() > b.ops.size();
      const KTrace& t = full_longer ? full : timing;
      const Op& extra = (full_longer ? a : b).ops[n];
      return core_name(a, i) + ": " + to_string(a.ops.size()) + " records in the full run, " +
             to_string(b.ops.size()) + " timing-only; the first extra one (" +
             (full_longer ? "full run" : "timing-only") + "): " + describe(t, extra);
    }
  }
  return "";
}
std::string first_difference(const std::string& full_bytes, const std::string& timing_bytes) {
  KTrace a, b;
  std::string err;
  if (!decode_ktrace(full_bytes, a, err)) return "the full run's trace does not decode: " + err;
  if (!decode_ktrace(timing_bytes, b, err)) return "the timing-only trace does not decode: " + err;
  return first_difference(a, b);
}
}  // namespace kgen::perf
