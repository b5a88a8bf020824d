// Claim owners and their renewal (claims.h).
#include "eval/claims.h"

#include <unistd.h>

#include <chrono>
#include <random>

#include <fmt/core.h>

namespace kgen::eval {

std::string claim_owner() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::random_device rd;
  return fmt::format("{}:{}:{:08x}", host[0] ? host : "unknown-host", getpid(), rd());
}

Turn take_turn(Store& s, const StoreKey& k, const std::string& owner, bool wait, std::optional<EvalResult>& stored,
               std::string& err) {
  for (int polls = 0;; ++polls) {
    const Claim c = s.claim(k, owner, kClaimLeaseS, err);
    if (c == Claim::Mine) return Turn::Evaluate;
    if (c == Claim::Done) {
      stored = s.find(k.task_hash, k.candidate_hash, k.kgen_version, k.soc, k.sample, &err);
      return stored ? Turn::Stored : Turn::Evaluate;
    }
    if (!wait) return Turn::Later;
    std::this_thread::sleep_for(std::chrono::milliseconds(polls < 10 ? 200 : 1000));
  }
}

ClaimKeeper::ClaimKeeper(Store* store, std::string owner) : store_(store), owner_(std::move(owner)) {
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> g(mu_);
    while (!cv_.wait_for(g, std::chrono::duration<double>(kClaimRenewS), [this] { return stop_; })) {
      std::string err;
      store_->renew_claims(owner_, kClaimLeaseS, err);   // a failure now is retried at the next tick
    }
  });
}

ClaimKeeper::~ClaimKeeper() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace kgen::eval
