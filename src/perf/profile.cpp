#include "perf/profile.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kgen::perf {
namespace fs = std::filesystem;
using nlohmann::json;

const VecCost& Profile::vec_cost(const std::string& cls, uint32_t dtype_bytes) const {
  const VecCost* any = nullptr;
  const VecCost* unary = nullptr;
  for (const VecCost& v : vec) {
    if (v.cls == cls && v.dtype_bytes == dtype_bytes) return v;
    if (v.cls == cls && v.dtype_bytes == 0 && !any) any = &v;
    if (v.cls == "unary" && !unary) unary = &v;
  }
  if (any) return *any;
  for (const VecCost& v : vec)
    if (v.cls == cls) return v;
  if (unary) return *unary;
  static const VecCost def{"unary", 0, 3, 1};
  return def;
}

std::string hardware_dir() {
  if (const char* e = std::getenv("KGEN_HARDWARE_DIR")) return e;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path d = exe.parent_path(); !d.empty() && d != d.root_path(); d = d.parent_path())
      if (fs::exists(d / "hardware/Ascend910B2.json")) return (d / "hardware").string();
  }
#ifdef KGEN_SOURCE_DIR
  return std::string(KGEN_SOURCE_DIR) + "/hardware";
#else
  return "hardware";
#endif
}

namespace {
DmaPath dma(const json& j, const char* key) {
  DmaPath d;
  const json& o = j.at(key);
  d.latency_ns = o.at("latency_ns").get<double>();
  d.bw_gbps = o.at("bw_gbps").get<double>();
  d.l2_hit_bw_gbps = o.value("l2_hit_bw_gbps", d.bw_gbps);
  d.align32_factor = o.value("align32_factor", 1.0);
  return d;
}
}  // namespace

Profile load_profile(const std::string& soc) {
  fs::path path;
  if (soc.find('/') != std::string::npos || (soc.size() > 5 && soc.substr(soc.size() - 5) == ".json")) {
    path = soc;
  } else {
    std::string name = soc.rfind("Ascend", 0) == 0 ? soc : "Ascend" + soc;
    path = fs::path(hardware_dir()) / (name + ".json");
  }
  std::ifstream in(path);
  if (!in) {
    std::string known;
    for (const std::string& n : list_profiles()) known += (known.empty() ? "" : ", ") + n;
    throw std::runtime_error("no SoC profile " + path.string() + " (known: " + known + ")");
  }
  json j;
  try {
    j = json::parse(in);
    Profile p;
    p.file = path.string();
    p.name = j.at("name").get<std::string>();
    p.split = j.value("split", true);
    p.aic_cores = j.at("aic_cores").get<int>();
    p.aiv_cores = j.at("aiv_cores").get<int>();
    p.clock_ghz = j.at("clock_ghz").get<double>();
    p.ub_bytes = j.value("ub_bytes", 0ull);
    p.l1_bytes = j.value("l1_bytes", 0ull);
    p.l0a_bytes = j.value("l0a_bytes", 0ull);
    p.l0b_bytes = j.value("l0b_bytes", 0ull);
    p.l0c_bytes = j.value("l0c_bytes", 0ull);
    p.l2_bytes = j.at("l2_bytes").get<uint64_t>();
    p.hbm_bytes = j.value("hbm_bytes", 0ull);
    p.hbm_peak_gbps = j.at("hbm_peak_gbps").get<double>();
    p.hbm_efficiency = j.value("hbm_efficiency", 1.0);
    p.l2_gbps = j.at("l2_gbps").get<double>();
    p.gm_to_ub = dma(j, "gm_to_ub");
    p.ub_to_gm = dma(j, "ub_to_gm");
    p.gm_to_l1 = dma(j, "gm_to_l1");
    p.l0c_to_gm = dma(j, "l0c_to_gm");
    p.mte1_l0a_bpc = j.at("mte1_l0a_bpc").get<double>();
    p.mte1_l0b_bpc = j.at("mte1_l0b_bpc").get<double>();
    p.mte1_head = j.at("mte1_head").get<double>();
    p.local_copy_bpc = j.at("local_copy_bpc").get<double>();
    p.local_copy_head = j.at("local_copy_head").get<double>();
    p.fix_elems_per_cycle = j.at("fix_elems_per_cycle").get<double>();
    p.fix_head = j.at("fix_head").get<double>();
    p.cube_head = j.at("cube_head").get<double>();
    p.cube_cyc_per_fractal_b16 = j.at("cube_cyc_per_fractal_b16").get<double>();
    p.cube_cyc_per_fractal_b32 = j.at("cube_cyc_per_fractal_b32").get<double>();
    p.cube_k0_b16 = j.at("cube_k0_b16").get<uint32_t>();
    p.cube_k0_b8 = j.at("cube_k0_b8").get<uint32_t>();
    p.cube_k0_b32 = j.at("cube_k0_b32").get<uint32_t>();
    p.scalar_op_cycles = j.at("scalar_op_cycles").get<double>();
    p.issue_cycles = j.at("issue_cycles").get<double>();
    p.flag_cycles = j.at("flag_cycles").get<double>();
    p.launch_base_us = j.at("launch_base_us").get<double>();
    p.launch_per_core_us = j.at("launch_per_core_us").get<double>();
    p.launch_pipelined_us = j.at("launch_pipelined_us").get<double>();
    p.launch_pipelined_vector_us = j.at("launch_pipelined_vector_us").get<double>();
    p.syncall_ns = j.at("syncall_ns").get<double>();
    p.cross_flag_ns = j.at("cross_flag_ns").get<double>();
    for (const json& v : j.at("vector"))
      p.vec.push_back({v.at("class").get<std::string>(), v.value("dtype_bytes", 0u), v.at("head").get<double>(),
                       v.at("per_repeat").get<double>()});
    if (p.clock_ghz <= 0 || p.aic_cores <= 0 || p.aiv_cores <= 0)
      throw std::runtime_error("clock_ghz, aic_cores and aiv_cores must be positive");
    return p;
  } catch (const std::exception& e) {
    throw std::runtime_error("bad SoC profile " + path.string() + ": " + e.what());
  }
}

std::vector<std::string> list_profiles() {
  std::vector<std::string> r;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(hardware_dir(), ec))
    if (e.path().extension() == ".json") r.push_back(e.path().stem().string());
  std::sort(r.begin(), r.end());
  return r;
}
}  // namespace kgen::perf
