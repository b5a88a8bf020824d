// Chrome-trace JSON of a modeled launch (opens in Perfetto / chrome://tracing): one process per core, one thread per
// pipe, one complete ("X") event per instruction with its API name and source line; flow arrows for the sync edges
// the model waited on; a launch process with the host-and-launch span and counters of busy cores per pipe.
#include <algorithm>
#include <string>
#include <vector>

#include "perf/report.h"

namespace kgen::perf {
namespace {
void esc(std::string& out, const std::string& s) {
  for (char c : s) {
    if (c == '"' || c == '\\') { out += '\\'; out += c; }
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
}
}  // namespace

std::string chrome_trace(const Result& r, const Profile& p) {
  std::string s;
  s.reserve(r.events.size() * 110 + r.flows.size() * 200 + 200000);
  s += "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"modeled\":true,\"soc\":\"";
  esc(s, p.name);
  s += "\",\"kernel\":\"";
  esc(s, r.kernel);
  char b[640];
  std::snprintf(b, sizeof b, "\",\"time_us\":%.4f,\"launch_us\":%.4f},\"traceEvents\":[\n", r.time_us, r.launch_us);
  s += b;
  bool first = true;
  auto sep = [&] { if (!first) s += ",\n"; first = false; };
  // Time 0 is the launch: the host dispatch and launch head take [0, launch_us), the kernel body follows.
  const double t0 = r.launch_us;
  const size_t launch_pid = r.cores.size();
  for (size_t ci = 0; ci < r.cores.size(); ++ci) {
    const CoreResult& c = r.cores[ci];
    sep();
    std::snprintf(b, sizeof b,
                  "{\"ph\":\"M\",\"pid\":%zu,\"name\":\"process_name\",\"args\":{\"name\":\"block %d %s%s (modeled, %s)\"}}", ci,
                  c.block, c.aic ? "AIC" : "AIV", c.aic ? "" : (c.sub_block ? ".1" : ".0"), p.name.c_str());
    s += b;
    sep();
    std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"pid\":%zu,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%zu}}", ci, ci + 1);
    s += b;
    for (int q = 0; q < kPipes; ++q) {
      sep();
      std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", ci, q,
                    pipe_label(q));
      s += b;
    }
  }
  sep();
  std::snprintf(b, sizeof b,
                "{\"ph\":\"M\",\"pid\":%zu,\"name\":\"process_name\",\"args\":{\"name\":\"launch (modeled, %s)\"}},\n"
                "{\"ph\":\"M\",\"pid\":%zu,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":0}},\n"
                "{\"ph\":\"M\",\"pid\":%zu,\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":\"host + launch\"}},\n",
                launch_pid, p.name.c_str(), launch_pid, launch_pid);
  s += b;
  std::snprintf(b, sizeof b,
                "{\"ph\":\"X\",\"name\":\"host dispatch + launch head\",\"cat\":\"launch\",\"pid\":%zu,\"tid\":0,"
                "\"ts\":0,\"dur\":%.4f,\"args\":{\"launch_us\":%.4f}},\n",
                launch_pid, r.launch_us, r.launch_us);
  s += b;
  std::snprintf(b, sizeof b,
                "{\"ph\":\"X\",\"name\":\"kernel body (%s-bound)\",\"cat\":\"launch\",\"pid\":%zu,\"tid\":0,"
                "\"ts\":%.4f,\"dur\":%.4f,\"args\":{\"body_us\":%.4f,\"waves\":%d}}",
                r.bound.c_str(), launch_pid, t0, r.body_us, r.body_us, r.waves);
  s += b;
  for (const Event& e : r.events) {
    sep();
    const std::string& api = e.api < r.apis.size() ? r.apis[e.api] : r.apis[0];
    s += "{\"ph\":\"X\",\"name\":\"";
    esc(s, api.empty() ? std::string(pipe_label(e.pipe)) : api);
    std::snprintf(b, sizeof b, "\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.4f,\"dur\":%.4f,\"args\":{\"line\":%u,\"count\":%u}}",
                  pipe_label(e.pipe), e.core, e.pipe, t0 + e.start_us, e.end_us - e.start_us, e.line, e.count);
    s += b;
  }
  // Flow arrows (flow v1): the start binds to the producer's slice at from_us, the end to the consumer's next slice.
  size_t id = 0;
  for (const Flow& f : r.flows) {
    ++id;
    sep();
    std::snprintf(b, sizeof b,
                  "{\"ph\":\"s\",\"id\":%zu,\"name\":\"%s\",\"cat\":\"sync\",\"pid\":%u,\"tid\":%u,\"ts\":%.4f},\n"
                  "{\"ph\":\"f\",\"id\":%zu,\"name\":\"%s\",\"cat\":\"sync\",\"pid\":%u,\"tid\":%u,\"ts\":%.4f,"
                  "\"args\":{\"waited_us\":%.4f}}",
                  id, flow_kind_name(f.kind), f.from_core, f.from_pipe, t0 + f.from_us, id, flow_kind_name(f.kind),
                  f.to_core, f.to_pipe, t0 + f.to_us, f.waited_us);
    s += b;
  }
  // Counters: how many cores have each pipe busy, averaged over at most 1000 bins of the body.
  if (!r.events.empty() && r.body_us > 0) {
    const int pipes[] = {P_M, P_V, P_MTE2, P_MTE3};
    const size_t bins = 1000;
    const double w = r.body_us / bins;
    std::vector<double> busy(bins * 4, 0.0);
    for (const Event& e : r.events) {
      const int k = e.pipe == P_M ? 0 : e.pipe == P_V ? 1 : e.pipe == P_MTE2 ? 2 : e.pipe == P_MTE3 ? 3 : -1;
      if (k < 0 || !(e.end_us > e.start_us)) continue;
      size_t i = static_cast<size_t>(std::max(0.0, e.start_us) / w);
      for (; i < bins && i * w < e.end_us; ++i) {
        const double lo = std::max(e.start_us, i * w), hi = std::min(e.end_us, (i + 1) * w);
        if (hi > lo) busy[i * 4 + k] += (hi - lo) / w;
      }
    }
    for (size_t i = 0; i <= bins; ++i) {
      const size_t j = std::min(i, bins - 1);
      sep();
      std::snprintf(b, sizeof b,
                    "{\"ph\":\"C\",\"name\":\"busy cores (modeled)\",\"pid\":%zu,\"ts\":%.4f,\"args\":{\"%s\":%.3f,"
                    "\"%s\":%.3f,\"%s\":%.3f,\"%s\":%.3f}}",
                    launch_pid, t0 + i * w, pipe_label(pipes[0]), i < bins ? busy[j * 4] : 0.0, pipe_label(pipes[1]),
                    i < bins ? busy[j * 4 + 1] : 0.0, pipe_label(pipes[2]), i < bins ? busy[j * 4 + 2] : 0.0,
                    pipe_label(pipes[3]), i < bins ? busy[j * 4 + 3] : 0.0);
      s += b;
    }
  }
  s += "\n]}\n";
  return s;
}
}  // namespace kgen::perf
