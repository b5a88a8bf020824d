// Evaluations on a Dask cluster (`kgen bench --cluster tcp://HOST:8786`, docs/scale-out.md): kgen starts
// python/kgen_cluster/dask_bridge.py, which connects to the scheduler, checks every worker (same kgen version, a
// working sandbox) and sends each evaluation, with its task file and candidate files, to a worker that passed. The
// worker runs its own `kgen cluster worker-eval` in its own sandbox; the result comes back here, where the bench
// stores it exactly as a local run would. Thread-safe: the bench's threads call evaluate() at once, one per
// evaluation the cluster can run at a time.
#pragma once
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "eval/evaluate.h"

namespace kgen::eval {

struct ClusterWorker {
  std::string address, host, why;   // why: the reason a refused worker gets no work
  int nthreads = 0;
};

class Cluster {
 public:
  // Starts the bridge and waits for its report on the workers. nullptr with err when the scheduler cannot be reached,
  // has no workers, or none of them can evaluate (each refusal's reason is in err).
  static std::unique_ptr<Cluster> connect(const std::string& scheduler, const std::string& python, std::string& err);
  ~Cluster();   // closes the bridge's input and waits for it
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  const std::vector<ClusterWorker>& workers() const { return workers_; }   // those that take work
  const std::vector<ClusterWorker>& refused() const { return refused_; }
  int threads() const { return threads_; }                                // evaluations at once

  // Evaluates o.task (whose path relative to its suite is task_rel) x o.candidate on a worker. False with err when the
  // evaluation could not run there (a lost bridge, a worker's kgen failing): nothing about the candidate is known then.
  // The result's candidate path is o.candidate's (the worker's temporary path is not kept).
  bool evaluate(const EvalOptions& o, const std::string& task_rel, EvalResult& r, std::string& err);

 private:
  Cluster() = default;
  void read_answers();   // the reader thread: one answer per line, handed to the waiting evaluate()
  struct Answer {
    bool ready = false, ok = false;
    std::string result_json, error, worker;
  };
  int pid_ = -1, to_ = -1, from_ = -1;   // the bridge and its stdin / stdout
  std::vector<ClusterWorker> workers_, refused_;
  int threads_ = 0;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<long, Answer> answers_;
  long next_id_ = 0;
  bool bridge_gone_ = false;
  std::string bridge_error_;
};

// The scheduler address kgen bench uses: `flag` when given, else $KGEN_CLUSTER, else "" (a local run).
std::string cluster_address(const std::string& flag);

}  // namespace kgen::eval
