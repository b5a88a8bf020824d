// The service's evaluations: a bounded queue in front of a fixed pool of worker threads, each running the sandboxed
// evaluator (eval/evaluate.h). A job whose key the results store already holds is answered from it; a job whose key
// is being evaluated joins that evaluation (one run, every requester gets its answer); a full queue refuses work (the
// caller answers 429). Every finished evaluation is put in the store before anyone is answered, so a restarted
// service answers completed work from the store. Instances sharing one store (PostgreSQL, docs/scale-out.md) claim a
// key before evaluating it: a key another instance is evaluating is answered with that instance's stored result.
// Draining (the first SIGTERM): no new work is taken, what is queued or running finishes and is answered.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "eval/claims.h"
#include "eval/store.h"
#include "serve/job.h"

namespace kgen::serve {
struct Outcome {
  eval::EvalResult result;
  bool cached = false;
  double queue_s = 0;
};
using Pending = std::shared_future<Outcome>;

class Pool {
 public:
  Pool(int workers, size_t queue_capacity, eval::Store* store);
  ~Pool();   // stops taking work; the jobs running finish (their results reach the store)
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  // One future per job, in order, or nullopt (and nothing queued) when they do not all fit in the queue.
  std::optional<std::vector<Pending>> submit(const std::vector<Job>& jobs);
  // Stops taking work and answers every queued job with an error (the running ones finish). Idempotent.
  void stop();
  // Stops taking new work; what is queued or running goes on and is answered. Idempotent.
  void drain();
  bool draining() const;
  bool idle() const;   // nothing queued, nothing running
  size_t queued() const;
  double mean_evaluation_s() const;   // of the last evaluations run (an exponential average; 0 before the first)
  int busy() const;
  int workers() const { return static_cast<int>(threads_.size()); }
  size_t capacity() const { return capacity_; }

 private:
  struct Task {
    Job job;
    std::shared_ptr<std::promise<Outcome>> done;
    std::chrono::steady_clock::time_point queued_at;
    uint64_t id = 0;
  };
  struct Running {
    Pending answer;
    uint64_t id;   // the task it is (a force_refresh run replaces the entry of its key)
  };
  void work();
  eval::Store* store_;
  size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  std::map<std::string, Running> inflight_;   // key -> the evaluation running or queued for it
  uint64_t next_id_ = 0;
  int busy_ = 0;
  double mean_s_ = 0;
  bool stopping_ = false, draining_ = false;
  std::string owner_;                          // this instance's claims on a shared store (eval/claims.h)
  std::unique_ptr<eval::ClaimKeeper> keeper_;
  std::vector<std::thread> threads_;
};
// Seconds from t to now (steady clock): queue waits and request latencies.
double since(std::chrono::steady_clock::time_point t);
}  // namespace kgen::serve
