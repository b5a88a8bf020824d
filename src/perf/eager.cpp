// The eager PyTorch (torch_npu) baseline model. See eager.h and docs/perf-model.md ("Eager PyTorch baseline").
#include "perf/eager.h"

#include "perf/host_path.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kgen::perf {
using nlohmann::json;

const EagerClass& EagerConsts::cls(const std::string& c) const {
  auto it = classes.find(c);
  if (it != classes.end()) return it->second;
  it = classes.find("other");
  if (it != classes.end()) return it->second;
  static const EagerClass def{0.5, 0.5, 0.0};
  return def;
}

EagerConsts load_eager_consts(const std::string& path_in) {
  std::string path = path_in.empty() ? hardware_dir() + "/eager/torch_npu.json" : path_in;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("no eager constants file " + path + " (hardware/eager/torch_npu.json)");
  EagerConsts c;
  c.file = path;
  try {
    json j = json::parse(in);
    c.host_dispatch_us = j.at("host_dispatch_us").get<double>();
    c.host_view_us = j.at("host_view_us").get<double>();
    for (const auto& t : j.at("matmul_tiles")) c.tiles.emplace_back(t.at(0).get<uint32_t>(), t.at(1).get<uint32_t>());
    for (const auto& [name, o] : j.at("classes").items()) {
      EagerClass e;
      if (o.contains("head_us"))
        throw std::runtime_error("class " + name + ": head_us is gone: launch heads are the SoC profile's "
                                 "launch_pipelined_us (cube) and launch_pipelined_vector_us, shared with custom kernels");
      e.compute_eff = o.value("compute_eff", 1.0);
      e.bw_eff = o.value("bw_eff", 1.0);
      e.tile_fixed_us = o.value("tile_fixed_us", 0.0);
      if (e.compute_eff <= 0 || e.bw_eff <= 0) throw std::runtime_error("class " + name + ": efficiencies must be > 0");
      c.classes[name] = e;
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (c.tiles.empty()) c.tiles.emplace_back(128, 256);
  return c;
}

uint32_t dtype_size(const std::string& d) {
  if (d == "float16" || d == "bfloat16" || d == "int16" || d == "half") return 2;
  if (d == "float64" || d == "int64" || d == "complex64") return 8;
  if (d == "int8" || d == "uint8" || d == "bool") return 1;
  return 4;
}

std::vector<AtenOp> parse_aten_json(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("aten op list is not JSON: ") + e.what());
  }
  const json& ops = j.is_array() ? j : j.at("ops");
  std::vector<AtenOp> r;
  auto tensors = [](const json& a) {
    std::vector<TensorDesc> v;
    for (const auto& t : a) v.push_back({t.at("shape").get<std::vector<int64_t>>(), t.value("dtype", "float32")});
    return v;
  };
  for (const auto& o : ops) {
    AtenOp a;
    a.name = o.at("name").get<std::string>();
    a.cls = o.value("cls", "other");
    if (o.contains("inputs")) a.inputs = tensors(o.at("inputs"));
    if (o.contains("outputs")) a.outputs = tensors(o.at("outputs"));
    a.flops = o.value("flops", 0.0);
    a.bytes = o.value("bytes", 0.0);
    if (o.contains("bmnk")) {
      auto v = o.at("bmnk").get<std::vector<int64_t>>();
      if (v.size() == 4) { a.batch = v[0]; a.m = v[1]; a.n = v[2]; a.k = v[3]; }
    }
    r.push_back(std::move(a));
  }
  return r;
}

namespace {
int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

std::string main_dtype(const AtenOp& op) {
  if (!op.outputs.empty()) return op.outputs[0].dtype;
  if (!op.inputs.empty()) return op.inputs[0].dtype;
  return "float32";
}

// Cube peak of one AIC in flop/s for the dtype: 16x16x16 MACs per cycle for b16, 2x for int8, 1/4 for fp32
// (k0 = 8 and 2 cycles per fractal).
double cube_core_flops(const Profile& p, const std::string& dt) {
  double base = 2.0 * 4096 * p.clock_ghz * 1e9;
  uint32_t s = dtype_size(dt);
  if (s == 1) return base * 2;
  if (s >= 4) return base / 4;
  return base;
}

// CANN's MatMulV3 tiling on the 910B splits K over the cube cores when M and N cannot fill them (hicann/ops-nn
// matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_base_tiling.cpp, SupportMultiSplitK, docs/sources.md S56): K of at
// least 384 per core with fewer than half the cores' worth of 128x128 output tiles; float32 with M, N <= 64 and
// K >= 6144; or K >= 27392 unless both M and N span 4 or more tiles. Returns the cores used, 0 when K is not split.
int64_t split_k_cores(int64_t batch, int64_t m, int64_t n, int64_t k, uint32_t es, int cores) {
  if (batch > 1) return 0;
  const int64_t mt = (m + 127) / 128, nt = (n + 127) / 128;
  const bool split = (k >= 384 * int64_t(cores) && mt * nt < cores / 2) || (es == 4 && m <= 64 && n <= 64 && k >= 6144) ||
                     (k >= 27392 && !(mt >= 4 && nt >= 4));
  if (!split) return 0;
  const int64_t single_k = es == 4 ? 192 : 384;   // singleCoreK (DoDeterministicMultiCoreSplitKTiling)
  return std::min<int64_t>((k + single_k - 1) / single_k, cores);
}

// Matmul/conv: tiles over the AIC cores in waves, or K split over them (split_k_cores); returns exec µs and the bound.
double cube_exec_us(const AtenOp& op, const Profile& p, const EagerConsts& c, const EagerClass& k, std::string& bound) {
  int64_t batch = op.batch, m = op.m, n = op.n, kk = op.k;
  const bool known = m > 0 && n > 0 && kk > 0;
  std::string dt = main_dtype(op);
  if (m <= 0 || n <= 0 || kk <= 0) {
    // conv or unknown shape: an equivalent GEMM from the flops, square in m and n
    double macs = std::max(1.0, op.flops / 2);
    int64_t out = 1;
    if (!op.outputs.empty())
      for (int64_t d : op.outputs[0].shape) out *= std::max<int64_t>(d, 1);
    batch = 1;
    n = std::min<int64_t>(std::max<int64_t>(out, 1), 256);
    m = std::max<int64_t>(1, out / n);
    kk = std::max<int64_t>(1, (int64_t)std::llround(macs / double(m * n)));
  }
  batch = std::max<int64_t>(batch, 1);
  const uint32_t es = dtype_size(dt) >= 4 ? 4 : dtype_size(dt);
  const double core_peak = cube_core_flops(p, dt) * k.compute_eff;
  const int cores = std::max(1, p.aic_cores);
  // per-core GM->L1 rates: first read of an operand from HBM, re-reads by other tiles hit L2
  const double miss_bw = (p.gm_to_l1.bw_gbps > 0 ? p.gm_to_l1.bw_gbps : 150.0) * 1e9;
  const double hit_bw = (p.gm_to_l1.l2_hit_bw_gbps > 0 ? p.gm_to_l1.l2_hit_bw_gbps : miss_bw / 1e9) * 1e9;
  const double l2_bw = (p.l2_gbps > 0 ? p.l2_gbps : 4000.0) * 1e9;
  double best = 1e30;
  std::string best_bound = "cube";
  for (auto [bm0, bn0] : c.tiles) {
    int64_t bm = std::min<int64_t>(bm0, round_up(m, 16)), bn = std::min<int64_t>(bn0, round_up(n, 16));
    int64_t kp = round_up(kk, 16);
    int64_t tiles = batch * ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
    int64_t waves = (tiles + cores - 1) / cores;
    int64_t active = std::min<int64_t>(tiles, cores);
    // operand traffic of all tiles vs the unique operand bytes: the rest are L2 hits
    double traffic = double(tiles) * double(bm + bn) * kp * es;
    double unique = double(batch) * double(round_up(m, 16) + round_up(n, 16)) * kp * es;
    double miss = std::clamp(unique / traffic, 0.0, 1.0);
    double core_bw = 1.0 / (miss / miss_bw + (1 - miss) / hit_bw);
    double bw = std::min(core_bw, l2_bw / double(active));
    double t_cube = 2.0 * bm * bn * kp / core_peak;
    double t_mem = double(bm + bn) * kp * es / bw;
    double t_tile = std::max(t_cube, t_mem) * 1e6 + k.tile_fixed_us;
    double t = waves * t_tile;
    if (t < best) { best = t; best_bound = t_cube >= t_mem ? "cube" : "L2"; }
  }
  double bytes = op.bytes;
  if (known && op.cls == "matmul") {
    // K split over the cores: each core runs the whole M x N output over its share of K into an fp32 workspace slot,
    // then the vector cores add the slots (ReduceKInUb): partials written and read once more.
    if (const int64_t used = split_k_cores(batch, m, n, kk, es, cores)) {
      const int64_t kc = (kk + used - 1) / used;
      const double t_cube = 2.0 * round_up(m, 16) * round_up(n, 16) * round_up(kc, 16) / core_peak;
      const double t_mem = double(round_up(m, 16) + round_up(n, 16)) * kc * es / miss_bw;
      const double partials = double(used) * double(m) * double(n) * 4;
      bytes += 2 * partials;
      const double t = std::max(t_cube, t_mem) * 1e6 + k.tile_fixed_us + 2 * partials / (p.hbm_gbps() * 1e9) * 1e6;
      best = t;
      best_bound = t_cube >= t_mem ? "cube" : "DMA";
    }
    // A matrix whose rows are longer than 65535 elements cannot go from ND to the cube's NZ layout on the fly (the
    // DMA's 16-bit stride): the vector cores first copy it to NZ in workspace, a read and a write of it (S56, nd2nzA/B).
    // Matrix products only (A [m, k] and B [k, n] row-major, as aten's mm/addmm/bmm take them): mv's route through
    // aclnn is not read, so a matrix-vector product is not charged the copy.
    const bool mat = op.name != "mv" && op.name != "addmv" && op.name != "dot";
    const double a_bytes = double(batch) * double(m) * double(kk) * es, b_bytes = double(batch) * double(kk) * double(n) * es;
    const double nd2nz = mat ? (kk > 65535 ? a_bytes : 0) + (n > 65535 ? b_bytes : 0) : 0;
    if (nd2nz > 0) {
      bytes += 2 * nd2nz;
      best += 2 * nd2nz / (p.hbm_gbps() * 1e9) * 1e6;
    }
  }
  double t_hbm = bytes / (p.hbm_gbps() * 1e9 * k.bw_eff) * 1e6;
  if (t_hbm > best) { best = t_hbm; best_bound = "HBM"; }
  bound = best_bound;
  return best;
}

// Vector classes: max(bytes over HBM, element ops over the vector peak). The vector peak counts a
// tensor-tensor op at 2 cycles per 256 B repeat (ascend-hardware-and-perf.md §1.2) on every AIV core.
double vec_exec_us(const AtenOp& op, const Profile& p, const EagerClass& k, std::string& bound) {
  std::string dt = main_dtype(op);
  uint32_t es = std::max<uint32_t>(2, std::min<uint32_t>(4, dtype_size(dt)));
  int cores = std::max(1, p.aiv_cores > 0 ? p.aiv_cores : p.aic_cores);
  double lanes_per_cycle = 256.0 / es / 2.0;
  double vec_peak = cores * lanes_per_cycle * p.clock_ghz * 1e9 * k.compute_eff;
  double t_vec = op.flops / vec_peak * 1e6;
  double t_hbm = op.bytes / (p.hbm_gbps() * 1e9 * k.bw_eff) * 1e6;
  bound = t_vec > t_hbm ? "vector" : "HBM";
  return std::max(t_vec, t_hbm);
}
}  // namespace

EagerOpTime model_eager_op(const AtenOp& op, const Profile& p, const EagerConsts& c) {
  EagerOpTime t;
  t.name = op.name;
  t.cls = op.cls;
  t.flops = op.flops;
  t.bytes = op.bytes;
  if (op.cls == "view") {
    t.host_us = c.host_view_us;
    t.bound = "none";
    return t;
  }
  const EagerClass& k = c.cls(op.cls);
  const bool cube = op.cls == "matmul" || op.cls == "conv";
  t.host_us = c.host_dispatch_us;
  t.head_us = p.pipelined_launch_us(cube);
  t.exec_us = cube ? cube_exec_us(op, p, c, k, t.bound) : vec_exec_us(op, p, k, t.bound);
  t.device_us = t.head_us + t.exec_us;
  if (t.head_us > t.exec_us) t.bound = "launch";
  return t;
}

EagerResult model_eager(const std::vector<AtenOp>& ops, const Profile& p, const EagerConsts& c) {
  EagerResult r;
  r.soc = p.name;
  HostPath path;
  for (const AtenOp& op : ops) {
    EagerOpTime t = model_eager_op(op, p, c);
    t.start_us = path.call(t.host_us, t.device_us);
    t.end_us = t.start_us + t.device_us;
    if (t.device_us > 0 && t.start_us == path.host && t.device_us < t.host_us) t.bound = "host";   // the device waited
    r.device_us += t.device_us;
    r.exec_us += t.exec_us;
    r.host_us += t.host_us;
    r.ops.push_back(std::move(t));
  }
  r.e2e_us = path.e2e_us();
  return r;
}

AtenOp eager_matmul(int64_t m, int64_t n, int64_t k, const std::string& dtype) {
  AtenOp a;
  a.name = "mm";
  a.cls = "matmul";
  a.inputs = {{{m, k}, dtype}, {{k, n}, dtype}};
  a.outputs = {{{m, n}, dtype}};
  a.flops = 2.0 * double(m) * double(n) * double(k);
  a.bytes = double(m * k + k * n + m * n) * dtype_size(dtype);
  a.batch = 1; a.m = m; a.n = n; a.k = k;
  return a;
}

AtenOp eager_elementwise(const std::string& name, int64_t elems, int inputs, const std::string& dtype) {
  AtenOp a;
  a.name = name;
  a.cls = "elementwise";
  for (int i = 0; i < inputs; ++i) a.inputs.push_back({{elems}, dtype});
  a.outputs = {{{elems}, dtype}};
  a.flops = double(elems);
  a.bytes = double(elems) * (inputs + 1) * dtype_size(dtype);
  return a;
}
}  // namespace kgen::perf
