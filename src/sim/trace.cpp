// Per-core trace of pipe instructions and synchronisation edges, input of the performance model.
// KGEN_TRACE=FILE writes it as JSON after each launch.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "perf/ktrace_io.h"
#include "sim/core.h"
#include "sim/gm.h"
#include "sim/trace_export.h"
#include "sim/trace_io.h"

namespace kgen::sim {
bool g_trace_on = true;

namespace {
// A kernel that loops without advancing would grow its trace until memory runs out: each core stops at
// KGEN_MAX_RECORDS records (default 30 million, about 2.6 GB of trace), with a verdict instead of a crash.
uint64_t max_records() {
  static const uint64_t m = [] {
    const char* e = std::getenv("KGEN_MAX_RECORDS");
    uint64_t v = e && *e ? std::strtoull(e, nullptr, 10) : 0;
    return v ? v : 30000000ull;
  }();
  return m;
}
void check_room(Core& c, const char* api, const Loc& loc) {
  if (c.trace.size() < max_records()) return;
  fail("instruction-limit", api ? api : "trace", loc,
       "this core issued " + std::to_string(c.trace.size()) + " pipe instructions and synchronisations (the limit, "
       "KGEN_MAX_RECORDS) — a loop whose counter never advances, or a tile far too small for the data; check the "
       "loop bounds and increments");
}
}  // namespace

void set_gm_footprint(TraceRec& r, const void* first, uint64_t rows, uint64_t stride, uint64_t row_bytes) {
  r.gm = reinterpret_cast<uintptr_t>(first);
  r.gm_rows = r.gm_stride = 0;
  if (rows <= 1 || stride == row_bytes) return;   // one contiguous range
  r.gm_rows = static_cast<uint32_t>(std::min<uint64_t>(rows, 0xffffffffu));
  r.gm_stride = static_cast<uint32_t>(std::min<uint64_t>(stride, 0xffffffffu));
}

TraceRec& trace_instr(Pipe p, const char* api, DType dt, uint64_t elems, uint64_t bytes, uint32_t repeats,
                      const Loc& loc) {
  Core& c = cur();
  // Scalar loops would flood the trace: a scalar record joins the record of the same API and line among the last
  // few scalar records (a loop body of several GetValue/SetValue lines stays one record per line, with a count;
  // index_add's 100M scalar accesses were 100M records, 9 GB). Only runs of scalar records are searched, so the
  // order against every other pipe's records is kept; the scalar pipe's total (count x cost) is unchanged.
  if (p == kS) {
    constexpr size_t kWindow = 8;
    size_t n = c.trace.size();
    for (size_t i = n; i > 0 && n - i < kWindow; --i) {
      TraceRec& r = c.trace[i - 1];
      if (r.kind != TraceRec::Instr || r.pipe != kS) break;
      if (r.api == api && r.line == loc.line()) {
        ++r.count;
        r.elems += elems;
        r.bytes += bytes;
        return r;
      }
    }
  }
  check_room(c, api, loc);
  TraceRec r{};
  r.kind = TraceRec::Instr;
  r.pipe = p;
  r.pipe2 = p;
  r.dtype = static_cast<uint8_t>(dt);
  r.api = api;
  r.line = loc.line();
  r.elems = elems;
  r.bytes = bytes;
  r.repeats = repeats;
  r.count = 1;
  r.dst = r.src0 = r.src1 = 0xffffffffu;
  c.trace.push_back(r);
  return c.trace.back();
}

void trace_sync(TraceRec::Kind k, Pipe a, Pipe b, int32_t event, int32_t id, const Loc& loc) {
  Core& c = cur();
  check_room(c, nullptr, loc);
  TraceRec r{};
  r.kind = k;
  r.pipe = a;
  r.pipe2 = b;
  r.api = nullptr;
  r.line = loc.line();
  r.count = 1;
  r.event = event;
  r.id = id;
  r.dst = r.src0 = r.src1 = 0xffffffffu;
  c.trace.push_back(r);
}

namespace {
const char* kind_name(TraceRec::Kind k) {
  static const char* n[] = {"instr", "set_flag", "wait_flag", "barrier", "enque", "deque", "alloc", "free", "sync_all",
                           "cross_set", "cross_wait"};
  return n[k];
}
void put_addr(std::FILE* f, const char* key, uint32_t a) {
  if (a != 0xffffffffu) std::fprintf(f, ",\"%s\":%u", key, a);
}
}  // namespace

bool write_trace_json(const std::string& path, const LaunchTrace& t) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(f, "{\"kgen_trace\":1,\"kernel\":\"%s\",\"soc\":\"%s\",\"block_dim\":%u,\"cores\":[", t.kernel.c_str(),
               t.soc.c_str(), t.block_dim);
  for (size_t ci = 0; ci < t.cores.size(); ++ci) {
    const CoreTrace& ct = t.cores[ci];
    std::fprintf(f, "%s\n{\"block\":%d,\"core_type\":\"%s\",\"sub_block\":%d,\"records\":[", ci ? "," : "", ct.block,
                 ct.core_type, ct.sub_block);
    for (size_t i = 0; i < ct.recs.size(); ++i) {
      const TraceRec& r = ct.recs[i];
      std::fprintf(f, "%s\n{\"k\":\"%s\",\"line\":%u", i ? "," : "", kind_name(r.kind), r.line);
      if (r.kind == TraceRec::Instr) {
        std::fprintf(f, ",\"pipe\":\"%s\",\"api\":\"%s\",\"dtype\":\"%s\",\"elems\":%llu,\"bytes\":%llu,\"repeats\":%u,\"count\":%u",
                     pipe_name(static_cast<Pipe>(r.pipe)), r.api, dtype_name(static_cast<DType>(r.dtype)),
                     static_cast<unsigned long long>(r.elems), static_cast<unsigned long long>(r.bytes), r.repeats,
                     r.count);
        if (r.pipe == kM || r.pipe == kMTE1 || r.pipe == kFIX || r.cube_m || r.cube_n || r.cube_k)   // cube: shape, fractals
          std::fprintf(f, ",\"cube_m\":%u,\"cube_n\":%u,\"cube_k\":%u,\"fractals\":%u", r.cube_m, r.cube_n, r.cube_k, r.repeats);
        put_addr(f, "dst", r.dst);
        put_addr(f, "src0", r.src0);
        put_addr(f, "src1", r.src1);
        uint32_t buf;
        uint64_t off;
        if (r.gm && gm_locate(r.gm, buf, off))   // GM as (allocation, offset): deterministic, and offset % 512 is the alignment
          std::fprintf(f, ",\"gm_buf\":%u,\"gm_off\":%llu", buf, static_cast<unsigned long long>(off));
        if (r.gm_rows)   // a strided GM footprint
          std::fprintf(f, ",\"gm_rows\":%u,\"gm_stride\":%u", r.gm_rows, r.gm_stride);
      } else if (r.kind == TraceRec::SetFlag || r.kind == TraceRec::WaitFlag) {
        std::fprintf(f, ",\"src\":\"%s\",\"dst\":\"%s\",\"event\":\"%s\",\"id\":%d", pipe_name(static_cast<Pipe>(r.pipe)),
                     pipe_name(static_cast<Pipe>(r.pipe2)), event_name(static_cast<AscendC::HardEvent>(r.event)), r.id);
      } else if (r.kind == TraceRec::Barrier) {
        std::fprintf(f, ",\"pipe\":\"%s\"", r.event == PIPE_ALL ? "ALL" : pipe_name(static_cast<Pipe>(r.pipe)));
      } else if (r.kind == TraceRec::SyncAll) {
        std::fprintf(f, ",\"generation\":%d", r.id);
      } else if (r.kind == TraceRec::CrossSet || r.kind == TraceRec::CrossWait) {
        std::fprintf(f, ",\"pipe\":\"%s\",\"mode\":%d,\"flag\":%d", pipe_name(static_cast<Pipe>(r.pipe)), r.event, r.id);
      } else {
        std::fprintf(f, ",\"src\":\"%s\",\"dst\":\"%s\",\"queue\":%d,\"buffer\":%d", pipe_name(static_cast<Pipe>(r.pipe)),
                     pipe_name(static_cast<Pipe>(r.pipe2)), r.event, r.id);
      }
      std::fputs("}", f);
    }
    std::fputs("]}", f);
  }
  std::fputs("\n]}\n", f);
  return std::fclose(f) == 0;
}
std::string encode_trace(const LaunchTrace& t) { return perf::encode_launch(t, &gm_locate); }
std::string last_trace_encoded() {
  const LaunchTrace& t = last_launch_trace();
  return t.cores.empty() && t.kernel.empty() ? std::string() : encode_trace(t);
}
}  // namespace kgen::sim
