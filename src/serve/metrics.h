// What `kgen serve` counts: requests by endpoint and status, evaluations by verdict, answers from the store, and the
// latency of evaluation requests (the last 4096), for GET /metrics (Prometheus text format) and GET /health.
#pragma once
#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/result.h"

namespace kgen::serve {
class Metrics {
 public:
  void request(const std::string& endpoint, int status);
  void answered(const eval::EvalResult& r, bool cached, double latency_s);
  struct Load {
    size_t queued = 0, capacity = 0;
    int busy = 0, workers = 0;
  };
  std::string prometheus(const Load& l) const;
  nlohmann::json health(const Load& l) const;

 private:
  double quantile(double q) const;   // mu_ held
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  std::map<std::string, uint64_t> verdicts_;
  uint64_t answers_ = 0, cached_ = 0;
  std::vector<double> latencies_;
  size_t next_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};
}  // namespace kgen::serve
