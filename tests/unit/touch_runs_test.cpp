// touch_runs (sim/core.h) checks and records the pieces of a strided operand in one pass over the memory's history.
// It must be exactly touch() called piece after piece: the same history for every byte afterwards, and the same error
// (first failing piece, same message) when one fails. Random histories and random walks (pieces apart, repeated, or
// overlapping the one before, as a broadcast operand's), both ways, compared.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/core.h"
#include "sim/testing.h"
#include "tikicpulib.h"

using namespace AscendC;
using kgen::sim::error_of;
namespace sim = kgen::sim;

namespace {
constexpr uint32_t kBytes = 2048;

struct Access {
  sim::Pipe pipe;
  bool write;
  std::vector<std::pair<uint64_t, uint64_t>> runs;   // (offset, bytes)
  std::vector<std::pair<int, int>> syncs;            // before it: pipe a learns everything pipe b did
};
struct Scenario {
  std::vector<Access> before;   // a random history, each access touched the plain way
  Access last;                  // the strided operand under test
};
Scenario g_scenario;
bool g_batched = false;
std::vector<std::string> g_history;   // per byte, after the last access

std::string describe(const sim::Seg& s) {
  std::string r = std::to_string(s.init) + "/" + std::to_string(s.w_pipe) + "/" + std::to_string(s.w_clock) + "/" +
                  std::to_string(s.w_line) + "/" + (s.w_api ? s.w_api : "-");
  for (uint32_t c : s.r_clock) r += "," + std::to_string(c);
  return r;
}


void k_replay(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, kBytes);
  LocalTensor<uint8_t> t = b.Get<uint8_t>();
  const kgen::rt::LocalRef& ref = kgen::TensorAccess::ref(t);
  sim::Core& c = sim::cur();
  auto run = [&](const Access& a, bool batched) {
    for (auto [x, y] : a.syncs) sim::join(c.vc[x], c.vc[y]);
    sim::issue(a.pipe);
    const kgen::rt::Loc loc = kgen::rt::Loc::current();   // one line for both ways: it is part of the history
    if (batched) {
      sim::touch_runs(ref, a.runs, a.write, a.pipe, "Probe", loc);
    } else {
      for (auto [off, n] : a.runs) sim::touch(ref, off, n, a.write, a.pipe, "Probe", loc);
    }
  };
  for (const Access& a : g_scenario.before) run(a, false);
  run(g_scenario.last, g_batched);
  const sim::Pool& pool = c.pools[static_cast<int>(sim::mem_of(TPosition::VECCALC, *c.soc))];
  g_history.assign(kBytes, "");
  uint32_t start = 0;
  for (const sim::Seg& s : pool.segs) {
    for (uint32_t x = start; x < s.end && x < kBytes + ref.addr; ++x)
      if (x >= ref.addr) g_history[x - ref.addr] = describe(s);
    start = s.end;
  }
}

std::vector<std::pair<uint64_t, uint64_t>> random_runs(std::mt19937& rng, bool walk) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  uint64_t at = rng() % 256;
  const int n = 1 + static_cast<int>(rng() % (walk ? 24 : 2));
  for (int i = 0; i < n && at < kBytes; ++i) {
    const uint64_t len = std::min<uint64_t>(4 * (1 + rng() % 16), kBytes - at);
    runs.push_back({at, len});
    if (walk && rng() % 5 == 0) runs.push_back({at, len});   // a broadcast operand reads the same bytes again
    if (walk && rng() % 6 == 0) {   // ... or its blocks again, shifted: pieces that overlap the one before
      at = at >= 16 ? at - 4 * (1 + rng() % 4) : at;
      continue;
    }
    at += len + (rng() % 3 == 0 ? 0 : 4 * (rng() % 12));
  }
  if (walk && rng() % 10 == 0 && runs.size() > 2) std::swap(runs[0], runs[1]);   // out of order: the plain way
  return runs;
}

Scenario random_scenario(std::mt19937& rng) {
  static const sim::Pipe kPipes[] = {sim::kMTE2, sim::kV, sim::kMTE3, sim::kS};
  Scenario s;
  if (rng() % 8 != 0) s.before.push_back(Access{sim::kMTE2, true, {{0, kBytes}}, {}});   // mostly written first
  const int n = static_cast<int>(rng() % 8);
  for (int i = 0; i < n; ++i) {
    Access a{kPipes[rng() % 4], rng() % 3 != 0, random_runs(rng, false), {}};
    // mostly synchronised, so that the last access fails only some of the time
    for (int q = 0; q < 4; ++q)
      if (rng() % 4 != 0) a.syncs.push_back({a.pipe, kPipes[q]});
    s.before.push_back(a);
  }
  s.last = Access{sim::kV, rng() % 2 == 0, random_runs(rng, true), {}};
  for (int q = 0; q < 4; ++q)
    if (rng() % 5 != 0) s.last.syncs.push_back({sim::kV, kPipes[q]});
  return s;
}
}  // namespace

TEST(TouchRuns, OnePassEqualsPieceAfterPiece) {
  sim::set_throw_on_error(true);
  std::mt19937 rng(20261207);
  int failed = 0, batched_runs = 0;
  for (int i = 0; i < 300; ++i) {
    g_scenario = random_scenario(rng);
    std::string err[2];
    std::vector<std::string> hist[2];
    for (int way = 0; way < 2; ++way) {
      g_batched = way == 1;
      g_history.clear();
      err[way] = error_of([&] { ICPU_RUN_KF(k_replay, 1, nullptr); });
      hist[way] = g_history;
    }
    ASSERT_EQ(err[1], err[0]) << "scenario " << i;
    if (!err[0].empty()) {
      ++failed;
      continue;
    }
    ASSERT_EQ(hist[1].size(), kBytes);
    for (uint32_t x = 0; x < kBytes; ++x) ASSERT_EQ(hist[1][x], hist[0][x]) << "scenario " << i << " byte " << x;
    batched_runs += g_scenario.last.runs.size() > 1;
  }
  // both kinds of outcome were exercised
  EXPECT_GT(failed, 30);
  EXPECT_GT(batched_runs, 75);
  std::printf("%d of 300 scenarios fail (same error both ways), %d compared byte by byte with several pieces\n", failed,
              batched_runs);
}
