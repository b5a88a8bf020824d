// Counters of the service (see metrics.h).
#include "serve/metrics.h"

#include <algorithm>
#include <fmt/core.h>

namespace kgen::serve {
void Metrics::request(const std::string& endpoint, int status) {
  std::lock_guard<std::mutex> g(mu_);
  ++requests_[{endpoint, status}];
}

void Metrics::answered(const eval::EvalResult& r, bool cached, double latency_s) {
  std::lock_guard<std::mutex> g(mu_);
  ++answers_;
  cached_ += cached;
  ++verdicts_[eval::verdict_name(r.verdict)];
  if (latencies_.size() < 4096) latencies_.push_back(latency_s);
  else latencies_[next_++ % 4096] = latency_s;
}

double Metrics::quantile(double q) const {
  if (latencies_.empty()) return 0;
  std::vector<double> v = latencies_;
  size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
  return v[k];
}

std::string Metrics::prometheus(const Load& l) const {
  std::lock_guard<std::mutex> g(mu_);
  std::string s;
  s += "# HELP kgen_serve_queue_depth Evaluations waiting for a worker.\n# TYPE kgen_serve_queue_depth gauge\n";
  s += fmt::format("kgen_serve_queue_depth {}\n", l.queued);
  s += "# HELP kgen_serve_queue_capacity Evaluations the queue holds before it answers 429.\n"
       "# TYPE kgen_serve_queue_capacity gauge\n";
  s += fmt::format("kgen_serve_queue_capacity {}\n", l.capacity);
  s += "# HELP kgen_serve_workers_busy Workers evaluating now.\n# TYPE kgen_serve_workers_busy gauge\n";
  s += fmt::format("kgen_serve_workers_busy {}\nkgen_serve_workers {}\n", l.busy, l.workers);
  s += "# HELP kgen_serve_requests_total HTTP requests by endpoint and status.\n"
       "# TYPE kgen_serve_requests_total counter\n";
  for (auto& [k, n] : requests_)
    s += fmt::format("kgen_serve_requests_total{{endpoint=\"{}\",status=\"{}\"}} {}\n", k.first, k.second, n);
  s += "# HELP kgen_serve_evaluations_total Evaluation answers by verdict (cached ones included).\n"
       "# TYPE kgen_serve_evaluations_total counter\n";
  for (auto& [v, n] : verdicts_) s += fmt::format("kgen_serve_evaluations_total{{verdict=\"{}\"}} {}\n", v, n);
  s += "# HELP kgen_serve_cached_total Answers served from the results store.\n# TYPE kgen_serve_cached_total counter\n";
  s += fmt::format("kgen_serve_cached_total {}\n", cached_);
  s += "# HELP kgen_serve_latency_seconds Time from a request's arrival to its answer (last 4096).\n"
       "# TYPE kgen_serve_latency_seconds summary\n";
  s += fmt::format("kgen_serve_latency_seconds{{quantile=\"0.5\"}} {:.6f}\nkgen_serve_latency_seconds{{quantile=\"0.95\"}} "
                   "{:.6f}\nkgen_serve_latency_seconds_count {}\n",
                   quantile(0.5), quantile(0.95), answers_);
  s += fmt::format("# HELP kgen_serve_uptime_seconds Seconds since the service started.\n"
                   "# TYPE kgen_serve_uptime_seconds gauge\nkgen_serve_uptime_seconds {:.1f}\n",
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  return s;
}

nlohmann::json Metrics::health(const Load& l) const {
  std::lock_guard<std::mutex> g(mu_);
  return {{"status", "healthy"},
          {"uptime_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()},
          {"queue_status", {{"queued", l.queued}, {"capacity", l.capacity}}},
          {"active_tasks", l.busy},
          {"workers", l.workers},
          {"total_processed", answers_},
          {"cached", cached_},
          {"latency_s", {{"p50", quantile(0.5)}, {"p95", quantile(0.95)}}}};
}
}  // namespace kgen::serve
