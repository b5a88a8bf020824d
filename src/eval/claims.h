// Claims held by one process on a shared results store (store.h Claim): who this process is, and the thread that
// renews its claims while it runs, so that a host that dies frees them within kClaimLeaseS seconds.
#pragma once
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "eval/store.h"

namespace kgen::eval {

// "HOST:PID:RANDOM": unique per process, readable in the claims table.
std::string claim_owner();

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
