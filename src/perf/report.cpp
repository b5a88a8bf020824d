// Human table and JSON of one modeled launch; KGEN_PROFILE output.
#include "perf/report.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace kgen::perf {
namespace {
struct Ratios {
  double aic_span = 0, aiv_span = 0;   // summed spans of AIC / AIV cores (µs)
  double ratio[kPipes] = {};           // pipe busy / span of the cores that have the pipe
};
Ratios ratios(const Result& r) {
  Ratios x;
  double busy_aic[kPipes] = {}, busy_aiv[kPipes] = {};
  for (const CoreResult& c : r.cores) {
    double span = c.end_us - c.start_us;
    (c.aic ? x.aic_span : x.aiv_span) += span;
    for (int p = 0; p < kPipes; ++p) (c.aic ? busy_aic : busy_aiv)[p] += c.busy_us[p];
  }
  double all = x.aic_span + x.aiv_span;
  for (int p = 0; p < kPipes; ++p) {
    double den = (p == P_V || p == P_MTE3) ? (x.aiv_span > 0 ? x.aiv_span : all)
                 : (p == P_M || p == P_MTE1 || p == P_FIX) ? (x.aic_span > 0 ? x.aic_span : all) : all;
    x.ratio[p] = den > 0 ? (busy_aic[p] + busy_aiv[p]) / den : 0;
  }
  return x;
}
}  // namespace

std::string report_text(const Result& r, const Profile& p) {
  std::string s;
  char b[512];
  std::snprintf(b, sizeof b, "kgen perf: kernel %s, blockDim %u, %d wave(s) -- MODELED on %s (%d AIC / %d AIV @ %.2f GHz), not measured\n",
                r.kernel.c_str(), r.block_dim, r.waves, p.name.c_str(), p.aic_cores, p.aiv_cores, p.clock_ghz);
  s += b;
  std::snprintf(b, sizeof b, "  modeled time      %10.2f us  (launch/head %.2f us + body %.2f us)\n", r.time_us, r.launch_us, r.body_us);
  s += b;
  std::snprintf(b, sizeof b, "  back to back      %10.2f us  per launch when launches queue (head overhead hidden)\n", r.steady_us);
  s += b;
  std::snprintf(b, sizeof b, "  modeled GM bytes  %10.3f MB  (HBM %.3f MB, L2 hits %.3f MB)  -> %.1f GB/s modeled\n",
                r.gm_bytes / 1e6, r.hbm_bytes / 1e6, r.l2_hit_bytes / 1e6, r.gbps);
  s += b;
  std::snprintf(b, sizeof b, "  modeled compute   %10.3f GFLOP (cube %.3f, vector %.3f) -> %.3f TFLOP/s modeled\n", r.flops / 1e9,
                r.cube_flops / 1e9, r.vec_flops / 1e9, r.tflops);
  s += b;
  std::snprintf(b, sizeof b, "  bound             %s: %s\n", r.bound.c_str(), r.why.c_str());
  s += b;
  Ratios x = ratios(r);
  std::snprintf(b, sizeof b, "  pipe utilisation (modeled; msprof PipeUtilization-like): aic_time %.2f us, aiv_time %.2f us\n",
                r.aic_time_us, r.aiv_time_us);
  s += b;
  s += "   ";
  for (int q = 0; q < kPipes; ++q) {
    std::snprintf(b, sizeof b, " %s %.1f%%", pipe_label(q), 100 * x.ratio[q]);
    s += b;
  }
  s += "\n  per core (modeled us):\n    core        wave    start      end";
  for (int q = 0; q < kPipes; ++q) {
    std::snprintf(b, sizeof b, " %8s", pipe_label(q));
    s += b;
  }
  s += "\n";
  size_t shown = 0;
  for (const CoreResult& c : r.cores) {
    if (shown++ == 64) {
      std::snprintf(b, sizeof b, "    ... %zu more cores (see --json)\n", r.cores.size() - 64);
      s += b;
      break;
    }
    std::snprintf(b, sizeof b, "    %3d %s%-2s %4d %8.2f %8.2f", c.block, c.aic ? "AIC" : "AIV",
                  c.aic ? "" : (c.sub_block ? ".1" : ".0"), c.wave, c.start_us, c.end_us);
    s += b;
    for (int q = 0; q < kPipes; ++q) {
      std::snprintf(b, sizeof b, " %8.2f", c.busy_us[q]);
      s += b;
    }
    s += "\n";
  }
  return s;
}

std::string report_json(const Result& r, const Profile& p) {
  using nlohmann::json;
  Ratios x = ratios(r);
  json j;
  j["modeled"] = true;
  j["soc"] = p.name;
  j["profile"] = p.file;
  j["kernel"] = r.kernel;
  j["block_dim"] = r.block_dim;
  j["waves"] = r.waves;
  j["time_us"] = r.time_us;
  j["launch_us"] = r.launch_us;
  j["steady_us"] = r.steady_us;
  j["body_us"] = r.body_us;
  j["gm_bytes"] = r.gm_bytes;
  j["hbm_bytes"] = r.hbm_bytes;
  j["l2_hit_bytes"] = r.l2_hit_bytes;
  j["gbps"] = r.gbps;
  j["flops"] = r.flops;
  j["cube_flops"] = r.cube_flops;
  j["vec_flops"] = r.vec_flops;
  j["tflops"] = r.tflops;
  j["hbm_stretch"] = r.hbm_stretch;
  j["bound"] = r.bound;
  j["why"] = r.why;
  j["aic_time_us"] = r.aic_time_us;
  j["aiv_time_us"] = r.aiv_time_us;
  j["aic_cube_ratio"] = x.ratio[P_M];
  j["aic_mte1_ratio"] = x.ratio[P_MTE1];
  j["aic_fixpipe_ratio"] = x.ratio[P_FIX];
  j["aiv_vec_ratio"] = x.ratio[P_V];
  j["mte2_ratio"] = x.ratio[P_MTE2];
  j["aiv_mte3_ratio"] = x.ratio[P_MTE3];
  j["scalar_ratio"] = x.ratio[P_S];
  json busy = json::object();
  for (int q = 0; q < kPipes; ++q) busy[pipe_label(q)] = r.busy_us[q];
  j["busy_us"] = busy;
  json cores = json::array();
  for (const CoreResult& c : r.cores) {
    json b = json::object();
    for (int q = 0; q < kPipes; ++q) b[pipe_label(q)] = c.busy_us[q];
    cores.push_back({{"block", c.block}, {"core_type", c.aic ? "AIC" : "AIV"}, {"sub_block", c.sub_block}, {"wave", c.wave},
                     {"start_us", c.start_us}, {"end_us", c.end_us}, {"instructions", c.instrs}, {"busy_us", b}});
  }
  j["cores"] = cores;
  return j.dump(1);
}

bool write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

bool write_profile(const Result& r, const Profile& p, const std::string& base, std::vector<std::string>& written) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(base).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  auto put = [&](const char* ext, const std::string& text) {
    if (!write_file(base + ext, text)) return false;
    written.push_back(base + ext);
    return true;
  };
  return put(".report.txt", report_text(r, p)) && put(".report.json", report_json(r, p)) &&
         put(".lanes.json", lanes_json(r)) && (r.events.empty() || put(".timeline.json", chrome_trace(r, p)));
}

void profile_launch_to_dir(const sim::LaunchTrace& t, const std::string& dir, int index, GmLocate locate) {
  try {
    std::filesystem::create_directories(dir);
    const char* soc = std::getenv("KGEN_PROFILE_SOC");
    Profile p = load_profile(soc && *soc ? soc : "Ascend910B2");
    Options o;
    o.keep_events = true;
    o.locate = locate;
    Result r = model_launch(t, p, o);
    std::string base = dir + "/" + std::to_string(index) + "_" + (r.kernel.empty() ? "kernel" : r.kernel);
    std::vector<std::string> written;
    bool ok = write_profile(r, p, base, written);
    if (!ok) std::fprintf(stderr, "kgen: cannot write the performance report to %s\n", dir.c_str());
    else   // say where it went: a profile nobody can find is not one
      std::fprintf(stderr,
                   "kgen: KGEN_PROFILE: launch %d (%s) modeled on %s: %s.report.txt (+ .report.json, "
                   ".timeline.json for Perfetto, .lanes.json)\n",
                   index, r.kernel.empty() ? "kernel" : r.kernel.c_str(), p.name.c_str(), base.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kgen: KGEN_PROFILE: %s\n", e.what());
  }
}
}  // namespace kgen::perf
