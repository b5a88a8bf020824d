// kgen::parallel_for (base/parallel.h): every index once, never more threads at once than asked, a stop flag honoured.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "base/parallel.h"

TEST(ParallelFor, EachIndexOnceWithinTheJobBound) {
  std::mutex mu;
  std::multiset<size_t> seen;
  std::atomic<int> running{0}, peak{0};
  kgen::parallel_for(40, 3, [&](size_t i) {
    const int now = ++running;
    for (int p = peak.load(); now > p && !peak.compare_exchange_weak(p, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    {
      std::lock_guard<std::mutex> lk(mu);
      seen.insert(i);
    }
    --running;
  });
  ASSERT_EQ(seen.size(), 40u);
  for (size_t i = 0; i < 40; ++i) EXPECT_EQ(seen.count(i), 1u) << i;
  EXPECT_LE(peak.load(), 3);
  EXPECT_GE(peak.load(), 2);   // it did run in parallel
}

TEST(ParallelFor, StopFlagEndsTheHandingOut) {
  std::atomic<bool> stop{false};
  std::atomic<int> calls{0};
  kgen::parallel_for(1000, 2, [&](size_t i) {
    ++calls;
    if (i == 5) stop = true;
  }, &stop);
  EXPECT_LT(calls.load(), 20);
  int none = 0;
  kgen::parallel_for(0, 4, [&](size_t) { ++none; });
  EXPECT_EQ(none, 0);
}
