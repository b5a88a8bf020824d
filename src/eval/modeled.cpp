// Modeled time from traces, in the evaluator (see modeled.h).
#include "eval/modeled.h"

#include <algorithm>
#include <cctype>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "perf/eager.h"
#include "perf/ktrace_io.h"
#include "perf/model.h"
#include "perf/report.h"

namespace kgen::eval {
double host_call_us() {
  static const double us = perf::load_eager_consts().host_dispatch_us;
  return us;
}

namespace {
// `text` as one file-name component: letters, digits, '=', '.', '-', '_' kept, the rest '_'; `empty` when it is empty.
std::string file_name(const std::string& text, const char* empty) {
  std::string name = text.empty() ? std::string(empty) : text.substr(0, 120);
  for (char& c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '=' || c == '.' || c == '-' || c == '_')) c = '_';
  return name;
}
}  // namespace

bool add_launch(const std::string& bytes, const perf::Profile& p, bool lanes, Modeled& m, std::string& err) {
  perf::KTrace t;
  if (!perf::decode_ktrace(bytes, t, err)) return false;
  perf::Options o;
  o.keep_events = lanes || (!m.profile_prefix.empty() && m.profile_timeline);
  perf::Result r = perf::model(t, p, o);
  // The kernel's name comes from the candidate's trace: made a file name here (no '/', so no path out of the folder).
  if (!m.profile_prefix.empty() &&
      !perf::write_profile(r, p, fmt::format("{}_{}_{}", m.profile_prefix, m.launches, file_name(r.kernel, "kernel")),
                           m.profile_files))
    m.profile_files.push_back("error: cannot write the profile under " + m.profile_prefix);
  ++m.launches;
  const double us = r.steady_us > 0 ? r.steady_us : r.time_us;
  m.path.call(host_call_us(), us);
  m.body_us += r.body_us;
  m.device_us += us;
  m.us = m.path.e2e_us();
  m.launch_us = m.us - m.body_us;
  m.gm_bytes += static_cast<double>(r.gm_bytes);
  m.flops += r.flops;
  if (us > m.longest_us) {
    m.longest_us = us;
    m.bound = r.bound;
    if (lanes) m.lanes = perf::lanes_json(r);
  }
  return true;
}

std::string profile_prefix(const std::string& dir, const std::string& what) { return dir + "/" + file_name(what, "case"); }

void set_modeled(PerfResult& p, const Modeled& m) {
  p.modeled_us = m.us;
  p.launch_us = m.launch_us;
  p.gm_bytes = m.gm_bytes;
  p.flops = m.flops;
  p.bound = m.bound;
}

void set_modeled(CaseResult& c, const Modeled& m) {
  c.launch_us = m.launch_us;
  c.modeled_us = m.us;
  c.gm_bytes = m.gm_bytes;
  c.flops = m.flops;
  c.bound = m.bound;
}

double lower_bound_us(double bytes, int launches, const perf::Profile& p) {
  return launches * p.launch_pipelined_us + bytes / (bound_gbps(bytes, p) * 1e3);
}

double bound_gbps(double bytes, const perf::Profile& p) {
  // Data that fits in L2 may already be there (a benchmark loop, the op before): the L2 rate is the ceiling then.
  return bytes <= static_cast<double>(p.l2_bytes) ? std::max(p.hbm_peak_gbps, p.l2_gbps) : p.hbm_peak_gbps;
}

Timeline timeline_of(const std::string& lanes, const std::string& case_name) {
  Timeline t;
  if (lanes.empty()) return t;
  try {
    nlohmann::json j = nlohmann::json::parse(lanes);
    t.kernel = j.value("kernel", "");
    t.case_name = case_name;
    t.bound = j.value("bound", "");
    t.body_us = j.value("body_us", 0.0);
    t.cores = j.value("cores", 0);
    for (const auto& l : j["lanes"]) {
      TimelineLane lane;
      lane.core = l.value("core", "");
      lane.pipe = l.value("pipe", "");
      lane.busy_us = l.value("busy_us", 0.0);
      lane.spans = l["spans"].get<std::vector<double>>();
      t.lanes.push_back(std::move(lane));
    }
    for (const auto& c : j.value("all_cores", nlohmann::json::array()))
      t.all_cores.push_back({c.value("core", ""), c.value("start_us", 0.0), c.value("end_us", 0.0), c.value("pipe", ""),
                             c.value("busy_us", 0.0)});
  } catch (...) {
    t = Timeline{};
  }
  return t;
}
}  // namespace kgen::eval
