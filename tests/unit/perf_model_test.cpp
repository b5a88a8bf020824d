// The performance model (src/perf): traces of small real kernels run on the emulator, and constructed traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "kernel_operator.h"
#include "perf/model.h"
#include "perf/report.h"
#include "sim/gm.h"
#include "sim/launch.h"
#include "sim/testing.h"
#include "sim/trace_io.h"
#include "tikicpulib.h"

using namespace AscendC;
namespace perf = kgen::perf;

namespace {
template <class T> struct PGm {
  T* p;
  explicit PGm(size_t count) : p(static_cast<T*>(GmAlloc(count * sizeof(T)))) {
    for (size_t i = 0; i < count; ++i) p[i] = static_cast<T>(i % 7);
  }
  ~PGm() { GmFree(p); }
};

constexpr int kTile = 4096;   // floats: 16 KB per DataCopy
int g_tiles = 4;
int g_adds = 4;

// z = x + y (+ y ...) through TQue pipelines. BUF = 1: the plain loop (CopyIn, Compute, CopyOut per tile).
// BUF = 2: double buffering with the next tile's CopyIn issued before this tile's Compute.
// (Written explicitly: the emulator's AllocTensor hands out the first free buffer, so a plain loop with 2 buffers
// reuses buffer 0 in its trace.)
template <int BUF>
void add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  TPipe pipe;
  TQue<TPosition::VECIN, BUF> qx, qy;
  TQue<TPosition::VECOUT, BUF> qz;
  pipe.InitBuffer(qx, BUF, kTile * sizeof(float));
  pipe.InitBuffer(qy, BUF, kTile * sizeof(float));
  pipe.InitBuffer(qz, BUF, kTile * sizeof(float));
  GlobalTensor<float> gx, gy, gz;
  size_t base = static_cast<size_t>(GetBlockIdx()) * g_tiles * kTile;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + base, g_tiles * kTile);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + base, g_tiles * kTile);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + base, g_tiles * kTile);
  auto copy_in = [&](int t) {
    LocalTensor<float> lx = qx.template AllocTensor<float>();
    LocalTensor<float> ly = qy.template AllocTensor<float>();
    DataCopy(lx, gx[t * kTile], kTile);
    DataCopy(ly, gy[t * kTile], kTile);
    qx.EnQue(lx);
    qy.EnQue(ly);
  };
  if (BUF == 2) copy_in(0);
  for (int t = 0; t < g_tiles; ++t) {
    if (BUF == 1) copy_in(t);
    else if (t + 1 < g_tiles) copy_in(t + 1);
    LocalTensor<float> ax = qx.template DeQue<float>();
    LocalTensor<float> ay = qy.template DeQue<float>();
    LocalTensor<float> lz = qz.template AllocTensor<float>();
    Add(lz, ax, ay, kTile);
    for (int a = 1; a < g_adds; ++a) Add(lz, lz, ay, kTile);
    qz.EnQue(lz);
    qx.FreeTensor(ax);
    qy.FreeTensor(ay);
    LocalTensor<float> oz = qz.template DeQue<float>();
    DataCopy(gz[t * kTile], oz, kTile);
    qz.FreeTensor(oz);
  }
}

// Hand-written SetFlag/WaitFlag pipeline.
void flag_kernel(GM_ADDR x, GM_ADDR z) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bz;
  pipe.InitBuffer(bx, kTile * sizeof(float));
  pipe.InitBuffer(bz, kTile * sizeof(float));
  LocalTensor<float> lx = bx.Get<float>(), lz = bz.Get<float>();
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), g_tiles * kTile);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), g_tiles * kTile);
  SetFlag<HardEvent::V_MTE2>(0);
  SetFlag<HardEvent::MTE3_V>(1);
  for (int t = 0; t < g_tiles; ++t) {
    WaitFlag<HardEvent::V_MTE2>(0);
    DataCopy(lx, gx[t * kTile], kTile);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE3_V>(1);
    Adds(lz, lx, 1.0f, kTile);
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz[t * kTile], lz, kTile);
    SetFlag<HardEvent::MTE3_V>(1);
  }
  WaitFlag<HardEvent::V_MTE2>(0);
  WaitFlag<HardEvent::MTE3_V>(1);
}

const perf::Profile& prof() {
  static perf::Profile p = perf::load_profile("Ascend910B2");
  return p;
}

perf::Result run_add(int buf, int blocks, int tiles, int adds = 4, const std::string& json = "") {
  kgen::sim::set_throw_on_error(true);
  g_tiles = tiles;
  g_adds = adds;
  size_t n = static_cast<size_t>(blocks) * tiles * kTile;
  PGm<float> x(n), y(n), z(n);
  if (buf == 1) ICPU_RUN_KF(add_kernel<1>, blocks, reinterpret_cast<GM_ADDR>(x.p), reinterpret_cast<GM_ADDR>(y.p),
                            reinterpret_cast<GM_ADDR>(z.p));
  else ICPU_RUN_KF(add_kernel<2>, blocks, reinterpret_cast<GM_ADDR>(x.p), reinterpret_cast<GM_ADDR>(y.p),
                   reinterpret_cast<GM_ADDR>(z.p));
  EXPECT_FLOAT_EQ(z.p[n - 1], x.p[n - 1] + adds * y.p[n - 1]);
  if (!json.empty()) EXPECT_TRUE(kgen::sim::write_trace_json(json, kgen::sim::last_launch_trace()));   // GM still live
  perf::Options o;
  o.keep_events = true;
  o.locate = &kgen::sim::gm_locate;
  return perf::model_launch(kgen::sim::last_launch_trace(), prof(), o);
}

// Independent check of every sync edge of a single-wave trace against the modeled timeline: a consumer pipe's first
// instruction after a DeQue / WaitFlag / AllocTensor does not start before the producer pipe's last instruction
// before the matching EnQue / SetFlag / FreeTensor ended.
int check_edges(const perf::KTrace& t, const perf::Result& r) {
  int edges = 0;
  std::vector<std::vector<const perf::Event*>> ev(t.cores.size());
  for (const perf::Event& e : r.events)
    if (!(e.pipe == perf::P_S && e.api == 0)) ev[e.core].push_back(&e);   // not the scalar unit's issue spans
  for (size_t ci = 0; ci < t.cores.size(); ++ci) {
    const auto& ops = t.cores[ci].ops;
    std::vector<int> ev_of(ops.size(), -1);
    int k = 0;
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == perf::Op::Instr) ev_of[i] = k++;
    EXPECT_EQ(static_cast<size_t>(k), ev[ci].size());
    auto last_end_before = [&](size_t i, int pipe) {
      for (size_t j = i; j-- > 0;)
        if (ops[j].kind == perf::Op::Instr && ops[j].pipe == pipe) return ev[ci][ev_of[j]]->end_us;
      return 0.0;
    };
    auto first_start_after = [&](size_t i, int pipe) {
      for (size_t j = i + 1; j < ops.size(); ++j)
        if (ops[j].kind == perf::Op::Instr && ops[j].pipe == pipe) return ev[ci][ev_of[j]]->start_us;
      return 1e300;
    };
    std::map<int64_t, std::vector<double>> fifo;   // queue -> producer done times
    std::map<int64_t, double> flag, freed;
    for (size_t i = 0; i < ops.size(); ++i) {
      const perf::Op& o = ops[i];
      auto check = [&](double ready, int pipe) {
        double s = first_start_after(i, pipe);
        EXPECT_GE(s + 1e-9, ready) << "core " << ci << " op " << i << " line " << o.line;
        ++edges;
      };
      switch (o.kind) {
        case perf::Op::EnQue: fifo[o.event].push_back(last_end_before(i, o.pipe)); break;
        case perf::Op::DeQue: {
          auto& q = fifo[o.event];
          EXPECT_FALSE(q.empty());
          if (q.empty()) break;
          check(q.front(), o.pipe2);
          q.erase(q.begin());
          break;
        }
        case perf::Op::SetFlag: flag[(int64_t{o.event} << 8) | o.id] = last_end_before(i, o.pipe); break;
        case perf::Op::WaitFlag: check(flag[(int64_t{o.event} << 8) | o.id], o.pipe2); break;
        case perf::Op::FreeTensor: freed[(int64_t{o.event} << 16) | o.id] = last_end_before(i, o.pipe); break;
        case perf::Op::AllocTensor: {
          auto it = freed.find((int64_t{o.event} << 16) | o.id);
          if (it != freed.end()) { check(it->second, o.pipe); freed.erase(it); }
          break;
        }
        default: break;
      }
    }
  }
  return edges;
}

// Constructed trace: per core `tiles` tiles of copy-in / Adds / copy-out through queues of `bufs` buffers.
perf::KTrace synth(int cores, int tiles, uint64_t tile_bytes, int bufs, int vec_repeats = 8) {
  perf::KTrace t;
  t.kernel = "synth";
  t.block_dim = cores;
  uint32_t dc = t.intern("DataCopy"), adds = t.intern("Adds");
  for (int c = 0; c < cores; ++c) {
    perf::KCore k;
    k.block = c;
    auto sync = [&](perf::Op::Kind kind, int a, int b, int q, int buf) {
      perf::Op o;
      o.kind = kind;
      o.pipe = static_cast<uint8_t>(a);
      o.pipe2 = static_cast<uint8_t>(b);
      o.event = q;
      o.id = buf;
      k.ops.push_back(o);
    };
    auto instr = [&](int pipe, uint32_t api, int64_t gbuf, uint64_t off) {
      perf::Op o;
      o.pipe = o.pipe2 = static_cast<uint8_t>(pipe);
      o.api = api;
      o.dtype = 2;
      o.bytes = tile_bytes;
      o.elems = tile_bytes / 4;
      o.repeats = pipe == perf::P_V ? vec_repeats : 1;
      o.gm_buf = gbuf;
      o.gm_off = off;
      k.ops.push_back(o);
    };
    for (int i = 0; i < tiles; ++i) {
      int b = i % bufs;
      uint64_t off = (static_cast<uint64_t>(c) * tiles + i) * tile_bytes;
      sync(perf::Op::AllocTensor, perf::P_MTE2, perf::P_V, 0, b);
      instr(perf::P_MTE2, dc, 0, off);
      sync(perf::Op::EnQue, perf::P_MTE2, perf::P_V, 0, b);
      sync(perf::Op::DeQue, perf::P_MTE2, perf::P_V, 0, b);
      sync(perf::Op::AllocTensor, perf::P_V, perf::P_MTE3, 1, b);
      instr(perf::P_V, adds, -1, 0);
      sync(perf::Op::EnQue, perf::P_V, perf::P_MTE3, 1, b);
      sync(perf::Op::FreeTensor, perf::P_V, perf::P_MTE2, 0, b);
      sync(perf::Op::DeQue, perf::P_V, perf::P_MTE3, 1, b);
      instr(perf::P_MTE3, dc, 1, off);
      sync(perf::Op::FreeTensor, perf::P_MTE3, perf::P_V, 1, b);
    }
    t.cores.push_back(std::move(k));
  }
  return t;
}
}  // namespace

TEST(PerfModel, ProfilesLoadAndAreLabelled) {
  for (const char* s : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend310P3", "910B2"}) {
    perf::Profile p = perf::load_profile(s);
    EXPECT_GT(p.clock_ghz, 0.5) << s;
    EXPECT_GT(p.aic_cores, 0) << s;
    EXPECT_GT(p.hbm_gbps(), 0) << s;
  }
  EXPECT_THROW(perf::load_profile("Ascend999"), std::runtime_error);
  EXPECT_EQ(perf::load_profile("Ascend910B3").aiv_cores, 40);
}

TEST(PerfModel, TimelineObeysEverySyncEdge) {
  perf::Result r = run_add(2, 2, 4);
  perf::KTrace t = perf::from_launch(kgen::sim::last_launch_trace(), &kgen::sim::gm_locate);
  EXPECT_GT(check_edges(t, r), 2 * 4 * 3);

  kgen::sim::set_throw_on_error(true);
  g_tiles = 4;
  PGm<float> x(4 * kTile), z(4 * kTile);
  ICPU_RUN_KF(flag_kernel, 1, reinterpret_cast<GM_ADDR>(x.p), reinterpret_cast<GM_ADDR>(z.p));
  perf::Options o;
  o.keep_events = true;
  perf::KTrace t2 = perf::from_launch(kgen::sim::last_launch_trace(), &kgen::sim::gm_locate);
  perf::Result r2 = perf::model(t2, prof(), o);
  EXPECT_GT(check_edges(t2, r2), 4 * 3);

  perf::KTrace t3 = synth(3, 6, 32768, 2);
  perf::Result r3 = perf::model(t3, prof(), o);
  EXPECT_GT(check_edges(t3, r3), 3 * 6 * 2);
}

TEST(PerfModel, DoublingTheDataOfABandwidthBoundKernelDoublesItsTime) {
  // 48 cores streaming 8 MB and 16 MB through HBM (constructed trace: big enough that launch overhead is small).
  perf::Result a = perf::model(synth(48, 64, 32768, 2), prof());
  perf::Result b = perf::model(synth(48, 128, 32768, 2), prof());
  EXPECT_EQ(a.bound, "HBM") << a.why;
  double ratio = b.time_us / a.time_us;
  EXPECT_GE(ratio, 1.8) << a.time_us << " " << b.time_us;
  EXPECT_LE(ratio, 2.2);
  EXPECT_LE(a.gbps, prof().hbm_gbps() * 1.001);   // cannot beat the chip's HBM
  // The same on a real kernel's trace (kernel body: a few KB per core is far below the launch overhead).
  perf::Result c = run_add(2, 48, 2, 1), d = run_add(2, 48, 4, 1);
  double rb = d.body_us / c.body_us;
  EXPECT_GE(rb, 1.8) << c.body_us << " " << d.body_us;
  EXPECT_LE(rb, 2.2);
}

TEST(PerfModel, DoubleBufferingOverlapsMte2AndVector) {
  perf::Result one = run_add(1, 1, 8), two = run_add(2, 1, 8);
  EXPECT_LT(two.body_us, 0.85 * one.body_us) << one.body_us << " vs " << two.body_us;
  auto overlap = [](const perf::Result& r) {
    double o = 0;
    for (const perf::Event& m : r.events)
      if (m.pipe == perf::P_MTE2)
        for (const perf::Event& v : r.events)
          if (v.pipe == perf::P_V && v.core == m.core) o += std::max(0.0, std::min(m.end_us, v.end_us) - std::max(m.start_us, v.start_us));
    return o;
  };
  EXPECT_GT(overlap(two), 0.0);
  EXPECT_GT(overlap(two), overlap(one));
}

TEST(PerfModel, SingleCoreCannotBeatPerCoreDmaBandwidth) {
  perf::Result r = run_add(2, 1, 16, 1);
  uint64_t read = 2ull * 16 * kTile * sizeof(float);
  double best = std::max(prof().gm_to_ub.bw_gbps, prof().gm_to_ub.l2_hit_bw_gbps);   // GB/s = B/ns
  EXPECT_GE(r.body_us * 1000.0, read / best);
  EXPECT_GE(r.busy_us[perf::P_MTE2] * 1000.0, read / best);
  EXPECT_EQ(r.bound, "DMA") << r.why;
  perf::Result s = perf::model(synth(1, 512, 65536, 2), prof());   // 32 MB through one core
  EXPECT_EQ(s.bound, "DMA") << s.why;
  double gbps_in = 512.0 * 65536 / (s.body_us * 1000.0);
  EXPECT_LE(gbps_in, prof().gm_to_ub.bw_gbps);
  EXPECT_GE(gbps_in, 0.6 * prof().gm_to_ub.bw_gbps);
}

TEST(PerfModel, MergedScalarRecordsCostProportionally) {
  auto scalar = [](uint32_t count) {
    perf::KTrace t;
    t.block_dim = 1;
    perf::KCore k;
    perf::Op o;
    o.pipe = o.pipe2 = perf::P_S;
    o.api = t.intern("GetValue");
    o.count = count;
    k.ops.push_back(o);
    t.cores.push_back(k);
    return perf::model(t, prof());
  };
  perf::Result a = scalar(1000), b = scalar(2000);
  EXPECT_NEAR(b.body_us / a.body_us, 2.0, 1e-9);
  EXPECT_NEAR(a.body_us, 1000 * prof().scalar_op_cycles / prof().clock_ghz / 1000.0, 1e-9);
  EXPECT_EQ(scalar(10).bound, "launch");
  EXPECT_EQ(b.bound, "scalar") << b.why;
}

TEST(PerfModel, BlocksBeyondTheCoresRunInWaves) {
  perf::Result a = perf::model(synth(48, 4, 16384, 2), prof());
  perf::Result b = perf::model(synth(96, 4, 16384, 2), prof());
  perf::Result c = perf::model(synth(97, 4, 16384, 2), prof());
  EXPECT_EQ(a.waves, 1);
  EXPECT_EQ(b.waves, 2);
  EXPECT_EQ(c.waves, 3);
  EXPECT_NEAR(b.body_us / a.body_us, 2.0, 0.2);
  EXPECT_GT(c.body_us, b.body_us);
  perf::Result d = run_add(2, 50, 1, 1);
  EXPECT_EQ(d.waves, 2);
  EXPECT_EQ(d.cores.back().wave, 1);
}

TEST(PerfModel, SyncAllAlignsCores) {
  perf::KTrace t;
  t.block_dim = 2;
  for (int c = 0; c < 2; ++c) {
    perf::KCore k;
    k.block = c;
    perf::Op s;
    s.pipe = s.pipe2 = perf::P_S;
    s.count = c == 0 ? 5000 : 1;
    k.ops.push_back(s);
    perf::Op sa;
    sa.kind = perf::Op::SyncAll;
    k.ops.push_back(sa);
    perf::Op v;
    v.pipe = v.pipe2 = perf::P_V;
    v.repeats = 1;
    v.api = t.intern("Adds");
    k.ops.push_back(v);
    t.cores.push_back(k);
  }
  perf::Options o;
  o.keep_events = true;
  perf::Result r = perf::model(t, prof(), o);
  double slow_scalar = 5000 * prof().scalar_op_cycles / prof().clock_ghz / 1000.0;
  for (const perf::Event& e : r.events)
    if (e.pipe == perf::P_V) EXPECT_GE(e.start_us, slow_scalar);
}

// A MIX kernel calling the Matmul API from its vector cores: both AIVs of a block send their cube work to the one
// AIC of the block, so it is serialised there (the AIC's M pipe carries both), and the AIVs' rows show none of it.
TEST(PerfModel, MatmulApiOnVectorCoresRunsOnTheSharedAic) {
  auto mix = [](int aivs_with_work) {
    perf::KTrace t;
    t.block_dim = 1;
    const uint32_t mmad = t.intern("Matmul:Mmad");
    perf::KCore aic;
    aic.aic = true;
    t.cores.push_back(aic);
    for (int sub = 0; sub < 2; ++sub) {
      perf::KCore k;
      k.sub_block = sub;
      for (int i = 0; i < 100 && sub < aivs_with_work; ++i) {
        perf::Op o;
        o.pipe = o.pipe2 = perf::P_M;
        o.api = mmad;
        o.dtype = 0;   // f16
        o.m = 128;
        o.n = 256;
        o.k = 64;
        k.ops.push_back(o);
      }
      t.cores.push_back(k);
    }
    return perf::model(t, prof());
  };
  perf::Result one = mix(1), two = mix(2);
  EXPECT_NEAR(two.body_us / one.body_us, 2.0, 0.05) << "two AIVs share one AIC's cube";
  EXPECT_EQ(two.bound, "cube") << two.why;
  ASSERT_EQ(two.cores.size(), 3u);
  EXPECT_TRUE(two.cores[0].aic);
  EXPECT_NEAR(two.cores[0].busy_us[perf::P_M], two.body_us, 0.01 * two.body_us);
  EXPECT_EQ(two.cores[1].busy_us[perf::P_M], 0.0);
  EXPECT_EQ(two.cores[2].busy_us[perf::P_M], 0.0);
  // 200 Mmads of 128x256x64 f16 at 8192 flops per cycle: the cube rate, no faster.
  const double cube_us = 200.0 * 2 * 128 * 256 * 64 / 8192.0 / prof().clock_ghz / 1000.0;
  EXPECT_GE(two.body_us, cube_us);
}

TEST(PerfModel, TraceJsonReportAndTimelineRoundTrip) {
  std::string dir = ::testing::TempDir();
  std::string path = dir + "/kgen_perf_trace_" + std::to_string(getpid()) + ".json";
  perf::Result r = run_add(2, 2, 2, 4, path);
  perf::KTrace t;
  std::string err;
  ASSERT_TRUE(perf::load_trace_json(path, t, err)) << err;
  std::remove(path.c_str());
  perf::Options o;
  o.keep_events = true;
  perf::Result j = perf::model(t, prof(), o);
  EXPECT_NEAR(j.time_us, r.time_us, 1e-6);
  EXPECT_EQ(j.gm_bytes, r.gm_bytes);
  std::string text = perf::report_text(j, prof());
  EXPECT_NE(text.find("MODELED on Ascend910B2"), std::string::npos) << text;
  auto rj = nlohmann::json::parse(perf::report_json(j, prof()));
  EXPECT_EQ(rj["soc"], "Ascend910B2");
  EXPECT_TRUE(rj["modeled"].get<bool>());
  auto ct = nlohmann::json::parse(perf::chrome_trace(j, prof()));
  size_t x = 0, launch_spans = 0, counters = 0, starts = 0, ends = 0;
  bool add_named = false;
  for (const auto& e : ct["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == "launch") ++launch_spans;
    else if (e["ph"] == "X") { ++x; add_named |= e["name"] == "Add" && e["args"]["line"].get<int>() > 0; }
    counters += e["ph"] == "C";
    starts += e["ph"] == "s";
    ends += e["ph"] == "f";
  }
  EXPECT_EQ(x, j.events.size());
  EXPECT_TRUE(add_named);
  EXPECT_EQ(launch_spans, 2u);   // host dispatch + launch head, then the body
  EXPECT_GT(counters, 100u);     // busy cores per pipe over the body
  EXPECT_EQ(starts, j.flows.size());
  EXPECT_EQ(ends, j.flows.size());
  EXPECT_GT(j.flows.size(), 0u);
  EXPECT_FALSE(perf::load_trace_json(dir + "/no_such_kgen_trace.json", t, err));
  // KGEN_PROFILE's writer: report and timeline files of one launch.
  std::string pdir = dir + "/kgen_perf_profile_" + std::to_string(getpid());
  perf::profile_launch_to_dir(kgen::sim::last_launch_trace(), pdir, 7, nullptr);
  std::ifstream txt(pdir + "/7_add_kernel<2>.report.txt"), tl(pdir + "/7_add_kernel<2>.timeline.json");
  std::string first;
  std::getline(txt, first);
  EXPECT_NE(first.find("MODELED on Ascend910B2"), std::string::npos) << first;
  EXPECT_TRUE(nlohmann::json::parse(tl).contains("traceEvents"));
  std::filesystem::remove_all(pdir);
}

// Every sync edge the model reports leaves a slice the producer pipe ran and lands where the consumer pipe may go on:
// the arrow starts at an instruction of the producer's pipe, the consumer's next instruction starts no earlier than
// the arrow's end, and a single-buffered pipeline waits on some of them. The scalar unit's issue shows as S spans.
TEST(PerfModel, FlowsAreTheSyncEdgesTheTimelineWaitedOn) {
  perf::Result r = run_add(1, 1, 4);
  ASSERT_FALSE(r.flows.empty());
  std::map<std::pair<uint32_t, int>, std::vector<const perf::Event*>> by_lane;
  for (const perf::Event& e : r.events) by_lane[{e.core, e.pipe}].push_back(&e);
  int waited = 0, kinds = 0;
  std::set<int> seen_kinds;
  for (const perf::Flow& f : r.flows) {
    seen_kinds.insert(f.kind);
    const auto& from = by_lane[{f.from_core, f.from_pipe}];
    if (f.from_pipe != perf::P_S)
      EXPECT_TRUE(std::any_of(from.begin(), from.end(), [&](const perf::Event* e) {
        return std::abs(e->start_us - f.from_us) < 1e-9;
      })) << perf::flow_kind_name(f.kind) << " from " << f.from_us;
    EXPECT_GE(f.to_us + 1e-9, f.from_us);
    const auto& to = by_lane[{f.to_core, f.to_pipe}];
    for (const perf::Event* e : to)
      if (e->start_us + 1e-9 >= f.from_us && e->end_us > f.to_us) {   // the consumer's next instruction
        EXPECT_GE(e->start_us + 1e-9, f.to_us) << perf::flow_kind_name(f.kind);
        break;
      }
    waited += f.waited_us > 0;
  }
  kinds = static_cast<int>(seen_kinds.size());
  EXPECT_GT(waited, 0);
  EXPECT_GE(kinds, 2);   // queues and flags at least
  EXPECT_TRUE(std::any_of(r.events.begin(), r.events.end(), [](const perf::Event& e) { return e.pipe == perf::P_S; }));
}
