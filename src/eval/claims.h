// Claims held by one process on a shared results store (store.h Claim): who this process is, and the thread that
// renews its claims while it runs, so that a host that dies frees them within kClaimLeaseS seconds.
#pragma once
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "eval/store.h"

namespace kgen::eval {

// "HOST:PID:RANDOM": unique per process, readable in the claims table.
std::string claim_owner();

// What a process should do with a key of a shared store (kgen bench and kgen serve ask the same way).
enum class Turn {
  Evaluate,   // this owner holds the claim (or the store failed: err is set): evaluate, then put() the result
  Stored,     // a result is stored under the key: `stored` holds it
  Later,      // another owner holds an unexpired claim (only when !wait)
};
// Claims k for owner. With wait, a key another owner holds is polled (every 0.2 s, then every 1 s) until its result is
// stored or its claim lapses and this owner takes it. A stored result that cannot be read is evaluated again here.
Turn take_turn(Store& s, const StoreKey& k, const std::string& owner, bool wait, std::optional<EvalResult>& stored,
               std::string& err);

class ClaimKeeper {
 public:
  ClaimKeeper(Store* store, std::string owner);   // starts renewing every kClaimRenewS seconds
  ~ClaimKeeper();                                  // stops (the claims left expire by themselves)
  ClaimKeeper(const ClaimKeeper&) = delete;
  ClaimKeeper& operator=(const ClaimKeeper&) = delete;
  const std::string& owner() const { return owner_; }

 private:
  Store* store_;
  std::string owner_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace kgen::eval
