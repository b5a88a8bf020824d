// The one way kgen runs a known list of work items in parallel: `jobs` threads, each taking the next index until the
// list (or a stop flag) runs out. kgen bench (generation and evaluation), kgen generate's samples and kgen examples run
// use it; kgen serve's workers are a different thing (a bounded queue of requests that arrive over time: serve/pool.h).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace kgen {
// Calls fn(i) once for each i in [0, n) on min(jobs, n) threads (at least one); returns when every call has returned.
// Indices are handed out in order. With `stop`, no index is handed out once *stop is true (calls running finish).
template <class F>
void parallel_for(size_t n, int jobs, F&& fn, const std::atomic<bool>* stop = nullptr) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; !(stop && stop->load()) && (i = next.fetch_add(1)) < n;) fn(i);
  };
  const size_t threads = std::min<size_t>(n, static_cast<size_t>(std::max(1, jobs)));
  if (threads <= 1) {
    worker();
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
}
}  // namespace kgen
