// The worker pool of `kgen serve` (see pool.h).
#include "serve/pool.h"

namespace kgen::serve {
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

namespace {
Pending ready(Outcome o) {
  std::promise<Outcome> p;
  p.set_value(std::move(o));
  return p.get_future().share();
}
// The verdict of a reply that held no code: nothing to compile, nothing to run.
eval::EvalResult no_code_result(const Job& j) {
  eval::EvalResult r;
  r.verdict = eval::Verdict::NoCode;
  r.candidate = j.eval.candidate;
  r.candidate_kind = j.target;
  r.soc = j.eval.soc;
  r.trials = j.eval.trials;
  r.kgen_version = KGEN_VERSION;
  r.task_hash = j.task_hash;
  r.task_id = j.task_id;
  r.diagnostics = {"error[no-code] the reply has no usable code: " + j.no_code_reason};
  return r;
}
}  // namespace

Pool::Pool(int workers, size_t capacity, eval::Store* store)
    : store_(store), capacity_(capacity), owner_(eval::claim_owner()) {
  if (store_) keeper_ = std::make_unique<eval::ClaimKeeper>(store_, owner_);
  for (int i = 0; i < std::max(1, workers); ++i) threads_.emplace_back([this] { work(); });
}

Pool::~Pool() {
  stop();
  for (auto& t : threads_) t.join();
  keeper_.reset();
}

void Pool::drain() {
  std::lock_guard<std::mutex> g(mu_);
  draining_ = true;
}

bool Pool::draining() const {
  std::lock_guard<std::mutex> g(mu_);
  return draining_;
}

bool Pool::idle() const {
  std::lock_guard<std::mutex> g(mu_);
  return queue_.empty() && busy_ == 0;
}

void Pool::stop() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
    for (Task& t : queue_) {
      eval::EvalResult r;
      r.verdict = eval::Verdict::RuntimeError;
      r.error_category = "internal";
      r.diagnostics = {"error[internal] kgen serve stopped before this evaluation ran; submit it again"};
      t.done->set_value({r, false, since(t.queued_at)});
    }
    queue_.clear();
  }
  cv_.notify_all();
}

std::optional<std::vector<Pending>> Pool::submit(const std::vector<Job>& jobs) {
  std::vector<Pending> out(jobs.size());
  std::vector<bool> have(jobs.size(), false);
  // The store first (outside the lock: SQLite is slower than a queue).
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Job& j = jobs[i];
    if (j.no_code) {
      out[i] = ready({no_code_result(j), false, 0});
      have[i] = true;
    } else if (!j.force_refresh && store_) {
      if (auto r = store_->find(j.task_hash, j.store_candidate_hash, KGEN_VERSION, j.eval.soc, 0)) {
        out[i] = ready({*r, true, 0});
        have[i] = true;
      }
    }
  }
  std::lock_guard<std::mutex> g(mu_);
  // What this batch would queue: a key that is neither answered nor running, once (force_refresh: always).
  std::map<std::string, size_t> first_of;
  size_t fresh = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (have[i]) continue;
    if (jobs[i].force_refresh || (!inflight_.count(jobs[i].key) && first_of.emplace(jobs[i].key, i).second)) ++fresh;
  }
  if (stopping_ || draining_ || queue_.size() + fresh > capacity_) return std::nullopt;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (have[i]) continue;
    auto it = inflight_.find(jobs[i].key);
    if (it != inflight_.end() && !jobs[i].force_refresh) {
      out[i] = it->second.answer;
      continue;
    }
    Task t{jobs[i], std::make_shared<std::promise<Outcome>>(), std::chrono::steady_clock::now(), ++next_id_};
    out[i] = t.done->get_future().share();
    inflight_[jobs[i].key] = {out[i], t.id};
    queue_.push_back(std::move(t));
  }
  cv_.notify_all();
  return out;
}

size_t Pool::queued() const {
  std::lock_guard<std::mutex> g(mu_);
  return queue_.size();
}
double Pool::mean_evaluation_s() const {
  std::lock_guard<std::mutex> g(mu_);
  return mean_s_;
}
int Pool::busy() const {
  std::lock_guard<std::mutex> g(mu_);
  return busy_;
}

void Pool::work() {
  for (;;) {
    Task t;
    {
      std::unique_lock<std::mutex> g(mu_);
      cv_.wait(g, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      t = std::move(queue_.front());
      queue_.pop_front();
      ++busy_;
    }
    const double waited = since(t.queued_at);
    // On a shared store the key is claimed first: when another instance holds it, its result is waited for (its
    // claim lapses if it dies, and then this instance evaluates).
    const eval::StoreKey key{t.job.task_hash, t.job.store_candidate_hash, KGEN_VERSION, t.job.eval.soc, 0};
    std::optional<eval::EvalResult> theirs;
    if (store_ && !t.job.force_refresh) {
      std::string err;
      eval::take_turn(*store_, key, owner_, true, theirs, err);
    }
    const bool cached = theirs.has_value();
    eval::EvalResult r = cached ? std::move(*theirs) : eval::evaluate(t.job.eval);   // never throws
    if (!cached) {
      r.candidate_hash = t.job.store_candidate_hash;     // the key qualified by the settings (job.h)
      // kgen's own failures (the sandbox did not start, an internal error) are answered but not kept: the same
      // request later runs again instead of getting a verdict that says nothing about the candidate.
      const bool system_error = r.verdict == eval::Verdict::RuntimeError &&
                                (r.error_category == "internal" || r.error_category == "sandbox");
      std::string err;
      if (store_ && !system_error && !store_->put(r, err)) r.diagnostics.push_back("note: " + err);
      if (store_) store_->release(key, owner_);   // a result not stored (a system error) leaves the key to others
    }
    {
      std::lock_guard<std::mutex> g(mu_);
      --busy_;
      if (!cached) mean_s_ = mean_s_ == 0 ? r.seconds : 0.8 * mean_s_ + 0.2 * r.seconds;
      auto it = inflight_.find(t.job.key);
      if (it != inflight_.end() && it->second.id == t.id) inflight_.erase(it);   // not a later force_refresh's
    }
    t.done->set_value({r, cached, waited});
  }
}
}  // namespace kgen::serve
