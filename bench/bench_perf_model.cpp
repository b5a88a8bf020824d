// Speed of the performance model: a synthetic trace of ~1 million records (48 AIV cores, queue-synchronised
// copy-in / vector / copy-out tiles with GM reuse), modeled on the Ascend910B2 profile. Target: < 1 s.
#include <benchmark/benchmark.h>

#include "perf/model.h"

namespace {
kgen::perf::KTrace make_trace(int cores, int tiles) {
  using kgen::perf::Op;
  kgen::perf::KTrace t;
  t.kernel = "synthetic";
  t.block_dim = cores;
  uint32_t dc = t.intern("DataCopy"), add = t.intern("Add"), gv = t.intern("GetValue");
  for (int c = 0; c < cores; ++c) {
    kgen::perf::KCore k;
    k.block = c;
    auto sync = [&](Op::Kind kind, int a, int b, int q, int buf) {
      Op o;
      o.kind = kind;
      o.pipe = static_cast<uint8_t>(a);
      o.pipe2 = static_cast<uint8_t>(b);
      o.event = q;
      o.id = buf;
      k.ops.push_back(o);
    };
    auto instr = [&](int pipe, uint32_t api, int64_t gbuf, uint64_t off, uint32_t count = 1) {
      Op o;
      o.pipe = o.pipe2 = static_cast<uint8_t>(pipe);
      o.api = api;
      o.dtype = 2;
      o.bytes = 8192;
      o.elems = 2048;
      o.repeats = pipe == kgen::perf::P_V ? 32 : 1;
      o.count = count;
      o.gm_buf = gbuf;
      o.gm_off = off;
      o.line = 10 + pipe;
      k.ops.push_back(o);
    };
    for (int i = 0; i < tiles; ++i) {
      int b = i % 2;
      uint64_t off = (static_cast<uint64_t>(i % 256)) * 8192;   // a 2 MB window: later tiles hit L2
      sync(Op::AllocTensor, kgen::perf::P_MTE2, kgen::perf::P_V, 0, b);
      instr(kgen::perf::P_MTE2, dc, c, off);
      sync(Op::EnQue, kgen::perf::P_MTE2, kgen::perf::P_V, 0, b);
      sync(Op::DeQue, kgen::perf::P_MTE2, kgen::perf::P_V, 0, b);
      sync(Op::AllocTensor, kgen::perf::P_V, kgen::perf::P_MTE3, 1, b);
      instr(kgen::perf::P_V, add, -1, 0);
      instr(kgen::perf::P_S, gv, -1, 0, 16);
      sync(Op::EnQue, kgen::perf::P_V, kgen::perf::P_MTE3, 1, b);
      sync(Op::FreeTensor, kgen::perf::P_V, kgen::perf::P_MTE2, 0, b);
      sync(Op::DeQue, kgen::perf::P_V, kgen::perf::P_MTE3, 1, b);
      instr(kgen::perf::P_MTE3, dc, 1000 + c, off);
      sync(Op::FreeTensor, kgen::perf::P_MTE3, kgen::perf::P_V, 1, b);
    }
    t.cores.push_back(std::move(k));
  }
  return t;
}

void BM_PerfModel1M(benchmark::State& st) {
  static const kgen::perf::KTrace t = make_trace(48, 1750);   // 48 * 1750 * 12 = 1.008 M records
  static const kgen::perf::Profile p = kgen::perf::load_profile("Ascend910B2");
  size_t recs = 0;
  for (const auto& c : t.cores) recs += c.ops.size();
  double us = 0;
  for (auto _ : st) {
    kgen::perf::Result r = kgen::perf::model(t, p);
    us = r.time_us;
    benchmark::DoNotOptimize(r);
  }
  st.counters["records"] = static_cast<double>(recs);
  st.counters["modeled_us"] = us;
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * recs));
}
BENCHMARK(BM_PerfModel1M)->Unit(benchmark::kMillisecond);

void BM_PerfModel1MTimeline(benchmark::State& st) {   // with the Chrome-trace events kept
  static const kgen::perf::KTrace t = make_trace(48, 1750);
  static const kgen::perf::Profile p = kgen::perf::load_profile("Ascend910B2");
  kgen::perf::Options o;
  o.keep_events = true;
  for (auto _ : st) benchmark::DoNotOptimize(kgen::perf::model(t, p, o));
}
BENCHMARK(BM_PerfModel1MTimeline)->Unit(benchmark::kMillisecond);
}  // namespace

BENCHMARK_MAIN();
