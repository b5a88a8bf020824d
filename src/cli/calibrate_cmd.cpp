// `kgen perf calibrate [--json]`: every published calibration point of docs/perf-model.md against the model.
// Kernel-level points are synthetic traces (a tiled fp16 matmul, a vector peak loop, a double-buffered Add over
// more bytes than L2, an empty kernel, single DMA transfers) modeled by perf::model; eager points (torch_npu
// per-op latencies) by perf::model_eager. Each point: published figure, modeled figure, unit, error, source.
#include <algorithm>
#include <cmath>
#include <fmt/core.h>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/perf_eager_cmd.h"
#include "perf/eager.h"
#include "perf/model.h"

namespace kgen::cli {
namespace {
using perf::KCore;
using perf::KTrace;
using perf::Op;

constexpr uint8_t kF16 = 0, kF32 = 2;   // kgen::DType values

// Builds the records of one core.
struct CoreBuilder {
  KTrace& t;
  KCore& c;
  void instr(uint8_t pipe, const char* api, uint8_t dt, uint64_t elems, uint64_t bytes, uint32_t repeats,
             int64_t gm_buf = -1, uint64_t gm_off = 0, uint32_t m = 0, uint32_t n = 0, uint32_t k = 0) {
    Op o;
    o.kind = Op::Instr;
    o.pipe = pipe;
    o.dtype = dt;
    o.api = t.intern(api);
    o.elems = elems;
    o.bytes = bytes;
    o.repeats = repeats;
    o.gm_buf = gm_buf;
    o.gm_off = gm_off;
    o.m = m; o.n = n; o.k = k;
    c.ops.push_back(o);
  }
  // SetFlag/WaitFlag<src_dst>(id): the event number is the (src, dst) pair.
  void flag(bool set, uint8_t src, uint8_t dst, int id) {
    Op o;
    o.kind = set ? Op::SetFlag : Op::WaitFlag;
    o.pipe = src;
    o.pipe2 = dst;
    o.event = src * 8 + dst;
    o.id = id;
    c.ops.push_back(o);
  }
  void set(uint8_t s, uint8_t d, int id) { flag(true, s, d, id); }
  void wait(uint8_t s, uint8_t d, int id) { flag(false, s, d, id); }
};

KCore& add_core(KTrace& t, int block, bool aic) {
  t.cores.push_back({});
  KCore& c = t.cores.back();
  c.block = block;
  c.aic = aic;
  return c;
}

// fp16 C[M,N] = A[M,K] B[K,N] as a CATLASS-style kernel on every AIC: base tile 128x256, L1 k-chunks of 256
// double-buffered (A 64 KB + B 128 KB per buffer), L0 k-steps of 64 double-buffered, fp32 accumulation in L0C,
// FixPipe of the fp16 tile to GM. Tiles round-robin over the cores. GM buffers: 0 = A, 1 = B, 2 = C.
KTrace matmul_trace(int64_t M, int64_t N, int64_t K, int cores) {
  KTrace t;
  t.kernel = fmt::format("matmul_fp16_{}x{}x{}", M, N, K);
  const int64_t bm = 128, bn = 256, kl1 = 256, k0 = 64;
  const int64_t mt = (M + bm - 1) / bm, nt = (N + bn - 1) / bn, kc_n = (K + kl1 - 1) / kl1;
  const int64_t tiles = mt * nt;
  int used = static_cast<int>(std::min<int64_t>(cores, tiles));
  t.block_dim = used;
  t.cores.reserve(used);
  for (int b = 0; b < used; ++b) {
    KCore& c = add_core(t, b, true);
    CoreBuilder cb{t, c};
    for (int i = 0; i < 2; ++i) { cb.set(perf::P_MTE1, perf::P_MTE2, i); cb.set(perf::P_M, perf::P_MTE1, i); }
    cb.set(perf::P_FIX, perf::P_M, 0);
    int l1 = 0, l0 = 0;
    for (int64_t tile = b; tile < tiles; tile += used) {
      int64_t ti = tile / nt, tj = tile % nt;
      int64_t m = std::min(bm, M - ti * bm), n = std::min(bn, N - tj * bn);
      cb.wait(perf::P_FIX, perf::P_M, 0);   // L0C free
      for (int64_t kc = 0; kc < kc_n; ++kc) {
        int64_t kk = std::min(kl1, K - kc * kl1);
        int buf = l1++ % 2;
        cb.wait(perf::P_MTE1, perf::P_MTE2, buf);
        // A rows [ti*bm, +m) x cols [kc*kl1, +kk): m bursts of kk*2 bytes; modelled as one transfer per chunk
        cb.instr(perf::P_MTE2, "DataCopy", kF16, m * kk, m * kk * 2, 1, 0, (ti * kc_n + kc) * bm * kl1 * 2);
        cb.instr(perf::P_MTE2, "DataCopy", kF16, kk * n, kk * n * 2, 1, 1, (tj * kc_n + kc) * bn * kl1 * 2);
        cb.set(perf::P_MTE2, perf::P_MTE1, buf);
        cb.wait(perf::P_MTE2, perf::P_MTE1, buf);
        for (int64_t ks = 0; ks < kk; ks += k0) {
          int64_t kstep = std::min(k0, kk - ks);
          int b0 = l0++ % 2;
          cb.wait(perf::P_M, perf::P_MTE1, b0);
          cb.instr(perf::P_MTE1, "LoadData", kF16, m * kstep, m * kstep * 2, 1, -1, 0, m, 0, kstep);
          cb.instr(perf::P_MTE1, "LoadData", kF16, kstep * n, kstep * n * 2, 1, -1, 0, 0, n, kstep);
          cb.set(perf::P_MTE1, perf::P_M, b0);
          cb.wait(perf::P_MTE1, perf::P_M, b0);
          cb.instr(perf::P_M, "Mmad", kF16, m * n, 0, 0, -1, 0, m, n, kstep);
          cb.set(perf::P_M, perf::P_MTE1, b0);
        }
        cb.set(perf::P_MTE1, perf::P_MTE2, buf);
      }
      cb.set(perf::P_M, perf::P_FIX, 0);
      cb.wait(perf::P_M, perf::P_FIX, 0);
      cb.instr(perf::P_FIX, "Fixpipe", kF16, m * n, m * n * 2, 1, 2, (ti * N + tj * bn) * bm * 2, m, n, 0);
      cb.set(perf::P_FIX, perf::P_M, 0);
    }
    cb.wait(perf::P_FIX, perf::P_M, 0);
    for (int i = 0; i < 2; ++i) { cb.wait(perf::P_MTE1, perf::P_MTE2, i); cb.wait(perf::P_M, perf::P_MTE1, i); }
  }
  return t;
}

// Every AIV runs `instrs` Adds (tensor-scalar, 1 repeat/cycle class) of 255 repeats on fp16 UB data.
KTrace vector_peak_trace(int cores, int instrs) {
  KTrace t;
  t.kernel = "vector_peak_adds_fp16";
  t.block_dim = cores;
  for (int b = 0; b < cores; ++b) {
    KCore& c = add_core(t, b, false);
    CoreBuilder cb{t, c};
    for (int i = 0; i < instrs; ++i) cb.instr(perf::P_V, "Adds", kF16, 255 * 128, 255 * 256, 255);
  }
  return t;
}

// z = x + y (fp16) over `elems` elements on every AIV, tiles of `tile` elements, double-buffered (BUFFER_NUM = 2)
// with the flags TQue would set. GM buffers 0 (x), 1 (y), 2 (z).
KTrace add_trace(uint64_t elems, int cores, uint64_t tile) {
  KTrace t;
  t.kernel = "add_fp16_double_buffer";
  t.block_dim = cores;
  uint64_t per = elems / cores;
  for (int b = 0; b < cores; ++b) {
    KCore& c = add_core(t, b, false);
    CoreBuilder cb{t, c};
    for (int i = 0; i < 2; ++i) { cb.set(perf::P_V, perf::P_MTE2, i); cb.set(perf::P_MTE3, perf::P_V, i); }
    uint64_t base = uint64_t(b) * per;
    int it = 0;
    for (uint64_t off = 0; off < per; off += tile, ++it) {
      uint64_t n = std::min(tile, per - off);
      int buf = it % 2;
      uint64_t g = (base + off) * 2;
      cb.wait(perf::P_V, perf::P_MTE2, buf);
      cb.instr(perf::P_MTE2, "DataCopy", kF16, n, n * 2, 1, 0, g);
      cb.instr(perf::P_MTE2, "DataCopy", kF16, n, n * 2, 1, 1, g);
      cb.set(perf::P_MTE2, perf::P_V, buf);
      cb.wait(perf::P_MTE2, perf::P_V, buf);
      cb.wait(perf::P_MTE3, perf::P_V, buf);
      cb.instr(perf::P_V, "Add", kF16, n, n * 6, static_cast<uint32_t>((n * 2 + 255) / 256));
      cb.set(perf::P_V, perf::P_MTE2, buf);
      cb.set(perf::P_V, perf::P_MTE3, buf);
      cb.wait(perf::P_V, perf::P_MTE3, buf);
      cb.instr(perf::P_MTE3, "DataCopy", kF16, n, n * 2, 1, 2, g);
      cb.set(perf::P_MTE3, perf::P_V, buf);
    }
    for (int i = 0; i < 2; ++i) { cb.wait(perf::P_V, perf::P_MTE2, i); cb.wait(perf::P_MTE3, perf::P_V, i); }
  }
  return t;
}

// y[b, j, :] = x[b, :] * scale[j] for j < streams (fp32; the mhc_post kernel of cann/ops-transformer): every AIV
// streams its share of x in tiles of `tile` elements, double-buffered, and writes `streams` scaled copies of each.
// GM buffers 0 (x), 1 (y).
KTrace broadcast_scale_trace(uint64_t elems, int streams, int cores, uint64_t tile) {
  KTrace t;
  t.kernel = "broadcast_scale_fp32";
  t.block_dim = cores;
  const uint64_t per = elems / cores;
  for (int b = 0; b < cores; ++b) {
    KCore& c = add_core(t, b, false);
    CoreBuilder cb{t, c};
    for (int i = 0; i < 2; ++i) { cb.set(perf::P_V, perf::P_MTE2, i); cb.set(perf::P_MTE3, perf::P_V, i); }
    int it = 0;
    for (uint64_t off = 0; off < per; off += tile, ++it) {
      const uint64_t n = std::min(tile, per - off), g = (uint64_t(b) * per + off) * 4;
      const int buf = it % 2;
      cb.wait(perf::P_V, perf::P_MTE2, buf);
      cb.instr(perf::P_MTE2, "DataCopy", kF32, n, n * 4, 1, 0, g);
      cb.set(perf::P_MTE2, perf::P_V, buf);
      cb.wait(perf::P_MTE2, perf::P_V, buf);
      for (int j = 0; j < streams; ++j) {
        cb.wait(perf::P_MTE3, perf::P_V, buf);
        cb.instr(perf::P_V, "Muls", kF32, n, n * 8, static_cast<uint32_t>((n * 4 + 255) / 256));
        cb.set(perf::P_V, perf::P_MTE3, buf);
        cb.wait(perf::P_V, perf::P_MTE3, buf);
        cb.instr(perf::P_MTE3, "DataCopy", kF32, n, n * 4, 1, 1, g * streams + uint64_t(j) * n * 4);
        cb.set(perf::P_MTE3, perf::P_V, buf);
      }
      cb.set(perf::P_V, perf::P_MTE2, buf);
    }
    for (int i = 0; i < 2; ++i) { cb.wait(perf::P_V, perf::P_MTE2, i); cb.wait(perf::P_MTE3, perf::P_V, i); }
  }
  return t;
}

KTrace empty_trace(int cores, bool aic) {
  KTrace t;
  t.kernel = "empty";
  t.block_dim = cores;
  for (int b = 0; b < cores; ++b) add_core(t, b, aic);
  return t;
}

// One core copies `bytes` GM -> UB (AIV) or GM -> L1 (AIC) twice from the same GM range (the second one is the
// measured transfer: a benchmark loop re-reads a buffer that is in L2), at GM offset `off`.
double dma_gbps(const perf::Profile& p, uint64_t bytes, bool aic, uint64_t off) {
  KTrace t;
  t.kernel = "dma";
  t.block_dim = 1;
  KCore& c = add_core(t, 0, aic);
  CoreBuilder cb{t, c};
  for (int i = 0; i < 2; ++i) {
    cb.instr(perf::P_MTE2, "DataCopy", kF16, bytes / 2, bytes, 1, 0, off);
    cb.set(perf::P_MTE2, perf::P_S, i);   // serialise: each transfer starts on an idle pipe (pays its latency)
    cb.wait(perf::P_MTE2, perf::P_S, i);
  }
  perf::Options o;
  o.keep_events = true;
  perf::Result r = perf::model(t, p, o);
  const perf::Event* last = nullptr;
  for (const auto& e : r.events)
    if (e.pipe == perf::P_MTE2) last = &e;
  if (!last || last->end_us <= last->start_us) return 0;
  return double(bytes) / ((last->end_us - last->start_us) * 1e3);
}

struct Point {
  std::string name;
  double published = 0, modeled = 0;
  std::string unit, soc, level, source;
  std::string detail = "";   // how the model got there (launch/body split, bound)
  std::string cls = "";      // the class the summary groups by (class_of when empty)
  double err() const { return published != 0 ? (modeled - published) / published * 100.0 : 0; }
};

// The summary's classes: what kind of work a point measures.
std::string class_of(const std::string& name) {
  auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
  if (starts("kernel matmul")) return "kernel cube";
  if (starts("kernel empty")) return "kernel launch";
  if (starts("kernel")) return "kernel vector";
  if (starts("DMA")) return "kernel DMA";
  if (starts("eager torch matmul") || starts("eager torch.mm")) return "eager matmul";
  return "eager vector";
}

struct Spread {
  double median = 0, p90 = 0, max = 0;
};
// Median, 90th percentile (nearest rank) and maximum of |errors|.
Spread spread(std::vector<double> e) {
  Spread s;
  if (e.empty()) return s;
  std::sort(e.begin(), e.end());
  const size_t n = e.size();
  s.median = n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
  s.p90 = e[std::min(n - 1, static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1)];
  s.max = e.back();
  return s;
}

std::string detail(const perf::Result& r) {
  return fmt::format("launch {:.2f} us + body {:.2f} us ({} waves), bound {}: {}", r.launch_us, r.body_us, r.waves,
                     r.bound, r.why);
}

int run_calibrate(bool json) {
  std::vector<Point> pts;
  auto prof = [](const char* s) { return perf::load_profile(s); };
  perf::EagerConsts ec;
  try {
    ec = perf::load_eager_consts();
    prof("Ascend910B2");
  } catch (const std::exception& e) {
    std::cerr << "kgen perf calibrate: " << e.what() << "\n";
    return 2;
  }
  const char* src293 = "triton-lang/triton-ascend issue #293 (torch_npu fp16 matmul, do_bench; device not stated, "
                       "evaluated on 910B1: 347 TF is 95% of its 363.7 TF peak, 98% of 910B2's)";
  // ---- kernel level: synthetic traces through the kernel model ----
  {
    perf::Profile p = prof("Ascend910B1");
    const double pub_tf[] = {129.961, 296.812, 347.102};
    const int64_t sizes[] = {1024, 2048, 4096};
    for (int i = 0; i < 3; ++i) {
      int64_t n = sizes[i];
      perf::Result r = perf::model(matmul_trace(n, n, n, p.aic_cores), p);
      // do_bench times launches back to back, so the head overhead is hidden: compare the steady per-launch time
      pts.push_back({fmt::format("kernel matmul fp16 {}^3", n), pub_tf[i], 2.0 * n * n * n / (r.steady_us * 1e6),
                     "TFLOP/s", p.name, "kernel", src293, detail(r)});
    }
  }
  {
    perf::Profile p = prof("Ascend910B2");
    perf::Result r = perf::model(vector_peak_trace(p.aiv_cores, 200), p);
    double vbusy = 0;
    for (const auto& c : r.cores) vbusy = std::max(vbusy, c.busy_us[perf::P_V]);
    double elems = double(p.aiv_cores) * 200 * 255 * 128;
    pts.push_back({"kernel vector fp16 peak (Adds, 48 AIV)", 11.06, elems / (vbusy * 1e6), "Telem-op/s", p.name,
                   "kernel", "CATLASS guide: float16 Vector theoretical peak 11.06 TOPS (910B2)"});
    // 64 Mi fp16 elements: x, y, z = 384 MiB > 192 MB L2, all from HBM
    perf::Result a = perf::model(add_trace(64ull << 20, p.aiv_cores, 16384), p);
    pts.push_back({"kernel elementwise Add fp16 384 MiB x+y->z", 1.44, a.gbps / 1000.0, "TB/s",
                   p.name, "kernel",
                   "CATLASS decode GEMM 201 MB in 139.6 us = 1.44 TB/s observed (best published streaming rate; "
                   "ascend-rs: elementwise kernels are HBM-bound)", detail(a)});
    perf::Result e = perf::model(empty_trace(p.aic_cores, true), p);
    pts.push_back({"kernel empty, full-core (24 AIC)", 20.5, e.time_us, "us", p.name, "kernel",
                   "CATLASS bottleneck_analysis_and_optimization.md: A2 full-core head overhead ~20-21 us "
                   "(empty-kernel TaskDuration)", detail(e)});
  }
  {
    perf::Profile p = prof("Ascend910B3");
    const char* kpp = "msKPP resource910b.cpp GM->UB table (910B3), single core";
    pts.push_back({"DMA GM->UB 1 KB", 7.9, dma_gbps(p, 1024, false, 0), "GB/s", p.name, "kernel", kpp});
    pts.push_back({"DMA GM->UB 32 KB", 113, dma_gbps(p, 32768, false, 0), "GB/s", p.name, "kernel", kpp});
    pts.push_back({"DMA GM->UB 192 KB", 187, dma_gbps(p, 196608, false, 0), "GB/s", p.name, "kernel", kpp});
    const char* kpp1 = "msKPP resource910b.cpp GM->L1 table, single core (512 KB: 262-277 GB/s, midpoint)";
    pts.push_back({"DMA GM->L1 1 KB", 9.9, dma_gbps(p, 1024, true, 0), "GB/s", p.name, "kernel", kpp1});
    pts.push_back({"DMA GM->L1 512 KB", 270, dma_gbps(p, 524288, true, 0), "GB/s", p.name, "kernel", kpp1});
    double a512 = dma_gbps(p, 196608, false, 0), a32 = dma_gbps(p, 196608, false, 32);
    pts.push_back({"DMA GM->UB 192 KB, 32 B- vs 512 B-aligned GM", 0.70, a512 > 0 ? a32 / a512 : 0, "ratio", p.name,
                   "kernel", "Ascend C best practices (hiascend 10_0012..16): 32 B-aligned worst case ~70% (A2)"});
  }
  // ---- eager level: the torch_npu baseline model ----
  {
    perf::Profile p = prof("Ascend910B1");
    const int64_t sizes[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
    const double pub_us[] = {3, 3, 3, 4, 7, 17, 58, 396};
    for (int i = 0; i < 8; ++i) {
      perf::EagerOpTime t = perf::model_eager_op(perf::eager_matmul(sizes[i], sizes[i], sizes[i]), p, ec);
      pts.push_back({fmt::format("eager torch matmul fp16 {}^3", sizes[i]), pub_us[i], t.device_us, "us", p.name,
                     "eager", src293});
    }
  }
  {   // torch.mm at real sizes on a stated 910B2: one event pair around 30 back-to-back calls (device-bound here)
    perf::Profile p = prof("Ascend910B2");
    const char* src109 = "zzc0721/torch-performance-test-data issue #109 [S42] (torch.mm on Ascend910B2, 10 warm-up "
                         "calls, events around 30 back-to-back calls)";
    struct Mm { int64_t n; const char* dt; double tf; };
    const Mm mms[] = {{2048, "float16", 251.01}, {4096, "float16", 314.52}, {8192, "float16", 305.46},
                      {4096, "bfloat16", 315.36}, {8192, "bfloat16", 301.23}, {4096, "float32", 84.53}};
    for (const Mm& m : mms) {
      perf::EagerOpTime t = perf::model_eager_op(perf::eager_matmul(m.n, m.n, m.n, m.dt), p, ec);
      pts.push_back({fmt::format("eager torch.mm {} {}^3", m.dt, m.n), m.tf, 2.0 * m.n * m.n * m.n / (t.device_us * 1e6),
                     "TFLOP/s", p.name, "eager", src109});
    }
  }
  {   // mhc_post: torch.einsum('bsd,n->bnsd') (a broadcast aclnnMul) against the AscendC kernel, fp32, 910B2
    perf::Profile p = prof("Ascend910B2");
    const char* srcmhc = "cann/ops-transformer experimental/mhc/mhc_post/docs/performance.md [S59] (Ascend 910B2, "
                         "CANN 8.5; einsum baseline and the AscendC mhc_post kernel, ns = 4 streams)";
    struct Mhc { int64_t b, s, d; double einsum_ms, kernel_ms; };
    const Mhc shapes[] = {{32, 2048, 1024, 1.300, 1.047}, {16, 2048, 1024, 0.480, 0.510}, {16, 1024, 1024, 0.244, 0.260}};
    for (const Mhc& m : shapes) {
      const int64_t x = m.b * m.s * m.d, streams = 4;
      perf::AtenOp mul = perf::eager_elementwise("mul", x * streams, 2, "float32");
      mul.bytes = double(x + streams + x * streams) * 4;   // x and the scales read once, the ns copies written
      perf::EagerOpTime t = perf::model_eager_op(mul, p, ec);
      const std::string shape = fmt::format("({},{},{})x{}", m.b, m.s, m.d, streams);
      pts.push_back({"eager broadcast mul fp32 " + shape, m.einsum_ms * 1e3, t.device_us, "us", p.name, "eager", srcmhc});
      perf::Result r = perf::model(broadcast_scale_trace(uint64_t(x), streams, p.aiv_cores, 8192), p);
      pts.push_back({"kernel broadcast scale fp32 " + shape, m.kernel_ms * 1e3, r.steady_us, "us", p.name, "kernel",
                     srcmhc, detail(r)});
    }
  }
  {
    perf::Profile p = prof("Ascend910B4");
    const int64_t sizes[] = {1024, 4096, 16384};
    const double pub_us[] = {6.756, 5.789, 6.053};
    for (int i = 0; i < 3; ++i) {
      perf::EagerOpTime t = perf::model_eager_op(perf::eager_elementwise("add", sizes[i], 2, "float32"), p, ec);
      pts.push_back({fmt::format("eager torch add fp32 {}", sizes[i]), pub_us[i], t.device_us, "us", p.name, "eager",
                     "Ascend/triton-ascend issue #8 (torch x+y fp32, triton do_bench, 910B4-1)"});
    }
  }

  std::vector<double> errs;
  std::map<std::string, std::vector<double>> by_class;
  for (auto& q : pts) {
    q.cls = class_of(q.name);
    errs.push_back(std::fabs(q.err()));
    by_class[q.cls].push_back(std::fabs(q.err()));
  }
  const Spread all = spread(errs);
  size_t within = std::count_if(errs.begin(), errs.end(), [](double e) { return e <= 25.0; });
  if (json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& q : pts)
      j.push_back({{"name", q.name}, {"published", q.published}, {"modeled", q.modeled}, {"unit", q.unit},
                   {"error_pct", q.err()}, {"source", q.source}, {"soc", q.soc}, {"level", q.level},
                   {"class", q.cls}, {"label", "modeled, " + q.soc}, {"detail", q.detail}});
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  fmt::print("Calibration of the kgen performance model against published measurements (modeled figures)\n");
  fmt::print("{:<50} {:<12} {:>11} {:>11} {:<11} {:>8}\n", "point", "SoC", "published", "modeled", "unit", "error");
  for (const auto& q : pts)
    fmt::print("{:<50} {:<12} {:>11.3f} {:>11.3f} {:<11} {:>+7.1f}%\n", q.name, q.soc, q.published, q.modeled, q.unit,
               q.err());
  for (const auto& q : pts)
    if (!q.detail.empty()) fmt::print("  {}: {}\n", q.name, q.detail);
  fmt::print("\n{:<22} {:>6} {:>14} {:>11} {:>11}\n", "class", "points", "median |error|", "p90 |error|", "max |error|");
  for (const auto& [cls, e] : by_class) {
    const Spread s = spread(e);
    fmt::print("{:<22} {:>6} {:>13.1f}% {:>10.1f}% {:>10.1f}%\n", cls, e.size(), s.median, s.p90, s.max);
  }
  fmt::print("{:<22} {:>6} {:>13.1f}% {:>10.1f}% {:>10.1f}%\n", "all", errs.size(), all.median, all.p90, all.max);
  fmt::print("\n{} of {} points within +-25%; median |error| {:.1f}% (targets: all within 25%, median <= 15%)\n",
             within, pts.size(), all.median);
  fmt::print("Sources: kgen perf calibrate --json, and docs/perf-model.md.\n");
  return 0;
}
}  // namespace

void add_perf_calibrate_cmd(CLI::App* perf, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  auto* c = perf->add_subcommand("calibrate",
                                 "Every published calibration point (matmul TFLOP/s, vector peak, HBM streaming, empty "
                                 "kernel, DMA by size, torch_npu eager latencies): published vs modeled figure");
  c->add_flag("--json", *json, "JSON: a list of {name, published, modeled, unit, error_pct, source, soc, level}");
  c->callback([json, &exit_code] { exit_code = run_calibrate(*json); });
}
}  // namespace kgen::cli
