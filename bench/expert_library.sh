#!/usr/bin/env bash
# The expert library (kernels/) through `kgen bench --generator expert --timing-check` over the whole suite with
# several trials (CI's tests/tile_expert_test.sh runs one, at the check shapes): pass@1, fast_p and the geomean speedup
# per category, modeled on the Ascend910B2; every correct program's timing-only trace equal to its full run's (the
# perf shapes are timed timing-only); then per task with a perf shape the timing-only run's seconds and peak RSS and
# the perf/check-shape speedups.
# Used by `make bench`.
# Usage: bench/expert_library.sh [BUILD_DIR=build] [TRIALS=5] [JOBS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
trials="${2:-5}"
jobs="${3:-2}"
out=$(mktemp -d /tmp/kgen-expert-library-XXXXXX)
trap 'rm -rf "$out"' EXIT
KGEN_CACHE="$out/cache" "$build/kgen" bench --suite tasks --generator expert --out "$out/bench" --jobs "$jobs" \
  --trials "$trials" --timing-check | grep -v "^\["
# The tasks with a perf shape (PERF): the timing-only run's cost at the benchmark's size, and the two speedups.
/usr/bin/python3 - "$out/bench/results.json" <<'PY'
import json, statistics, sys
allr = json.load(open(sys.argv[1]))["results"]
unequal = [f"{r['task_id']}: {r.get('timing_check')}" for r in allr if r["verdict"] == "correct" and r.get("timing_check") != "equal"]
print(f"timing check: {sum(r['verdict'] == 'correct' for r in allr) - len(unequal)} correct programs' timing-only traces equal"
      + ("; NOT equal: " + ", ".join(unequal) if unequal else ""))
rs = [r for r in allr if r["perf"]["shape"]]
print(f"perf shapes (timing-only, modeled on Ascend910B2): {len(rs)} tasks")
print(f"{'task':<32} {'verdict':<14} {'perf':>8} {'check':>8} {'launch-excl':>11} {'seconds':>8} {'RSS MiB':>8} {'records':>10}")
for r in sorted(rs, key=lambda r: r["task_id"]):
    p = r["perf"]
    print(f"{r['task_id']:<32} {r['verdict']:<14} {p['speedup']:>7.2f}x {r['check_speedup']:>7.2f}x "
          f"{p['body_speedup']:>10.2f}x {p['seconds']:>8.1f} {p['peak_rss_mb']:>8.0f} {p['records']:>10}"
          + (f"  skipped: {p['skipped']}" if p["skipped"] else ""))
timed = [r["perf"] for r in rs if r["perf"]["seconds"] > 0]
if timed:
    print(f"median {statistics.median(p['seconds'] for p in timed):.1f} s, max {max(p['seconds'] for p in timed):.1f} s; "
          f"median RSS {statistics.median(p['peak_rss_mb'] for p in timed):.0f} MiB, "
          f"max {max(p['peak_rss_mb'] for p in timed):.0f} MiB")
sys.exit(1 if unequal else 0)   # a timing-only trace that differs makes the perf-shape figures untrustworthy
PY
