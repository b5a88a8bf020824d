#!/usr/bin/env bash
# The benchmarks (not tests): emulator Add vs a plain loop, the performance model speed, and kgen cc compile time. Used by `make bench`.
# Usage: bench/run.sh [BUILD_DIR=build] [N=7]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
n="${2:-7}"
cmake --build "$build" -j1 --target kgen kgen_sim bench_vec_add bench_perf_model bench_tile_compile >/dev/null
echo "== AscendC::Add, 1M floats in UB (checks on) vs plain C++ loop: medians of $n repetitions"
"$build/bench/bench_vec_add" --benchmark_repetitions="$n" --benchmark_report_aggregates_only=true \
  --benchmark_color=false | grep -E "median|^Add on"
echo "== performance model: 1M-record synthetic trace (target < 1 s): medians of $n repetitions"
"$build/bench/bench_perf_model" --benchmark_repetitions="$n" --benchmark_report_aggregates_only=true \
  --benchmark_color=false | grep -E "median"
echo "== tile program -> op project (kgen tile compile in memory, target median <= 10 ms): medians of $n repetitions"
"$build/bench/bench_tile_compile" --benchmark_repetitions="$n" --benchmark_report_aggregates_only=true \
  --benchmark_color=false | grep -E "median"
echo "== the tile compiler fuzzed: 16 accepted mutants' op projects built (tests/tile_fuzz.sh; CI builds 4)"
bash tests/tile_fuzz.sh "$build/kgen" "$PWD" 16 | tail -3
echo "== the bundled activation candidates at their perf shapes, every one (tests/candidates_test.sh; CI takes four)"
CANDIDATES_PERF_ALL=1 bash tests/candidates_test.sh "$build/kgen" "$PWD" | tail -1
echo "== kgen cc compile time"
bench/compile_time.sh "$n" "$build/kgen"
echo "== evaluation throughput: fresh level-1 vector candidates through kgen bench --jobs 2 (the serve issue asks for >= 150 per minute)"
bench/eval_throughput.sh "$build" 2
echo "== the expert library: every program of kernels/ through kgen bench --generator expert (modeled, Ascend910B2)"
bench/expert_library.sh "$build" 5 2
echo "== timing-only runs at benchmark sizes (6.4 GB tensors, a 4096^3 matmul): wall, emulation, peak RSS"
bench/timing_only.sh "$build" 3
echo "== kgen serve under load: 2,000 requests over 60 s, 2 % fresh candidates (docs/rl.md)"
bench/serve_load.sh "$build" 2000 60 0.02 2
echo "== scale-out: the store's cost per result (SQLite, PostgreSQL), evaluations per minute with 1, 2, 4 Dask workers"
bench/scale_out.sh "$build"
