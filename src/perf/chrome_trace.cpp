// Chrome-trace JSON of a modeled launch (opens in Perfetto / chrome://tracing): one process per core, one thread per
// pipe, one complete ("X") event per instruction with its API name and source line.
#include <string>

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
  s.reserve(r.events.size() * 110 + 4096);
  s += "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"modeled\":true,\"soc\":\"";
  esc(s, p.name);
  s += "\",\"kernel\":\"";
  esc(s, r.kernel);
  char b[320];
  std::snprintf(b, sizeof b, "\",\"time_us\":%.4f,\"launch_us\":%.4f},\"traceEvents\":[\n", r.time_us, r.launch_us);
  s += b;
  bool first = true;
  auto sep = [&] { if (!first) s += ",\n"; first = false; };
  for (size_t ci = 0; ci < r.cores.size(); ++ci) {
    const CoreResult& c = r.cores[ci];
    sep();
    std::snprintf(b, sizeof b,
                  "{\"ph\":\"M\",\"pid\":%zu,\"name\":\"process_name\",\"args\":{\"name\":\"block %d %s%s (modeled, %s)\"}}", ci,
                  c.block, c.aic ? "AIC" : "AIV", c.aic ? "" : (c.sub_block ? ".1" : ".0"), p.name.c_str());
    s += b;
    sep();
    std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"pid\":%zu,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%zu}}", ci, ci);
    s += b;
    for (int q = 0; q < kPipes; ++q) {
      sep();
      std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", ci, q,
                    pipe_label(q));
      s += b;
    }
  }
  for (const Event& e : r.events) {
    sep();
    const std::string& api = e.api < r.apis.size() ? r.apis[e.api] : r.apis[0];
    s += "{\"ph\":\"X\",\"name\":\"";
    esc(s, api.empty() ? std::string(pipe_label(e.pipe)) : api);
    std::snprintf(b, sizeof b, "\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.4f,\"dur\":%.4f,\"args\":{\"line\":%u,\"count\":%u}}",
                  pipe_label(e.pipe), e.core, e.pipe, e.start_us, e.end_us - e.start_us, e.line, e.count);
    s += b;
  }
  s += "\n]}\n";
  return s;
}
}  // namespace kgen::perf
