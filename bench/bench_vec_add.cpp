// Cost of the emulator's checks: AscendC::Add (count form) on 1M floats in UB, as 128 calls of 8192 floats on
// one emulated core with every check on (bounds, uninit-read, race shadow, trace), against a plain C++ loop
// adding the same 1M floats. Prints both medians and their ratio.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/testing.h"
#include "tikicpulib.h"

namespace {
constexpr int kTile = 8192;   // floats per call: 32 KB per operand, 96 KB of UB for a, b, c
constexpr int kCalls = 128;   // 128 * 8192 = 1M floats per iteration

void BM_EmulatorAdd(benchmark::State& state) {
  kgen::sim::TestCore tc;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * kTile * sizeof(float));
  auto a = buf.Get<float>(kTile);
  auto b = buf.GetWithOffset<float>(kTile, kTile * sizeof(float));
  auto c = buf.GetWithOffset<float>(kTile, 2 * kTile * sizeof(float));
  float* gm = static_cast<float*>(AscendC::GmAlloc(2 * kTile * sizeof(float)));
  for (int i = 0; i < 2 * kTile; ++i) gm[i] = 0.5f * i;
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(gm, 2 * kTile);
  AscendC::DataCopy(a, g, kTile);
  AscendC::DataCopy(b, g[kTile], kTile);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);   // the loads happen before the vector unit reads them
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
  for (auto _ : state) {
    for (int k = 0; k < kCalls; ++k) AscendC::Add(c, a, b, kTile);
    AscendC::PipeBarrier<PIPE_V>();
    tc.core().trace.clear();   // keep the trace from growing across iterations
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  if (c.GetValue(kTile - 1) != gm[kTile - 1] + gm[2 * kTile - 1]) state.SkipWithError("wrong sum");
  state.SetItemsProcessed(state.iterations() * kTile * kCalls);
  AscendC::GmFree(gm);
}
BENCHMARK(BM_EmulatorAdd)->Unit(benchmark::kMillisecond);

void BM_PlainLoop(benchmark::State& state) {
  std::vector<float> a(kTile), b(kTile), c(kTile);
  for (int i = 0; i < kTile; ++i) { a[i] = 0.5f * i; b[i] = 0.5f * (i + kTile); }
  for (auto _ : state) {
    for (int k = 0; k < kCalls; ++k) {
      benchmark::DoNotOptimize(a.data());
      benchmark::DoNotOptimize(b.data());
      // restrict: the baseline is the best loop a compiler makes (vectorised, no alias checks)
      float* __restrict pc = c.data();
      const float* __restrict pa = a.data();
      const float* __restrict pb = b.data();
      for (int i = 0; i < kTile; ++i) pc[i] = pa[i] + pb[i];
      benchmark::ClobberMemory();
    }
  }
  state.SetItemsProcessed(state.iterations() * kTile * kCalls);
}
BENCHMARK(BM_PlainLoop)->Unit(benchmark::kMillisecond);

// Console output as usual, plus the per-iteration time of each benchmark (the median aggregate when run with
// --benchmark_repetitions) for the ratio.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  RatioReporter() : ConsoleReporter(isatty(1) ? OO_Defaults : OO_Tabular) {}
  std::map<std::string, double> ms;
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      std::string name = r.run_name.function_name;
      bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (r.run_type == Run::RT_Iteration && ms.count(name + "/median")) continue;
      if (r.run_type == Run::RT_Aggregate && !median) continue;
      double t = r.GetAdjustedRealTime();   // in the benchmark's unit (ms)
      if (median) ms[name + "/median"] = t;
      ms[name] = t;
    }
  }
};
}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();
  if (rep.ms.count("BM_EmulatorAdd") && rep.ms.count("BM_PlainLoop") && rep.ms["BM_PlainLoop"] > 0) {
    double e = rep.ms["BM_EmulatorAdd"], p = rep.ms["BM_PlainLoop"];
    std::printf("\nAdd on 1M floats (128 x 8192): emulator %.3f ms, plain loop %.3f ms, ratio %.1fx\n", e, p, e / p);
  }
  return 0;
}
